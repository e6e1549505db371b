#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make run`, after the demo driver has probed the edu device:
# show the checker's counters and check that exactly one report was printed
# (the buggy path) and nothing was dropped.

stats=/sys/kernel/debug/mmio_ordering/stats
[ -r $stats ] || { echo "demo: no $stats"; exit 1; }
echo "demo: $stats:"
sed 's/^/demo:   /' $stats

val() { sed -n "s/^$1: //p" $stats; }
rc=0
[ "$(val strategy)" = auto ] || { echo "demo: strategy is not auto"; rc=1; }
[ "$(val reports)" = 1 ] || { echo "demo: expected 1 report"; rc=1; }
[ "$(val dropped)" = 0 ] || { echo "demo: reports were dropped"; rc=1; }
[ "$(val explicit_barriers)" -ge 1 ] || { echo "demo: io_to_lock_wb() not seen"; rc=1; }
[ "$(val auto_barriers)" -ge 1 ] || { echo "demo: no auto barrier after writel()"; rc=1; }
exit $rc
