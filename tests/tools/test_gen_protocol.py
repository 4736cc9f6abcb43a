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
        self.spec["request_header"][1]["lsb"] = 10
        res, _, _ = run_gen(yaml.safe_dump(self.spec))
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("overlaps", res.stderr)

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


if __name__ == "__main__":
    unittest.main()
