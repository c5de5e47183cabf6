"""The ``gammon`` command line: a thin layer over the library.

Each command lives in its own module under :mod:`notation.commands` and is registered here.
Bad input ends with one line on stderr (what is wrong and where) and exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from . import __version__

COMMAND_MODULES = (
    "notation.commands.show",
    "notation.commands.moves",
    "notation.commands.validate",
    "notation.commands.convert",
    "notation.commands.render",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gammon")
def main() -> None:
    """Backgammon records: validate transcripts, convert formats, read position IDs, draw diagrams."""


for _name in COMMAND_MODULES:
    try:
        _mod = importlib.import_module(_name)
    except ModuleNotFoundError as _e:  # a command not built yet
        if _e.name != _name:
            raise
        continue
    main.add_command(_mod.command)


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit with ``code`` (2 = bad input)."""
    click.echo(f"gammon: {message}", err=True)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
