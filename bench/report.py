#!/usr/bin/env python3
"""Turn the benchmark JSON files of `make bench` into a markdown report and PNG plots.

    report.py BENCH_DIR

Reads BENCH_DIR/{os_overhead,sched_ops,cbis_delay,softcore,communication,sim_speed,sort_study,image_study,
reconfiguration,reconf_workload,weftd,weftd_rta,area}.json (whichever exist), writes
BENCH_DIR/report.md with Weft's figures beside the ReconOS, hthreads and FRED papers', and
BENCH_DIR/table5_turnaround.png, sched_ops.png, cbis_delay.png, softcore_tm.png, table8_image_fps.png, reconf_time.png,
reconf_workload.png, weftd_overhead.png. A missing file is named in the report, not an
error: each benchmark can also be run alone.
"""
import json
import pathlib
import statistics
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

# ReconOS (TECS 2009) Table VIII, frames/s, eCos/PPC; None where the paper has no figure.
SEED_TABLE8 = {
    3: {"sw-sw-sw": [14.4, 15.5, 16.1, 16.2, 16.3], "sw-hw-sw": [15.5, 17.6, 18.6, 19.0, 18.9],
        "sw-hw-hw": [None, None, None, 23.5, 23.4], "sw-hw-hw-db": [None, None, None, 25.5, 25.2]},
    5: {"sw-sw-sw": [8.1, 8.3, 8.5, 8.5, 8.5], "sw-hw-sw": [15.3, 17.0, 18.4, 18.6, 18.6],
        "sw-hw-hw": [None, None, None, 23.2, 23.0], "sw-hw-hw-db": [None, None, None, 25.4, 25.1]},
}
SEED_BLOCKS = [4, 8, 20, 40, 80]
# Table VII, ms per frame at 100 MHz.
SEED_TABLE7 = {"filter 3x3": (23.9, 6.0), "filter 5x5": (86.6, 7.6), "display": (22.5, 3.1)}
CONFIGS = ["sw-sw-sw", "sw-hw-sw", "sw-hw-hw", "sw-hw-hw-db"]


# Figures of the engine before the faster fabric, measured in the same sitting as the
# docs/benchmarks.md run (bench/before/, with where they come from).
BEFORE_DIR = pathlib.Path(__file__).resolve().parent / "before"


def load(bench_dir, name):
    path = bench_dir / f"{name}.json"
    if not path.exists():
        return None
    with open(path) as f:
        return json.load(f)


def fmt(v, digits=2):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return f"{v:,}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def section_os(doc, bench_dir, md):
    md.append("## OS call overheads (Table V)\n")
    if doc is None:
        md.append("_os_overhead.json missing: run `build/bench/weft-bench-os-overhead`._\n")
        return
    clock = (doc.get("projection") or {}).get("clock_mhz", 100)
    rows = []
    for r in doc["results"]:
        rows.append([r["primitive"], r["kind"], r["path"], fmt(r["median_us"]), fmt(r["p99_us"]),
                     fmt(r.get("ratio_to_sw_sw"), 1), fmt(r.get("projected_median_us")),
                     fmt(r.get("projected_ratio_to_sw_sw"), 2), fmt(r.get("fabric_cycles"), 1),
                     fmt(r.get("seed_ecos_us")), fmt(r.get("seed_ratio_to_sw_sw"), 2)])
    md.append(f"{doc['reps']} repetitions, every thread at rest before each per-round sample. "
              "*Wall*: µs on this host with the hardware co-simulated. *Projection* (labelled "
              "so; not a measurement on a board): the same samples with the host time spent "
              f"simulating the fabric taken out and the fabric cycles put in at {clock} MHz, "
              "so the delegate's own host time, the threads' wake-ups and every register "
              "access at its fabric cycles (docs/benchmarks.md, \"Board projection\"). "
              "Seed: ReconOS eCos/PPC at 100 MHz.\n")
    md.append(table(["primitive", "figure", "path", "wall median µs", "wall p99 µs",
                     "wall ratio", "projected µs", "projected ratio", "fabric cycles",
                     "seed µs", "seed ratio"], rows))
    turn = [r for r in doc["results"] if r["kind"] == "turnaround" and "HW" in r["path"]
            and "SW" in r["path"]]
    ratios = {r["primitive"]: r.get("projected_ratio_to_sw_sw") for r in turn}
    if not ratios or None in ratios.values():
        verdict = "not measured in this run"
    else:
        listed = ", ".join(f"{p} {v:.2f}x" for p, v in ratios.items())
        verdict = ("**missed** (" if max(ratios.values()) > 2.0 else "met (") + listed + ")"
    md.append("\nTarget: projected SW↔HW turnaround at most 2x SW↔SW, for the semaphore and "
              "the mutex: " + verdict + ".")
    # Plot: turnarounds, Weft wall and projection vs the seed, log scale.
    turns = [r for r in doc["results"] if r["kind"] == "turnaround"]
    names = [f"{r['primitive']}\n{r['path']}" for r in turns]
    series = [("Weft wall clock (co-simulated), median", [r["median_us"] for r in turns]),
              ("Weft board projection, median",
               [r.get("projected_median_us") or 0 for r in turns]),
              ("ReconOS eCos/PPC (Table V)", [r.get("seed_ecos_us") or 0 for r in turns])]
    fig, ax = plt.subplots(figsize=(9, 4))
    x = range(len(names))
    for k, (label, ys) in enumerate(series):
        ax.bar([i + (k - 1) * 0.27 for i in x], ys, 0.27, label=label)
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("turnaround [µs]")
    ax.set_title("Semaphore and mutex turnaround")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(bench_dir / "table5_turnaround.png", dpi=120)
    plt.close(fig)
    md.append("\n![Table V turnarounds](table5_turnaround.png)\n")


SCHED_OPS = ["enqueue", "dequeue", "remove", "query"]


def section_sched(doc, bench_dir, md):
    md.append("## Hardware scheduler: cycles per operation against queue depth\n")
    if doc is None:
        md.append("_sched_ops.json missing: run `build/bench/weft-bench-sched-ops`._\n")
        return
    ref = doc["reference"]
    layouts = "; ".join(f"{l['name']}: {l['what']}" for l in doc["layouts"])
    md.append(f"`{doc['block']}` alone ({doc['threads']} threads, {doc['prios']} priorities), "
              f"verilated, {doc['reps']} requests of each operation at each depth (threads "
              f"queued when the request is taken) and layout ({layouts}); each request restored "
              "the depth. Requests go back to back: each is presented in the cycle after the "
              "one before was taken. *Latency*: fabric cycles from the edge that takes the "
              "request to the cycle `rsp_valid_o` is high; *wait*: cycles it waited for "
              "`req_ready_o`; *total*: wait + latency; *interval*: from its taking edge to the "
              "next request's (1 / throughput). Each cell: min / max over both layouts. "
              "Remove takes a "
              "thread from the middle of a queue when some queue has one. "
              f"{doc['answers_checked']:,} answers checked against a reference model, all "
              f"right. hthreads: enqueue {ref['enqueue']}, dequeue {ref['dequeue']}, other "
              f"operations {ref['others_min']}-{ref['others_max']} cycles.\n")

    def span(lo, hi):
        return f"{fmt(lo)} / {fmt(hi)}"

    cells = {}
    for r in doc["results"]:
        c = cells.setdefault((r["depth"], r["op"]), {})
        for k in ("latency", "wait", "total", "interval"):
            c[k + "_min"] = min(c.get(k + "_min", r[k + "_min"]), r[k + "_min"])
            c[k + "_max"] = max(c.get(k + "_max", r[k + "_max"]), r[k + "_max"])
    depths = sorted({d for d, _ in cells})
    rows = []
    for d in depths:
        row = [d]
        for op in SCHED_OPS:
            c = cells.get((d, op))
            row += ([span(c["latency_min"], c["latency_max"]), span(c["total_min"], c["total_max"]),
                     span(c["interval_min"], c["interval_max"])] if c else ["-", "-", "-"])
        rows.append(row)
    head = ["depth"]
    for op in SCHED_OPS:
        head += [f"{op} latency", f"{op} total", f"{op} interval"]
    md.append(table(head, rows))
    positions = {}
    for r in doc["results"]:
        for k, v in (r.get("positions") or {}).items():
            positions[k] = positions.get(k, 0) + v
    where = {"middle": "in the middle of a queue", "head": "at the head", "tail": "at the tail",
             "alone": "alone in their queue"}
    if positions:
        md.append("\nRemoved threads stood: " + ", ".join(
            f"{v:,} {where.get(k, k)}" for k, v in positions.items()) + ".")
    verdict = "met" if doc["meets_target"] else "**missed**"
    md.append(f"\nTarget: every operation at most {doc['target_cycles']} cycles, waiting "
              f"included: {verdict} (worst total {doc['max_total_cycles']}).\n")
    fig, ax = plt.subplots(figsize=(7, 4))
    styles = {"enqueue": "o", "dequeue": "s", "remove": "^", "query": "x"}
    colors = {}
    for k, op in enumerate(SCHED_OPS):
        pts = sorted((d, c["total_max"]) for (d, o), c in cells.items() if o == op)
        if not pts:
            continue
        # Equal figures would hide each other: a small offset per operation.
        line, = ax.plot([depths.index(d) for d, _ in pts],
                        [v + (k - 1.5) * 0.15 for _, v in pts], marker=styles[op],
                        label=f"Weft {op}, max total")
        colors[op] = line.get_color()
        lat = sorted((d, c["latency_max"]) for (d, o), c in cells.items() if o == op)
        ax.plot([depths.index(d) for d, _ in lat], [v + (k - 1.5) * 0.15 for _, v in lat],
                linestyle=":", marker=styles[op], markersize=3, color=colors[op])
    ax.axhline(ref["enqueue"], color=colors.get("enqueue", "C0"), linestyle="--", linewidth=1,
               label=f"hthreads enqueue ({ref['enqueue']})")
    ax.axhline(ref["dequeue"], color=colors.get("dequeue", "C1"), linestyle="--", linewidth=1,
               label=f"hthreads dequeue ({ref['dequeue']})")
    ax.axhspan(ref["others_min"], ref["others_max"], color="0.85", alpha=0.5,
               label=f"hthreads other operations ({ref['others_min']}-{ref['others_max']})")
    ax.axhline(doc["target_cycles"], color="k", linewidth=1.2,
               label=f"target ({doc['target_cycles']})")
    # One step per measured depth (they double), so 255 and 256 stay apart.
    ax.set_xticks(range(len(depths)))
    ax.set_xticklabels([str(d) for d in depths], fontsize=8)
    ax.set_ylim(0, max(ref["others_max"], ref["enqueue"]) + 5)
    ax.set_xlabel("threads queued when the request is taken")
    ax.set_ylabel("fabric cycles")
    ax.set_title("weft_sched: cycles per operation (solid: wait + latency, dotted: latency)")
    ax.legend(fontsize=7, loc="upper left", ncol=2)
    fig.tight_layout()
    fig.savefig(bench_dir / "sched_ops.png", dpi=120)
    plt.close(fig)
    md.append("![scheduler cycles against depth](sched_ops.png)\n")
    md.append("In the plot the operations' lines are drawn 0.15 cycles apart so that equal "
              "figures do not hide each other.\n")


def section_comm(doc, md):
    md.append("## Communication (Table VI)\n")
    if doc is None:
        md.append("_communication.json missing: run `build/bench/weft-bench-communication`._\n")
        return
    md.append(f"{doc['block_bytes']:,} bytes per transfer, {doc['reps']} repetitions. Paths the "
              "fabric alone carries: the thread's own fabric cycles, time *projected* at "
              f"{doc['clock_mhz']:.0f} MHz. Paths through software: wall clock on this host with "
              "the fabric co-simulated, and its *board projection* (the wall time less the host "
              "time spent simulating the fabric, plus the fabric cycles at the clock). Seed: "
              "ReconOS/eCos on a PowerPC, 64-bit PLB at 100 MHz, with data cache; MiB/s is Table "
              "VI's unit.\n")
    rows = []
    for r in doc["results"]:
        seed = r.get("seed") or {}
        target = r.get("target") or {}
        verdict = "-"
        if target:
            verdict = "met" if target.get("met") else "**missed**"
            if r.get("cycles_per_word"):
                verdict += f" ({r['cycles_per_word']:.3f} cycles/word)"
            elif target.get("metric") == "projected_bytes_per_cycle":
                verdict += f" (>= {target.get('min')} projected B/cycle)"
        basis = "projected" if r["time_basis"].startswith("projected") else "wall"
        wall = basis == "wall" and r.get("fabric_cycles_median") is not None
        rows.append([r["path"], basis, fmt(r["median_us"]), fmt(r["p99_us"]),
                     fmt(r["mib_per_s"]), fmt(r.get("bytes_per_cycle"), 3),
                     fmt(r.get("projected_median_us")) if wall else "-",
                     fmt(r.get("projected_bytes_per_cycle"), 3) if wall else "-",
                     fmt(r.get("delegate_calls"), 1),
                     fmt(seed.get("us")), fmt(seed.get("bytes_per_cycle"), 4), verdict])
    md.append(table(["path", "time", "median µs", "p99 µs", "MiB/s", "fabric bytes/cycle",
                     "projected µs", "projected bytes/cycle", "calls", "seed µs",
                     "seed bytes/cycle", "target"], rows))
    for note in doc.get("notes", []):
        md.append(f"\n- {note}")
    md.append("")


def section_sim(doc, before, md):
    md.append("## Simulation speed\n")
    if doc is None:
        md.append("_sim_speed.json missing: run `build/bench/weft-bench-sim-speed`._\n")
        return
    md.append(f"Default platform ({doc['slots']} slots); a busy slot runs {doc['busy_thread']} "
              "on random blocks. Co-simulation: the runtime with its clock thread; every model: "
              "the same with `WEFT_SIM_EVAL_ALL` (no skipped static-region edge, no paused "
              "slot); flat: ONE Verilator model of the static region with the threads in its "
              f"slots, on a plain loop. Best of {doc['reps']} windows of {doc['window_s']} s. "
              f"Targets: co-simulation at least {doc['target_ratio']:.0%} of the flat model per "
              "CPU second, and the cycles per second of docs/benchmarks.md.\n")
    old = {}
    if before:
        old = {r["busy_slots"]: r["cosim"]["cycles_per_s"] for r in before["rows"]}
    rows = []
    for r in doc["rows"]:
        n = r["busy_slots"]
        rows.append([f"{n}" + ("*" if n == 0 else ""),
                     fmt(old.get(n), 0) if old else "-",
                     fmt(r["cosim"]["cycles_per_s"], 0),
                     fmt(r["cosim_every_model"]["cycles_per_s"], 0),
                     fmt(r["flat"]["cycles_per_s"], 0),
                     fmt(r["ratio"], 3), fmt(r["ratio_cpu"], 3),
                     "met" if r["meets_target_ratio"] else "**missed**",
                     fmt(r["target_cycles_per_s"], 0),
                     "met" if r["meets_target_rate"] else "**missed**"])
    md.append(table(["busy slots", "before cycles/s", "co-sim cycles/s", "every model cycles/s",
                     "flat cycles/s", "co-sim/flat (wall)", "co-sim/flat (CPU)", "ratio target",
                     "target cycles/s", "rate target"], rows))
    if before:
        md.append(f"\nBefore: {before.get('provenance', 'an earlier run')}.")
    held = ", ".join(f"{r['busy_slots']} busy {100.0 * r['cosim']['held_cycles'] / max(1, r['cosim']['cycles']):.1f}%"
                     for r in doc["rows"])
    md.append(f"\nCycles whose static-region edge the co-simulation skipped (holding): {held}.")
    idle = doc["idle"]
    md.append(f"\n\\* an empty fabric's clock thread sleeps; this row keeps it running with "
              "the static region alone. Host CPU while idle (CPU seconds per wall second): "
              f"every slot empty {idle['cpu_fraction_empty']:.4f}, four threads blocked in an OS "
              f"call {idle['cpu_fraction_blocked']:.4f}"
              + (". The host was busy during the run; wall-clock rates are low."
                 if doc.get("host_contended") else ".") + "\n")


# Issue 33's area targets (LUTs as logic and as RAM, Yosys synth_xilinx), by module.
AREA_TARGETS = {
    "static_default": 10000,
    "static_small": 6000,
    "weft_slot_if": 1500,
    "weft_sync": 2500,
    "rv_os_8ctx": 3000,
}


def section_area(doc, timing, before, before_timing, md):
    md.append("## Area (Yosys synth_xilinx) and timing (nextpnr-ecp5)\n")
    if doc is None:
        md.append("_area.json missing: run `cmake --build build --target weft-bench-area`._\n")
        return
    md.append(f"{doc.get('tool', '')}. LUT: 6-input LUTs as logic plus LUTs as distributed "
              "RAM. fmax: the block placed and routed alone (an out-of-context harness) for a "
              "Lattice ECP5 LFE5U-85F, speed grade 8, by `make timing`"
              + (f" ({timing.get('tool', '')})" if timing else " (not run for this report)")
              + f"; target {timing.get('target_mhz', 100) if timing else 100:g} MHz. *Before*: "
              "`bench/before/` (the commit before issue 33's work).\n")
    tblocks = (timing or {}).get("blocks", {})
    bmods = (before or {}).get("modules", {})
    btim = (before_timing or {}).get("blocks", {})
    rows, seeds = [], []
    for name, m in doc["modules"].items():
        if "lut" not in m:
            rows.append([name, m.get("status", m.get("error", "missing")), "", "", "", "", "",
                         "", "", ""])
            continue
        t = tblocks.get(name, {})
        fmax = "-" if "fmax_mhz" not in t else (
            f"{t['fmax_mhz']:.1f}" + ("" if t.get("met") else " **(missed)**"))
        bl = bmods.get(name, {}).get("lut_total")
        bf = btim.get(name, {}).get("fmax_mhz")
        target = AREA_TARGETS.get(name)
        lut = m.get("lut_total", m["lut"] + m["lutram"])
        rows.append([name, m.get("description", ""), fmt(lut),
                     fmt(bl) if bl is not None else "-",
                     (f"{target:,}" + ("" if lut <= target else " **missed**")) if target else "-",
                     fmt(m["ff"]), f"{m['ramb18']} / {m['ramb36']}", fmt(m["dsp"]), fmax,
                     f"{bf:.1f}" if bf is not None else "-"])
        if m.get("seed"):
            seeds.append((name, m["seed"]))
    md.append(table(["module", "what", "LUT", "LUT before", "LUT target", "FF",
                     "RAMB18 / RAMB36", "DSP", "fmax MHz", "fmax before"], rows))
    for name, seed in seeds:
        md.append(f"\nSeed beside `{name}`: {seed['figure']:,} {seed['unit']} for "
                  f"{seed['what']} ({seed['device']}). {seed['note']}")
    for name, t in tblocks.items():
        cp = t.get("critical_path")
        if cp and not t.get("met"):
            md.append(f"\n`{name}` misses {t['target_mhz']:g} MHz by "
                      f"{t['target_mhz'] - t['fmax_mhz']:.1f} MHz: its critical path runs from "
                      f"`{cp['from']}` to `{cp['to']}`, {cp['levels']} logic levels, "
                      f"{cp['logic_ns']:.1f} ns of logic and {cp['routing_ns']:.1f} ns of "
                      "routing.")
    md.append("")


def section_sort(doc, md):
    md.append("## Sort case study (Fig. 10)\n")
    if doc is None:
        md.append("_sort_study.json missing: run `build/apps/weft-sort --json ...`._\n")
        return
    md.append(f"{doc['chunks']} chunks of {doc['words']} words ({doc['chunks'] * doc['words']:,} "
              "integers). Software times are wall clock on this host; hardware work is fabric "
              f"cycles, *projected* at {doc['clock_mhz']:.0f} MHz.\n")
    rows = []
    for r in doc["runs"]:
        split = ", ".join(
            f"{'HW' if t['placement'] == 'hardware' else 'SW'} {t['chunks']}" for t in r["threads"])
        hw = r["hw_threads"] > 0
        calls = sum(t.get("os_calls", 0) for t in r["threads"])
        rows.append([r["config"], r.get("sync", "software"),
                     f"{r['sw_threads']} SW + {r['hw_threads']} HW", split,
                     fmt(r["sort_ms_wall"], 1),
                     fmt(r["fabric_cycles"]) if hw else "-",
                     fmt(r["fabric_ms_projected"], 1) if hw else "-",
                     fmt(calls) if hw else "-",
                     fmt(r["merge_ms_wall"], 1), "yes" if r["verified"] else "**NO**"])
    md.append(table(["config", "mutex and semaphore", "threads", "chunks sorted by",
                     "sort wall ms", "fabric cycles (sort phase)", "projected ms",
                     "delegate OS calls (HW threads)", "merge ms (SW)", "checked"], rows))

    def per_chunk(sync):
        hw = [t for r in doc["runs"] if r.get("sync", "software") == sync for t in r["threads"]
              if t["placement"] == "hardware" and t["chunks"]]
        return sum(t["os_calls"] for t in hw) / sum(t["chunks"] for t in hw) if hw else None

    sw_calls, hw_calls = per_chunk("software"), per_chunk("hardware")
    md.append("\nThe paper gives Fig. 10 as a chart; its point is that a hardware sort thread "
              "gives both host systems nearly the same sort time because it seldom calls the OS. "
              + (f"Here a hardware sort thread made {sw_calls:.1f} OS calls per chunk "
                 "(its delegate's count over the chunks it sorted)" if sw_calls else "")
              + (f"; with the mutex and semaphore in the fabric (`weft-sort --sync hw`: the "
                 "synchronisation manager serves the lock, unlock and post, docs/hw-services.md) "
                 f"{hw_calls:.1f}, only the mailbox reads reaching the delegate" if hw_calls else "")
              + ".\n")


def section_image(doc, bench_dir, md):
    md.append("## Image case study (Table VIII)\n")
    if doc is None:
        md.append("_image_study.json missing: run `build/apps/weft-image --json ...`._\n")
        return
    md.append(f"{doc['frames']} frames of {doc['width']}x{doc['height']} per run, frames from a "
              f"{doc['source']} sender over TCP on loopback. Frames/s are wall clock on this "
              "host with the hardware threads co-simulated (a few million fabric cycles "
              "per host second), so a hardware stage is far slower here than on a fabric; the "
              "hardware threads' own cost is in fabric cycles per frame, projected at "
              f"{doc['clock_mhz']:.0f} MHz. In brackets: the paper's frames/s.\n")
    runs = doc["runs"]
    blocks = sorted({r["block_lines"] for r in runs})
    for w in sorted({r["w"] for r in runs}):
        rows = []
        for c in CONFIGS:
            cells = []
            for b in blocks:
                r = next((x for x in runs if x["config"] == c and x["w"] == w
                          and x["block_lines"] == b), None)
                seed = None
                if b in SEED_BLOCKS and w in SEED_TABLE8:
                    seed = SEED_TABLE8[w][c][SEED_BLOCKS.index(b)]
                s = f" ({seed})" if seed else ""
                if r is None:
                    cells.append("-" + s)
                elif "skipped" in r:
                    cells.append("n/a" + s)
                elif not r.get("verified"):
                    cells.append("**FAILED**" + s)
                else:
                    cells.append(f"{r['fps_wall']:.1f}{s}")
            rows.append([c] + cells)
        md.append(f"\n**w = {w}**, frames/s by block size (lines)\n")
        md.append(table(["config"] + [str(b) for b in blocks], rows))
    skipped = {r["skipped"] for r in runs if "skipped" in r}
    for why in skipped:
        md.append(f"\nn/a: {why}.")
    # Table VII side by side: per-frame cost of each stage.
    md.append("\n\n**Per-frame cost of each stage (Table VII)**\n")
    rows = []
    for w in sorted({r["w"] for r in runs}):
        sw = [r for r in runs if r["w"] == w and r.get("verified") and r["config"] == "sw-sw-sw"]
        hw = [r for r in runs if r["w"] == w and r.get("verified")
              and r.get("filter_hw_cycles_per_frame")]
        sw_ms = min((r["filter_sw_ms_per_frame"] for r in sw), default=None)
        hw_cyc = min((r["filter_hw_cycles_per_frame"] for r in hw), default=None)
        seed = SEED_TABLE7[f"filter {w}x{w}"]
        rows.append([f"filter {w}x{w}", fmt(sw_ms), fmt(hw_cyc),
                     fmt(hw_cyc / (doc["clock_mhz"] * 1e3)) if hw_cyc else "-",
                     seed[0], seed[1]])
    disp_sw = [r["display_sw_ms_per_frame"] for r in runs if r.get("verified")
               and r["config"] in ("sw-sw-sw", "sw-hw-sw")]
    disp_hw = [r["display_hw_cycles_per_frame"] for r in runs if r.get("verified")
               and r.get("display_hw_cycles_per_frame")]
    dh = min(disp_hw, default=None)
    rows.append(["display", fmt(min(disp_sw, default=None)), fmt(dh),
                 fmt(dh / (doc["clock_mhz"] * 1e3)) if dh else "-", *SEED_TABLE7["display"]])
    md.append(table(["thread", "Weft SW ms (host)", "Weft HW cycles", "HW ms projected",
                     "seed SW ms", "seed HW ms"], rows))
    md.append("")
    # Plot: the Table VIII curves, Weft and seed.
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=False)
    for ax, w in zip(axes, (3, 5)):
        for c in CONFIGS:
            pts = [(r["block_lines"], r["fps_wall"]) for r in runs
                   if r["config"] == c and r["w"] == w and r.get("verified")]
            if pts:
                ax.plot(*zip(*sorted(pts)), marker="o", label=f"Weft {c}")
            seed = [(b, v) for b, v in zip(SEED_BLOCKS, SEED_TABLE8[w][c]) if v]
            ax.plot(*zip(*seed), linestyle="--", marker="x", label=f"ReconOS {c}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(SEED_BLOCKS)
        ax.set_xticklabels([str(b) for b in SEED_BLOCKS])
        ax.set_xlabel("block size [lines]")
        ax.set_ylabel("frames/s (Weft: host wall clock, HW co-simulated)")
        ax.set_title(f"Laplacian w = {w}")
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(bench_dir / "table8_image_fps.png", dpi=120)
    plt.close(fig)
    md.append("![Table VIII frames per second](table8_image_fps.png)\n")
    for c, what in (("a", "everything in software"), ("d", "filter and display in hardware, "
                                                          "double-buffered")):
        if (bench_dir / f"image_timeline_{c}.png").exists():
            md.append(f"Timeline of configuration {c} ({what}), from `image_trace_{c}.json`:\n")
            md.append(f"![timeline {c}](image_timeline_{c}.png)\n")


def section_reconf(port, workload, bench_dir, md):
    md.append("## Run-time reconfiguration (FRED)\n")
    if port is None:
        md.append("_reconfiguration.json missing: run `build/bench/weft-bench-reconfiguration`._\n")
    else:
        seed = port["seed"]
        md.append(f"The reconfiguration port programming slot 0, {port['reps']} times per size "
                  f"and rate; cycles are FRI_CYCLES at {port['clock_mhz']} MHz, *jitter* "
                  "the largest minus the smallest, *ideal* the file's bytes over the rate. "
                  f"FRED: {seed['payload_bytes']:,} bytes in {seed['mean_ms']} ms on average, "
                  f"{seed['worst_ms']} ms at worst. Host ms: simulation speed, not the port's.\n")
        rows = [[r["rate"], fmt(r["payload_bytes"]), fmt(r["cycles_min"]), fmt(r["cycles_max"]),
                 fmt(r["ideal_cycles"], 0), fmt(r["cycles_max"] - r["cycles_min"]),
                 fmt(r["mean_ms"], 3), fmt(r["worst_ms"], 3), fmt(r["host_ms_per_programming"], 1)]
                for r in port["results"]]
        md.append(table(["rate", "payload bytes", "min cycles", "max cycles", "ideal",
                         "jitter", "mean ms", "worst ms", "host ms"], rows))
        fig, ax = plt.subplots(figsize=(7, 4))
        for rate in dict.fromkeys(r["rate"] for r in port["results"]):
            pts = [(r["payload_bytes"] / 1024, r["worst_ms"]) for r in port["results"]
                   if r["rate"] == rate]
            ax.plot(*zip(*pts), marker="o", label=f"Weft, {rate}, worst")
        ax.errorbar([seed["payload_bytes"] / 1024], [seed["mean_ms"]],
                    yerr=[[0], [seed["worst_ms"] - seed["mean_ms"]]], fmt="x", color="k",
                    capsize=4, label="FRED, mean to worst")
        ax.set_xlabel("payload [KiB]")
        ax.set_ylabel(f"reconfiguration time [ms at {port['clock_mhz']} MHz]")
        ax.set_title("Reconfiguration time by bitstream size")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(bench_dir / "reconf_time.png", dpi=120)
        plt.close(fig)
        md.append("\n![reconfiguration time](reconf_time.png)\n")
    if workload is None:
        md.append("_reconf_workload.json missing: run `build/apps/weft-reconf --json ...`._\n")
        return
    reqs = workload["requests_list"]
    st = workload["stats"]
    done = [r for r in reqs if r["status"] == 0]
    prog = [r for r in done if r["reconfigured"]]
    md.append(f"\n**Workload** (`weft-reconf`): {workload['software_tasks']} periodic software "
              f"tasks, {workload['rounds']} rounds each, over {workload['hardware_tasks']} "
              f"hardware tasks in {workload['slots']} slots of {workload.get('partitions', '?')} "
              "partitions. Times in fabric "
              f"cycles at {workload['clock_mhz']} MHz: waiting (arrival to the start of the "
              "slot's programming or of the run), reconfiguration, execution.\n")
    pct = 100.0 * st["reused"] / st["requests"] if st["requests"] else 0.0
    rows = [["requests", fmt(st["requests"])],
            ["ran in a slot that already held the task", f"{st['reused']:,} ({pct:.0f}%)"],
            ["programmed a slot first", fmt(st["reconfigured"])],
            ["failed programmings", fmt(st["failed"])]]
    for key, label in (("wait_cycles", "waiting"), ("exec_cycles", "execution")):
        vals = sorted(r[key] for r in done)
        if vals:
            rows.append([f"{label} cycles: median / max",
                         f"{statistics.median(vals):,.0f} / {vals[-1]:,}"])
    rc = sorted(r["reconf_cycles"] for r in prog)
    if rc:
        rows.append(["reconfiguration cycles: min / max", f"{rc[0]:,} / {rc[-1]:,}"])
    md.append(table(["", "figure"], rows))
    fig, ax = plt.subplots(figsize=(9, 4))
    x = range(len(done))
    ms = 1e3 * workload["clock_mhz"]
    w = [r["wait_cycles"] / ms for r in done]
    c = [r["reconf_cycles"] / ms for r in done]
    e = [r["exec_cycles"] / ms for r in done]
    ax.bar(x, w, label="waiting")
    ax.bar(x, c, bottom=w, label="reconfiguration")
    ax.bar(x, e, bottom=[a + b for a, b in zip(w, c)], label="execution")
    ax.set_xlabel("request (by software task, then round)")
    ax.set_ylabel(f"fabric time [ms at {workload['clock_mhz']} MHz]")
    ax.set_title("Per request: waiting, reconfiguration, execution")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(bench_dir / "reconf_workload.png", dpi=120)
    plt.close(fig)
    md.append("\n![workload](reconf_workload.png)\n")


def section_weftd(doc, rta, bench_dir, md):
    md.append("## weftd, the fabric server\n")
    if doc is None:
        md.append("_weftd.json missing: run `build/bench/weft-bench-weftd`._\n")
    else:
        md.append("Per request, host microseconds, clients at once: a bare Unix-socket round "
                  "trip (16 bytes to an epoll echo server); a SUBMIT the server checks and "
                  "refuses (the protocol path alone); a SUBMIT until the server has accepted "
                  "it (the scheduler and starting the request included); the whole request "
                  "(hardware on the simulated fabric included). FRED: "
                  f"{doc['fred_reference']}.\n")
        rows = []
        for r in doc["overhead"]:
            for key, label in (("bare", "bare round trip"), ("refused", "refused (protocol)"),
                               ("accepted", "accepted"), ("whole_request", "whole request")):
                v = r[key]
                rows.append([r["clients"], label, fmt(v["p50_us"], 1), fmt(v["p99_us"], 1),
                             fmt(v["p999_us"], 1), fmt(v["max_us"], 1)])
            rows.append([r["clients"], "**p50 / bare**",
                         f"refused {fmt(r['p50_ratio_refused'])}, accepted {fmt(r['p50_ratio'])}",
                         "", "", ""])
        md.append(table(["clients", "", "p50", "p99", "p99.9", "max"], rows))
        fig, ax = plt.subplots(figsize=(7, 4))
        n = [r["clients"] for r in doc["overhead"]]
        for key, label in (("bare", "bare round trip"), ("refused", "refused (protocol)"),
                           ("accepted", "accepted")):
            ax.plot(n, [r[key]["p50_us"] for r in doc["overhead"]], marker="o",
                    label=f"{label}, p50")
            ax.plot(n, [r[key]["p99_us"] for r in doc["overhead"]], marker="x", linestyle=":",
                    label=f"{label}, p99")
        ax.axhline(78, color="k", linewidth=0.8, label="FRED average overhead (Zynq)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("clients at once")
        ax.set_ylabel("microseconds per request")
        ax.set_title("weftd per request beside a bare socket round trip")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(bench_dir / "weftd_overhead.png", dpi=120)
        plt.close(fig)
        md.append("\n![weftd overhead](weftd_overhead.png)\n")
        q = doc.get("accepted_queued")
        if q:
            md.append(f"\nOne client's accepted SUBMIT while its partition is busy (it queues; "
                      f"no hardware thread starts beside the answer): p50 {q['p50_us']:.1f}, "
                      f"p99 {q['p99_us']:.1f}, max {q['max_us']:.1f} µs.\n")
        st = doc["stress"]
        held = st["held_after"]
        md.append(f"\n**Stress**: {st['clients']:,} clients in waves of 50 in {st['seconds']:.1f} s: "
                  f"{st['good']} ran a request ({st['good_right']} right, "
                  f"{st['answered_twice']} answered twice), {st['died']} died mid-request, "
                  f"{st['garbage']} sent garbage ({st['garbage_dropped']} dropped). Afterwards "
                  f"the server held {held['clients']} clients, {held['buffers']} buffers, "
                  f"{held['requests']} requests; {st['slots_serving']} of 4 requests at once ran "
                  f"(slots 0x{st['slot_mask']:x}); resident memory {st['rss_before_kib']:,} -> "
                  f"{st['rss_after_kib']:,} KiB.\n")
    if rta is None:
        md.append("_weftd_rta.json missing: run `bench/weftd_rta.py`._\n")
        return
    md.append("\n**Response-time analysis checked** (`weft-rta`, docs/rta.md): generated task "
              "sets run on weftd; per hardware request, the largest measured delay (waiting + "
              "programming + execution, fabric cycles) beside its bound.\n")
    rows = [[r["taskset"], r["sw_task"], r["hw_task"], r["requests"], fmt(r["measured_max"]),
             fmt(round(r["bound"])), "yes" if r["measured_max"] <= r["bound"] else "**NO**",
             fmt(r["bound"] / r["measured_max"] if r["measured_max"] else None)]
            for r in rta["rows"]]
    md.append(table(["set", "sw task", "hw task", "requests", "measured max", "bound", "within",
                     "bound / measured"], rows))


def section_cbis(doc, bench_dir, md):
    md.append("## Interrupts as scheduling requests (CBIS): scheduling delay\n")
    if doc is None:
        md.append("_cbis_delay.json missing: run `build/bench/weft-bench-cbis`._\n")
        return
    ref = doc["reference"]
    hw, us, host = doc["hw_cycles"], doc["hw_us_at_clock"], doc["host_us"]
    md.append(f"A periodic timer of the thread manager (every {doc['timer_period_cycles']:,} "
              f"fabric cycles) is bound to a managed thread at priority 0 that waits for it, "
              f"while {doc['active_threads']} managed threads are active "
              f"({doc['round_robin_threads']} taking turns at one priority, the rest ready "
              f"below it; {doc['active_turns']:,} turns during the run), all on CPU "
              f"{doc['cpu']}. {doc['events']} events measured after {doc['warmup']} not "
              f"counted; {doc['timer_fired']} fired; every one changed the decision. The "
              "delay is measured in two parts, on their own clocks, and not added: the "
              "simulated fabric runs far below its nominal clock.\n")
    rows = [["hardware: event to decision (fabric cycles)", fmt(hw["mean"], 1), fmt(hw["median"], 0),
             fmt(hw["min"], 0), fmt(hw["p99"], 0), fmt(hw["max"], 0), fmt(hw["jitter"], 0)],
            [f"hardware at {doc['clock_mhz']} MHz (us)", fmt(us["mean"]), fmt(us["median"]),
             fmt(us["min"]), fmt(us["p99"]), fmt(us["max"]), fmt(us["jitter"])],
            ["host: interrupt thread woken to thread running (us, wall clock)",
             fmt(host["mean"], 1), fmt(host["median"], 1), fmt(host["min"], 1),
             fmt(host["p99"], 1), fmt(host["max"], 1), fmt(host["jitter"], 1)]]
    md.append(table(["part", "mean", "median", "min", "p99", "max", "jitter (max - min)"], rows))
    md.append(f"\n{ref['source']}: {ref['mean_us']} us mean, {ref['jitter_us']} us "
              "jitter, end to end on its own kernel. Weft's hardware part is the manager's; "
              "its host part is Linux waking a futex and the simulator sharing the machine's "
              "cores with the managed threads.\n")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, key, width, label, color in (
            (axes[0], "hw_histogram", 1, "fabric cycles, event to decision (hardware)", "C0"),
            (axes[1], "host_histogram", doc["host_bin_us"],
             "us, interrupt thread woken to thread running (host, wall clock)", "C1")):
        bins = doc[key]
        ax.bar([b["from"] for b in bins], [b["count"] for b in bins], width=width, align="edge",
               color=color)
        ax.set_xlabel(label, fontsize=8)
        ax.set_ylabel("events")
        if key == "host_histogram":
            ax.set_yscale("log")
    fig.suptitle(f"CBIS scheduling delay, {doc['active_threads']} active threads "
                 f"({doc['events']} timer events)")
    fig.tight_layout()
    fig.savefig(bench_dir / "cbis_delay.png", dpi=120)
    plt.close(fig)
    md.append("![CBIS delay histograms](cbis_delay.png)\n")


def section_softcore(doc, bench_dir, md):
    md.append("## Softcore: the real-time kernel's two ports (Thread-Metric-equivalent suite)\n")
    if doc is None:
        md.append("_softcore.json missing: run `build/bench/weft-bench-softcore`._\n")
        return
    md.append(f"The same core (weft_rv_soc, {doc['contexts']} hardware contexts) and clock run "
              "each test's image built for the single-context port (software scheduling and "
              "switches) and for the hardware-context port (a context per thread, the "
              "hardware scheduler, the synchronisation manager). A score is the work counted "
              f"in {doc['interval_ticks']:.0f} ticks ({doc['interval_cycles']:,.0f} core "
              "cycles); higher is better.\n")
    rows = [[r["test"], fmt(r["single_context"], 0), fmt(r["hardware_context"], 0),
             fmt(r["ratio"]) + "x", fmt(r.get("hardware_context_shared"), 0),
             fmt(r.get("shared_ratio")) + ("x" if "shared_ratio" in r else "")]
            for r in doc["tests"]]
    md.append(table(["test", "single-context", "hardware-context", "ratio",
                     "hardware-context, 2 thread contexts", "ratio"], rows))
    md.append(f"\n{doc['reference']['source']}. The last two columns run the "
              "hardware-context port with two contexts for its threads (RTK_HW_CONTEXTS=3): "
              "a test's threads beyond them take turns, switched in software by context 0; "
              "the ratio is to the single-context port.\n")
    lat = doc.get("interrupt_latency", {})
    if lat:
        rows = [[port, fmt(v["to_trap"]["min"], 0) + "-" + fmt(v["to_trap"]["max"], 0),
                 fmt(v["to_handler"]["min"], 0) + "-" + fmt(v["to_handler"]["max"], 0)]
                for port, v in lat.items()]
        md.append("\nInterrupt latency (core cycles from the store that raises the software "
                  "interrupt):\n")
        md.append(table(["port", "to the trap's first instruction",
                         "to the application handler's first instruction"], rows))
    svc = doc.get("service", {})
    if svc:
        calls = sorted(set(svc.get("sw", {})) | set(svc.get("hw", {})))
        rows = [[c] + [fmt(svc[p][c]["min"], 0) + "-" + fmt(svc[p][c]["max"], 0)
                       if c in svc.get(p, {}) else "" for p in ("sw", "hw")] for c in calls]
        md.append("\nService times (core cycles, min-max over every configuration of 2 to 6 "
                  "ready threads and priority gaps 1, 8 and 27; a call that switches is timed "
                  "to the next thread's first instruction):\n")
        md.append(table(["call", "single-context", "hardware-context"], rows))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    names = [r["test"].replace("_", "\n") for r in doc["tests"]]
    x = range(len(names))
    axes[0].bar([i - 0.27 for i in x], [r["single_context"] for r in doc["tests"]], 0.27,
                label="single-context")
    axes[0].bar(list(x), [r["hardware_context"] for r in doc["tests"]], 0.27,
                label="hardware-context")
    axes[0].bar([i + 0.27 for i in x], [r.get("hardware_context_shared", 0) for r in doc["tests"]],
                0.27, label="hardware-context, 2 thread contexts")
    axes[0].set_xticks(list(x))
    axes[0].set_xticklabels(names, fontsize=7)
    axes[0].set_ylabel("score (work in the interval)")
    axes[0].legend(fontsize=8)
    axes[1].bar(list(x), [r["ratio"] or 0 for r in doc["tests"]], color="C2")
    axes[1].axhline(3, color="grey", linestyle="--", linewidth=1)
    axes[1].set_xticks(list(x))
    axes[1].set_xticklabels(names, fontsize=7)
    axes[1].set_ylabel("hardware-context / single-context")
    fig.suptitle("Thread-Metric-equivalent suite on the softcore's two kernel ports")
    fig.tight_layout()
    fig.savefig(bench_dir / "softcore_tm.png", dpi=120)
    plt.close(fig)
    md.append("![Thread-Metric-equivalent scores and ratios](softcore_tm.png)\n")


def main():
    bench_dir = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/bench")
    md = ["# Weft benchmark report\n",
          "Written by `bench/report.py` from the JSON files of `make bench` in this directory. "
          "Hardware threads are Verilated RTL co-simulated with the runtime on this host; "
          "figures in fabric cycles are the hardware's own, figures in wall-clock time include "
          "the simulation's speed. ReconOS figures: Lübbers and Platzner, ACM TECS 2009.\n"]
    section_os(load(bench_dir, "os_overhead"), bench_dir, md)
    section_sched(load(bench_dir, "sched_ops"), bench_dir, md)
    section_cbis(load(bench_dir, "cbis_delay"), bench_dir, md)
    section_softcore(load(bench_dir, "softcore"), bench_dir, md)
    section_comm(load(bench_dir, "communication"), md)
    section_sim(load(bench_dir, "sim_speed"), load(BEFORE_DIR, "sim_speed"), md)
    section_sort(load(bench_dir, "sort_study"), md)
    section_image(load(bench_dir, "image_study"), bench_dir, md)
    section_reconf(load(bench_dir, "reconfiguration"), load(bench_dir, "reconf_workload"),
                   bench_dir, md)
    section_weftd(load(bench_dir, "weftd"), load(bench_dir, "weftd_rta"), bench_dir, md)
    section_area(load(bench_dir, "area"), load(bench_dir, "timing"), load(BEFORE_DIR, "area"),
                 load(BEFORE_DIR, "timing"), md)
    (bench_dir / "report.md").write_text("\n".join(md) + "\n")
    print(f"report written to {bench_dir / 'report.md'}")


if __name__ == "__main__":
    main()
