#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the kernel working tree for this project:
#   1. create it if missing: the linux-source tarball (or a copy of $KSRC),
#      committed to git and tagged "base";
#   2. apply patches/*.patch, only when the patch set changed (files touched
#      by the old or new set are first put back as they are in "base");
#   3. copy the overlay directories into it (rsync -c: unchanged files keep
#      their mtime, so kbuild rebuilds only what really changed).
#
# Files in the tree that were edited by hand are never overwritten: the
# script stops and names them (FORCE=1 overwrites them anyway).
#
# Run with -h for the usage.
set -euo pipefail

PROG=prepare
. "$(dirname "$0")/lib.sh"

set_usage <<'EOF'
Usage: prepare-tree.sh REPO BUILD_DIR [KSRC]
  The tree is BUILD_DIR/linux; stamps live in BUILD_DIR (outside the tree).
  KSRC is a kernel tree to copy instead of the linux-source tarball.
EOF
parse_options '' "$@"
shift $((OPTIND - 1))
case $# in 2|3) ;; *) usage_error "expected REPO BUILD_DIR [KSRC]" ;; esac

repo=$(cd "$1" && pwd)
bdir=$2
ksrc=${3:-}
tree=$bdir/linux
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
stamp=$bdir/patches.stamp	# hash of the applied patch set
pfiles=$bdir/patches.files	# files the applied patch set touches
olist=$bdir/overlay.files	# files the overlay copied
manifest=$bdir/tree.manifest	# "blob path" of every file written here

# Top-level repository directories that mirror kernel tree paths.
overlay_dirs="arch include kernel lib samples tools Documentation drivers mm scripts"
# Never copy build artefacts of an in-place module build, or the byte code
# of the tools' Python, into the tree.
rsync_excludes=(--exclude='*.o' --exclude='*.ko' --exclude='*.mod'
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a'
		--exclude=modules.order --exclude=Module.symvers
		--exclude=__pycache__)

if [ -n "$ksrc" ] && ! { [ -f "$ksrc/Makefile" ] && [ -d "$ksrc/kernel" ]; }; then
	die "KSRC=$ksrc is not a kernel tree"
fi

# Git blob hash of a tree file, "-" when it does not exist.
blob() {
	if [ -f "$tree/$1" ]; then git -C "$tree" hash-object -- "$1"; else echo -; fi
}

# What a tree file should contain if nobody edited it: what this script
# last wrote there, else what "base" has.
expected() {
	local h
	h=$(awk -v f="$1" '$2 == f { h = $1 } END { print h }' "$manifest" 2>/dev/null)
	[ -n "$h" ] || h=$(git -C "$tree" rev-parse -q --verify "base:$1" 2>/dev/null) || h=-
	echo "$h"
}

# Stop before touching files edited by hand in the tree.
guard() {
	local f dirty=()
	for f in "$@"; do
		[ "$(blob "$f")" = "$(expected "$f")" ] || dirty+=("$f")
	done
	[ ${#dirty[@]} -eq 0 ] && return 0
	echo "prepare: these files in $tree were edited by hand:" >&2
	printf '  %s\n' "${dirty[@]}" >&2
	if [ "${FORCE:-}" = 1 ]; then
		echo "prepare: FORCE=1: overwriting them" >&2
		return 0
	fi
	die "move the changes into patches/ or the overlay first" \
	    "(git -C $tree diff base -- FILE), or run with FORCE=1"
}

# "blob path" for the files of LIST that exist under DIR (one git call).
blobs() {
	local present
	present=$(cd "$1" && while read -r f; do
			if [ -f "$f" ]; then echo "$f"; fi
		  done < "$2")
	[ -n "$present" ] || return 0
	paste -d' ' <(cd "$1" && echo "$present" | git hash-object --stdin-paths) \
		<(echo "$present")
}

# Keep the last manifest entry of each path.
dedupe_manifest() {
	tac "$manifest" | awk '!seen[$2]++' | tac > "$manifest.new"
	mv "$manifest.new" "$manifest"
}

# Remember what is now in the tree for the given files.
record() {
	local f
	for f in "$@"; do echo "$(blob "$f") $f"; done >> "$manifest"
	dedupe_manifest
}

# Put files back as they are in "base", or remove them if "base" has none.
restore_from_base() {
	local f
	for f in "$@"; do
		if git -C "$tree" cat-file -e "base:$f" 2>/dev/null; then
			git -C "$tree" checkout -q base -- "$f"
		else
			rm -f "$tree/$f"
		fi
	done
}

# Paths named by the given patches (old and new names, a/ b/ stripped).
patch_files() {
	[ $# -gt 0 ] || return 0
	awk '
		/^diff --git / { sub(/^a\//, "", $3); sub(/^b\//, "", $4); print $3; print $4; next }
		/^(---|\+\+\+) [ab]\// { split($2, p, "\t"); print substr(p[1], 3) }
	' "$@" | sed '/^$/d' | sort -u
}

# --- 1. the tree -----------------------------------------------------------
if ! git -C "$tree" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	# Build it next to its final place and rename at the end, so that an
	# interrupted run never leaves a half-made tree that looks complete.
	tmp=$tree.tmp
	rm -rf "$tree" "$tmp"
	mkdir -p "$tmp"
	if [ -n "$ksrc" ]; then
		log "copying $ksrc (without .git and build outputs)"
		rsync -a --exclude=/.git "${rsync_excludes[@]}" \
			--exclude='/.config*' --exclude=/include/config \
			--exclude=/include/generated \
			--exclude='/arch/*/include/generated' \
			--exclude='/vmlinux*' --exclude=/System.map \
			"$ksrc"/ "$tmp"/
		# Out-of-tree (O=) builds refuse a source tree that was built in.
		make -s -C "$tmp" mrproper
		msg="base: copy of $ksrc"
	else
		[ -f "$tarball" ] || die "$tarball missing (make deps)"
		log "unpacking $tarball"
		tar -xJf "$tarball" -C "$tmp" --strip-components=1
		msg="Linux $(make -s -C "$tmp" kernelversion) base"
	fi
	log "committing the base tree (tag base)"
	git -C "$tmp" init -q
	git -C "$tmp" config user.name mmio-ordering
	git -C "$tmp" config user.email dev@mmio-ordering
	# -f: Debian's .gitignore ignores files the tree needs (top-level ones).
	git -C "$tmp" add -f -A
	git -C "$tmp" -c commit.gpgsign=false commit -q -m "$msg"
	git -C "$tmp" tag base
	mv "$tmp" "$tree"
	rm -f "$stamp" "$pfiles" "$olist" "$manifest"
fi
touch "$manifest"

# --- 2. patches ------------------------------------------------------------
shopt -s nullglob
patches=("$repo"/patches/*.patch)
shopt -u nullglob
# The hash covers names (order) and contents.
sum=$( { for p in "${patches[@]}"; do echo "== ${p##*/}"; cat "$p"; done; } |
	sha256sum | cut -d' ' -f1)
if [ "$sum" != "$(cat "$stamp" 2>/dev/null)" ]; then
	# Start from base for every file the old or the new set touches.
	mapfile -t touched < <( { cat "$pfiles" 2>/dev/null || true
				   patch_files "${patches[@]}"; } | sed '/^$/d' | sort -u)
	guard "${touched[@]}"
	rm -f "$stamp"
	restore_from_base "${touched[@]}"
	record "${touched[@]}"
	for p in "${patches[@]}"; do
		log "applying ${p#"$repo"/}"
		if ! git -C "$tree" apply --whitespace=nowarn "$p"; then
			restore_from_base "${touched[@]}"
			rm -f "$pfiles"
			die "${p#"$repo"/} does not apply"
		fi
	done
	record "${touched[@]}"
	patch_files "${patches[@]}" > "$pfiles"
	echo "$sum" > "$stamp"
fi

# --- 3. overlay ------------------------------------------------------------
dirs=()
for d in $overlay_dirs; do
	[ -d "$repo/$d" ] && dirs+=("$d")
done
( cd "$repo" && [ ${#dirs[@]} -eq 0 ] ||
	find "${dirs[@]}" -type f ! -name '*.o' ! -name '*.ko' ! -name '*.mod' \
		! -name '*.mod.c' ! -name '.*.cmd' ! -name '*.a' \
		! -name modules.order ! -name Module.symvers ! -path '*/__pycache__/*' ) |
	sort > "$olist.new"
# Files that left the overlay since last time: back to base (or gone).
if [ -f "$olist" ]; then
	mapfile -t gone < <(comm -23 "$olist" "$olist.new")
	if [ ${#gone[@]} -gt 0 ]; then
		guard "${gone[@]}"
		log "removed from overlay: ${gone[*]}"
		restore_from_base "${gone[@]}"
		record "${gone[@]}"
	fi
fi
# Copy only files whose tree copy differs from the repository's, after
# checking that nobody edited those copies in the tree.
blobs "$repo" "$olist.new" > "$bdir/repo.blobs"
blobs "$tree" "$olist.new" > "$bdir/tree.blobs"
mapfile -t changed < <(awk 'FILENAME ~ /tree.blobs$/ { t[$2] = $1; next }
			   t[$2] != $1 { print $2 }' "$bdir/tree.blobs" "$bdir/repo.blobs")
if [ ${#changed[@]} -gt 0 ]; then
	guard "${changed[@]}"
	for d in "${dirs[@]}"; do
		rsync -rc "${rsync_excludes[@]}" "$repo/$d" "$tree/"
	done
	printf 'prepare: overlay %s\n' "${changed[@]}"
fi
# Every overlay file in the tree now has the repository's content.
cat "$bdir/repo.blobs" >> "$manifest"
dedupe_manifest
rm -f "$bdir/repo.blobs" "$bdir/tree.blobs"
mv "$olist.new" "$olist"
