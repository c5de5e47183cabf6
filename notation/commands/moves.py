"""``gammon moves POSITION``: every legal play of a position, for a roll or all 21.

The command line is read here, by click; the work is :func:`notation.commands._moves_run.run` (which the
``gammon`` entry point also calls directly for the common command lines, without click)."""

from __future__ import annotations

import click

from . import _moves_run
from ._moves_run import PARALLEL_PAIRS

__all__ = ["command"]


@click.command("moves", context_settings={"ignore_unknown_options": True})
@click.argument("position")
@click.option("--dice", "dice_text", metavar="AB", default=None,
              help="The roll, e.g. 64 (default: the dice of the position).")
@click.option("--all-rolls", is_flag=True, help="Each of the 21 rolls, 66 first.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object a line per position and roll: position, dice, plays "
                   "[{play, position_id}] (position_id: the result, opponent on roll).")
@click.option("--variant", default=None, metavar="NAME",
              help="Rules and checker count to use (standard, nackgammon, hypergammon, ...).")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="List the positions in this many parallel processes (each a run of positions, written in "
                   f"their order); 0: one per CPU when there are at least {PARALLEL_PAIRS} position-and-roll "
                   "pairs.")
def command(position: str, dice_text: str | None, all_rolls: bool, as_json: bool,
            variant: str | None, jobs: int) -> None:
    """List every legal play of POSITION's player on roll, one per distinct resulting position.

    POSITION is any supported ID (see 'gammon show'), a file, or '-' for standard input: one
    position a line, an eXtreme Gammon or BGBlitz text export, or an eXtreme Gammon position file
    (.xgp).  The roll is the position's
    dice, --dice, or each of the 21 rolls with --all-rolls.
    Plays are sorted by their moves, highest point first, then by their notation.
    """
    _moves_run.run(position, dice_text, all_rolls, as_json, variant, jobs)
