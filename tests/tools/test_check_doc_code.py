"""tools/check_doc_code.py: a C block that compiles passes, one that does not is named by
file and line, a prelude declares what a fragment uses, "..." is dropped."""
import contextlib
import io
import os
import pathlib
import sys
import tempfile
import unittest

SRC = pathlib.Path(os.environ["WEFT_SOURCE_DIR"])
sys.path.insert(0, str(SRC / "tools"))
import check_doc_code  # noqa: E402

INCLUDES = ["--include", str(SRC / "include"), "--include", os.environ["WEFT_GEN_INCLUDE"]]


class CheckDocCode(unittest.TestCase):
    def run_on(self, readme, doc=""):
        with tempfile.TemporaryDirectory() as d:
            (pathlib.Path(d) / "docs").mkdir()
            (pathlib.Path(d) / "README.md").write_text(readme)
            (pathlib.Path(d) / "docs" / "a.md").write_text(doc)
            with contextlib.redirect_stdout(io.StringIO()) as out:
                rc = check_doc_code.main(["--source", d] + INCLUDES)
        return rc, out.getvalue()

    def test_a_fragment_with_its_prelude_compiles(self):
        rc, out = self.run_on("text\n<!-- c-prelude: weft_t *w; -->\n```c\n"
                              "uint64_t c;\n...\nweft_fabric_cycles(w, &c);\n```\n")
        self.assertEqual(rc, 0, out)
        self.assertIn("1 C and Python blocks in README.md and docs/ checked, 0 failed", out)

    def test_a_wrong_field_is_named_with_its_place(self):
        rc, out = self.run_on("# t\n", "one\ntwo\n```c\nweft_hwthread_attr_t a = {.mem_base = 1};\n"
                                       "```\n")
        self.assertEqual(rc, 1)
        self.assertIn("docs/a.md:4: this C block does not compile", out)
        self.assertIn("mem_base", out)

    def test_an_undeclared_name_fails_without_a_prelude(self):
        rc, out = self.run_on("```c\nweft_shutdown(w);\n```\n")
        self.assertEqual(rc, 1)
        self.assertIn("README.md:2:", out)

    def test_a_whole_program_compiles_at_file_scope(self):
        rc, out = self.run_on("```c\n#include <stdio.h>\nint main(void)\n{\n    return 0;\n}\n```\n")
        self.assertEqual(rc, 0, out)


if __name__ == "__main__":
    unittest.main()

    def test_a_listing_must_be_the_file_it_names(self):
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            (root / "docs").mkdir()
            (root / "t.sv").write_text("module t;\nendmodule\n")
            (root / "README.md").write_text("<!-- file: t.sv -->\n```systemverilog\n"
                                            "module t;\nendmodule\n```\n")
            (root / "docs" / "a.md").write_text("x\n<!-- file: t.sv -->\n```systemverilog\n"
                                                "module t (input a);\nendmodule\n```\n"
                                                "<!-- file: gone.sv -->\n```\nx\n```\n")
            with contextlib.redirect_stdout(io.StringIO()) as out:
                rc = check_doc_code.main(["--source", d] + INCLUDES)
        self.assertEqual(rc, 1)
        self.assertIn("docs/a.md:3: this listing is not t.sv as it is", out.getvalue())
        self.assertIn("names gone.sv, which does not exist", out.getvalue())
        self.assertNotIn("README.md", out.getvalue())

    def test_a_python_block_that_does_not_parse_is_named(self):
        rc, out = self.run_on("# t\n", "x\n```python\nimport weft\nif True print(1)\n```\n"
                                       "```python\nprint('fine')\n```\n")
        self.assertEqual(rc, 1)
        self.assertIn("docs/a.md:4: this Python block does not compile", out)
