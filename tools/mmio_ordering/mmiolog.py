#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a kernel console log: MMIO-ORDERING reports, KTAP results, splats.

The one parser of the checker's report format (see
kernel/locking/mmio_ordering/report.c) and of the KTAP that KUnit and
kselftests print, for every host-side script and Makefile step. A log is
a console as vm.sh saves it (build/*.log), or a kunit.py test.log: kernel
lines may carry a "[    1.234567]" timestamp (and a "[T123]" caller id),
and the guest's own output may be cut by kernel lines, which then start
in the middle of a line.

Commands (exit status 0 when the check passes, 1 when not, 2 on misuse):

  reports [--format FMT] [--full] [--expect N] LOG...
      one line per report (FMT, a str.format() string over the fields of
      Report, default "{log}:{lineno}: {title}"), or each whole report with
      --full; with --expect, fail unless there are N reports in all
  splats LOG...
      every line that shows a kernel BUG, WARNING, Oops, panic, lockdep or
      RCU splat, hung task or stack dump other than the checker's own
      reports, with the reason; fail if there is one
  ktap [--expect N] [--no-skip] LOG...
      the KTAP results: each document's plan must be complete (every test
      point of 1..N ran, at every level), every test passed (or was
      skipped, unless --no-skip) and a "# Totals:" line, if any, agrees;
      with --expect, there must be N test cases in all (leaves)

Usable as a module: lines() (or text_lines()), then reports(), splats(),
ktap() and check_doc() on them.
"""

import argparse
import re
import sys
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional, Sequence

# --- lines ---------------------------------------------------------------

# printk's timestamp, and the caller id of CONFIG_PRINTK_CALLER.
TIMESTAMP = re.compile(r'\[\s*\d+\.\d+\](?:\[\s*([TC]\d+)\])? ?')


@dataclass
class Line:
    """One line of a log: the kernel's message or the guest's own text."""
    lineno: int
    text: str
    kernel: bool        # printed by the kernel with a timestamp
    caller: Optional[str] = None    # "T123" or "C1", with CONFIG_PRINTK_CALLER
    consumed: bool = False  # part of a checker report (set by reports())


def split_line(lineno: int, raw: str) -> Iterator[Line]:
    """The pieces of one log line.

    A kernel line printed while the guest was writing a line of its own
    follows the guest's text on the same line: "mmio-vm: running[  1.2]
    msg" is the guest's "mmio-vm: running" and the kernel's "msg".
    """
    raw = raw.rstrip('\r\n').replace('\r', '')
    m = TIMESTAMP.search(raw)
    if not m:
        yield Line(lineno, raw, False)
        return
    if m.start() > 0:
        yield Line(lineno, raw[:m.start()], False)
    yield Line(lineno, raw[m.end():], True, m.group(1))


def text_lines(text: str) -> List[Line]:
    """The lines of a log given as a string, split as split_line() does."""
    # Only "\n" ends a line, as for grep: a console holds other controls.
    raw_lines = text.split('\n')
    if raw_lines[-1] == '':
        raw_lines.pop()
    return [p for n, raw in enumerate(raw_lines, 1) for p in split_line(n, raw)]


def lines(path: str) -> List[Line]:
    """Every line of the log at @path, split as split_line() does."""
    with open(path, errors='replace') as f:
        return text_lines(f.read())


# --- reports -------------------------------------------------------------

TITLE_PREFIX = 'BUG: MMIO-ORDERING: '
TITLE = re.compile(r'^BUG: MMIO-ORDERING: (\S+)\(\) not ordered before (\S+)\(\) in '
                   r'(\S+?)(?: \[(\S+)\])? / (\S+?)(?: \[(\S+)\])?$')
# report.c's rules are 66 "="; lockdep's own are shorter.
RULE = re.compile(r'^={60,}$')
STORE_HDR = re.compile(r'^(\S+)\(\) to (0x[0-9a-f]+) \(class (\d), ([\w-]+)'
                       r'(, write-combining)?\) by (\w+) (-?\d+) \((.*)\) '
                       r'on cpu (\d+), strategy (\w+):$')
UNLOCK_HDR = re.compile(r'^(\S+)\(\) of lock (?:(\S+) \()?(0x[0-9a-f]+)\)? '
                        r'acquired (at|by a guard\(\) in) (.+):$')
FRAME = re.compile(r'^ (?:(\S+?)\+0x([0-9a-f]+)/0x([0-9a-f]+)|(0x[0-9a-f]+))'
                   r'(?: \[(\S+)\])?$')
CALL_TRACE = 'Call Trace:'
SHORT = 'Stacks not kept: '
FIX = 'Fix: '
REPORTED_BY = 'Reported by MMIO ordering checker on:'
# What dump_stack_print_info() prints after "Reported by", then the modules
# and the end marker, as a WARN() prints them.
MACHINE_INFO = re.compile(r'^(CPU: |Tainted: |Hardware name: |Workqueue: |'
                          r'Modules linked in:|---\[ end trace [0-9a-f]+ \]---$)')


@dataclass
class Frame:
    """One entry of a stack: " func+0xoff/0xsize [module]"."""
    func: str           # the symbol, or the bare address
    offset: Optional[int]
    size: Optional[int]
    module: Optional[str]


@dataclass
class Report:
    """One MMIO-ORDERING report as printed by report.c."""
    log: str
    lineno: int         # of the title
    title: str
    accessor: str = ''
    unlock: str = ''    # spin_unlock, spin_unlock_irqrestore, ...
    store_fn: str = ''
    store_mod: str = ''
    unlock_fn: str = ''
    unlock_mod: str = ''
    malformed: bool = False     # the title does not parse
    short: bool = False         # printed without stacks ("Stacks not kept")
    closed: bool = False        # its closing rule was seen
    # The store: "ACCESSOR() to ADDR (class N, KIND) by CTX PID (COMM) on
    # cpu CPU, strategy S:"
    addr: str = ''
    klass: str = ''
    kind: str = ''
    write_combining: bool = False
    ctx: str = ''
    pid: str = ''
    comm: str = ''
    cpu: str = ''
    strategy: str = ''
    # The unlock: "UNLOCK() of lock [NAME (]ADDR[)] acquired at|by a
    # guard() in WHERE:"
    lock: str = ''
    lock_addr: str = ''
    acquired: str = ''
    fix: str = ''
    store_stack: List[Frame] = field(default_factory=list)
    unlock_stack: List[Frame] = field(default_factory=list)
    text: List[str] = field(default_factory=list)   # the block, as logged
    linenos: List[int] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Both headers, both stacks and the closing rule are there."""
        return (not self.malformed and not self.short and self.closed and
                bool(self.addr) and bool(self.lock_addr) and
                bool(self.store_stack) and bool(self.unlock_stack))

    @property
    def store_frame(self) -> str:
        """The function that made the store: first frame, else the title's."""
        return self.store_stack[0].func if self.store_stack else self.store_fn

    def fields(self) -> dict:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__
             if k not in ('store_stack', 'unlock_stack', 'text', 'linenos')}
        d.update(complete=self.complete, store_frame=self.store_frame,
                 text='\n'.join(self.text))
        return d


def parse_frame(text: str) -> Optional[Frame]:
    m = FRAME.match(text)
    if not m:
        return None
    func, off, size, addr, mod = m.groups()
    if addr:
        return Frame(addr, None, None, mod)
    return Frame(func, int(off, 16), int(size, 16), mod)


def _same_caller(a: Line, b: Line) -> bool:
    """Whether @a and @b may come from one printer: unknown callers may."""
    return not (a.caller and b.caller and a.caller != b.caller)


def _reports(path: str, log: Sequence[Line]) -> Iterator[Report]:
    """The reports of @log; marks the lines they consist of (line.consumed).

    One task or CPU prints a report, while others may print lines of their
    own in its middle: with caller ids, only the title's caller's lines
    belong to the report. Without them, a foreign line is skipped when it
    is not the report's, and a foreign blank line ends no stack that has
    not begun.
    """
    cur: Optional[Report] = None
    title: Optional[Line] = None
    state = None
    pending_rule = None     # an opening rule not yet known to open a report

    def take(line: Line) -> None:
        cur.text.append(line.text)
        cur.linenos.append(line.lineno)
        line.consumed = True

    for line in log:
        line.consumed = False
        t = line.text
        if t.startswith(TITLE_PREFIX):
            if cur:
                yield cur
            cur = Report(path, line.lineno, t)
            title = line
            m = TITLE.match(t)
            if m:
                (cur.accessor, cur.unlock, cur.store_fn, cur.store_mod,
                 cur.unlock_fn, cur.unlock_mod) = (g or '' for g in m.groups())
            else:
                cur.malformed = True
            if pending_rule is not None and _same_caller(pending_rule, line):
                take(pending_rule)
            take(line)
            state = 'title'
            pending_rule = None
            continue
        if cur is None:
            if RULE.match(t):
                pending_rule = line
            elif pending_rule is not None and _same_caller(pending_rule, line):
                pending_rule = None
            continue
        # Another printer's line, or guest output in a timestamped log.
        if not _same_caller(title, line) or (title.kernel and not line.kernel):
            continue
        if RULE.match(t):
            take(line)
            cur.closed = True
            yield cur
            cur = None
            continue
        frame = parse_frame(t) if state in ('store', 'unlock') else None
        if frame:
            (cur.store_stack if state == 'store' else cur.unlock_stack).append(frame)
            take(line)
        elif t.strip() == '':
            if (state == 'store' and cur.store_stack) or \
               (state == 'unlock' and cur.unlock_stack):
                state = 'between'
                take(line)
            elif state not in ('store', 'unlock', 'trace'):
                take(line)
        elif t == CALL_TRACE and state == 'trace':
            state = 'store'
            take(line)
        elif state == 'title' and t.startswith(SHORT):
            cur.short = True
            take(line)
        elif state in ('title', 'between') and STORE_HDR.match(t):
            g = STORE_HDR.match(t).groups()
            (_, cur.addr, cur.klass, cur.kind, wc, cur.ctx, cur.pid, cur.comm,
             cur.cpu, cur.strategy) = g
            cur.write_combining = bool(wc)
            state = 'trace'
            take(line)
        elif state in ('between', 'store') and UNLOCK_HDR.match(t):
            g = UNLOCK_HDR.match(t).groups()
            _, name, cur.lock_addr, how, cur.acquired = g
            cur.lock = name or ''
            state = 'unlock'
            take(line)
        elif state in ('between', 'unlock') and t.startswith(FIX):
            cur.fix = t[len(FIX):]
            take(line)
        elif state in ('between', 'unlock') and t == REPORTED_BY:
            state = 'info'
            take(line)
        elif state == 'info' and MACHINE_INFO.match(t):
            take(line)
        # Anything else is another message printed meanwhile: not ours.
    if cur:
        yield cur


def reports(path: str, log: Optional[Sequence[Line]] = None) -> List[Report]:
    """The MMIO-ORDERING reports of the log at @path, in order."""
    return list(_reports(path, lines(path) if log is None else log))


# --- splats --------------------------------------------------------------

# (pattern on a kernel message, reason). Checked on every line that is not
# part of a checker report: the title and the "Call Trace:" of a report are
# not splats, the same text anywhere else is.
SPLATS = [(re.compile(p), why) for p, why in [
    (r'possible recursive locking detected', 'lockdep'),
    (r'possible circular locking dependency', 'lockdep'),
    (r'inconsistent lock state', 'lockdep'),
    (r'suspicious RCU usage', 'lockdep'),
    (r'^BUG: (?!MMIO-ORDERING: )', 'BUG'),
    (r'^kernel BUG at ', 'BUG'),
    (r'^WARNING: ', 'WARNING'),
    (r'^-+\[ cut here \]-+$', 'WARNING'),
    (r'^Oops', 'Oops'),
    (r'^Internal error: ', 'Oops'),
    (r'^Unable to handle kernel ', 'Oops'),
    (r'^general protection fault', 'Oops'),
    (r'^Kernel panic', 'panic'),
    (r'^UBSAN: ', 'UBSAN'),
    (r'^INFO: task .* blocked for more than', 'hung task'),
    (r'hung_task', 'hung task'),
    (r'self-detected stall|detected stalls on CPUs', 'RCU stall'),
    (r'^rcu: INFO: ', 'RCU stall'),
    (r'^watchdog: ', 'lockup'),
    (r'soft lockup', 'lockup'),
    (r'^INFO: ', 'INFO'),
    (r'^Call [Tt]race:$', 'stack dump'),
]]


@dataclass
class Splat:
    log: str
    lineno: int
    reason: str
    text: str

    def __str__(self) -> str:
        return f'{self.log}:{self.lineno}: [{self.reason}] {self.text}'


def splats(path: str, log: Optional[Sequence[Line]] = None) -> List[Splat]:
    """Lines of the log at @path that show a splat other than our reports."""
    log = lines(path) if log is None else log
    for _ in _reports(path, log):
        pass
    # Where the kernel's lines are timestamped, the rest is the guest's.
    kernel_only = any(line.kernel for line in log)
    out = []
    for line in log:
        if line.consumed or (kernel_only and not line.kernel):
            continue
        t = line.text.strip() if line.kernel else line.text
        for pat, why in SPLATS:
            if pat.search(t):
                out.append(Splat(path, line.lineno, why, t))
                break
    return out


# --- KTAP ----------------------------------------------------------------

VERSION = re.compile(r'^(\s*)(?:KTAP|TAP) version (\d+)\s*$')
PLAN = re.compile(r'^(\s*)1\.\.(\d+)\s*(?:#\s*(.*?))?\s*$')
RESULT = re.compile(r'^(\s*)(ok|not ok) (\d+)\b(?: -)? ?(.*?)\s*$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*?)\s*$')
# kselftest: "pass:P fail:F xfail:X xpass:Y skip:S error:E"; KUnit: "pass:P
# fail:F skip:S total:T".
TOTALS = re.compile(r'^# Totals: ((?:\w+:\d+\s*)+)$')
BAIL = re.compile(r'^\s*Bail out!\s*(.*)$')


@dataclass
class Test:
    """A test point, "ok N name # DIRECTIVE reason", and its subtests."""
    number: int
    name: str
    ok: bool
    directive: str = ''     # SKIP, TODO, XFAIL, ...
    reason: str = ''
    lineno: int = 0
    sub: Optional['Doc'] = None
    unfinished: bool = False    # its subtests began, the log ends before it

    @property
    def skipped(self) -> bool:
        return self.directive == 'SKIP'


@dataclass
class Doc:
    """A KTAP document or a subtest's: its plan and its test points."""
    lineno: int
    name: str = ''
    plan: Optional[int] = None
    plan_skip: str = ''         # "1..0 # SKIP reason"
    tests: List[Test] = field(default_factory=list)
    totals: Optional[dict] = None     # of "# Totals:", for the whole document
    bail: Optional[str] = None

    def leaves(self) -> Iterator[Test]:
        for t in self.tests:
            if t.sub and t.sub.tests:
                yield from t.sub.leaves()
            else:
                yield t


def _split_result(rest: str) -> tuple:
    """"name # DIRECTIVE reason" -> (name, DIRECTIVE, reason)."""
    name, sep, directive = rest.partition('#')
    if not sep:
        return rest.strip(), '', ''
    word, _, reason = directive.strip().partition(' ')
    return name.strip(), word.upper(), reason.strip()


def ktap(path: str, log: Optional[Sequence[Line]] = None) -> List[Doc]:
    """Every top-level KTAP document of the log at @path."""
    log = lines(path) if log is None else log
    docs: List[Doc] = []
    # stack[d] is the open document at nesting level d; a subtest document
    # waits there until its parent's test point arrives.
    stack: List[Doc] = []
    indent: List[int] = []

    def level(ws: str) -> Optional[int]:
        """Nesting level of @ws, opening a level one deeper if needed."""
        n = len(ws.expandtabs(8))
        if not stack:
            return None
        for d, i in enumerate(indent):
            if i == n:
                return d
        if n > indent[-1]:
            return len(indent)
        return None

    for line in log:
        t = line.text
        m = VERSION.match(t)
        if m:
            n = len(m.group(1).expandtabs(8))
            if n == 0 or not stack:
                doc = Doc(line.lineno)
                docs.append(doc)
                stack[:] = [doc]
                indent[:] = [n]
            else:
                d = level(m.group(1))
                if d is None:
                    continue
                del stack[d:], indent[d:]
                stack.append(Doc(line.lineno))
                indent.append(n)
            continue
        if not stack:
            continue
        m = BAIL.match(t)
        if m:
            stack[-1].bail = m.group(1) or 'Bail out!'
            continue
        m = TOTALS.match(t.strip())
        if m:
            stack[0].totals = {k: int(v) for k, v in
                               (kv.split(':') for kv in m.group(1).split())}
            continue
        for pat in (SUBTEST, PLAN, RESULT):
            m = pat.match(t)
            if m:
                break
        else:
            continue
        d = level(m.group(1))
        if d is None:
            continue
        if d == len(stack):
            # A subtest without its own version line.
            stack.append(Doc(line.lineno))
            indent.append(len(m.group(1).expandtabs(8)))
        doc = stack[d]
        if pat is SUBTEST:
            doc.name = m.group(2)
        elif pat is PLAN:
            doc.plan = int(m.group(2))
            if m.group(3) and m.group(3).upper().startswith('SKIP'):
                doc.plan_skip = m.group(3)[4:].strip() or 'skipped'
        else:
            name, directive, reason = _split_result(m.group(4))
            test = Test(int(m.group(3)), name, m.group(2) == 'ok', directive,
                        reason, line.lineno)
            # The subtest document one level down belongs to this point.
            if d + 1 < len(stack):
                test.sub = stack[d + 1]
                if not test.sub.name:
                    test.sub.name = name
                del stack[d + 1:], indent[d + 1:]
            doc.tests.append(test)
    # Subtests whose parent's result never came: the log was cut.
    while len(stack) > 1:
        sub = stack.pop()
        parent = stack[-1]
        parent.tests.append(Test(len(parent.tests) + 1, sub.name, False,
                                 lineno=sub.lineno, sub=sub, unfinished=True))
    return docs


@dataclass
class Verdict:
    ok: bool
    passed: int
    failed: int
    skipped: int
    problems: List[str]


def check_doc(doc: Doc, allow_skip: bool = True, where: str = '') -> Verdict:
    """Is @doc complete and passed, at every level?"""
    problems: List[str] = []
    name = where + (doc.name or 'KTAP')
    passed = failed = skipped = 0

    if doc.bail is not None:
        problems.append(f'{name}: bailed out: {doc.bail}')
    # KUnit prints no plan for the cases of a parameterised test (KTAP
    # makes it optional in subtests): the parent's result line closes it.
    if doc.plan is None:
        if not where:
            problems.append(f'{name}: no plan line (1..N)')
    elif doc.plan_skip:
        if not allow_skip:
            problems.append(f'{name}: skipped: {doc.plan_skip}')
    elif len(doc.tests) != doc.plan:
        problems.append(f'{name}: {len(doc.tests)} of the {doc.plan} test points '
                        f'of the plan ran')
    numbers = [t.number for t in doc.tests]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f'{name}: test points numbered {numbers}, '
                        f'expected 1..{len(numbers)}')
    for t in doc.tests:
        if t.sub is not None and (t.sub.tests or t.sub.plan is not None):
            v = check_doc(t.sub, allow_skip, name + ': ')
            problems += v.problems
            passed += v.passed
            failed += v.failed
            skipped += v.skipped
            if t.unfinished:
                problems.append(f'{name}: {t.name}: no result, the log ends first')
            elif not t.ok and not t.skipped and v.ok:
                problems.append(f'{name}: not ok {t.number} {t.name}')
            continue
        if t.skipped:
            skipped += 1
            if not allow_skip:
                problems.append(f'{name}: skipped: {t.number} {t.name}'
                                f'{" (" + t.reason + ")" if t.reason else ""}')
        elif t.ok and t.directive not in ('TODO', 'XFAIL'):
            passed += 1
        elif not t.ok and t.directive in ('TODO', 'XFAIL'):
            passed += 1
        else:
            failed += 1
            problems.append(f'{name}: not ok {t.number} {t.name}')
    if doc.totals is not None:
        tot = doc.totals
        said = (tot.get('pass', 0) + tot.get('xfail', 0),
                tot.get('fail', 0) + tot.get('xpass', 0) + tot.get('error', 0),
                tot.get('skip', 0))
        total = tot.get('total', sum(said))
        if said != (passed, failed, skipped) or total != sum(said):
            text = ' '.join(f'{k}:{v}' for k, v in tot.items())
            problems.append(f'{name}: "# Totals: {text}" but {passed} passed, '
                            f'{failed} failed, {skipped} skipped')
    return Verdict(not problems, passed, failed, skipped, problems)


# --- command line ---------------------------------------------------------

def cmd_reports(a) -> int:
    n = 0
    for path in a.logs:
        for r in reports(path):
            n += 1
            if a.full:
                print(f'{path}:{r.lineno}:')
                print('\n'.join(r.text))
            elif a.format:
                print(a.format.replace('\\t', '\t').format(**r.fields()))
            else:
                note = ('' if r.complete else
                        ' (title not understood)' if r.malformed else
                        ' (without stacks)' if r.short else ' (incomplete)')
                print(f'{path}:{r.lineno}: {r.title}{note}')
    if a.expect is not None:
        print(f'reports: {" ".join(a.logs)}: {n} reports, expected {a.expect}: '
              f'{"PASS" if n == a.expect else "FAIL"}')
        return int(n != a.expect)
    return 0


def cmd_splats(a) -> int:
    rc = 0
    for path in a.logs:
        found = splats(path)
        if found:
            rc = 1
            print(f'splats: {path}: {len(found)} lines of kernel splats '
                  f'besides MMIO-ORDERING reports:')
            for s in found[:a.max]:
                print(f'  {s.lineno}: [{s.reason}] {s.text}')
            if len(found) > a.max:
                print(f'  ... {len(found) - a.max} more')
        else:
            print(f'splats: {path}: no splat besides MMIO-ORDERING reports')
    return rc


def plans(doc: Doc, name: str = '') -> Iterator[str]:
    """"NAME 1..N" of @doc and of every subtest document in it."""
    if doc.plan is not None:
        yield f'{name + " " if name else ""}1..{doc.plan}'
    for t in doc.tests:
        if t.sub is not None:
            yield from plans(t.sub, t.sub.name or t.name)


def cmd_ktap(a) -> int:
    rc = 0
    for path in a.logs:
        docs = ktap(path)
        problems: List[str] = []
        cases = passed = failed = skipped = 0
        if not docs:
            problems.append('no KTAP output')
        for doc in docs:
            v = check_doc(doc, allow_skip=not a.no_skip)
            problems += v.problems
            passed += v.passed
            failed += v.failed
            skipped += v.skipped
            cases += sum(1 for _ in doc.leaves())
        if a.expect is not None and cases != a.expect:
            problems.append(f'{cases} test cases, expected {a.expect}')
        summary = (f'{cases} test cases: {passed} passed, {skipped} skipped, '
                   f'{failed} failed (plans: '
                   f'{", ".join(p for d in docs for p in plans(d)) or "none"})')
        for p in problems:
            print(f'ktap: {path}: {p}')
        print(f'ktap: {path}: {"FAIL" if problems else "PASS"}: {summary}')
        rc |= bool(problems)
    return rc


def main(argv: Optional[Iterable[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog='mmiolog.py', description=__doc__.split('\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='\n'.join(__doc__.split('\n')[2:]))
    sub = ap.add_subparsers(dest='cmd', required=True, metavar='COMMAND')

    p = sub.add_parser('reports', help='the MMIO-ORDERING reports')
    p.add_argument('--format', help='one line per report, str.format() over '
                   'the Report fields ("\\t" is a tab)')
    p.add_argument('--full', action='store_true', help='print whole reports')
    p.add_argument('--expect', type=int, metavar='N',
                   help='fail unless there are N reports')
    p.add_argument('logs', nargs='+', metavar='LOG')
    p.set_defaults(fn=cmd_reports)

    p = sub.add_parser('splats', help='kernel splats other than reports')
    p.add_argument('--max', type=int, default=20,
                   help='lines shown per log (default 20)')
    p.add_argument('logs', nargs='+', metavar='LOG')
    p.set_defaults(fn=cmd_splats)

    p = sub.add_parser('ktap', help='check KTAP results')
    p.add_argument('--expect', type=int, metavar='N',
                   help='fail unless N test cases ran')
    p.add_argument('--no-skip', action='store_true',
                   help='a skipped test is a failure')
    p.add_argument('logs', nargs='+', metavar='LOG')
    p.set_defaults(fn=cmd_ktap)

    a = ap.parse_args(argv)
    try:
        return a.fn(a)
    except OSError as e:
        print(f'mmiolog: {e}', file=sys.stderr)
        return 2
    except (KeyError, ValueError, IndexError) as e:
        print(f'mmiolog: bad --format: {e}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
