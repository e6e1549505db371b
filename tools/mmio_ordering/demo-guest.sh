#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make run`, after the demo driver has probed the edu device:
# show the checker's counters and check that exactly one report names the
# buggy path, none names the correct one and every counted report was
# printed. Reports of other drivers (the arm64 console and
# irqchip, in the default portable mode) are judged on the host by
# check-demo.sh, which knows which ones are expected.

stats=/sys/kernel/debug/mmio_ordering/stats
[ -r $stats ] || { echo "demo: no $stats"; exit 1; }

TITLE='BUG: MMIO-ORDERING: '
# Reading the counters first prints every report found so far.
counters=$(cat $stats)
val() { echo "$counters" | sed -n "s/^$1: //p"; }
titles() { dmesg | grep -F "$TITLE"; }

echo "demo: $stats:"
echo "$counters" | sed 's/^/demo:   /'

rc=0
printed=$(titles | wc -l)
buggy=$(titles | grep -c 'edu_demo_buggy')
correct=$(titles | grep -c 'edu_demo_correct')
echo "demo: $printed reports printed, $buggy of the buggy path," \
	"$((printed - buggy - correct)) of other drivers"
[ "$(val strategy)" = auto ] || { echo "demo: strategy is not auto"; rc=1; }
[ "$(val reports)" = "$printed" ] ||
	{ echo "demo: $(val reports) reports counted, $printed printed"; rc=1; }
[ "$buggy" = 1 ] || { echo "demo: expected 1 report of the buggy path"; rc=1; }
[ "$correct" = 0 ] || { echo "demo: the correct path was reported"; rc=1; }
[ "$(val pair_table_full)" = 0 ] || { echo "demo: pairs were not recorded"; rc=1; }
[ "$(val explicit_barriers)" -ge 1 ] || { echo "demo: io_to_lock_wb() not seen"; rc=1; }
[ "$(val auto_barriers)" -ge 1 ] || { echo "demo: no auto barrier after writel()"; rc=1; }
exit $rc
