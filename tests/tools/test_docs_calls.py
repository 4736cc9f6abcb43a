"""docs/calls.md stays true: every command of protocol/osif.yaml has a row, and every test
it names exists in the tree."""
import os
import pathlib
import re
import unittest

import yaml

SRC = pathlib.Path(os.environ.get("WEFT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DOC = (SRC / "docs" / "calls.md").read_text()


def sources(folder, pattern="*.cpp"):
    return "\n".join(p.read_text() for p in (SRC / "tests" / folder).rglob(pattern))


class DocsCalls(unittest.TestCase):
    def test_every_command_has_a_row(self):
        spec = yaml.safe_load((SRC / "protocol" / "osif.yaml").read_text())
        for c in spec["commands"]:
            row = rf"\| `{c['name']}` \| 0x{c['code']:02X} \|"
            self.assertTrue(re.search(row, DOC), f"docs/calls.md has no row for {c['name']}")

    def test_every_named_test_exists(self):
        e2e, unit = sources("e2e"), sources("unit")
        cmake = "\n".join(p.read_text() for p in (SRC / "tests").rglob("CMakeLists.txt"))
        names = set(re.findall(r"`((?:e2e|unit|asan|tsan)\.[^`]+|Directions\.\w+|rtl_\w+)`", DOC))
        names -= {n for n in names if "Directions.X" in n}  # the prose's placeholder
        self.assertGreater(len(names), 30)
        for name in names:
            with self.subTest(test=name):
                if name.startswith("rtl_"):
                    self.assertTrue(f"NAME {name} " in cmake, f"no ctest {name}")
                    continue
                if name.startswith("Directions."):
                    self.assertTrue(f"TEST_P(Directions, {name.split('.')[1]})" in e2e, f"no {name}")
                    continue
                area, rest = name.split(".", 1)
                suite, test = rest.split(".", 1)
                suite = suite.split("/")[-1]  # a parameter prefix, e.g. Attempts/
                test = test.split("/")[0]
                text = e2e if area == "e2e" else unit
                pattern = rf"TEST_[FP]\({suite}, " if test == "*" else rf"TEST_[FP]\({suite},\s*{test}\)"
                self.assertTrue(re.search(pattern, text), f"no test {name}")


if __name__ == "__main__":
    unittest.main()
