#!/usr/bin/env python3
"""Where a co-simulation's time goes, by model and by RTL module.

Reads a `perf record` of a program that ran on the simulated fabric, built with
-DWEFT_VERILATOR_PROFILE=ON (cmake/WeftRtl.cmake): Verilator's --prof-cfuncs then puts
each always block and assignment of the RTL into a C++ function of its own, named
`..._PROF__<module>__l<line>`. perf attributes every sample to a source line of the
generated C++ (inlined or not); this tool finds the function around that line and so the
RTL module, and prints the samples' shares:

  model       the shared object or program the sample fell in (a thread image, the
              program with the static region and the backend, the kernel, ...)
  block       the RTL module for Verilated code; "scheduling" for Verilator's own
              evaluation loop (triggers, eval steps); otherwise the C++ source file
              (fabric.cpp, slot_workers.cpp, ...)

Usage: tools/sim_profile.py perf.data [--top N]

The shares are those of the profiling build, whose models run about 1.8 times slower
than the normal build's (more, smaller functions); they say where the time goes, not how
much there is (docs/benchmarks.md).
"""

import argparse
import bisect
import collections
import re
import subprocess
import sys

SAMPLE_RE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+(.*)$")
FUNC_RE = re.compile(r"^(?:VL_INLINE_OPT |VL_ATTR_COLD )?\w[\w:<>, *&]*?\s+(\w+)\(")
PROF_RE = re.compile(r"__PROF__(\w+?)__l\d+$")


class GeneratedFile:
    """The functions of one Verilator-generated C++ file, by first line."""

    def __init__(self, path):
        self.starts, self.names = [], []
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = FUNC_RE.match(line)
                    if m:
                        self.starts.append(number)
                        self.names.append(m.group(1))
        except OSError:
            pass

    def function_at(self, line):
        i = bisect.bisect_right(self.starts, line) - 1
        return self.names[i] if i >= 0 else None


def block_of(source, generated):
    """The RTL module (or C++ file) a sample's source line belongs to."""
    path, _, line = source.rpartition(":")
    if not path or not line.isdigit():
        return source.split("+")[0]  # a kernel symbol or an unresolved address
    name = path.rsplit("/", 1)[-1]
    if not re.match(r"V\w+\.(cpp|h)$", name) or "/verilator/" in path:
        return name
    if path not in generated:
        generated[path] = GeneratedFile(path)
    func = generated[path].function_at(int(line))
    m = PROF_RE.search(func or "")
    return m.group(1) if m else "scheduling"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("perf_data", help="a perf.data file")
    ap.add_argument("--top", type=int, default=12, help="blocks listed per model (default 12)")
    args = ap.parse_args()

    cmd = ["perf", "report", "-i", args.perf_data, "--no-children", "--stdio",
           "--sort", "dso,srcline", "-F", "overhead,dso,srcline", "--full-source-path"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"sim_profile: perf report failed: {e}")

    generated = {}
    by_model = collections.Counter()
    by_block = collections.defaultdict(collections.Counter)
    for line in out.splitlines():
        m = SAMPLE_RE.match(line)
        if not m:
            continue
        share, model, source = float(m.group(1)), m.group(2), m.group(3).strip()
        by_model[model] += share
        by_block[model][block_of(source, generated)] += share
    if not by_model:
        sys.exit(f"sim_profile: no samples in {args.perf_data}")

    for model, share in by_model.most_common():
        if share < 0.5:
            continue
        print(f"{share:6.1f}%  {model}")
        for block, s in by_block[model].most_common(args.top):
            if s >= 0.5:
                print(f"        {s:6.1f}%  {block}")


if __name__ == "__main__":
    main()
