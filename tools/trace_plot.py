#!/usr/bin/env python3
"""Draw a Weft thread trace (Chrome/Perfetto JSON, docs/trace.md) as a timeline PNG.

One row per thread in the trace's order: running spans dark, spans blocked in an OS call
light, so the thread-level parallelism of a run (ReconOS Fig. 12) shows at a glance
without a trace viewer.

    trace_plot.py TRACE.json OUT.png [--from MS] [--to MS] [--title TEXT]
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402


def load_tracks(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        events = doc["traceEvents"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        sys.exit(f"trace_plot: {path} is not a trace: {err}")
    names, order, spans = {}, {}, {}
    for i, e in enumerate(events):
        try:
            tid = e.get("tid")
            if e.get("ph") == "M" and e.get("name") == "thread_name":
                names[tid] = e["args"]["name"]
            elif e.get("ph") == "M" and e.get("name") == "thread_sort_index":
                order[tid] = e["args"]["sort_index"]
            elif e.get("ph") == "X":
                spans.setdefault(tid, []).append((e["ts"] / 1e3, e["dur"] / 1e3, str(e["name"])))
        except (AttributeError, KeyError, TypeError) as err:
            sys.exit(f"trace_plot: {path}: event {i} is not a trace event ({err!r} missing or wrong)")
    tids = sorted(spans, key=lambda t: (order.get(t, t), t))
    return [(names.get(t, f"thread {t}"), spans[t]) for t in tids]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from", dest="t0", type=float, default=None, help="start, ms")
    ap.add_argument("--to", dest="t1", type=float, default=None, help="end, ms")
    ap.add_argument("--title", default=None)
    args = ap.parse_args(argv)
    tracks = [t for t in load_tracks(args.trace) if t[0] != "main"]
    if not tracks:
        sys.exit(f"trace_plot: {args.trace} has no spans")
    fig, ax = plt.subplots(figsize=(11, 0.55 * len(tracks) + 1.4))
    t0 = args.t0 if args.t0 is not None else min(s for _, sp in tracks for s, _, _ in sp)
    t1 = args.t1 if args.t1 is not None else max(s + d for _, sp in tracks for s, d, _ in sp)
    # A span shorter than a pixel would vanish: draw each at least 1/1000 of the window.
    least = (t1 - t0) / 1000
    for row, (name, spans) in enumerate(tracks):
        y = len(tracks) - 1 - row
        # Long spans first, then the widened short ones on top (calls last), so a short
        # span is not hidden under its long neighbour.
        for short in (False, True):
            for kind, colour in (("running", "#1f6f3f"), ("blocked", "#f0b27a")):
                bars = [(s, max(d, least)) for s, d, n in spans
                        if n.startswith(kind) and (d < least) == short]
                if bars:
                    ax.broken_barh(bars, (y - 0.35, 0.7), facecolors=colour, linewidth=0)
    ax.set_yticks(range(len(tracks)))
    ax.set_yticklabels([t[0] for t in reversed(tracks)])
    ax.set_xlabel("ms since the trace started (host wall clock)")
    ax.set_xlim(t0, t1)
    ax.legend(handles=[Patch(color="#1f6f3f", label="running"),
                       Patch(color="#f0b27a", label="blocked in an OS call")],
              loc="upper right", fontsize=8)
    if args.title:
        ax.set_title(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"timeline written to {args.out}")


if __name__ == "__main__":
    main()
