"""``gammon show POSITION``: a position read from any ID format, shown with its board and written in
every ID format.

The command line is read here, by click; the work is :func:`notation.commands._show_run.run` (which the
``gammon`` entry point also calls directly for the common command lines, without click)."""

from __future__ import annotations

import click

from . import _show_run
from ._show_run import FORMAT_NAMES, describe

__all__ = ["command", "describe", "FORMAT_NAMES"]


@click.command("show", context_settings={"ignore_unknown_options": True})
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(position: str, as_json: bool) -> None:
    """Show POSITION, given in any supported format (recognised by its shape): an XGID, a GNU
    Backgammon PositionID:MatchID (or a Position ID alone: player 0 on roll), a FIBS 'board:' line,
    a Snowie text position, or a board as gnubg's 'show board' prints it; or a file holding one, or
    an eXtreme Gammon or BGBlitz text export (its ID gives the position; its names and ranked plays
    or cube decision are shown too).  '-' reads it from standard input.

    Players, as in `gammon render`: X is Black, player 1 (the black checkers of a diagram, XGID
    upper case, the right column of a .mat score line); O is White, player 0 (the white checkers,
    XGID lower case, the left column).  The board is gnubg's, with X at the bottom; points are
    numbered from the side of the player on roll (`render` puts that player at the bottom unless
    --bottom says otherwise, and numbers the points for the bottom player).

    Prints the board, the pip counts, the side on roll, the dice, cube and score, and the position
    in every ID format.  A position that cannot exist is shown with its problems and the exit status
    is 2, as for text that cannot be read.
    """
    _show_run.run(position, as_json)
