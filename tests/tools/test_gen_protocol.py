"""Tests of tools/gen_protocol.py: the protocol definition is validated and both outputs
agree with it."""
import os
import pathlib
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
