#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make drivers`: boot the real-driver kernel in QEMU with real devices and
# their drivers, run drivers-guest.sh (disk, network and console I/O),
# check on the host that the disk images hold what the guest wrote, then
# print the table of MMIO-ORDERING reports per driver (report-table.py),
# which also decides pass or fail. The devices:
#   x86_64: virtio-blk, nvme and ahci disks, e1000 and virtio-net NICs (PCI),
#           the 8250 console;
#   arm64:  a virtio-blk disk and two virtio-net NICs on virtio-mmio, the
#           PL011 console, GICv3 with its ITS;
#   ppc64le: virtio-blk and nvme disks, e1000 and virtio-net NICs on the
#           pseries PCI host bridge (TCE IOMMU), the hvc console.
#
# Run with -h for the options.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PROG=drivers
. "$here/lib.sh"

set_usage <<'EOF'
Usage: drivers-run.sh -k KERNEL -g GEN_INIT_CPIO -b KBUILD_OUT -w WORKDIR
                      -e EXPECTED [-A ARCH] [-B BUSYBOX] [-t SECS] RUN...
  -k KERNEL  the kernel image to boot
  -g FILE    the kernel build's usr/gen_init_cpio
  -b DIR     the kernel build directory (O=): its vmlinux.a tells the
             source file of built-in functions
  -w DIR     where each run goes: DIR/NAME/console.log, its disk images, ...
  -e FILE    the expected reports (drivers-expected.txt)
  -A ARCH    x86_64 (default), arm64 or ppc64le
  -B FILE    static busybox for the guest (default /bin/busybox)
  -t SECS    hard timeout of each VM run (default 300)
RUN is NAME or NAME:ARGS, ARGS a comma-separated list of extra kernel
command line arguments, e.g. "explicit:mmio_ordering.strategy=explicit".
One VM run per RUN; its console is WORKDIR/NAME/console.log, followed by
the host's own checks as "host: ..." lines.
EOF

kernel='' gen='' kbuild='' work='' expected='' timeout=300 arch=x86_64 busybox=/bin/busybox
on_option() {
	case $1 in
	A) arch=$2 ;;
	B) busybox=$2 ;;
	k) kernel=$2 ;;
	g) gen=$2 ;;
	b) kbuild=$2 ;;
	w) work=$2 ;;
	e) expected=$2 ;;
	t) timeout=$2 ;;
	esac
}
parse_options k:g:b:w:e:t:A:B: "$@"
shift $((OPTIND - 1))
need -k "$kernel"
need -g "$gen"
need -b "$kbuild"
need -w "$work"
need -e "$expected"
[ $# -gt 0 ] || usage_error "no RUN given"

# Per architecture: disk images (file:guest device:QEMU device), the two
# NICs' drivers and QEMU devices.
case $arch in
x86_64)
	disks="virtio:vda:virtio-blk-pci nvme:nvme0n1:nvme,serial=mmio-ordering
		ahci:sda:ide-hd,bus=ahci.0"
	nic_a=e1000 nic_b=virtio_net qnic_a=e1000 qnic_b=virtio-net-pci
	extra="-device ahci,id=ahci" ;;
arm64)
	disks="virtio:vda:virtio-blk-device"
	nic_a=virtio_net nic_b=virtio_net
	qnic_a=virtio-net-device qnic_b=virtio-net-device
	extra="-global virtio-mmio.force-legacy=false" ;;
ppc64le)
	disks="virtio:vda:virtio-blk-pci nvme:nvme0n1:nvme,serial=mmio-ordering"
	nic_a=e1000 nic_b=virtio_net qnic_a=e1000 qnic_b=virtio-net-pci
	extra= ;;
*)	usage_error "no device set for $arch (x86_64, arm64, ppc64le)" ;;
esac

# Disk images: DISK_MB each; the guest writes PATTERN_MB at offset 0 and
# reads the host's PATTERN_MB at HOST_OFFSET_MB. NET_MB per TCP stream.
DISK_MB=64 PATTERN_MB=4 HOST_OFFSET_MB=32 NET_MB=4
# The NICs are told apart by MAC address: two of one driver (arm64) probe
# in no particular order.
MAC_A=52:54:00:12:34:0a MAC_B=52:54:00:12:34:0b

# Two free TCP ports on the host's loopback for QEMU's hostfwd.
free_ports() {
	python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))'
}

logs=()
for run in "$@"; do
	name=${run%%:*}
	args=
	[ "$run" = "$name" ] || args=${run#*:}
	# printk.devkmsg=on: the guest's result lines go through /dev/kmsg.
	args="printk.devkmsg=on ${args//,/ }"
	dir=$work/$name
	log=$dir/console.log
	rm -rf "$dir"
	mkdir -p "$dir"
	echo "drivers: run '$name', kernel arguments '${args}'"

	head -c $((PATTERN_MB << 20)) /dev/urandom > "$dir/host.pat"
	host_sha=$(sha256sum < "$dir/host.pat" | cut -d' ' -f1)
	read -r port_a port_b < <(free_ports)
	qemu_args="$extra" devs=
	for d in $disks; do
		img=${d%%:*} rest=${d#*:}
		dev=${rest%%:*} qdev=${rest#*:}
		truncate -s ${DISK_MB}M "$dir/$img.img"
		dd if="$dir/host.pat" of="$dir/$img.img" bs=1M seek=$HOST_OFFSET_MB \
			conv=notrunc status=none
		qemu_args+=" -drive file=$dir/$img.img,if=none,id=d$img,format=raw"
		qemu_args+=" -device ${qdev%%,*},drive=d$img${qdev#"${qdev%%,*}"}"
		devs+=" $dev"
	done
	qemu_args+=" -netdev user,id=na,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:$port_a-10.0.2.15:5000"
	qemu_args+=" -device $qnic_a,netdev=na,mac=$MAC_A"
	qemu_args+=" -netdev user,id=nb,net=10.0.3.0/24,hostfwd=tcp:127.0.0.1:$port_b-10.0.3.15:5001"
	qemu_args+=" -device $qnic_b,netdev=nb,mac=$MAC_B"

	{
		echo "DISKS='${devs# }'"
		echo "PATTERN_MB=$PATTERN_MB HOST_OFFSET_MB=$HOST_OFFSET_MB NET_MB=$NET_MB"
		echo "HOST_SHA256=$host_sha"
		echo "NIC_A=$nic_a NIC_B=$nic_b MAC_A=$MAC_A MAC_B=$MAC_B"
		echo "HOSTFWD_A=$port_a HOSTFWD_B=$port_b"
		cat "$here/drivers-guest.sh"
	} > "$dir/guest.sh"

	start=$(date +%s)
	"$here/vm.sh" -A "$arch" -b "$busybox" -k "$kernel" -g "$gen" -t "$timeout" -a "$args" \
		-q "$qemu_args" -o "$log" -w "$dir/vm" -s "$dir/guest.sh" > "$dir/vm.out" 2>&1
	vm=$?
	tail -n 1 "$dir/vm.out"
	[ -f "$log" ] || cp "$dir/vm.out" "$log"

	# Host side: the vm.sh verdict, then the images against the guest's writes.
	{
		echo "host: run $name took $(( $(date +%s) - start ))s"
		echo "host: vm.sh exit status $vm"
		for d in $disks; do
			img=$dir/${d%%:*}.img rest=${d#*:} dev=${rest%%:*}
			line=$(grep -m1 -o "drivers: disk $dev wrote sha256 [0-9a-f]* bytes [0-9]*" "$log")
			if [ -z "$line" ]; then
				echo "host: FAIL disk $dev: the guest did not report its write"
				continue
			fi
			read -r _ _ _ _ _ want _ bytes <<< "$line"
			got=$(head -c "$bytes" "$img" | sha256sum | cut -d' ' -f1)
			if [ "$got" = "$want" ]; then
				echo "host: ok disk $dev: ${d%%:*}.img holds the guest's $bytes bytes"
			else
				echo "host: FAIL disk $dev: ${d%%:*}.img does not hold what the guest wrote"
			fi
		done
	} | tee -a "$log"
	rm -f "$dir"/*.img "$dir/host.pat"
	logs+=("$name=$log")
done

exec python3 "$here/report-table.py" -e "$expected" -b "$kbuild" -m "$work/table.md" "${logs[@]}"
