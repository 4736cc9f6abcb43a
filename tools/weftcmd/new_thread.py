"""weft new-thread: a new hardware thread in a directory of its own, ready to build
against an installed Weft and to pass as made: the thread (NAME.sv: GET_INIT_DATA, a loop,
THREAD_EXIT), its test bench (tb_NAME.cpp: the RTL alone against Weft's model of a slot's
static side), a program that runs it on the simulated fabric (NAME_run.c) and a
CMakeLists.txt with both as tests. Change the thread's work and the checks from there."""
import keyword
import pathlib
import re

from .common import CommandError

TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"
FILES = {"thread.sv.in": "{name}.sv", "tb.cpp.in": "tb_{name}.cpp", "main.c.in": "{name}_run.c",
         "CMakeLists.txt.in": "CMakeLists.txt"}
# Words the name cannot be: it is a SystemVerilog module, a C identifier and a CMake target.
RESERVED = {"module", "endmodule", "logic", "input", "output", "begin", "end", "always",
            "assign", "wire", "reg", "int", "case", "default", "for", "if", "else", "function",
            "task", "package", "interface", "class", "static", "const", "unsigned", "signed",
            "struct", "union", "enum", "typedef", "void", "main", "test", "all", "install",
            "clean", "help"} | set(keyword.kwlist)


def add_parser(sub):
    p = sub.add_parser("new-thread", help="a hardware thread, its test bench, a program, CMake",
                       description=__doc__)
    p.add_argument("name", help="the thread's name: a module and C identifier, e.g. hwt_scale")
    p.add_argument("--dir", help="where to make it (default: ./NAME); must not exist")
    p.set_defaults(run=run)


def run(args, root):
    name = args.name
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,62}", name):
        raise CommandError(f"\"{name}\" cannot name a thread: use lower-case letters, digits "
                           f"and _, starting with a letter (a SystemVerilog module and C name)")
    if name in RESERVED:
        raise CommandError(f"\"{name}\" is a reserved word; choose another name")
    out = pathlib.Path(args.dir or name)
    if out.exists():
        raise CommandError(f"{out} already exists; choose another --dir (nothing was written)")
    out.mkdir(parents=True)
    for template, target in FILES.items():
        text = (TEMPLATES / template).read_text().replace("@NAME@", name)
        (out / target.format(name=name)).write_text(text)
    print(f"made {out}/: {', '.join(t.format(name=name) for t in FILES.values())}")
    print(f"build and test it against an installed Weft:\n"
          f"  cmake -S {out} -B {out}/build -DCMAKE_PREFIX_PATH=<weft prefix>\n"
          f"  cmake --build {out}/build && ctest --test-dir {out}/build")
    return 0
