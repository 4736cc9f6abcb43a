"""The objects threads share: semaphores, mutexes, condition variables, mailboxes and
message queues, each the C object a software thread uses (sem_t, pthread_mutex_t, ...), so
a hardware thread given one in its resource list (HwThread) and Python share the same
object; and the synchronisation manager's semaphores, mutexes and condition variables
(HwSemaphore, HwMutex, HwCond: objects in the fabric, docs/hw-services.md). Timeouts are
in seconds; None waits for ever (in slices, so Ctrl-C still works)."""
import errno
import itertools
import os

from ._errors import WeftError, check, u32, wait
from ._native import ffi, lib

_mq_names = itertools.count()


def _timed(call, timeout, what):
    """A blocking call in slices (call(ms) -> rc): True once it succeeds, False when the
    timeout passed first; WeftError for any other answer."""
    rc = wait(call, timeout)
    if rc == -errno.ETIMEDOUT:
        return False
    check(rc, what)
    return True


class _Object:
    """What a resource list needs of an object, and its lifetime: while a hardware thread
    holds it (users > 0) it cannot be closed, since the thread's delegate may be waiting
    in it; a collected object still held is left alone rather than destroyed."""

    _res_type = None

    def __init__(self, ctype):
        self._c = ffi.new(ctype)
        self._alive = False
        self._users = 0

    def _resource(self):
        if not self._alive:
            raise WeftError(errno.EINVAL, f"{type(self).__name__} is closed")
        return self._res_type, self._c

    def close(self):
        """Destroy the C object; WeftError EBUSY while a hardware thread holds it."""
        if not self._alive:
            return
        if self._users:
            raise WeftError(errno.EBUSY, f"{type(self).__name__} is held by {self._users} "
                                         f"hardware thread(s); destroy them first")
        self._alive = False
        self._destroy()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_alive", False) and not self._users:
            self.close()


class _HeldInBlock:
    """A lock that, as a context manager, is held for the block (listed before _Object,
    whose own context manager closes the object)."""

    def __enter__(self):
        self.lock()
        return self

    def __exit__(self, *exc):
        self.unlock()


class Semaphore(_Object):
    """A POSIX counting semaphore (sem_t)."""

    _res_type = lib.WEFT_RES_SEM

    def __init__(self, value=0):
        super().__init__("sem_t *")
        check(lib.pyweft_sem_init(self._c, u32(value, "a semaphore's value")), "sem_init")
        self._alive = True

    def post(self):
        check(lib.pyweft_sem_post(self._c), "sem_post")

    def wait(self, timeout=None):
        """Take one count; False if the timeout passed first."""
        return _timed(lambda ms: lib.weft_slice_sem_wait(self._c, ms), timeout, "sem_wait")

    @property
    def value(self):
        return check(lib.pyweft_sem_value(self._c), "sem_getvalue")

    def _destroy(self):
        check(lib.pyweft_sem_destroy(self._c), "sem_destroy")


class Mutex(_HeldInBlock, _Object):
    """A pthread mutex (default kind). As a context manager it is held for the block."""

    _res_type = lib.WEFT_RES_MUTEX

    def __init__(self):
        super().__init__("pthread_mutex_t *")
        check(lib.pyweft_mutex_init(self._c), "pthread_mutex_init")
        self._alive = True

    def lock(self, timeout=None):
        """False if the timeout passed first."""
        return _timed(lambda ms: lib.weft_slice_mutex_lock(self._c, ms),
                      timeout, "pthread_mutex_lock")

    def unlock(self):
        check(lib.pyweft_mutex_unlock(self._c), "pthread_mutex_unlock")

    def _destroy(self):
        check(lib.pyweft_mutex_destroy(self._c), "pthread_mutex_destroy")


class Cond(_Object):
    """A pthread condition variable, waited on with a Mutex held."""

    _res_type = lib.WEFT_RES_COND

    def __init__(self):
        super().__init__("pthread_cond_t *")
        check(lib.pyweft_cond_init(self._c), "pthread_cond_init")
        self._alive = True

    def signal(self):
        check(lib.pyweft_cond_signal(self._c, 0), "pthread_cond_signal")

    def broadcast(self):
        check(lib.pyweft_cond_signal(self._c, 1), "pthread_cond_broadcast")

    def wait(self, mutex, timeout=None):
        """mutex must be held; it is held again on return. False if the timeout passed.
        A wake-up may be spurious, as with any condition wait: check the condition."""
        return _timed(lambda ms: lib.weft_slice_cond_wait(self._c, mutex._c, ms),
                      timeout, "pthread_cond_wait")

    def _destroy(self):
        check(lib.pyweft_cond_destroy(self._c), "pthread_cond_destroy")


class Mailbox(_Object):
    """A Weft mailbox of 32-bit words (weft_mbox_t)."""

    _res_type = lib.WEFT_RES_MBOX

    def __init__(self, capacity=16):
        super().__init__("weft_mbox_t *")
        check(lib.weft_mbox_init(self._c, u32(capacity, "a mailbox's capacity")),
              "weft_mbox_init")
        self._alive = True

    def put(self, word, timeout=None):
        """False if the timeout passed while the mailbox was full."""
        word = u32(word, "a mailbox word")
        return _timed(lambda ms: lib.weft_mbox_timedput(self._c, word, ms),
                      timeout, "weft_mbox_put")

    def get(self, timeout=None):
        """The next word; None if the timeout passed while the mailbox was empty."""
        word = ffi.new("uint32_t *")
        rc = wait(lambda ms: lib.weft_mbox_timedget(self._c, word, ms), timeout)
        if rc == -errno.ETIMEDOUT:
            return None
        check(rc, "weft_mbox_get")
        return word[0]

    def _destroy(self):
        check(lib.weft_mbox_destroy(self._c), "weft_mbox_destroy")


class MessageQueue(_Object):
    """A POSIX message queue of this process (a fresh name, unlinked at close); a hardware
    thread sends and receives whole messages on it (docs/calls.md)."""

    _res_type = lib.WEFT_RES_MQ

    def __init__(self, maxmsg=8, msgsize=64):
        super().__init__("mqd_t *")
        self.msgsize = msgsize
        self._name = f"/weft-py-{os.getpid()}-{next(_mq_names)}".encode()
        check(lib.pyweft_mq_open(self._name, maxmsg, msgsize, self._c),
              f"mq_open (maxmsg {maxmsg}, msgsize {msgsize})")
        self._alive = True

    def send(self, data, priority=0, timeout=None):
        """False if the timeout passed while the queue was full."""
        data = bytes(data)
        q = self._c[0]
        rc = wait(lambda ms: lib.weft_slice_mq_send(q, data, len(data), priority, ms), timeout)
        if rc == -errno.ETIMEDOUT:
            return False
        check(rc, f"mq_send of {len(data)} bytes")
        return True

    def receive(self, timeout=None):
        """(bytes, priority); None if the timeout passed while the queue was empty."""
        buf = ffi.new("char[]", self.msgsize)
        prio, n = ffi.new("unsigned *"), ffi.new("size_t *")
        q = self._c[0]
        rc = wait(lambda ms: lib.weft_slice_mq_receive(q, buf, self.msgsize, prio, n, ms), timeout)
        if rc == -errno.ETIMEDOUT:
            return None
        check(rc, "mq_receive")
        return ffi.unpack(buf, n[0]), prio[0]

    def _destroy(self):
        check(lib.pyweft_mq_close(self._c[0], self._name), "mq_close")


class _HwObject(_Object):
    """An object of the fabric's synchronisation manager (weft/hwsync.h): a hardware
    thread's calls on it are served in the fabric; a Python thread's go through one of the
    manager's software contexts, which the thread keeps while it lives (Fabric's
    hwsync_contexts() at once)."""

    _ctype = None

    def __init__(self, fabric, create, what):
        out = ffi.new(self._ctype + " **")
        check(create(fabric._live(), out), what)
        self._c = out[0]
        self._alive = True
        self._users = 0
        fabric._hwobjects.add(self)  # closing the fabric ends the object with it

    def _obj(self):
        """The C object; WeftError EINVAL once closed (or its fabric closed)."""
        if not self._alive:
            raise WeftError(errno.EINVAL, f"{type(self).__name__} is closed")
        return self._c


class HwSemaphore(_HwObject):
    """A counting semaphore in the fabric, 0 <= value <= maximum <= 65535; a post at the
    maximum raises WeftError EOVERFLOW."""

    _res_type = lib.WEFT_RES_HWSEM
    _ctype = "weft_hwsem_t"

    def __init__(self, fabric, value=0, maximum=65535):
        super().__init__(fabric, lambda w, out: lib.weft_hwsem_create(
            w, u32(value, "a semaphore's value"), u32(maximum, "a semaphore's maximum"), out),
            "weft_hwsem_create")

    def post(self):
        check(lib.weft_hwsem_post(self._obj()), "weft_hwsem_post")

    def wait(self, timeout=None):
        """Take one count; False if the timeout passed first."""
        return _timed(lambda ms: lib.pyweft_hwsem_wait(self._obj(), ms),
                      timeout, "weft_hwsem_wait")

    def trywait(self):
        """Take one count if there is one; False if not."""
        rc = lib.weft_hwsem_trywait(self._obj())
        if rc == -errno.EAGAIN:
            return False
        check(rc, "weft_hwsem_trywait")
        return True

    @property
    def value(self):
        v = ffi.new("unsigned *")
        check(lib.weft_hwsem_getvalue(self._obj(), v), "weft_hwsem_getvalue")
        return v[0]

    def _destroy(self):
        check(lib.weft_hwsem_destroy(self._c), "weft_hwsem_destroy")


class HwMutex(_HeldInBlock, _HwObject):
    """A mutex in the fabric: kind "normal", "recursive" or "errorcheck"; inherit: its
    holder's calls take the priority of its most urgent waiter. As a context manager it is
    held for the block."""

    _res_type = lib.WEFT_RES_HWMUTEX
    _ctype = "weft_hwmutex_t"
    _KINDS = {"normal": lib.PTHREAD_MUTEX_NORMAL, "recursive": lib.PTHREAD_MUTEX_RECURSIVE,
              "errorcheck": lib.PTHREAD_MUTEX_ERRORCHECK}

    def __init__(self, fabric, kind="normal", inherit=False):
        if kind not in self._KINDS:
            raise ValueError(f"kind must be one of {sorted(self._KINDS)}, not {kind!r}")
        protocol = lib.PTHREAD_PRIO_INHERIT if inherit else lib.PTHREAD_PRIO_NONE
        super().__init__(fabric, lambda w, out: lib.weft_hwmutex_create(
            w, self._KINDS[kind], protocol, out), "weft_hwmutex_create")

    def lock(self, timeout=None):
        """False if the timeout passed first."""
        return _timed(lambda ms: lib.pyweft_hwmutex_lock(self._obj(), ms),
                      timeout, "weft_hwmutex_lock")

    def unlock(self):
        check(lib.weft_hwmutex_unlock(self._obj()), "weft_hwmutex_unlock")

    @property
    def depth(self):
        """0 when free, else how often its holder locked it."""
        d = ffi.new("unsigned *")
        check(lib.weft_hwmutex_depth(self._obj(), d), "weft_hwmutex_depth")
        return d[0]

    def _destroy(self):
        check(lib.weft_hwmutex_destroy(self._c), "weft_hwmutex_destroy")


class HwCond(_HwObject):
    """A condition variable in the fabric, waited on with an HwMutex held."""

    _res_type = lib.WEFT_RES_HWCOND
    _ctype = "weft_hwcond_t"

    def __init__(self, fabric):
        super().__init__(fabric, lib.weft_hwcond_create, "weft_hwcond_create")

    def signal(self):
        check(lib.weft_hwcond_signal(self._obj()), "weft_hwcond_signal")

    def broadcast(self):
        check(lib.weft_hwcond_broadcast(self._obj()), "weft_hwcond_broadcast")

    def wait(self, mutex, timeout=None):
        """mutex must be held; it is held again on return. False if the timeout passed.
        A wake-up may be spurious, as with any condition wait: check the condition."""
        return _timed(lambda ms: lib.pyweft_hwcond_wait(self._obj(), mutex._obj(), ms),
                      timeout, "weft_hwcond_wait")

    def _destroy(self):
        check(lib.weft_hwcond_destroy(self._c), "weft_hwcond_destroy")
