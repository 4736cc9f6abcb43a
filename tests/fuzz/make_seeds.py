#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

The inputs are encoded as fuzz_request.c, fuzz_osif_decode.c, fuzz_delegate.c and
fuzz_wire.c read them; command codes and argument counts come from protocol/osif.yaml,
weftd's messages from server/wire.h. fuzz_softcore_image.c reads small hand-made ELF
files. Run it again after
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
NARGS_DELTA, NARGS_U8, NARGS_LONGEST = 1 << 3, 2 << 3, 3 << 3
LONE_WORD = 0x40  # fuzz_delegate only


def u32(*words):
    return b"".join(struct.pack("<I", w & 0xFFFFFFFF) for w in words)


MAX_ARGS = PROTO["limits"]["max_args"]


def is_burst_put(c):
    return c["handle"] == "MBOX" and c.get("variadic_args", False)


def variadic_byte(c, words):
    """The byte fuzz_request() turns into `words` variadic words (variadic_words() in
    fuzz_request.c): 0..5 as such; a burst's even 2..256 as 0x80 | (words / 2 - 1),
    capped at what fits one request after the fixed arguments (so the cap itself, odd or
    even, is 0xFF)."""
    if words <= 5:
        return words
    fixed = len(c["args"])
    if is_burst_put(c) and words == MAX_ARGS - fixed:
        return 0xFF
    if not (is_burst_put(c) and words % 2 == 0 and words < MAX_ARGS - fixed):
        raise ValueError(f"{c['name']}: {words} variadic words cannot be encoded")
    return 0x80 | (words // 2 - 1)


def handle_bytes(handle, mode):
    """A raw handle as fuzz_request() reads it: one byte below 0x80, else 15 bits in two
    (the first with bit 7 set)."""
    if not mode & RAW_HANDLE or handle < 0x80:
        return bytes([handle & 0xFF])
    if handle >= 0x8000:
        raise ValueError(f"handle {handle:#x} cannot be encoded")
    return bytes([0x80 | handle >> 8, handle & 0xFF])


def request(name, args=(), handle=0, data_words=0, mode=PLAUSIBLE | RAW_HANDLE, nargs_bytes=b""):
    """A structured request: mode, command, handle byte, then what the mode asks. The
    command goes in as its code (RAW_CODE), not as a table index, and the handle raw
    (RAW_HANDLE) unless the mode says otherwise, so a seed keeps its meaning when commands
    or resource entries are added. With PLAUSIBLE a burst put's words are counted up from
    one word: args are then its fixed arguments and that word."""
    c = CMDS[name]
    out = bytes([mode | RAW_CODE, c["code"]]) + handle_bytes(handle, mode)
    if c.get("variadic_args"):
        out += bytes([variadic_byte(c, data_words)])
    out += nargs_bytes
    return out + u32(*args)


def raw_header(cmd_code, handle, nargs, args=()):
    return bytes([RAW_HEADER]) + u32(cmd_code << 24 | handle << 8 | nargs, *args)


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def decode_seeds():
    # Resource array of every type, in type order; handles 0..5.
    types = ("SEM", "MUTEX", "COND", "MBOX", "MQ", "LINK")
    array = bytes([len(types)]) + bytes(RES[t] for t in types)
    handle_of = {t: i for i, t in enumerate(types)}

    def args_of(c, words):
        # PLAUSIBLE: a burst put's words are counted up from one.
        return [1] * (len(c["args"]) + (min(words, 1) if is_burst_put(c) else words))

    for c in PROTO["commands"]:
        words = 2 if c.get("variadic_args") else 0
        write("osif_decode", c["name"].lower(),
              array + request(c["name"], args_of(c, words), handle_of.get(c["handle"], 0), words))
        if c["handle"] == "MBOX":  # the same call on a hardware link
            write("osif_decode", "link_" + c["name"].lower(),
                  array + request(c["name"], args_of(c, words), handle_of["LINK"], words))
    write("osif_decode", "link_wrong_type", array + request("SEM_POST", handle=handle_of["LINK"]))
    write("osif_decode", "mbox_put_burst_empty",
          array + request("MBOX_PUT_BURST", handle=handle_of["MBOX"]))
    write("osif_decode", "mbox_put_burst_full",
          array + request("MBOX_PUT_BURST", [1], handle_of["MBOX"], MAX_ARGS))
    for count in (0, MAX_ARGS, MAX_ARGS + 1):
        write("osif_decode", f"mbox_get_burst_{count}",
              array + request("MBOX_GET_BURST", [count], handle_of["MBOX"], mode=RAW_HANDLE))
    write("osif_decode", "unknown_command", array + bytes([RAW_CODE, 0x7E, 0]))
    write("osif_decode", "longest", array + raw_header(CMDS["MBOX_PUT"]["code"], 0, MAX_ARGS))
    write("osif_decode", "handle_16_bits", array + raw_header(CMDS["SEM_POST"]["code"], 0x1234, 0))
    write("osif_decode", "empty_array", bytes([0x40]) + request("SEM_POST"))


def delegate_seeds():
    # Byte 0 (layout): 0 is 7 entries, not rotated: sem 0, mutex 1, cond 2, mbox 3 (2
    # words), mq 4, link 5 (link 0, slot 0 -> 1), mbox 6 (MAX_ARGS + 8 words); 4 adds the
    # recursive mutex 7, the error-checking one 8, mutex 1 again as 9 and link 10 (link 1,
    # slot 1 -> 0).
    # Byte 1 (start): bit 0 resume, bits 1-2 semaphore count, bits 3-4 words in mailbox 3,
    # bit 5 a message waiting in the queue, bits 6-7 words in mailbox 6 (0, 1, all but
    # one, all).
    SMALL, BIG, LINK0, LINK1 = 3, 6, 5, 10
    BIG_CAP = MAX_ARGS + 8

    def seed(name, start, *requests, layout=0):
        write("delegate", name, bytes([layout, start]) + b"".join(requests))

    def words(name, handle, values, timeout=None):
        """A burst put of exactly these words (raw arguments)."""
        fixed = [] if timeout is None else [timeout]
        return request(name, fixed + list(values), handle, len(values), mode=RAW_HANDLE)

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
    seed("mq_mem", 0x20,  # no memory window: BADADDR, or MSGSIZE first
         request("MQ_SEND_MEM", [8, 0x1000], handle=4),
         request("MQ_SEND_MEM", [17, 0x1000], handle=4),
         request("MQ_RECEIVE_MEM", [16, 0x2000], handle=4),
         request("MQ_RECEIVE_MEM", [15, 0x2000], handle=4),
         request("MQ_TIMEDSEND_MEM", [4, 0xFFFFFFFC, 1000], handle=4),
         request("MQ_TIMEDRECEIVE_MEM", [16, 0, 1000], handle=4),
         request("MQ_RECEIVE", [16], handle=4))
    seed("thread", 0x01,
         request("GET_INIT_DATA"), request("THREAD_CHECK"), request("GET_RESUME_STATE"),
         request("THREAD_EXIT", [0x600D]))
    seed("errors", 0x00,
         bytes([PLAUSIBLE | RAW_CODE, 0x7E, 0]),
         request("SEM_POST", handle=200, mode=PLAUSIBLE | RAW_HANDLE),
         request("MUTEX_LOCK", handle=0, mode=PLAUSIBLE | RAW_HANDLE),
         request("MBOX_PUT", [1, 2, 3], handle=3, mode=PLAUSIBLE | RAW_HANDLE | NARGS_DELTA,
                 nargs_bytes=bytes([4])),
         request("COND_WAIT", [0], handle=2, mode=0),
         request("MUTEX_UNLOCK", handle=1),
         bytes([LONE_WORD]) + u32(0),
         request("THREAD_YIELD", [0x5AFE]))
    seed("longest", 0x00,
         request("SEM_POST"), raw_header(CMDS["MBOX_PUT"]["code"], 0, MAX_ARGS, [1] * MAX_ARGS))
    seed("unfinished", 0x00,
         request("GET_INIT_DATA"), raw_header(CMDS["MBOX_PUT"]["code"], 3, 1))
    # Bursts on the small mailbox (one word waiting): longer than what it holds or has
    # room for (they end after what could move), or answered CANCELED before their first
    # word; then a few on the large one.
    seed("burst", 0x08,
         request("MBOX_GET_BURST", [2], SMALL),               # 1 word waits: ends after 1
         request("MBOX_GET_BURST", [1], SMALL),               # empty: CANCELED
         words("MBOX_PUT_BURST", SMALL, [7, 8, 9]),           # room for 2: ends after 2
         words("MBOX_TIMEDPUT_BURST", SMALL, [10], 1000),     # full: CANCELED
         request("MBOX_TIMEDGET_BURST", [2, 0], SMALL),       # 7, 8; no time left
         request("MBOX_PUT_BURST", [0x100], BIG, 5),          # 0x100 .. 0x104
         request("MBOX_TIMEDGET_BURST", [5, 0], BIG),
         request("MBOX_TRYGET", handle=BIG))                  # empty again: AGAIN
    # Whole bursts on the large mailbox: a response twice the SW2HW FIFO, requests longer
    # than the HW2SW FIFO, and the mailbox filled to the last word.
    seed("burst_long", 0x00,
         request("MBOX_PUT_BURST", [0xA000], BIG, MAX_ARGS),
         request("MBOX_GET_BURST", [MAX_ARGS], BIG),
         request("MBOX_TIMEDPUT_BURST", [0, 0xB000], BIG, 254),
         request("MBOX_PUT_BURST", [0xC000], BIG, 12),        # room for 9: ends after 9
         request("MBOX_PUT_BURST", [0xD000], BIG, 1),         # full: CANCELED
         request("MBOX_TRYPUT", [1], BIG),                    # full: AGAIN
         request("MBOX_TIMEDGET_BURST", [MAX_ARGS, 100], BIG))
    seed("burst_full", 0x80 | 0x10,                           # all but one; small full
         request("MBOX_PUT_BURST", [0xE000], BIG, 4),         # room for 1: ends after 1
         request("MBOX_PUT_BURST", [0xF000], BIG, 2),         # full: CANCELED
         request("MBOX_GET_BURST", [MAX_ARGS], BIG),
         request("MBOX_TIMEDGET_BURST", [BIG_CAP - MAX_ARGS + 1, 100], BIG),  # 8 wait: +1
         request("MBOX_GET_BURST", [1], BIG),                 # empty: CANCELED
         request("MBOX_PUT_BURST", [0x1234], SMALL, 2),       # small full: CANCELED
         request("MBOX_GET_BURST", [2], SMALL))
    # Bursts longer than the 2-word mailbox holds: each moves what it can with YIELD
    # pending and ends there (burst_end CANCELED with the words moved), a timed one
    # past its timeout of 0 too.
    seed("burst_partial", 0x08,
         request("MBOX_GET_BURST", [MAX_ARGS], SMALL),            # 1 waits: ends after 1
         request("MBOX_PUT_BURST", [0x5000], SMALL, MAX_ARGS),    # ends after 2
         request("MBOX_TIMEDPUT_BURST", [0, 0x6000], SMALL, 4),   # full: CANCELED
         request("MBOX_TIMEDGET_BURST", [3, 0], SMALL),           # 2 wait: ends after 2
         request("MBOX_TIMEDPUT_BURST", [0, 0x7000], SMALL, 20))  # empty: ends after 2
    seed("burst_errors", 0x08,
         request("MBOX_PUT_BURST", handle=SMALL),             # no word: BADARGS
         request("MBOX_TIMEDPUT_BURST", [1000], SMALL),       # no word: BADARGS
         request("MBOX_GET_BURST", [0], SMALL, mode=RAW_HANDLE),
         request("MBOX_GET_BURST", [MAX_ARGS + 1], SMALL, mode=RAW_HANDLE),
         request("MBOX_TIMEDGET_BURST", [0xFFFFFFFF, 0], SMALL, mode=RAW_HANDLE),
         request("MBOX_TIMEDGET_BURST", [1], SMALL, mode=PLAUSIBLE | RAW_HANDLE | NARGS_DELTA,
                 nargs_bytes=bytes([1])),                     # count only: BADARGS
         request("MBOX_GET_BURST", [1], 0),                   # a semaphore: WRONG_TYPE
         request("MBOX_GET_BURST", [1], SMALL))               # the word waiting
    # Mailbox calls on hardware links: PERM when well-formed, else BADARGS or WRONG_TYPE.
    seed("link", 0x08,
         request("MBOX_GET", handle=LINK0),
         request("MBOX_PUT", [1], LINK0),
         request("MBOX_TRYGET", handle=LINK1),
         request("MBOX_TRYPUT", [2], LINK1),
         request("MBOX_TIMEDGET", [1000], LINK0),
         request("MBOX_TIMEDPUT", [3, 1000], LINK1),
         request("MBOX_PUT_BURST", [4], LINK0, 3),
         request("MBOX_GET_BURST", [4], LINK1),
         request("MBOX_TIMEDPUT_BURST", [0, 5], LINK1, 2),
         request("MBOX_TIMEDGET_BURST", [3, 10], LINK0),
         request("MBOX_GET_BURST", [0], LINK0, mode=RAW_HANDLE),   # BADARGS
         request("MBOX_PUT_BURST", handle=LINK1),                  # BADARGS
         request("SEM_POST", handle=LINK0),                        # WRONG_TYPE
         request("MBOX_GET", handle=9),                            # a mutex: WRONG_TYPE
         request("MBOX_GET", handle=SMALL),                        # the software one: OK
         layout=4)


def wire_msg(mtype, payload, seq=1):
    """A weftd message (server/wire.h): header, then payload."""
    return struct.pack("<IHHII", 0x44544657, 1, mtype, len(payload), seq) + payload


def wire_seeds():
    # The direction byte first: 0 a client's stream, 1 the server's.
    client = [wire_msg(1, struct.pack("<HH", 1, 1)), wire_msg(2, b""),
              wire_msg(3, struct.pack("<Q", 4096)), wire_msg(4, struct.pack("<I", 1)),
              wire_msg(5, struct.pack("<HH", 3, 2) + struct.pack("<B3xIQ", 1, 1, 0) +
                       struct.pack("<B3xIQ", 0, 0, 1000), seq=2),
              wire_msg(6, struct.pack("<I", 2))]
    task = struct.pack("<HBB", 3, 0, 1) + b"vecsum".ljust(32, b"\0")
    server = [wire_msg(1, struct.pack("<HH", 1, 1)), wire_msg(2, struct.pack("<HH", 1, 0) + task),
              wire_msg(3, struct.pack("<IIQ", 1, 0, 4096)), wire_msg(5, b"", seq=2),
              wire_msg(7, struct.pack("<iIHBBQQQ", 0, 42, 1, 1, 0, 10, 288751, 900), seq=2),
              wire_msg(8, struct.pack("<iHH", 22, 9, 0) + b"bad task.", seq=3)]
    write("wire", "client_session", b"\0" + b"".join(client))
    write("wire", "server_session", b"\1" + b"".join(server))
    for i, m in enumerate(client):
        write("wire", f"client_{i}", b"\0" + m)
    for i, m in enumerate(server):
        write("wire", f"server_{i}", b"\1" + m)


# ELF (<elf.h>): a 32-bit little-endian RISC-V executable as weft_rv_program() links one.
EM_RISCV, ET_EXEC, EF_RISCV_RVC = 243, 2, 0x1
PT_LOAD, PT_NOTE, PT_GNU_STACK, PT_RISCV_ATTRIBUTES = 1, 4, 0x6474E551, 0x70000003
SHT_PROGBITS, SHT_STRTAB, SHT_NOBITS = 1, 3, 8
ELF_DATA = 0x100  # segment bytes start here, after the header and program headers


def phdr(ptype, offset, vaddr, filesz, memsz):
    return struct.pack("<8I", ptype, offset, vaddr, vaddr, filesz, memsz, 7, 4)


def shdr(name, stype, addr, offset, size):
    return struct.pack("<10I", name, stype, 0, addr, offset, size, 0, 0, 4, 0)


def elf32(phdrs, data, flags=0, shdrs=(), shstrndx=0):
    """Header, program headers, data at ELF_DATA, then the section headers (if any)."""
    shoff = (ELF_DATA + len(data) + 3) & ~3 if shdrs else 0
    head = struct.pack("<16sHHIIIIIHHHHHH",
                       b"\x7fELF\x01\x01\x01" + bytes(9), ET_EXEC, EM_RISCV, 1, 0,
                       52 if phdrs else 0, shoff, flags, 52, 32, len(phdrs), 40, len(shdrs),
                       shstrndx)
    out = (head + b"".join(phdrs)).ljust(ELF_DATA, b"\0") + data
    return out.ljust(shoff, b"\0") + b"".join(shdrs)


def softcore_image_seeds():
    text = bytes([0x13, 0, 0, 0, 0x6F, 0, 0, 0])  # nop; j .
    word = bytes([0xA1, 0xA2, 0xA3, 0xA4])
    # Code at 0, a data word at 0x10 and 9 bytes of .bss: a gap, and an end not a word's.
    two = [phdr(PT_LOAD, ELF_DATA, 0, 8, 8), phdr(PT_LOAD, ELF_DATA + 8, 0x10, 4, 13)]
    write("softcore_image", "minimal", elf32(two, text + word))
    names = b"\0.text\0.data\0.bss\0.shstrtab\0"
    sections = [bytes(40), shdr(1, SHT_PROGBITS, 0, ELF_DATA, 8),
                shdr(7, SHT_PROGBITS, 0x10, ELF_DATA + 8, 4), shdr(13, SHT_NOBITS, 0x14, 0, 9),
                shdr(18, SHT_STRTAB, 0, ELF_DATA + 12, len(names))]
    write("softcore_image", "sections", elf32(two, text + word + names, shdrs=sections,
                                              shstrndx=4))
    write("softcore_image", "ignored_segments", elf32(
        [phdr(PT_RISCV_ATTRIBUTES, ELF_DATA, 0, 4, 0)] + two +
        [phdr(PT_NOTE, ELF_DATA, 0, 4, 4), phdr(PT_LOAD, ELF_DATA, 0x8000, 0, 0),
         phdr(PT_GNU_STACK, 0, 0, 0, 0)], text + word))
    write("softcore_image", "bss_only", elf32([phdr(PT_LOAD, ELF_DATA, 0, 0, 0x40)], b""))
    write("softcore_image", "unsorted", elf32(
        [phdr(PT_LOAD, ELF_DATA + 4 * i, a, 4, 4) for i, a in enumerate((0x400, 0, 0x200, 0x100))],
        text + word + text))
    write("softcore_image", "ram_end", elf32([phdr(PT_LOAD, ELF_DATA, 0xFFFC, 4, 4)], word))
    write("softcore_image", "past_ram", elf32([phdr(PT_LOAD, ELF_DATA, 0xFC00, 4, 0x800)], word))
    write("softcore_image", "overlap", elf32(two + [phdr(PT_LOAD, ELF_DATA, 0x18, 4, 4)],
                                             text + word))
    write("softcore_image", "compressed", elf32(two, text + word, flags=EF_RISCV_RVC))


def main():
    for target in ("osif_decode", "delegate", "wire", "softcore_image"):
        d = os.path.join(HERE, "corpus", target)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    decode_seeds()
    delegate_seeds()
    wire_seeds()
    softcore_image_seeds()
    return 0


if __name__ == "__main__":
    sys.exit(main())
