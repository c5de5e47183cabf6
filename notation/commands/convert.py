"""``gammon convert IN... OUT``: convert match records between .mat, SGF, JSON and a text record."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..convert import (
    EXTENSIONS,
    InputSet,
    atomic_write,
    canonical_plays,
    check_target,
    format_for,
    render_match,
)
from ..errors import NotationError
from ..matchio import expand_inputs, read_any
from ..replay import replay

TARGETS = ("mat", "sgf", "json", "txt", "text", "html")
"""What --to takes (``text`` is ``txt``)."""


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
def command(paths: tuple[str, ...], to: str | None, force: bool, strict: bool, quiet: bool, bar: str, off: str,
            hit_marks: bool, canonical: bool) -> None:
    """Convert IN... to OUT (a file, '-' for standard output, or a directory for several inputs).

    IN is a record file (recognised by content), a directory (walked for records), a pattern, or '-'
    for standard input.  The record is validated on the way and findings are reported as `gammon
    validate` does, but an illegal record is still converted.  What the target format cannot hold is
    listed; --strict makes that an error.  Outputs are checked before any work: an input is never
    overwritten, an existing file only with --force, and two inputs never write the same output.
    Exit status: 0 written, 1 --strict refused a lossy conversion, 2 bad input or a refused output.
    """
    from .._term import safe_line
    from ..cli import fail

    if len(paths) < 2:
        fail("convert needs at least one input and an output (IN... OUT)")
    expanded, problems = expand_inputs(paths[:-1])
    inputs = InputSet(expanded)  # every output is checked against every input: their identities once
    out = paths[-1]
    for p in problems:
        fail(p)
    several = len(inputs) > 1 or Path(out).is_dir()
    if several and (out == "-" or not Path(out).is_dir()):
        fail(f"{out}: with several inputs the output must be an existing directory")
    from .html_page import match_html, wants_html

    try:
        fmt = "html" if wants_html("" if several else out, to) else format_for(None if several else out, to)
    except ValueError as e:
        fail(str(e))
    # every target is known and checked before any work: refusals come first, alone
    targets: dict[str, str] = {}
    seen: dict[str, str] = {}
    for src in inputs:
        stem = "stdin" if src == "-" else Path(src).stem
        target = str(Path(out) / (stem + EXTENSIONS.get(fmt, ".html"))) if several else out
        if target in seen:
            fail(f"{seen[target]} and {src} would both be written to {target}: convert them separately "
                 "or rename one")
        seen[target] = src
        targets[src] = target
        if target != "-":
            try:
                check_target(target, force=force, inputs=inputs)
            except FileExistsError as e:
                fail(str(e))
    status = 0
    for src in inputs:
        name = "<stdin>" if src == "-" else src
        try:
            matches = read_any(src)
        except OSError as e:
            fail(f"{name}: cannot read: {e.strerror or e}")
        except NotationError as e:
            e.located(file=name)
            fail(str(e))
        if not matches:
            fail(f"{name}: no match found")
        if len(matches) > 1:
            click.echo(f"{safe_line(name)}: holds {len(matches)} matches; converting the first", err=True)
        match = matches[0]
        match.source = name
        rep = replay(match) if not quiet or fmt == "html" else None
        if not quiet and rep is not None:
            for f in rep.findings:
                if f.severity != "note":
                    click.echo(safe_line(f.format()), err=True)
        if canonical:
            match, n = canonical_plays(match)
            if n and not quiet:
                click.echo(f"{safe_line(name)}: {n} plays rewritten in canonical form (--canonical)", err=True)
        options = {"bar": bar, "off": off, "hit_marks": hit_marks} if fmt == "mat" else {}
        if fmt == "html":  # the page (render.html): nothing is dropped, it shows the record as read
            text, dropped = match_html(match, None if canonical else rep), []
        else:
            text, dropped = render_match(match, fmt, **options)
        target = targets[src]
        if strict or not quiet:
            for d in dropped:
                click.echo(safe_line(f"{name}: {'error' if strict else 'dropped'}: {d}"), err=True)
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
