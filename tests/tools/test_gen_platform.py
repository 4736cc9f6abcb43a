"""Tests of tools/gen_platform.py: the platform description is checked with errors that
name the line and the field, and its outputs carry what it says."""
import os
import pathlib
import unittest

from run_generator import run_generator

SRC = pathlib.Path(os.environ.get("WEFT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
GEN = SRC / "tools" / "gen_platform.py"
DEFAULT = (SRC / "platform" / "default.yaml").read_text()

GOOD = """version: 1
name: two
clock_mhz: 50
dma:
  size: 0x100000
  bus_base: 0x20000000
slots:
  - {osif_depth: 32, mem_windows: 1, link_binds: 2}
  - {}
links:
  - {name: up, from: 0, to: 1, depth: 16}
"""


def run(text):
    res, (cm, h) = run_generator(GEN, text, "--cmake", "--c-header")
    return res, cm, h


class GenPlatform(unittest.TestCase):
    def test_default_description_is_valid(self):
        res, cm, h = run(DEFAULT)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("set(WEFT_PLATFORM_NUM_SLOTS 4)", cm)
        self.assertIn("#define WEFT_LINK_RING01 0u", h)

    def test_outputs_carry_every_field(self):
        res, cm, h = run(GOOD)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn('"-GNumSlots=2"', cm)
        self.assertIn('"-GNumLinks=1"', cm)
        self.assertIn('"-GClockMhz=50"', cm)
        self.assertIn("\"-GSlotOsifDepth=32'h100020\"", cm)  # slot 1 takes the default 16
        self.assertIn("\"-GSlotWindows=8'h21\"", cm)
        self.assertIn("\"-GSlotBinds=8'h42\"", cm)
        self.assertIn("\"-GLinkSrc=192'h0\"", cm)
        self.assertIn("\"-GLinkDst=192'h1\"", cm)
        self.assertIn("\"-GLinkDepth=384'h10\"", cm)
        self.assertIn("set(WEFT_PLATFORM_DMA_SIZE 1048576)", cm)
        self.assertIn("#define WEFT_PLATFORM_DMA_BUS 0x20000000u", h)
        self.assertIn("#define WEFT_LINK_UP 0u /* slot 0 -> slot 1, 16 words */", h)

    def expect_error(self, text, line, field, words):
        res, cm, _ = run(text)
        self.assertNotEqual(res.returncode, 0)
        self.assertEqual(cm, "", "nothing is written for a bad description")
        self.assertRegex(res.stderr, rf"input\.yaml:{line}: {field}: .*{words}", res.stderr)

    def test_schema_errors_name_line_and_field(self):
        self.expect_error(GOOD.replace("clock_mhz: 50", "clock_mhz: fast"), 3, r"clock_mhz", "not of type")
        self.expect_error(GOOD.replace("size: 0x100000", "size: 5000"), 5, r"dma\.size", "multiple of 4096")
        self.expect_error(GOOD.replace("mem_windows: 1", "mem_windows: 9"), 8, r"slots\[0\]\.mem_windows",
                          "maximum")
        self.expect_error(GOOD.replace("  - {}", "  - {colour: red}"), 9, r"slots\[1\]", "colour")
        self.expect_error(GOOD.replace("name: up, ", ""), 11, r"links\[0\]", "'name' is a required")
        self.expect_error(GOOD.replace("version: 1", "version: 2"), 1, "version", "1 was expected")

    def test_link_rules_name_line_and_field(self):
        self.expect_error(GOOD.replace("to: 1", "to: 7"), 11, r"links\[0\]\.to", "not a slot")
        self.expect_error(GOOD.replace("to: 1", "to: 0"), 11, r"links\[0\]\.to", "different slots")
        twice = GOOD + "  - {name: up, from: 1, to: 0}\n"
        self.expect_error(twice, 12, r"links\[1\]\.name", "already names links\\[0\\]")
        self.expect_error(GOOD.replace("bus_base: 0x20000000", "bus_base: 0xFFFFF000"), 5, r"dma\.size",
                          "past the 32-bit bus")

    def test_broken_yaml_and_empty_file(self):
        res, _, _ = run("version: 1\nslots: [\n")
        self.assertNotEqual(res.returncode, 0)
        self.assertRegex(res.stderr, r"input\.yaml:\d+: not valid YAML")
        res, _, _ = run("")
        self.assertIn("input.yaml:1: the file is empty", res.stderr)


if __name__ == "__main__":
    unittest.main()
