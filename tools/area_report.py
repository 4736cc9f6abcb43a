#!/usr/bin/env python3
"""Synthesise Weft's static region and hardware threads with Yosys and report their area.

Runs `yosys` on the static-region sources (kept hierarchical), reads the `stat -json`
result and sums each module's cells including its submodules. Writes area.json and
area.md into the output directory with LUTs, FFs, LUTRAM, block RAMs and DSPs for:
one slot's OS interface (weft_slot_if), the memory master with its arbiter
(weft_memif_master) and the whole weft_static.

With --block NAME=SOURCE[,SOURCE...][:TOP[:PARAM=VALUE...]] (repeatable) it synthesises
a block of Weft's own that is not (yet) part of the static region, as a thread is below.
With --thread NAME=SOURCE[,SOURCE...][:TOP[:PARAM=VALUE...]] (repeatable) it also
synthesises each hardware thread image NAME (top module TOP, NAME unless given, with
those parameters, from its SOURCEs and the --hwlib sources, flattened as one reconfigurable module would be),
in a run of its own, and reports it by the image's name; a SOURCE that does not exist is reported as missing,
not as an error. With --json PATH it writes the benchmark record (issue 4, item 8):
every figure above per module, plus the seed's figure where one exists (ReconOS: 1,147
slices per OS interface). The Yosys runs go --jobs at a time.

LUT counts: LUT1..LUT6 as mapped. Yosys puts an INV cell in front of each flip-flop's
reset (the RTL's active-low reset); Vivado folds those into the flip-flop
(IS_CLR_INVERTED, IS_R_INVERTED), so they are listed separately and not counted as LUTs.
A RAM32M or RAM64M (distributed RAM, used by the FIFOs) occupies 4 LUTs of a SLICEM; the
"LUTs total" column adds them.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys

import synth_flow

FF_TYPES = {"FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1", "LDCE", "LDPE"}
LUT_TYPES = {"LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"}
LUTRAM_LUTS = {"RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4,
               "RAM32X1S": 1, "RAM64X1S": 1, "RAM256X1S": 4, "RAM32M16": 8, "RAM64M8": 8}
BRAM_TYPES = {"RAMB18E1": 0.5, "RAMB36E1": 1.0}
DSP_TYPES = {"DSP48E1"}
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The static region's blocks the report names (tools/synth_flow.py), then the whole.
REPORTED = [(name, what) for name, what, _ in synth_flow.STATIC_BLOCKS] + \
    [("weft_static", "whole static region")]

# The seed papers' area figures, by the Weft module they are set against.
SEED = {
    "weft_sched": {
        "system": "hthreads (Peck et al.), scheduler",
        "figure": 2425,
        "unit": "LUT4",
        "what": "the hardware scheduler for 256 threads and 128 priorities (973 flip-flops and "
                "3 block RAMs beside)",
        "device": "Virtex-II Pro",
        "note": "4-input LUTs, where a 7-series LUT has 6 inputs: LUT counts do not compare "
                "one for one; flip-flops and block RAMs do",
    },
    "weft_slot_if": {
        "system": "ReconOS (Luebbers and Platzner), prototypes section",
        "figure": 1147,
        "unit": "slices",
        "what": "one OS interface, including its PLB memory-bus master (about two thirds of "
                "it), the command decoder (267 slices) and the DCR bus interface (56 slices)",
        "device": "Virtex-II Pro XC2VP30 / Virtex-4 XC4VSX35, Xilinx ISE 9.1",
        "note": "slices, not LUTs: a Virtex-II Pro or Virtex-4 slice holds two 4-input LUTs "
                "and two flip-flops, a 7-series slice four 6-input LUTs and eight flip-flops, "
                "so the figures are not directly comparable. Weft's memory master is shared "
                "by all slots (weft_memif_master) and not part of weft_slot_if, while "
                "ReconOS's figure includes each OS interface's own bus master.",
    },
}


def base_name(mod):
    """'$paramod$hash\\weft_fifo' or '$paramod\\weft_x\\P=..' -> 'weft_fifo' / 'weft_x'."""
    m = re.match(r"^\$paramod(?:\$[0-9a-f]+)?\\([^\\]+)", mod)
    return m.group(1) if m else mod


def flat_cells(mods, name, memo):
    if name in memo:
        return memo[name]
    total = {}
    for ctype, n in mods[name].get("num_cells_by_type", {}).items():
        ctype = ctype.lstrip("\\")
        if ctype in mods:
            for t, k in flat_cells(mods, ctype, memo).items():
                total[t] = total.get(t, 0) + k * n
        else:
            total[ctype] = total.get(ctype, 0) + n
    memo[name] = total
    return total


def summarise(cells):
    luts = sum(n for t, n in cells.items() if t in LUT_TYPES)
    lutram = sum(n * LUTRAM_LUTS[t] for t, n in cells.items() if t in LUTRAM_LUTS)
    return {
        "luts": luts,
        "lutram_luts": lutram,
        "luts_total": luts + lutram,
        "ffs": sum(n for t, n in cells.items() if t in FF_TYPES),
        "brams": sum(n * BRAM_TYPES[t] for t, n in cells.items() if t in BRAM_TYPES),
        "ramb18": cells.get("RAMB18E1", 0),
        "ramb36": cells.get("RAMB36E1", 0),
        "dsps": sum(n for t, n in cells.items() if t in DSP_TYPES),
        "carry4": cells.get("CARRY4", 0),
        "reset_inverters": cells.get("INV", 0),
        "cells": dict(sorted(cells.items())),
    }


def synthesise(yosys, script, workdir, sources, top, params=None, includes=(), flatten=False,
               board=False):
    """One Yosys run in `workdir` (the sources copied there first: tools/synth_flow.py);
    returns the modules of its `stat -json`, or raises. With board, the top is built as a
    board builds it, flattened and without its simulation hints (synth_flow.board_wrapper),
    under the name weft_board_top."""
    workdir = os.path.abspath(workdir)
    names = synth_flow.stage(workdir, sources, includes)
    shutil.copyfile(script, os.path.join(workdir, "area.ys"))
    cmd = synth_flow.yosys_command(yosys)
    if not cmd:
        raise RuntimeError("no Yosys: scripts/setup.sh installs it")
    if board:
        port_list = synth_flow.ports(cmd, workdir, names, top, params)
        with open(os.path.join(workdir, "weft_board_top.sv"), "w") as f:
            f.write(synth_flow.board_wrapper(top, params, port_list))
        names, top, params, flatten = names + ["weft_board_top.sv"], "weft_board_top", None, True
    with open(os.path.join(workdir, "run.ys"), "w") as f:
        f.write(f"{synth_flow.reads(names)}\n"
                f"hierarchy -check -top {top}{synth_flow.chparams(params)}\n"
                f"{'proc; flatten' if flatten else ''}\nscript area.ys\n")
    synth_flow.run(cmd + ["-q", "run.ys"], workdir, os.path.join(workdir, "yosys.log"),
                   what=f"yosys failed on {top}")
    # Yosys 0.23 wrote the hierarchy listing of `stat -json` as plain text into the JSON;
    # keep only JSON lines (harmless with the current version).
    with open(os.path.join(workdir, "area_stat.json")) as f:
        text = "".join(l for l in f if l.strip()[:1] in ('"', "{", "}", "[", "]", ""))
    # Module names carry a leading backslash; instantiated cell types do not.
    return {k.lstrip("\\"): v for k, v in json.loads(text)["modules"].items()}


def module_entry(mods, want, memo):
    found = [m for m in mods if base_name(m) == want]
    if not found:
        raise RuntimeError(f"module {want} not in the synthesised design")
    return summarise(flat_cells(mods, found[0], memo))


def static_report(mods, params):
    memo = {}
    report = {"tool": "Yosys synth_xilinx (7-series cells)", "parameters": params, "modules": {}}
    for want, what in REPORTED:
        entry = module_entry(mods, want, memo)
        entry["description"] = what
        report["modules"][want] = entry
    return report


def write_static_md(report, params, out):
    lines = [
        f"# Weft static region area (Yosys synth_xilinx, {params.get('NumSlots', 'default')} slots, "
        f"{params.get('NumLinks', 0)} links)",
        "",
        "| part | LUTs (logic) | LUTs as RAM | LUTs total | FFs | BRAM36 | CARRY4 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for want, e in report["modules"].items():
        lines.append(f"| `{want}`: {e['description']} | {e['luts']} | {e['lutram_luts']} | "
                     f"{e['luts_total']} | {e['ffs']} | {e['brams']:g} | {e['carry4']} |")
    lines += [
        "",
        "LUTs as RAM: distributed RAM of the FIFOs (RAM32M/RAM64M, 4 LUTs each).",
        "Not counted: one INV per flip-flop with asynchronous clear, which Yosys maps",
        "separately and Vivado folds into the flip-flop's inverted clear pin",
        f"({report['modules']['weft_static']['reset_inverters']} in the whole design).",
        "",
    ]
    with open(os.path.join(out, "area.md"), "w") as f:
        f.write("\n".join(lines))
    return lines


def bench_record(static, threads, params, yosys):
    """The benchmark record: one entry per module, figures and the seed's where known."""
    version = synth_flow.version(synth_flow.yosys_command(yosys) or ["yosys"])
    modules = {}
    for name, e in list(static["modules"].items()) + list(threads.items()):
        if e.get("missing") or e.get("error") or e.get("skipped"):
            modules[name] = dict(e)
            continue
        modules[name] = {
            "description": e["description"],
            "lut": e["luts"],
            "lutram": e["lutram_luts"],
            "lut_total": e["luts_total"],
            "ff": e["ffs"],
            "ramb18": e["ramb18"],
            "ramb36": e["ramb36"],
            "bram36_equivalent": e["brams"],
            "dsp": e["dsps"],
            "carry4": e["carry4"],
            "reset_inverters": e["reset_inverters"],
        }
        if name in SEED:
            modules[name]["seed"] = SEED[name]
    return {
        "benchmark": "area",
        "tool": f"{version}, synth_xilinx -noiopad (Xilinx 7-series cells)",
        "platform_parameters": params,
        "units": {
            "lut": "6-input LUTs used as logic (LUT1..LUT6)",
            "lutram": "LUTs used as distributed RAM (RAM32M/RAM64M: 4 each)",
            "lut_total": "lut + lutram",
            "ff": "flip-flops",
            "ramb18": "RAMB18E1 block RAMs",
            "ramb36": "RAMB36E1 block RAMs",
            "bram36_equivalent": "ramb36 + ramb18 / 2",
            "dsp": "DSP48E1 slices",
            "reset_inverters": "INV cells in front of flip-flop resets (folded into the "
                               "flip-flop by Vivado; not counted as LUTs)",
            "seed": "the seed paper's figure, in its own units (slices)",
        },
        "hierarchy": "static region kept hierarchical, each module counted with its "
                     "submodules; each thread flattened",
        "modules": modules,
    }


def print_bench(record):
    rows = [("module", "LUT", "LUTRAM", "FF", "RAMB18", "RAMB36", "DSP")]
    for name, e in record["modules"].items():
        if e.get("missing"):
            rows.append((name, "missing: " + e["source"], "", "", "", "", ""))
            continue
        if e.get("error"):
            rows.append((name, "failed: " + e["error"], "", "", "", "", ""))
            continue
        if e.get("skipped"):
            rows.append((name, "skipped: " + e["status"], "", "", "", "", ""))
            continue
        rows.append((name, str(e["lut"]), str(e["lutram"]), str(e["ff"]), str(e["ramb18"]),
                     str(e["ramb36"]), str(e["dsp"])))
    short = [r for r in rows if not r[1].startswith(("missing", "failed", "skipped"))]
    widths = [max(len(r[i]) for r in short) for i in range(len(rows[0]))]
    out = [f"Area, {record['tool']}:"]
    for r in rows:
        if r[1].startswith(("missing", "failed", "skipped")):
            out.append(f"  {r[0]:<{widths[0]}}  {r[1]}")
        else:
            out.append("  " + "  ".join(
                f"{c:<{widths[i]}}" if i == 0 else f"{c:>{widths[i]}}" for i, c in enumerate(r)))
    for name, e in record["modules"].items():
        s = e.get("seed")
        if s:
            out.append(f"  seed: {s['system']}: {s['figure']:,} {s['unit']} for {s['what']} "
                       f"(set against {name}; {s['unit']}, not LUTs)")
    sys.stdout.write("\n".join(out) + "\n")


def main():
    # @FILE reads arguments from FILE, one a line: the build writes the ones every run
    # shares (bench/run.sh, the weft-bench-area target).
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], fromfile_prefix_chars="@")
    ap.add_argument("--yosys", default=None,
                    help="the Yosys to run (default: yowasp's, tools/synth_flow.py)")
    ap.add_argument("--script", required=True, help="hw/synth/weft_area.ys")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--top", default="weft_static")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter of the top (from the platform description); repeatable")
    ap.add_argument("--thread", action="append", default=[],
                    metavar="NAME=SOURCE[,SOURCE...][:TOP[:PARAM=VALUE...]]",
                    help="also synthesise hardware thread image NAME (top module TOP, NAME "
                         "unless given, with those parameters) from its SOURCEs; repeatable")
    ap.add_argument("--block", action="append", default=[],
                    metavar="NAME=SOURCE[,SOURCE...][:TOP[:PARAM=VALUE...]]",
                    help="also synthesise a block outside the static region; repeatable")
    ap.add_argument("--hwlib", action="append", default=[], metavar="FILE",
                    help="a source every thread is read with (the OSIF package first, then "
                         "hw/lib); repeatable")
    ap.add_argument("--include", action="append", default=[], metavar="DIR",
                    help="include directory for the threads (hw/lib); repeatable")
    ap.add_argument("--platform", action="append", default=[], metavar="NAME[:PARAM=VALUE...]",
                    help="also build the whole static region as a board does (flattened, "
                         "without the simulation hints), with these parameters over the "
                         "--param ones; reported as static_NAME; repeatable")
    ap.add_argument("--json", metavar="PATH", help="write the benchmark record here")
    ap.add_argument("--jobs", type=int, default=2, help="Yosys runs at a time")
    ap.add_argument("--quick", action="store_true",
                    help="the static region only; the threads are recorded as not "
                         "synthesised, the platforms' board builds are left out")
    ap.add_argument("sources", nargs="+", help="static-region sources, OSIF package first")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    params = dict(p.split("=", 1) for p in args.param)

    threads = {}
    runs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # The static region's port-list includes (weft_*_ports.svh) sit beside its sources.
        static_incs = sorted({os.path.dirname(os.path.abspath(src)) for src in args.sources})
        runs["static"] = pool.submit(synthesise, args.yosys, args.script, args.out,
                                     args.sources, args.top, params, includes=static_incs)
        boards = {}
        for spec in [] if args.quick else args.platform:
            pname, *fields = spec.split(":")
            bparams = dict(params, **dict(f.split("=", 1) for f in fields))
            boards[f"static_{pname}"] = (pname, pool.submit(
                synthesise, args.yosys, args.script, os.path.join(args.out, f"board_{pname}"),
                args.sources, args.top, bparams, includes=static_incs, board=True))
        specs = [(s, "block") for s in args.block] + [(s, "hardware thread") for s in args.thread]
        for spec, kind in specs:
            name, _, rest = spec.partition("=")
            src, *fields = rest.split(":")
            srcs = [s for s in src.split(",") if s]  # the top's file first
            top = fields[0] if fields else name
            tparams = dict(f.split("=", 1) for f in fields[1:])
            what = f"{kind} {name} ({os.path.relpath(srcs[0], REPO)})" if srcs else name
            if args.quick:
                threads[name] = {"skipped": True, "source": src, "description": what,
                                 "status": "not synthesised (quick run)"}
                continue
            if not srcs or not all(os.path.isfile(s) for s in srcs):
                sys.stderr.write(f"area_report: {name}: source {src or '(none)'} missing, "
                                 f"reported as missing\n")
                threads[name] = {"missing": True, "source": src, "description": what}
                continue
            threads[name] = {"description": what, "top": top}
            runs[name] = pool.submit(synthesise, args.yosys, args.script,
                                     os.path.join(args.out, name), args.hwlib + srcs, top,
                                     tparams, includes=args.include, flatten=True)
        try:
            static = static_report(runs.pop("static").result(), params)
            for key, (pname, fut) in boards.items():
                entry = module_entry(fut.result(), "weft_board_top", {})
                entry["description"] = (f"the whole static region of platform {pname}, as a "
                                        "board builds it: flattened, simulation hints left out")
                static["modules"][key] = entry
        except RuntimeError as e:
            sys.stderr.write(f"area_report: {e}\n")
            return 1
        # A thread that fails to synthesise is recorded as failed; the others still count.
        failed = False
        for name, fut in runs.items():
            try:
                entry = module_entry(fut.result(), threads[name]["top"], {})
                entry["description"] = threads[name]["description"]
            except RuntimeError as e:
                sys.stderr.write(f"area_report: {e}\n")
                entry = dict(threads[name], error=str(e).splitlines()[0])
                failed = True
            threads[name] = entry

    with open(os.path.join(args.out, "area.json"), "w") as f:
        json.dump(dict(static, threads=threads), f, indent=2)
        f.write("\n")
    lines = write_static_md(static, params, args.out)
    if args.json:
        record = bench_record(static, threads, params, args.yosys)
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
        print_bench(record)
        sys.stdout.write(f"area: wrote {args.json}\n")
    else:
        sys.stdout.write("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
