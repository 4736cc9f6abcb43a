#!/usr/bin/env python3
"""Generate the OSIF protocol's C header and SystemVerilog package from protocol/osif.yaml.

Usage: gen_protocol.py SPEC.yaml --c-header OUT.h --sv-package OUT.sv

The YAML file is the only definition of the protocol; both outputs are derived from it so
that hardware and software can never disagree on a code, a field or a register offset.
The specification is validated first (unique codes, fields that fit and do not overlap)
and every problem is reported with the entry it concerns. The C header is part of the API
reference (docs/Doxyfile, which fails on anything undocumented): every macro, type and
function in it gets a Doxygen comment, from the YAML's doc fields where it has them.
"""
import argparse
import sys

import yaml  # PyYAML (Debian python3-yaml): a real YAML parser instead of a hand-rolled one


class SpecError(Exception):
    pass


def _require(cond, msg):
    if not cond:
        raise SpecError(msg)


def _check_fields(where, fields):
    used = 0
    for f in fields:
        for key in ("name", "msb", "lsb"):
            _require(key in f, f"{where}: field {f!r} has no '{key}'")
        _require(0 <= f["lsb"] <= f["msb"] <= 31, f"{where}.{f['name']}: bits {f['msb']}:{f['lsb']} do not fit a 32-bit word")
        mask = ((1 << (f["msb"] - f["lsb"] + 1)) - 1) << f["lsb"]
        _require(used & mask == 0, f"{where}.{f['name']}: overlaps another field")
        used |= mask


def _check_codes(where, entries, width):
    seen = {}
    for e in entries:
        _require("name" in e and "code" in e, f"{where}: entry {e!r} needs name and code")
        _require(0 <= e["code"] < (1 << width), f"{where}.{e['name']}: code {e['code']} does not fit {width} bits")
        _require(e["code"] not in seen, f"{where}.{e['name']}: code {e['code']:#x} already used by {seen.get(e['code'])}")
        seen[e["code"]] = e["name"]


def _check_slot_boundary(sb):
    _require(isinstance(sb, dict) and set(sb) == {"request", "response"},
             "slot_boundary: must have exactly 'request' and 'response'")
    for direction in ("request", "response"):
        names = set()
        _require(isinstance(sb[direction], list) and sb[direction],
                 f"slot_boundary.{direction}: must be a list of channels")
        for ch in sb[direction]:
            where = f"slot_boundary.{direction}.{ch.get('name')}"
            _require(isinstance(ch.get("name"), str) and ch["name"].isidentifier() and ch["name"] not in names,
                     f"{where}: a channel needs a distinct identifier as its name")
            names.add(ch["name"])
            _require(isinstance(ch.get("fields"), list) and ch["fields"], f"{where}: a channel needs fields")
            fnames = set()
            for f in ch["fields"]:
                _require(isinstance(f.get("name"), str) and f["name"].isidentifier() and f["name"] not in fnames,
                         f"{where}: field {f!r} needs a distinct identifier as its name")
                _require(isinstance(f.get("width"), int) and 1 <= f["width"] <= 32,
                         f"{where}.{f['name']}: width must be 1..32")
                fnames.add(f["name"])
    _require([c["name"] for c in sb["request"]] == [c["name"] for c in sb["response"]],
             "slot_boundary: request and response must have the same channels, in the same order")


def slot_layout(sb, direction):
    """[(channel, [(field, lsb, width, doc)], channel_lsb, channel_width)], total width."""
    out, bit = [], 0
    for ch in sb[direction]:
        start, fields = bit, []
        for f in ch["fields"]:
            fields.append((f["name"], bit, f["width"], f.get("doc", "")))
            bit += f["width"]
        out.append((ch, fields, start, bit - start))
    return out, bit


def validate(spec):
    _require(isinstance(spec, dict), "top level must be a mapping")
    for key in ("version", "limits", "request_header", "response_header", "resource_types", "commands", "errors",
                "burst_end", "memif", "slot_boundary", "registers"):
        _require(key in spec, f"missing top-level key '{key}'")
    _check_fields("request_header", spec["request_header"])
    _check_fields("response_header", spec["response_header"])
    _check_fields("burst_end", spec["burst_end"])
    fields = {f["name"]: f for f in spec["request_header"]}
    _require(set(fields) == {"cmd", "handle", "nargs"}, "request_header: needs exactly cmd, handle and nargs")
    _require({f["name"] for f in spec["burst_end"]} == {"moved", "status"}, "burst_end: needs exactly moved and status")
    nargs_max = _mask(fields["nargs"])
    max_args = spec["limits"].get("max_args")
    _require(max_args == nargs_max,
             f"limits.max_args: must be {nargs_max}, what the header's nargs field holds, so that "
             "every header frames a request")
    _check_fields("memif.command_word0", spec["memif"]["command_word0"])
    _check_codes("commands", spec["commands"], 8)
    _check_codes("errors", spec["errors"], 8)
    _check_codes("resource_types", spec["resource_types"], 8)
    types = {t["name"] for t in spec["resource_types"]}
    for t in spec["resource_types"]:
        _require(t.get("serves") is None or t["serves"] in types,
                 f"resource_types.{t['name']}: serves {t.get('serves')!r}, which is not a resource type")
    for c in spec["commands"]:
        _require(c.get("handle") in types or c.get("handle") == "none",
                 f"commands.{c['name']}: handle type {c.get('handle')!r} is not a resource type or 'none'")
        _require(isinstance(c.get("args"), list) and isinstance(c.get("results"), list),
                 f"commands.{c['name']}: args and results must be lists")
        for flag in ("variadic_args", "variadic_results", "response"):
            _require(isinstance(c.get(flag, False), bool), f"commands.{c['name']}: {flag} must be true or false")
        _require(len(c["args"]) <= 255 and len(c["results"]) <= 255, f"commands.{c['name']}: too many args or results")
    _check_slot_boundary(spec["slot_boundary"])
    if "sync_calls" in spec:
        _check_codes("sync_calls.ops", spec["sync_calls"]["ops"], 4)
        _require(spec["sync_calls"].get("no_object") == 0xFF, "sync_calls.no_object: must be 0xFF")
    if "tm_calls" in spec:
        _check_codes("tm_calls.ops", spec["tm_calls"]["ops"], 4)
        _check_codes("tm_calls.states", spec["tm_calls"]["states"], 3)
    bits = set()
    for sig in spec.get("signals", []):
        _require(isinstance(sig.get("bit"), int) and 0 <= sig["bit"] < 32 and sig["bit"] not in bits,
                 f"signals.{sig.get('name')}: bit must be a distinct number 0..31")
        bits.add(sig["bit"])
    offsets = {}
    for block in ("global", "slot"):
        for r in spec["registers"][block]["regs"]:
            _require(r["offset"] % 4 == 0, f"registers.{block}.{r['name']}: offset not word aligned")
            count, stride = r.get("count", 1), r.get("stride", 4)
            _require(isinstance(count, int) and count >= 1 and isinstance(stride, int) and stride % 4 == 0 and stride > 0,
                     f"registers.{block}.{r['name']}: count must be >= 1 and stride a positive multiple of 4")
            for i in range(count):
                key = (block, r["offset"] + i * stride)
                _require(key not in offsets,
                         f"registers.{block}.{r['name']}: offset {key[1]:#x} already used by {offsets.get(key)}")
                offsets[key] = r["name"]


def _mask(f):
    return ((1 << (f["msb"] - f["lsb"] + 1)) - 1)


def _doc(text):
    """A YAML doc string as the text of a C comment: on one line, and unable to end the
    comment early."""
    return " ".join(str(text).split()).replace("*/", "* /")


def _bit_doc(b):
    """The documentation of an entry of registers.bits: its doc, and for a one-bit value of
    a register (its reg) the bit's number first, from the value."""
    if not b.get("doc"):
        raise SpecError(f"registers.bits: {b['name']} has no doc")
    text, reg, v = _doc(b["doc"]), b.get("reg"), b["value"]
    if reg and v > 0 and v & (v - 1) == 0:
        return f"WEFT_{reg} bit {v.bit_length() - 1}, {text}"
    return text


def c_header(spec, src):
    out = []
    w = out.append

    def group(title, *lines):
        """A Doxygen member group: a titled section of the header's reference page."""
        w(f"/** @name {title}")
        for line in lines:
            w(f" *  {line}" if line else " *")
        w(" *  @{ */")

    def end_group():
        w("/** @} */")

    w("/**")
    w(" * @file osif_protocol.h")
    w(" * @brief The OSIF protocol: the words of a hardware thread's OS calls, their command,")
    w(" *        status and resource-type codes, the MEMIF command word, the slot boundary and")
    w(" *        the static region's register window.")
    w(" *")
    w(f" * Generated from {src} by tools/gen_protocol.py, which writes the SystemVerilog")
    w(" * package weft_osif_pkg from the same definition, so that hardware and software agree")
    w(" * on every code, field and offset (docs/osif.md explains the protocol). Do not edit:")
    w(" * change the YAML.")
    w(" */")
    w("#ifndef WEFT_OSIF_PROTOCOL_H")
    w("#define WEFT_OSIF_PROTOCOL_H")
    w("")
    w("#include <stdint.h>")
    w("")
    w("/** Protocol version, what the register WEFT_REG_VERSION reads. */")
    w(f"#define WEFT_OSIF_VERSION {spec['version']}u")
    w("/** Most argument words a request may carry (what its nargs field holds); also the most")
    w(" *  words of one mailbox burst. */")
    w(f"#define WEFT_OSIF_MAX_ARGS {spec['limits']['max_args']}u")
    w("")
    for hdr, prefix, title, what in (
            ("request_header", "WEFT_OSIF_REQ", "Request header",
             "The first word of every request, followed by its nargs argument words."),
            ("response_header", "WEFT_OSIF_RESP", "Response header",
             "The first word of every response, followed by its nwords result words."),
            ("burst_end", "WEFT_OSIF_BURST_END", "Burst end",
             "The last result word of a mailbox burst that started (weft_osif_burst_end()).")):
        group(f"{title} fields", what, "A field is (word >> its _SHIFT) & its _MASK.")
        for f in spec[hdr]:
            n = f["name"].upper()
            w(f"#define {prefix}_{n}_SHIFT {f['lsb']}u /**< bit position of {f['name']} ({prefix}_{n}_MASK) */")
            w(f"#define {prefix}_{n}_MASK  {_mask(f):#x}u /**< {f['name']}, bits {f['msb']}:{f['lsb']}: "
              f"{_doc(f.get('doc', ''))} */")
        end_group()
    w("")
    w("/** Resource types a handle can be bound to. */")
    w("typedef enum weft_res_type {")
    for t in spec["resource_types"]:
        w(f"    WEFT_RES_{t['name']} = {t['code']}, /**< {_doc(t.get('doc', ''))} */")
    w("} weft_res_type_t;")
    w("")
    w("/** OSIF command codes. */")
    w("typedef enum weft_osif_cmd {")
    for c in spec["commands"]:
        w(f"    WEFT_OSIF_CMD_{c['name']} = {c['code']:#04x}, /**< {_doc(c.get('doc', ''))} */")
    w("} weft_osif_cmd_t;")
    w("")
    group("Signals", "Signals software sends a hardware thread (THREAD_CHECK result bits).")
    for sig in spec.get("signals", []):
        w(f"#define WEFT_SIGNAL_{sig['name']} {1 << sig['bit']:#x}u /**< {_doc(sig.get('doc', ''))} */")
    w(f"#define WEFT_SIGNAL_ALL {sum(1 << x['bit'] for x in spec.get('signals', [])):#x}u "
      "/**< every signal: all the bits THREAD_CHECK can return */")
    end_group()
    w("")
    w("/** OSIF response status codes. */")
    w("typedef enum weft_osif_status {")
    for e in spec["errors"]:
        w(f"    WEFT_OSIF_{e['name']} = {e['code']}, /**< {_doc(e.get('doc', ''))} */")
    w("} weft_osif_status_t;")
    w("")
    if "sync_calls" in spec:
        group("Synchronisation manager calls", "Calls of the synchronisation manager (SYNC_CTX_CALL [3:0]).")
        for o in spec["sync_calls"]["ops"]:
            w(f"#define WEFT_SYNC_OP_{o['name']} {o['code']}u /**< {_doc(o.get('doc', ''))} */")
        w(f"#define WEFT_SYNC_NO_OBJECT {spec['sync_calls']['no_object']:#x}u /**< an object index that names none */")
        end_group()
        w("")
    if "tm_calls" in spec:
        group("Thread manager commands", "Commands of the thread manager (TM_CMD [3:0]) and its threads' states.")
        for o in spec["tm_calls"]["ops"]:
            w(f"#define WEFT_TM_OP_{o['name']} {o['code']}u /**< {_doc(o.get('doc', ''))} */")
        for o in spec["tm_calls"]["states"]:
            w(f"#define WEFT_TM_STATE_{o['name']} {o['code']}u /**< {_doc(o.get('doc', ''))} */")
        end_group()
        w("")
    w("/** What the protocol says about one command. */")
    w("typedef struct weft_osif_cmd_info {")
    w("    const char *name;       /**< command name, for messages */")
    w("    uint8_t code;           /**< command code */")
    w("    uint8_t handle_type;    /**< weft_res_type_t the handle must be bound to; WEFT_RES_NONE: handle unused */")
    w("    uint8_t nargs;          /**< argument words after the header */")
    w("    uint8_t nresults;       /**< result words after a successful response header */")
    w("    uint8_t has_response;   /**< 0 when no response is sent (thread exit) */")
    w("    uint8_t variadic_args;  /**< 1: nargs is the least number; message words may follow */")
    w("    uint8_t variadic_results; /**< 1: nresults is the least number; message words may follow */")
    w("} weft_osif_cmd_info_t;")
    w("")
    w("/** Look a command code up; NULL when the code is unknown. */")
    w("static inline const weft_osif_cmd_info_t *weft_osif_cmd_lookup(uint32_t code)")
    w("{")
    w("    static const weft_osif_cmd_info_t table[] = {")
    for c in spec["commands"]:
        ht = "WEFT_RES_NONE" if c["handle"] == "none" else f"WEFT_RES_{c['handle']}"
        resp = 0 if c.get("response") is False else 1
        va = int(c.get("variadic_args", False))
        vr = int(c.get("variadic_results", False))
        w(f"        {{\"{c['name']}\", {c['code']:#04x}, {ht}, {len(c['args'])}, {len(c['results'])}, {resp}, {va}, {vr}}},")
    w("    };")
    w("    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)")
    w("        if (table[i].code == code)")
    w("            return &table[i];")
    w("    return 0;")
    w("}")
    w("")
    w("/** Name of a status code, for messages. */")
    w("static inline const char *weft_osif_status_name(uint32_t status)")
    w("{")
    w("    switch (status) {")
    for e in spec["errors"]:
        w(f"    case {e['code']}: return \"{e['name']}\";")
    w("    default: return \"(unknown status)\";")
    w("    }")
    w("}")
    w("")
    w("/** The resource type whose commands a resource of this type also takes (its own type")
    w(" *  when it stands in for no other). */")
    w("static inline uint32_t weft_res_serves(uint32_t type)")
    w("{")
    w("    switch (type) {")
    for t in spec["resource_types"]:
        if t.get("serves"):
            serves = next(x for x in spec["resource_types"] if x["name"] == t["serves"])
            w(f"    case {t['code']}: return {serves['code']};")
    w("    default: return type;")
    w("    }")
    w("}")
    w("")
    w("/** Name of a resource type, for messages. */")
    w("static inline const char *weft_res_type_name(uint32_t type)")
    w("{")
    w("    switch (type) {")
    for t in spec["resource_types"]:
        w(f"    case {t['code']}: return \"{t['name'].lower()}\";")
    w("    default: return \"(unknown type)\";")
    w("    }")
    w("}")
    w("")
    w("/** The header word of a request: command @p cmd (a weft_osif_cmd_t) on handle @p handle,")
    w(" *  followed by @p nargs argument words; each value is cut to its field. */")
    w("static inline uint32_t weft_osif_req_header(uint32_t cmd, uint32_t handle, uint32_t nargs)")
    w("{")
    w("    return ((cmd & WEFT_OSIF_REQ_CMD_MASK) << WEFT_OSIF_REQ_CMD_SHIFT) |")
    w("           ((handle & WEFT_OSIF_REQ_HANDLE_MASK) << WEFT_OSIF_REQ_HANDLE_SHIFT) |")
    w("           ((nargs & WEFT_OSIF_REQ_NARGS_MASK) << WEFT_OSIF_REQ_NARGS_SHIFT);")
    w("}")
    w("")
    w("/** The header word of a response to command @p cmd: status @p status (a")
    w(" *  weft_osif_status_t), followed by @p nwords result words; each value is cut to its")
    w(" *  field. */")
    w("static inline uint32_t weft_osif_resp_header(uint32_t cmd, uint32_t status, uint32_t nwords)")
    w("{")
    w("    return ((cmd & WEFT_OSIF_RESP_CMD_MASK) << WEFT_OSIF_RESP_CMD_SHIFT) |")
    w("           ((status & WEFT_OSIF_RESP_STATUS_MASK) << WEFT_OSIF_RESP_STATUS_SHIFT) |")
    w("           ((nwords & WEFT_OSIF_RESP_NWORDS_MASK) << WEFT_OSIF_RESP_NWORDS_SHIFT);")
    w("}")
    w("")
    w("/** The last result word of a mailbox burst that started: how it ended. */")
    w("static inline uint32_t weft_osif_burst_end(uint32_t status, uint32_t moved)")
    w("{")
    w("    return ((status & WEFT_OSIF_BURST_END_STATUS_MASK) << WEFT_OSIF_BURST_END_STATUS_SHIFT) |")
    w("           ((moved & WEFT_OSIF_BURST_END_MOVED_MASK) << WEFT_OSIF_BURST_END_MOVED_SHIFT);")
    w("}")
    w("")
    memif = spec["memif"]
    group("MEMIF command word 0",
          "A hardware thread's memory command is two words: this one, then word 1, the "
          f"{_doc(memif.get('command_word1', 'bus address'))}.",
          "A field is (word >> its _SHIFT) & its _MASK.")
    for f in memif["command_word0"]:
        n = f["name"].upper()
        w(f"#define WEFT_MEMIF_{n}_SHIFT {f['lsb']}u /**< bit position of {f['name']} (WEFT_MEMIF_{n}_MASK) */")
        w(f"#define WEFT_MEMIF_{n}_MASK  {_mask(f):#x}u /**< {f['name']}, bits {f['msb']}:{f['lsb']}: "
          f"{_doc(f.get('doc', ''))} */")
    for o in memif["ops"]:
        more = f": {_doc(o['doc'])}" if o.get("doc") else ""
        w(f"#define WEFT_MEMIF_OP_{o['name']} {o['code']}u /**< op of a {o['name'].lower()} command{more} */")
    w(f"#define WEFT_MEMIF_MAX_BURST_BEATS {memif['max_burst_beats']}u "
      "/**< most words of one memory burst; a command is split into bursts at this and at 4 KiB boundaries */")
    end_group()
    w("")
    w("/** Word 0 of a MEMIF command: op (WEFT_MEMIF_OP_*) and length in bytes. */")
    w("static inline uint32_t weft_memif_word0(uint32_t op, uint32_t length)")
    w("{")
    w("    return ((op & WEFT_MEMIF_OP_MASK) << WEFT_MEMIF_OP_SHIFT) |")
    w("           ((length & WEFT_MEMIF_LENGTH_MASK) << WEFT_MEMIF_LENGTH_SHIFT);")
    w("}")
    w("")
    group("Slot boundary (docs/architecture.md)",
          "Each direction's struct as an array of 32-bit words, bit b in word b / 32. REQ: thread",
          "to static region; RSP: back. Read and write a field with WEFT_SLOT_GET() and",
          "WEFT_SLOT_SET().")
    for direction, tag in (("request", "REQ"), ("response", "RSP")):
        layout, width = slot_layout(spec["slot_boundary"], direction)
        toward = "from the thread to the static region" if tag == "REQ" else "from the static region to the thread"
        w(f"#define WEFT_SLOT_{tag}_BITS {width}u /**< bits of the {direction} struct, {toward} */")
        w(f"#define WEFT_SLOT_{tag}_WORDS {(width + 31) // 32}u /**< 32-bit words that hold the {direction} struct */")
        for ch, fields, _, _ in layout:
            for name, lsb, fw, doc in fields:
                n = f"WEFT_SLOT_{tag}_{ch['name'].upper()}_{name.upper()}"
                w(f"#define {n}_LSB {lsb}u /**< lowest bit of {ch['name']}.{name}: {_doc(doc)} */")
                w(f"#define {n}_WIDTH {fw}u /**< bits of {ch['name']}.{name} ({n}_LSB) */")
    end_group()
    w("")
    w("/** Field of a slot-boundary word array (at most 32 bits, not crossing more than one")
    w(" *  word boundary). */")
    w("static inline uint32_t weft_slot_bits_get(const uint32_t *w, unsigned lsb, unsigned width)")
    w("{")
    w("    uint64_t v = w[lsb / 32] >> (lsb % 32);")
    w("    if (lsb % 32 + width > 32)")
    w("        v |= (uint64_t)w[lsb / 32 + 1] << (32 - lsb % 32);")
    w("    return (uint32_t)(v & ((1ull << width) - 1));")
    w("}")
    w("")
    w("/** Set a field of a slot-boundary word array to the low @p width bits of @p value,")
    w(" *  leaving every other bit as it is (the field as for weft_slot_bits_get()). */")
    w("static inline void weft_slot_bits_set(uint32_t *w, unsigned lsb, unsigned width, uint32_t value)")
    w("{")
    w("    const uint64_t mask = ((1ull << width) - 1) << (lsb % 32);")
    w("    const uint64_t v = ((uint64_t)value << (lsb % 32)) & mask;")
    w("    w[lsb / 32] = (uint32_t)((w[lsb / 32] & ~mask) | v);")
    w("    if (lsb % 32 + width > 32)")
    w("        w[lsb / 32 + 1] = (uint32_t)((w[lsb / 32 + 1] & ~(mask >> 32)) | (v >> 32));")
    w("}")
    w("")
    w("/** Field @p field of the slot-boundary word array @p words, the field named as the")
    w(" *  WEFT_SLOT_*_LSB macros without WEFT_SLOT_ and _LSB: WEFT_SLOT_GET(words, REQ_OSIF_OUT_VALID). */")
    w("#define WEFT_SLOT_GET(words, field) \\")
    w("    weft_slot_bits_get((words), WEFT_SLOT_##field##_LSB, WEFT_SLOT_##field##_WIDTH)")
    w("/** Set field @p field of the slot-boundary word array @p words to @p value, the field")
    w(" *  named as for WEFT_SLOT_GET(): WEFT_SLOT_SET(words, RSP_OSIF_IN_DATA, v). */")
    w("#define WEFT_SLOT_SET(words, field, value) \\")
    w("    weft_slot_bits_set((words), WEFT_SLOT_##field##_LSB, WEFT_SLOT_##field##_WIDTH, (value))")
    w("")
    regs = spec["registers"]
    group("Register window",
          "The static region's AXI4-Lite registers: byte offsets, and the bits and values of",
          "their words. Each register says its access: ro read only, wo write only, rw read and",
          "write, rw1c write 1 to clear.")
    w(f"#define WEFT_REG_ID_VALUE {regs['id_value']:#010x}u /**< what WEFT_REG_ID reads */")
    for r in regs["global"]["regs"]:
        off = regs['global']['base'] + r['offset']
        if "count" in r:
            w(f"/** {r['access']}: {_doc(r['doc'])} */")
            w(f"#define WEFT_REG_{r['name']}(i) ({off:#06x}u + (uint32_t)(i) * {r['stride']:#x}u)")
            w(f"#define WEFT_REG_{r['name']}_COUNT {r['count']}u "
              f"/**< number of WEFT_REG_{r['name']}() registers (i below this) */")
        else:
            w(f"#define WEFT_REG_{r['name']} {off:#06x}u /**< {r['access']}: {_doc(r['doc'])} */")
    w(f"#define WEFT_SLOT_BASE   {regs['slot']['base']:#06x}u /**< byte offset of slot 0's registers */")
    w(f"#define WEFT_SLOT_STRIDE {regs['slot']['stride']:#06x}u "
      "/**< bytes from one slot's registers to the next slot's */")
    w("/** Byte offset of slot register REG (a WEFT_SLOT_REG_* value) of slot S. */")
    w("#define WEFT_SLOT_REG(s, reg) (WEFT_SLOT_BASE + (uint32_t)(s) * WEFT_SLOT_STRIDE + (reg))")
    for r in regs["slot"]["regs"]:
        if "count" in r:
            w(f"/** {r['access']}: {_doc(r['doc'])} */")
            w(f"#define WEFT_SLOT_REG_{r['name']}(i) ({r['offset']:#04x}u + (uint32_t)(i) * {r['stride']:#x}u)")
            w(f"#define WEFT_SLOT_REG_{r['name']}_COUNT {r['count']}u "
              f"/**< number of WEFT_SLOT_REG_{r['name']}() registers of a slot (i below this) */")
        else:
            w(f"#define WEFT_SLOT_REG_{r['name']} {r['offset']:#04x}u /**< {r['access']}: {_doc(r['doc'])} */")
    for b in regs["bits"]:
        w(f"#define WEFT_{b['name']} {b['value']:#x}u /**< {_bit_doc(b)} */")
    end_group()
    w("")
    w("#endif /* WEFT_OSIF_PROTOCOL_H */")
    return "\n".join(out) + "\n"


def sv_package(spec, src):
    out = []
    w = out.append
    w(f"// Generated by tools/gen_protocol.py from {src}. Do not edit: change the YAML.")
    w("package weft_osif_pkg;")
    w("")
    w(f"  localparam int unsigned OsifVersion = {spec['version']};")
    w(f"  localparam int unsigned OsifMaxArgs = {spec['limits']['max_args']};")
    w("")

    def camel(name):
        return "".join(p.capitalize() for p in name.lower().split("_"))

    for hdr, prefix in (("request_header", "Req"), ("response_header", "Resp"), ("burst_end", "BurstEnd")):
        for f in spec[hdr]:
            w(f"  localparam int unsigned {prefix}{camel(f['name'])}Lsb = {f['lsb']};")
            w(f"  localparam int unsigned {prefix}{camel(f['name'])}Msb = {f['msb']};")
    w("")
    for t in spec["resource_types"]:
        w(f"  localparam logic [7:0] Res{camel(t['name'])} = 8'd{t['code']};")
    w("")
    for c in spec["commands"]:
        w(f"  localparam logic [7:0] Cmd{camel(c['name'])} = 8'h{c['code']:02x};  // {c.get('doc', '')}")
        w(f"  localparam int unsigned Cmd{camel(c['name'])}Nargs = {len(c['args'])};")
    w("")
    for sig in spec.get("signals", []):
        w(f"  localparam int unsigned Signal{camel(sig['name'])}Bit = {sig['bit']};")
    w("")
    for e in spec["errors"]:
        w(f"  localparam logic [7:0] Status{camel(e['name'])} = 8'd{e['code']};")
    w("")
    for o in spec.get("sync_calls", {}).get("ops", []):
        w(f"  localparam logic [3:0] SyncOp{camel(o['name'])} = 4'd{o['code']};")
    if "sync_calls" in spec:
        w(f"  localparam logic [7:0] SyncNoObject = 8'h{spec['sync_calls']['no_object']:02x};")
        w("")
    for o in spec.get("tm_calls", {}).get("ops", []):
        w(f"  localparam logic [3:0] TmOp{camel(o['name'])} = 4'd{o['code']};")
    for o in spec.get("tm_calls", {}).get("states", []):
        w(f"  localparam logic [2:0] TmState{camel(o['name'])} = 3'd{o['code']};")
    if "tm_calls" in spec:
        w("")
    for f in spec["memif"]["command_word0"]:
        w(f"  localparam int unsigned Memif{camel(f['name'])}Lsb = {f['lsb']};")
        w(f"  localparam int unsigned Memif{camel(f['name'])}Msb = {f['msb']};")
    for o in spec["memif"]["ops"]:
        w(f"  localparam logic [1:0] MemifOp{camel(o['name'])} = 2'd{o['code']};")
    w(f"  localparam int unsigned MemifMaxBurstBeats = {spec['memif']['max_burst_beats']};")
    w("")
    regs = spec["registers"]
    w(f"  localparam logic [31:0] RegIdValue = 32'h{regs['id_value']:08x};")
    for r in regs["global"]["regs"]:
        w(f"  localparam logic [15:0] Reg{camel(r['name'])} = 16'h{regs['global']['base'] + r['offset']:04x};")
        if "count" in r:
            w(f"  localparam int unsigned Reg{camel(r['name'])}Count = {r['count']};")
            w(f"  localparam int unsigned Reg{camel(r['name'])}Stride = {r['stride']};")
    w(f"  localparam logic [15:0] SlotBase = 16'h{regs['slot']['base']:04x};")
    w(f"  localparam logic [15:0] SlotStride = 16'h{regs['slot']['stride']:04x};")
    for r in regs["slot"]["regs"]:
        w(f"  localparam logic [7:0] SlotReg{camel(r['name'])} = 8'h{r['offset']:02x};")
        if "count" in r:
            w(f"  localparam int unsigned SlotReg{camel(r['name'])}Count = {r['count']};")
            w(f"  localparam int unsigned SlotReg{camel(r['name'])}Stride = {r['stride']};")
    for b in regs["bits"]:
        w(f"  localparam logic [31:0] {camel(b['name'])} = 32'h{b['value']:x};")
    w("")
    w("  // ---- slot boundary (docs/architecture.md) ----")
    w("  // One struct per channel and direction; slot_req_t runs from the thread to the static")
    w("  // region, slot_rsp_t back. On the static region's per-slot vectors each struct takes")
    w("  // *Stride bits (whole 32-bit words), the struct in the low *Width of them.")
    short = {"request": "req", "response": "rsp"}
    for direction in ("request", "response"):
        layout, width = slot_layout(spec["slot_boundary"], direction)
        d = short[direction]
        for ch, fields, _, cw in layout:
            w(f"  /// {ch.get('doc', '')} ({direction})")
            w("  typedef struct packed {")
            for name, _, fw, doc in reversed(fields):
                ty = "logic       " if fw == 1 else f"logic [{fw - 1}:0]".ljust(12)
                w(f"    {ty} {name};  // {doc}")
            w(f"  }} {ch['name']}_{d}_t;")
            w(f"  localparam int unsigned {camel(ch['name'])}{camel(d)}Width = {cw};")
        w("  typedef struct packed {")
        for ch, _, _, _ in reversed(layout):
            w(f"    {ch['name']}_{d}_t {ch['name']};")
        w(f"  }} slot_{d}_t;")
        w(f"  localparam int unsigned Slot{camel(d)}Width = {width};")
        w(f"  localparam int unsigned Slot{camel(d)}Stride = {32 * ((width + 31) // 32)};")
        w("")
    w("  // Header words, so no module assembles the fields by hand.")
    for fn, hdr, fields in (("req_header", "request_header", ("cmd", "handle", "nargs")),
                            ("resp_header", "response_header", ("cmd", "status", "nwords")),
                            ("burst_end", "burst_end", ("status", "moved"))):
        f = {x["name"]: x for x in spec[hdr]}
        params = ", ".join(f"input logic [{f[n]['msb'] - f[n]['lsb']}:0] {n}" for n in fields)
        w(f"  function automatic logic [31:0] {fn}({params});")
        w("    logic [31:0] word;")
        w("    word = '0;")
        for n in fields:
            w(f"    word[{f[n]['msb']}:{f[n]['lsb']}] = {n};")
        w(f"    {fn} = word;")
        w("  endfunction")
    f = {x["name"]: x for x in spec["memif"]["command_word0"]}
    ops = {o["name"]: o["code"] for o in spec["memif"]["ops"]}
    op, ln = f["op"], f["length"]
    w("  // MEMIF command word 0 of a write (else a read) of length bytes; word 1 is the address.")
    w(f"  function automatic logic [31:0] memif_word0(input logic write, "
      f"input logic [{ln['msb'] - ln['lsb']}:0] length);")
    w("    logic [31:0] word;")
    w("    word = '0;")
    w(f"    word[{op['msb']}:{op['lsb']}] = write ? 2'd{ops['WRITE']} : 2'd{ops['READ']};")
    w(f"    word[{ln['msb']}:{ln['lsb']}] = length;")
    w("    memif_word0 = word;")
    w("  endfunction")
    w("  // Beats of the next burst of a transfer: at most max_beats, no more than the words left,")
    w("  // never across a 4 KiB boundary (word: the word's place in its 4 KiB page).")
    w("  function automatic logic [8:0] memif_burst_beats(input logic [9:0] word, "
      "input logic [31:0] left, input logic [8:0] max_beats);")
    w("    logic [31:0] n;")
    w("    n = {21'd0, 11'd1024 - {1'b0, word}};")
    w("    if ({23'd0, max_beats} < n) n = {23'd0, max_beats};")
    w("    if (left < n) n = left;")
    w("    memif_burst_beats = n[8:0];")
    w("  endfunction")
    w("")
    w("endpackage")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("--c-header", required=True)
    ap.add_argument("--sv-package", required=True)
    args = ap.parse_args(argv)
    try:
        with open(args.spec, encoding="utf-8") as fh:
            spec = yaml.safe_load(fh)
        validate(spec)
    except (OSError, yaml.YAMLError, SpecError, KeyError, TypeError) as exc:
        print(f"gen_protocol: {args.spec}: {exc}", file=sys.stderr)
        return 1
    src = "protocol/osif.yaml"
    write_if_changed(args.c_header, c_header(spec, src))
    write_if_changed(args.sv_package, sv_package(spec, src))
    return 0


def write_if_changed(path, text):
    """Leave an up-to-date output untouched so that re-running CMake's configure step
    does not make everything that includes it rebuild."""
    try:
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


if __name__ == "__main__":
    sys.exit(main())
