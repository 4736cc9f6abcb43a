"""Hardware threads: a thread image loaded into a slot with its resource list, its memory
windows and its init data, joined for its exit status, stopped by destroy."""
import collections
import errno
import os
import weakref

from ._errors import WeftError, check, u32, wait
from ._native import ffi, lib

#: How a thread ended (weft_exit_kind_t).
EXIT_KINDS = {lib.WEFT_EXIT_NORMAL: "normal", lib.WEFT_EXIT_FAULTED: "faulted",
              lib.WEFT_EXIT_STOPPED: "stopped", lib.WEFT_EXIT_YIELDED: "yielded"}

#: What join answers: kind is one of EXIT_KINDS' names, value the THREAD_EXIT value (or the
#: saved state of a yield), message what happened when it faulted, mem_fault the faulting
#: access (addr, length, write) or None.
ExitStatus = collections.namedtuple("ExitStatus", "kind value message mem_fault")

#: The per-thread counters (weft_hwthread_stats_t).
Stats = collections.namedtuple("Stats", "calls link_calls busy_cycles cond_fallbacks")

#: Access rights of a memory window.
READ, WRITE = lib.WEFT_MEM_READ, lib.WEFT_MEM_WRITE


class HwThread:
    """Made by Fabric.hwthread(); holds its resources until destroyed (they cannot be
    closed before). It refers to its fabric weakly, so that a fabric dropped or collected
    stops its threads before anything they use goes."""

    def __init__(self, fabric, image, slot, resources, init_data, windows, name):
        if len(resources) > 65536:
            raise ValueError(f"at most 65536 resources, not {len(resources)}")
        if len(windows) > lib.WEFT_MAX_WINDOWS:
            raise ValueError(f"at most {lib.WEFT_MAX_WINDOWS} memory windows, not {len(windows)}")
        init_data = u32(init_data, "init_data")
        self._t = None
        self._fabric = weakref.ref(fabric)
        self._resources = []
        res = ffi.new("weft_resource_t[]", max(1, len(resources)))
        for i, obj in enumerate(resources):
            try:
                res[i].type, res[i].object = obj._resource()
            except AttributeError:
                raise TypeError(f"resource {i}: {obj!r} is not a Weft object (Semaphore, "
                                f"Mutex, Cond, Mailbox, MessageQueue or a link)") from None
        win = ffi.new("weft_mem_window_t[]", max(1, len(windows)))
        for i, w in enumerate(windows):
            win[i].bus, win[i].size, win[i].perm = fabric._window(w)
        # Messages name the thread by its image's file name unless told otherwise.
        name = name or os.path.splitext(os.path.basename(image))[0]
        keep = [ffi.new("char[]", os.fsencode(image)), ffi.new("char[]", name.encode())]
        attr = ffi.new("weft_hwthread_attr_t *")
        attr.image, attr.name = keep
        attr.slot = slot
        attr.resources, attr.num_resources = res, len(resources)
        attr.windows, attr.num_windows = win, len(windows)
        attr.init_data = init_data
        out = ffi.new("weft_hwthread_t **")
        check(lib.weft_hwthread_create(fabric._w, out, attr),
              f"weft_hwthread_create of {image} in slot {slot}")
        self._t = out[0]
        self.name, self.slot = name, slot
        self._resources = list(resources)
        for obj in self._resources:
            if hasattr(obj, "_users"):
                obj._users += 1

    def _live(self):
        if self._t is None:
            raise WeftError(errno.EINVAL, f"hardware thread {self.name} was destroyed")
        return self._t

    def join(self, timeout=None):
        """The exit status once the thread has ended; None if the timeout passed first."""
        st = ffi.new("weft_exit_status_t *")
        t = self._live()
        rc = wait(lambda ms: lib.weft_hwthread_timedjoin(t, st, ms), timeout)
        if rc == -errno.ETIMEDOUT:
            return None
        check(rc, f"join of {self.name}")
        fault = None
        if st.mem_faulted:
            fault = (st.mem_fault.addr, st.mem_fault.length, bool(st.mem_fault.write))
        return ExitStatus(EXIT_KINDS.get(st.kind, str(st.kind)), st.value,
                          ffi.string(st.message).decode(errors="replace"), fault)

    def signal(self, signals=1):
        check(lib.weft_hwthread_signal(self._live(), signals), f"signal to {self.name}")

    def stats(self):
        s = ffi.new("weft_hwthread_stats_t *")
        check(lib.weft_hwthread_stats(self._live(), s), f"stats of {self.name}")
        return Stats(s.calls, s.link_calls, s.busy_cycles, s.cond_fallbacks)

    def destroy(self):
        """Stop the thread if it still runs and free its slot."""
        if self._t is not None:
            t, self._t = self._t, None
            fabric = self._fabric()
            if fabric is not None:
                fabric._threads.discard(self)
            try:
                check(lib.weft_hwthread_destroy(t), f"destroy of {self.name}")
            finally:  # the delegate has stopped: its objects are free again
                for obj in self._resources:
                    if hasattr(obj, "_users"):
                        obj._users -= 1
                self._resources = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()
