"""Tests of tools/gen_protocol.py: the protocol definition is validated and both outputs
agree with it."""
import os
import pathlib
import re
import subprocess
import tempfile
import unittest

import yaml

from run_generator import run_generator

SRC = pathlib.Path(os.environ.get("WEFT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
GEN = SRC / "tools" / "gen_protocol.py"
SPEC = SRC / "protocol" / "osif.yaml"


def run_gen(spec_text):
    res, (h, sv) = run_generator(GEN, spec_text, "--c-header", "--sv-package")
    return res, h, sv


def _has_text(comment):
    return re.search(r"[A-Za-z0-9]", comment) is not None


def undocumented(header):
    """What a generated C header declares without a Doxygen comment, as (line number, line)
    pairs, and how many declarations it checked. A declaration is a #define (not the
    include guard), a function, a typedef, or an enumerator or member of a typedef's
    body; its comment is one of its own after it on the line (/**< ... */), or, except for
    an enumerator or member, a /** ... */ block that ends on the line before it (not one
    that only opens or closes a member group, nor the @file block). A comment without a
    word documents nothing."""
    guard = re.search(r"^#ifndef (\w+)$", header, re.M)
    missing, checked = [], 0
    block = None        # the text of the /** block being read
    doc_before = False  # the line before ends a /** block that documents the next line
    in_body = False     # inside the braces of a typedef enum or struct
    for n, line in enumerate(header.splitlines(), 1):
        s = line.strip()
        if block is not None or (s.startswith("/**") and not s.startswith("/**<")):
            block = s if block is None else block + " " + s
            if "*/" in s:
                doc_before = (not re.search(r"@file|@name|@\{|@\}", block)
                              and _has_text(block.replace("/**", "").replace("*/", "")))
                block = None
            continue
        own = re.search(r"/\*\*<(.*?)\*/\s*$", s)
        own = own is not None and _has_text(own.group(1))
        if in_body and s.startswith("}"):
            in_body = False
            declares, member = False, False
        else:
            member = in_body and s != ""
            is_guard = guard is not None and s == f"#define {guard.group(1)}"
            declares = (member or (s.startswith("#define ") and not is_guard)
                        or s.startswith(("static inline ", "typedef ")))
        if declares:
            checked += 1
            if not (own or (doc_before and not member)):
                missing.append((n, line))
        if s.startswith("typedef ") and s.endswith("{"):
            in_body = True
        doc_before = False
    return missing, checked


class GenProtocol(unittest.TestCase):
    def setUp(self):
        self.spec = yaml.safe_load(SPEC.read_text())

    def test_every_command_reaches_both_outputs(self):
        res, h, sv = run_gen(SPEC.read_text())
        self.assertEqual(res.returncode, 0, res.stderr)
        for c in self.spec["commands"]:
            self.assertIn(f"WEFT_OSIF_CMD_{c['name']} = {c['code']:#04x}", h)
            camel = "".join(p.capitalize() for p in c["name"].lower().split("_"))
            self.assertIn(f"Cmd{camel} = 8'h{c['code']:02x}", sv)

    def test_duplicate_command_code_is_rejected_by_name(self):
        self.spec["commands"][1]["code"] = self.spec["commands"][0]["code"]
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn(self.spec["commands"][1]["name"], res.stderr)
        self.assertIn("already used", res.stderr)

    def test_overlapping_header_fields_are_rejected(self):
        self.spec["request_header"][1]["lsb"] = 4  # the handle into nargs [7:0]
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("overlaps", res.stderr)

    def test_max_args_must_be_what_nargs_holds(self):
        # Every header must frame a request (protocol version 4): no count a header can
        # announce may be more than a request may carry.
        self.spec["limits"]["max_args"] = 200
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("limits.max_args: must be 255", res.stderr)

    def test_unknown_handle_type_is_rejected(self):
        self.spec["commands"][0]["handle"] = "SEMAPHORE"
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("SEMAPHORE", res.stderr)

    def test_malformed_yaml_names_the_file(self):
        res, _, _ = run_gen("version: [1\n")
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("input.yaml", res.stderr)

    def test_header_compiles_as_c11(self):
        res, h, _ = run_gen(SPEC.read_text())
        self.assertEqual(res.returncode, 0)
        with tempfile.TemporaryDirectory() as d:
            p = pathlib.Path(d, "t.c")
            p.write_text(h + "\nint main(void){return weft_osif_cmd_lookup(0x01)==0;}\n")
            cc = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", str(pathlib.Path(d, "t")), str(p)],
                                capture_output=True, text=True)
            self.assertEqual(cc.returncode, 0, cc.stderr)
            self.assertEqual(subprocess.run([str(pathlib.Path(d, "t"))]).returncode, 0)

    def test_slot_boundary_widths_agree_between_c_and_sv(self):
        res, h, sv = run_gen(SPEC.read_text())
        self.assertEqual(res.returncode, 0, res.stderr)
        for direction, tag, d in (("request", "REQ", "Req"), ("response", "RSP", "Rsp")):
            width = sum(f["width"] for ch in self.spec["slot_boundary"][direction] for f in ch["fields"])
            self.assertIn(f"#define WEFT_SLOT_{tag}_BITS {width}u", h)
            self.assertIn(f"#define WEFT_SLOT_{tag}_WORDS {(width + 31) // 32}u", h)
            self.assertIn(f"localparam int unsigned Slot{d}Width = {width};", sv)
            self.assertIn(f"localparam int unsigned Slot{d}Stride = {32 * ((width + 31) // 32)};", sv)

    def test_slot_fields_tile_the_words_and_round_trip_in_c(self):
        """Every field of both directions, set alone to all ones, reads back as all ones and
        sets exactly its width of bits; all fields together set exactly the struct's bits;
        distinct values in every field read back unchanged (fields crossing a word too)."""
        res, h, _ = run_gen(SPEC.read_text())
        self.assertEqual(res.returncode, 0, res.stderr)
        checks = []
        for direction, tag in (("request", "REQ"), ("response", "RSP")):
            fields = [f"{tag}_{ch['name'].upper()}_{f['name'].upper()}"
                      for ch in self.spec["slot_boundary"][direction] for f in ch["fields"]]
            words = f"WEFT_SLOT_{tag}_WORDS"
            checks.append(f"{{ uint32_t all[{words}] = {{0}};")
            for n in fields:
                mask = f"(uint32_t)((1ull << WEFT_SLOT_{n}_WIDTH) - 1)"
                checks.append(f"  {{ uint32_t w[{words}] = {{0}}; WEFT_SLOT_SET(w, {n}, 0xffffffffu);"
                              f" if (WEFT_SLOT_GET(w, {n}) != {mask} || ones(w, {words}) != WEFT_SLOT_{n}_WIDTH) return 1;"
                              f" WEFT_SLOT_SET(all, {n}, 0xffffffffu); }}")
            checks.append(f"  if (ones(all, {words}) != WEFT_SLOT_{tag}_BITS) return 2;")
            for i, n in enumerate(fields):
                checks.append(f"  WEFT_SLOT_SET(all, {n}, 0x9e3779b9u * {i + 1}u);")
            for i, n in enumerate(fields):
                mask = f"(uint32_t)((1ull << WEFT_SLOT_{n}_WIDTH) - 1)"
                checks.append(f"  if (WEFT_SLOT_GET(all, {n}) != ((0x9e3779b9u * {i + 1}u) & {mask})) return 3;")
            checks.append("}")
        prog = (h + "\nstatic unsigned ones(const uint32_t *w, unsigned n)\n"
                "{ unsigned c = 0; for (unsigned i = 0; i < n; i++) c += (unsigned)__builtin_popcount(w[i]); return c; }\n"
                "int main(void)\n{\n" + "\n".join(checks) + "\n  return 0;\n}\n")
        with tempfile.TemporaryDirectory() as d:
            p = pathlib.Path(d, "t.c")
            p.write_text(prog)
            cc = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", str(pathlib.Path(d, "t")), str(p)],
                                capture_output=True, text=True)
            self.assertEqual(cc.returncode, 0, cc.stderr)
            self.assertEqual(subprocess.run([str(pathlib.Path(d, "t"))]).returncode, 0)

    def test_c_header_is_documented_for_doxygen(self):
        """docs.api_reference runs Doxygen on the header and fails on anything undocumented;
        this says which generator line lost its comment without running Doxygen."""
        res, h, _ = run_gen(SPEC.read_text())
        self.assertEqual(res.returncode, 0, res.stderr)
        first = h[:h.index("*/") + 2]
        self.assertTrue(first.startswith("/**\n * @file osif_protocol.h\n * @brief "), first)
        for words in ("protocol/osif.yaml", "tools/gen_protocol.py", "Do not edit"):
            self.assertIn(words, " ".join(first.replace(" * ", " ").split()))
        missing, checked = undocumented(h)
        self.assertEqual(missing, [], "declared without a Doxygen comment")
        defines = len(re.findall(r"^#define ", h, re.M)) - 1  # all but the include guard
        functions_and_types = len(re.findall(r"^(static inline|typedef) ", h, re.M))
        enumerators = sum(len(self.spec[k]) for k in ("resource_types", "commands", "errors"))
        self.assertGreater(checked, defines + functions_and_types + enumerators,
                           "every declaration was checked, struct members too")
        # The check finds a comment gone, after the line or before it.
        lines = h.splitlines()
        i = next(n for n, x in enumerate(lines) if x.startswith("#define WEFT_OSIF_REQ_CMD_SHIFT "))
        lines[i] = lines[i][:lines[i].index(" /**<")]
        self.assertEqual(undocumented("\n".join(lines))[0], [(i + 1, lines[i])])
        lines = h.splitlines()
        i = next(n for n, x in enumerate(lines) if x.startswith("static inline uint32_t weft_osif_req_header("))
        start = max(n for n in range(i) if lines[n].startswith("/**"))
        del lines[start:i]
        self.assertEqual(undocumented("\n".join(lines))[0], [(start + 1, lines[start])])

    def test_c_header_documents_fields_from_the_yaml(self):
        res, h, _ = run_gen(SPEC.read_text())
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("#define WEFT_OSIF_REQ_CMD_SHIFT 24u /**< bit position of cmd (WEFT_OSIF_REQ_CMD_MASK) */", h)
        self.assertIn("#define WEFT_OSIF_REQ_CMD_MASK  0xffu /**< cmd, bits 31:24: command code (commands below) */", h)
        self.assertIn("#define WEFT_SLOT_REQ_OSIF_OUT_VALID_LSB 32u /**< lowest bit of osif.out_valid: out_data is "
                      "valid */", h)
        self.assertIn("#define WEFT_SLOT_REG_FIFO_DEPTH 0x30u /**< ro: [15:0] HW2SW depth, [31:16] SW2HW depth */", h)
        # A one-bit value of a register says its bit, from the value.
        self.assertIn("#define WEFT_CONTROL_RUN 0x2u /**< WEFT_SLOT_REG_CONTROL bit 1, RUN: ", h)
        # A bit without a register is its doc alone; a bit without a doc is refused.
        self.spec["registers"]["bits"][0].pop("reg")
        self.spec["registers"]["bits"][0]["doc"] = "holds the thread in reset"
        res, h, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("#define WEFT_CONTROL_RESET 0x1u /**< holds the thread in reset */", h)
        self.assertEqual(undocumented(h)[0], [])
        self.spec["registers"]["bits"].append({"name": "NEW_BIT", "value": 0x100})
        res, h, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("NEW_BIT has no doc", res.stderr)

    def test_a_doc_cannot_end_the_comment(self):
        self.spec["errors"][0]["doc"] = "success */ int oops;"
        res, h, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("WEFT_OSIF_OK = 0, /**< success * / int oops; */", h)

    def test_slot_boundary_channels_must_pair_up(self):
        self.spec["slot_boundary"]["response"].reverse()
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("same channels", res.stderr)

    def test_slot_boundary_field_wider_than_a_word_is_rejected(self):
        self.spec["slot_boundary"]["request"][0]["fields"][0]["width"] = 33
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("out_data: width must be 1..32", res.stderr)


if __name__ == "__main__":
    unittest.main()
