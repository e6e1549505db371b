# SPDX-License-Identifier: GPL-2.0
#
# A kbuild Makefile as an earlier patch of the series has it.
#
#   awk -v drop="SYM..." -f kbuild.awk FILE
#
# Drops every statement (with its continuation lines) that names
# $(CONFIG_SYM) for a SYM in drop. A paragraph (lines between blank lines)
# that loses all its statements goes whole, with its comments and the blank
# line after it.

function flush(	i, n, kept) {
	if (!np)
		return
	n = 0
	kept = 0
	for (i = 1; i <= np; i++) {
		if (stmt[i])
			n++
		if (stmt[i] && !gone[i])
			kept++
	}
	if (n && !kept) {
		skipblank = 1
	} else {
		for (i = 1; i <= np; i++)
			if (!gone[i])
				print para[i]
		skipblank = 0
	}
	np = 0
	delete para
	delete stmt
	delete gone
}

function names_dropped(s,	t) {
	while (match(s, /\$\(CONFIG_[A-Za-z0-9_]+\)/)) {
		t = substr(s, RSTART + 9, RLENGTH - 10)
		if (t in dropped)
			return 1
		s = substr(s, RSTART + RLENGTH)
	}
	return 0
}

BEGIN {
	n = split(drop, d, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (d[i] != "")
			dropped[d[i]] = 1
	np = 0
	cont = 0
	skipblank = 0
}

# A continuation line belongs to the statement above it.
cont {
	para[++np] = $0
	stmt[np] = 0
	gone[np] = gone[np - 1]
	cont = /\\$/
	next
}

/^[ \t]*$/ {
	flush()
	if (skipblank)
		skipblank = 0
	else
		print
	next
}

{
	para[++np] = $0
	stmt[np] = !/^[ \t]*#/
	gone[np] = stmt[np] && names_dropped($0)
	cont = stmt[np] && /\\$/
}

END {
	flush()
}
