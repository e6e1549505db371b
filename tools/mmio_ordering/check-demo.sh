#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Decide whether a `make run` console log shows the expected demo result:
# the buggy driver path is reported, the correct one is not, and the guest
# powered off cleanly with nothing else going wrong.
#
# Usage: check-demo.sh LOG

# Title expected for the buggy driver (extended regex, matched per line).
# %ps appends " [module]" to functions of modules.
MOD=' \[mmio_ordering_edu\]'
EXPECTED_TITLE="BUG: MMIO-ORDERING: __writel\(\) not ordered before spin_unlock\(\) in edu_demo_buggy_store($MOD)? / edu_demo_buggy_submit($MOD)?"
# Any report title naming this must not appear.
FORBIDDEN_FUNC='edu_demo_correct'
# Every checker report starts its title with this.
TITLE_PREFIX='BUG: MMIO-ORDERING: '
# Signs of a broken kernel rather than a found bug (extended regex).
BROKEN='Kernel panic|Oops|general protection fault|BUG: (kernel|unable|sleeping|scheduling|spinlock|using|workqueue|soft lockup|KASAN)|INFO: task .* blocked'
# Printed by the guest /init (tools/mmio_ordering/init.sh) just before
# poweroff.
DONE='mmio-vm: done rc=0'

log=${1:?usage: check-demo.sh LOG}
[ -f "$log" ] || { echo "check-demo: no log $log"; exit 1; }

fail=0
bad() { echo "check-demo: FAIL: $*"; fail=1; }

echo "check-demo: report titles found in $log:"
grep -F "$TITLE_PREFIX" "$log" | sed 's/^\[[^]]*\] *//; s/^/  /' | sort | uniq -c
grep -qE "$EXPECTED_TITLE" "$log" ||
	bad "no report matching '$EXPECTED_TITLE'"
if grep -F "$TITLE_PREFIX" "$log" | grep -qF "$FORBIDDEN_FUNC"; then
	bad "a report names $FORBIDDEN_FUNC (false positive)"
fi
if grep -qE "$BROKEN" "$log"; then
	bad "the kernel broke:"
	grep -E "$BROKEN" "$log" | head -5
fi
grep -qF "$DONE" "$log" ||
	bad "the guest did not reach poweroff cleanly ('$DONE' missing)"

[ $fail -eq 0 ] && echo "check-demo: PASS"
exit $fail
