#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel in QEMU (TCG, 2 CPUs, QEMU's "edu" PCI device) with a
# busybox initramfs, load modules, run a script in the guest, power off.
# The guest console goes to stdout (and to LOG with -o). Run with -h for
# the options.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PROG=vm
. "$here/lib.sh"

set_usage <<'EOF'
Usage: vm.sh -k KERNEL -g GEN_INIT_CPIO [options] [MODULE.ko ...]
  -A ARCH    x86_64 (default: -M pc), arm64 (-M virt, GICv3), riscv64
             (-M virt, OpenSBI) or ppc64le (-M pseries); edu sits on the
             machine's PCI(e) bus
  -b FILE    static busybox for the guest (default /bin/busybox)
  -f SRC:DST also put file SRC in the initramfs at DST (an absolute path;
             missing directories are created), repeatable
  -o LOG     also write the console to LOG
  -s SCRIPT  shell script run in the guest after the modules are loaded
  -a ARGS    extra kernel command line
  -q ARGS    extra QEMU arguments (split on blanks)
  -t SECS    hard timeout for the whole VM run (default 300)
  -w DIR     where to build the initramfs (default: a temporary dir)

Exit status: 0 when the guest printed "mmio-vm: done rc=0" (all modules
loaded, script succeeded) and QEMU exited normally; 1 otherwise, 124 on
timeout, 2 on a bad command line.
EOF

arch=x86_64 busybox=/bin/busybox
kernel='' gen='' log='' script='' append='' qemu_args='' timeout=300 work=''
files=()
on_option() {
	case $1 in
	A) arch=$2 ;;
	b) busybox=$2 ;;
	f) files+=("$2") ;;
	k) kernel=$2 ;;
	g) gen=$2 ;;
	o) log=$2 ;;
	s) script=$2 ;;
	a) append=$2 ;;
	q) qemu_args=$2 ;;
	t) timeout=$2 ;;
	w) work=$2 ;;
	esac
}
parse_options A:b:f:k:g:o:s:a:q:t:w: "$@"
shift $((OPTIND - 1))
need -k "$kernel"
need -g "$gen"
[ -f "$kernel" ] || die "no kernel $kernel"
[ -x "$busybox" ] || die "no busybox $busybox"
[ -z "$script" ] || [ -f "$script" ] || die "no script $script"
for ko in "$@"; do
	[ -f "$ko" ] || die "no module $ko"
done
for f in "${files[@]}"; do
	case $f in
	*:/*) [ -f "${f%%:*}" ] || die "no file ${f%%:*}" ;;
	*) usage_error "-f $f: expected SRC:/absolute/path" ;;
	esac
done

if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# --- initramfs, described for the kernel's usr/gen_init_cpio (no root
# needed for /dev/console) ---
spec=$work/initramfs.list
: > "$work/modules.list"
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /lib \
		 /lib/modules /etc /root; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $here/init.sh 0755 0 0"
	for ko in "$@"; do
		name=${ko##*/}
		if grep -qxF "$name" "$work/modules.list"; then
			die "two modules named $name"
		fi
		echo "$name" >> "$work/modules.list"
		echo "file /lib/modules/$name $(realpath "$ko") 0644 0 0"
	done
	echo "file /modules.list $work/modules.list 0644 0 0"
	[ -z "$script" ] || echo "file /test-script $(realpath "$script") 0755 0 0"
	# Extra files, after their directories (a repeated dir entry is harmless).
	for f in "${files[@]}"; do
		dst=${f#*:} d=
		for c in $(dirname "$dst" | tr / ' '); do
			d=$d/$c
			echo "dir $d 0755 0 0"
		done
		echo "file $dst $(realpath "${f%%:*}") $(stat -c %a "${f%%:*}") 0 0"
	done
} > "$spec"
"$gen" "$spec" > "$work/initramfs.cpio"

read -r -a extra <<< "$qemu_args"
# The machine and its console. The second CPU comes up through ACPI's MP
# tables (x86), PSCI (arm64), SBI HSM (riscv64) or RTAS (ppc64le);
# `poweroff -f` goes out through ACPI, PSCI SYSTEM_OFF, SBI SRST or RTAS,
# and QEMU exits with status 0.
case $arch in
x86_64)	machine=(qemu-system-x86_64 -M pc) console=ttyS0 ;;
arm64)	machine=(qemu-system-aarch64 -M virt,gic-version=3 -cpu cortex-a57)
	console=ttyAMA0 ;;
riscv64) machine=(qemu-system-riscv64 -M virt -bios default) console=hvc0 ;;
# pseries under TCG: the Spectre mitigations TCG cannot emulate are off;
# XICS, whose IPIs are hcalls (XIVE's are MMIO stores, made under the
# scheduler's locks, which the checker would count as the tests' own).
ppc64le) machine=(qemu-system-ppc64 -cpu power9
	-M pseries,ic-mode=xics,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off)
	console=hvc0 ;;
*)	usage_error "unknown architecture $arch (x86_64, arm64, riscv64, ppc64le)" ;;
esac
cmd=("${machine[@]}" -accel tcg -smp 2 -m 512
     -nographic -no-reboot -nic none -device edu
     -kernel "$kernel" -initrd "$work/initramfs.cpio"
     -append "console=$console panic=-1 oops=panic $append"
     "${extra[@]}")
echo "vm: ${cmd[*]}"

# stdin from /dev/null: QEMU then leaves the terminal alone. The console
# uses CRLF; strip the CR so logs grep cleanly. panic=-1 with -no-reboot
# makes QEMU exit at once on a panic instead of hanging until the timeout.
out=$work/console.log
set +e
timeout -k 10 "$timeout" "${cmd[@]}" < /dev/null 2>&1 | tr -d '\r' | tee "$out"
status=${PIPESTATUS[0]}
set -e
[ -z "$log" ] || cp "$out" "$log"

if [ "$status" -eq 124 ]; then
	echo "vm: FAIL: timed out after ${timeout}s"
	exit 124
elif [ "$status" -ne 0 ]; then
	echo "vm: FAIL: qemu exited with status $status"
	exit 1
elif grep -q 'mmio-vm: done rc=0' "$out"; then
	echo "vm: PASS: guest powered off cleanly"
	exit 0
elif grep -q 'mmio-vm: done rc=' "$out"; then
	echo "vm: FAIL: a module did not load or the test script failed"
	exit 1
else
	echo "vm: FAIL: guest did not reach the end of /init (panic or crash?)"
	exit 1
fi
