#!/usr/bin/env python3
"""check_doc_code.py: every C block in the README and docs/ compiles (`make test`:
tools.doc_code).

usage: check_doc_code.py --source DIR --include DIR [--include DIR ...] [--cc CC]

A ```c block is compiled by the C compiler as it stands, with Weft's public headers (and
the C library's usual ones) included first. A block that is a fragment, as most are, is
put inside a function; a line that is only "..." stands for elided code and is dropped;
the names a fragment uses without declaring them are declared in an HTML comment right
above the block, which the rendered page does not show:

    <!-- c-prelude: weft_t *w; weft_hwthread_t *hw; weft_exit_status_t status; -->

A block with a function definition or an #include of its own is compiled at file scope.

A ```python block is compiled by Python (its syntax; it is not run).

A block of any language that shows a whole file of the tree says so in a comment right
above it, and must be that file as it is (so a listing cannot go stale while the file is
built and tested):

    <!-- file: examples/out-of-tree/hwt_sum.sv -->

Exit 0 when every block compiles; otherwise each failure is printed with its file, line
and the compiler's messages, and the exit status is 1.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

HEADERS = """#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <poll.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "weft/weft.h"
#include "weft/hwsync.h"
#include "weft/mbox.h"
#include "weft/mthread.h"
#include "weft/reconf.h"
#include "weft/sim.h"
#include "weft/softcore.h"
#include "weft/trace.h"
#include "weft/weftd_client.h"
"""

BLOCK = re.compile(r"(?:<!-- c-prelude:(?P<prelude>.*?)-->\s*\n)?```c\n(?P<code>.*?)```",
                   re.S)
PYTHON = re.compile(r"```python\n(?P<code>.*?)```", re.S)
COPY = re.compile(r"<!-- file:\s*(?P<path>\S+)\s*-->\s*\n```[\w+-]*\n(?P<code>.*?)```", re.S)
FUNCTION = re.compile(r"^\w[\w\s\*]*\b\w+\s*\([^;]*\)\s*\{", re.M)


def blocks(path):
    text = path.read_text()
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start("code")) + 1
        yield line, (m.group("prelude") or "").strip(), m.group("code")


def stale_copies(src, path):
    """(line, message) for each listing that is not the file it names."""
    text = path.read_text()
    for m in COPY.finditer(text):
        line = text.count("\n", 0, m.start("code")) + 1
        target = src / m.group("path")
        if not target.is_file():
            yield line, f"names {m.group('path')}, which does not exist"
        elif target.read_text() != m.group("code"):
            yield line, f"is not {m.group('path')} as it is (copy the file into the block)"


def python_errors(path):
    """(line, message) for each Python block that does not compile."""
    text = path.read_text()
    for m in PYTHON.finditer(text):
        line = text.count("\n", 0, m.start("code")) + 1
        try:
            compile(m.group("code"), f"{path.name}:{line}", "exec")
        except SyntaxError as e:
            yield line + (e.lineno or 1) - 1, f"{e.msg}"


def unit(prelude, code):
    """The C file a block is compiled as."""
    code = "\n".join(l for l in code.splitlines() if l.strip() != "...")
    includes = "\n".join(l for l in code.splitlines() if l.startswith("#include"))
    body = "\n".join(l for l in code.splitlines() if not l.startswith("#include"))
    if FUNCTION.search(body):
        return f"{HEADERS}{includes}\n{prelude}\n{body}\n"
    return (f"{HEADERS}{includes}\n#pragma GCC diagnostic ignored \"-Wunused\"\n"
            f"void doc_block(void);\nvoid doc_block(void)\n{{\n{prelude}\n{body}\n}}\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args(argv)
    src = pathlib.Path(args.source)
    files = [src / "README.md"] + sorted((src / "docs").glob("*.md"))
    failures = checked = 0
    with tempfile.TemporaryDirectory(prefix="doc-code-") as tmp:
        for path in files:
            for line, why in stale_copies(src, path):
                failures += 1
                print(f"{path.relative_to(src)}:{line}: this listing {why}")
            checked += len(PYTHON.findall(path.read_text()))
            for line, why in python_errors(path):
                failures += 1
                print(f"{path.relative_to(src)}:{line}: this Python block does not compile: {why}")
            for line, prelude, code in blocks(path):
                checked += 1
                c = pathlib.Path(tmp) / "block.c"
                c.write_text(unit(prelude, code))
                cmd = [args.cc, "-std=c11", "-fsyntax-only", "-Wall", "-Werror",
                       "-Wno-unused-variable", "-Wno-unused-but-set-variable"]
                cmd += [f"-I{d}" for d in args.include] + [str(c)]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    failures += 1
                    print(f"{path.relative_to(src)}:{line}: this C block does not compile:\n"
                          f"{r.stderr}")
    print(f"{checked} C and Python blocks in README.md and docs/ checked, {failures} failed "
          f"(a failure is a C or Python block that does not compile or a stale listing)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
