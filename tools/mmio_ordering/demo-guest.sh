#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make run`, after the demo driver has probed the edu device:
# show the checker's counters and check that exactly one report names the
# buggy path, none names the correct one, every counted report was printed
# and nothing was dropped. Reports of other drivers (the arm64 console and
# irqchip, in the default portable mode) are judged on the host by
# check-demo.sh, which knows which ones are expected.

stats=/sys/kernel/debug/mmio_ordering/stats
[ -r $stats ] || { echo "demo: no $stats"; exit 1; }

TITLE='BUG: MMIO-ORDERING: '
val() { sed -n "s/^$1: //p" $stats; }
titles() { dmesg | grep -F "$TITLE"; }

# Reports are printed from irq_work: give the last one a moment to appear.
wait_printed() {
	i=0
	while [ "$(val reports)" != "$(titles | wc -l)" ] && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

wait_printed

# On a machine whose platform drivers are reported too (arm64 in portable
# mode), the buggy path's report may have met the rate limit at boot:
# it was counted, not remembered, and comes back when the path runs again.
# Wait for a new rate-limit window and probe the device again.
drv=/sys/bus/pci/drivers/mmio_ordering_edu
if ! titles | grep -q edu_demo_buggy && [ "$(val ratelimited)" -gt 0 ]; then
	echo "demo: the buggy path met the rate limit; probing the device again"
	sleep 6
	for dev in $drv/0000:*; do
		dev=${dev##*/}
		echo "$dev" > $drv/unbind && echo "$dev" > $drv/bind
	done
	wait_printed
fi

echo "demo: $stats:"
sed 's/^/demo:   /' $stats

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
[ "$(val dropped)" = 0 ] || { echo "demo: reports were dropped"; rc=1; }
[ "$(val explicit_barriers)" -ge 1 ] || { echo "demo: io_to_lock_wb() not seen"; rc=1; }
[ "$(val auto_barriers)" -ge 1 ] || { echo "demo: no auto barrier after writel()"; rc=1; }
exit $rc
