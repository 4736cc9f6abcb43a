"""What the subcommands share: the error a user can act on."""


class CommandError(Exception):
    """What went wrong, in words a user can act on (printed without a traceback)."""

