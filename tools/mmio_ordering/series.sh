#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the feature as a git format-patch series, split the way a
# maintainer reviews it: tools/mmio_ordering/series/series.conf lists the
# patches, each with its commit message file there.
#
# Run with -h for the usage.
set -euo pipefail

PROG=series
. "$(dirname "$0")/lib.sh"

set_usage <<'EOF'
Usage: series.sh [options] REPO TREE generate|check|build [-- MAKE-ARGS...]
  REPO      this repository
  TREE      the kernel tree (build/linux); only its tag "base" is used
  generate  build the series as commits on top of "base" (in a scratch
            index and object directory: the tree and its repository are
            left alone), check that the last one is base + patches +
            overlay, and write it with a cover letter to OUT
  check     generate, then git am the series onto a new worktree of
            "base", check the tree after each patch, and run
            scripts/checkpatch.pl --strict on every patch: any finding
            not excepted in series/checkpatch.ignore is a failure
  build     check, and build x86_64 after every patch (tinyconfig plus
            series/build.config, in KOUT, at nice 19); MAKE-ARGS go to
            the kernel's make (CC=..., LLVM=1). Stops at the first patch
            that does not build or warns in a file the series touches.
Options:
  -o OUT    output directory (default REPO/build/series)
  -w DIR    where the worktree goes (default: OUT's parent)
  -O KOUT   kernel output directory of "build" (default DIR/series-build)
  -j JOBS   parallel jobs (default: nproc)
EOF

out='' workdir='' kout='' jobs=$(nproc)
on_option() {
	case $1 in
	o) out=$2 ;;
	w) workdir=$2 ;;
	O) kout=$2 ;;
	j) jobs=$2 ;;
	esac
}
parse_options o:w:O:j: "$@"
shift $((OPTIND - 1))
[ $# -ge 3 ] || usage_error "expected REPO TREE generate|check|build"
repo=$(cd "$1" && pwd)
tree=$(cd "$2" && pwd)
mode=$3
shift 3
[ "${1:-}" != -- ] || shift
make_args=("$@")
case $mode in
generate|check|build) ;;
*) usage_error "unknown mode $mode" ;;
esac
out=${out:-$repo/build/series}
mkdir -p "$out"
out=$(cd "$out" && pwd)
workdir=${workdir:-$(dirname "$out")}
kout=${kout:-$workdir/series-build}
sdir=$repo/tools/mmio_ordering/series
tag=series
[ "$mode" = generate ] || tag=check-series
[ "$mode" != build ] || tag=series-check
PROG=$tag

t0=$(date +%s)
# Seconds since the start.
elapsed() { echo "$(( $(date +%s) - t0 ))s"; }

git -C "$tree" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "$tree has no tag base (make prepare)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmio-series.XXXXXX")
wt=
cleanup() {
	if [ -n "$wt" ]; then
		rm -rf "$wt"
		git -C "$tree" worktree prune
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The author of the series, and a fixed date, so that the same input gives
# the same patches.
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
GIT_AUTHOR_NAME=$(git -C "$repo" log -1 --format=%an)
GIT_AUTHOR_EMAIL=$(git -C "$repo" log -1 --format=%ae)
GIT_AUTHOR_DATE=$(git -C "$repo" log -1 --format=%ad --date=raw)
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
author="$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"

# New objects (the series' blobs, trees and commits, and what git am
# makes) go to a scratch object directory; the tree's are read through it.
mkdir -p "$tmp/objects/info" "$tmp/objects/pack"
export GIT_ALTERNATE_OBJECT_DIRECTORIES
GIT_ALTERNATE_OBJECT_DIRECTORIES=$(cd "$tree" && cd "$(git rev-parse --git-common-dir)/objects" && pwd)
export GIT_OBJECT_DIRECTORY=$tmp/objects

# git on the scratch index $idx.
gi() { GIT_INDEX_FILE=$idx git -C "$tree" "$@"; }

# --- the spec -------------------------------------------------------------
ns=0
declare -a s_name s_msg s_patches s_files s_symbols
early=' '
while read -r key args; do
	case $key in
	''|\#*) continue ;;
	early) early+="$args " ;;
	stage)
		ns=$((ns + 1))
		read -r "s_name[ns]" "s_msg[ns]" <<< "$args"
		[ -f "$sdir/${s_msg[ns]}" ] || die "series.conf: no message file ${s_msg[ns]}"
		s_patches[ns]='' s_files[ns]='' s_symbols[ns]='' ;;
	patches|files|symbols)
		[ $ns -gt 0 ] || die "series.conf: $key before the first stage" ;;&
	patches) s_patches[ns]+=" $args" ;;
	files) s_files[ns]+=" $args" ;;
	symbols) s_symbols[ns]+=" $args" ;;
	*) die "series.conf: unknown keyword $key" ;;
	esac
done < "$sdir/series.conf"
[ $ns -gt 0 ] || die "series.conf: no stage"

# The overlay, as prepare-tree.sh copies it, without this repository's own
# tooling (tools/mmio_ordering).
overlay_dirs="arch include kernel lib samples tools Documentation drivers mm scripts"
mapfile -t overlay < <(cd "$repo" && for d in $overlay_dirs; do
		[ ! -d "$d" ] || find "$d" -type f ! -name '*.o' ! -name '*.ko' \
			! -name '*.mod' ! -name '*.mod.c' ! -name '.*.cmd' \
			! -name '*.a' ! -name modules.order ! -name Module.symvers
	done | grep -v '^tools/mmio_ordering/' | LC_ALL=C sort)
mapfile -t patches < <(find "$repo/patches" -maxdepth 1 -name '*.patch' -printf '%f\n' |
			LC_ALL=C sort)

# Kconfig symbols of the overlay, with their type and file.
declare -A sym_type sym_file
for f in "${overlay[@]}"; do
	case ${f##*/} in Kconfig*) ;; *) continue ;; esac
	while read -r s t; do
		[ -z "${sym_type[$s]:-}" ] || die "$f: $s is also defined in ${sym_file[$s]}"
		sym_type[$s]=$t
		sym_file[$s]=$f
	done < <(awk -v mode=symbols -f "$sdir/kconfig.awk" "$repo/$f")
done

# claim KIND ITEM: the first stage with a KIND pattern matching ITEM.
claim() {
	local -n pats=s_$1
	local i p
	for ((i = 1; i <= ns; i++)); do
		for p in ${pats[i]}; do
			# shellcheck disable=SC2053
			if [[ $2 == $p ]]; then echo $i; return; fi
		done
	done
	echo 0
}

declare -A file_stage patch_stage sym_stage
errors=()
for f in "${overlay[@]}"; do
	file_stage[$f]=$(set -f; claim files "$f")
	[ "${file_stage[$f]}" != 0 ] || errors+=("overlay file $f is in no patch")
done
for p in "${patches[@]}"; do
	patch_stage[$p]=$(set -f; claim patches "$p")
	[ "${patch_stage[$p]}" != 0 ] || errors+=("patches/$p is in no patch")
done
for s in "${!sym_type[@]}"; do
	sym_stage[$s]=$(set -f; claim symbols "$s")
	if [ "${sym_stage[$s]}" = 0 ]; then
		errors+=("Kconfig symbol $s (${sym_file[$s]}) is introduced by no patch")
	elif [ "${sym_stage[$s]}" -lt "${file_stage[${sym_file[$s]}]}" ]; then
		errors+=("Kconfig symbol $s comes before its file ${sym_file[$s]}")
	fi
done
# A pattern without wildcards names something that must exist.
set -f
for ((i = 1; i <= ns; i++)); do
	for kind in files patches symbols; do
		declare -n pats=s_$kind
		for p in ${pats[i]}; do
			case $p in *[*?[]*) continue ;; esac
			case $kind in
			files) [ -n "${file_stage[$p]:-}" ] ;;
			patches) [ -n "${patch_stage[$p]:-}" ] ;;
			symbols) [ -n "${sym_stage[$p]:-}" ] ;;
			esac || errors+=("series.conf: stage ${s_name[i]}: no $kind $p")
		done
		unset -n pats
	done
done
set +f
if [ ${#errors[@]} -gt 0 ]; then
	for e in "${errors[@]}"; do echo "$tag: $e"; done >&2
	die "fix tools/mmio_ordering/series/series.conf"
fi

# --- file versions per stage ----------------------------------------------
# unifdef from the tree's scripts/unifdef.c.
git -C "$tree" show base:scripts/unifdef.c > "$tmp/unifdef.c"
gcc -O2 -w -o "$tmp/unifdef" "$tmp/unifdef.c" || die "cannot build unifdef"

# Symbols not yet introduced at stage $1.
later_symbols() {
	local s
	for s in "${!sym_stage[@]}"; do
		[ "${sym_stage[$s]}" -le "$1" ] || echo "$s"
	done | LC_ALL=C sort
}

# Squeeze runs of blank lines and drop blank lines at the end.
tidy() {
	cat -s | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# filter_file FILE STAGE: FILE as the tree has it after STAGE.
filter_file() {
	local f=$1 src=$repo/$1 drop rc s args=()
	drop=$(later_symbols "$2" | tr '\n' ' ')
	if [ -z "$drop" ]; then
		cat "$src"
		return
	fi
	case ${f##*/} in
	Kconfig*)
		awk -v mode=filter -v drop="$drop" -f "$sdir/kconfig.awk" "$src" > "$tmp/filtered" ||
			die "$f: cannot remove the symbols of later patches"
		;;
	Makefile|Kbuild)
		awk -v drop="$drop" -f "$sdir/kbuild.awk" "$src" > "$tmp/filtered"
		;;
	*.c|*.h)
		for s in $drop; do args+=("-UCONFIG_$s" "-UCONFIG_${s}_MODULE"); done
		rc=0
		"$tmp/unifdef" "${args[@]}" "$src" > "$tmp/filtered" || rc=$?
		[ $rc -le 1 ] || die "$f: unifdef failed"
		for s in $drop; do
			[[ $early != *" $s "* ]] || continue
			! grep -nE "IS_(ENABLED|BUILTIN|MODULE|REACHABLE)\\(CONFIG_$s\\)" \
				"$tmp/filtered" | sed "s|^|$f:|" | grep . >&2 ||
				die "$f: refers to CONFIG_$s, which a later patch adds"
		done
		;;
	*)
		cat "$src"
		return
		;;
	esac
	if cmp -s "$src" "$tmp/filtered"; then
		cat "$src"
	else
		tidy < "$tmp/filtered"
	fi
}

# Paths of the F: lines a patch adds to MAINTAINERS.
maint_paths() {
	awk '/^diff --git / { m = ($3 == "a/MAINTAINERS") }
	     m && /^\+F:[ \t]/ { print $2 }' "$1"
}

# MAINTAINERS from blob $1 without the F: lines of $maint_new whose path the
# index does not have yet.
maint_filter() {
	local p missing=()
	for p in "${maint_new[@]}"; do
		[ -n "$(gi ls-files -- "$p")" ] || missing+=("$p")
	done
	git -C "$tree" cat-file blob "$1" |
	awk -v miss="${missing[*]:-}" '
		BEGIN { n = split(miss, m, " "); for (i = 1; i <= n; i++) drop[m[i]] = 1 }
		/^F:[ \t]/ && ($2 in drop) { next }
		{ print }'
}

# index_add DIR FILE...: add DIR/FILE to the index as FILE, with the mode
# of the repository's FILE.
index_add() {
	local d=$1 f
	shift
	[ $# -gt 0 ] || return 0
	printf '%s\n' "${@/#/$d/}" | git -C "$tree" hash-object -w --stdin-paths --no-filters \
		> "$tmp/blobs"
	for f in "$@"; do
		if [ -x "$repo/$f" ]; then echo 100755; else echo 100644; fi
	done | paste -d' ' - "$tmp/blobs" | paste -d'\t' - <(printf '%s\n' "$@") |
		gi update-index --add --index-info
}

# --- the commits ----------------------------------------------------------
idx=$tmp/index
gi read-tree base
parent=$(git -C "$tree" rev-parse 'base^{commit}')
base_tree=$(git -C "$tree" rev-parse 'base^{tree}')
prev_tree=$base_tree
maint_full=
maint_new=()
declare -a trees subjects
for ((i = 1; i <= ns; i++)); do
	for p in "${patches[@]}"; do
		[ "${patch_stage[$p]}" = "$i" ] || continue
		mapfile -t mp < <(maint_paths "$repo/patches/$p")
		if [ -n "$maint_full" ] && grep -q '^diff --git a/MAINTAINERS ' "$repo/patches/$p"; then
			gi update-index --cacheinfo "100644,$maint_full,MAINTAINERS"
		fi
		gi apply --cached --whitespace=nowarn "$repo/patches/$p" ||
			die "patches/$p does not apply in patch $i (${s_name[i]})"
		if grep -q '^diff --git a/MAINTAINERS ' "$repo/patches/$p"; then
			maint_full=$(gi rev-parse :MAINTAINERS)
			maint_new+=("${mp[@]}")
		fi
	done
	# The overlay files so far, as of this stage: one index update.
	rm -rf "$tmp/v"
	files=()
	for f in "${overlay[@]}"; do
		[ "${file_stage[$f]}" -le "$i" ] || continue
		mkdir -p "$tmp/v/${f%/*}"
		filter_file "$f" "$i" > "$tmp/v/$f"
		files+=("$f")
	done
	index_add "$tmp/v" "${files[@]}"
	if [ -n "$maint_full" ]; then
		blob=$(maint_filter "$maint_full" | git -C "$tree" hash-object -w --stdin)
		gi update-index --cacheinfo "100644,$blob,MAINTAINERS"
	fi
	t=$(gi write-tree)
	[ "$t" != "$prev_tree" ] || die "patch $i (${s_name[i]}) changes nothing"
	msg=$sdir/${s_msg[i]}
	sed -n '2p' "$msg" | grep -q '^$' || die "${s_msg[i]}: the subject must be followed by a blank line"
	! grep -q '^Signed-off-by:' "$msg" || die "${s_msg[i]}: the Signed-off-by line is added here"
	{ cat "$msg"; echo; echo "Signed-off-by: $author"; } > "$tmp/msg"
	parent=$(git -C "$tree" commit-tree "$t" -p "$parent" -F "$tmp/msg")
	trees[i]=$t
	subjects[i]=$(head -1 "$msg")
	prev_tree=$t
done
tip=$parent

# --- the tree after the last patch: base + patches + overlay --------------
idx=$tmp/expected
gi read-tree base
for p in "${patches[@]}"; do
	gi apply --cached --whitespace=nowarn "$repo/patches/$p" || die "patches/$p does not apply to base"
done
index_add "$repo" "${overlay[@]}"
expected=$(gi write-tree)
if [ "$expected" != "${trees[ns]}" ]; then
	echo "$tag: after the last patch the tree differs from base + patches + overlay:" >&2
	git -C "$tree" diff-tree -r --name-status "$expected" "${trees[ns]}" >&2
	exit 1
fi

# --- format-patch and the cover letter ------------------------------------
rm -f "$out"/*.patch
git -C "$tree" format-patch -q --cover-letter -o "$out" "base..$tip"
mapfile -t mails < <(find "$out" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-cover-letter.patch' \
		-printf '%f\n' | LC_ALL=C sort)
[ ${#mails[@]} -eq "$ns" ] || die "format-patch wrote ${#mails[@]} patches, expected $ns"

# checkpatch exceptions: "STAGE TYPE FILE-GLOB [~ERE] REASON..." lines.
ignore=$sdir/checkpatch.ignore
declare -a ig_stage ig_type ig_file ig_re ig_reason ig_line
ni=0
if [ -f "$ignore" ]; then
	ln=0
	while IFS= read -r l; do
		ln=$((ln + 1))
		case $l in ''|\#*) continue ;; esac
		read -r st ty fg rest <<< "$l"
		re=
		if [ "${rest#\~}" != "$rest" ]; then
			re=${rest%%[[:space:]]*}
			re=${re#\~}
			rest=${rest#*[[:space:]]}
		fi
		[ -n "$rest" ] || die "checkpatch.ignore:$ln: no reason given"
		if [ "$st" != '*' ]; then
			found=0
			for ((i = 1; i <= ns; i++)); do
				[ "${s_name[i]}" != "$st" ] || found=1
			done
			[ $found = 1 ] || die "checkpatch.ignore:$ln: no stage $st"
		fi
		ni=$((ni + 1))
		ig_stage[ni]=$st ig_type[ni]=$ty ig_file[ni]=$fg ig_re[ni]=$re
		ig_reason[ni]=$rest ig_line[ni]=$ln
	done < "$ignore"
fi

# Patch number of stage name $1 (0 for "*": every patch).
stage_nr() {
	local i
	[ "$1" != '*' ] || { echo 0; return; }
	for ((i = 1; i <= ns; i++)); do
		[ "${s_name[i]}" != "$1" ] || echo "$i"
	done
}

# The exceptions for the cover letter, one item per type, file and reason,
# with the patches it applies to.
exceptions() {
	local k key keys=() n
	declare -A nrs
	for ((k = 1; k <= ni; k++)); do
		key="${ig_type[k]}"$'\t'"${ig_file[k]}"$'\t'"${ig_reason[k]}"
		n=$(stage_nr "${ig_stage[k]}")
		[ -n "${nrs[$key]:-}" ] || keys+=("$n"$'\t'"$key")
		nrs[$key]+=" $n"
	done
	printf '%s\n' "${keys[@]}" | sort -n -s -k1,1 | cut -f2- |
	while IFS=$'\t' read -r ty fg reason; do
		n=${nrs["$ty"$'\t'"$fg"$'\t'"$reason"]# }
		n=${n// /, }
		case $n in
		0) n="all patches" ;;
		*,*) n="patches ${n%, *} and ${n##*, }" ;;
		*) n="patch $n" ;;
		esac
		[ "$fg" = '*' ] || ty="$ty in $fg"
		echo "- $n, $ty: $reason"
	done | fold -s -w 70 | sed '/^- /!s/^/  /; s/ *$//'
}

# scripts/get_maintainer.pl's list for each patch, from the MAINTAINERS of
# the tree the series builds.
recipients() {
	local i to
	for ((i = 0; i < ${#mails[@]}; i++)); do
		to=$(cd "$tree" && perl scripts/get_maintainer.pl --no-git \
			--no-git-fallback --no-rolestats --no-multiline --separator ', ' \
			"$out/${mails[i]}" 2>/dev/null) ||
			die "get_maintainer.pl failed on ${mails[i]}"
		echo "- $((i + 1))/${#mails[@]} ${subjects[i + 1]}: $to"
	done | fold -s -w 70 | sed '/^- /!s/^/  /; s/ *$//'
}

cover=$out/0000-cover-letter.patch
{
	tail -n +3 "$sdir/cover.txt"
	mk=$(git -C "$tree" show base:Makefile)
	v=$(sed -n 's/^VERSION = //p' <<< "$mk").$(sed -n 's/^PATCHLEVEL = //p' <<< "$mk")
	sl=$(sed -n 's/^SUBLEVEL = //p' <<< "$mk")
	[ "$sl" = 0 ] || v=$v.$sl
	echo
	echo "The series applies to Linux $v."
	if [ $ni -gt 0 ]; then
		echo
		echo "checkpatch.pl --strict reports only these, on purpose:"
		exceptions
	fi
	echo
	echo "Recipients of each patch (scripts/get_maintainer.pl --no-git):"
	recipients
} > "$tmp/blurb"
awk -v subj="$(head -1 "$sdir/cover.txt")" -v blurb="$tmp/blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; next }
	{ print }' "$cover" > "$tmp/cover" && mv "$tmp/cover" "$cover"

if [ "$mode" = generate ]; then
	log "${#mails[@]} patches in $out ($(elapsed)); cover letter $cover"
	exit 0
fi

# --- check: git am onto base, checkpatch, build ---------------------------
# The build needs the whole tree; git am only the files the series
# touches: a sparse checkout of those (set up by hand, so that the
# repository's config is left alone) takes a second instead of minutes.
wt=$workdir/series-wt.$$
rm -rf "$wt"
git -C "$tree" worktree prune
if [ "$mode" = build ]; then
	sparse=false
	git -C "$tree" worktree add -q --detach "$wt" base
else
	sparse=true
	git -C "$tree" worktree add -q --no-checkout --detach "$wt" base
	gd=$(git -C "$wt" rev-parse --absolute-git-dir)
	mkdir -p "$gd/info"
	git -C "$tree" diff-tree -r --name-only base "$tip" | sed 's|^|/|' > "$gd/info/sparse-checkout"
	git -c core.sparseCheckout=true -C "$wt" reset -q --hard base
fi
wgit() { git -c core.sparseCheckout=$sparse -C "$wt" "$@"; }
log "series generated; git am onto base in $wt ($(elapsed))"

# Kernel build of the tree in $wt after patch $1. The kernel's make must
# not see the variables of the make that runs this script.
unset MAKEFLAGS MFLAGS MAKELEVEL
build_stage() {
	local i=$1 cfg=$kout-config frag=$tmp/frag want s got start log
	start=$(date +%s)
	log=$kout/series-$i.log
	mkdir -p "$cfg" "$kout"
	cp "$sdir/build.config" "$frag"
	# Every tristate symbol of the series so far as a module, where its
	# dependencies allow (the kselftest module, ...).
	for s in "${!sym_type[@]}"; do
		if [ "${sym_type[$s]}" = tristate ] && [ "${sym_stage[$s]}" -le "$i" ] &&
		   ! grep -q "CONFIG_${s}[= ]" "$frag"; then
			echo "CONFIG_$s=m" >> "$frag"
		fi
	done
	local kmake=(make -s -C "$wt" ARCH=x86_64 "${make_args[@]}")
	"${kmake[@]}" O="$cfg" tinyconfig > /dev/null
	"$wt/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "$frag" > /dev/null
	"${kmake[@]}" O="$cfg" olddefconfig
	# What was asked must be set, unless the symbol does not exist yet.
	while read -r want; do
		s=${want%%=*}
		s=${s#CONFIG_}
		got=$(grep -E "^(# )?CONFIG_${s}[= ]" "$cfg/.config" || true)
		[ "$got" != "$want" ] || continue
		# Absent: not there yet (before the last patch), unless it is a
		# symbol of the series that an earlier patch added.
		if [ -z "$got" ] && [ "$i" -lt "$ns" ] &&
		   ! { [ -n "${sym_stage[$s]:-}" ] && [ "${sym_stage[$s]}" -le "$i" ]; }; then
			continue
		fi
		if grep -qxF "$want" "$sdir/build.config"; then
			die "patch $i: $want requested, got: ${got:-nothing}"
		fi
		log "patch $i: note: $want not possible here (${got:-unknown})"
	done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag")
	cmp -s "$cfg/.config" "$kout/.config" 2>/dev/null || cp "$cfg/.config" "$kout/.config"
	if ! CCACHE_BASEDIR=$wt nice -n 19 make -C "$wt" O="$kout" ARCH=x86_64 -j"$jobs" \
			"${make_args[@]}" vmlinux modules > "$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -20 >&2 || tail -20 "$log" >&2
		die "patch $i/$ns (${subjects[i]}) does not build; log: $log"
	fi
	# No warning in a file the series touches (or its object: objtool),
	# nor one that names the feature's functions (objtool on vmlinux.o).
	git -C "$wt" diff --name-only base HEAD > "$tmp/touched"
	if awk 'FILENAME == ARGV[1] { t[++n] = $0; next }
		/warning:/ && /mmio_ordering/ {
			print
			bad = 1
			next
		}
		/: warning: / {
			f = $1
			sub(/:.*/, "", f)
			sub(/\.o$/, ".c", f)	# objtool
			for (k = 1; k <= n; k++)
				if (f == t[k] || substr(f, length(f) - length(t[k])) == "/" t[k]) {
					print
					bad = 1
					break
				}
		}
		END { exit !bad }' "$tmp/touched" "$log" >&2; then
		die "patch $i/$ns (${subjects[i]}) builds with warnings; log: $log"
	fi
	log "[$i/$ns] builds ($(( $(date +%s) - start ))s): ${subjects[i]}"
}

for ((i = 1; i <= ns; i++)); do
	mail=$out/${mails[i - 1]}
	if ! wgit am -q "$mail"; then
		wgit am --abort || true
		die "patch $i/$ns (${mails[i - 1]}) does not apply with git am"
	fi
	[ "$(wgit rev-parse 'HEAD^{tree}')" = "${trees[i]}" ] ||
		die "patch $i/$ns: git am gives another tree than the generator"
	[ "$mode" != build ] || build_stage "$i"
done
log "git am: ${#mails[@]} patches apply, each gives the generated tree, the last" \
    "base + patches + overlay ($(elapsed))"

# checkpatch from the kernel tree, which it only reads, in parallel; then
# the findings no exception covers.
: > "$tmp/rules"
for ((k = 1; k <= ni; k++)); do
	fre=$(sed 's/[].^$+(){}|\\[]/\\&/g; s/\*/.*/g; s/?/./g' <<< "${ig_file[k]}")
	printf '%s\t%s\t%s\t%s\t%s\n' "$k" "${ig_type[k]}" "^$fre\$" "${ig_re[k]}" "${ig_stage[k]}" >> "$tmp/rules"
done
for ((i = 1; i <= ns; i++)); do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	(cd "$tree" || exit
	 ./scripts/checkpatch.pl --strict --show-types --no-summary --root="$tree" \
		"$out/${mails[i - 1]}" > "$tmp/cp.$i" 2>&1) &
done
wait
failed=0
: > "$tmp/used"
for ((i = 1; i <= ns; i++)); do
	awk -F'\t' -v s="${s_name[i]}" '$5 == "*" || $5 == s' "$tmp/rules" |
		cut -f1-4 > "$tmp/rules.$i"
	if awk -v rules="$tmp/rules.$i" -v used="$tmp/used" -f "$sdir/checkpatch.awk" \
			"$tmp/cp.$i" > "$tmp/found.$i"; then
		log "[$i/$ns] checkpatch clean: ${mails[i - 1]}"
	else
		echo "--- checkpatch: ${mails[i - 1]}"
		cat "$tmp/found.$i"
		failed=$((failed + 1))
	fi
done
for ((k = 1; k <= ni; k++)); do
	grep -qx "$k" "$tmp/used" ||
		log "note: checkpatch.ignore:${ig_line[k]} (${ig_type[k]} ${ig_file[k]}) excepted nothing"
done
[ $failed -eq 0 ] || die "checkpatch --strict: findings in $failed of $ns patches (exceptions: $ignore)"
log "$ns patches, checkpatch --strict clean ($(grep -c . "$tmp/used" || true) findings excepted, $(elapsed)); cover letter $cover"
