#!/usr/bin/env python3
"""weft-rta: response-time bounds of software tasks that request hardware tasks through
weftd (docs/rta.md; the FRED seed's analysis, derived for Weft's scheduler).

usage: weft_rta.py TASKSET.json [--json OUT]

A task set (JSON):

    {"clock_mhz": 100, "fri_bytes_per_cycle": 1.2,
     "partitions": [{"name": "big", "slots": 2}, {"name": "small", "slots": 2}],
     "hw_tasks": [{"name": "fir", "partition": "small", "wcet_cycles": 4000,
                   "bitstream_bytes": 346112}, ...],
     "sw_tasks": [{"name": "t1", "period_us": 20000, "deadline_us": 20000, "priority": 1,
                   "segments_us": [50, 20], "requests": ["fir"]}, ...]}

priority 1 is the highest; a software task runs segments_us[0], requests requests[0] and
suspends until it ends, runs segments_us[1], and so on (one segment more than requests).
It prints, per hardware request, the bound of its delay (slot, reconfiguration port,
programming, execution) and, per software task, the bound of its response time; with
--json it writes them too. Exit 0 when every task meets its deadline, 1 when one may not,
2 when the task set is malformed (the message names what).
"""
import argparse
import json
import math
import sys


class TaskSetError(ValueError):
    """The task set is malformed: the text names what."""


def _need(obj, key, kind, where):
    if key not in obj:
        raise TaskSetError("%s: no %r" % (where, key))
    v = obj[key]
    if kind is float and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if not isinstance(v, kind) or isinstance(v, bool):
        raise TaskSetError("%s: %r is not %s" % (where, key, kind.__name__))
    return v


def load(ts):
    """Check a task set (parsed JSON) and return it normalised: times in cycles."""
    if not isinstance(ts, dict):
        raise TaskSetError("the task set is not a JSON object")
    mhz = _need(ts, "clock_mhz", float, "task set")
    rate = _need(ts, "fri_bytes_per_cycle", float, "task set")
    if mhz <= 0 or rate <= 0:
        raise TaskSetError("task set: clock_mhz and fri_bytes_per_cycle must be positive")
    parts = {}
    for i, p in enumerate(_need(ts, "partitions", list, "task set")):
        where = "partitions[%d]" % i
        name = _need(p, "name", str, where)
        slots = _need(p, "slots", int, where)
        if slots < 1 or name in parts:
            raise TaskSetError("%s: no slots, or a second partition %r" % (where, name))
        parts[name] = slots
    hw = {}
    for i, h in enumerate(_need(ts, "hw_tasks", list, "task set")):
        where = "hw_tasks[%d]" % i
        name = _need(h, "name", str, where)
        part = _need(h, "partition", str, where)
        wcet = _need(h, "wcet_cycles", int, where)
        size = _need(h, "bitstream_bytes", int, where)
        if part not in parts:
            raise TaskSetError("%s (%s): no partition %r" % (where, name, part))
        if wcet < 0 or size < 0 or name in hw:
            raise TaskSetError("%s (%s): negative, or a second task of that name" % (where, name))
        hw[name] = {"partition": part, "wcet": wcet, "reconf": math.ceil(size / rate)}
    sw = []
    for i, t in enumerate(_need(ts, "sw_tasks", list, "task set")):
        where = "sw_tasks[%d]" % i
        name = _need(t, "name", str, where)
        period = _need(t, "period_us", float, where)
        deadline = _need(t, "deadline_us", float, where)
        prio = _need(t, "priority", int, where)
        segs = _need(t, "segments_us", list, where)
        reqs = _need(t, "requests", list, where)
        if period <= 0 or not 0 < deadline <= period:
            raise TaskSetError("%s (%s): want 0 < deadline_us <= period_us" % (where, name))
        if len(segs) != len(reqs) + 1 or any(
                not isinstance(s, (int, float)) or s < 0 for s in segs):
            raise TaskSetError("%s (%s): segments_us must be %d times >= 0 (one more than "
                               "requests)" % (where, name, len(reqs) + 1))
        for r in reqs:
            if r not in hw:
                raise TaskSetError("%s (%s): no hardware task %r" % (where, name, r))
        sw.append({"name": name, "T": period * mhz, "D": deadline * mhz, "prio": prio,
                   "C": sum(segs) * mhz, "requests": list(reqs)})
    if len({t["prio"] for t in sw}) != len(sw):
        raise TaskSetError("sw_tasks: two tasks with one priority")
    return {"mhz": mhz, "partitions": parts, "hw": hw, "sw": sw}


def request_bounds(m):
    """The delay bound of each software task's hardware requests, in cycles.

    For task i's request of hardware task h in partition p (docs/rta.md):
      B_i   = sum over the other tasks k of Rmax_k     (waiting for the port)
      W_i,p = sum over the other tasks k that use p of (B_k + Hmax_k,p) / N_p  (for a slot)
      S     = W_i,p + B_i + R_h + C_h
    where Rmax_k is the longest programming among k's requests and Hmax_k,p the longest
    programming plus execution among k's requests on p.
    """
    hw, sw = m["hw"], m["sw"]
    rmax = [max((hw[h]["reconf"] for h in t["requests"]), default=0) for t in sw]
    total_r = sum(rmax)
    port = [total_r - rmax[i] for i in range(len(sw))]
    out = []
    for i, t in enumerate(sw):
        bounds = []
        for h in t["requests"]:
            p = hw[h]["partition"]
            held = 0
            for k, o in enumerate(sw):
                hk = [hw[x]["reconf"] + hw[x]["wcet"] for x in o["requests"]
                      if hw[x]["partition"] == p]
                if k != i and hk:
                    held += port[k] + max(hk)
            slot = held / m["partitions"][p]
            bounds.append({"hw_task": h, "partition": p, "slot_wait": slot,
                           "port_wait": port[i], "reconf": hw[h]["reconf"],
                           "exec": hw[h]["wcet"],
                           "bound": slot + port[i] + hw[h]["reconf"] + hw[h]["wcet"]})
        out.append(bounds)
    return out


def response_times(m, req):
    """Fixed-priority response-time bounds of the software tasks, in cycles, treating each
    task's suspensions as jitter of its interference (docs/rta.md):
      R_i = C_i + S_i + sum over higher-priority k of ceil((R_i + J_k) / T_k) * C_k,
      J_k = R_k - C_k.
    None where the iteration passes the deadline."""
    sw = m["sw"]
    order = sorted(range(len(sw)), key=lambda i: sw[i]["prio"])
    resp = [None] * len(sw)
    for pos, i in enumerate(order):
        t = sw[i]
        susp = sum(r["bound"] for r in req[i])
        hp = order[:pos]
        if any(resp[k] is None for k in hp):
            continue  # a higher-priority task has no bound: neither has this one
        r = t["C"] + susp
        while r <= t["D"]:
            nxt = t["C"] + susp + sum(
                math.ceil((r + resp[k] - sw[k]["C"]) / sw[k]["T"]) * sw[k]["C"] for k in hp)
            if nxt == r:
                resp[i] = r
                break
            r = nxt
    return resp


def analyse(ts):
    """The whole analysis of a task set (parsed JSON): a dict for --json."""
    m = load(ts)
    req = request_bounds(m)
    resp = response_times(m, req)
    mhz = m["mhz"]
    tasks = []
    for i, t in enumerate(m["sw"]):
        tasks.append({
            "name": t["name"], "priority": t["prio"],
            "deadline_us": t["D"] / mhz,
            "response_bound_us": None if resp[i] is None else resp[i] / mhz,
            "schedulable": resp[i] is not None,
            "requests": [dict(r, bound_us=r["bound"] / mhz) for r in req[i]]})
    return {"clock_mhz": mhz, "schedulable": all(t["schedulable"] for t in tasks),
            "sw_tasks": tasks}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("taskset", help="the task set, JSON")
    ap.add_argument("--json", help="write the bounds here as JSON")
    args = ap.parse_args(argv)
    try:
        with open(args.taskset) as f:
            ts = json.load(f)
        res = analyse(ts)
    except (OSError, json.JSONDecodeError, TaskSetError) as e:
        print("weft-rta: %s: %s" % (args.taskset, e), file=sys.stderr)
        return 2
    for t in res["sw_tasks"]:
        bound = ("%.1f us" % t["response_bound_us"] if t["schedulable"]
                 else "none within its deadline")
        print("%-12s prio %3d  deadline %10.1f us  response bound %s"
              % (t["name"], t["priority"], t["deadline_us"], bound))
        for r in t["requests"]:
            print("    %-10s (%s) delay <= %10.1f us = slot %.0f + port %.0f + programming "
                  "%.0f + execution %.0f cycles" % (r["hw_task"], r["partition"], r["bound_us"],
                                                   r["slot_wait"], r["port_wait"], r["reconf"],
                                                   r["exec"]))
    print("schedulable" if res["schedulable"] else "NOT schedulable: a task may miss its deadline")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)
    return 0 if res["schedulable"] else 1


if __name__ == "__main__":
    sys.exit(main())
