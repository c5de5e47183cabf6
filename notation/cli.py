"""The ``gammon`` command line: a thin layer over the library.

Each command lives in its own module under :mod:`notation.commands`; a module is imported only when
its command runs (or when help lists the commands), so ``gammon validate`` does not pay for Pillow
and the renderer; ``gammon --version`` does not even import click.  Bad input ends with one line on
stderr (what is wrong and where) and exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from . import __version__

if TYPE_CHECKING:  # pragma: no cover
    import click

COMMAND_MODULES = {
    "show": "notation.commands.show",
    "moves": "notation.commands.moves",
    "validate": "notation.commands.validate",
    "convert": "notation.commands.convert",
    "render": "notation.commands.render",
}

QUICK_COMMANDS = {
    "validate": "notation.commands._validate_run",
    "convert": "notation.commands._convert_run",
    "show": "notation.commands._show_run",
    "moves": "notation.commands._moves_run",
    "render": "notation.commands._render_run",
}
"""The commands whose common command lines :func:`run` reads without click: each module's
``quick_args(args)`` gives its ``run``'s keywords, or None for a command line left to click."""

VERSION_LINE = f"gammon, version {__version__}"
"""What ``gammon --version`` prints (click's version option, which :func:`run` answers without click)."""

_MAIN: click.Group | None = None


def _main() -> click.Group:
    """The ``gammon`` group (click is imported here, on first use: ``gammon --version`` never needs it)."""
    global _MAIN
    if _MAIN is not None:
        return _MAIN
    import click

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

    _MAIN = main
    return main


def __getattr__(name: str) -> Any:
    if name == "main":  # ``from notation.cli import main``: the click group, made on first use
        return _main()
    raise AttributeError(f"module 'notation.cli' has no attribute {name!r}")


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit with ``code`` (2 = bad input)."""
    import click

    from ._term import safe_line

    click.echo(f"gammon: {safe_line(message)}", err=True)
    sys.exit(code)


def run(argv: list[str] | None = None) -> None:
    """The ``gammon`` command's entry point: :data:`main` with the exit statuses of a good Unix tool.

    Ctrl-C (and SIGTERM) end with status 130 (143) and no traceback; a standard output that fails
    (a full disk, ``> /dev/full``) is one line on stderr and status 2; a closed pipe (``| head``) ends
    quietly.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:  # the answer needs no command: printed without importing click
        try:
            sys.stdout.write(VERSION_LINE + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            sys.exit(_quiet_pipe())
        except OSError as e:
            _stdout_failed(e)
        sys.exit(0)
    import signal

    quick = None
    runner = QUICK_COMMANDS.get(args[0]) if args else None
    if runner is not None:  # the common command lines are read without click (start-up time)
        module = importlib.import_module(runner)
        quick = module.quick_args(args[1:])

    def _terminate(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    import warnings

    warnings.showwarning = _show_warning  # the library's warnings, as one line each

    try:
        signal.signal(signal.SIGTERM, _terminate)
    except (ValueError, OSError):  # not the main thread
        pass
    code = 0
    try:
        if quick is not None:
            _without_click(module.run, quick)
        else:
            _main().main(args=argv, prog_name="gammon", standalone_mode=False)
    except KeyboardInterrupt:
        _echo_err("gammon: interrupted")
        code = 130
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BrokenPipeError:
        code = _quiet_pipe()
    except OSError as e:
        if e.filename is None and e.errno is not None:  # writing to standard output failed
            return _stdout_failed(e)
        code = _internal_error(e)
    except Exception as e:  # noqa: BLE001 - a bug: one line, not a traceback (GAMMON_DEBUG=1 shows it)
        click = sys.modules.get("click")  # click's own exceptions (none of them an OSError) come from click
        if click is not None and isinstance(e, click.exceptions.Abort):
            click.echo("gammon: interrupted", err=True)
            code = 130
        elif click is not None and isinstance(e, click.exceptions.Exit):
            code = e.exit_code
        elif click is not None and isinstance(e, click.ClickException):
            e.show()
            code = e.exit_code
        else:
            code = _internal_error(e)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _quiet_pipe()
    except OSError as e:
        _stdout_failed(e)
    sys.exit(code)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning (a worker process that died, say) as the command's other messages: one line on stderr,
    ``gammon: warning: ...``, not Python's two with the source line."""
    from ._term import echo, safe_line

    try:
        echo(f"gammon: warning: {safe_line(str(message))}", err=True)
    except OSError:
        pass  # no stderr to say it on


def _without_click(command: Any, params: dict[str, Any]) -> None:
    """A command (``run`` of a module of :data:`QUICK_COMMANDS`) with the arguments its ``quick_args``
    read without click, ending as click's ``main`` ends a command: an interrupt (or end of input) after a
    blank line on stderr, as click's ``Abort``; a broken pipe with status 1, standard streams made quiet
    about it."""
    try:
        command(**params)
    except (EOFError, KeyboardInterrupt):
        _echo_err("")
        raise KeyboardInterrupt from None
    except OSError as e:
        import errno

        if e.errno != errno.EPIPE:
            raise
        from click.utils import _PacifyFlushWrapper

        sys.stdout = _PacifyFlushWrapper(sys.stdout)  # type: ignore[assignment]
        sys.stderr = _PacifyFlushWrapper(sys.stderr)  # type: ignore[assignment]
        sys.exit(1)


def _echo_err(message: str) -> None:
    import click

    click.echo(message, err=True)


def _internal_error(e: BaseException) -> int:
    import os

    import click

    if os.environ.get("GAMMON_DEBUG"):
        raise e
    from ._term import safe_line

    click.echo(f"gammon: internal error: {type(e).__name__}: {safe_line(str(e))[:300]} (please report it; "
               "GAMMON_DEBUG=1 shows where)", err=True)
    return 70


def _quiet_pipe() -> int:
    import os

    # the reader went away: say nothing more, and keep Python from complaining at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


def _stdout_failed(e: OSError) -> None:
    import os

    import click

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    click.echo(f"gammon: cannot write to standard output: {e.strerror or e}", err=True)
    sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    run()
