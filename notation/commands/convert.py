"""``gammon convert IN... OUT``: convert match records between .mat, SGF, JSON and a text record."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..convert import EXTENSIONS, atomic_write, canonical_plays, format_for, render_match
from ..errors import NotationError
from ..matchio import read_any
from ..replay import replay


@click.command("convert")
@click.argument("paths", nargs=-1, required=True)
@click.option("--to", "to", default=None,
              help="Target format: mat, sgf, json, txt or html (default: OUT's extension).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file (never an input).")
@click.option("--strict", is_flag=True, help="Refuse to write when the target cannot hold everything.")
@click.option("--quiet", "-q", is_flag=True, help="Do not report validation findings.")
@click.option("--bar", "bar", type=click.Choice(["25", "bar"]), default="25", show_default=True,
              help=".mat output: how the bar is written in moves.")
@click.option("--off", "off", type=click.Choice(["0", "off"]), default="0", show_default=True,
              help=".mat output: how bearing off is written in moves.")
@click.option("--hit-marks/--no-hit-marks", default=True, show_default=True,
              help=".mat output: keep or drop the '*' hit marks.")
@click.option("--canonical", is_flag=True,
              help="Rewrite legal plays as gnubg writes them (one step per die, every hit marked); "
                   "each rewrite is reported.")
def command(paths: tuple[str, ...], to: str | None, force: bool, strict: bool, quiet: bool, bar: str, off: str,
            hit_marks: bool, canonical: bool) -> None:
    """Convert IN... to OUT (a file, '-' for standard output, or a directory for several inputs).

    The record is validated on the way and findings are reported as `gammon validate` does, but an
    illegal record is still converted.  What the target format cannot hold is listed; --strict makes
    that an error.  Exit status: 0 written, 1 --strict refused a lossy conversion, 2 bad input or a
    refused output.
    """
    from ..cli import fail

    if len(paths) < 2:
        fail("convert needs at least one input and an output (IN... OUT)")
    inputs, out = list(paths[:-1]), paths[-1]
    several = len(inputs) > 1 or Path(out).is_dir()
    if several and (out == "-" or not Path(out).is_dir()):
        fail(f"{out}: with several inputs the output must be an existing directory")
    from .html_page import match_html, wants_html

    try:
        fmt = "html" if wants_html("" if several else out, to) else format_for(None if several else out, to)
    except ValueError as e:
        fail(str(e))
    status = 0
    for src in inputs:
        try:
            matches = read_any(src)
        except OSError as e:
            fail(f"{src}: cannot read: {e.strerror or e}")
        except NotationError as e:
            e.located(file=src)
            fail(str(e))
        if not matches:
            fail(f"{src}: no match found")
        if len(matches) > 1:
            click.echo(f"{src}: holds {len(matches)} matches; converting the first", err=True)
        match = matches[0]
        match.source = src
        rep = replay(match) if not quiet or fmt == "html" else None
        if not quiet and rep is not None:
            for f in rep.findings:
                if f.severity != "note":
                    click.echo(f.format(), err=True)
        if canonical:
            match, n = canonical_plays(match)
            if n:
                click.echo(f"{src}: {n} plays rewritten in canonical form (--canonical)", err=True)
        options = {"bar": bar, "off": off, "hit_marks": hit_marks} if fmt == "mat" else {}
        if fmt == "html":  # the page (render.html): nothing is dropped, it shows the record as read
            text, dropped = match_html(match, None if canonical else rep), []
        else:
            text, dropped = render_match(match, fmt, **options)
        target = str(Path(out) / (Path(src).stem + EXTENSIONS.get(fmt, ".html"))) if several else out
        for d in dropped:
            click.echo(f"{src}: {'error' if strict else 'dropped'}: {d}", err=True)
        if dropped and strict:
            status = 1
            continue
        if target == "-":
            sys.stdout.write(text)
            continue
        try:
            atomic_write(target, text, force=force, inputs=inputs)
        except FileExistsError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{target}: cannot write: {e.strerror or e}")
    sys.exit(status)
