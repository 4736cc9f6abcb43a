"""The `weft` command: one tool with a subcommand per job (docs/weft-command.md).

    weft new-thread NAME   a hardware thread, its test bench, a program and CMake lines
    weft info              the platform: slots, partitions, links, windows, tasks
    weft area              a thread's area by Yosys synth_xilinx, or the build's report
    weft trace             a thread trace as a timeline picture

Errors a person can act on go to stderr as "weft <subcommand>: ..." with exit status 1;
none is a Python traceback.
"""
import argparse
import pathlib
import sys

from . import area, info, new_thread, trace
from .common import CommandError

# The tree's root, or share/weft when installed: the two are laid out alike.
ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def main(argv=None):
    ap = argparse.ArgumentParser(prog="weft", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", metavar="SUBCOMMAND", required=True)
    for module in (new_thread, info, area, trace):
        module.add_parser(sub)
    args = ap.parse_args(argv)
    try:
        return args.run(args, ROOT) or 0
    except CommandError as e:
        sys.stderr.write(f"weft {args.command}: {e}\n")
    except OSError as e:  # a file or directory it could not read or write
        where = f"{e.filename}: " if e.filename else ""
        sys.stderr.write(f"weft {args.command}: {where}{e.strerror or e}\n")
    except ValueError as e:  # e.g. a file that is not text
        sys.stderr.write(f"weft {args.command}: {e}\n")
    return 1
