"""WeftError and the check every call's answer goes through."""
import os


class WeftError(OSError):
    """A Weft call failed: errno is the error (as in C, where calls answer -errno) and the
    message says which call and, where Weft gives one, why."""


def check(rc, what):
    """rc as a Weft call answers it: 0 or more is success (returned), negative is -errno."""
    if rc < 0:
        raise WeftError(-rc, f"{what}: {os.strerror(-rc)}")
    return rc


def timeout_ms(timeout):
    """A timeout in seconds (None: forever) as the C calls take it."""
    if timeout is None:
        return -1
    if timeout < 0:
        raise ValueError(f"timeout must be None or >= 0 seconds, not {timeout!r}")
    return min(int(timeout * 1000), 2**31 - 1)
