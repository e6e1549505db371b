#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Warn about options of a config fragment that did not make it into the
# final .config (unknown symbol, unmet dependency). Kconfig drops them
# silently, which would otherwise show up only as a confusing test failure.
#
# Run with -h for the usage.

PROG=config
. "$(dirname "$0")/lib.sh"

set_usage <<'EOF'
Usage: config-check.sh FRAGMENT CONFIG
  Prints a warning for every option of FRAGMENT that CONFIG does not have.
EOF
parse_options '' "$@"
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage_error "expected FRAGMENT CONFIG"
frag=$1 config=$2
sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/&/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/&/p' "$frag" |
while read -r want; do
	case $want in
	\#*) sym=${want#\# }; sym=${sym%% *}
	     grep -q "^$sym=[ym]" "$config" && echo "config: warning: $want, but $sym is set" ;;
	*)   sym=${want%%=*}
	     grep -qxF "$want" "$config" ||
		echo "config: warning: $want requested, got: $(grep -E "^(# )?$sym[= ]" "$config" || echo 'symbol unknown')" ;;
	esac
done
exit 0
