#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make check-bad-input`: every debugfs file and boot
# parameter of the feature rejects malformed, out-of-range and oversized
# input with -EINVAL and one log line, and keeps its value.
#
# The kernel was booted with mmio_ordering.strategy=bogus and an oversized
# mmio_ordering.mode= (see the Makefile); both must have been rejected.
# Prints KTAP; exits non-zero on any failure.

D=/sys/kernel/debug/mmio_ordering
P=/sys/module/mmio_ordering/parameters
n=0
fail=0
# The plan is the number of checks: tests runs once only counting them.
counting=0

ok() {
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n $1"
}

check() {
	if [ $counting -eq 1 ]; then
		n=$((n + 1))
		return 0
	fi
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# The kernel log lines that mention an invalid value, one per line.
invalid_lines() {
	dmesg | grep -c "mmio_ordering: .*: invalid value '"
}

# write_rejected FILE FORMAT: writing printf FORMAT fails with EINVAL, logs
# exactly one line naming FILE's setting, and FILE keeps its content.
write_rejected() {
	f=$1
	before=$(cat "$f")
	lines=$(invalid_lines)
	# One write(2) of the whole value; dd names the error, printf does not.
	# shellcheck disable=SC2059
	err=$(printf "$2" | dd of="$f" bs=4096 conv=notrunc 2>&1)
	st=$?
	after=$(cat "$f")
	new=$(( $(invalid_lines) - lines ))
	[ $st -ne 0 ] || { echo "# $f: '$2' accepted"; return 1; }
	case "$err" in
	*"Invalid argument"*) ;;
	*) echo "# $f: unexpected error: $err"; return 1 ;;
	esac
	[ "$before" = "$after" ] || { echo "# $f: changed to $after"; return 1; }
	[ $new -eq 1 ] || { echo "# $f: $new log lines"; return 1; }
	# The line is bounded, whatever the input length.
	last=$(dmesg | grep "mmio_ordering: .*: invalid value '" | tail -n 1)
	[ ${#last} -lt 160 ] || { echo "# $f: log line of ${#last} chars"; return 1; }
}

write_accepted() {
	# shellcheck disable=SC2059
	printf "$2" > "$1" && [ "$(cat "$1")" = "$3" ]
}

long=$(printf '%0300d' 0)

# Every check, in order; check() only counts them while counting=1.
tests() {
	# Boot parameters given bad values: rejected at boot, defaults kept.
	check "boot: strategy=bogus logged" \
		sh -c "dmesg | grep -q \"mmio_ordering: strategy: invalid value 'bogus', expected auto or explicit\""
	check "boot: oversized mode= logged, truncated" \
		sh -c "dmesg | grep -q \"mmio_ordering: mode: invalid value '0000000000000000'..., expected portable or arch\""
	check "boot: strategy stays auto" [ "$(cat $D/strategy)" = auto ]
	check "boot: mode stays portable" [ "$(cat $D/mode)" = portable ]

	# debugfs and sysfs files, one check per kind of bad input.
	for f in $D/strategy $D/mode $P/strategy $P/mode; do
		name=${f#/sys/}
		check "$name: newline only" write_rejected "$f" '\n'
		check "$name: unknown word" write_rejected "$f" bogus
		check "$name: two words" write_rejected "$f" "auto portable"
		check "$name: oversized ($((${#long})) bytes)" write_rejected "$f" "$long"
		check "$name: control characters" write_rejected "$f" 'arch\001\377'
		check "$name: trailing garbage after newline" write_rejected "$f" 'auto\nx'
	done

	# Good input still works, with or without a newline, and is undone.
	check "strategy: explicit accepted" write_accepted $D/strategy "explicit" explicit
	check "strategy: auto\\n accepted" write_accepted $D/strategy 'auto\n' auto
	check "mode: arch accepted" write_accepted $D/mode "arch" arch
	check "mode: portable accepted" write_accepted $D/mode "portable" portable
	check "stats: read-only" sh -c "! printf x > $D/stats 2>/dev/null"
	check "stats: still readable" sh -c "grep -q '^violations: ' $D/stats"
	check "reports: read-only" sh -c "! printf x > $D/reports 2>/dev/null"
	check "held: read-only" sh -c "! printf x > $D/held 2>/dev/null"
	check "held: one line per CPU, all clean" \
		sh -c "[ \$(grep -c '^cpu[0-9]*: 0$' $D/held) -eq \$(grep -c ^processor /proc/cpuinfo) ]"
	# debugfs files have size 0: read the file rather than test its size.
	# While "explicit" was on, the 8250 console (port I/O) printed under
	# its port lock without io_to_lock_wb(): a real report, and the only
	# one allowed. Bad input reports nothing.
	check "reports: lists no pair but the console's" \
		sh -c "! grep -v ' io_serial_out+' $D/reports | grep -q ."
}

counting=1
tests
counting=0
echo "TAP version 13"
echo "1..$n"
n=0
tests

echo "# $fail failed"
[ $fail -eq 0 ]
