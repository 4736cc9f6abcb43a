"""Tests of tools/gen_platform.py: the platform description is checked with errors that
name the line and the field, and its outputs carry what it says."""
import json
import os
import pathlib
import tempfile
import unittest

from run_generator import run_generator
from test_gen_protocol import undocumented

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


def run(text, extra=()):
    res, (cm, h) = run_generator(GEN, text, "--cmake", "--c-header", extra=extra)
    return res, cm, h


# Two partitions and three tasks on four slots.
PARTS = """version: 1
name: parts
clock_mhz: 100
dma: {size: 0x100000, bus_base: 0x20000000}
slots: [{}, {}, {}, {}]
partitions:
  - name: big
    slots: [0, 2]
    shape: {lut: 5000, ff: 5000, bram36: 4, dsp: 8}
  - name: small
    slots: [3]
    shape: {lut: 1000, ff: 1000, bram36: 1, dsp: 0}
tasks:
  - {name: sort, image: hwt_sort, partition: big}
  - {name: sum, image: hwt_sum, kind: accelerator, partition: small}
  - {name: sort_small, image: hwt_sort, partition: small}
"""


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
        self.assertIn("\"-GFriRate=16'd307\"", cm)  # FRED's 1.2 bytes a cycle unless set
        self.assertIn("#define WEFT_PLATFORM_FRI_RATE 307u", h)
        self.assertIn("set(WEFT_PLATFORM_DMA_SIZE 1048576)", cm)
        self.assertIn("#define WEFT_PLATFORM_DMA_BUS 0x20000000u", h)
        self.assertIn("#define WEFT_LINK_UP 0u /**< hardware link up: slot 0 -> slot 1, 16 words */", h)

    def test_c_header_is_documented_for_doxygen(self):
        """docs.api_reference runs Doxygen on the header and fails on anything undocumented:
        every declaration has a Doxygen comment, with links, partitions and tasks or none."""
        for text in (DEFAULT, GOOD, PARTS):
            res, _, h = run(text)
            self.assertEqual(res.returncode, 0, res.stderr)
            first = h[:h.index("*/") + 2]
            self.assertTrue(first.startswith("/**\n * @file platform_config.h\n * @brief "), first)
            for words in ("input.yaml", "tools/gen_platform.py", "Do not edit"):
                self.assertIn(words, " ".join(first.replace(" * ", " ").split()))
            missing, checked = undocumented(h)
            self.assertEqual(missing, [], "declared without a Doxygen comment")
            self.assertEqual(checked, h.count("#define ") - 1 + 5, "every macro (not the guard), the struct "
                             "and its members were checked")
            if text is PARTS:
                self.assertIn("#define WEFT_SLOTS_OF_BIG 0x5u /**< slots of partition big (bit i: slot i) */", h)

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

    def test_the_reconfiguration_port_rate_is_fixed_point(self):
        res, cm, h = run(GOOD + "services: {reconfiguration: {bytes_per_cycle: 4}}\n")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("\"-GFriRate=16'd1024\"", cm)
        self.assertIn("\"FriRate=16'd1024\"", cm)
        self.assertIn("#define WEFT_PLATFORM_FRI_RATE 1024u", h)
        line = GOOD.count("\n") + 1
        self.expect_error(GOOD + "services: {reconfiguration: {bytes_per_cycle: 5}}\n", line,
                          r"services\.reconfiguration\.bytes_per_cycle", "maximum")
        self.expect_error(GOOD + "services: {reconfiguration: {bytes_per_cycle: 0}}\n", line,
                          r"services\.reconfiguration\.bytes_per_cycle", "minimum")

    def test_services_become_parameters_and_the_services_mask(self):
        # No services section: every service at its default size.
        res, cm, h = run(GOOD)
        self.assertEqual(res.returncode, 0, res.stderr)
        for param in ("SyncObjs=32", "SyncSwCtx=4", "TmThreads=256", "TmPrios=128", "TmEvents=1",
                      "TmTimers=4", "Fri=1"):
            self.assertIn(f'"-G{param}"', cm)
        self.assertIn("#define WEFT_PLATFORM_SERVICES 0x1fu", h)
        # Only what is listed, with its sizes; an empty entry takes the defaults.
        res, cm, h = run(GOOD + "services:\n  sync: {objects: 8}\n  threads: {priorities: 16}\n")
        self.assertEqual(res.returncode, 0, res.stderr)
        for param in ("SyncObjs=8", "SyncSwCtx=4", "TmThreads=256", "TmPrios=16", "TmEvents=0",
                      "TmTimers=0", "Fri=0"):
            self.assertIn(f'"-G{param}"', cm)
        self.assertIn("#define WEFT_PLATFORM_SERVICES 0x13u", h)  # sync, threads, links
        res, cm, h = run(GOOD.split("links:")[0] + "services: {}\n")
        self.assertEqual(res.returncode, 0, res.stderr)
        for param in ("SyncObjs=0", "TmThreads=0", "TmEvents=0", "Fri=0", "NumLinks=0"):
            self.assertIn(f'"-G{param}"', cm)
        self.assertIn("#define WEFT_PLATFORM_SERVICES 0x0u", h)

    def test_service_rules_name_line_and_field(self):
        line = GOOD.count("\n") + 2
        self.expect_error(GOOD + "services:\n  events: {timers: 2}\n", line, r"services\.events",
                          "needs services.threads")
        self.expect_error(GOOD + "services:\n  sync: {sw_contexts: 31}\n", line + 0,
                          r"services\.sync\.sw_contexts", "room for 30 software contexts, not 31")
        self.expect_error(GOOD + "services:\n  threads: {threads: 1}\n", line, r"services\.threads\.threads",
                          "minimum")
        self.expect_error(PARTS + "services: {sync: {}}\n", 7, r"partitions",
                          "needs services.reconfiguration")
        # The section that was top level before the services says where it went.
        self.expect_error(GOOD + "reconfiguration: {bytes_per_cycle: 1}\n", line - 1, r"reconfiguration",
                          "services: {reconfiguration")

    def test_the_small_platform_has_no_service(self):
        res, cm, h = run((SRC / "platform" / "small.yaml").read_text())
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("#define WEFT_PLATFORM_SERVICES 0x0u", h)
        self.assertIn('"-GNumLinks=0"', cm)

    def test_partitions_and_tasks_reach_the_outputs(self):
        res, cm, h = run(PARTS)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("#define WEFT_PLATFORM_NUM_PARTITIONS 2u", h)
        self.assertIn("#define WEFT_PARTITION_BIG 0u", h)
        self.assertIn("#define WEFT_SLOTS_OF_BIG 0x5u", h)
        self.assertIn("#define WEFT_SLOTS_OF_SMALL 0x8u", h)
        self.assertIn('"sort:hwt_sort:big:5"', cm)
        self.assertIn('"sort_small:hwt_sort:small:8"', cm)
        self.assertIn('{"sort", "hwt_sort", 0u, 0}, {"sum", "hwt_sum", 1u, 1}', h)
        bad = PARTS.replace("kind: accelerator", "kind: fpga")
        self.expect_error(bad, 15, r"tasks\[1\]\.kind", "is not one of")

    def test_partition_rules_name_line_and_field(self):
        self.expect_error(PARTS.replace("slots: [0, 2]", "slots: [0, 9]"), 8, r"partitions\[0\]\.slots\[1\]",
                          "not a slot")
        self.expect_error(PARTS.replace("slots: [3]", "slots: [2]"), 11, r"partitions\[1\]\.slots\[0\]",
                          "already in partition 'big'")
        self.expect_error(PARTS.replace("slots: [3]", "slots: []"), 11, r"partitions\[1\]\.slots",
                          "at least one slot")
        self.expect_error(PARTS.replace("name: small", "name: big"), 10, r"partitions\[1\]\.name",
                          "already names partitions\\[0\\]")
        self.expect_error(PARTS.replace("partition: small}", "partition: huge}", 1), 15,
                          r"tasks\[1\]\.partition", "'huge' is not a partition of this platform \\(big, small\\)")
        self.expect_error(PARTS.replace("name: sum,", "name: sort,"), 15, r"tasks\[1\]\.name",
                          "already names tasks\\[0\\]")
        self.expect_error(PARTS.replace("dsp: 0}", "dsp: -1}"), 12, r"partitions\[1\]\.shape\.dsp", "minimum")

    def test_a_task_must_fit_its_partition_by_the_area_report(self):
        area = {"modules": {"hwt_sort": {"lut_total": 3000, "ff": 1500, "bram36_equivalent": 1, "dsp": 0},
                            "hwt_sum": {"lut_total": 400, "ff": 300, "bram36_equivalent": 0.5, "dsp": 0}}}
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d, "area.json")
            path.write_text(json.dumps(area))
            fits = PARTS.replace("  - {name: sort_small, image: hwt_sort, partition: small}\n", "")
            res, _, _ = run(fits, extra=("--area", str(path)))
            self.assertEqual(res.returncode, 0, res.stderr)
            res, cm, _ = run(PARTS, extra=("--area", str(path)))
            self.assertNotEqual(res.returncode, 0)
            self.assertEqual(cm, "", "nothing is written for a task that does not fit")
            self.assertIn("input.yaml:16: tasks[2].image: hwt_sort needs 3,000 LUTs, a slot of partition "
                          "'small' offers 1,000", res.stderr)
            self.assertIn("hwt_sort needs 1,500 flip-flops", res.stderr)
            res, _, _ = run(PARTS.replace("image: hwt_sum", "image: hwt_gone"), extra=("--area", str(path)))
            self.assertIn("tasks[1].image: hwt_gone is not in the area report", res.stderr)
            res, _, _ = run(PARTS, extra=("--area", str(pathlib.Path(d, "missing.json"))))
            self.assertIn("not an area report of tools/area_report.py", res.stderr)
            # The report's own file: threads apart, other keys; a thread that failed.
            own = {"modules": {}, "threads": {"hwt_sort": {"luts_total": 3000, "ffs": 1500, "brams": 1,
                                                           "dsps": 0},
                                              "hwt_sum": {"error": "yosys failed"}}}
            path.write_text(json.dumps(own))
            res, _, _ = run(PARTS, extra=("--area", str(path)))
            self.assertIn("hwt_sort needs 3,000 LUTs", res.stderr)
            self.assertIn("tasks[1].image: the area report has no area of hwt_sum (yosys failed)", res.stderr)

    def test_broken_yaml_and_empty_file(self):
        res, _, _ = run("version: 1\nslots: [\n")
        self.assertNotEqual(res.returncode, 0)
        self.assertRegex(res.stderr, r"input\.yaml:\d+: not valid YAML")
        res, _, _ = run("")
        self.assertIn("input.yaml:1: the file is empty", res.stderr)


if __name__ == "__main__":
    unittest.main()
