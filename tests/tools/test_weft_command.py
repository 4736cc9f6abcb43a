"""The weft command (tools/weft, docs/weft-command.md): each subcommand's output, and
errors a person can act on (exit 1, one message naming what was wrong, no traceback)."""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

SRC = pathlib.Path(os.environ["WEFT_SOURCE_DIR"])
BUILD = pathlib.Path(os.environ["WEFT_BUILD_DIR"])
WEFT = [sys.executable, str(SRC / "tools" / "weft")]


def weft(*args, cwd=None):
    r = subprocess.run(WEFT + list(args), capture_output=True, text=True, cwd=cwd,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return r.returncode, r.stdout, r.stderr


class Info(unittest.TestCase):
    def test_the_default_platform_as_tables(self):
        rc, out, err = weft("info")
        self.assertEqual(rc, 0, err)
        self.assertIn("4 slots at 100 MHz", out)
        self.assertIn("0x1000000 bytes at bus address 0x10000000", out)
        self.assertRegex(out, r"ring01\s+0\s+1\s+128")
        self.assertRegex(out, r"big\s+0,1\s+lut=8000")
        self.assertRegex(out, r"vecsum\s+hwt_hls_vecsum\s+big\s+accelerator")
        self.assertRegex(out, r"threads\s+threads=256 priorities=128")

    def test_the_small_platform_lists_no_service(self):
        rc, out, err = weft("info", str(SRC / "platform" / "small.yaml"))
        self.assertEqual(rc, 0, err)
        for service in ("sync", "threads", "events", "reconfiguration"):
            self.assertRegex(out, rf"{service}\s+not built")

    def test_json_is_the_checked_description(self):
        rc, out, err = weft("info", "--json")
        self.assertEqual(rc, 0, err)
        desc = json.loads(out)
        self.assertEqual(len(desc["slots"]), 4)
        self.assertEqual(desc["partitions"][1]["mask"], 0b1100)

    def test_a_bad_description_is_named_with_its_line(self):
        with tempfile.TemporaryDirectory() as d:
            bad = pathlib.Path(d) / "p.yaml"
            bad.write_text((SRC / "platform" / "default.yaml").read_text()
                           .replace("clock_mhz: 100", "clock_mhz: fast"))
            rc, out, err = weft("info", str(bad))
            self.assertEqual(rc, 1)
            self.assertIn("is not a valid platform description", err)
            self.assertIn("clock_mhz", err)
            self.assertNotIn("Traceback", err)
            rc, out, err = weft("info", str(pathlib.Path(d) / "missing.yaml"))
            self.assertEqual((rc, err.startswith("weft info: cannot read")), (1, True), err)


class NewThread(unittest.TestCase):
    def test_makes_the_four_files_with_the_name_in_them(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = weft("new-thread", "hwt_scale", cwd=d)
            self.assertEqual(rc, 0, err)
            made = sorted(p.name for p in (pathlib.Path(d) / "hwt_scale").iterdir())
            self.assertEqual(made, ["CMakeLists.txt", "hwt_scale.sv", "hwt_scale_run.c",
                                    "tb_hwt_scale.cpp"])
            for f in (pathlib.Path(d) / "hwt_scale").iterdir():
                self.assertNotIn("@NAME@", f.read_text(), f.name)
            self.assertIn("module hwt_scale (", (pathlib.Path(d) / "hwt_scale" / "hwt_scale.sv")
                          .read_text())

    def test_refuses_bad_names_and_existing_directories_writing_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            for name, why in (("9x", "cannot name a thread"), ("Hwt", "cannot name a thread"),
                              ("module", "reserved word"), ("a-b", "cannot name a thread"),
                              ("wait", "reserved word"), ("weft_ram", "Weft's own")):
                rc, out, err = weft("new-thread", name, cwd=d)
                self.assertEqual(rc, 1, name)
                self.assertIn(why, err)
            (pathlib.Path(d) / "taken").mkdir()
            rc, out, err = weft("new-thread", "hwt_x", "--dir", "taken", cwd=d)
            self.assertEqual(rc, 1)
            self.assertIn("taken already exists", err)
            self.assertEqual(sorted(p.name for p in pathlib.Path(d).iterdir()), ["taken"])


class Area(unittest.TestCase):
    def test_a_new_thread_is_synthesised_and_counted(self):
        with tempfile.TemporaryDirectory() as d:
            weft("new-thread", "hwt_small", cwd=d)
            rc, out, err = weft("area", "hwt_small/hwt_small.sv", "--build", str(BUILD), cwd=d)
            self.assertEqual(rc, 0, err)
            self.assertIn("area of hwt_small", out)
            luts, lutram, ffs = (int(x) for x in out.splitlines()[2].split()[:3])
            self.assertGreater(luts, 50)
            self.assertGreater(ffs, 96)  # n, i and the sum are 32 bits each

    def test_errors_name_the_file_or_the_top(self):
        rc, out, err = weft("area", "/no/such.sv")
        self.assertEqual((rc, "/no/such.sv: no such file" in err), (1, True), err)
        rc, out, err = weft("area", str(SRC / "examples/out-of-tree/hwt_sum.sv"), "--top", "x; shell")
        self.assertEqual((rc, "not a module name" in err), (1, True), err)
        rc, out, err = weft("area", str(SRC / "examples/out-of-tree/hwt_sum.sv"), "--param", "N=1;x")
        self.assertEqual((rc, "not NAME=VALUE" in err), (1, True), err)
        with tempfile.TemporaryDirectory() as d:
            weft("new-thread", "hwt_small", cwd=d)
            rc, out, err = weft("area", "hwt_small/hwt_small.sv", "--top", "nope", "--build",
                                str(BUILD), cwd=d)
            self.assertEqual(rc, 1)
            self.assertIn("yosys failed on nope", err)


class Trace(unittest.TestCase):
    def test_a_trace_becomes_a_png_and_a_non_trace_an_error(self):
        events = [{"ph": "M", "name": "thread_name", "tid": 1, "args": {"name": "hw-sort-0"}},
                  {"ph": "X", "name": "running", "tid": 1, "ts": 0, "dur": 500},
                  {"ph": "X", "name": "blocked MBOX_GET", "tid": 1, "ts": 500, "dur": 200}]
        with tempfile.TemporaryDirectory() as d:
            t = pathlib.Path(d) / "t.json"
            t.write_text(json.dumps({"traceEvents": events}))
            rc, out, err = weft("trace", str(t))
            self.assertEqual(rc, 0, err)
            self.assertEqual((pathlib.Path(d) / "t.png").read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
            t.write_text("[1, 2")
            rc, out, err = weft("trace", str(t), "-o", str(pathlib.Path(d) / "u.png"))
            self.assertEqual(rc, 1)
            self.assertIn("is not a trace", err)
            self.assertNotIn("Traceback", err)
            t.write_text(json.dumps({"traceEvents": events}))
            rc, out, err = weft("trace", str(t), "-o", str(pathlib.Path(d) / "no" / "x.png"))
            self.assertEqual(rc, 1)
            self.assertIn("No such file or directory", err)
            self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main()
