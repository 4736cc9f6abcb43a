#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

The inputs are encoded as fuzz_request.c, fuzz_osif_decode.c and fuzz_delegate.c read
them; command codes and argument counts come from protocol/osif.yaml. Run it again after
a protocol change (the old files are replaced):

    python3 tests/fuzz/make_seeds.py
"""
import os
import shutil
import struct
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

with open(os.path.join(ROOT, "protocol", "osif.yaml")) as f:
    PROTO = yaml.safe_load(f)
CMDS = {c["name"]: c for c in PROTO["commands"]}
RES = {t["name"]: t["code"] for t in PROTO["resource_types"]}

# fuzz_request() mode bits
RAW_HEADER, RAW_CODE, RAW_HANDLE, PLAUSIBLE = 0x01, 0x02, 0x04, 0x20
NARGS_DELTA, NARGS_U8, NARGS_U16 = 1 << 3, 2 << 3, 3 << 3
LONE_WORD = 0x40  # fuzz_delegate only


def u32(*words):
    return b"".join(struct.pack("<I", w & 0xFFFFFFFF) for w in words)


def request(name, args=(), handle=0, data_words=0, mode=PLAUSIBLE, nargs_bytes=b""):
    """A structured request: mode, command, handle byte, then what the mode asks. The
    command goes in as its code (RAW_CODE), not as a table index, so a seed keeps its
    meaning when commands are added to the protocol."""
    c = CMDS[name]
    out = bytes([mode | RAW_CODE, c["code"], handle])
    if c.get("variadic_args"):
        out += bytes([data_words])
    out += nargs_bytes
    return out + u32(*args)


def raw_header(cmd_code, handle, nargs, args=()):
    return bytes([RAW_HEADER]) + u32(cmd_code << 24 | handle << 16 | nargs, *args)


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def decode_seeds():
    # Resource array of every type, in type order; handles 0..4.
    array = bytes([5]) + bytes(RES[t] for t in ("SEM", "MUTEX", "COND", "MBOX", "MQ"))
    handle_of = {"SEM": 0, "MUTEX": 1, "COND": 2, "MBOX": 3, "MQ": 4}
    for c in PROTO["commands"]:
        words = 2 if c.get("variadic_args") else 0
        nargs = len(c["args"]) + words
        write("osif_decode", c["name"].lower(),
              array + request(c["name"], [1] * nargs, handle_of.get(c["handle"], 0), words))
    write("osif_decode", "unknown_command", array + bytes([RAW_CODE, 0x7E, 0]))
    write("osif_decode", "framing", array + raw_header(CMDS["MBOX_PUT"]["code"], 0, 40000))
    write("osif_decode", "empty_array", bytes([0x40]) + request("SEM_POST"))


def delegate_seeds():
    # Byte 0: 5 entries, not rotated: sem 0, mutex 1, cond 2, mbox 3, mq 4.
    # Byte 1: bit 0 resume, bits 1-2 semaphore count, bits 3-4 mailbox words, bit 5 a
    # message waiting in the queue.
    def seed(name, start, *requests):
        write("delegate", name, bytes([0, start]) + b"".join(requests))

    seed("sem", 0x02,
         request("SEM_WAIT"), request("SEM_WAIT"), request("SEM_POST"),
         request("SEM_TIMEDWAIT", [1000]))
    seed("mutex", 0x00,
         request("MUTEX_LOCK", handle=1), request("MUTEX_TRYLOCK", handle=1),
         request("MUTEX_LOCK", handle=1), request("COND_WAIT", [1], handle=2),
         request("COND_SIGNAL", handle=2), request("COND_BROADCAST", handle=2),
         request("MUTEX_UNLOCK", handle=1), request("MUTEX_UNLOCK", handle=1),
         request("MUTEX_TIMEDLOCK", [1000], handle=1),
         request("COND_TIMEDWAIT", [1, 1000], handle=2))
    seed("mbox", 0x08,
         request("MBOX_PUT", [7], handle=3), request("MBOX_TRYPUT", [8], handle=3),
         request("MBOX_GET", handle=3), request("MBOX_TRYGET", handle=3),
         request("MBOX_TIMEDGET", [1000], handle=3), request("MBOX_TRYGET", handle=3),
         request("MBOX_TIMEDPUT", [9, 1000], handle=3))
    seed("mq", 0x20,
         request("MQ_RECEIVE", [16], handle=4),
         request("MQ_SEND", [0x00020000], handle=4, data_words=2) + u32(0x64636261, 0x68676665),
         request("MQ_TIMEDRECEIVE", [16, 1000], handle=4),
         request("MQ_RECEIVE", [4], handle=4),
         request("MQ_TIMEDSEND", [0, 1000], handle=4, data_words=5) + u32(1, 2, 3, 4, 5))
    seed("thread", 0x01,
         request("GET_INIT_DATA"), request("THREAD_CHECK"), request("GET_RESUME_STATE"),
         request("THREAD_EXIT", [0x600D]))
    seed("errors", 0x00,
         bytes([PLAUSIBLE | RAW_CODE, 0x7E, 0]),
         request("SEM_POST", handle=200, mode=PLAUSIBLE | RAW_HANDLE),
         request("MUTEX_LOCK", handle=0, mode=PLAUSIBLE | RAW_HANDLE),
         request("MBOX_PUT", [1, 2, 3], handle=3, mode=PLAUSIBLE | NARGS_DELTA,
                 nargs_bytes=bytes([4])),
         request("COND_WAIT", [0], handle=2, mode=0),
         request("MUTEX_UNLOCK", handle=1),
         bytes([LONE_WORD]) + u32(0),
         request("THREAD_YIELD", [0x5AFE]))
    seed("framing", 0x00,
         request("SEM_POST"), raw_header(CMDS["MBOX_PUT"]["code"], 0, 40000))
    seed("unfinished", 0x00,
         request("GET_INIT_DATA"), raw_header(CMDS["MBOX_PUT"]["code"], 3, 1))


def main():
    for target in ("osif_decode", "delegate"):
        d = os.path.join(HERE, "corpus", target)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    decode_seeds()
    delegate_seeds()
    return 0


if __name__ == "__main__":
    sys.exit(main())
