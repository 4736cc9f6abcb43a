"""What the subcommands share: the error a user can act on, and where things are."""
import pathlib


class CommandError(Exception):
    """What went wrong, in words a user can act on (printed without a traceback)."""


def tool(root, name):
    """A tool of the tree's tools/ (share/weft/tools when installed), as a path."""
    return pathlib.Path(root) / "tools" / name
