"""``gammon render``: board diagrams (PNG or SVG) of a position, of a move in a match, or of a whole match.

* ``gammon render POSITION -o fig.png`` draws a position given as an ID (XGID, gnubg ID, ...).
* ``gammon render MATCH --game G --move M -o fig.svg`` draws the position before the M-th action of
  game G (both counted from 1), with its play drawn as arrows.
* ``gammon render MATCH --all -o DIR/`` draws the position before every action of every game, and
  each game's final position.
* ``--play "24/21 21/16"`` draws a given play; repeat it for boards side by side ("two ways to play").
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .._term import fail, safe_line, stdout_failed, utf8
from ..errors import InvalidPositionError, NotationError
from ..navigate import action_at, game_of, move_index, place, step_labels
from ..position import Position, parse_dice
from ..positionio import names_file, record_or_position

__all__ = ["command"]

SIZES = ("small", "medium", "large", "print")
THEMES = ("print", "classic", "contrast")
MAX_WIDTH = 8000
"""Wider images take gigabytes to draw (the PNG is drawn large and reduced) and no page needs them."""
MAX_DPI = 1200
"""The print size (120 mm) at 1200 dpi is 5,669 pixels wide."""


def _check_plays(position: Position, plays: tuple[str, ...], dice: tuple[int, int] | None,
                 option: str = "--play") -> None:
    """Each --play resolved before drawing, so that an error names the option and its own column."""
    from ..play import resolve_play

    roll = dice if dice is not None else position.dice
    for k, text in enumerate(plays, 1):
        which = f"{option} {text!r}" + (f" (the {k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
                                       " of the --play options)" if len(plays) > 1 else "")
        if roll is None:
            fail(f"{which}: the position has no dice: give --dice AB")
        try:
            resolve_play(position, text, roll)
        except NotationError as e:
            where = f", column {e.column}" if e.column else ""
            fail(f"{which}{where}: {e.message}")


def _write(path: Path, data: bytes | str, force: bool = False, inputs: tuple[str, ...] = ()) -> None:
    """Write one diagram: ``-`` is standard output; a file goes through a temporary file and a rename,
    never over an input (not even through a link), over an existing file only with ``force``."""
    from ..convert import atomic_write

    if str(path) == "-":
        raw = utf8(data) if isinstance(data, str) else data
        try:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            raise  # the reader went away: the command's entry point ends quietly
        except OSError as e:  # a full disk, /dev/full: said as every command says it
            stdout_failed(e)
        return
    try:
        atomic_write(path, data, force=force, inputs=inputs)
    except FileExistsError as e:
        fail(str(e))
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror or e}")


def _render(position: Position, fmt: str, options: dict[str, Any]) -> bytes | str:
    import render

    if fmt == "svg":
        return str(render.svg(position, **options))
    return render.png(position, **options)


def _format_for(path: str, override: str | None) -> str:
    if override:
        return override
    if path == "-":
        return "png"  # standard output: PNG unless --format svg
    ext = Path(path).suffix.lower()
    if ext == ".svg":
        return "svg"
    if ext == ".png":
        return "png"
    fail(f"cannot tell the format of {path!r}: name it .png or .svg, or give --format")
    return ""


AUTO = "auto"
"""``--caption auto``: the caption a book prints (:func:`render.captions.book_caption`)."""


def _book_caption(position: Position, caption_pips: bool, crawford_rule: bool = True,
                  dice: tuple[int, int] | None = None) -> str:
    """The book caption of ``position`` (with ``dice`` when --dice gives the roll)."""
    from render.captions import book_caption

    if dice is not None and not position.double_offered:
        position = position.replace(dice=dice)
    return book_caption(position, pips=caption_pips, crawford_rule=crawford_rule)


def _step_options(step: Any, base: dict[str, Any], caption: str | None) -> dict[str, Any]:
    opts = dict(base)
    a = step.action
    if a.kind == "move" and step.play is not None and step.play.steps and "play" not in opts:
        opts["arrows"] = [tuple(s) for s in step.play.steps]
        if a.dice and "dice" not in opts:
            opts["dice"] = a.dice
    if caption is not None and "caption" not in opts:
        opts["caption"] = caption
    return opts


SHOW_NAMES = "\0show"
"""``--names`` given without a value: show the names the source has (else White and Black)."""

CONVENTION = """\b
Players, as in `gammon show`: White is O, player 0 (the white checkers, lower case in an XGID, the
left column of a .mat score line); Black is X, player 1 (the black checkers, yellow in the contrast
theme; upper case in an XGID, the right column). The player on roll sits at the bottom unless
--bottom says otherwise (`show` prints gnubg's board, X always at the bottom). Points are numbered
for the bottom player; in `show`, for the player on roll: by default the same numbering."""


class _Request:
    """What the command line asks for (see :func:`run`)."""

    __slots__ = ("source", "output", "fmt", "game_no", "move_no", "at", "draw_all", "plays", "dice", "caption",
                 "no_caption", "names", "show_names", "candidate", "force", "jobs", "base", "caption_pips")

    def __init__(self, source: str, output: str, fmt: str | None, game_no: int | None, move_no: int | None,
                 at: str | None, draw_all: bool, plays: tuple[str, ...], dice: str | None, caption: str | None,
                 no_caption: bool, names: tuple[str, str] | None, show_names: bool | None, candidate: int | None,
                 force: bool, jobs: int, base: dict[str, Any] | None = None, caption_pips: bool = False) -> None:
        self.source, self.output, self.fmt = source, output, fmt
        self.game_no, self.move_no, self.at, self.draw_all = game_no, move_no, at, draw_all
        self.plays, self.dice, self.caption, self.no_caption = plays, dice, caption, no_caption
        self.names, self.show_names, self.candidate = names, show_names, candidate
        self.force, self.jobs, self.base = force, jobs, {} if base is None else base
        self.caption_pips = caption_pips


def _names_option(value: str | None, no_names: bool) -> tuple[tuple[str, str] | None, bool | None]:
    """(the names to use, whether to show names) from --names [WHITE,BLACK] and --no-names."""
    if no_names:
        if value is not None and value != SHOW_NAMES:
            fail("--names and --no-names: give one of them")
        return None, False
    if value is None:
        return None, None
    if value == SHOW_NAMES:
        return None, True
    parts = value.split(",")
    if len(parts) != 2 or not any(p.strip() for p in parts):
        fail(f"--names {value!r}: give two names separated by a comma, White's (O) first, e.g. "
             "--names 'Ann,Ben' (one may be empty: ',Ben')")
    return (parts[0].strip(), parts[1].strip()), True


@click.command("render", epilog=CONVENTION)
@click.argument("source", required=False)
@click.option("-o", "--output", required=True,
              help="The .png or .svg file to write, '-' for standard output (PNG unless --format svg), a "
                   "directory with --all.")
@click.option("--format", "fmt", type=click.Choice(["png", "svg"]), default=None,
              help="Output format (default: from the file name; png with --all).")
@click.option("--game", "game_no", type=click.IntRange(1), default=None,
              help="Game number in a match (from 1).")
@click.option("--move", "move_no", type=click.IntRange(0), default=None,
              help="Move number in the game as `gammon validate` prints it (the .mat row, the SGF node): the "
                   "position before it is drawn, its play as arrows; 0: the final position.")
@click.option("--at", "at", default=None, metavar="LINE[:COL]",
              help="The action at this place of the file, as `gammon validate` prints it (e.g. 98:38).")
@click.option("--all", "draw_all", is_flag=True,
              help="Every position of every game of a match into a directory.")
@click.option("--jobs", type=click.IntRange(0), default=0, show_default=True,
              help="With --all: processes drawing at once (0: one per CPU for 8 diagrams or more; 1: this "
                   "process only). The files are the same either way.")
@click.option("--play", "plays", multiple=True,
              help="A play to draw as arrows, e.g. '24/21 21/16'; repeat for boards side by side.")
@click.option("--candidate", type=click.IntRange(0), default=None, metavar="N",
              help="For a position file with an analysis (an XG or BGBlitz text export, an .xgp), or a "
                   "match move the record analyses (.xg, analysed gnubg SGF; with --move or --at): draw its "
                   "N-th ranked play, with the equity in the caption (default for a position file: the best "
                   "play, unless --play is given); 0: the position alone.")
@click.option("--dice", default=None, help="The roll, e.g. 53 (default: the position's).")
@click.option("--size", type=click.Choice(SIZES), default="medium", show_default=True,
              help="small/medium/large: checker 24/36/60 px; print: 120 mm wide at --dpi.")
@click.option("--width", type=click.IntRange(64, MAX_WIDTH), default=None,
              help=f"Image width in pixels (at most {MAX_WIDTH}).")
@click.option("--dpi", type=click.IntRange(10, MAX_DPI), default=None,
              help=f"Resolution written into the PNG (at most {MAX_DPI}).")
@click.option("--force", is_flag=True, help="Overwrite existing files (never the input).")
@click.option("--font", "fonts", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A TrueType font for characters the shipped fonts lack (Latin, Greek and Cyrillic are "
                   "covered), e.g. a Japanese font; repeat for several.")
@click.option("--home", type=click.Choice(["right", "left"]), default="right", show_default=True,
              help="Which side the bottom player's home board is drawn on.")
@click.option("--bottom", type=click.Choice(["on-roll", "white", "black", "o", "x"], case_sensitive=False),
              default="on-roll", show_default=True,
              help="The player at the bottom: the player on roll, white (= O, player 0) or black (= X, player "
                   "1). Points are numbered for the bottom player.")
@click.option("--numbers", type=click.Choice(["viewer", "both", "none"]), default="viewer", show_default=True,
              help="Point numbers: the bottom player's, both sides' (the top player's in the outer band), "
                   "or none.")
@click.option("--theme", type=click.Choice(THEMES), default="print", show_default=True,
              help="print: black and white for books; classic: coloured board; contrast: high contrast.")
@click.option("--names", "names_opt", is_flag=False, flag_value=SHOW_NAMES, default=None,
              metavar="[WHITE,BLACK]",
              help="Player names above and below the board: alone, the names the source gives (a match's, "
                   "an export's); with a value, these two, White's (O) first, e.g. --names 'Ann,Ben'. Shown "
                   "by default for matches and for sources that name the players.")
@click.option("--no-names", is_flag=True, help="No player lines (unless --pips or --score asks for them).")
@click.option("--title", default=None, help="A title drawn above the diagram (also the SVG <title>).")
@click.option("--pips/--no-pips", default=None, help="Pip counts.")
@click.option("--score/--no-score", default=None, help="Match score and length.")
@click.option("--caption", default=None,
              help="Text under the diagram; 'auto': the caption a book prints, from the position (the game and "
                   "score, who is on roll and what is asked: 'Match to 7, White leads 3-0. White to play 52.').")
@click.option("--caption-pips", is_flag=True, help="With --caption auto: the pip counts in the caption.")
@click.option("--no-caption", is_flag=True, help="No caption (for match positions, where one is made up).")
@click.option("--direction", is_flag=True, help="Draw the bottom player's direction of movement.")
@click.option("--no-ghosts", is_flag=True, help="No dashed outlines where moved checkers land.")
@click.option("--columns", type=click.IntRange(1, 8), default=None,
              help="Boards per row with several --play.")
def command(source: str | None, output: str, fmt: str | None, game_no: int | None, move_no: int | None,
            at: str | None, draw_all: bool, plays: tuple[str, ...], dice: str | None, size: str,
            width: int | None, dpi: int | None, home: str, bottom: str, numbers: str, theme: str,
            names_opt: str | None, pips: bool | None, score: bool | None, caption: str | None,
            no_caption: bool, direction: bool, no_ghosts: bool, columns: int | None, force: bool = False,
            fonts: tuple[str, ...] = (), no_names: bool = False, title: str | None = None,
            candidate: int | None = None, jobs: int = 0, caption_pips: bool = False) -> None:
    """Draw SOURCE (a position ID, a position file such as an XG or BGBlitz text export, or a match
    file; '-' reads standard input) as a book-style diagram in PNG or SVG.

    \b
    gammon render "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10" -o start.png
    gammon render "XGID=..." --dice 53 --play "13/8 13/10" --play "8/3 6/3" -o two-ways.svg
    gammon render "XGID=..." --names "Ann,Ben" --title "Figure 3" -o fig3.png
    gammon render "XGID=..." --caption auto -o problem.png
    gammon render export.txt --candidate 2 -o second-best.png
    gammon render match.mat --game 2 --move 14 -o g2m14.png
    gammon render match.mat --at 98:38 -o fig.png     (a place `gammon validate` printed)
    gammon render match.mat --all -o figures/
    """
    from render import _font

    if source is None:
        # `render --names FILE ...` as it worked when --names was a plain flag
        if names_opt not in (None, SHOW_NAMES) and "," not in names_opt:
            source, names_opt = names_opt, SHOW_NAMES
        else:
            fail("missing SOURCE: a position ID, a position file, a match file or '-'")
    names, show_names = _names_option(names_opt, no_names)
    for f in fonts:
        try:
            _font.add_font(f)
        except (ValueError, OSError) as e:
            fail(f"--font {f}: {e}")
    _font.MISSING.clear()
    base: dict[str, Any] = {
        "size": size, "home": home, "bottom": {"o": "white", "x": "black"}.get(bottom.lower(), bottom.lower())
        .replace("-", "_"), "numbers": numbers, "theme": theme, "ghosts": not no_ghosts, "direction": direction,
    }
    if width is not None:
        base["width"] = width
    if dpi is not None:
        base["dpi"] = dpi
    if columns is not None:
        base["columns"] = columns
    if title is not None:
        base["heading"] = title
    if caption_pips and caption != AUTO:
        fail("--caption-pips: give --caption auto too")
    req = _Request(source, output, fmt, game_no, move_no, at, draw_all, plays, dice, caption, no_caption,
                   names, show_names, candidate, force, jobs, base, caption_pips)
    try:
        _command(req, pips, score)
    finally:
        if _font.MISSING:
            click.echo(f"gammon: warning: {_font.missing_message()}", err=True)


def _candidate(record: Any, req: _Request, position: Position | None = None) -> tuple[str | None, str | None]:
    """The play to draw from the record's analysis (--candidate N, or the best by default) and its
    caption; for a cube decision, no play and the caption of the decision (its verdict and equities);
    (None, None) when nothing is asked and there is no analysis."""
    checker = record.analysis.checker if record is not None and record.analysis is not None else None
    cands = checker.candidates if checker is not None else ()
    n = req.candidate
    if n == 0:  # the position alone
        return None, None
    cube = record.analysis.cube if record is not None and record.analysis is not None else None
    if not cands and cube is not None and (n == 1 or (n is None and not req.plays)):
        from render.captions import cube_caption

        return None, cube_caption(cube, position)
    if n is None:
        if req.plays or not cands:
            return None, None
        n = 1
    elif req.plays:
        fail(f"--candidate {n} and --play: give one of them")
    if not cands:
        what = "a cube decision" if record is not None and record.analysis is not None and \
            record.analysis.cube is not None else "no analysis"
        fail(f"--candidate {n}: {req.source} holds {what}, not ranked checker plays")
    if n > len(cands):
        fail(f"--candidate {n}: {req.source} ranks {len(cands)} play{'s' if len(cands) != 1 else ''} "
             f"(give 1 to {len(cands)})")
    c = cands[n - 1]
    head = "Best play" if n == 1 else f"Play {n} of {len(cands)}"
    if c.level:
        head += f" ({c.level})"
    text = f"{head}: {c.play or 'no move'}"
    if c.equity is not None:
        text += f", equity {c.equity:+.3f}"
        best = cands[0].equity
        if n > 1 and best is not None:
            text += f" ({c.equity - best:+.3f})"
    return c.play, text


def _command(req: _Request, pips: bool | None, score: bool | None) -> None:
    base = req.base
    try:
        match, record = record_or_position(req.source)
    except ValueError as e:  # the record's NotationError, or neither a record nor a position
        fail(str(e))
    except OSError as e:
        fail(f"{req.source}: cannot read: {e.strerror or e}")
    is_match = match is not None
    if req.candidate is not None and is_match and (req.draw_all or (req.move_no in (None, 0) and req.at is None)):
        fail(f"--candidate {req.candidate}: {req.source} is a match; give the move with --move or --at "
             "(a move the record analyses, as .xg files and analysed gnubg SGF do)")
    named = is_match or (record is not None and record.names is not None and any(record.names))
    if req.names is not None:
        base["names"] = req.names
    elif req.show_names if req.show_names is not None else named:
        base["names"] = True
    has_score = is_match or (record is not None and record.position.match_length > 0)
    for key, flag, default in (("pips", pips, is_match), ("score", score, has_score)):
        if flag if flag is not None else default:
            base[key] = True
    if record is None or record.analysis is not None:  # a game's record: who is on roll, where no dice say it
        base["on_roll"] = True
    auto = req.caption == AUTO and not req.no_caption
    if req.caption is not None and not req.no_caption and not auto:
        base["caption"] = req.caption
    try:
        if req.dice is not None:
            base["dice"] = parse_dice(req.dice, "--dice")
        if record is not None:  # a position
            if req.game_no is not None or req.move_no is not None or req.draw_all or req.at is not None:
                fail(f"{req.source!r} is a position, not a match: --game, --move, --at and --all need a match "
                     "file")
            position = record.position
            if record.names is not None and any(record.names):
                position = position.replace(names=tuple(record.names))
            play, cap = _candidate(record, req, position)
            plays = req.plays if play is None else (play,)
            if play is not None:
                base["play"] = [play]
            elif plays:
                base["play"] = list(plays)
            if cap is not None and req.caption is None and not req.no_caption:
                base["caption"] = cap
            if auto:
                base["caption"] = _book_caption(position, req.caption_pips, dice=base.get("dice"))
            _check_plays(position, plays, base.get("dice"), "--candidate" if play is not None else "--play")
            out_fmt = _format_for(req.output, req.fmt)
            inputs = (req.source,) if req.source != "-" and names_file(req.source) else ()
            _write(Path(req.output), _render(position, out_fmt, base), req.force, inputs)
            return
        if req.plays:
            base["play"] = list(req.plays)
        fixed_caption = req.no_caption or req.caption is not None
        _render_match(req.source, req.output, req.fmt, req.game_no, req.move_no, req.draw_all, base,
                      fixed_caption, req.at, req.force, match, req.jobs,
                      req if req.candidate is not None else None, req.caption_pips if auto else None)
    except NotationError as e:
        fail(str(e))
    except BrokenPipeError:
        raise
    except (ValueError, OSError) as e:
        fail(str(e))


def _render_match(source: str, output: str, fmt: str | None, game_no: int | None, move_no: int | None,
                  draw_all: bool, base: dict[str, Any], fixed_caption: bool, at: str | None = None,
                  force: bool = False, given: Any = None, jobs: int = 0, candidate: Any = None,
                  auto: bool | None = None) -> None:
    """Draw one position of a match (or every one, ``draw_all``).  ``auto``: each diagram's caption is
    the book caption of its position (``--caption auto``; True: with the pip counts)."""
    from render.captions import step_caption

    from ..matchio import read_match
    from ..replay import replay_match

    match = given if given is not None else read_match(source)
    rep = replay_match(match)
    if not rep.games:
        fail(f"{source}: no games")
    at_index = 0
    if at is not None:
        try:
            game_no, at_index = action_at(rep, at, source)
        except ValueError as e:
            fail(str(e))
        move_no = -1  # the action found, by its index
    if draw_all:
        if game_no is not None or move_no is not None:
            fail("--all draws every position: leave out --game and --move")
        _render_all(rep, source, output, fmt, base, fixed_caption, force, jobs, auto)
        return
    if game_no is None:
        game_no = 1
    try:
        g = game_of(rep, game_no, source)
    except ValueError as e:
        fail(str(e))
    out_fmt = _format_for(output, fmt)
    if move_no is None:
        position, opts = g.start, dict(base)
        if not fixed_caption:
            opts["caption"] = f"Game {game_no}: starting position"
    elif move_no == 0:
        position, opts = g.end, dict(base)
        if not fixed_caption:
            opts["caption"] = f"Game {game_no}: final position"
    elif move_no == -1:  # --at
        step = g.steps[at_index - 1]
        position = step.before
        label = step_labels(g.steps)[at_index - 1]
        opts = _step_options(step, base, None if fixed_caption else step_caption(step, game_no, label))
    else:
        want = str(move_no)
        try:
            step = g.steps[move_index(g, game_no, move_no, source)]
        except ValueError as e:
            fail(str(e))
        position = step.before
        opts = _step_options(step, base, None if fixed_caption else step_caption(step, game_no, want))
    if auto is not None:
        opts["caption"] = _book_caption(position, auto, rep.match.rules.crawford, base.get("dice"))
    if candidate is not None:  # --candidate N: the N-th play of the analysis the record holds for this move
        from types import SimpleNamespace

        play, cap = _candidate(SimpleNamespace(analysis=step.action.analysis), candidate, position)
        if play is not None:
            _check_plays(position, (play,), opts.get("dice"), "--candidate")
            opts["play"] = [play]
            if cap is not None and not fixed_caption:
                opts["caption"] = cap
        elif cap is not None and not fixed_caption and cap not in opts.get("caption", ""):  # a cube decision
            opts["caption"] = f"{opts['caption']}. {cap}" if opts.get("caption") else cap
    try:
        data = _render(position, out_fmt, opts)
    except InvalidPositionError as e:  # the replay's finding says it too; the position is named here
        if move_no is None:
            where = f"{source}: game {game_no} starting position"
        elif move_no == 0:
            where = f"{source}: game {game_no} final position"
        else:
            where = place(source, step, game_no, label if move_no == -1 else want)
        fail(f"{where}: cannot be drawn: {e.message}")
    _write(Path(output), data, force, (source,))


_ALL_JOBS: list[tuple[Path, Position, dict[str, Any]]] = []
"""The diagrams of ``render --all``, read by the worker processes (inherited when they are forked)."""


ALL_BATCH = 16
"""``render --all`` writes its diagrams this many at a time (:class:`notation.convert.OutputBatch`): their
data is synced together while the next ones are drawn, then they are put in place together."""


def _draw_batch(keys: list[str]) -> list[tuple[str, ...]]:
    """Draw the diagrams ``_ALL_JOBS[int(key)]`` and write them together, each as :func:`_write`
    writes one (checked, through a temporary file, on disk before its rename); for each, the
    characters no font had."""
    from render import _font

    from ..convert import OutputBatch

    force, inputs = _ALL_FORCE
    out: list[tuple[str, ...]] = []
    with OutputBatch() as batch:
        for key in keys:
            path, position, opts = _ALL_JOBS[int(key)]
            _font.MISSING.clear()
            data = _render(position, path.suffix[1:], opts)
            out.append(tuple(sorted(_font.MISSING)))
            try:
                batch.add(path, data, force=force, inputs=inputs)
            except FileExistsError as e:
                fail(str(e))
            except OSError as e:
                fail(f"{path}: cannot write: {e.strerror or e}")
        try:
            batch.finish()
        except FileExistsError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{getattr(e, 'filename', None) or 'a diagram'}: cannot write: {e.strerror or e}")
    return out


_ALL_FORCE: list[Any] = [False, ()]


def _render_all(rep: Any, source: str, output: str, fmt: str | None, base: dict[str, Any], fixed_caption: bool,
                force: bool, jobs: int, auto: bool | None = None) -> None:
    """Every position of every game into the directory ``output``: checked for existing files first,
    drawn in ``jobs`` processes (0: automatic), with a progress bar on a terminal."""
    from render import _font
    from render.captions import step_caption

    from ..parallel import auto_jobs, can_fork, map_batches

    out_fmt = fmt or "png"
    out_dir = Path(output)
    if output == "-" or (out_dir.exists() and not out_dir.is_dir()) or \
            (not out_dir.is_dir() and out_dir.suffix.lower() in (".png", ".svg")):
        fail(f"{output}: with --all, -o names a directory (one file is written for each position)")
    todo: list[tuple[Path, Position, dict[str, Any]]] = []
    places: list[str] = []
    for gi, g in enumerate(rep.games, 1):
        for label, step in zip(step_labels(g.steps), g.steps, strict=True):
            cap = None if fixed_caption else step_caption(step, gi, label)
            if auto is not None:
                cap = _book_caption(step.before, auto, rep.match.rules.crawford)
            num, dash, rest = label.partition("-")
            name = num.zfill(3) + dash + rest if label[0].isdigit() else label
            todo.append((out_dir / f"game{gi:02d}_move{name}.{out_fmt}", step.before,
                         _step_options(step, base, cap)))
            places.append(place(source, step, gi, label))
        end_opts = dict(base)
        if not fixed_caption:
            end_opts["caption"] = f"Game {gi}: final position"
        elif auto is not None:
            end_opts["caption"] = _book_caption(g.end, auto, rep.match.rules.crawford)
        todo.append((out_dir / f"game{gi:02d}_end.{out_fmt}", g.end, end_opts))
        places.append(f"{source}: game {gi} final position")
    from render.layout import check_position

    undrawable: list[str] = []
    drawable: list[tuple[Path, Position, dict[str, Any]]] = []
    for item, where in zip(todo, places, strict=True):
        try:
            check_position(item[1])
        except InvalidPositionError as e:  # the replay's finding says it too: the others are drawn
            undrawable.append(f"{where}: not drawn: {e.message}")
            continue
        drawable.append(item)
    todo = drawable
    existing = [str(p) for p, _, _ in todo if p.exists()]
    if existing and force:  # refused before any diagram is drawn: the input, a FIFO, a device
        from ..convert import check_target

        for name in existing:
            try:
                check_target(name, force=True, inputs=(source,))
            except FileExistsError as e:
                fail(str(e))
    if existing and not force:
        more = f" and {len(existing) - 1} more" if len(existing) > 1 else ""
        fail(f"{existing[0]}{more} exist (use --force to overwrite them)")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"{out_dir}: cannot make the directory: {e.strerror or e}")
    _ALL_JOBS[:] = todo
    _ALL_FORCE[:] = [force, (source,)]
    n = jobs if jobs > 0 else auto_jobs(len(todo))
    if not can_fork():
        n = 1  # the workers read the list of diagrams from this process's memory: forked ones only
    try:
        if sys.stderr.isatty():
            with click.progressbar(length=len(todo), label=f"Rendering {len(todo)} diagrams", file=sys.stderr,
                                   show_pos=True) as bar:
                missing = map_batches(_draw_batch, [str(i) for i in range(len(todo))], n, ALL_BATCH,
                                      lambda: bar.update(1))
        else:
            missing = map_batches(_draw_batch, [str(i) for i in range(len(todo))], n, ALL_BATCH)
    finally:
        _ALL_JOBS.clear()
    _font.MISSING.update(c for chars in missing for c in chars)
    for line in undrawable:
        click.echo(safe_line(line), err=True)
    click.echo(f"{len(todo)} diagrams written to {safe_line(str(out_dir))}" + (f" ({n} processes)" if n > 1 else "")
               + (f"; {len(undrawable)} positions that cannot exist not drawn" if undrawable else ""), err=True)
    if undrawable:
        sys.exit(2)
