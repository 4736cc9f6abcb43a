"""WeftError, the check every call's answer goes through, and waits in slices."""
import errno
import os
import time


class WeftError(OSError):
    """A Weft call failed: errno is the error (as in C, where calls answer -errno) and the
    message says which call and, where Weft gives one, why."""


def check(rc, what):
    """rc as a Weft call answers it: 0 or more is success (returned), negative is -errno."""
    if rc < 0:
        raise WeftError(-rc, f"{what}: {os.strerror(-rc)}")
    return rc


# Longest one blocking C call lasts: between slices Python runs its signal handlers, so
# Ctrl-C ends a wait that would otherwise block for ever.
SLICE_S = 0.1


def wait(call, timeout):
    """call(ms) -> rc, a bounded wait, repeated until it answers anything but -ETIMEDOUT or
    timeout seconds (None: for ever) have passed; returns its last answer."""
    if timeout is not None and timeout < 0:
        raise ValueError(f"timeout must be None or >= 0 seconds, not {timeout!r}")
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = SLICE_S if deadline is None else min(SLICE_S, max(0.0, deadline - time.monotonic()))
        rc = call(int(left * 1000))
        if rc != -errno.ETIMEDOUT or (deadline is not None and time.monotonic() >= deadline):
            return rc


def u32(value, what):
    """value as a 32-bit unsigned word, or ValueError naming what it was for."""
    if not isinstance(value, int) or not 0 <= value < 2**32:
        raise ValueError(f"{what} is a 32-bit unsigned word, not {value!r}")
    return value
