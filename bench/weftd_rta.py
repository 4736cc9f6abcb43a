#!/usr/bin/env python3
"""weftd_rta.py: weft-rta's bounds against what weftd does (docs/rta.md, `make bench`).

Starts weftd with the build's example configuration, measures each Weft-thread task alone
(its execution and its slot's programming, in fabric cycles: the WCETs and the port rate
the analysis is given, the largest seen), then runs generated task sets: each software
task is a thread with a connection of its own that, job after job, requests its hardware
tasks one after another (waiting for each) and pauses a random while. Every request's
delay as its result reports it (waiting + programming + execution, fabric cycles) is
compared with the bound weft-rta computes for it. Writes JSON for bench/report.py and
prints a table; the exit status is 0 whether or not a bound is exceeded (a benchmark
reports, the tests assert), 1 only when it could not run.

usage: weftd_rta.py --build DIR [--out PATH] [--sets N] [--jobs N] [--seed N]
"""
import argparse
import json
import os
import random
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import weft_rta  # noqa: E402

THREAD_TASKS = ["sumsq", "fib", "xorshift", "collatz", "popsum"]
N = 1500  # every request's problem size: execution of a few thousand cycles


def calibrate(weftd, sock, tasks, reps):
    """The largest execution cycles of each task run alone, and its programming's cycles
    (from its first run, which programs a slot; the port's time depends only on the
    file)."""
    worst = {}
    with weftd.Client(sock) as c:
        for name in tasks:
            execs, progs = [], []
            for k in range(reps):
                r = c.run(name, N)  # the first run programs a slot, the others reuse it
                if r.status != 0:
                    raise RuntimeError("%s failed alone: status %d" % (name, r.status))
                execs.append(r.exec_cycles)
                if r.reconfigured:
                    progs.append(r.reconf_cycles)
            worst[name] = {"exec": max(execs), "reconf": max(progs) if progs else 0}
    return worst


def generate(rng, tasks_by_part, index):
    """A task set: 3 to 5 software tasks, each with one or two requests."""
    sw = []
    for i in range(rng.randint(3, 5)):
        reqs = [rng.choice(rng.choice(list(tasks_by_part.values())))
                for _ in range(rng.randint(1, 2))]
        sw.append({"name": "s%d_t%d" % (index, i), "priority": i + 1,
                   "period_us": 1e6, "deadline_us": 1e6,
                   "segments_us": [1] * (len(reqs) + 1), "requests": reqs})
    return sw


def run_set(weftd, sock, sw, jobs, rng):
    """Run the software tasks at once; every request's measured delay, by task and index."""
    measured = {t["name"]: [[] for _ in t["requests"]] for t in sw}
    errors = []

    def body(t, seed):
        r_ng = random.Random(seed)
        try:
            with weftd.Client(sock) as c:
                for _ in range(jobs):
                    for j, h in enumerate(t["requests"]):
                        r = c.run(h, N)
                        if r.status != 0:
                            errors.append("%s %s: status %d" % (t["name"], h, r.status))
                        measured[t["name"]][j].append(
                            r.wait_cycles + r.reconf_cycles + r.exec_cycles)
                    time.sleep(r_ng.uniform(0, 0.02))
        except Exception as e:  # a client that failed: reported, the others run on
            errors.append("%s: %s" % (t["name"], e))

    threads = [threading.Thread(target=body, args=(t, rng.random())) for t in sw]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return measured, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--sets", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2016)
    args = ap.parse_args()
    if not (1 <= args.sets <= 100 and 1 <= args.jobs <= 1000):
        ap.error("sets 1..100, jobs 1..1000")
    build = os.path.abspath(args.build)
    out = args.out or os.path.join(build, "bench", "weftd_rta.json")
    sys.path.insert(0, os.path.join(build, "python"))
    import weftd

    config = os.path.join(build, "server", "weftd-example.json")
    with open(config) as f:
        cfg = json.load(f)
    parts = {p["name"]: len(p["slots"]) for p in cfg["partitions"]}
    part_of = {t["name"]: t["partition"] for t in cfg["tasks"]}
    tasks_by_part = {}
    for name in THREAD_TASKS:
        tasks_by_part.setdefault(part_of[name], []).append(name)
    rng = random.Random(args.seed)
    rows, errors = [], []
    with weftd.Server(os.path.join(build, "server", "weftd"), config) as srv:
        worst = calibrate(weftd, srv.socket, THREAD_TASKS, 3)
        size = {t["name"]: os.path.getsize(t["bitstream"]) for t in cfg["tasks"]}
        rate = min(size[n] / w["reconf"] for n, w in worst.items() if w["reconf"])
        print("calibrated, fabric cycles (largest seen alone): " + ", ".join(
            "%s exec %d prog %d" % (n, w["exec"], w["reconf"]) for n, w in worst.items()))
        hw = [{"name": n, "partition": part_of[n], "wcet_cycles": worst[n]["exec"],
               "bitstream_bytes": size[n]} for n in THREAD_TASKS]
        for s in range(args.sets):
            sw = generate(rng, tasks_by_part, s)
            ts = {"clock_mhz": 100, "fri_bytes_per_cycle": rate,
                  "partitions": [{"name": p, "slots": n} for p, n in parts.items()],
                  "hw_tasks": hw, "sw_tasks": sw}
            bounds = weft_rta.analyse(ts)
            measured, errs = run_set(weftd, srv.socket, sw, args.jobs, rng)
            errors += errs
            for t, b in zip(sw, bounds["sw_tasks"]):
                for j, req in enumerate(b["requests"]):
                    m = measured[t["name"]][j]
                    rows.append({"taskset": s, "sw_task": t["name"], "hw_task": req["hw_task"],
                                 "requests": len(m), "measured_max": max(m) if m else 0,
                                 "bound": req["bound"]})
    within = sum(r["measured_max"] <= r["bound"] for r in rows)
    print("%-10s %-9s %8s %14s %14s  bound/measured" % ("sw task", "hw task", "requests",
                                                         "measured max", "bound"))
    for r in rows:
        print("%-10s %-9s %8d %14d %14.0f  %.2f%s" % (
            r["sw_task"], r["hw_task"], r["requests"], r["measured_max"], r["bound"],
            r["bound"] / r["measured_max"] if r["measured_max"] else float("nan"),
            "" if r["measured_max"] <= r["bound"] else "  EXCEEDED"))
    print("%d of %d requests' largest delay within their bound; %d errors" % (
        within, len(rows), len(errors)))
    for e in errors:
        print("  error: " + e)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"benchmark": "weftd_rta", "sets": args.sets, "jobs": args.jobs,
                   "calibration": worst, "fri_bytes_per_cycle": rate, "rows": rows,
                   "within": within, "errors": errors}, f, indent=2)
    print("written to %s" % out)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
