#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fail if a kernel console log shows a splat other than the MMIO ordering
# checker's own reports: lockdep, BUG, WARNING, Oops, RCU stalls, soft
# lockups, hung tasks. Used after the KUnit runs, whose tests provoke
# MMIO-ORDERING reports on purpose but must cause nothing else.
#
# Usage: check-splat.sh LOG...
set -euo pipefail

pattern='(^|\] )(BUG: |WARNING: |INFO: |Oops|Kernel panic)|possible recursive locking|inconsistent lock state|circular locking dependency|suspicious RCU usage|soft lockup|hung_task|rcu_sched self-detected stall|rcu: INFO'
rc=0
for log in "$@"; do
	if splats=$(grep -E "$pattern" "$log" | grep -v 'BUG: MMIO-ORDERING: '); then
		echo "check-splat: $log:"
		echo "$splats" | head -n 20
		rc=1
	else
		echo "check-splat: $log: no splat besides MMIO-ORDERING reports"
	fi
done
exit $rc
