# SPDX-License-Identifier: GPL-2.0
#
# Sort the findings of `checkpatch.pl --show-types` (full, not terse,
# output) into those excepted by a rule and the rest.
#
#   awk -v rules=RULES -v used=USED -f checkpatch.awk CHECKPATCH-OUTPUT
#
# RULES has one rule a line, fields separated by tabs: id, checkpatch
# type, ERE the finding's file must match, ERE the finding's text (message
# and quoted lines) must match, or empty. Prints every finding no rule
# excepts, and appends the id of the rule of each excepted one to USED.
# Exit status 1 when something was printed.

function finish(	i, ok) {
	if (type == "")
		return
	ok = 0
	for (i = 1; i <= nr; i++) {
		if (rtype[i] != type || file !~ rfile[i])
			continue
		if (rtext[i] != "" && text !~ rtext[i])
			continue
		ok = i
		break
	}
	if (ok)
		print rid[ok] >> used
	else {
		print text
		print ""
		bad = 1
	}
	type = ""
}

BEGIN {
	FS = "\n"
	nr = 0
	while ((getline l < rules) > 0) {
		split(l, f, "\t")
		nr++
		rid[nr] = f[1]
		rtype[nr] = f[2]
		rfile[nr] = f[3]
		rtext[nr] = f[4]
	}
	type = ""
	bad = 0
}

/^(ERROR|WARNING|CHECK):[A-Z0-9_]+:/ {
	finish()
	split($0, p, ":")
	type = p[2]
	text = $0
	file = ""
	next
}

type != "" && /^$/ {
	finish()
	next
}

type != "" {
	if (file == "" && match($0, /^#[0-9]+: FILE: [^:]+:/)) {
		file = substr($0, RSTART, RLENGTH - 1)
		sub(/^#[0-9]+: FILE: /, "", file)
	}
	text = text "\n" $0
}

END {
	finish()
	exit bad
}
