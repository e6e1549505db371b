#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make drivers` (run by init.sh under busybox sh): real I/O
# through real drivers while the MMIO ordering checker watches.
#
#  - disks: on the virtio-blk, nvme and ahci disks, O_DIRECT writes of a
#    random pattern at offset 0, read back and compared, and O_DIRECT reads
#    of the pattern the host put at HOST_OFFSET_MB (checked against
#    HOST_SHA256); the host later checks its image files against the
#    sha256 printed here;
#  - network: two NICs (drivers NIC_A and NIC_B, e.g. e1000 and
#    virtio_net), each on its own QEMU user network. A TCP stream leaves
#    through one NIC to the host side (10.0.x.2), where QEMU forwards it
#    (hostfwd) back in through the other NIC to a server in this guest, in
#    both directions, compared at the end; plus pings;
#  - console: lines through the tty layer to the console and printk()s via
#    /dev/kmsg.
#  Disks and network run in parallel, so both CPUs take locks and
#  interrupts at once.
#
# drivers-run.sh prepends the variables below. Every check prints
# "drivers: ok ..." or "drivers: FAIL ..."; the last line is
# "drivers: all I/O verified" only if every check passed. These lines go
# through /dev/kmsg (the kernel is booted with printk.devkmsg=on): a printk
# record reaches the console whole, where a shell's echo could be cut by a
# kernel message printed at the same time.

: "${DISKS:?}" "${PATTERN_MB:?}" "${HOST_OFFSET_MB:?}" "${HOST_SHA256:?}"
: "${NET_MB:?}" "${NIC_A:?}" "${NIC_B:?}" "${MAC_A:?}" "${MAC_B:?}"
: "${HOSTFWD_A:?}" "${HOSTFWD_B:?}"

BS=65536
BLOCKS=$((PATTERN_MB * 16))		# of BS bytes
SKIP=$((HOST_OFFSET_MB * 16))
T=120					# seconds allowed for any one transfer
status=/tmp/status
: > $status

say() { echo "drivers: $*" > /dev/kmsg; }
ok() { say "ok $*"; }
fail() { say "FAIL $*"; echo "$*" >> $status; }
sha() { sha256sum "$@" | cut -d' ' -f1; }

# --- disks ---------------------------------------------------------------
disk_io() {
	dev=/dev/$1
	[ -b $dev ] || { fail "disk $1: no $dev"; return; }
	timeout $T dd if=/tmp/disk.pat of=$dev bs=$BS oflag=direct conv=fsync 2>/dev/null ||
		{ fail "disk $1: write failed"; return; }
	timeout $T dd if=$dev of=/tmp/back.$1 bs=$BS count=$BLOCKS iflag=direct 2>/dev/null ||
		{ fail "disk $1: read-back failed"; return; }
	cmp -s /tmp/disk.pat /tmp/back.$1 ||
		{ fail "disk $1: read-back differs from what was written"; return; }
	rm -f /tmp/back.$1
	got=$(timeout $T dd if=$dev bs=$BS skip=$SKIP count=$BLOCKS iflag=direct 2>/dev/null | sha)
	[ "$got" = "$HOST_SHA256" ] ||
		{ fail "disk $1: host pattern read as $got"; return; }
	ok "disk $1: wrote, read back and compared $PATTERN_MB MiB; read host pattern"
	say "disk $1 wrote sha256 $(sha /tmp/disk.pat) bytes $((PATTERN_MB << 20))"
}

disks() {
	dd if=/dev/urandom of=/tmp/disk.pat bs=$BS count=$BLOCKS 2>/dev/null
	for d in $DISKS; do
		disk_io $d &
	done
	wait
}

# --- network -------------------------------------------------------------
# netif_of DRIVER MAC: the interface with that MAC address, if DRIVER drives it.
netif_of() {
	for n in /sys/class/net/*; do
		[ "$(cat $n/address)" = "$2" ] || continue
		[ "$(basename "$(readlink $n/device/driver)")" = "$1" ] && { basename $n; return; }
	done
}

link_up() {
	ip addr add $2/24 dev $1 && ip link set $1 up || return 1
	i=0
	while [ "$(cat /sys/class/net/$1/carrier 2>/dev/null)" != 1 ]; do
		i=$((i + 1))
		[ $i -le 100 ] || return 1
		sleep 0.1
	done
}

# stream NAME PORT HOST HOSTPORT: a server on PORT receives what a client
# sends to HOST:HOSTPORT; QEMU forwards that to PORT through the other NIC.
stream() {
	# nc exits when stdin ends; keep the server's open until it is done.
	(sleep $T | nc -l -p $2 > /tmp/rx.$1) &
	sleep 1
	timeout $T nc $3 $4 < /tmp/net.pat || { fail "net $1: client failed"; return; }
	i=0
	while [ "$(wc -c < /tmp/rx.$1)" -lt $((NET_MB << 20)) ] && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	if [ "$(sha /tmp/rx.$1)" = "$(sha /tmp/net.pat)" ]; then
		ok "net $1: $NET_MB MiB over TCP, received intact"
	else
		fail "net $1: received $(wc -c < /tmp/rx.$1) bytes, not what was sent"
	fi
	rm -f /tmp/rx.$1
}

net() {
	a=$(netif_of $NIC_A $MAC_A)
	b=$(netif_of $NIC_B $MAC_B)
	[ -n "$a" ] || { fail "net: no $NIC_A interface"; return; }
	[ -n "$b" ] || { fail "net: no $NIC_B interface"; return; }
	ip link set lo up
	link_up $a 10.0.2.15 || { fail "net: $a ($NIC_A) has no link"; return; }
	link_up $b 10.0.3.15 || { fail "net: $b ($NIC_B) has no link"; return; }
	ok "net: $a is $NIC_A 10.0.2.15, $b is $NIC_B 10.0.3.15"

	ping -q -c 20 -s 1400 -W 10 10.0.2.2 >/dev/null &&
		ok "net: 20 pings through $a ($NIC_A)" || fail "net: ping through $a ($NIC_A)"
	ping -q -c 20 -s 1400 -W 10 10.0.3.2 >/dev/null &&
		ok "net: 20 pings through $b ($NIC_B)" || fail "net: ping through $b ($NIC_B)"

	dd if=/dev/urandom of=/tmp/net.pat bs=$BS count=$((NET_MB * 16)) 2>/dev/null
	# Out through the first NIC, in through the second; then the other way.
	stream $a-to-$b 5001 10.0.2.2 $HOSTFWD_B
	stream $b-to-$a 5000 10.0.3.2 $HOSTFWD_A
}

# --- console -------------------------------------------------------------
console() {
	line=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	for i in $(seq 1 200); do
		echo "drivers: console tty line $i $line"
		say "console printk line $i $line"
	done
	ok "console: 200 tty lines and 200 printk lines"
}

say "starting I/O: disks ($DISKS) and network in parallel"
disks &
net &
console
wait

# Let deferred reports reach the console, then show the checker's counters.
sleep 1
while read -r l; do
	say "stat $l"
done < /sys/kernel/debug/mmio_ordering/stats

if [ -s $status ]; then
	say "$(wc -l < $status) I/O check(s) failed"
	exit 1
fi
say "all I/O verified"
