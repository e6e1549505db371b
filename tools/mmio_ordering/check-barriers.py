#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check what the MMIO ordering barriers compile to, per architecture.

The KUnit suite has one small function per barrier,
mmio_ordering_codegen_<barrier>(); this disassembles them from the built
test object and checks the instruction each barrier must emit (and, for
io_to_memory_rb(v), that the barrier depends on the value the MMIO load
returned, as arm64's __iormb(v) makes it). auto_unlock is the unlock
after a writel() under the lock: asm-generic/mmiowb.h's hook (followed
when kept out of line) runs the "auto" strategy's barrier inline where
<asm/mmiowb.h> has one (riscv, powerpc), and elsewhere calls
mmio_ordering_unlock_wb(), which runs arch_io_to_lock_wb() (checked as
io_to_lock_wb). Calls appear as "call NAME".

Usage: check-barriers.py ARCH OBJDUMP OBJECT [ARCH OBJDUMP OBJECT ...]
Prints KTAP; exits non-zero on any failure.
"""
import re
import subprocess
import sys

PREFIX = 'mmio_ordering_codegen_'
# asm-generic/mmiowb.h's static inline hooks, which a compiler may keep out
# of line: auto_unlock's barrier call is then in mmiowb_spin_unlock().
MMIOWB_HOOKS = ('mmiowb_spin_lock', 'mmiowb_spin_unlock', 'mmiowb_set_pending')
FENCES_X86 = re.compile(r'\b(mfence|lfence|sfence|lock)\b')


def functions(objdump, obj):
    """{barrier: [instruction text]} of the codegen functions in OBJ.

    A barrier that the compiler kept out of line (-Os), as a local copy
    called from the codegen function, counts with its instructions:
    calls to a function named after the barrier, or to one of
    asm-generic/mmiowb.h's hooks, are followed.
    """
    out = subprocess.run([objdump, '-dr', '--no-show-raw-insn', obj],
                         check=True, capture_output=True, text=True).stdout
    insns, calls, cur = {}, {}, None
    for line in out.splitlines():
        m = re.match(r'^[0-9a-f]+ <(\S+)>:$', line)
        if m:
            # Local labels (.LBB0_1) are inside the current function.
            if not m.group(1).startswith('.L'):
                cur = m.group(1).split('.')[0]
                insns.setdefault(cur, [])
                calls.setdefault(cur, [])
            continue
        m = re.match(r'^\s+[0-9a-f]+:\s+(.*)$', line)
        if not m or cur is None:
            continue
        text = re.sub(r'\s+', ' ', m.group(1)).strip()
        r = re.match(r'R_\S+ (\S+)', text)
        if r:
            calls[cur].append(re.split(r'[+-]', r.group(1))[0])
            continue
        insns[cur].append(text)
        c = re.search(r'<([^+>]+)>$', text)
        if c:
            calls[cur].append(c.group(1).split('.')[0])
    funcs = {}
    for name in insns:
        if not name.startswith(PREFIX):
            continue
        barrier = name[len(PREFIX):]
        funcs[barrier] = list(insns[name]) + [f'call {c}' for c in calls[name]]
        for callee in calls[name]:
            if callee != name and callee in insns and \
                    (callee.endswith(barrier) or callee in MMIOWB_HOOKS):
                funcs[barrier] += insns[callee] + [f'call {c}' for c in calls[callee]]
    return funcs


def compiler(objdump, obj):
    """'gcc' or 'clang', from the .comment section of OBJ."""
    out = subprocess.run([objdump, '-s', '-j', '.comment', obj],
                         check=True, capture_output=True, text=True).stdout
    return 'clang' if 'clang' in out else 'gcc'


def reg_num(reg):
    m = re.fullmatch(r'[wx](\d+)', reg)
    return m.group(1) if m else None


def arm64_value_dependency(insns):
    """ldr (or bl readX) -> (mov)* -> eor r, v, v -> cbnz r, then dmb oshld."""
    regs, eor_dst, seen_dmb = set(), None, False
    for ins in insns:
        op, _, args = ins.partition(' ')
        args = [a.strip() for a in args.split(',')]
        if op == 'ldr' and not regs and args[1].startswith('[x0'):
            regs.add(reg_num(args[0]))
        elif op == 'bl' and not regs and 'read' in args[0]:
            # An accessor kept out of line (-Os) returns the value in x0.
            regs.add('0')
        elif op == 'mov' and len(args) == 2 and reg_num(args[1]) in regs:
            regs.add(reg_num(args[0]))
        elif op == 'eor' and len(args) == 3 and args[1] == args[2] and \
                reg_num(args[1]) in regs:
            eor_dst = reg_num(args[0])
        elif op == 'cbnz' and eor_dst is not None and reg_num(args[0]) == eor_dst:
            return seen_dmb or any(i.startswith('dmb oshld') for i in insns)
        elif ins.startswith('dmb oshld'):
            seen_dmb = True
    return False


def has(insns, pattern):
    return any(re.fullmatch(pattern, i) for i in insns)


def none_of(insns, pattern):
    return not any(re.search(pattern, i) for i in insns)


# barrier -> (description, check(insns)) per architecture
EXPECT = {
    'x86_64': {
        **{b: ('compiler barrier only', lambda f: none_of(f, FENCES_X86))
           for b in ('io_to_io_barrier', 'memory_to_io_wb', 'io_to_memory_rb',
                     'io_to_lock_wb')},
        'auto_unlock': ('a call to mmio_ordering_unlock_wb(), no fence',
                        lambda f: has(f, r'^call mmio_ordering_unlock_wb$') and
                        none_of(f, r'\b[mls]fence\b')),
    },
    'arm64': {
        'io_to_io_barrier': ('dmb osh', lambda f: has(f, r'dmb osh')),
        'memory_to_io_wb': ('dmb oshst', lambda f: has(f, r'dmb oshst')),
        'io_to_memory_rb': ('dmb oshld and a dependency on the loaded value',
                            arm64_value_dependency),
        'io_to_lock_wb': ('compiler barrier only (unlock is a store-release)',
                          lambda f: none_of(f, r'^(dmb|dsb)\b')),
        # writel()'s own "dmb oshst" comes before the store.
        'auto_unlock': ('a call to mmio_ordering_unlock_wb(), no dmb/dsb but writel()\'s dmb oshst',
                        lambda f: has(f, r'^call mmio_ordering_unlock_wb$') and
                        none_of(f, r'^(dmb (?!oshst)|dsb\b)')),
    },
    'riscv64': {
        'io_to_io_barrier': ('fence io,io', lambda f: has(f, r'fence io,io')),
        'memory_to_io_wb': ('fence w,o', lambda f: has(f, r'fence w,o')),
        'io_to_memory_rb': ('fence i,ir', lambda f: has(f, r'fence i,ir')),
        'io_to_lock_wb': ('fence o,w', lambda f: has(f, r'fence o,w')),
        'auto_unlock': ('the fence o,w inline, no call to mmio_ordering_unlock_wb()',
                        lambda f: has(f, r'fence o,w') and
                        none_of(f, r'call mmio_ordering_unlock_wb')),
    },
    # sync (objdump: hwsync) for all four: asm-generic's defaults (mb(),
    # wmb(), rmb(), mmiowb()), the barrier powerpc's own accessors use.
    'ppc64le': {
        **{b: ('sync', lambda f: has(f, r'(hw)?sync'))
           for b in ('io_to_io_barrier', 'memory_to_io_wb', 'io_to_memory_rb',
                     'io_to_lock_wb')},
        'auto_unlock': ('the sync inline after writel()\'s own, no call to '
                        'mmio_ordering_unlock_wb()',
                        lambda f: sum(bool(re.fullmatch(r'(hw)?sync', i)) for i in f) >= 2 and
                        none_of(f, r'call mmio_ordering_unlock_wb')),
    },
}


def main(argv):
    if len(argv) < 3 or len(argv) % 3:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [argv[i:i + 3] for i in range(0, len(argv), 3)]
    total = sum(len(EXPECT[arch]) for arch, _, _ in runs)
    print('KTAP version 1')
    print(f'1..{total}')
    n = fails = 0
    for arch, objdump, obj in runs:
        funcs = functions(objdump, obj)
        cc = compiler(objdump, obj)
        for barrier, (what, check) in EXPECT[arch].items():
            n += 1
            insns = funcs.get(barrier)
            ok = insns is not None and check(insns)
            if not ok:
                fails += 1
                print(f'# {arch} {cc} {barrier}(): ' +
                      ('; '.join(insns) if insns else 'function not found'))
            print(f'{"ok" if ok else "not ok"} {n} {arch} {cc} {barrier}(): {what}')
    print(f'# Totals: pass:{n - fails} fail:{fails}')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
