#!/usr/bin/env python3
"""Sort blocks of numbers in hardware from Python and plot them (docs/python.md).

A notebook-style script: each "# %%" cell runs on its own in an editor that knows them
(VS Code, Spyder, Jupyter's jupytext). Two hwt_sort threads, one per slot, take block
descriptors from one mailbox (a mutex keeps each descriptor's two words together), sort
the blocks in place in a numpy array that lives in the DMA region, and post a semaphore
per block. The script checks every block against numpy's sort and plots one block before
and after and the blocks each slot sorted.

usage: sort_plot.py [--build DIR] [--blocks N] [--words N] [--plot PNG]
"""
# %% Set-up: the package from the build tree
import argparse
import atexit
import pathlib
import sys

import numpy as np

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--build", default="build", help="the build directory (default: build)")
ap.add_argument("--blocks", type=int, default=16)
ap.add_argument("--words", type=int, default=256, help="words per block, 1 to 2048 (hwt_sort's RAM)")
ap.add_argument("--plot", default=None, help="PNG to write (default: BUILD/sort_plot.png)")
args = ap.parse_args()
if not 1 <= args.words <= 2048 or args.blocks < 1:
    ap.error("--words must be 1 to 2048 and --blocks at least 1")
build = pathlib.Path(args.build).resolve()
sys.path.insert(0, str(build / "python"))
import weft  # noqa: E402  (found through --build)

# %% The fabric, the data and the objects the threads share (closed at exit, however the
# script ends)
fab = weft.Fabric()
atexit.register(fab.close)
data = fab.alloc((args.blocks, args.words), np.uint32)
data[:] = np.random.default_rng(2026).integers(0, 2**32, data.shape, dtype=np.uint32)
before = np.array(data)  # a copy in ordinary memory, for the plot and the check
jobs, done, lock = weft.Mailbox(2 * args.blocks + 4), weft.Semaphore(), weft.Mutex()

# %% Two sort threads, one per slot: handles 0, 1, 2 are the mailbox, semaphore, mutex
threads = [fab.hwthread(build / "images" / "hwt_sort.so", slot=s, resources=[jobs, done, lock],
                        init_data=0 | 1 << 8 | 2 << 16, windows=[data]) for s in (0, 1)]
start = fab.cycles()
for row in data:  # a descriptor: the block's bus address, then its length in bytes
    jobs.put(row.bus)
    jobs.put(row.nbytes)
for _ in range(args.blocks):
    if not done.wait(timeout=60):
        sys.exit("sort_plot: a block was not sorted within 60 s")
cycles = fab.cycles() - start
for _ in threads:  # address 0: the thread exits with the number of blocks it sorted
    jobs.put(0)
    jobs.put(0)
statuses = [t.join(timeout=60) for t in threads]
if None in statuses or any(st.kind != "normal" for st in statuses):
    sys.exit(f"sort_plot: the sort threads did not end normally: {statuses}")
per_slot = [st.value for st in statuses]

# %% Check against numpy, then plot
ok = np.array_equal(data, np.sort(before, axis=1))
print(f"sort_plot: {args.blocks} blocks of {args.words} words in {cycles} fabric cycles, "
      f"slot 0 sorted {per_slot[0]}, slot 1 {per_slot[1]}; "
      f"{'equal to numpy' if ok else 'NOT equal to numpy'}")

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.plot(before[0], ".", ms=3, label="before")
left.plot(data[0], "-", label="after (hwt_sort)")
left.set(title="block 0", xlabel="index", ylabel="value")
left.legend()
right.bar(["slot 0", "slot 1"], per_slot)
right.set(title="blocks sorted per slot", ylabel="blocks")
fig.tight_layout()
out = pathlib.Path(args.plot) if args.plot else build / "sort_plot.png"
fig.savefig(out)
print(f"sort_plot: plot in {out}")
sys.exit(0 if ok and sum(per_slot) == args.blocks else 1)
