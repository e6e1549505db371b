#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test initramfs built by vm.sh (runs under busybox sh).
# Mounts the usual filesystems, loads the modules listed in /modules.list,
# runs /test-script if present, prints a marker line that the host side
# looks for, and powers off. Any failure is reported in that marker.

/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp

echo "mmio-vm: init started, kernel $(uname -r)"
rc=0

# Load the modules in the order vm.sh wrote them.
if [ -f /modules.list ]; then
	while read -r ko; do
		echo "mmio-vm: insmod $ko"
		if ! insmod "/lib/modules/$ko"; then
			echo "mmio-vm: insmod $ko FAILED"
			rc=1
		fi
	done < /modules.list
fi

if [ -f /test-script ]; then
	echo "mmio-vm: running test script"
	sh /test-script
	src=$?
	echo "mmio-vm: test script exit status $src"
	[ $src -eq 0 ] || rc=1
fi

# No wait for reports still being printed: the checker prints what waits,
# and flushes the consoles, when the kernel shuts down.

# vm.sh decides pass/fail from this line; keep its format stable.
echo "mmio-vm: done rc=$rc"
poweroff -f
