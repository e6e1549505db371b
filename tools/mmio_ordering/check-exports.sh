#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every function a file of the feature exports has a kernel-doc comment.
#
# Run with -h for the usage.
set -euo pipefail

PROG=check-exports
. "$(dirname "$0")/lib.sh"

set_usage <<'EOF'
Usage: check-exports.sh TREE FILE...
  FILEs are relative to TREE, the kernel tree (for scripts/kernel-doc).
EOF
parse_options '' "$@"
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage_error "expected TREE FILE..."
tree=$1
shift
cd "$tree"
fail=0
for f in "$@"; do
	case $f in *.c) ;; *) continue ;; esac
	documented=$(scripts/kernel-doc -rst "$f" 2>/dev/null |
		sed -n 's/^\.\. c:function:: .*[ *]\([A-Za-z0-9_][A-Za-z0-9_]*\) *(.*/\1/p')
	# Exported variables (per-CPU state, the strategy) are not functions.
	for sym in $(sed -n 's/^EXPORT_SYMBOL[A-Z_]*(\([A-Za-z0-9_]*\));/\1/p' "$f"); do
		grep -q "^[^(]*\b$sym\b *(" "$f" || continue
		grep -qx "$sym" <<< "$documented" && continue
		echo "$f: $sym() is exported but has no kernel-doc comment"
		fail=1
	done
done
exit $fail
