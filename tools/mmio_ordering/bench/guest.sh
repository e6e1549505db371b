#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench` (run by vm.sh's /init after the module is
# loaded): set the parameters given on the kernel command line as
# mmio_bench.<file>=<value> (repetitions, target_us, strategies, kinds),
# run the benchmark, print the results between markers, with the core's
# counters before and after so that the host can check the barrier counts.

d=/sys/kernel/debug/mmio_ordering_bench
s=/sys/kernel/debug/mmio_ordering/stats
[ -d $d ] || { echo "mmio-bench: $d missing"; exit 1; }

for arg in $(cat /proc/cmdline); do
	case $arg in
	mmio_bench.*=*)
		kv=${arg#mmio_bench.}
		echo "${kv#*=}" > "$d/${kv%%=*}" || exit 1 ;;
	esac
done

echo "mmio-bench: stats-before $(grep '^auto_barriers:' $s)"
echo "mmio-bench: running"
echo 1 > $d/run || { echo "mmio-bench: run failed"; exit 1; }
echo "mmio-bench: stats-after $(grep '^auto_barriers:' $s)"
# Kernel messages (a late driver probe) must not split result lines.
echo 1 > /proc/sys/kernel/printk 2>/dev/null
echo "mmio-bench: results-begin"
cat $d/results
echo "mmio-bench: results-end"
