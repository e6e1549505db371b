#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make drivers`: boot the real-driver kernel in QEMU with a virtio-blk, an
# nvme and an ahci disk, an e1000 and a virtio-net NIC and the 8250 console,
# run drivers-guest.sh (disk, network and console I/O), check on the host
# that the disk images hold what the guest wrote, then print the table of
# MMIO-ORDERING reports per driver (report-table.py), which also decides
# pass or fail.
#
# Usage: drivers-run.sh -k BZIMAGE -g GEN_INIT_CPIO -b KBUILD_OUT -w WORKDIR
#                       -e EXPECTED [-t SECS] RUN...
#   RUN is NAME or NAME:ARGS, ARGS a comma-separated list of extra kernel
#   command line arguments, e.g. "explicit:mmio_ordering.strategy=explicit".
#   One VM run per RUN; its console is WORKDIR/NAME/console.log, followed
#   by the host's own checks as "host: ..." lines.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel= gen= kbuild= work= expected= timeout=300
while getopts k:g:b:w:e:t: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	g) gen=$OPTARG ;;
	b) kbuild=$OPTARG ;;
	w) work=$OPTARG ;;
	e) expected=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) sed -n '11,17s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$kernel" ] && [ -n "$gen" ] && [ -n "$kbuild" ] && [ -n "$work" ] &&
	[ -n "$expected" ] && [ $# -gt 0 ] ||
	{ sed -n '11,17s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# Disk images: DISK_MB each; the guest writes PATTERN_MB at offset 0 and
# reads the host's PATTERN_MB at HOST_OFFSET_MB. NET_MB per TCP stream.
DISK_MB=64 PATTERN_MB=4 HOST_OFFSET_MB=32 NET_MB=4

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
	for d in virtio nvme ahci; do
		truncate -s ${DISK_MB}M "$dir/$d.img"
		dd if="$dir/host.pat" of="$dir/$d.img" bs=1M seek=$HOST_OFFSET_MB \
			conv=notrunc status=none
	done
	read -r port_e port_v < <(free_ports)

	qemu_args="-drive file=$dir/virtio.img,if=none,id=dv,format=raw
		-device virtio-blk-pci,drive=dv
		-drive file=$dir/nvme.img,if=none,id=dn,format=raw
		-device nvme,drive=dn,serial=mmio-ordering
		-drive file=$dir/ahci.img,if=none,id=da,format=raw
		-device ahci,id=ahci -device ide-hd,drive=da,bus=ahci.0
		-netdev user,id=ne,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:$port_e-10.0.2.15:5000
		-device e1000,netdev=ne
		-netdev user,id=nv,net=10.0.3.0/24,hostfwd=tcp:127.0.0.1:$port_v-10.0.3.15:5001
		-device virtio-net-pci,netdev=nv"
	qemu_args=$(echo $qemu_args)	# vm.sh reads one line

	{
		echo "DISKS='vda nvme0n1 sda'"
		echo "PATTERN_MB=$PATTERN_MB HOST_OFFSET_MB=$HOST_OFFSET_MB NET_MB=$NET_MB"
		echo "HOST_SHA256=$host_sha"
		echo "HOSTFWD_E1000=$port_e HOSTFWD_VIRTIO=$port_v"
		cat "$here/drivers-guest.sh"
	} > "$dir/guest.sh"

	start=$(date +%s)
	"$here/vm.sh" -k "$kernel" -g "$gen" -t "$timeout" -a "$args" \
		-q "$qemu_args" -o "$log" -w "$dir/vm" -s "$dir/guest.sh" > "$dir/vm.out" 2>&1
	vm=$?
	tail -n 1 "$dir/vm.out"
	[ -f "$log" ] || cp "$dir/vm.out" "$log"

	# Host side: the vm.sh verdict, then the images against the guest's writes.
	{
		echo "host: run $name took $(( $(date +%s) - start ))s"
		echo "host: vm.sh exit status $vm"
		for d in virtio:vda nvme:nvme0n1 ahci:sda; do
			img=$dir/${d%%:*}.img dev=${d#*:}
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

exec python3 "$here/report-table.py" -e "$expected" -b "$kbuild" "${logs[@]}"
