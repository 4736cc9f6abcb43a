#!/usr/bin/env python3
"""weftd-client-demo.py: a Python client of weftd (docs/server.md), the weftd package only.

Each round it submits a request for every Weft-thread task the server offers and for the
vecsum accelerator (numpy arrays over a buffer the hardware fills in place), collects the
results as they end by polling the connection, and checks each against a reference
computed here. Exit 0 when all matched.

usage: weftd_client_demo.py [--socket PATH] [--rounds N] [--quiet]
"""
import argparse
import select
import sys

import numpy as np

import weftd

M32 = 0xFFFFFFFF


def sumsq(n):
    return sum(i * i for i in range(1, n + 1)) & M32


def collatz(n):
    steps = 0
    while n > 1:
        n = (n * 3 + 1) & M32 if n & 1 else n >> 1
        steps += 1
    return steps


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) & M32
    return a


def popsum(n):
    return sum(bin(i).count("1") for i in range(n)) & M32


def xorshift(n):
    x = 0x9E3779B9
    for _ in range(n):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
    return x


REFERENCES = {"sumsq": sumsq, "collatz": collatz, "fib": fib, "popsum": popsum,
              "xorshift": xorshift}
WORDS = 1024  # vecsum's a, b, c at word offsets 0, 1024, 2048 of one buffer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--socket")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if not 1 <= args.rounds <= 1000:
        ap.error("rounds 1..1000")
    try:
        client = weftd.Client(args.socket)
    except weftd.WeftdError as e:
        print("weftd_client_demo.py: %s" % e.strerror, file=sys.stderr)
        return 1
    good = total = 0
    with client as c:
        threads = [t for t in c.tasks() if not t.accelerator and t.name in REFERENCES]
        has_vecsum = any(t.name == "vecsum" for t in c.tasks())
        buf = c.alloc(3 * 4 * WORDS) if has_vecsum else None
        words = np.frombuffer(buf.view, dtype=np.uint32) if buf else None
        print("weftd_client_demo.py: %d thread tasks%s x %d rounds"
              % (len(threads), " and vecsum" if buf else "", args.rounds))
        rng = np.random.default_rng(7)
        for k in range(args.rounds):
            want = {}
            for t in threads:
                n = 200 + 41 * k + 11 * t.id
                want[c.submit(t.id, n)] = (t.name, REFERENCES[t.name](n))
            if buf:
                n = 64 + 32 * k
                words[:2 * WORDS] = rng.integers(0, 1 << 32, 2 * WORDS, dtype=np.uint32)
                words[2 * WORDS:] = 0
                ref = words[:n] + words[WORDS:WORDS + n]  # uint32: wraps as the hardware does
                req = c.submit("vecsum", (buf, 0), (buf, 4 * WORDS), (buf, 8 * WORDS), n)
                want[req] = ("vecsum", ref)
            while want:
                select.select([c], [], [])
                while (got := c.next()) is not None:
                    req, r = got
                    name, ref = want.pop(req)
                    if name == "vecsum":
                        ok = r.status == 0 and np.array_equal(words[2 * WORDS:2 * WORDS + len(ref)], ref)
                    else:
                        ok = r.status == 0 and r.exit_value == ref
                    good += ok
                    total += 1
                    if not args.quiet or not ok:
                        print("  %-8s slot %d %s exec %6d cycles -> %s" % (
                            name, r.slot, "programmed" if r.reconfigured else "reused    ",
                            r.exec_cycles, "ok" if ok else "FAILED (status %d)" % r.status))
        if buf:
            del words
            c.free(buf)
    print("%s: %d of %d results matched their reference" % ("ok" if good == total else "FAILED",
                                                            good, total))
    return 0 if good == total else 1


if __name__ == "__main__":
    sys.exit(main())
