"""The fabric: the simulated platform and the runtime on it, DMA buffers as numpy arrays,
hardware threads, links, cycles and the trace."""
import errno
import json
import os
import tempfile
import weakref

import numpy as np

from ._errors import WeftError, check
from ._native import ffi, lib
from .hwthread import READ, WRITE, HwThread


class _Region:
    """The simulated platform, which owns the DMA region's mapping: closed when the fabric
    is closed and no array over the region is left, so an array kept past close() reads
    memory that is still there (a stale copy) rather than crashing the interpreter."""

    def __init__(self, p):
        self.p = p
        weakref.finalize(self, lib.pyweft_platform_close, p)


class DmaArray(np.ndarray):
    """A numpy array whose memory is in the fabric's DMA region: hardware threads read and
    write the same bytes, nothing is copied. bus is the bus address of its first element
    (a slice has its own). Made by Fabric.alloc(); after Fabric.free() its bytes may be
    another allocation's, as with freed memory in C; after close() it stays readable."""

    def __array_finalize__(self, obj):
        self._fabric = getattr(obj, "_fabric", None)
        self._region = getattr(obj, "_region", None)

    @property
    def bus(self):
        return self._fabric.bus(self)


class Link:
    """A hardware link (platform description) to put into a resource list."""

    def __init__(self, c):
        self._c = c

    def _resource(self):
        return lib.WEFT_RES_LINK, self._c


class Fabric:
    """The simulated fabric and the runtime on it; close() (or leaving a with block) stops
    every hardware thread still running, frees the buffers and shuts both down.

    dma_size: bytes of DMA region (0: the platform description's); image_dir: where the
    reconfiguration port may load images from (None: the images installed beside
    libweft_sim, in a build tree the build's); waves: slots whose signals are recorded
    into FST files, as WEFT_WAVES says them (docs/waves.md), which overrides it."""

    def __init__(self, dma_size=0, image_dir=None, waves=None):
        cfg = ffi.new("weft_sim_config_t *")
        cfg.dma_size = dma_size
        keep = [ffi.new("char[]", os.fsencode(image_dir)) if image_dir else ffi.NULL,
                ffi.new("char[]", waves.encode()) if waves else ffi.NULL]
        cfg.image_dir, cfg.waves = keep
        p = ffi.new("weft_platform_t **")
        check(lib.weft_sim_open(p, cfg), "weft_sim_open" + (f" (waves {waves!r})" if waves else ""))
        self._region = _Region(p[0])  # closes the platform when the last holder goes
        w = ffi.new("weft_t **")
        rc = lib.weft_init(w, self._region.p)
        if rc < 0:
            self._w = None
            check(rc, "weft_init")
        self._w = w[0]
        self._buffers = {}  # CPU address of each allocation -> its size
        self._threads = set()
        self._hwobjects = weakref.WeakSet()  # the synchronisation manager's, to end at close

    def _live(self):
        if self._w is None:
            raise WeftError(errno.EINVAL, "the fabric is closed")
        return self._w

    @property
    def num_slots(self):
        self._live()
        return lib.pyweft_num_slots(self._region.p)

    # ---- memory ------------------------------------------------------------------------
    def alloc(self, shape, dtype=np.uint8):
        """A zeroed DmaArray of that shape and dtype in the DMA region."""
        dtype = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        size = max(1, count * dtype.itemsize)
        cpu, bus = ffi.new("void **"), ffi.new("uint64_t *")
        check(lib.weft_mem_alloc(self._live(), size, cpu, bus), f"weft_mem_alloc of {size} bytes")
        addr = int(ffi.cast("uintptr_t", cpu[0]))
        self._buffers[addr] = size
        raw = np.frombuffer(ffi.buffer(cpu[0], size), dtype=np.uint8)
        raw[:] = 0
        arr = raw[:count * dtype.itemsize].view(dtype).reshape(shape).view(DmaArray)
        arr._fabric, arr._region = self, self._region
        return arr

    def free(self, arr):
        """Give back an array alloc() made (not a slice of it)."""
        addr = arr.__array_interface__["data"][0]
        if addr not in self._buffers:
            raise ValueError("not an array Fabric.alloc() made (or already freed)")
        del self._buffers[addr]
        check(lib.weft_mem_free(self._live(), ffi.cast("void *", addr)), "weft_mem_free")

    def bus(self, arr):
        """The bus address of arr's first element; ValueError outside the DMA region."""
        addr = arr.__array_interface__["data"][0]
        bus = lib.weft_mem_bus_addr(self._live(), ffi.cast("void *", addr))
        if bus == 0:
            raise ValueError("the array is not in the fabric's DMA region")
        return bus

    def _window(self, w):
        """A memory window as (bus, size, perm) from an array (read and write), (array,
        perm) or (bus, size, perm). An array must be contiguous: the window is its bytes
        and no others."""
        arr, perm = (w, READ | WRITE) if isinstance(w, np.ndarray) else (None, None)
        if arr is None and isinstance(w, tuple) and len(w) == 2 and isinstance(w[0], np.ndarray):
            arr, perm = w
        if arr is not None:
            if not arr.flags.c_contiguous:
                raise ValueError("a memory window must be a contiguous array (a strided or "
                                 "transposed view spans other memory); use a contiguous slice")
            return self.bus(arr), arr.nbytes, perm
        if len(w) == 3:
            return tuple(int(x) for x in w)
        raise TypeError(f"a memory window is an array, (array, perm) or (bus, size, perm), "
                        f"not {w!r}")

    # ---- threads and links ---------------------------------------------------------------
    def hwthread(self, image, slot=0, resources=(), init_data=0, windows=(), name=None):
        """Load image into slot and start it. resources: Weft objects, the thread's handles
        0, 1, ...; windows: the only memory it may touch (arrays, (array, perm) or (bus,
        size, perm)); init_data: what its GET_INIT_DATA answers."""
        self._live()
        t = HwThread(self, os.fspath(image), slot, resources, init_data, windows, name)
        self._threads.add(t)
        return t

    def link(self, index):
        out = ffi.new("weft_link_t **")
        check(lib.weft_link_get(self._live(), index, out), f"weft_link_get({index})")
        return Link(out[0])

    def hwsync_contexts(self):
        """Threads that can call the synchronisation manager's objects (HwSemaphore, ...)
        at once: its software contexts."""
        return lib.weft_hwsync_contexts(self._live())

    def cycles(self):
        """Fabric cycles since the fabric opened."""
        c = ffi.new("uint64_t *")
        check(lib.weft_fabric_cycles(self._live(), c), "weft_fabric_cycles")
        return c[0]

    # ---- trace ---------------------------------------------------------------------------
    def trace_start(self, max_events=1 << 20):
        check(lib.weft_trace_start_max(self._live(), max_events), "weft_trace_start")

    def trace_stop(self):
        lib.weft_trace_stop(self._live())

    def trace(self):
        """What was recorded, as the Chrome trace (docs/trace.md) parsed into a dict."""
        with tempfile.TemporaryDirectory(prefix="weft-trace-") as d:
            path = os.path.join(d, "trace.json")
            check(lib.weft_trace_write(self._live(), path.encode()), "weft_trace_write")
            with open(path) as f:
                return json.load(f)

    # ---- teardown ------------------------------------------------------------------------
    def close(self):
        """Stop every hardware thread, shut the runtime down; the platform goes once no
        DmaArray is left. The first error met is raised after everything was done."""
        if self._w is None:
            return
        error = None
        for t in list(self._threads):
            try:
                t.destroy()
            except WeftError as e:
                error = error or e
        self._buffers.clear()  # the allocator goes with the runtime
        for o in list(self._hwobjects):  # the manager's objects go with it too
            o._alive = False
        lib.weft_shutdown(self._w)
        self._w = None
        self._region = None
        if error is not None:
            raise error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # A fabric left open is closed when collected; at interpreter exit the module may
        # already be torn down, and then there is nothing left to do it with.
        if getattr(self, "_w", None) is not None:
            try:
                self.close()
            except Exception:  # noqa: BLE001 (nothing can be reported from here)
                pass
