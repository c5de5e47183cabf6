"""The ``gammon`` command line: a thin layer over the library.

click reads every command line.  Each command is one module under :mod:`notation.commands`, holding its
declaration and its work; a module is imported only when its command runs (or when help lists the
commands), and imports what its work needs only when it runs, so ``gammon validate`` does not pay for
Pillow and the renderer, nor ``gammon --version`` for any command.  Bad input ends with one line on
stderr (what is wrong and where) and exit status 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from typing import Any

import click

from . import __version__
from ._term import guard_standard_streams, safe_line, stdout_failed

COMMAND_MODULES = {
    "show": "notation.commands.show",
    "moves": "notation.commands.moves",
    "validate": "notation.commands.validate",
    "convert": "notation.commands.convert",
    "render": "notation.commands.render",
    "problems": "notation.commands.problems",
    "stats": "notation.commands.stats",
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


def run(argv: list[str] | None = None) -> None:
    """The ``gammon`` command's entry point: :data:`main` with the exit statuses of a good Unix tool.

    Ctrl-C (and SIGTERM) end with status 130 (143) and no traceback; a standard output that fails
    (a full disk, ``> /dev/full``) is one line on stderr and status 2; a closed pipe (``| head``) ends
    quietly; a bug is one line and status 70 (``GAMMON_DEBUG=1`` shows the traceback).
    """
    import signal
    import warnings

    def _terminate(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    guard_standard_streams()  # a closed standard output (`>&-`): a failed write, one line, status 2
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate that no message escaped: shown as its escape
        reconfigure = getattr(stream, "reconfigure", None)  # (a TextIOWrapper's; a replaced stream may lack it)
        with contextlib.suppress(ValueError, OSError):
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")
    warnings.showwarning = _show_warning  # the library's warnings, as one line each
    try:
        signal.signal(signal.SIGTERM, _terminate)
    except (ValueError, OSError):  # not the main thread
        pass
    code = 0
    try:
        done = main.main(args=argv, prog_name="gammon", standalone_mode=False)
        code = done if isinstance(done, int) else 0  # (an int: the status of click's Exit, as --help ends)
    except (KeyboardInterrupt, click.Abort):  # (click answers Ctrl-C with a blank line and Abort)
        click.echo("gammon: interrupted", err=True)
        code = 130
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except click.ClickException as e:
        e.show()
        code = e.exit_code
    except BrokenPipeError:
        code = _quiet_pipe()
    except OSError as e:
        if e.filename is None and e.errno is not None:  # writing to standard output failed
            stdout_failed(e)
        code = _internal_error(e)
    except Exception as e:  # noqa: BLE001 - a bug: one line, not a traceback (GAMMON_DEBUG=1 shows it)
        code = _internal_error(e)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _quiet_pipe()
    except OSError as e:
        stdout_failed(e)
    sys.exit(code)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning (a worker process that died, say) as the command's other messages: one line on stderr,
    ``gammon: warning: ...``, not Python's two with the source line."""
    try:
        click.echo(f"gammon: warning: {safe_line(str(message))}", err=True)
    except OSError:
        pass  # no stderr to say it on


def _internal_error(e: BaseException) -> int:
    import os

    if os.environ.get("GAMMON_DEBUG"):
        raise e
    click.echo(f"gammon: internal error: {type(e).__name__}: {safe_line(str(e))[:300]} (please report it; "
               "GAMMON_DEBUG=1 shows where)", err=True)
    return 70


def _quiet_pipe() -> int:
    import os

    # the reader went away: say nothing more, and keep Python from complaining at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


if __name__ == "__main__":  # pragma: no cover
    run()
