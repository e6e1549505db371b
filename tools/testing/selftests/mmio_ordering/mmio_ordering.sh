#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Selftest of the MMIO ordering checker (CONFIG_DEBUG_MMIO_ORDERING).
#
# Loads test_mmio_ordering (CONFIG_TEST_MMIO_ORDERING), runs each of its
# correct and buggy locked register sequences once through
# /sys/kernel/debug/test_mmio_ordering/run, and checks for each the exact
# change of every counter of the checker, as the module measured it on the
# CPU that ran the sequence (in its file "last"), and of the pairs of this
# module that the checker lists in /sys/kernel/debug/mmio_ordering/reports:
# none for a correct sequence; for a buggy one, exactly the expected pair
# (accessor, unlock, store and unlock functions), printed with its stacks,
# whole in the kernel log, by this shell before its write() returned.
# Other code may store under locks meanwhile (a console on port I/O or on
# an MMIO UART does whenever anything prints): it moves neither.
# Then a repeated buggy sequence must be suppressed as a duplicate and
# unknown scenario names must be rejected.
#
# The checker reports each (store site, unlock site) pair once per boot,
# as long as the module stays loaded: a buggy sequence whose pair is listed
# already (an earlier run of this test) must be suppressed as a duplicate.
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
LAST=$DEBUGFS/$MODULE/last

COUNTERS="stores_tracked auto_barriers explicit_barriers violations reports
	  suppressed_duplicates reports_without_stacks pairs_not_printed
	  pair_table_full nesting_overflow
	  lock_imbalance
	  unordered_stores"
SCENARIOS="writel_locked relaxed_wb relaxed_readback relaxed_unlocked
	   unordered nested_inner relaxed_spin_lock relaxed_irqsave helper
	   writel_explicit"
# The tests, in the order they run; the plan counts them.
TESTS="test_list test_writel_locked test_relaxed_wb test_relaxed_unlocked
       test_unordered test_nested_inner test_relaxed_spin_lock
       test_relaxed_irqsave test_relaxed_readback test_helper test_explicit
       test_back_to_auto test_duplicate test_bad_names"

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
	if [ ! -f $CHECKER/stats ] || [ ! -f $CHECKER/mode ] || [ ! -f $CHECKER/reports ]; then
		skip_all "$CHECKER/ not found: needs CONFIG_DEBUG_MMIO_ORDERING and debugfs"
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
	[ -e $RUN ] && [ -e $LAST ] ||
		ktap_exit_fail_msg "$MODULE loaded but $RUN or $LAST is missing"
	trap cleanup EXIT
	trap 'exit "$KSFT_FAIL"' HUP INT TERM

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

# counter LAST NAME: the value of a counter in a copy of a "NAME: VALUE"
# file, such as $LAST.
counter() {
	echo "$1" | sed -n "s/^$2: //p"
}

# The pairs of this module the checker lists, one per line: "COUNT
# ACCESSOR() UNLOCK() STORE_FN [module] UNLOCK_FN [module]", followed by
# "(waiting)" or "(no stacks)" while a pair is not printed with its stacks.
# Reading the file prints every report found so far. Offsets are left out,
# so that a line without its count is the pair's key, as key() writes it.
pairs() {
	sed 's|+0x[0-9a-f]*/0x[0-9a-f]*||g' $CHECKER/reports | grep -F "[$MODULE]"
}

# key ACCESSOR UNLOCK STORE_FN RELEASE_FN: a pair of this module, printed.
key() {
	echo "$1() $2() $3 [$MODULE] $4 [$MODULE]"
}

# pair_count PAIRS KEY: how often the pair KEY was seen, 0 if not listed.
pair_count() {
	echo "$1" | awk -v k="$2" '
		{ n = $1; sub(/^[0-9]+ /, "") }
		$0 == k { c = n }
		END { print c + 0 }'
}

# new_pairs BEFORE AFTER: the keys listed in AFTER and not in BEFORE.
new_pairs() {
	echo "$2" | sed 's/^[0-9]* //' | while IFS= read -r k; do
		[ -z "$k" ] && continue
		echo "$1" | sed 's/^[0-9]* //' | grep -qxF -- "$k" || echo "$k"
	done
}

nr_lines() {
	if [ -z "$1" ]; then echo 0; else echo "$1" | wc -l; fi
}

# expected "NAME=N ..." NAME: the change N given for counter NAME, or 0.
expected() {
	local n

	n=$(echo " $1 " | sed -n "s/.* $2=\([0-9]*\) .*/\1/p")
	echo "${n:-0}"
}

# check_deltas LAST "NAME=N ...": every counter must have moved by exactly
# the value given, the ones not named by 0.
check_deltas() {
	local c exp d ok=0

	for c in $COUNTERS; do
		exp=$(expected "$2" "$c")
		d=$(counter "$1" "$c")
		if [ -z "$d" ]; then
			ktap_print_msg "counter $c missing from $LAST"
			ok=1
			continue
		fi
		if [ "$d" -ne "$exp" ]; then
			ktap_print_msg "$c: +$d, expected +$exp"
			ok=1
		fi
	done
	return $ok
}

# check_pairs BEFORE AFTER [KEY]: with no KEY, the list of pairs must not
# have changed. With KEY, exactly one new pair must be listed, KEY, or none
# when KEY was listed before, whose count must then have grown by one.
check_pairs() {
	local new

	new=$(new_pairs "$1" "$2")
	if [ -z "$3" ]; then
		[ "$1" = "$2" ] && return 0
		ktap_print_msg "pairs reported:"
		new_pairs "$1" "$2" | sed 's/^/# /'
		[ -n "$new" ] || ktap_print_msg "(a count changed)"
		return 1
	fi
	if [ "$(pair_count "$1" "$3")" -gt 0 ]; then
		[ -z "$new" ] &&
		[ "$(pair_count "$2" "$3")" -eq $(($(pair_count "$1" "$3") + 1)) ] &&
			return 0
		ktap_print_msg "pair listed before, expected its count to grow:" \
			"$3, new pairs: $(nr_lines "$new")"
		return 1
	fi
	[ "$new" = "$3" ] && return 0
	ktap_print_msg "$(nr_lines "$new") new pairs listed, expected: $3"
	echo "$new" | sed '/^$/d; s/^/# /'
	return 1
}

# logged_reports STEP: how many reports of this module the kernel log holds
# whole, from title to end marker, printed by this shell, after the mark of
# step STEP.
logged_reports() {
	dmesg | awk -v mark="mmio_ordering.sh: pid $$ step $1: " \
		    -v mod="[$MODULE]" -v me=" PID: $$ Comm: " '
		index($0, mark) { on = 1; n = 0; open = 0; next }
		!on { next }
		index($0, "BUG: MMIO-ORDERING: ") && index($0, mod) {
			open = 1; mine = 0; next
		}
		open && index($0, me) { mine = 1 }
		open && index($0, "---[ end trace ") { n += mine; open = 0 }
		END { print n + 0 }'
}

# run_scenario NAME "DELTAS" [ACCESSOR "UNLOCK..." STORE_FN RELEASE_FN]:
# run a scenario once and check the counters and the pairs it reported.
# An unlock that is inlined has no frame of its own: the report then names
# spin_unlock(), so several UNLOCK names may be given.
run_scenario() {
	local name="$1" deltas="$2" last pairs_before pairs_after
	local k='' op logged reports

	step=$((step + 1))
	# Marks where this step's reports begin in the kernel log.
	if ! echo "mmio_ordering.sh: pid $$ step $step: $name" > /dev/kmsg; then
		ktap_print_msg "cannot write to /dev/kmsg"
		return 1
	fi
	pairs_before=$(pairs)
	if ! echo "$name" > $RUN; then
		ktap_print_msg "writing $name to $RUN failed"
		return 1
	fi
	# Before reading a checker file prints what waits: this task prints
	# the report of a violation it found before its write() returns.
	logged=$(logged_reports $step)
	last=$(cat $LAST)
	pairs_after=$(pairs)
	if [ "$(counter "$last" scenario)" != "$name" ]; then
		ktap_print_msg "$LAST names \"$(counter "$last" scenario)\", not $name"
		return 1
	fi

	if [ $# -gt 2 ]; then
		# The key of the pair, with the unlock name it is listed with.
		for op in $4; do
			k=$(key "$3" "$op" "$5" "$6")
			[ "$(pair_count "$pairs_after" "$k")" -eq 0 ] || break
		done
		# Listed under none of them: name the first in the messages.
		[ "$(pair_count "$pairs_after" "$k")" -gt 0 ] ||
			k=$(key "$3" "${4%% *}" "$5" "$6")
		# Already reported, by an earlier run: now a duplicate.
		if [ "$(pair_count "$pairs_before" "$k")" -gt 0 ]; then
			ktap_print_msg "$name: already reported, a duplicate now"
			deltas=$(echo "$deltas" | sed 's/reports=1/suppressed_duplicates=1/')
		fi
	fi
	check_deltas "$last" "$deltas" || return 1
	reports=$(expected "$deltas" reports)
	if [ "$logged" -ne "$reports" ]; then
		ktap_print_msg "$logged reports printed whole by the writer, expected $reports"
		return 1
	fi
	check_pairs "$pairs_before" "$pairs_after" "$k"
}

# scenario_test DESCRIPTION NAME "DELTAS" [KEY...]: one KTAP test.
scenario_test() {
	local desc="$1"

	shift
	if run_scenario "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}

list_scenarios() {
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

test_list() {
	ktap_test_result "run lists the scenarios" list_scenarios
}

# Correct: nothing may be reported.
test_writel_locked() {
	scenario_test "writel() under spin_lock(), auto strategy: not reported" \
		writel_locked "stores_tracked=1 auto_barriers=1"
}

test_relaxed_wb() {
	scenario_test "writel_relaxed() and io_to_lock_wb(): not reported" \
		relaxed_wb "stores_tracked=1 explicit_barriers=1"
}

test_relaxed_unlocked() {
	scenario_test "relaxed stores outside any lock: not tracked" \
		relaxed_unlocked ""
}

test_unordered() {
	scenario_test "mmio_unordered(writel_relaxed()) under spin_lock(): not tracked" \
		unordered "unordered_stores=1"
}

test_nested_inner() {
	scenario_test "inner lock taken after the store and released first: not reported" \
		nested_inner "stores_tracked=1 explicit_barriers=1"
}

# Buggy: exactly one report each, naming the store and unlock functions.
test_relaxed_spin_lock() {
	scenario_test "writel_relaxed() under spin_lock(): reported" \
		relaxed_spin_lock "stores_tracked=1 violations=1 reports=1" \
		writel_relaxed spin_unlock tmo_relaxed_spin_lock tmo_relaxed_spin_lock
}

test_relaxed_irqsave() {
	scenario_test "__writel() under spin_lock_irqsave(): reported" \
		relaxed_irqsave "stores_tracked=1 violations=1 reports=1" \
		__writel "spin_unlock_irqrestore spin_unlock" tmo_relaxed_irqsave \
		tmo_relaxed_irqsave
}

test_relaxed_readback() {
	scenario_test "writel_relaxed() and a readl() read-back: reported" \
		relaxed_readback "stores_tracked=1 violations=1 reports=1" \
		writel_relaxed spin_unlock tmo_relaxed_readback tmo_relaxed_readback
}

test_helper() {
	scenario_test "writel_relaxed() in a helper called under the lock: reported" \
		helper "stores_tracked=1 violations=1 reports=1" \
		writel_relaxed spin_unlock tmo_store_helper tmo_helper
}

# A buggy class-1 store, then the same function under "auto" again.
explicit() {
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

test_explicit() {
	ktap_test_result "writel() under spin_lock(), explicit strategy: reported" \
		explicit
}

test_back_to_auto() {
	scenario_test "writel() under spin_lock(), strategy back to auto: not reported" \
		writel_explicit "stores_tracked=1 auto_barriers=1"
}

# Duplicates are counted, not printed.
test_duplicate() {
	scenario_test "second writel_relaxed() under spin_lock(): suppressed duplicate" \
		relaxed_spin_lock "stores_tracked=1 violations=1 suppressed_duplicates=1" \
		writel_relaxed spin_unlock tmo_relaxed_spin_lock tmo_relaxed_spin_lock
}

bad_names() {
	local last pairs_before n ok=0

	step=$((step + 1))
	echo "mmio_ordering.sh: pid $$ step $step: bad names" > /dev/kmsg 2>/dev/null
	pairs_before=$(pairs)
	last=$(cat $LAST)
	for n in bogus relaxed writel_locked_ WRITEL_LOCKED "writel_locked helper" \
		 " writel_locked" "writel_lockedwritel_lockedwritel_locked"; do
		if echo "$n" > $RUN 2>/dev/null; then
			ktap_print_msg "'$n' was accepted"
			ok=1
		fi
	done
	# Nothing ran: the last scenario and its counts are still listed.
	if [ "$(cat $LAST)" != "$last" ]; then
		ktap_print_msg "$LAST changed:" $(cat $LAST)
		ok=1
	fi
	check_pairs "$pairs_before" "$(pairs)" || ok=1
	return $ok
}

test_bad_names() {
	ktap_test_result "unknown scenario names are rejected" bad_names
}

ktap_print_header
setup
# shellcheck disable=SC2086 # one word per test
ktap_set_plan "$(echo $TESTS | wc -w)"
for t in $TESTS; do
	$t
done
ktap_finished
