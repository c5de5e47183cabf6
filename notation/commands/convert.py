"""``gammon convert IN... OUT``: convert match records between .mat, SGF, JSON and a text record.

The command line is read here, by click; the work is :func:`notation.commands._convert_run.run` (which
the ``gammon`` entry point also calls directly for the common command lines, without click)."""

from __future__ import annotations

import click

from . import _convert_run
from ._convert_run import TARGETS

__all__ = ["command", "TARGETS"]


@click.command("convert")
@click.argument("paths", nargs=-1, required=True)
@click.option("--to", "to", default=None, type=click.Choice(TARGETS, case_sensitive=False),
              help="Target format (default: OUT's extension).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file (never an input).")
@click.option("--strict", is_flag=True, help="Refuse to write when the target cannot hold everything.")
@click.option("--quiet", "-q", is_flag=True, help="Do not report validation findings or what is dropped.")
@click.option("--bar", "bar", type=click.Choice(["25", "bar"]), default="25", show_default=True,
              help=".mat output: how the bar is written in moves.")
@click.option("--off", "off", type=click.Choice(["0", "off"]), default="0", show_default=True,
              help=".mat output: how bearing off is written in moves.")
@click.option("--hit-marks/--no-hit-marks", default=True, show_default=True,
              help=".mat output: keep or drop the '*' hit marks.")
@click.option("--canonical", is_flag=True,
              help="Rewrite legal plays as gnubg writes them (one step per die, every hit marked); "
                   "each rewrite is reported.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Convert on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' for a "
                   "local cluster ('local:N' for N workers).  Workers write the outputs, so OUT must be "
                   "on a filesystem they share.  Needs the [scale] extra.")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Convert in this many parallel processes; 0: one per CPU (at most 16, one per four "
                   "files) when there are at least 8 files.  With several processes the reports come "
                   "when all are done, in the inputs' order.")
def command(paths: tuple[str, ...], to: str | None, force: bool, strict: bool, quiet: bool, bar: str, off: str,
            hit_marks: bool, canonical: bool, dask_address: str | None = None, jobs: int = 1) -> None:
    """Convert IN... to OUT (a file, '-' for standard output, or a directory for several inputs).

    IN is a record file (recognised by content), a directory (walked for records), a pattern, or '-'
    for standard input.  The record is validated on the way and findings are reported as `gammon
    validate` does, but an illegal record is still converted.  What the target format cannot hold is
    listed; --strict makes that an error.  Outputs are checked before any work: an input is never
    overwritten, an existing file only with --force, and two inputs never write the same output.  A
    bad input is reported and the others are still converted.  IN may also be a URL (s3://..., with
    fsspec).  --to parquet writes the decision dataset under the directory OUT (a row per action,
    docs/dataset.md; needs the [scale] extra).
    Exit status: 0 written, 1 --strict refused a lossy conversion, 2 bad input or a refused output.
    """
    _convert_run.run(paths, to, force, strict, quiet, bar, off, hit_marks, canonical, dask_address, jobs)
