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

from ..errors import NotationError
from ..position import Position

SIZES = ("small", "medium", "large", "print")
THEMES = ("print", "classic", "contrast")
MAX_WIDTH = 8000
"""Wider images take gigabytes to draw (the PNG is drawn large and reduced) and no page needs them."""
MAX_DPI = 1200
"""The print size (120 mm) at 1200 dpi is 5,669 pixels wide."""


def _fail(message: str) -> None:
    from ..cli import fail

    fail(message)


def _parse_position(text: str) -> Position:
    try:
        from .. import ids  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - the ID module is written separately
        _fail("reading position IDs is not available in this build; give a match file instead")
        raise
    return ids.parse_position(text)  # type: ignore[no-any-return]


def _check_plays(position: Position, plays: tuple[str, ...], dice: tuple[int, int] | None) -> None:
    """Each --play resolved before drawing, so that an error names the option and its own column."""
    from ..play import resolve_play

    roll = dice if dice is not None else position.dice
    for k, text in enumerate(plays, 1):
        which = f"--play {text!r}" + (f" (the {k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
                                     " of the --play options)" if len(plays) > 1 else "")
        if roll is None:
            _fail(f"{which}: the position has no dice: give --dice AB")
        try:
            resolve_play(position, text, roll)
        except NotationError as e:
            where = f", column {e.column}" if e.column else ""
            _fail(f"{which}{where}: {e.message}")


def _looks_like_file(source: str) -> bool:
    return Path(source).is_file()


def _write(path: Path, data: bytes | str, force: bool = False, inputs: tuple[str, ...] = ()) -> None:
    """Write one diagram: ``-`` is standard output; a file goes through a temporary file and a rename,
    never over an input (not even through a link), over an existing file only with ``force``."""
    from ..convert import atomic_write

    if str(path) == "-":
        raw = data.encode("utf-8") if isinstance(data, str) else data
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data, force=force, inputs=inputs)
    except FileExistsError as e:
        _fail(str(e))
    except OSError as e:
        _fail(f"{path}: cannot write: {e.strerror or e}")


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
    _fail(f"cannot tell the format of {path!r}: name it .png or .svg, or give --format")
    return ""


def _who(position: Position, player: int) -> str:
    name = position.names[player] if player < len(position.names) else ""
    return name or ("White", "Black")[player]


def step_labels(steps: list[Any]) -> list[str]:
    """Each step's name in the record's own numbering, as `gammon validate` prints it: the move number
    (the ``.mat`` row, the SGF node) for the first action of that move, ``14-2`` for its second ...;
    ``s5`` (the fifth action) where the record numbers none."""
    seen: dict[int, int] = {}
    out = []
    for k, step in enumerate(steps, 1):
        n = step.action.move_number
        if n is None:
            out.append(f"s{k}")
            continue
        seen[n] = seen.get(n, 0) + 1
        out.append(str(n) if seen[n] == 1 else f"{n}-{seen[n]}")
    return out


def _describe(step: Any, game_no: int, move_no: int | str) -> str:
    """A caption for the position before an action: 'Game 2, move 14: Alice to play 5-3: 13/8 13/10'."""
    a = step.action
    who = _who(step.before, a.player)
    head = f"Game {game_no}, move {move_no}: {who}"
    if a.kind == "move" and a.dice:
        what = f"to play {a.dice[0]}-{a.dice[1]}"
        if step.play is not None and step.play.steps:
            what += f": {step.play.notation()}" + ("" if step.legal else " (illegal, as recorded)")
        elif step.play is not None:
            what += ": no move"
        return f"{head} {what}"
    from ..record import action_phrase

    return f"{head} {action_phrase(a)}"


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


@click.command("render")
@click.argument("source")
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
@click.option("--play", "plays", multiple=True,
              help="A play to draw as arrows, e.g. '24/21 21/16'; repeat for boards side by side.")
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
@click.option("--bottom", type=click.Choice(["on-roll", "white", "black"]), default="on-roll",
              show_default=True,
              help="The player at the bottom; points are numbered from that side.")
@click.option("--numbers", type=click.Choice(["viewer", "both", "none"]), default="viewer", show_default=True,
              help="Point numbers: the bottom player's, both sides', or none.")
@click.option("--theme", type=click.Choice(THEMES), default="print", show_default=True,
              help="print: black and white for books; classic: coloured board; contrast: high contrast.")
@click.option("--names/--no-names", default=None, help="Player names above and below the board.")
@click.option("--pips/--no-pips", default=None, help="Pip counts.")
@click.option("--score/--no-score", default=None, help="Match score and length.")
@click.option("--caption", default=None, help="Text under the diagram.")
@click.option("--no-caption", is_flag=True, help="No caption (for match positions, where one is made up).")
@click.option("--direction", is_flag=True, help="Draw the bottom player's direction of movement.")
@click.option("--no-ghosts", is_flag=True, help="No dashed outlines where moved checkers land.")
@click.option("--columns", type=click.IntRange(1, 8), default=None,
              help="Boards per row with several --play.")
def command(source: str, output: str, fmt: str | None, game_no: int | None, move_no: int | None, at: str | None,
            draw_all: bool, plays: tuple[str, ...], dice: str | None, size: str, width: int | None,
            dpi: int | None, home: str, bottom: str, numbers: str, theme: str, names: bool | None,
            pips: bool | None, score: bool | None, caption: str | None, no_caption: bool, direction: bool,
            no_ghosts: bool, columns: int | None, force: bool = False, fonts: tuple[str, ...] = ()) -> None:
    """Draw SOURCE (a position ID, a match file or an eXtreme Gammon position file .xgp) as a
    book-style diagram in PNG or SVG.

    \b
    gammon render "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10" -o start.png
    gammon render "XGID=..." --dice 53 --play "13/8 13/10" --play "8/3 6/3" -o two-ways.svg
    gammon render match.mat --game 2 --move 14 -o g2m14.png
    gammon render match.mat --at 98:38 -o fig.png     (a place `gammon validate` printed)
    gammon render match.mat --all -o figures/
    """
    from render import _font

    for f in fonts:
        try:
            _font.add_font(f)
        except (ValueError, OSError) as e:
            _fail(f"--font {f}: {e}")
    _font.MISSING.clear()
    try:
        _command(source, output, fmt, game_no, move_no, at, draw_all, plays, dice, size, width, dpi, home, bottom,
                 numbers, theme, names, pips, score, caption, no_caption, direction, no_ghosts, columns, force)
    finally:
        if _font.MISSING:
            chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in sorted(_font.MISSING)[:12])
            click.echo(f"gammon: warning: no font in use has {chars}: drawn as '?'; give --font FILE with a "
                       "font that has them", err=True)


def _command(source: str, output: str, fmt: str | None, game_no: int | None, move_no: int | None, at: str | None,
             draw_all: bool, plays: tuple[str, ...], dice: str | None, size: str, width: int | None,
             dpi: int | None, home: str, bottom: str, numbers: str, theme: str, names: bool | None,
             pips: bool | None, score: bool | None, caption: str | None, no_caption: bool, direction: bool,
             no_ghosts: bool, columns: int | None, force: bool) -> None:
    stdin_match = None
    stdin_position = None
    if source == "-":  # standard input: a record, or a position (an ID, an XG/BGBlitz export)
        from ..matchio import parse_any
        from ..positionio import parse_position_text

        data = sys.stdin.buffer.read()
        try:
            stdin_match = parse_any(data, name="<stdin>")[0]
        except (NotationError, IndexError):
            try:
                stdin_position = parse_position_text(data.decode("utf-8-sig", "replace"), name="<stdin>").position
            except NotationError as e:
                _fail(f"<stdin>: neither a match record nor a position ({e.message})")
    elif source.lower().endswith(".xgp") and _looks_like_file(source):  # an eXtreme Gammon position file
        from ..positionio import read_position

        try:
            stdin_position = read_position(source).position
        except NotationError as e:
            _fail(str(e))
        except OSError as e:
            _fail(f"{source}: cannot read: {e.strerror or e}")
    is_match = stdin_match is not None or (stdin_position is None and _looks_like_file(source))
    base: dict[str, Any] = {
        "size": size, "home": home, "bottom": bottom.replace("-", "_"), "numbers": numbers, "theme": theme,
        "ghosts": not no_ghosts, "direction": direction,
    }
    if width is not None:
        base["width"] = width
    if dpi is not None:
        base["dpi"] = dpi
    if columns is not None:
        base["columns"] = columns
    if plays:
        base["play"] = list(plays)
    if caption is not None and not no_caption:
        base["caption"] = caption
    for key, flag in (("names", names), ("pips", pips), ("score", score)):
        value = flag if flag is not None else is_match
        if value:
            base[key] = True
    try:
        if dice is not None:
            from render.layout import parse_dice

            base["dice"] = parse_dice(dice)
        if not is_match:
            if game_no is not None or move_no is not None or draw_all:
                _fail(f"{source!r} is not a file: --game, --move and --all need a match file")
            position = stdin_position if stdin_position is not None else _parse_position(source)
            _check_plays(position, plays, base.get("dice"))
            out_fmt = _format_for(output, fmt)
            _write(Path(output), _render(position, out_fmt, base), force)
            return
        fixed_caption = no_caption or caption is not None
        _render_match(source, output, fmt, game_no, move_no, draw_all, base, fixed_caption, at, force,
                      stdin_match)
    except NotationError as e:
        _fail(str(e))
    except (ValueError, OSError) as e:
        _fail(str(e))


def _find_at(rep: Any, at: str, source: str) -> tuple[int, int]:
    """(game, action index from 1) of the action at LINE[:COL] of the file."""
    try:
        parts = [int(x) for x in at.split(":")]
    except ValueError:
        _fail(f"--at {at!r}: expected LINE or LINE:COL")
    line, col = parts[0], (parts[1] if len(parts) > 1 else None)
    best = None
    for gi, g in enumerate(rep.games, 1):
        for si, step in enumerate(g.steps, 1):
            span = step.action.span
            if span is None or span.line != line:
                continue
            if col is None or span.column <= col:
                best = (gi, si)
            if col is None:
                return best
    if best is None:
        _fail(f"{source}: no action at line {at}")
    return best


def _render_match(source: str, output: str, fmt: str | None, game_no: int | None, move_no: int | None,
                  draw_all: bool, base: dict[str, Any], fixed_caption: bool, at: str | None = None,
                  force: bool = False, given: Any = None) -> None:
    from ..matchio import read_match
    from ..replay import replay

    match = given if given is not None else read_match(source)
    rep = replay(match)
    if not rep.games:
        _fail(f"{source}: no games")
    at_index = 0
    if at is not None:
        game_no, at_index = _find_at(rep, at, source)
        move_no = -1  # the action found, by its index
    if draw_all:
        if game_no is not None or move_no is not None:
            _fail("--all draws every position: leave out --game and --move")
        out_fmt = fmt or "png"
        out_dir = Path(output)
        if output == "-" or (not out_dir.is_dir() and out_dir.suffix.lower() in (".png", ".svg")):
            _fail(f"{output}: with --all, -o names a directory (one file is written for each position)")
        jobs: list[tuple[Path, Position, dict[str, Any]]] = []
        for gi, g in enumerate(rep.games, 1):
            for label, step in zip(step_labels(g.steps), g.steps, strict=True):
                cap = None if fixed_caption else _describe(step, gi, label)
                num, dash, rest = label.partition("-")
                name = num.zfill(3) + dash + rest if label[0].isdigit() else label
                jobs.append((out_dir / f"game{gi:02d}_move{name}.{out_fmt}", step.before,
                             _step_options(step, base, cap)))
            end_opts = dict(base)
            if not fixed_caption:
                end_opts["caption"] = f"Game {gi}: final position"
            jobs.append((out_dir / f"game{gi:02d}_end.{out_fmt}", g.end, end_opts))
        existing = [str(p) for p, _, _ in jobs if p.exists()]
        if existing and not force:
            more = f" and {len(existing) - 1} more" if len(existing) > 1 else ""
            _fail(f"{existing[0]}{more} exist (use --force to overwrite them)")
        out_dir.mkdir(parents=True, exist_ok=True)
        show = sys.stderr.isatty()
        with click.progressbar(jobs, label=f"Rendering {len(jobs)} diagrams", file=sys.stderr,
                               show_pos=True, hidden=not show) as bar:
            for path, position, opts in bar:
                _write(path, _render(position, out_fmt, opts), force, (source,))
        click.echo(f"{len(jobs)} diagrams written to {out_dir}", err=True)
        return
    if game_no is None:
        game_no = 1
    if game_no > len(rep.games):
        _fail(f"{source}: there is no game {game_no} (the match has {len(rep.games)})")
    g = rep.games[game_no - 1]
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
        opts = _step_options(step, base, None if fixed_caption else _describe(step, game_no, label))
    else:
        labels = step_labels(g.steps)
        want = str(move_no)
        if want not in labels:
            numbered = [x for x in labels if x[0].isdigit() and "-" not in x]
            _fail(f"{source}: game {game_no} has no move {move_no} (its moves are numbered "
                  f"{numbered[0] if numbered else '-'} to {numbered[-1] if numbered else '-'}, as validate "
                  "prints them)")
            return
        step = g.steps[labels.index(want)]
        position = step.before
        opts = _step_options(step, base, None if fixed_caption else _describe(step, game_no, want))
    _write(Path(output), _render(position, out_fmt, opts), force, (source,))
