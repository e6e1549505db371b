# SPDX-License-Identifier: GPL-2.0
#
# Common helpers of the host-side shell scripts of tools/mmio_ordering/,
# for sh and bash. A script names itself (the prefix of its messages),
# sources this file, gives its usage as a here-doc and parses its options
# with a function of its own that takes one option at a time:
#
#	PROG=example
#	. "$(dirname "$0")/lib.sh"
#
#	set_usage <<'EOF'
#	Usage: example.sh [-v] -o OUT FILE...
#	  -o OUT  where to write
#	  -v      say more
#	EOF
#
#	on_option() {
#		case $1 in
#		o) out=$2 ;;
#		v) verbose=1 ;;
#		esac
#	}
#	parse_options o:v "$@"
#	shift $((OPTIND - 1))
#	need -o "$out"
#
# -h prints the usage and exits 0. An unknown option, a missing value or
# a missing required option prints the message and the usage on stderr and
# exits 2. The guest scripts (run by init.sh in the VM) do not use this:
# the initramfs holds only the one script.

PROG=${PROG:-$(basename "$0" .sh)}
USAGE="Usage: $(basename "$0")"

# set_usage: the usage text, from standard input (a here-doc).
set_usage() {
	USAGE=$(cat)
}

# usage [STATUS]: print the usage, on stdout for status 0, and exit.
usage() {
	if [ "${1:-2}" -eq 0 ]; then
		printf '%s\n' "$USAGE"
	else
		printf '%s\n' "$USAGE" >&2
	fi
	exit "${1:-2}"
}

# usage_error MESSAGE...: a bad command line.
usage_error() {
	echo "$PROG: $*" >&2
	usage 2
}

# die MESSAGE...: a failure.
die() {
	echo "$PROG: $*" >&2
	exit 1
}

# log MESSAGE...: progress, on stdout.
log() {
	echo "$PROG: $*"
}

# parse_options OPTSTRING ARG...: getopts(1) over ARG..., calling the
# script's on_option LETTER [VALUE] for every option of OPTSTRING. Leaves
# OPTIND for the caller's `shift $((OPTIND - 1))`.
parse_options() {
	_spec=$1
	shift
	OPTIND=1
	while getopts ":h$_spec" _opt; do
		case $_opt in
		h) usage 0 ;;
		:) usage_error "option -$OPTARG needs a value" ;;
		\?) usage_error "unknown option -$OPTARG" ;;
		*) on_option "$_opt" "${OPTARG-}" ;;
		esac
	done
}

# need OPTION VALUE: a required option.
need() {
	[ -n "$2" ] || usage_error "$1 is required"
}
