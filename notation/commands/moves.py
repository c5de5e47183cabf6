"""``gammon moves POSITION``: every legal play of a roll, one per distinct resulting position, as
:mod:`notation.moves` lists them (their order, notation and the Position IDs of their results)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from .._term import fail
from ..errors import NotationError
from ..ids import parse_position
from ..moves import PositionPlays
from ..position import parse_dice
from ..positionio import position_lines
from ..rules import ALL_ROLLS, Rules, get_rules

PARALLEL_PAIRS = 1000
"""``--jobs 0`` lists in one process per CPU from this many position-and-roll pairs (fewer: one process;
forking a worker, the plays it meets again that the other process already wrote, and sending its
output back cost about as much as listing a few hundred pairs)."""

_CHUNK_PAIRS = 128
"""About how many position-and-roll pairs each process lists at a time in parallel (its output is
written as soon as it and every run before it are done)."""


class _Listing:
    """What is the same for every position of one ``gammon moves``: the rolls asked, the rules, the format."""

    __slots__ = ("all_rolls", "given", "rules", "as_json", "several")

    def __init__(self, all_rolls: bool, given: tuple[int, int] | None, rules: Rules | None, as_json: bool,
                 several: bool) -> None:
        self.all_rolls = all_rolls
        self.given = given
        self.rules = rules
        self.as_json = as_json
        self.several = several

    def write(self, inputs: Sequence[tuple[str, str | None]], write: Callable[[str], Any]) -> str | None:
        """Write the listing of each of ``inputs`` through ``write`` (a batch of lines at a time); the
        message that stops the command at the first bad input (what was listed before it is written),
        or None."""
        all_rolls, given, rules, as_json, several = self.all_rolls, self.given, self.rules, self.as_json, \
            self.several
        out: list[str] = []
        for text, where in inputs:
            try:
                pos = parse_position(text, variant=rules.name if rules else "standard")
            except NotationError as e:
                write("".join(out))
                return f"{where}: {e.message}" if where else e.message
            if rules is not None:
                pos = pos.replace(variant=rules.name)
            if all_rolls:
                rolls = list(ALL_ROLLS)
            elif given is not None:
                rolls = [given]
            elif pos.dice is not None:
                rolls = [pos.dice]
            else:
                write("".join(out))
                return f"{where + ': ' if where else ''}the position has no dice: give --dice AB or --all-rolls"
            if several and not as_json:
                out.append(f"Position {text}\n")
            plays = PositionPlays(pos)
            if as_json:
                import json

                head = '{"position": ' + json.dumps(text) + ', "dice": "'
                for roll in rolls:
                    out.append(f'{head}{roll[0]}{roll[1]}", "plays": {plays.json(roll)}}}\n')
            else:
                for roll in rolls:
                    entries = plays.entries(roll)
                    n = len(entries)
                    out.append(f"Roll {roll[0]}{roll[1]}: "
                               + (f"{n} legal play{'s' if n != 1 else ''}" if n else "no legal play") + "\n")
                    out.extend(f"  {e[1]}\n" for e in entries)
            if len(out) > 4096:  # one write per batch of lines, not one per line
                write("".join(out))
                out.clear()
        write("".join(out))
        return None


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
    if dice_text is not None and all_rolls:
        fail("give either --dice or --all-rolls, not both")
    try:
        given = parse_dice(dice_text, "--dice") if dice_text is not None else None
    except ValueError as e:
        fail(str(e))
    try:
        rules = get_rules(variant) if variant else None
    except ValueError as e:
        fail(str(e))
    try:
        inputs = list(position_lines(position))
    except OSError as e:
        fail(f"{position}: cannot read: {e.strerror or e}")
    except (NotationError, UnicodeDecodeError) as e:
        fail(str(e))
    listing = _Listing(all_rolls, given, rules, as_json, position == "-")
    n = jobs if jobs > 0 else _auto_jobs(len(inputs) * (21 if all_rolls else 1))
    # The listing's objects are freed by their reference counts (the remembered entries stay): the
    # cycle collector would scan the entries again and again for nothing, and in a forked worker
    # touch (and so copy) every page of its parent.
    from ..parallel import collector_paused

    with collector_paused():
        if n > 1 and len(inputs) > 1 and hasattr(sys.stdout, "buffer"):
            error = _write_parallel(listing, inputs, n)
        else:
            error = listing.write(inputs, sys.stdout.write)
    if error is not None:
        fail(error)


def _auto_jobs(pairs: int) -> int:
    if pairs < PARALLEL_PAIRS:  # (one position: not even the import)
        return 1
    from ..parallel import can_fork, cpu_count

    if not can_fork():
        return 1
    return max(1, min(cpu_count(), 16, pairs // (PARALLEL_PAIRS // 2)))


def _write_parallel(listing: _Listing, inputs: list[tuple[str, str | None]], jobs: int) -> str | None:
    """:meth:`_Listing.write` of ``inputs`` to standard output in up to ``jobs`` processes: runs of
    consecutive positions, each listed by one process and written in their order, byte for byte what
    one process writes; the first bad input's message, or None."""
    from ..parallel import map_ordered

    per = 21 if listing.all_rolls else 1
    size = max(1, _CHUNK_PAIRS // per)
    runs = [inputs[lo:lo + size] for lo in range(0, len(inputs), size)]
    encoding, errors = sys.stdout.encoding, sys.stdout.errors or "strict"

    def one(k: int) -> tuple[bytes, str | None]:
        parts: list[str] = []
        error = listing.write(runs[k], parts.append)
        return "".join(parts).encode(encoding, errors), error

    sys.stdout.flush()
    out = sys.stdout.buffer
    results = map_ordered(one, len(runs), jobs)
    try:
        for data, error in results:
            out.write(data)
            if error is not None:
                return error
    finally:
        results.close()
    return None
