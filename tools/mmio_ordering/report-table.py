#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate MMIO-ORDERING reports per driver from QEMU console logs.

Usage: report-table.py [-e EXPECTED] [-b KBUILD_OUT] [-m MARKDOWN] RUN=LOG [RUN=LOG ...]

Each LOG is the console of one run (named RUN) of `make drivers`, with the
host's "host: ..." lines appended by drivers-run.sh; mmiolog.py reads its
reports and splats. The driver of a report
is where its store function lives: the module named by %ps, or for built-in
code the source file of the object that defines the function, found in the
kernel build's vmlinux.a (thin archive of every built-in object) with nm;
the function's size, printed in the stack, disambiguates static functions
of the same name.

Prints the number of reports per driver and run, then every distinct report;
with -m, also writes that table as Markdown, in the format of docs/drivers.md.
Exits 1 when any run shows one of:
  - a kernel BUG/WARNING/Oops/panic/lockdep splat/stack dump that is not an
    MMIO-ORDERING report;
  - a hang (vm.sh timed out) or a guest that did not power off cleanly;
  - an I/O check that failed, in the guest ("drivers: FAIL") or on the host
    ("host: FAIL"), or a guest that never said "drivers: all I/O verified";
  - fewer report titles on the console than the checker counted, pairs
    not printed (past the 1024 printed a boot), or violations of pairs
    not recorded (pair table full);
  - a report that no entry of EXPECTED allows, or an entry marked "must"
    that matched no report.

EXPECTED has one entry per line ('#' starts a comment):
  RUN NEED ACCESSOR STORE_FUNCTION UNLOCK_FUNCTION DRIVER REASON...
RUN, ACCESSOR, the functions and DRIVER are shell-style patterns (fnmatch);
NEED is "must" (the report has to appear) or "may"; REASON is free text and
required.
"""

import argparse
import collections
import fnmatch
import os
import re
import subprocess
import sys

# Keep the tools directory free of __pycache__: prepare copies it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmiolog  # noqa: E402


class Symbols:
    """Function name (+ size) -> source file, from KBUILD/vmlinux.a."""

    def __init__(self, kbuild):
        self.by_name = collections.defaultdict(list)
        self.note = None
        archive = os.path.join(kbuild, 'vmlinux.a') if kbuild else None
        if not archive or not os.path.exists(archive):
            self.note = 'no vmlinux.a: built-in functions shown as "vmlinux"'
            return
        try:
            out = subprocess.run(['nm', '-A', '-S', '--defined-only', archive],
                                 capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            self.note = f'nm failed ({e}): built-in functions shown as "vmlinux"'
            return
        top = os.path.abspath(kbuild) + '/'
        for line in out.splitlines():
            # vmlinux.a:path/file.o:0000000000000000 0000000000000123 t name
            where, _, rest = line.rpartition(':')
            f = rest.split()
            if len(f) != 4 or f[2] not in 'tTwW':
                continue
            obj = os.path.abspath(where.split(':')[-1])
            src = obj[:-2] + '.c' if obj.endswith('.o') else obj
            if src.startswith(top):
                src = src[len(top):]
            self.by_name[f[3]].append((src, int(f[1], 16)))

    def driver(self, frames):
        """Where the first of @frames (mmiolog.Frame) lives."""
        name, size, module = frames[0].func, frames[0].size, frames[0].module
        if module:
            return module
        cands = self.by_name.get(name)
        if not cands:
            return 'vmlinux'
        size = size or 0
        # kallsyms' size runs to the next symbol, so it includes the
        # alignment padding that nm's (the ELF size) does not.
        files = sorted({s for s, _ in cands})
        if len(files) > 1:
            files = sorted({s for s, z in cands if z == size}) or \
                sorted({s for s, z in cands if 0 <= size - z < 64}) or files
        # A static (inline) function copied into several objects: the copy
        # that ran is the one in the object of a caller.
        for caller in frames[1:]:
            if len(files) == 1:
                break
            near = set(files) & {s for s, _ in self.by_name.get(caller.func, [])}
            if near:
                files = sorted(near)
        return files[0] if len(files) == 1 else '|'.join(files)


def parse_log(path):
    """Return (reports, facts, problems) for one console log."""
    log = mmiolog.lines(path)
    reports = mmiolog.reports(path, log)
    problems = [f'kernel: [{s.reason}] {s.text}' for s in mmiolog.splats(path, log)]
    facts = {'stats': {}, 'ok': [], 'host_ok': [], 'verified': False,
             'done': False, 'vm_status': None}
    for line in log:
        l = line.text
        m = re.search(r'drivers: (ok|FAIL) (.*)', l)
        if m:
            if m.group(1) == 'ok':
                facts['ok'].append(m.group(2))
            else:
                problems.append(f'guest I/O: {m.group(2)}')
        m = re.search(r'drivers: stat (\w+): (\S+)', l)
        if m:
            facts['stats'][m.group(1)] = m.group(2)
        if 'drivers: all I/O verified' in l:
            facts['verified'] = True
        if 'mmio-vm: done rc=0' in l:
            facts['done'] = True
        if l.startswith('host: FAIL'):
            problems.append(l[len('host: '):])
        elif l.startswith('host: ok'):
            facts['host_ok'].append(l)
        m = re.search(r'\*\* (\d+) printk messages dropped \*\*', l)
        if m:
            facts['dropped'] = facts.get('dropped', 0) + int(m.group(1))
        m = re.match(r'host: vm.sh exit status (\d+)', l)
        if m:
            facts['vm_status'] = int(m.group(1))

    for r in reports:
        if not r.complete:
            why = 'printed without stacks' if r.short else 'truncated on the console'
            if facts.get('dropped'):
                why += f' ({facts["dropped"]} printk messages dropped)'
            problems.append(f'report "{r.store_fn} / {r.unlock_fn}": {why}')
    return reports, facts, problems


def check_facts(facts, nreports):
    problems = []
    st = facts['vm_status']
    if st is None:
        problems.append('no "host: vm.sh exit status" line: run incomplete')
    elif st == 124:
        problems.append('the VM timed out (hang)')
    elif st != 0:
        problems.append(f'vm.sh exit status {st}')
    if not facts['done']:
        problems.append('the guest did not reach the end of /init')
    if not facts['verified']:
        problems.append('the guest did not verify all its I/O '
                        '("drivers: all I/O verified" missing)')
    stats = facts['stats']
    if 'reports' not in stats:
        problems.append('no checker counters on the console')
    else:
        if nreports < int(stats['reports']):
            problems.append(f'{stats["reports"]} reports counted by the checker, '
                            f'only {nreports} on the console')
        if int(stats.get('pair_table_full', 0)):
            problems.append(f'{stats["pair_table_full"]} violations of pairs not '
                            f'recorded (pair table full)')
        if int(stats.get('pairs_not_printed', 0)):
            problems.append(f'{stats["pairs_not_printed"]} pairs not printed, past '
                            f'the printed limit (listed in debugfs only)')
    return problems


def load_expected(path):
    entries = []
    if not path:
        return entries
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            f6 = line.split(None, 6)
            if len(f6) < 7 or f6[1] not in ('must', 'may'):
                sys.exit(f'{path}:{n}: want RUN must|may ACCESSOR STORE_FN '
                         f'UNLOCK_FN DRIVER REASON')
            entries.append({'where': f'{os.path.basename(path)}:{n}', 'run': f6[0], 'need': f6[1],
                            'accessor': f6[2], 'storefn': f6[3],
                            'unlockfn': f6[4], 'driver': f6[5],
                            'reason': f6[6], 'hits': 0})
    return entries


def match(entries, run, r, driver):
    for e in entries:
        if (fnmatch.fnmatchcase(run, e['run']) and
                fnmatch.fnmatchcase(r.accessor, e['accessor']) and
                fnmatch.fnmatchcase(r.store_fn, e['storefn']) and
                fnmatch.fnmatchcase(r.unlock_fn, e['unlockfn']) and
                fnmatch.fnmatchcase(driver, e['driver'])):
            e['hits'] += 1
            return e
    return None


def write_markdown(path, table, names):
    """The table of reports per driver, as docs/drivers.md shows it."""
    rows = [['driver (store function)'] + names]
    rows += [[drv] + [str(table[drv][n]) for n in names] for drv in sorted(table)]
    rows.append(['total'] + [str(sum(t[n] for t in table.values())) for n in names])
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ['| ' + ' | '.join(c.ljust(w[i]) for i, c in enumerate(rows[0])) + ' |',
             '|' + '|'.join('-' * (w[i] + 2) if i == 0 else '-' * (w[i] + 1) + ':'
                            for i in range(len(w))) + '|']
    for r in rows[1:]:
        lines.append('| ' + ' | '.join(c.ljust(w[i]) if i == 0 else c.rjust(w[i])
                                       for i, c in enumerate(r)) + ' |')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-e', '--expected', help='expected reports file')
    ap.add_argument('-b', '--kbuild', help='kernel build directory (O=)')
    ap.add_argument('-m', '--markdown', metavar='FILE',
                    help='write the table of reports per driver here, as in docs/drivers.md')
    ap.add_argument('runs', nargs='+', metavar='RUN=LOG')
    a = ap.parse_args()

    syms = Symbols(a.kbuild)
    entries = load_expected(a.expected)
    runs = []
    for spec in a.runs:
        name, sep, path = spec.partition('=')
        if not sep or not os.path.isfile(path):
            sys.exit(f'report-table: want RUN=LOG, got {spec!r}')
        runs.append((name, path))

    table = collections.defaultdict(collections.Counter)   # driver -> run -> n
    detail = collections.OrderedDict()
    failures = []
    summary = []
    notes = []
    for name, path in runs:
        reports, facts, problems = parse_log(path)
        problems += check_facts(facts, len(reports))
        for r in reports:
            drv = syms.driver(r.store_stack or
                              [mmiolog.Frame(r.store_fn, 0, 0, r.store_mod)])
            udrv = syms.driver(r.unlock_stack or
                               [mmiolog.Frame(r.unlock_fn, 0, 0, r.unlock_mod)])
            table[drv][name] += 1
            e = match(entries, name, r, drv)
            key = (name, r.accessor, r.unlock, r.store_fn, r.unlock_fn)
            d = detail.setdefault(key, {'n': 0, 'drv': drv, 'udrv': udrv,
                                        'ctx': set(), 'lock': r.lock,
                                        'exp': e, 'strategy': r.strategy})
            d['n'] += 1
            d['ctx'].add(r.ctx or '?')
            if e is None:
                problems.append(f'unexpected report: {r.accessor}() before '
                                f'{r.unlock}() in {r.store_fn} / {r.unlock_fn} ({drv})')
        st = facts['stats']
        mode = f', mode {st["mode"]}' if 'mode' in st else ''
        if int(st.get('reports_without_stacks', 0)):
            notes.append(f'{name}: {st["reports_without_stacks"]} reports printed '
                         f'without stacks (every report buffer was waiting)')
        summary.append(f'{name}: {len(reports)} reports, strategy '
                       f'{st.get("strategy", "?")}{mode}, violations '
                       f'{st.get("violations", "?")}, suppressed duplicates '
                       f'{st.get("suppressed_duplicates", "?")}, stores tracked '
                       f'{st.get("stores_tracked", "?")}, I/O checks passed '
                       f'{len(facts["ok"])} guest + {len(facts["host_ok"])} host')
        failures += [f'{name}: {p}' for p in problems]

    for e in entries:
        if e['need'] == 'must' and not e['hits'] and \
                any(fnmatch.fnmatchcase(n, e['run']) for n, _ in runs):
            failures.append(f'{e["where"]}: expected report did not appear: '
                            f'{e["accessor"]}() in {e["storefn"]} / {e["unlockfn"]}')

    names = [n for n, _ in runs]
    w = max([len('driver (store function)')] + [len(d) for d in table])
    print('MMIO-ORDERING reports per driver:')
    print(f'  {"driver (store function)":<{w}}  ' + '  '.join(f'{n:>9}' for n in names))
    for drv in sorted(table):
        print(f'  {drv:<{w}}  ' + '  '.join(f'{table[drv][n]:>9}' for n in names))
    print(f'  {"total":<{w}}  ' +
          '  '.join(f'{sum(t[n] for t in table.values()):>9}' for n in names))
    if syms.note:
        print(f'  ({syms.note})')
    print()
    if a.markdown:
        write_markdown(a.markdown, table, names)
    for s in summary + notes:
        print(f'  {s}')
    if detail:
        print()
        print('Reports (run: accessor, unlock, store function / unlock function '
              '[driver], count, context, lock, expected entry):')
        for (name, acc, unlock, sfn, ufn), d in detail.items():
            exp = d['exp']['where'] if d['exp'] else 'UNEXPECTED'
            print(f'  {name}: {acc}() {unlock}() {sfn} [{d["drv"]}] / {ufn} '
                  f'[{d["udrv"]}] x{d["n"]} {",".join(sorted(d["ctx"]))}'
                  f'{" lock " + d["lock"] if d["lock"] else ""} -> {exp}')
    print()
    if failures:
        for f in failures:
            print(f'report-table: FAIL: {f}')
        print(f'report-table: FAIL ({len(failures)} problems)')
        return 1
    print('report-table: PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
