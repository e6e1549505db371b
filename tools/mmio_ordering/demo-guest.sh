#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make run`, after the demo driver has probed the edu device:
# show the checker's counters and the pairs it reported, from debugfs, and
# check that every counted report was printed with its stacks, that the
# barriers were seen and that no pair was lost. Which reports are there is
# judged on the host, from the console, by check-demo.sh: the buggy path
# exactly once, not the correct one, and only known reports of other
# drivers (the arm64 console and irqchip, in the default portable mode).

D=/sys/kernel/debug/mmio_ordering
for f in stats reports; do
	[ -r $D/$f ] || { echo "demo: no $D/$f"; exit 1; }
done

# Reading either file first prints every report found so far.
counters=$(cat $D/stats)
# One line per (store site, unlock site) pair: "COUNT ACCESSOR() UNLOCK()
# STORE UNLOCK_SITE", followed by "(waiting...)" or "(no stacks)" while it
# is not printed with its stacks.
pairs=$(cat $D/reports)
val() { echo "$counters" | sed -n "s/^$1: //p"; }
nr() { echo "$1" | grep -c .; }

echo "demo: $D/stats:"
echo "$counters" | sed 's/^/demo:   /'
echo "demo: $D/reports:"
[ -z "$pairs" ] || echo "$pairs" | sed 's/^/demo:   /'

rc=0
listed=$(nr "$(echo "$pairs" | grep '^[0-9]* .*() .*() ')")
unprinted=$(nr "$(echo "$pairs" | grep -E '\((waiting|no stacks)')")
[ "$(val strategy)" = auto ] || { echo "demo: strategy is not auto"; rc=1; }
[ "$(val reports)" = "$listed" ] ||
	{ echo "demo: $(val reports) reports counted, $listed pairs listed"; rc=1; }
[ "$listed" -ge 1 ] || { echo "demo: nothing reported"; rc=1; }
[ "$unprinted" = 0 ] ||
	{ echo "demo: $unprinted reports not printed with their stacks"; rc=1; }
[ "$(val pair_table_full)" = 0 ] || { echo "demo: pairs were not recorded"; rc=1; }
[ "$(val explicit_barriers)" -ge 1 ] || { echo "demo: io_to_lock_wb() not seen"; rc=1; }
[ "$(val auto_barriers)" -ge 1 ] || { echo "demo: no auto barrier after writel()"; rc=1; }
exit $rc
