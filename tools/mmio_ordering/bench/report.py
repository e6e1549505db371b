#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Collect the MMIO ordering benchmark results (`make bench`).

Reads the results the kernel module printed in QEMU (production-like kernel
and checker kernel on x86_64, production-like kernels on the other
architectures), the userspace runs (1 and 2 threads), the callgrind
instruction counts and the vmlinux images for the size comparison; writes
one JSON file, an SVG chart and, with --md, the result tables of
docs/benchmarks.md, prints a table, and evaluates the benchmark's targets.
Every figure comes from those inputs.

It exits 1 when a figure is missing or inconsistent (a counted barrier
total that disagrees with the core's own counter): `make check-bench`
relies on that. Its smoke run (--smoke) runs the module in the test
kernels, which have the checker, and measures no sizes.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

STRATEGIES = ["none", "explicit", "auto", "auto-explicit", "mainline", "flag",
              "ordered", "unlock-io", "kernel"]
SCENARIOS = ["unrelated", "write1", "burst8", "cond1", "cond10", "cond100",
             "outside", "nested"]
KINDS = ["arch", "mb"]
LOCK_FUNCS = ["_raw_spin_lock", "_raw_spin_unlock", "_raw_spin_lock_irqsave",
              "_raw_spin_unlock_irqrestore", "_raw_spin_lock_irq",
              "_raw_spin_unlock_irq", "_raw_spin_lock_bh",
              "_raw_spin_unlock_bh", "_raw_spin_trylock",
              "mmio_ordering_unlock_wb"]

errors = []
# The module's sleeping-lock records ("sleep"), by run.
sleep_rows = {}


def err(msg):
    errors.append(msg)
    print("bench: ERROR: " + msg, file=sys.stderr)


def kv(line):
    return dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)


def parse_records(lines, where):
    """Parse meta/row/expect/stats records; rows keyed (strategy, kind, scenario)."""
    meta, rows, extra = {}, {}, {}
    ended = False
    for line in lines:
        line = line.strip()
        # The console may prefix a timestamp; records start at a keyword.
        if re.search(r"(^|\s)end$", line):
            ended = True
            continue
        m = re.search(r"\b(meta|row|sleep|expect|stats) (.*=.*)$", line)
        if not m:
            continue
        rec = m.group(1) + " " + m.group(2)
        if m.group(1) == "meta":
            meta = kv(rec)
        elif m.group(1) == "sleep":
            r = kv(rec)
            try:
                ops, reps = int(r["ops"]), int(r["reps"])
                barriers = int(r["barriers"])
                sleep_rows.setdefault(where, {})[(r["lock"], r["strategy"], r["scenario"])] = {
                    "median_ns": int(r["median_ps"]) / 1000.0,
                    "min_ns": int(r["min_ps"]) / 1000.0,
                    "max_ns": int(r["max_ps"]) / 1000.0,
                    "reps": reps, "ops_per_rep": ops,
                    "barriers_per_op": barriers / (ops * reps),
                }
                if barriers != int(r["expect_per_op"]) * ops * reps:
                    err("%s: %s %s/%s ran %d barriers, expected %d per section" % (
                        where, r["lock"], r["strategy"], r["scenario"], barriers,
                        int(r["expect_per_op"])))
            except (KeyError, ValueError) as e:
                err("%s: bad sleep record %r (%s)" % (where, rec, e))
        elif m.group(1) == "row":
            r = kv(rec)
            try:
                ops = int(r["count_ops"])
                rows[(r["strategy"], r["kind"], r["scenario"])] = {
                    "median_ns": int(r["median_ps"]) / 1000.0,
                    "min_ns": int(r["min_ps"]) / 1000.0,
                    "max_ns": int(r["max_ps"]) / 1000.0,
                    "reps": int(r["reps"]),
                    "ops_per_rep": int(r["ops"]),
                    "barriers_per_op": int(r["barriers"]) / ops,
                }
            except (KeyError, ValueError) as e:
                err("%s: bad row %r (%s)" % (where, rec, e))
        else:
            for k, v in kv(rec).items():
                extra[m.group(1) + "_" + k] = int(v)
    if not ended:
        err("%s: results incomplete (no end record)" % where)
    return meta, rows, extra


def parse_console(path, where):
    try:
        text = open(path, errors="replace").read()
    except OSError as e:
        err("%s: %s" % (where, e))
        return {}, {}, {}
    m = re.search(r"mmio-bench: results-begin\n(.*?)mmio-bench: results-end", text, re.S)
    if not m:
        err("%s: no results in %s" % (where, path))
        return {}, {}, {}
    meta, rows, extra = parse_records(m.group(1).splitlines(), where)
    for tag in ("before", "after"):
        s = re.search(r"mmio-bench: stats-%s auto_barriers: (\d+)" % tag, text)
        if s:
            extra["stats_" + tag] = int(s.group(1))
    if "stats_before" in extra and "stats_after" in extra:
        extra["stats_auto_barriers"] = extra["stats_after"] - extra["stats_before"]
    return meta, rows, extra


def check_barriers(extra, meta, where):
    """The barriers counted for the real slow path against the core's counter."""
    exp, seen = extra.get("expect_auto_barriers"), extra.get("stats_auto_barriers")
    if meta.get("core_counts") == "0":
        # The barrier is a compiler barrier and the checker is off: the
        # core keeps no count to check against.
        return {"counted": exp, "core_counter": None, "ok": None}
    if exp is None or seen is None:
        err("%s: barrier cross-check figures missing" % where)
        return None
    # Other kernel code may take the slow path too (a timer's writel()
    # under a lock); the benchmark's own barriers must all be there.
    ok = exp <= seen <= exp + max(1000, exp // 1000)
    if not ok:
        err("%s: auto barriers: counted %d, the core ran %d" % (where, exp, seen))
    return {"counted": exp, "core_counter": seen, "ok": ok}


def add_ratios(rows):
    for (s, k, sc), r in rows.items():
        floor = rows.get(("none", k, sc))
        r["ratio"] = r["median_ns"] / floor["median_ns"] if floor and floor["median_ns"] else None


def parse_callgrind(pattern):
    """Instructions per op from callgrind dumps named by the bench."""
    instr = {}
    for path in sorted(glob.glob(pattern)):
        text = open(path, errors="replace").read()
        m = re.search(r"^desc: Trigger: Client Request: (instr .*)$", text, re.M)
        t = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if not m or not t:
            continue
        r = kv(m.group(1))
        instr[(r["strategy"], r["kind"], r["scenario"])] = int(t.group(1)) / int(r["ops"])
    return instr


def lock_functions(path):
    """Sizes and instruction counts of the lock functions defined in @path."""
    syms, insns = {}, {}
    nm = subprocess.run(["nm", "-S", path], capture_output=True, text=True).stdout
    for l in nm.splitlines():
        f = l.split()
        if len(f) == 4 and f[3] in LOCK_FUNCS and f[2] in "tT":
            syms[f[3]] = int(f[1], 16)
    for fn in syms:
        d = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                            "--disassemble=" + fn, path],
                           capture_output=True, text=True).stdout
        insns[fn] = len(re.findall(r"^\s*[0-9a-f]+:\t", d, re.M))
    return ({fn: syms.get(fn) for fn in LOCK_FUNCS},
            {fn: insns.get(fn) for fn in LOCK_FUNCS})


def sizes(vmlinux, lockobj):
    """vmlinux sizes; lock functions from kernel/locking/spinlock.o (the
    core's slow path from vmlinux), where they are defined."""
    out = {}
    for name, path in vmlinux.items():
        if not os.path.exists(path):
            err("size: no %s vmlinux at %s" % (name, path))
            if os.path.exists(lockobj.get(name, "")):
                lf, li = lock_functions(lockobj[name])
                out[name] = {"text": None, "lock_functions": lf,
                             "lock_function_instructions": li}
            continue
        sa = subprocess.run(["size", "-A", path], capture_output=True, text=True).stdout
        text = sum(int(l.split()[1]) for l in sa.splitlines()
                   if re.match(r"^\.(text|noinstr\.text|entry\.text|init\.text|altinstr_replacement)\s", l))
        b = subprocess.run(["size", path], capture_output=True, text=True).stdout.splitlines()[-1].split()
        lf, li = lock_functions(path)
        if name in lockobj:
            if not os.path.exists(lockobj[name]):
                err("size: no %s object at %s" % (name, lockobj[name]))
            else:
                olf, oli = lock_functions(lockobj[name])
                for fn in LOCK_FUNCS:
                    if olf[fn] is not None:
                        lf[fn], li[fn] = olf[fn], oli[fn]
        # With -Os, spin_unlock() may be an out-of-line copy per file.
        nm = subprocess.run(["nm", "-S", path], capture_output=True, text=True).stdout
        copies = re.findall(r"^[0-9a-f]+ ([0-9a-f]+) t __raw_spin_unlock$", nm, re.M)
        # .text is padded to 2 MiB on x86: the code is the sum of the functions.
        code = sum(int(m_, 16) for m_ in re.findall(r"^[0-9a-f]+ ([0-9a-f]+) [tT] ", nm, re.M))
        secs = {m_.group(1): int(m_.group(2))
                for m_ in re.finditer(r"^(\.\S+)\s+(\d+)\s", sa, re.M)}
        out[name] = {"text": int(b[0]), "data": int(b[1]), "bss": int(b[2]),
                     "dec": int(b[3]), "text_sections": text,
                     "lock_functions": lf, "lock_function_instructions": li,
                     "function_bytes": code, "rodata": secs.get(".rodata"),
                     "raw_spin_unlock_copies": len(copies),
                     "raw_spin_unlock_copy_size": int(copies[0], 16) if copies else None}
    return out


def cpu_ghz():
    try:
        for l in open("/proc/cpuinfo"):
            if l.startswith("cpu MHz"):
                return float(l.split(":")[1]) / 1000.0
    except OSError:
        pass
    return None


def fmt(x, spec="%.2f"):
    return "-" if x is None else spec % x


def table(title, rows, kinds, instr=None, strategies=STRATEGIES):
    print()
    print(title)
    hdr = "%-14s %-4s %-9s %9s %9s %9s %7s %9s %8s" % (
        "strategy", "kind", "scenario", "median", "min", "max", "ratio",
        "barr/op", "instr/op")
    print(hdr)
    print("-" * len(hdr))
    for k in kinds:
        for sc in SCENARIOS:
            for s in strategies:
                r = rows.get((s, k, sc))
                if not r:
                    continue
                print("%-14s %-4s %-9s %9.2f %9.2f %9.2f %7s %9.3f %8s" % (
                    s, k, sc, r["median_ns"], r["min_ns"], r["max_ns"],
                    fmt(r.get("ratio"), "%.3f"), r["barriers_per_op"],
                    fmt((instr or {}).get((s, k, sc)), "%.1f")))
        print()


def evaluate_targets(rows, ghz, where):
    """The benchmark's targets, on one set of rows (kind arch)."""
    res = {"source": where}
    n, a = rows.get(("none", "arch", "unrelated")), rows.get(("auto", "arch", "unrelated"))
    if n and a:
        d = a["median_ns"] - n["median_ns"]
        res["unrelated"] = {
            "none_ns": n["median_ns"], "auto_ns": a["median_ns"], "added_ns": d,
            "added_pct": 100.0 * d / n["median_ns"],
            "added_cycles": d * ghz if ghz else None,
        }
        res["unrelated"]["met"] = (res["unrelated"]["added_pct"] <= 1.0 or
                                   (ghz is not None and d * ghz <= 1.0))
    for kind in KINDS:
        slower = {}
        for sc in SCENARIOS:
            a, m = rows.get(("auto", kind, sc)), rows.get(("mainline", kind, sc))
            if a and m:
                slower[sc] = 100.0 * (a["median_ns"] - m["median_ns"]) / m["median_ns"]
        sfx = "" if kind == "arch" else "_" + kind
        res["auto_vs_mainline_pct" + sfx] = slower
        # "Measurably no slower": within 2% (the run-to-run spread here).
        res["auto_vs_mainline_met" + sfx] = (all(v <= 2.0 for v in slower.values())
                                             if slower else None)
    b = {}
    for sc in SCENARIOS:
        g = {s: rows[(s, "arch", sc)]["barriers_per_op"] for s in STRATEGIES
             if (s, "arch", sc) in rows}
        b[sc] = g
    res["barriers"] = b
    res["auto_le_explicit"] = all(g["auto"] <= g["explicit"] + 1e-9 for g in b.values()
                                  if "auto" in g and "explicit" in g)
    over = {}
    for alt in ("ordered", "unlock-io"):
        for sc, g in b.items():
            if alt in g and "explicit" in g and g[alt] > g["explicit"] + 1e-9:
                over["%s/%s" % (alt, sc)] = g["auto"] < g[alt]
    res["auto_lt_overflushers"] = over
    res["auto_lt_overflushers_met"] = all(over.values()) if over else None
    return res


def chart(path, panels):
    """Grouped bars: ratio to the floor per scenario, one bar per strategy."""
    colors = {"none": "#999999", "explicit": "#1f77b4", "auto": "#d62728",
              "auto-explicit": "#ff9896", "mainline": "#2ca02c", "flag": "#9467bd",
              "ordered": "#8c564b", "unlock-io": "#e377c2", "kernel": "#7f7f7f",
              "checker": "#17becf"}
    W, PH, L, T = 980, 270, 60, 40
    H = T + len(panels) * (PH + 60) + 40
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14">MMIO ordering strategies: time per '
         'operation / no-tracking floor (median)</text>' % L]
    y0 = T
    for title, kind, rows, strategies in panels:
        vals = [rows[(s, k, sc)].get("ratio") or 0 for (s, k, sc) in rows
                if s in strategies]
        top = max([1.0] + vals) * 1.1
        gw = (W - L - 20) / len(SCENARIOS)
        bw = gw * 0.85 / len(strategies)
        o.append('<text x="%d" y="%d" font-size="12">%s</text>' % (L, y0 + 12, title))
        base = y0 + 20 + PH
        for i in range(5):
            v = top * i / 4
            y = base - PH * v / top
            o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, W - 20, y, y))
            o.append('<text x="%d" y="%.1f" text-anchor="end">%.2f</text>' % (L - 4, y + 4, v))
        y1 = base - PH / top
        o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="black" '
                 'stroke-dasharray="4,3"/>' % (L, W - 20, y1, y1))
        for j, sc in enumerate(SCENARIOS):
            gx = L + j * gw + gw * 0.075
            for i, s in enumerate(strategies):
                r = rows.get((s, kind, sc)) or {}
                v = r.get("ratio")
                if v is None:
                    continue
                h = PH * v / top
                o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s">'
                         '<title>%s %s: %.3f</title></rect>' % (
                             gx + i * bw, base - h, bw * 0.9, h, colors.get(s, "#000"), s, sc, v))
            o.append('<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>' % (
                L + j * gw + gw / 2, base + 14, sc))
        y0 = base + 40
    lx = L
    for s in colors:
        o.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>' % (lx, y0, colors[s]))
        o.append('<text x="%d" y="%d">%s</text>' % (lx + 13, y0 + 9, s))
        lx += 95
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def md_grid(title, rows, strategies, cell):
    """A Markdown table: scenarios down, strategies across, figures aligned."""
    lines = [["scenario"] + strategies]
    for sc in SCENARIOS:
        lines.append([sc] + [cell(rows.get((st, sc))) for st in strategies])
    w = [max(len(l[i]) for l in lines) for i in range(len(lines[0]))]
    o = ["#### " + title, ""]
    for i, l in enumerate(lines):
        cells = [v.ljust(n) if j == 0 or i == 0 else v.rjust(n)
                 for j, (v, n) in enumerate(zip(l, w))]
        o.append("| " + " | ".join(cells) + " |")
        if i == 0:
            o.append("|" + "|".join("-" * (n + 2) if j == 0 else "-" * (n + 1) + ":"
                                    for j, n in enumerate(w)) + "|")
    o.append("")
    return "\n".join(o)


def write_md(path, out):
    """The result tables of docs/benchmarks.md, from this run."""
    def idx(part, kind):
        return {(r["strategy"], r["scenario"]): r for r in part["rows"] if r["kind"] == kind}
    st = STRATEGIES[:-1]
    u1 = out["user"]["1"]
    parts = [
        md_grid("Native, 1 thread, barrier arch: median ns/op / ratio to none",
                 idx(u1, "arch"), st,
                 lambda r: "-" if not r else "%.2f/%.2f" % (r["median_ns"], r["ratio"])),
        md_grid("Native, 1 thread, barrier mb: ratio to none",
                 idx(u1, "mb"), st, lambda r: "-" if not r else "%.2f" % r["ratio"]),
        md_grid("Native, 2 threads, barrier arch: ratio to none",
                 idx(out["user"]["2"], "arch"), st,
                 lambda r: "-" if not r else "%.2f" % r["ratio"]),
        md_grid("Instructions per operation (callgrind), barrier arch",
                 idx(u1, "arch"), st,
                 lambda r: "-" if not r or "instructions_per_op" not in r
                 else "%.1f" % r["instructions_per_op"]),
        md_grid("Barriers per operation (counted)", idx(u1, "arch"), st,
                 lambda r: "-" if not r else "%g" % r["barriers_per_op"]),
        md_grid("Kernel module, QEMU TCG, barrier arch: ratio to none",
                 idx(out["kernel"], "arch"), STRATEGIES,
                 lambda r: "-" if not r else "%.2f" % r["ratio"]),
        md_grid("Checker kernel, QEMU TCG: ratio to none (auto is the checker on)",
                 idx(out["checker"], "arch"), ["none", "auto", "kernel"],
                 lambda r: "-" if not r else "%.1f" % r["ratio"]),
    ]
    for arch, part in sorted(out.get("kernel_arch", {}).items()):
        parts.append(md_grid("Kernel module, %s QEMU TCG, barrier arch: ratio to none"
                              " / barriers per op" % arch,
                              idx(part, "arch"), STRATEGIES,
                              lambda r: "-" if not r else "%.2f/%g" % (
                                  r["ratio"], r["barriers_per_op"])))
    with open(path, "w") as f:
        f.write("\n".join(parts))


# The strategies of the run with the tracking off (mmio_bench.strategies=0x1f).
OFF_STRATEGIES = ["none", "explicit", "auto", "auto-explicit", "mainline"]


def boot_switch(rows, where):
    """The tracking turned off at boot: its hooks against no hooks at all."""
    def pct(a, b):
        out = {}
        for sc in SCENARIOS:
            x, y = rows.get((a, "arch", sc)), rows.get((b, "arch", sc))
            if x and y and y["median_ns"]:
                out[sc] = 100.0 * (x["median_ns"] - y["median_ns"]) / y["median_ns"]
        return out
    # Only burst8's relaxed stores have the code call io_to_lock_wb().
    for sc in SCENARIOS:
        r = rows.get(("auto", "arch", sc))
        if r and r["barriers_per_op"] and sc != "burst8":
            err("%s: auto/%s ran barriers with the tracking off" % (where, sc))
    res = {"source": where, "off_vs_none_pct": pct("auto", "none"),
           "off_vs_mainline_pct": pct("auto", "mainline"),
           "explicit_pct": pct("auto-explicit", "explicit")}
    res["explicit_met"] = (all(v <= 10.0 for v in res["explicit_pct"].values())
                           if res["explicit_pct"] else None)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel-log", required=True)
    ap.add_argument("--checker-log", required=True)
    ap.add_argument("--arch-log", action="append", default=[],
                    help="ARCH=FILE: the module on another architecture")
    ap.add_argument("--off-log", action="append", default=[],
                    help="ARCH=FILE: the module on ARCH booted with "
                    "mmio_ordering.strategy=explicit (tracking off)")
    ap.add_argument("--user", action="append", default=[], help="THREADS=FILE")
    ap.add_argument("--callgrind", help="glob of callgrind dump files")
    ap.add_argument("--vmlinux", action="append", default=[], help="NAME=PATH")
    ap.add_argument("--lockobj", action="append", default=[],
                    help="NAME=PATH of kernel/locking/spinlock.o")
    ap.add_argument("--json", required=True)
    ap.add_argument("--svg", required=True)
    ap.add_argument("--md", help="write the result tables of docs/benchmarks.md here")
    ap.add_argument("--smoke", action="store_true",
                    help="the module ran in checker kernels only; no sizes")
    a = ap.parse_args()

    out = {"kernel": {}, "user": {}, "sizes": {}, "targets": {}}

    meta, rows, extra = parse_console(a.kernel_log, "kernel")
    add_ratios(rows)
    out["kernel"] = {"meta": meta, "barrier_check": check_barriers(extra, meta, "kernel"),
                     "rows": rows}
    cmeta, crows, cextra = parse_console(a.checker_log, "checker kernel")
    add_ratios(crows)
    if cmeta.get("checker") != "1":
        err("checker kernel: the module did not run in a checker kernel")
    out["checker"] = {"meta": cmeta, "barrier_check": check_barriers(cextra, cmeta, "checker kernel"),
                      "rows": crows}
    out["kernel_arch"] = {}
    for spec in a.arch_log:
        arch, path = spec.split("=", 1)
        where = "kernel %s" % arch
        ameta, arows, aextra = parse_console(path, where)
        add_ratios(arows)
        if ameta.get("checker") != "0" and not a.smoke:
            err("%s: the module did not run in a production-like kernel" % where)
        out["kernel_arch"][arch] = {"meta": ameta, "rows": arows,
                                    "barrier_check": check_barriers(aextra, ameta, where)}

    out["kernel_off"], out["boot_switch"] = {}, {}
    for spec in a.off_log:
        arch, path = spec.split("=", 1)
        where = "kernel %s off" % arch
        ometa, orows, oextra = parse_console(path, where)
        add_ratios(orows)
        if ometa.get("checker") != "0" or ometa.get("tracking") != "0":
            err("%s: the module did not run with the tracking off" % where)
        out["kernel_off"][arch] = {"meta": ometa, "rows": orows,
                                   "barrier_check": check_barriers(oextra, ometa, where)}
        out["boot_switch"][arch] = boot_switch(orows, where)

    instr = parse_callgrind(a.callgrind) if a.callgrind else {}
    for spec in a.user:
        th, path = spec.split("=", 1)
        try:
            lines = open(path).read().splitlines()
        except OSError as e:
            err("user %s threads: %s" % (th, e))
            continue
        umeta, urows, uextra = parse_records(lines, "user %s threads" % th)
        add_ratios(urows)
        if th == "1":
            for key, v in instr.items():
                if key in urows:
                    urows[key]["instructions_per_op"] = v
        out["user"][th] = {"meta": umeta,
                           "barrier_check": check_barriers(
                               {"expect_auto_barriers": uextra.get("expect_auto_barriers"),
                                "stats_auto_barriers": uextra.get("stats_auto_barriers")},
                               umeta, "user %s threads" % th),
                           "rows": urows}

    vm = dict(spec.split("=", 1) for spec in a.vmlinux)
    out["sizes"] = sizes(vm, dict(spec.split("=", 1) for spec in a.lockobj))

    # Hardware instruction counters: none in QEMU TCG; natively, ask perf.
    try:
        p = subprocess.run(["perf", "stat", "-x,", "-e", "instructions", "true"],
                           capture_output=True, text=True)
        perf = "supported" if re.search(r"^\d+,", p.stderr, re.M) else "not supported"
    except OSError:
        perf = "perf not installed"
    out["instructions_source"] = {
        "kernel": "none: QEMU TCG exposes no PMU",
        "user": "valgrind --tool=callgrind (deterministic); perf instructions: " + perf,
    }
    ghz = cpu_ghz()
    out["host_cpu_ghz"] = ghz
    if "1" in out["user"]:
        out["targets"]["native"] = evaluate_targets(out["user"]["1"]["rows"], ghz, "user 1 thread")
    if rows:
        out["targets"]["kernel"] = evaluate_targets(
            rows, None, "kernel module in QEMU TCG: emulated times%s, "
            "the time targets are judged on the native figures" %
            (" in a checker kernel (smoke run)" if a.smoke else ""))

    # Presence: every strategy, kind and scenario in every run.
    def need(rows, strategies, kinds, where, instr_needed=False):
        for s in strategies:
            for k in kinds:
                for sc in SCENARIOS:
                    r = rows.get((s, k, sc))
                    if not r:
                        err("%s: no figures for %s/%s/%s" % (where, s, k, sc))
                    elif r.get("ratio") is None:
                        err("%s: no ratio for %s/%s/%s" % (where, s, k, sc))
                    elif instr_needed and "instructions_per_op" not in r:
                        err("%s: no instruction count for %s/%s/%s" % (where, s, k, sc))
    need(rows, STRATEGIES[:-1], KINDS, "kernel")
    need(rows, ["kernel"], ["arch"], "kernel")
    need(crows, ["none", "auto"], ["arch"], "checker kernel")
    for arch, part in out["kernel_arch"].items():
        need(part["rows"], STRATEGIES, ["arch"], "kernel %s" % arch)
        need(part["rows"], STRATEGIES[:-1], ["mb"], "kernel %s" % arch)
    for arch, part in out["kernel_off"].items():
        need(part["rows"], OFF_STRATEGIES, ["arch"], "kernel %s off" % arch)
    for th in ("1", "2"):
        if th not in out["user"]:
            err("no userspace run with %s threads" % th)
        else:
            need(out["user"][th]["rows"], STRATEGIES[:-1], KINDS, "user %s threads" % th,
                 instr_needed=(th == "1"))
    for name in () if a.smoke else ("off", "on", "checker"):
        if name not in out["sizes"]:
            err("size: no figures for the %s kernel" % name)

    for where in (["kernel", "checker kernel"] + ["kernel %s" % a for a in out["kernel_arch"]] +
                  ["kernel %s off" % a for a in out["kernel_off"]]):
        for key in [("mutex", st, sc) for st in ("auto", "explicit", "none")
                    for sc in ("unlocked", "write1")]:
            if key not in sleep_rows.get(where, {}):
                err("%s: no figures for %s" % (where, "/".join(key)))
    out["sleeping_locks"] = {where: [dict(lock=l, strategy=st, scenario=sc, **r)
                                     for (l, st, sc), r in sorted(rows_.items())]
                             for where, rows_ in sleep_rows.items()}

    # JSON keys must be strings.
    def flat(rows):
        return [dict(strategy=s, kind=k, scenario=sc, **r) for (s, k, sc), r in sorted(rows.items())]
    arch_rows = {arch: part["rows"] for arch, part in out["kernel_arch"].items()}
    off_rows = {arch: part["rows"] for arch, part in out["kernel_off"].items()}
    for part in (out["kernel"], out["checker"], *out["user"].values(),
                 *out["kernel_arch"].values(), *out["kernel_off"].values()):
        part["rows"] = flat(part["rows"])
    out["errors"] = errors
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)

    # Table.
    if "1" in out["user"]:
        table("Userspace build, native, 1 thread (ns/op; instr/op from callgrind)",
              {(r["strategy"], r["kind"], r["scenario"]): r for r in out["user"]["1"]["rows"]},
              KINDS, instr)
    if "2" in out["user"]:
        table("Userspace build, native, 2 threads on 2 CPUs (ns/op, both threads pooled)",
              {(r["strategy"], r["kind"], r["scenario"]): r for r in out["user"]["2"]["rows"]},
              ["arch"])
    kname = "test kernel, checker on (smoke run)" if a.smoke else "production-like kernel"
    table("Kernel module, %s QEMU TCG, %s (ns/op)" % (meta.get("arch", "?"), kname),
          rows, KINDS)
    table("Kernel module, checker kernel (CONFIG_DEBUG_MMIO_ORDERING=y): auto = checker on",
          crows, ["arch"], strategies=["none", "auto", "kernel"])
    for arch, arows in arch_rows.items():
        table("Kernel module, %s QEMU TCG, %s (ns/op)" % (arch, kname),
              arows, ["arch"])
    for arch, orows in off_rows.items():
        table("Kernel module, %s QEMU TCG, booted with strategy=explicit: tracking off (ns/op)"
              % arch, orows, ["arch"], strategies=OFF_STRATEGIES)
    print()
    print("Sleeping locks: mutex_trylock() + [writel()] + mutex_unlock() of the kernel (ns/op)")
    print("%-26s %-9s %-9s %9s %9s %8s" % ("run", "strategy", "scenario", "median", "min", "barr/op"))
    for where, rows_ in sleep_rows.items():
        for (l, st, sc), r in sorted(rows_.items()):
            print("%-26s %-9s %-9s %9.2f %9.2f %8.3f" % (
                where, st, sc, r["median_ns"], r["min_ns"], r["barriers_per_op"]))
    print("Sizes: vmlinux (bytes), lock functions present out of line (bytes/instructions)")
    for name, s in out["sizes"].items():
        lf = " ".join("%s=%s/%s" % (fn.replace("_raw_spin_", ""), s["lock_functions"][fn] or "-",
                                    s["lock_function_instructions"][fn] or "-")
                      for fn in LOCK_FUNCS if s["lock_functions"][fn])
        print("  %-8s text=%s functions=%s rodata=%s  %s" % (
            name, s["text"], s.get("function_bytes"), s.get("rodata"), lf))
    for where, t in out["targets"].items():
        print("Targets (%s):" % t["source"])
        u = t.get("unrelated")
        if u:
            print("  auto on an unrelated pair: +%.3f ns (%.2f%%%s) vs none: %s" % (
                u["added_ns"], u["added_pct"],
                ", %.1f cycles" % u["added_cycles"] if u["added_cycles"] is not None else "",
                "met" if u["met"] else "MISSED"))
        print("  auto vs mainline (%%, + = slower): %s: %s" % (
            " ".join("%s=%+.1f" % kv for kv in t["auto_vs_mainline_pct"].items()),
            "met" if t["auto_vs_mainline_met"] else "MISSED"))
        if t.get("auto_vs_mainline_pct_mb"):
            print("  auto vs mainline, mb barrier (%%): %s: %s" % (
                " ".join("%s=%+.1f" % kv for kv in t["auto_vs_mainline_pct_mb"].items()),
                "met" if t["auto_vs_mainline_met_mb"] else "MISSED"))
        print("  auto barriers <= explicit everywhere: %s" % ("met" if t["auto_le_explicit"] else "MISSED"))
        print("  auto barriers < over-flushing alternatives (%s): %s" % (
            ", ".join(sorted(t["auto_lt_overflushers"])),
            "met" if t["auto_lt_overflushers_met"] else "MISSED"))
    for arch, t in out["boot_switch"].items():
        print("Boot switch (%s, tracking off):" % arch)
        print("  auto vs none, hooks patched out (%%): %s" % " ".join(
            "%s=%+.1f" % kv for kv in t["off_vs_none_pct"].items()))
        print("  auto vs mainline, the kernel without the feature (%%): %s" % " ".join(
            "%s=%+.1f" % kv for kv in t["off_vs_mainline_pct"].items()))
        print("  auto-explicit vs explicit, within 10%%: %s: %s" % (
            " ".join("%s=%+.1f" % kv for kv in t["explicit_pct"].items()),
            "met" if t["explicit_met"] else "MISSED"))

    if a.md:
        try:
            write_md(a.md, out)
        except (KeyError, TypeError) as e:
            err("no documentation tables: %r missing" % (e,))
    if not errors:
        chart(a.svg, [
            ("Native userspace, 1 thread, barrier kind arch (x86: compiler barrier)", "arch",
             {k: v for k, v in ((tuple((r["strategy"], r["kind"], r["scenario"])), r)
                                for r in out["user"]["1"]["rows"]) if k[1] == "arch"},
             STRATEGIES[:-1]),
            ("Native userspace, 1 thread, barrier kind mb (MFENCE: stand-in for a weakly ordered CPU)", "mb",
             {k: v for k, v in ((tuple((r["strategy"], r["kind"], r["scenario"])), r)
                                for r in out["user"]["1"]["rows"]) if k[1] == "mb"},
             STRATEGIES[:-1]),
            ("Kernel module in QEMU TCG (%s), barrier kind arch" % meta.get("arch", "?"), "arch",
             {k: v for k, v in rows.items() if k[1] == "arch"}, STRATEGIES),
        ])
    print()
    print("bench: results in %s, chart in %s" % (a.json, a.svg if not errors else "(not made)"))
    if errors:
        print("bench: %d error(s)" % len(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
