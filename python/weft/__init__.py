"""Weft from Python: the simulated fabric, DMA buffers that are numpy arrays, the objects
threads share, hardware threads and the trace (docs/python.md).

    import numpy as np, weft
    with weft.Fabric() as fab:
        data = fab.alloc(1024, np.uint32)          # in the DMA region, no copy
        jobs, done = weft.Mailbox(), weft.Semaphore()
        t = fab.hwthread("build/images/hwt_sort.so", slot=0,
                         resources=[jobs, done, weft.Mutex()], init_data=0x020100,
                         windows=[data])
        ...
        print(t.join())

The bindings are cffi's API mode over Weft's headers (weft._native); every call that
fails raises WeftError with its errno and what failed. Calls that block (joins, waits)
release the GIL, so the fabric and other Python threads run on.
"""
from ._errors import WeftError
from .fabric import DmaArray, Fabric, Link
from .hwthread import READ, WRITE, ExitStatus, HwThread, Stats
from .objects import Cond, HwCond, HwMutex, HwSemaphore, Mailbox, MessageQueue, Mutex, Semaphore

__all__ = ["Cond", "DmaArray", "ExitStatus", "Fabric", "HwCond", "HwMutex", "HwSemaphore",
           "HwThread", "Link", "Mailbox", "MessageQueue", "Mutex", "READ", "Semaphore", "Stats",
           "WRITE", "WeftError"]
