#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Selftest of the MMIO ordering checker (CONFIG_DEBUG_MMIO_ORDERING).
#
# Loads test_mmio_ordering (CONFIG_TEST_MMIO_ORDERING), runs each of its
# correct and buggy locked register sequences once through
# /sys/kernel/debug/test_mmio_ordering/run, and checks for each the exact
# change of every counter in /sys/kernel/debug/mmio_ordering/stats and
# the "BUG: MMIO-ORDERING:" title lines it added to the kernel log: none for
# a correct sequence, exactly the expected one for a buggy sequence. Then a
# repeated buggy sequence must be suppressed as a duplicate and unknown
# scenario names must be rejected.
#
# The checker reports each (store site, unlock site) pair once per boot:
# when the kernel log shows that this test already ran in this boot, a buggy
# sequence may also be suppressed as a duplicate instead of reported.
#
# Runs as root, under bash or busybox sh. The module is loaded with
# modprobe, or else with insmod from $TEST_MMIO_ORDERING_KO. Prints KTAP;
# exits 0 when every test passed, 4 when the checker or the module is
# missing, 1 otherwise.

DIR=$(dirname "$(readlink -f "$0")")
KTAP_HELPERS=$DIR/../kselftest/ktap_helpers.sh
if [ ! -e "$KTAP_HELPERS" ]; then
	echo "$KTAP_HELPERS file not found [SKIP]"
	exit 4
fi
# shellcheck source=../kselftest/ktap_helpers.sh
. "$KTAP_HELPERS"

MODULE=test_mmio_ordering
DEBUGFS=/sys/kernel/debug
CHECKER=$DEBUGFS/mmio_ordering
RUN=$DEBUGFS/$MODULE/run
# How long to wait for a report, in tenths of a second: the checker prints
# from irq_work, normally within a few milliseconds of the unlock.
REPORT_WAIT=${MMIO_ORDERING_REPORT_WAIT:-50}

COUNTERS="stores_tracked auto_barriers explicit_barriers violations reports
	  suppressed_duplicates reports_without_stacks pair_table_full nesting_overflow
	  lock_imbalance
	  unordered_stores"
SCENARIOS="writel_locked relaxed_wb relaxed_readback relaxed_unlocked
	   unordered nested_inner relaxed_spin_lock relaxed_irqsave helper
	   writel_explicit"
NR_TESTS=14

loaded=0
step=0
orig_strategy=
orig_mode=

skip_all() {
	ktap_skip_all "$@"
	exit "$KSFT_SKIP"
}

cleanup() {
	[ -z "$orig_strategy" ] || echo "$orig_strategy" > $CHECKER/strategy
	[ -z "$orig_mode" ] || echo "$orig_mode" > $CHECKER/mode
	if [ $loaded -eq 1 ] && ! rmmod $MODULE; then
		ktap_print_msg "could not unload $MODULE"
	fi
}

setup() {
	if [ "$(id -u)" -ne 0 ]; then
		skip_all "must be run as root"
	fi
	if [ ! -d $DEBUGFS/mmio_ordering ]; then
		mount -t debugfs none $DEBUGFS 2>/dev/null
	fi
	if [ ! -f $CHECKER/stats ] || [ ! -f $CHECKER/mode ]; then
		skip_all "$CHECKER/ not found: needs CONFIG_DEBUG_MMIO_ORDERING and debugfs"
	fi
	if [ ! -w /dev/kmsg ]; then
		skip_all "/dev/kmsg is not writable"
	fi

	if [ ! -e $RUN ]; then
		if modprobe -q $MODULE 2>/dev/null; then
			loaded=1
		elif [ -n "$TEST_MMIO_ORDERING_KO" ] && [ -f "$TEST_MMIO_ORDERING_KO" ]; then
			insmod "$TEST_MMIO_ORDERING_KO" ||
				ktap_exit_fail_msg "insmod $TEST_MMIO_ORDERING_KO failed"
			loaded=1
		else
			skip_all "module $MODULE not found" \
				"(CONFIG_TEST_MMIO_ORDERING=m, or set TEST_MMIO_ORDERING_KO)"
		fi
	fi
	[ -e $RUN ] || ktap_exit_fail_msg "$MODULE loaded but $RUN is missing"
	trap cleanup EXIT
	trap 'exit "$KSFT_FAIL"' HUP INT TERM

	# Reports of an earlier run in this boot make repeats duplicates.
	if dmesg | grep -q "BUG: MMIO-ORDERING: .* \[$MODULE\]"; then
		rerun=1
		ktap_print_msg "$MODULE reports found in the kernel log:" \
			"buggy scenarios may be suppressed as already reported"
	else
		rerun=0
	fi

	orig_strategy=$(cat $CHECKER/strategy)
	orig_mode=$(cat $CHECKER/mode)
	# Report in portable mode: on x86 and arm64 "arch" mode reports nothing.
	set_value strategy auto || ktap_exit_fail_msg "cannot set the strategy"
	set_value mode portable || ktap_exit_fail_msg "cannot set the mode"
}

# set_value FILE VALUE: write a checker setting and read it back.
set_value() {
	echo "$2" > "$CHECKER/$1" && [ "$(cat "$CHECKER/$1")" = "$2" ]
}

# counter STATS NAME: the value of a counter in a copy of the stats file.
counter() {
	echo "$1" | sed -n "s/^$2: //p"
}

# The title lines the kernel logged after the last line containing $marker.
new_titles() {
	dmesg | awk -v m="$marker" '
		index($0, m) { n = 0; found = 1; next }
		found {
			sub(/^\[[^]]*\] /, "")
			if (/^BUG: MMIO-ORDERING: /)
				t[n++] = $0
		}
		END { for (i = 0; i < n; i++) print t[i] }'
}

nr_lines() {
	if [ -z "$1" ]; then echo 0; else echo "$1" | wc -l; fi
}

# wait_titles N: wait until N title lines were logged after the marker.
wait_titles() {
	local i=0

	titles=$(new_titles)
	while [ "$(nr_lines "$titles")" -lt "$1" ] && [ $i -lt "$REPORT_WAIT" ]; do
		sleep 0.1 2>/dev/null || sleep 1
		i=$((i + 1))
		titles=$(new_titles)
	done
}

# check_deltas BEFORE AFTER "NAME=N ...": every counter must have moved by
# exactly the value given, the ones not named by 0.
check_deltas() {
	local c exp b a ok=0

	for c in $COUNTERS; do
		exp=$(echo " $3 " | sed -n "s/.* $c=\([0-9]*\) .*/\1/p")
		b=$(counter "$1" "$c")
		a=$(counter "$2" "$c")
		if [ -z "$a" ] || [ -z "$b" ]; then
			ktap_print_msg "counter $c missing from $CHECKER/stats"
			ok=1
			continue
		fi
		if [ $((a - b)) -ne "${exp:-0}" ]; then
			ktap_print_msg "$c: +$((a - b)), expected +${exp:-0}"
			ok=1
		fi
	done
	return $ok
}

# title ACCESSOR UNLOCK STORE_FN RELEASE_FN: a report's title line.
title() {
	echo "BUG: MMIO-ORDERING: $1() not ordered before $2() in $3 [$MODULE] / $4 [$MODULE]"
}

# check_titles N [ACCESSOR "UNLOCK..." STORE_FN RELEASE_FN]: the titles
# logged after the marker must be exactly N, and equal to the title with
# one of the given unlock names (an unlock that is inlined has no frame of
# its own: the report then names spin_unlock()).
check_titles() {
	local op

	wait_titles "$1"
	if [ "$(nr_lines "$titles")" -ne "$1" ]; then
		ktap_print_msg "$(nr_lines "$titles") reports logged, expected $1"
		echo "$titles" | sed '/^$/d; s/^/# /'
		return 1
	fi
	[ "$1" -eq 1 ] || return 0
	for op in $3; do
		[ "$titles" = "$(title "$2" "$op" "$4" "$5")" ] && return 0
	done
	ktap_print_msg "report: $titles"
	ktap_print_msg "expected: $(title "$2" "${3%% *}" "$4" "$5")"
	return 1
}

# run_scenario NAME "DELTAS" [ACCESSOR "UNLOCK..." STORE_FN RELEASE_FN]:
# run a scenario once and check the counters and the reports it caused.
run_scenario() {
	local name="$1" deltas="$2" before after nr=0

	step=$((step + 1))
	marker="mmio_ordering.sh: pid $$ step $step: $name"
	before=$(cat $CHECKER/stats)
	echo "$marker" > /dev/kmsg
	if ! echo "$name" > $RUN; then
		ktap_print_msg "writing $name to $RUN failed"
		return 1
	fi
	after=$(cat $CHECKER/stats)

	[ $# -le 2 ] || nr=1
	# Already reported earlier in this boot: now a duplicate.
	if [ $nr -eq 1 ] && [ $rerun -eq 1 ] &&
	   [ "$(counter "$after" reports)" = "$(counter "$before" reports)" ] &&
	   [ $(($(counter "$after" suppressed_duplicates) -
		$(counter "$before" suppressed_duplicates))) -eq 1 ]; then
		ktap_print_msg "$name: suppressed as reported earlier in this boot"
		deltas=$(echo "$deltas" | sed 's/reports=1/suppressed_duplicates=1/')
		nr=0
	fi
	shift 2
	check_deltas "$before" "$after" "$deltas" || return 1
	check_titles $nr "$@"
}

# scenario_test DESCRIPTION NAME "DELTAS" [TITLE...]: one KTAP test.
scenario_test() {
	local desc="$1"

	shift
	if run_scenario "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}

test_list() {
	local list s

	list=$(cat $RUN) || return 1
	for s in $SCENARIOS; do
		echo "$list" | grep -qx "$s" || {
			ktap_print_msg "$s is not listed in $RUN"
			return 1
		}
	done
	[ "$(nr_lines "$list")" -eq "$(echo "$SCENARIOS" | wc -w)" ] || {
		ktap_print_msg "$RUN lists unknown scenarios:" $list
		return 1
	}
}

# A buggy class-1 store, then the same function under "auto" again.
test_explicit() {
	local ret

	set_value strategy explicit || {
		ktap_print_msg "cannot select the explicit strategy"
		return 1
	}
	run_scenario writel_explicit "stores_tracked=1 violations=1 reports=1" \
		writel spin_unlock tmo_writel_explicit tmo_writel_explicit
	ret=$?
	set_value strategy auto || {
		ktap_print_msg "cannot restore the auto strategy"
		return 1
	}
	return $ret
}

test_bad_names() {
	local before after n ok=0

	step=$((step + 1))
	marker="mmio_ordering.sh: pid $$ step $step: bad names"
	before=$(cat $CHECKER/stats)
	echo "$marker" > /dev/kmsg
	for n in bogus relaxed writel_locked_ WRITEL_LOCKED "writel_locked helper" \
		 " writel_locked" "writel_lockedwritel_lockedwritel_locked"; do
		if echo "$n" > $RUN 2>/dev/null; then
			ktap_print_msg "'$n' was accepted"
			ok=1
		fi
	done
	after=$(cat $CHECKER/stats)
	check_deltas "$before" "$after" "" || ok=1
	check_titles 0 || ok=1
	return $ok
}

ktap_print_header
setup
ktap_set_plan $NR_TESTS

ktap_test_result "run lists the scenarios" test_list

# Correct: nothing may be reported.
scenario_test "writel() under spin_lock(), auto strategy: not reported" \
	writel_locked "stores_tracked=1 auto_barriers=1"
scenario_test "writel_relaxed() and io_to_lock_wb(): not reported" \
	relaxed_wb "stores_tracked=1 explicit_barriers=1"
scenario_test "relaxed stores outside any lock: not tracked" \
	relaxed_unlocked ""
scenario_test "mmio_unordered(writel_relaxed()) under spin_lock(): not tracked" \
	unordered "unordered_stores=1"
scenario_test "inner lock taken after the store and released first: not reported" \
	nested_inner "stores_tracked=1 explicit_barriers=1"

# Buggy: exactly one report each, naming the store and unlock functions.
scenario_test "writel_relaxed() under spin_lock(): reported" \
	relaxed_spin_lock "stores_tracked=1 violations=1 reports=1" \
	writel_relaxed spin_unlock tmo_relaxed_spin_lock tmo_relaxed_spin_lock
scenario_test "__writel() under spin_lock_irqsave(): reported" \
	relaxed_irqsave "stores_tracked=1 violations=1 reports=1" \
	__writel "spin_unlock_irqrestore spin_unlock" tmo_relaxed_irqsave tmo_relaxed_irqsave
scenario_test "writel_relaxed() and a readl() read-back: reported" \
	relaxed_readback "stores_tracked=1 violations=1 reports=1" \
	writel_relaxed spin_unlock tmo_relaxed_readback tmo_relaxed_readback
scenario_test "writel_relaxed() in a helper called under the lock: reported" \
	helper "stores_tracked=1 violations=1 reports=1" \
	writel_relaxed spin_unlock tmo_store_helper tmo_helper
ktap_test_result "writel() under spin_lock(), explicit strategy: reported" \
	test_explicit
scenario_test "writel() under spin_lock(), strategy back to auto: not reported" \
	writel_explicit "stores_tracked=1 auto_barriers=1"

# Duplicates are counted, not printed.
scenario_test "second writel_relaxed() under spin_lock(): suppressed duplicate" \
	relaxed_spin_lock "stores_tracked=1 violations=1 suppressed_duplicates=1"

ktap_test_result "unknown scenario names are rejected" test_bad_names

ktap_finished
