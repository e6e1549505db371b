#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Decide whether a `make run` console log shows the expected demo result:
# the buggy driver path is reported exactly once, the correct one is not,
# any other report is a known one (below), and the guest powered off
# cleanly with nothing else going wrong.
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
# Known reports of other drivers, by the function that made the store (the
# first frame of the store's stack that is not an MMIO accessor): drivers
# of arm64 platform devices that rely on arm64 ordering device stores
# before the unlock, which the checker's default portable mode reports
# anyway. The PL011 console (writel_relaxed() under the port lock, only
# relaxed reads before the unlock) and the GICv3 irqchip and ITS
# (writel_relaxed() under irq_desc and ITS locks). Extended regex.
KNOWN_FUNC='^(pl011_|gic_|its_)'
# Signs of a broken kernel rather than a found bug (extended regex).
BROKEN='Kernel panic|Oops|general protection fault|BUG: (kernel|unable|sleeping|scheduling|spinlock|using|workqueue|soft lockup|KASAN)|INFO: task .* blocked'
# Printed by the guest /init (tools/mmio_ordering/init.sh) just before
# poweroff.
DONE='mmio-vm: done rc=0'

log=${1:?usage: check-demo.sh LOG}
[ -f "$log" ] || { echo "check-demo: no log $log"; exit 1; }

fail=0
bad() { echo "check-demo: FAIL: $*"; fail=1; }

# One line per report: "FUNCTION<tab>TITLE", FUNCTION being the first
# frame of the store's stack that is not an accessor ("?" if none).
reports() {
	awk -v prefix="$TITLE_PREFIX" '
	{ line = $0; sub(/^\[[^]]*\] ?/, "", line) }
	index(line, prefix) == 1 {
		if (title != "") print "?\t" title
		title = line; instack = 0; next
	}
	title != "" && !instack && line ~ / by task .* strategy [a-z]+:$/ {
		instack = 1; next
	}
	title != "" && instack && line == "Call Trace:" { next }
	title != "" && instack {
		fn = line; sub(/^ +/, "", fn); sub(/[+ ].*/, "", fn)
		if (fn ~ /^_*(raw_)?(read|write|ioread|iowrite)[bwlq0-9]*(_relaxed)?$/ ||
		    fn ~ /^_*(memcpy_toio|memset_io)/)
			next
		if (fn == "") fn = "?"
		print fn "\t" title; title = ""
	}
	END { if (title != "") print "?\t" title }' "$log"
}

echo "check-demo: reports found in $log (storing function, title):"
reports | sort | uniq -c | sed 's/^/  /'
n=$(grep -cE "$EXPECTED_TITLE" "$log")
[ "$n" -eq 1 ] || bad "$n reports matching '$EXPECTED_TITLE', expected 1"
n=$(reports | cut -f1 | grep -cE "$KNOWN_FUNC")
[ "$n" -eq 0 ] ||
	echo "check-demo: $n known report(s) of platform drivers (not the demo's): see KNOWN_FUNC"
unexpected=$(reports | grep -vE "^edu_demo_" | grep -vE "$KNOWN_FUNC")
[ -z "$unexpected" ] || {
	bad "unexpected reports (not the demo's, not known):"
	echo "$unexpected" | head -5
}
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
