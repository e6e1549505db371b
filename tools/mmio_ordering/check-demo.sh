#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Decide whether a `make run` console log shows the expected demo result:
# the buggy driver path is reported exactly once, with its stacks, the
# correct one is not, any other report is a known one (below), and the
# guest powered off cleanly with no kernel splat. The log is read by
# mmiolog.py. Run with -h for the usage.

here=$(cd "$(dirname "$0")" && pwd)
PROG=check-demo
. "$here/lib.sh"

set_usage <<'EOF'
Usage: check-demo.sh LOG
  LOG  the console of `make run` (build/run-ARCH.log)
EOF
parse_options '' "$@"
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage_error "expected one LOG"
log=$1
[ -f "$log" ] || die "no log $log"

# The report of the buggy driver: "STORE_FN UNLOCK_FN ACCESSOR UNLOCK",
# printed with its stacks.
EXPECTED='edu_demo_buggy_store edu_demo_buggy_submit __writel spin_unlock'
# No report may name a function starting with this.
FORBIDDEN_FUNC='edu_demo_correct'
# Known reports of other drivers, by the function that made the store:
# drivers of arm64 platform devices that rely on arm64 ordering device
# stores before the unlock, which the checker's default portable mode
# reports anyway. The PL011 console (writel_relaxed() under the port lock,
# only relaxed reads before the unlock) and the GICv3 irqchip and ITS
# (writel_relaxed() under irq_desc and ITS locks). Extended regex.
KNOWN_FUNC='^(pl011_|gic_|its_)'
# Printed by the guest /init (tools/mmio_ordering/init.sh) just before
# poweroff.
DONE='mmio-vm: done rc=0'

fail=0
bad() { echo "$PROG: FAIL: $*"; fail=1; }

# One line per report: "STORE_FN UNLOCK_FN ACCESSOR UNLOCK<tab>COMPLETE<tab>TITLE".
reports=$("$here/mmiolog.py" reports \
	--format '{store_fn} {unlock_fn} {accessor} {unlock}\t{complete}\t{title}' "$log") ||
	die "mmiolog.py cannot read $log"
# column N: field N of every report.
column() { [ -z "$reports" ] || printf '%s\n' "$reports" | cut -f"$1"; }

echo "$PROG: reports found in $log:"
column 3 | sort | uniq -c | sed 's/^/  /'

n=$(column 1 | grep -cxF "$EXPECTED")
[ "$n" -eq 1 ] || bad "$n reports of the buggy path ($EXPECTED), expected 1"
[ "$n" -eq 0 ] || [ "$(column 1,2 | grep -cxF "$EXPECTED$(printf '\t')True")" -eq "$n" ] ||
	bad "the report of the buggy path was not printed whole, with its stacks"
n=$(column 1 | cut -d' ' -f1 | grep -cE "$KNOWN_FUNC")
[ "$n" -eq 0 ] ||
	echo "$PROG: $n known report(s) of platform drivers (not the demo's): see KNOWN_FUNC"
unexpected=$(column 1 | grep -v '^edu_demo_' | grep -vE "$KNOWN_FUNC")
[ -z "$unexpected" ] || {
	bad "unexpected reports (not the demo's, not known):"
	echo "$unexpected" | head -5
}
if column 1 | cut -d' ' -f1,2 | tr ' ' '\n' | grep -q "^$FORBIDDEN_FUNC"; then
	bad "a report names $FORBIDDEN_FUNC (false positive)"
fi
"$here/mmiolog.py" splats "$log" || bad "the kernel broke"
grep -qF "$DONE" "$log" ||
	bad "the guest did not reach poweroff cleanly ('$DONE' missing)"

[ $fail -eq 0 ] && echo "$PROG: PASS"
exit $fail
