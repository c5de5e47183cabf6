"""The ``gammon`` command line: a thin layer over the library.

Each command lives in its own module under :mod:`notation.commands`; a module is imported only when
its command runs (or when help lists the commands), so ``gammon validate`` does not pay for Pillow
and the renderer.  Bad input ends with one line on stderr (what is wrong and where) and exit status 2,
never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from . import __version__

COMMAND_MODULES = {
    "show": "notation.commands.show",
    "moves": "notation.commands.moves",
    "validate": "notation.commands.validate",
    "convert": "notation.commands.convert",
    "render": "notation.commands.render",
}


class _LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is None:
            return None
        command: click.Command = importlib.import_module(module).command
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gammon")
def main() -> None:
    """Backgammon records: validate transcripts, convert formats, read position IDs, draw diagrams."""


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit with ``code`` (2 = bad input)."""
    click.echo(f"gammon: {message}", err=True)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
