# SPDX-License-Identifier: GPL-2.0
#
# A Kconfig file as an earlier patch of the series has it.
#
#   awk -v mode=symbols -f kconfig.awk FILE
#	prints "SYMBOL TYPE" for every config and menuconfig entry.
#   awk -v mode=filter -v drop="SYM..." -f kconfig.awk FILE
#	prints FILE without the entries of the symbols in drop: a config
#	entry goes with its symbol, a choice, if or menu block goes when
#	its condition names a dropped symbol or when none of its entries
#	is left. Top-level comment lines go with the entry they precede.
#	Fails (exit 2) when a remaining entry refers to a dropped symbol.
#
# An entry runs from its keyword at the start of a line to the next one,
# its trailing blank lines included.

function ident_refs(s, e,	w, n, i, words) {
	# Quoted strings (prompts) and comments are not references.
	gsub(/"[^"]*"/, " ", s)
	sub(/#.*/, "", s)
	n = split(s, words, /[^A-Za-z0-9_]+/)
	for (i = 1; i <= n; i++) {
		w = words[i]
		if (w in dropped && !(e SUBSEP w in refd)) {
			refd[e, w] = 1
			refs[e] = refs[e] " " w
		}
	}
}

function keep_entry(e,	c, any) {
	if (kind[e] == "config" || kind[e] == "menuconfig")
		return !(name[e] in dropped)
	if (kind[e] == "choice" || kind[e] == "if" || kind[e] == "menu") {
		if (refs[e] != "")
			return 0
		any = 0
		for (c = e + 1; c < closer[e]; c++)
			if (parent[c] == e && keep[c])
				any = 1
		return any
	}
	return refs[e] == ""
}

function emit(e,	l) {
	for (l = first[e]; l <= last[e]; l++)
		print line[l]
}

BEGIN {
	n = split(drop, d, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (d[i] != "")
			dropped[d[i]] = 1
	nent = 0
	depth = 0
}

{
	line[NR] = $0
}

/^(config|menuconfig|choice|endchoice|if|endif|menu|endmenu|comment|source|mainmenu)([ \t]|$)/ {
	kw = $1
	# Comment lines right before the keyword belong to this entry.
	start = NR
	if (nent > 0)
		while (start - 1 > first[nent] && line[start - 1] ~ /^#/)
			start--
	if (nent > 0)
		last[nent] = start - 1
	nent++
	first[nent] = start
	kind[nent] = kw
	name[nent] = $2
	parent[nent] = depth ? stack[depth] : 0
	inhelp = 0
	if (kw == "choice" || kw == "if" || kw == "menu") {
		stack[++depth] = nent
		if (kw == "if")
			ident_refs(substr($0, 3), nent)
	} else if (kw == "endchoice" || kw == "endif" || kw == "endmenu") {
		if (!depth) {
			printf "%s:%d: %s without opening block\n", FILENAME, NR, kw > "/dev/stderr"
			exit 2
		}
		opener[nent] = stack[depth]
		closer[stack[depth]] = nent
		parent[nent] = stack[depth]
		depth--
	}
	next
}

nent == 0 {
	next
}

/^[ \t]+(help|---help---)[ \t]*$/ {
	inhelp = 1
	next
}

!inhelp && /^[ \t]+(bool|tristate|def_bool|def_tristate|int|hex|string)([ \t]|$)/ {
	t = $1
	sub(/^def_/, "", t)
	type[nent] = t
}

!inhelp && /^[ \t]+(depends[ \t]+on|select|imply|default|def_bool|def_tristate|visible[ \t]+if|range|bool|tristate|prompt)([ \t]|$)/ {
	ident_refs($0, nent)
}

END {
	if (depth) {
		printf "%s: block not closed\n", FILENAME > "/dev/stderr"
		exit 2
	}
	if (mode == "symbols") {
		for (e = 1; e <= nent; e++)
			if (kind[e] == "config" || kind[e] == "menuconfig")
				print name[e], (e in type) ? type[e] : "unknown"
		exit 0
	}
	if (nent == 0) {
		for (l = 1; l <= NR; l++)
			print line[l]
		exit 0
	}
	last[nent] = NR

	# Decide innermost first: a block's fate depends on its entries.
	for (e = nent; e >= 1; e--) {
		if (kind[e] ~ /^end/)
			continue
		keep[e] = keep_entry(e)
	}
	# An entry stays only if every block around it stays.
	for (e = 1; e <= nent; e++) {
		if (kind[e] ~ /^end/)
			keep[e] = keep[opener[e]]
		else if (parent[e] && !keep[parent[e]])
			keep[e] = 0
	}
	bad = 0
	for (e = 1; e <= nent; e++) {
		if (!keep[e] || refs[e] == "")
			continue
		printf "%s:%d: %s %s refers to%s, which a later patch adds\n",
		       FILENAME, first[e], kind[e], name[e], refs[e] > "/dev/stderr"
		bad = 1
	}
	for (e = 1; e <= nent; e++) {
		if (kind[e] != "config" && kind[e] != "menuconfig")
			continue
		if (!(name[e] in dropped) && !keep[e]) {
			printf "%s:%d: %s stays, but the block around it goes\n",
			       FILENAME, first[e], name[e] > "/dev/stderr"
			bad = 1
		}
	}
	if (bad)
		exit 2

	for (l = 1; l < first[1]; l++)
		print line[l]
	for (e = 1; e <= nent; e++)
		if (keep[e])
			emit(e)
}
