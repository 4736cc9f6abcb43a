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
# Words the name cannot be: it is a SystemVerilog module (IEEE 1800-2017 Annex B keywords),
# a C identifier and a CMake target; and weft_* is the API's and the build's.
SV_KEYWORDS = set("""
accept_on alias always always_comb always_ff always_latch and assert assign assume automatic
before begin bind bins binsof bit break buf bufif0 bufif1 byte case casex casez cell chandle
checker class clocking cmos config const constraint context continue cover covergroup
coverpoint cross deassign default defparam design disable dist do edge else end endcase
endchecker endclass endclocking endconfig endfunction endgenerate endgroup endinterface
endmodule endpackage endprimitive endprogram endproperty endspecify endsequence endtable
endtask enum event eventually expect export extends extern final first_match for force
foreach forever fork forkjoin function generate genvar global highz0 highz1 if iff ifnone
ignore_bins illegal_bins implements implies import incdir include initial inout input
inside instance int integer interconnect interface intersect join join_any join_none large
let liblist library local localparam logic longint macromodule matches medium modport module
nand negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1 null or output
package packed parameter pmos posedge primitive priority program property protected pull0
pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase
randsequence rcmos real realtime ref reg reject_on release repeat restrict return rnmos
rpmos rtran rtranif0 rtranif1 s_always s_eventually s_nexttime s_until s_until_with
scalared sequence shortint shortreal showcancelled signed small soft solve specify
specparam static std string strong strong0 strong1 struct super supply0 supply1
sync_accept_on sync_reject_on table tagged task this throughout time timeprecision
timeunit tran tranif0 tranif1 tri tri0 tri1 triand trior trireg type typedef union unique
unique0 unsigned until until_with untyped use uwire var vectored virtual void wait
wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor
""".split())
C_KEYWORDS = set("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while main
""".split())
RESERVED = SV_KEYWORDS | C_KEYWORDS | set(keyword.kwlist) | {"all", "install", "clean", "test",
                                                             "help", "package"}


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
    if name.startswith("weft_"):
        raise CommandError(f"\"{name}\": names starting with weft_ are Weft's own (its API "
                           f"modules and build targets); choose another name")
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
