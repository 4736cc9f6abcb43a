"""The fabric: the simulated platform and the runtime on it, DMA buffers as numpy arrays,
hardware threads, links, cycles and the trace."""
import json
import os
import tempfile

import numpy as np

from ._errors import WeftError, check
from ._native import ffi, lib
from .hwthread import READ, WRITE, HwThread


class DmaArray(np.ndarray):
    """A numpy array whose memory is in the fabric's DMA region: hardware threads read and
    write the same bytes, nothing is copied. bus is the bus address of its first element
    (a slice has its own). Made by Fabric.alloc(); valid until Fabric.free() or close(),
    after which using it is as wrong as using freed memory in C."""

    def __array_finalize__(self, obj):
        self._fabric = getattr(obj, "_fabric", None)

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
        self._p = p[0]
        w = ffi.new("weft_t **")
        rc = lib.weft_init(w, self._p)
        if rc < 0:
            lib.pyweft_platform_close(self._p)
            check(rc, "weft_init")
        self._w = w[0]
        self._buffers = {}  # CPU address of each allocation -> its size
        self._threads = set()

    def _live(self):
        if self._w is None:
            raise WeftError(22, "the fabric is closed")
        return self._w

    @property
    def num_slots(self):
        self._live()
        return lib.pyweft_num_slots(self._p)

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
        arr._fabric = self
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
        perm) or (bus, size, perm)."""
        if isinstance(w, np.ndarray):
            return self.bus(w), w.nbytes, READ | WRITE
        if len(w) == 2 and isinstance(w[0], np.ndarray):
            return self.bus(w[0]), w[0].nbytes, w[1]
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
        if self._w is None:
            return
        for t in list(self._threads):
            t.destroy()
        for addr in list(self._buffers):
            lib.weft_mem_free(self._w, ffi.cast("void *", addr))
        self._buffers.clear()
        lib.weft_shutdown(self._w)
        lib.pyweft_platform_close(self._p)
        self._w = self._p = None

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
