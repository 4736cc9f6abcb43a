#!/usr/bin/env python3
"""Synthesise Weft's static region with Yosys and write an area report.

Runs `yosys` once on the static-region sources (kept hierarchical), reads the
`stat -json` result and sums each module's cells including its submodules. Writes
area.json and area.md into the output directory with LUTs, FFs, LUTRAM and BRAMs for:
one slot's OS interface (weft_slot_if), the memory master with its arbiter
(weft_memif_master) and the whole weft_static.

LUT counts: LUT1..LUT6 as mapped. Yosys puts an INV cell in front of each flip-flop's
asynchronous clear (the RTL's active-low reset); Vivado folds those into the flip-flop
(IS_CLR_INVERTED), so they are listed separately and not counted as LUTs. A RAM32M or
RAM64M (distributed RAM, used by the FIFOs) occupies 4 LUTs of a SLICEM; the "LUTs
total" column adds them.
"""
import argparse
import json
import os
import re
import subprocess
import sys

FF_TYPES = {"FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1", "LDCE", "LDPE"}
LUT_TYPES = {"LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"}
LUTRAM_LUTS = {"RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4,
               "RAM32X1S": 1, "RAM64X1S": 1, "RAM256X1S": 4, "RAM32M16": 8, "RAM64M8": 8}
BRAM_TYPES = {"RAMB18E1": 0.5, "RAMB36E1": 1.0}

REPORTED = [
    ("weft_slot_if", "one slot's OS interface (OSIF + MEMIF FIFOs, link router, windows, registers)"),
    ("weft_link_router", "the link router inside it (mailbox calls served without the CPU)"),
    ("weft_mem_guard", "the memory windows inside it (the IOMMU-like check)"),
    ("weft_memif_master", "AXI4 memory master with round-robin arbiter"),
    ("weft_axil_regs", "AXI4-Lite register window (global registers, decode)"),
    ("weft_static", "whole static region"),
]


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
        "carry4": cells.get("CARRY4", 0),
        "reset_inverters": cells.get("INV", 0),
        "cells": dict(sorted(cells.items())),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--yosys", default="yosys")
    ap.add_argument("--script", required=True, help="hw/synth/weft_area.ys")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--top", default="weft_static")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter of the top (from the platform description); repeatable")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    reads = "read_verilog -sv -DSYNTHESIS " + " ".join(os.path.abspath(s) for s in args.sources)
    params = dict(p.split("=", 1) for p in args.param)
    chparam = "".join(f" -chparam {k} {v}" for k, v in params.items())
    cmd = (f"{reads}; hierarchy -check -top {args.top}{chparam}; "
           f"script {os.path.abspath(args.script)}")
    log = os.path.join(args.out, "yosys.log")
    with open(log, "w") as f:
        rc = subprocess.run([args.yosys, "-q", "-l", log, "-p", cmd], cwd=args.out,
                            stdout=f, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        sys.stderr.write(f"area_report: yosys failed (exit {rc}), see {log}\n")
        with open(log) as f:
            sys.stderr.write("".join(f.readlines()[-30:]))
        return 1
    # Yosys 0.23 writes the hierarchy listing of `stat -json` as plain text into the
    # JSON; keep only JSON lines.
    with open(os.path.join(args.out, "area_stat.json")) as f:
        text = "".join(l for l in f if l.strip()[:1] in ('"', "{", "}", "[", "]", ""))
    # Module names carry a leading backslash; instantiated cell types do not.
    mods = {k.lstrip("\\"): v for k, v in json.loads(text)["modules"].items()}

    memo = {}
    report = {"tool": "Yosys synth_xilinx (7-series cells)", "parameters": params, "modules": {}}
    for want, what in REPORTED:
        found = [m for m in mods if base_name(m) == want]
        if not found:
            sys.stderr.write(f"area_report: module {want} not in the synthesised design\n")
            return 1
        entry = summarise(flat_cells(mods, found[0], memo))
        entry["description"] = what
        report["modules"][want] = entry

    with open(os.path.join(args.out, "area.json"), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    lines = [
        f"# Weft static region area (Yosys synth_xilinx, {params.get('NumSlots', 'default')} slots, "
        f"{params.get('NumLinks', 0)} links)",
        "",
        "| part | LUTs (logic) | LUTs as RAM | LUTs total | FFs | BRAM36 | CARRY4 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for want, what in REPORTED:
        e = report["modules"][want]
        lines.append(f"| `{want}`: {what} | {e['luts']} | {e['lutram_luts']} | "
                     f"{e['luts_total']} | {e['ffs']} | {e['brams']:g} | {e['carry4']} |")
    lines += [
        "",
        "LUTs as RAM: distributed RAM of the FIFOs (RAM32M/RAM64M, 4 LUTs each).",
        "Not counted: one INV per flip-flop with asynchronous clear, which Yosys maps",
        "separately and Vivado folds into the flip-flop's inverted clear pin",
        f"({report['modules']['weft_static']['reset_inverters']} in the whole design).",
        "",
    ]
    with open(os.path.join(args.out, "area.md"), "w") as f:
        f.write("\n".join(lines))
    sys.stdout.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
