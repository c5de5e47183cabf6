"""``gammon problems FILE... -o DIR``: the problem set of analysed matches (:mod:`render.problems`).

Every analysed decision whose error is at least ``--min-error`` (EMG), or the decisions the record marks
or comments on (``--marked``), as a problem diagram (the question) and a solution diagram (the answer),
with ``index.html``, ``problems.json``, and on request one print-ready PDF and an Anki import CSV.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from .._term import fail, safe_line
from ..errors import NotationError

__all__ = ["command"]

MAX_DPI = 1200
_DIAGRAM = re.compile(r"(?:problem|solution)-[0-9]{3,}\.(?:png|svg)")
"""The name of a set's diagram (render.problems.file_names)."""


@click.command("problems")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", required=True, help="The directory to write the set into (made when missing).")
@click.option("--min-error", type=click.FloatRange(0.0, 1000.0), default=0.08, show_default=True,
              help="The least error (EMG) of a problem: 0.08 is between gnubg's 'bad' (0.06) and 'very bad' "
                   "(0.12).")
@click.option("--marked", is_flag=True,
              help="Instead of --min-error: the decisions the record marks (gnubg's bad, doubtful and "
                   "interesting marks, eXtreme Gammon's flags) or comments on.")
@click.option("--player", default=None, metavar="NAME",
              help="Only this player's decisions (a name as the record gives it, case and accents aside, or "
                   "white/black).")
@click.option("--kind", type=click.Choice(["checker", "cube"]), default=None,
              help="Only checker plays or only cube decisions (default both).")
@click.option("--limit", type=click.IntRange(0), default=None, metavar="N",
              help="Only the N largest errors (numbered in the order of play).")
@click.option("--format", "fmt", type=click.Choice(["png", "svg"]), default="png", show_default=True,
              help="The diagrams' format.")
@click.option("--size", type=click.Choice(["small", "medium", "large", "print"]), default="medium",
              show_default=True, help="The diagrams' size (print: 120 mm wide at --dpi).")
@click.option("--theme", type=click.Choice(["print", "classic", "contrast"]), default="print", show_default=True)
@click.option("--pdf", "want_pdf", is_flag=True,
              help="Also DIR/problems.pdf: the index, then each problem, then each solution, a page each, "
                   "at the print size (120 mm wide) at --dpi.")
@click.option("--dpi", type=click.IntRange(10, MAX_DPI), default=300, show_default=True,
              help="Resolution of the PDF's pages (and of --size print).")
@click.option("--anki", "anki", default=None, metavar="FILE.csv",
              help="Also a CSV that Anki imports (front: the problem image and question; back: the solution "
                   "image and answer), with its images beside it, named gammon-<digest>.png so that no two sets "
                   "share a name: copy them into Anki's media folder (collection.media), then File > Import.")
@click.option("--font", "fonts", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A TrueType font for names in scripts the shipped fonts lack (e.g. Japanese).")
@click.option("--force", is_flag=True, help="Overwrite existing files (never an input).")
def command(files: tuple[str, ...], output: str, min_error: float, marked: bool, player: str | None,
            kind: str | None, limit: int | None, fmt: str, size: str, theme: str, want_pdf: bool, dpi: int,
            anki: str | None, fonts: tuple[str, ...], force: bool) -> None:
    """Make the problem set of the analysed matches FILE... (.xg, analysed gnubg SGF, JSON): a problem
    diagram and a solution diagram for every decision that lost at least --min-error, an index page and
    problems.json in DIR.

    \b
    gammon problems match.xg -o problems/
    gammon problems *.sgf -o set/ --player Ann --kind checker --limit 20 --pdf --anki set/cards.csv
    """
    from render import _font
    from render.problems import problems, write_problem_set

    from ..decisions import has_analysis
    from ..matchio import read_match

    for f in fonts:
        try:
            _font.add_font(f)
        except (ValueError, OSError) as e:
            fail(f"--font {f}: {e}")
    out = Path(output)
    if output == "-" or (out.exists() and not out.is_dir()):
        fail(f"{output}: -o names a directory (the set is several files)")
    names = ["<stdin>" if name == "-" else name for name in files]  # what the set calls each record
    matches = []
    for name in files:
        try:
            matches.append(read_match(name))
        except NotationError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{name}: cannot read: {e.strerror or e}")
    if not marked:  # a record without analysis has no errors: say so, not an empty set
        bare = [name for name, m in zip(names, matches, strict=True) if not has_analysis(m)]
        advice = "analyse with GNU Backgammon or eXtreme Gammon first, or take the comments with --marked"
        if len(bare) == len(files):
            fail(f"{bare[0]}: the record holds no analysis: {advice}" if len(bare) == 1 else
                 f"none of the {len(bare)} records holds an analysis ({bare[0]}, ...): {advice}")
        for name in bare:
            click.echo(safe_line(f"gammon: warning: {name}: the record holds no analysis: no problems from it"),
                       err=True)
    options: dict[str, str | int] = {"size": size, "theme": theme}
    if size == "print":
        options["dpi"] = dpi
    _font.MISSING.clear()
    try:
        ps = problems(matches, min_error, marked=marked, player=player, kind=kind, limit=limit,
                      sources=names, options=options)
    except ValueError as e:  # a --player who plays in none of the records
        fail(str(e))
    try:
        written = write_problem_set(ps, out, fmt=fmt, pdf_path=str(out / "problems.pdf") if want_pdf else None,
                                    dpi=dpi, anki_path=anki, force=force, inputs=files)
    except FileExistsError as e:
        fail(str(e))
    except NotationError as e:
        fail(str(e))
    except OSError as e:
        fail(f"{getattr(e, 'filename', None) or output}: cannot write: {e.strerror or e}")
    finally:
        if _font.MISSING:
            click.echo(f"gammon: warning: {_font.missing_message()}", err=True)
    ours = {f.name for f in written if f.parent == out}
    stale = sorted(f.name for f in out.iterdir() if _DIAGRAM.fullmatch(f.name) and f.name not in ours)
    if stale:  # an earlier, larger set written there: its diagrams are not this set's
        click.echo(safe_line(f"gammon: warning: {out}: {len(stale)} diagrams of an earlier set are not part of this "
                             f"one ({stale[0]} ...): index.html and problems.json list this set's"), err=True)
    what = "marked or commented decisions" if marked else f"decisions with an error of {min_error:g} or more"
    click.echo(safe_line(f"{len(ps)} problem{'s' if len(ps) != 1 else ''} ({what}) from {len(files)} "
                         f"file{'s' if len(files) != 1 else ''}: {len(written)} files written to {out}"), err=True)
