"""``gammon validate FILE...``: replay every game under the full rules and report findings.

The command line is read here, by click; the work is :func:`notation.commands._validate_run.run` (which
the ``gammon`` entry point also calls directly for the common command lines, without click)."""

from __future__ import annotations

import click

from ..parallel import GC_SURVIVORS
from . import _validate_run
from ._validate_run import FORMATS, VARIANTS, check_file

__all__ = ["command", "check_file", "FORMATS", "GC_SURVIVORS", "VARIANTS"]


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=str)
@click.option("--format", "out_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: compiler-style lines; json: one object a line per file; github: workflow "
                   "commands (annotations); sarif: one SARIF 2.1.0 document; junit: JUnit XML.")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Check files in this many parallel processes; 0: one per CPU (at most 16, one per "
                   "four files) when there are at least 8 files.")
@click.option("--quiet", "-q", is_flag=True, help="Only errors, and summaries of files with errors.")
@click.option("--variant", default=None, type=click.Choice(VARIANTS, case_sensitive=False),
              help="Override the variant the record names.")
@click.option("--auto-doubles", type=click.IntRange(0, 16), default=None,
              help="Money play with automatic doubles, at most N a game (.mat files do not say).")
@click.option("--color", "--colour", "colour", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour the severities; auto: on a terminal, unless NO_COLOR is set.")
@click.option("--excerpt/--no-excerpt", default=None,
              help="Show the source line with a caret under the column (default: on a terminal).")
@click.option("--html", "html_report", default=None, metavar="REPORT.html",
              help="Also write a web page for the batch (a sortable table of files), with each match's "
                   "page in REPORT_matches/ beside it.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Check the files on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' "
                   "for a local cluster of one worker per CPU ('local:N' for N).  Needs the [scale] extra.")
def command(files: tuple[str, ...], out_format: str, as_json: bool, jobs: int, quiet: bool, variant: str | None,
            auto_doubles: int | None, colour: str, excerpt: bool | None, html_report: str | None = None,
            dask_address: str | None = None) -> None:
    """Replay every game of each FILE under the full rules.

    FILE is a .mat transcript, SGF or JSON record (recognised by content), a directory (walked for
    records), a pattern such as 'archive/*.mat', or - for standard input.  Prints compiler-style
    findings, FILE:LINE:COL: error: game G move M (NAME 52): message, then one summary line per file
    and a total for several files.  Exit status: 0 no errors, 1 errors, 2 a file could not be read or
    parsed (the other files are still checked).
    """
    _validate_run.run(files, out_format, as_json, jobs, quiet, variant, auto_doubles, colour, excerpt, html_report,
                      dask_address)
