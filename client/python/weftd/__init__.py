"""weftd from Python: the same client as libweftd_client, over ctypes (docs/server.md).

    import numpy as np, weftd
    with weftd.Client() as c:
        buf = c.alloc(4096)                       # mapped here; the hardware works in place
        x = np.frombuffer(buf.view, dtype=np.uint32)
        r = c.run("sumsq", 1000)                  # a Weft thread: one value
        r = c.run("vecsum", (buf, 0), (buf, 1024), (buf, 2048), 256)   # an accelerator

A connection is for one thread at a time. Every failure the server answers raises
WeftdError, an OSError whose errno is the server's and whose text names what was wrong.

The wrapper is ctypes over libweftd_client.so (from $WEFTD_CLIENT_LIB, else beside this
package): one implementation of the wire protocol for C and Python, no compiler needed to
install it.
"""
import ctypes
import errno
import os
from collections import namedtuple

__all__ = ["Client", "Buffer", "Result", "Server", "Task", "WeftdError"]

MAX_ARGS = 6
_VALUE, _BUFFER = 0, 1

Task = namedtuple("Task", "id name partition accelerator")
Result = namedtuple(
    "Result", "status exit_value slot reconfigured wait_cycles reconf_cycles exec_cycles")
Result.__doc__ = ("How a request ended: status 0, or a negative errno "
                  "(-ETIMEDOUT: stopped by the watchdog; -ECANCELED; -EIO; -EFAULT)")


class WeftdError(OSError):
    """The server refused a call (errno and its text), or the connection failed."""


class _Task(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint16), ("partition", ctypes.c_uint8),
                ("accelerator", ctypes.c_uint8), ("name", ctypes.c_char * 32)]


class _Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint8), ("buffer", ctypes.c_uint32), ("value", ctypes.c_uint64)]


class _Buffer(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


class _Result(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("exit_value", ctypes.c_uint32),
                ("slot", ctypes.c_uint), ("reconfigured", ctypes.c_int),
                ("wait_cycles", ctypes.c_uint64), ("reconf_cycles", ctypes.c_uint64),
                ("exec_cycles", ctypes.c_uint64)]


def _load():
    path = os.environ.get("WEFTD_CLIENT_LIB") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "libweftd_client.so")
    lib = ctypes.CDLL(path, use_errno=True)
    p, i, u, u32, sz = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint32, ctypes.c_size_t
    sigs = {
        "weftd_connect": (i, [ctypes.c_char_p, ctypes.POINTER(p), ctypes.c_char_p, sz]),
        "weftd_disconnect": (None, [p]),
        "weftd_last_error": (ctypes.c_char_p, [p]),
        "weftd_tasks": (i, [p, ctypes.POINTER(_Task), u]),
        "weftd_alloc": (i, [p, sz, ctypes.POINTER(_Buffer)]),
        "weftd_free": (i, [p, ctypes.POINTER(_Buffer)]),
        "weftd_submit": (i, [p, u, ctypes.POINTER(_Arg), u, ctypes.POINTER(u32)]),
        "weftd_cancel": (i, [p, u32]),
        "weftd_wait": (i, [p, u32, i, ctypes.POINTER(_Result)]),
        "weftd_next": (i, [p, ctypes.POINTER(u32), ctypes.POINTER(_Result)]),
        "weftd_fd": (i, [p]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


_lib = None


def _result(r):
    return Result(r.status, r.exit_value, r.slot, bool(r.reconfigured), r.wait_cycles,
                  r.reconf_cycles, r.exec_cycles)


class Buffer:
    """A buffer in the fabric's DMA region, mapped into this process.

    view is a writable memoryview of its bytes (numpy.frombuffer(buf.view, dtype) gives an
    array over the same pages). Pass the buffer, or (buffer, offset), as a request's
    argument: the server puts its bus address there."""

    def __init__(self, client, raw):
        self._client, self._raw = client, raw
        self.id, self.size = raw.id, raw.size
        self.view = memoryview((ctypes.c_ubyte * raw.size).from_address(raw.data)).cast("B")

    def free(self):
        self._client.free(self)

    def _unmapped(self):
        # The pages are gone: no access through view from now on. An array still made
        # over it (an export) keeps the view alive; using it would fault, as in C.
        try:
            self.view.release()
        except BufferError:
            pass


class Client:
    """A connection to weftd. socket: its path (None: $WEFTD_SOCKET, else the default)."""

    def __init__(self, socket=None):
        global _lib
        if _lib is None:
            _lib = _load()
        self._c = ctypes.c_void_p()
        why = ctypes.create_string_buffer(256)
        rc = _lib.weftd_connect(socket.encode() if socket else None, ctypes.byref(self._c), why,
                                len(why))
        if rc:
            raise WeftdError(-rc, why.value.decode(errors="replace") or os.strerror(-rc))
        self._tasks = None
        self._buffers = {}

    def _check(self, rc):
        if rc < 0:
            text = _lib.weftd_last_error(self._c).decode(errors="replace")
            raise WeftdError(-rc, text or os.strerror(-rc))
        return rc

    def close(self):
        """Disconnect: the server aborts what has not ended and frees the buffers."""
        if self._c:
            for b in self._buffers.values():
                b._unmapped()
            self._buffers.clear()
            _lib.weftd_disconnect(self._c)
            self._c = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def tasks(self):
        """The tasks the server offers."""
        arr = (_Task * 64)()
        n = self._check(_lib.weftd_tasks(self._c, arr, 64))
        self._tasks = [Task(t.id, t.name.decode(), t.partition, bool(t.accelerator))
                       for t in arr[:n]]
        return list(self._tasks)

    def task_id(self, task):
        """A task's id from its name (or the id itself)."""
        if isinstance(task, int):
            return task
        for t in self._tasks or self.tasks():
            if t.name == task:
                return t.id
        raise WeftdError(errno.ENOENT, "the server offers no task named %r" % task)

    def alloc(self, size):
        """A buffer of at least size bytes (whole pages), zeroed, mapped here."""
        raw = _Buffer()
        self._check(_lib.weftd_alloc(self._c, size, ctypes.byref(raw)))
        b = Buffer(self, raw)
        self._buffers[b.id] = b
        return b

    def free(self, buf):
        """Give a buffer back (refused while a request not done names it)."""
        self._check(_lib.weftd_free(self._c, ctypes.byref(buf._raw)))
        buf._unmapped()
        self._buffers.pop(buf.id, None)

    @staticmethod
    def _args(args):
        if len(args) > MAX_ARGS:
            raise WeftdError(errno.EINVAL, "at most %d arguments" % MAX_ARGS)
        arr = (_Arg * MAX_ARGS)()
        for k, a in enumerate(args):
            if isinstance(a, Buffer):
                a = (a, 0)
            if isinstance(a, tuple):
                arr[k] = _Arg(_BUFFER, a[0].id, a[1])
            else:
                arr[k] = _Arg(_VALUE, 0, int(a))
        return arr

    def submit(self, task, *args):
        """Submit a request; returns its number (for wait, cancel, next)."""
        req = ctypes.c_uint32()
        self._check(_lib.weftd_submit(self._c, self.task_id(task), self._args(args), len(args),
                                      ctypes.byref(req)))
        return req.value

    def wait(self, req, timeout=None):
        """Wait for request req to end (timeout in seconds, None: no limit)."""
        r = _Result()
        ms = -1 if timeout is None else int(timeout * 1000)
        self._check(_lib.weftd_wait(self._c, req, ms, ctypes.byref(r)))
        return _result(r)

    def next(self):
        """(req, Result) of a request that has ended, or None without waiting."""
        req, r = ctypes.c_uint32(), _Result()
        rc = _lib.weftd_next(self._c, ctypes.byref(req), ctypes.byref(r))
        if rc == -errno.EAGAIN:
            return None
        self._check(rc)
        return req.value, _result(r)

    def cancel(self, req):
        """Take back a request that has not started (its result says -ECANCELED)."""
        self._check(_lib.weftd_cancel(self._c, req))

    def fileno(self):
        """Polls readable when next() may have a result (select, poll, asyncio)."""
        return _lib.weftd_fd(self._c)

    def run(self, task, *args):
        """Submit and wait."""
        return self.wait(self.submit(task, *args))


class Server:
    """A weftd process of one's own, for a program or a test: started with a configuration
    on a socket in a fresh directory, stopped (SIGTERM) on leaving the with-block.

        with weftd.Server("build/server/weftd", "build/server/weftd-example.json") as srv:
            with weftd.Client(srv.socket) as c: ...

    extra: more arguments for weftd (["--fred-socket", path]). The server's log goes to
    stderr; its start line is in .banner, its closing lines in .closing after the block."""

    def __init__(self, binary, config, extra=()):
        self._cmd = [binary, "--config", config] + list(extra)
        self.socket = self.banner = self.closing = None

    def __enter__(self):
        import subprocess
        import tempfile
        self._dir = tempfile.TemporaryDirectory(prefix="weftd-")
        self.socket = os.path.join(self._dir.name, "weftd.sock")
        self._proc = subprocess.Popen(self._cmd + ["--socket", self.socket],
                                      stdout=subprocess.PIPE, text=True)
        self.banner = self._proc.stdout.readline()  # printed once it listens
        if not self.banner.startswith("weftd: serving"):
            self._proc.wait()
            self._dir.cleanup()
            raise WeftdError(errno.ECHILD, "weftd did not start (exit %s)" % self._proc.returncode)
        return self

    def __exit__(self, *exc):
        self._proc.terminate()
        self.closing = self._proc.communicate(timeout=60)[0]
        self._dir.cleanup()
        if self._proc.returncode != 0 and exc[0] is None:
            raise WeftdError(errno.ECHILD, "weftd exited with %d" % self._proc.returncode)
