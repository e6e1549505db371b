#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a static busybox for a guest architecture with a cross compiler,
# once: Debian 12 ships busybox-static for amd64 and arm64 but not for
# riscv64 (not an official Debian 12 architecture), so both cross guests get
# the same binary built from Debian's own busybox source package, with
# Debian's patches and the busybox-static package's configuration.
#
# The source package is fetched with apt-get through a private apt
# configuration (a deb-src line for Debian's archive, state under
# BUILD_DIR/busybox-src), so the host's apt sources are left alone; apt
# checks the archive's signatures with the host's Debian keyring. It is
# downloaded once and shared by every architecture.
#
# Run with -h for the usage.
set -euo pipefail

PROG=busybox
. "$(dirname "$0")/lib.sh"

set_usage <<'EOF'
Usage: busybox.sh CROSS_COMPILE OUT_DIR
  e.g. busybox.sh riscv64-linux-gnu- build/busybox-riscv64
  Leaves OUT_DIR/busybox; does nothing when it exists already.
EOF
parse_options '' "$@"
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage_error "expected CROSS_COMPILE OUT_DIR"
cross=$1
out=$2
out=${out%/}
[ -x "$out/busybox" ] && exit 0

mkdir -p "$out"
out=$(cd "$out" && pwd)
srcdir=$(dirname "$out")/busybox-src
suite=${BUSYBOX_SUITE:-bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
jobs=${JOBS:-$(nproc)}

command -v "${cross}gcc" >/dev/null ||
	die "${cross}gcc not found (make deps)"

# --- 1. Debian's source package, unpacked (patches applied) -----------------
if [ ! -f "$srcdir/busybox/Makefile" ]; then
	log "fetching Debian's busybox source package ($suite)"
	apt=$srcdir/apt
	rm -rf "$apt" "$srcdir/busybox" "$srcdir/busybox.tmp"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$srcdir/dl"
	echo "deb-src [signed-by=$keyring] $mirror $suite main" > "$apt/sources.list"
	opts=(-q -o Dir::Etc::SourceList="$apt/sources.list"
	      -o Dir::Etc::SourceParts=/nonexistent
	      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	      -o Debug::NoLocking=1)
	# As root, apt would download as the _apt user, who cannot write here.
	[ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
	apt-get "${opts[@]}" update >/dev/null
	( cd "$srcdir/dl" && rm -f ./*.dsc ./*.tar.* &&
	  apt-get "${opts[@]}" source --download-only busybox >/dev/null )
	dsc=$(ls "$srcdir"/dl/busybox_*.dsc)
	log "unpacking $(basename "$dsc")"
	# apt checked the files against the archive's signed Sources index;
	# dpkg-source cannot check the uploader's signature (no keyring), and
	# says so on stderr.
	dpkg-source -q -x "$dsc" "$srcdir/busybox.tmp" >/dev/null 2>&1 ||
		die "dpkg-source -x $dsc failed"
	mv "$srcdir/busybox.tmp" "$srcdir/busybox"
	rm -rf "$apt"
fi
src=$srcdir/busybox

# --- 2. configure and build out of tree --------------------------------------
obj=$out/obj
rm -rf "$obj"
mkdir -p "$obj"
# Debian's static flavour: Linux overrides first (first assignment wins).
cat "$src/debian/config/os/linux" "$src/debian/config/pkg/static" > "$obj/.config"
bb_make=(make -C "$src" O="$obj" KCONFIG_NOTIMESTAMP=1 CROSS_COMPILE="$cross"
	 CC="ccache ${cross}gcc" SKIP_STRIP=n)
log "building with ${cross}gcc in $obj"
{ yes "" || true; } | "${bb_make[@]}" oldconfig >/dev/null
"${bb_make[@]}" -j"$jobs" busybox > "$obj/build.log" 2>&1 || {
	tail -n 30 "$obj/build.log" >&2
	die "build failed, full log in $obj/build.log"
}
grep -q '^CONFIG_STATIC=y' "$obj/.config" ||
	die "not configured static"
"${cross}strip" -o "$out/busybox.tmp" "$obj/busybox"
mv "$out/busybox.tmp" "$out/busybox"
log "$out/busybox: $(file -b "$out/busybox" 2>/dev/null | cut -d, -f1-2 || true)"
rm -rf "$obj"
