#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make check-locktorture`: locktorture hammers spinlocks on
# both CPUs with the checker on. init.sh loaded locktorture with its default
# torture_type=spin_lock; this script lets it run, then runs the irq and raw
# variants. Every run must end in SUCCESS, with no violation and the
# checker's lock tracking left balanced, as its debugfs files say. The host
# (make check-locktorture) then reads the console: no MMIO-ORDERING report,
# no lockdep or other splat.
set -u
D=/sys/kernel/debug/mmio_ordering
secs=${LOCKTORTURE_SECS:-15}
fail=0

end_of_test() {
	rmmod locktorture || return 1
	dmesg | grep -q "$1-torture:.*End of test: SUCCESS" || {
		echo "locktorture: $1 did not end in SUCCESS"
		dmesg | grep "$1-torture:.*End of test" || true
		return 1
	}
	echo "locktorture: $1: SUCCESS"
}

sleep "$secs"
end_of_test spin_lock || fail=1
for t in spin_lock_irq raw_spin_lock raw_spin_lock_irq; do
	insmod /lib/modules/locktorture.ko torture_type=$t || { fail=1; continue; }
	sleep "$secs"
	end_of_test $t || fail=1
done

cat $D/stats
grep -q '^violations: 0$' $D/stats || { echo "locktorture: violations reported"; fail=1; }
grep -q '^nesting_overflow: 0$' $D/stats || { echo "locktorture: nesting overflow"; fail=1; }
grep -q '^lock_imbalance: 0$' $D/stats || { echo "locktorture: lock imbalance"; fail=1; }
# Every CPU's tracking is back to empty, checker and core.
# debugfs files have size 0, so read the file rather than test its size.
held=$(cat $D/held)
echo "$held"
[ -n "$held" ] && ! echo "$held" | grep -qv ': 0$' ||
	{ echo "locktorture: locks or stores left recorded"; fail=1; }
[ -z "$(cat $D/reports)" ] || { echo "locktorture: pairs reported:"; cat $D/reports; fail=1; }
[ $fail -eq 0 ] && echo "locktorture: all runs passed, nothing reported"
exit $fail
