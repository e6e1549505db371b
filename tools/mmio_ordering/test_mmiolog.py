#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of mmiolog.py, on the sample logs of testdata/, and of the command
lines of the host-side shell scripts (lib.sh). `make check-tools` runs them:

    python3 -m unittest discover -s tools/mmio_ordering -p 'test_*.py'
"""

import contextlib
import io
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# Keep the tools directory free of __pycache__: prepare copies it.
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import mmiolog  # noqa: E402

DATA = os.path.join(HERE, 'testdata')


def data(name):
    return os.path.join(DATA, name)


def read(name):
    with open(data(name)) as f:
        return f.read()


def run_main(*argv):
    """mmiolog.main(argv): (exit status, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = mmiolog.main(list(argv))
    return rc, out.getvalue()


def check_text(text, **kw):
    """check_doc() of every KTAP document of @text: (ok, problems)."""
    docs = mmiolog.ktap('-', mmiolog.text_lines(text))
    problems = []
    for d in docs:
        problems += mmiolog.check_doc(d, **kw).problems
    return bool(docs) and not problems, problems


class Lines(unittest.TestCase):
    def test_timestamps(self):
        (l,) = mmiolog.split_line(1, '[   10.866067] BUG: x\r\n')
        self.assertEqual((l.text, l.kernel), ('BUG: x', True))
        (l,) = mmiolog.split_line(1, '[    1.0][  T45] msg')
        self.assertEqual(l.text, 'msg')
        (l,) = mmiolog.split_line(1, 'no timestamp [here]')
        self.assertEqual((l.text, l.kernel), ('no timestamp [here]', False))

    def test_cut_guest_line(self):
        g, k = mmiolog.split_line(7, 'mmio-vm: running[    2.6]  x64_sys_call+0x70e/0x87d')
        self.assertEqual((g.text, g.kernel, g.lineno), ('mmio-vm: running', False, 7))
        self.assertEqual((k.text, k.kernel), (' x64_sys_call+0x70e/0x87d', True))

    def test_indent_kept(self):
        (l,) = mmiolog.split_line(1, '[    1.7]     ok 1 test')
        self.assertEqual(l.text, '    ok 1 test')


class Reports(unittest.TestCase):
    def setUp(self):
        self.reports = mmiolog.reports(data('console.log'))

    def test_titles(self):
        self.assertEqual([r.lineno for r in self.reports], [3, 31, 51, 67])
        r = self.reports[0]
        self.assertEqual((r.accessor, r.unlock, r.store_fn, r.unlock_fn),
                         ('writew_relaxed', 'spin_unlock', 'pl011_write', 'uart_write'))
        self.assertEqual((r.store_mod, r.unlock_mod), ('', ''))

    def test_full_report(self):
        r = self.reports[0]
        self.assertTrue(r.complete)
        self.assertEqual((r.addr, r.klass, r.kind, r.ctx, r.pid, r.comm, r.cpu, r.strategy),
                         ('0xffff800080729000', '2', 'relaxed', 'task', '1', 'init', '1', 'auto'))
        self.assertEqual([f.func for f in r.store_stack],
                         ['pl011_write', 'pl011_tx_char', 'uart_write', 'n_tty_write',
                          'file_tty_write.constprop.0'])
        self.assertEqual((r.store_stack[0].offset, r.store_stack[0].size), (0x40, 0x58))
        self.assertEqual((r.lock, r.lock_addr, r.acquired),
                         ('', '0xffff000000da4080', 'uart_port_lock_irqsave+0x18/0x30'))
        # The guest's "mmio-vm: running test script" cut the unlock stack.
        self.assertEqual([f.func for f in r.unlock_stack],
                         ['uart_write', 'n_tty_write', 'file_tty_write.constprop.0',
                          'el0t_64_sync'])
        self.assertTrue(r.fix.startswith('call io_to_lock_wb() after writew_relaxed()'))
        self.assertEqual(r.text[0], '=' * 66)
        self.assertEqual(r.text[-1], '=' * 66)
        self.assertNotIn('mmio-vm: running test script', r.text)
        # The modules and end marker that let CI parsers end the trace.
        self.assertEqual(r.text[-3:-1], ['Modules linked in: edu_demo [last unloaded: test_mmio_ordering]',
                                         '---[ end trace 0000000000000000 ]---'])

    def test_write_combining_guard(self):
        r = self.reports[1]
        self.assertTrue(r.complete)
        self.assertTrue(r.write_combining)
        self.assertEqual((r.klass, r.ctx, r.strategy), ('1', 'hardirq', 'explicit'))
        self.assertEqual((r.lock, r.acquired), ('ioapic_lock', 'ioapic_mask_entry+0x48/0x4f'))
        # Another message printed between two frames is not a frame; a bare
        # address is one.
        self.assertEqual([f.func for f in r.store_stack],
                         ['io_apic_write', 'ioapic_mask_entry', 'mp_irqdomain_activate',
                          '0xffffffffa000601a'])
        self.assertIsNone(r.store_stack[-1].size)
        self.assertNotIn('NIC Link is Up', '\n'.join(r.text))

    def test_short_and_malformed(self):
        short, bad = self.reports[2], self.reports[3]
        self.assertTrue(short.short and short.closed and not short.complete)
        self.assertEqual(short.store_fn, 'mutex_lock_interruptible_nested')
        self.assertTrue(bad.malformed and not bad.complete)
        self.assertEqual(bad.store_fn, '')

    def test_modules(self):
        (r,) = mmiolog.reports(data('demo.log'))
        self.assertTrue(r.complete)
        self.assertEqual((r.store_fn, r.store_mod, r.unlock_fn, r.unlock_mod),
                         ('edu_demo_buggy_store', 'mmio_ordering_edu',
                          'edu_demo_buggy_submit', 'mmio_ordering_edu'))
        self.assertEqual(r.store_stack[0].module, 'mmio_ordering_edu')
        self.assertEqual(r.lock, '&edu->lock')
        # A driver message between two frames of the store's stack.
        self.assertEqual(r.store_stack[1].func, 'edu_demo_buggy_submit')

    def test_no_timestamps(self):
        text = '\n'.join(line.text for line in mmiolog.lines(data('console.log'))
                         if line.kernel)
        got = mmiolog.reports('-', mmiolog.text_lines(text))
        self.assertEqual([(r.title, r.complete) for r in got],
                         [(r.title, r.complete) for r in self.reports])

    def test_cli(self):
        rc, out = run_main('reports', '--expect', '4', data('console.log'))
        self.assertEqual(rc, 0)
        self.assertIn('(without stacks)', out)
        self.assertIn('(title not understood)', out)
        rc, out = run_main('reports', '--expect', '0', data('console.log'))
        self.assertEqual(rc, 1)
        rc, out = run_main('reports', '--format', '{store_fn}\\t{complete}', data('demo.log'))
        self.assertEqual((rc, out), (0, 'edu_demo_buggy_store\tTrue\n'))
        rc, _ = run_main('reports', '--format', '{nonsense}', data('demo.log'))
        self.assertEqual(rc, 2)


class Interleaved(unittest.TestCase):
    """Another CPU prints in the middle of a report, blank lines included."""

    def setUp(self):
        log = mmiolog.lines(data('demo.log'))
        (r,) = mmiolog.reports('-', log)
        self.want = r
        self.report = [l.text for l in log if l.consumed]
        # The store's and the unlock's headers.
        self.hdr = self.first('__writel() to ')
        self.unlock = self.first('spin_unlock() of ')

    def first(self, prefix):
        return next(n for n, t in enumerate(self.report) if t.startswith(prefix))

    def interleave(self, caller, foreign):
        """The report printed by T45, with @foreign lines after some of its
        lines: {index in the report: [lines]}, each printed by @caller."""
        out = []
        for i, t in enumerate(self.report):
            out.append('[   10.9][   T45] ' + t)
            for f in foreign.get(i, []):
                out.append(f'[   10.9][{caller:>6}] ' + f)
        return mmiolog.reports('-', mmiolog.text_lines('\n'.join(out) + '\n'))

    def check(self, got):
        (r,) = got
        self.assertTrue(r.complete)
        self.assertEqual(r.store_stack, self.want.store_stack)
        self.assertEqual(r.unlock_stack, self.want.unlock_stack)
        self.assertEqual(r.text, self.report)

    def test_other_caller(self):
        i, hdr, unlock = self.report.index, self.hdr, self.unlock
        # A blank line (an ended pr_cont()), a rule, a frame and a store
        # header of another printer: before "Call Trace:", inside the two
        # stacks and before the end marker.
        noise = ['', '=' * 66, ' other_function+0x1/0x2', 'ACPI: ',
                 '__writel() to 0x1 (class 2, relaxed) by task 1 (x) on cpu 0, strategy auto:']
        self.check(self.interleave('C0', {hdr: noise, hdr + 2: noise, unlock: noise,
                                          i('Reported by MMIO ordering checker on:'): noise}))

    def test_no_caller_blank_line(self):
        hdr, unlock = self.hdr, self.unlock
        # Without caller ids, a blank line from elsewhere before "Call
        # Trace:" or before the first frame of a stack ends nothing.
        text = ''.join(f'{t}\n' + ('\nACPI: \n' if n in (hdr, hdr + 1, unlock) else '')
                       for n, t in enumerate(self.report))
        (r,) = mmiolog.reports('-', mmiolog.text_lines(text))
        self.assertTrue(r.complete)
        self.assertEqual(r.store_stack, self.want.store_stack)
        self.assertEqual(r.unlock_stack, self.want.unlock_stack)


class Splats(unittest.TestCase):
    def test_splats(self):
        got = [(s.lineno, s.reason) for s in mmiolog.splats(data('console.log'))]
        # Not the reports' titles and "Call Trace:", not the guest's echo.
        self.assertEqual(got, [(55, 'WARNING'), (56, 'WARNING'), (58, 'stack dump'),
                               (64, 'lockdep')])

    def test_clean(self):
        for name in ('demo.log', 'kunit.log', 'kselftest.log'):
            self.assertEqual(mmiolog.splats(data(name)), [], name)

    def test_kinds(self):
        for text, why in [('BUG: kernel NULL pointer dereference, address: 0', 'BUG'),
                          ('Oops: 0002 [#1] SMP', 'Oops'),
                          ('Kernel panic - not syncing: Fatal exception', 'panic'),
                          ('INFO: task kworker/0:1:12 blocked for more than 120 seconds.',
                           'hung task'),
                          ('rcu: INFO: rcu_sched self-detected stall on CPU', 'RCU stall'),
                          ('watchdog: BUG: soft lockup - CPU#0 stuck for 22s!', 'lockup'),
                          ('Call trace:', 'stack dump')]:
            got = mmiolog.splats('-', mmiolog.text_lines(f'[    1.000000] {text}\n'))
            self.assertEqual([s.reason for s in got], [why], text)
        self.assertEqual(mmiolog.splats('-', mmiolog.text_lines(
            '[    1.0] mmio_ordering: lock 0x1 taken at f+0x1/0x2 was released '
            'in another context or on another CPU: forgotten\n')), [])

    def test_cli(self):
        self.assertEqual(run_main('splats', data('console.log'))[0], 1)
        self.assertEqual(run_main('splats', data('demo.log'))[0], 0)


class Ktap(unittest.TestCase):
    def test_kunit(self):
        (doc,) = mmiolog.ktap(data('kunit.log'))
        self.assertEqual(doc.plan, 1)
        (suite,) = doc.tests
        self.assertEqual((suite.name, suite.ok, suite.sub.plan), ('mmio_ordering', True, 4))
        self.assertEqual([(t.number, t.name, t.directive) for t in suite.sub.tests],
                         [(1, 'test_relaxed_spin_lock', ''), (2, 'test_writel_relaxed', ''),
                          (3, 'test_write_combining', 'SKIP'), (4, 'test_burst_all_cpus', '')])
        v = mmiolog.check_doc(doc)
        self.assertEqual((v.ok, v.passed, v.failed, v.skipped), (True, 3, 0, 1))
        self.assertFalse(mmiolog.check_doc(doc, allow_skip=False).ok)

    def test_kselftest(self):
        (doc,) = mmiolog.ktap(data('kselftest.log'))
        self.assertEqual((doc.plan, len(doc.tests)), (3, 3))
        # "ok 3 ..." was cut by a kernel line.
        self.assertEqual(doc.tests[2].name, 'writel_relaxed() under spin_lock()')
        self.assertEqual(doc.totals['pass'], 3)
        self.assertTrue(mmiolog.check_doc(doc, allow_skip=False).ok)

    def test_failures(self):
        kunit, kself = read('kunit.log'), read('kselftest.log')
        for text, why in [
                (kunit.replace('    ok 2 test_writel', '    not ok 2 test_writel'),
                 'not ok 2 test_writel_relaxed'),
                (kunit.replace('    ok 4 test_burst_all_cpus\n', ''), '3 of the 4'),
                (kunit.replace('    1..4', '    1..5'), '4 of the 5'),
                (kunit.replace('] ok 1 mmio_ordering', '] not ok 1 mmio_ordering'),
                 'not ok 1 mmio_ordering'),
                (kunit.split('[    1.840000]')[0], '3 of the 4'),
                (kself.replace('1..3', '1..4'), '3 of the 4'),
                (kself.replace('ok 2 ', 'ok 5 '), 'numbered'),
                (kself.replace('pass:3 fail:0', 'pass:2 fail:1'), 'Totals'),
                (kself.replace('ok 1 run', 'Bail out! no module\nok 1 run'), 'bailed out'),
                (kself.replace('1..3\n', ''), 'no plan')]:
            ok, problems = check_text(text)
            self.assertFalse(ok, why)
            self.assertTrue(any(why in p for p in problems), (why, problems))

    def test_param_cases_without_plan(self):
        text = ('KTAP version 1\n1..1\n'
                '    KTAP version 1\n    # Subtest: mmio_ordering\n    1..1\n'
                '        KTAP version 1\n        # Subtest: test_lock_variant\n'
                '        ok 1 spin_lock\n        ok 2 spin_lock_bh\n'
                '    ok 1 test_lock_variant\nok 1 mmio_ordering\n')
        ok, problems = check_text(text)
        self.assertTrue(ok, problems)
        (doc,) = mmiolog.ktap('-', mmiolog.text_lines(text))
        self.assertEqual(mmiolog.check_doc(doc).passed, 2)
        bad = text.replace('ok 2 spin_lock_bh', 'not ok 2 spin_lock_bh')
        self.assertIn('KTAP: mmio_ordering: test_lock_variant: not ok 2 spin_lock_bh',
                      check_text(bad)[1])
        cut = text.split('    ok 1 test_lock_variant')[0]
        self.assertFalse(check_text(cut)[0])

    def test_skip_all(self):
        text = 'TAP version 13\n1..0 # SKIP must be run as root\n'
        self.assertTrue(check_text(text)[0])
        self.assertFalse(check_text(text, allow_skip=False)[0])

    def test_cli(self):
        rc, out = run_main('ktap', data('kunit.log'))
        self.assertEqual(rc, 0)
        self.assertIn('PASS: 4 test cases: 3 passed, 1 skipped, 0 failed '
                      '(plans: 1..1, mmio_ordering 1..4)', out)
        self.assertEqual(run_main('ktap', '--expect', '4', data('kunit.log'))[0], 0)
        self.assertEqual(run_main('ktap', '--expect', '5', data('kunit.log'))[0], 1)
        self.assertEqual(run_main('ktap', '--no-skip', data('kunit.log'))[0], 1)
        self.assertEqual(run_main('ktap', '--no-skip', data('kselftest.log'))[0], 0)
        self.assertEqual(run_main('ktap', data('console.log'))[0], 1)
        self.assertEqual(run_main('ktap', data('no-such.log'))[0], 2)


class Scripts(unittest.TestCase):
    """The host-side shell scripts' command lines, through lib.sh."""
    SCRIPTS = ['vm.sh', 'drivers-run.sh', 'series.sh', 'prepare-tree.sh',
               'check-demo.sh', 'busybox.sh', 'config-check.sh', 'check-exports.sh']

    def run_script(self, *argv):
        return subprocess.run([os.path.join(HERE, argv[0]), *argv[1:]],
                              capture_output=True, text=True, timeout=60)

    def test_help(self):
        for s in self.SCRIPTS:
            p = self.run_script(s, '-h')
            self.assertEqual(p.returncode, 0, s)
            self.assertTrue(p.stdout.startswith(f'Usage: {s} '), (s, p.stdout))

    def test_bad_option(self):
        for s in self.SCRIPTS:
            p = self.run_script(s, '-Z')
            self.assertEqual(p.returncode, 2, s)
            self.assertIn('unknown option -Z', p.stderr, s)
            self.assertIn(f'Usage: {s} ', p.stderr, s)

    def test_required(self):
        p = self.run_script('drivers-run.sh', '-k', 'bzImage')
        self.assertEqual(p.returncode, 2)
        self.assertIn('drivers: -g is required', p.stderr)

    def test_check_demo(self):
        p = self.run_script('check-demo.sh', data('demo.log'))
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn('check-demo: PASS', p.stdout)
        p = self.run_script('check-demo.sh', data('console.log'))
        self.assertEqual(p.returncode, 1)
        for why in ('0 reports of the buggy path', 'unexpected reports', 'the kernel broke'):
            self.assertIn(why, p.stdout)


if __name__ == '__main__':
    unittest.main()
