"""weft trace: a thread trace (the Chrome trace JSON that weft_trace_write(), the Python
package's Fabric.trace() or weft-sort --trace write, docs/trace.md) as a timeline PNG,
one row per thread, running and blocked spans in two colours."""
import pathlib

from .common import CommandError


def add_parser(sub):
    p = sub.add_parser("trace", help="turn a trace into a timeline picture", description=__doc__)
    p.add_argument("trace", help="the trace (JSON)")
    p.add_argument("-o", "--out", help="the PNG to write (default: the trace's name, .png)")
    p.add_argument("--from", dest="t0", type=float, help="start of the window, ms")
    p.add_argument("--to", dest="t1", type=float, help="end of the window, ms")
    p.add_argument("--title", help="the picture's title")
    p.set_defaults(run=run)


def run(args, root):
    import trace_plot  # tools/trace_plot.py draws it

    src = pathlib.Path(args.trace)
    if not src.is_file():
        raise CommandError(f"{src}: no such file")
    out = pathlib.Path(args.out) if args.out else src.with_suffix(".png")
    argv = [str(src), str(out)]
    for flag, value in (("--from", args.t0), ("--to", args.t1), ("--title", args.title)):
        if value is not None:
            argv += [flag, str(value)]
    try:
        trace_plot.main(argv)
    except SystemExit as e:  # trace_plot says what was wrong with the file
        if e.code not in (None, 0):
            raise CommandError(str(e.code).removeprefix("trace_plot: "))
    print(f"timeline in {out}")
    return 0
