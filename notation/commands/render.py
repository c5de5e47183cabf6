"""``gammon render``: board diagrams (PNG or SVG) of a position, of a move in a match, or of a whole match.

The command line is read here, by click; the work is :func:`notation.commands._render_run.run` (which the
``gammon`` entry point also calls directly for the common command lines, without click)."""

from __future__ import annotations

import click

from . import _render_run
from ._render_run import CONVENTION, MAX_DPI, MAX_WIDTH, SHOW_NAMES, SIZES, THEMES, _describe, step_labels

__all__ = ["command", "step_labels", "_describe"]


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
@click.option("--caption", default=None, help="Text under the diagram.")
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
            candidate: int | None = None, jobs: int = 0) -> None:
    """Draw SOURCE (a position ID, a position file such as an XG or BGBlitz text export, or a match
    file; '-' reads standard input) as a book-style diagram in PNG or SVG.

    \b
    gammon render "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10" -o start.png
    gammon render "XGID=..." --dice 53 --play "13/8 13/10" --play "8/3 6/3" -o two-ways.svg
    gammon render "XGID=..." --names "Ann,Ben" --title "Figure 3" -o fig3.png
    gammon render export.txt --candidate 2 -o second-best.png
    gammon render match.mat --game 2 --move 14 -o g2m14.png
    gammon render match.mat --at 98:38 -o fig.png     (a place `gammon validate` printed)
    gammon render match.mat --all -o figures/
    """
    _render_run.run(source=source, output=output, fmt=fmt, game_no=game_no, move_no=move_no, at=at,
                    draw_all=draw_all, plays=plays, dice=dice, size=size, width=width, dpi=dpi, home=home,
                    bottom=bottom, numbers=numbers, theme=theme, names_opt=names_opt, pips=pips, score=score,
                    caption=caption, no_caption=no_caption, direction=direction, no_ghosts=no_ghosts,
                    columns=columns, force=force, fonts=fonts, no_names=no_names, title=title,
                    candidate=candidate, jobs=jobs)
