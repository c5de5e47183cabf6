"""``gammon moves POSITION``: every legal play of a roll, one per distinct resulting position.

Plays are listed in a fixed order: by their single-die moves, each play's moves taken from the
highest point down and compared point by point (so plays that start from the back come first),
ties broken by the notation.  Each play is written in gnubg's canonical notation
(:meth:`notation.rules.Play.notation`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import click

from ..errors import NotationError
from ..ids import boards_position_id, parse_position, position_id
from ..play import format_play, play_result
from ..position import Board, Position
from ..rules import ALL_ROLLS, Play, Rules, Step, get_rules

_DICE = re.compile(r"^\s*([1-6])\s*[-/, ]?\s*([1-6])\s*$")


def play_order(play: Play) -> tuple[Any, ...]:
    """The sort key of a play: its (from, to) moves, highest first, then its notation."""
    moves = sorted(((s, t) for s, t, _hit in play.steps), key=lambda m: (-m[0], -m[1]))
    return tuple((-s, -t) for s, t in moves), play.notation()


def plays_of(position: Position, dice: tuple[int, int], rules: Rules | None = None) -> list[Play]:
    """The legal plays of ``position``'s player on roll for ``dice``, sorted by :func:`play_order`."""
    return [p for _, p in written_plays(position, dice, rules)]


Entry = tuple[str, str, tuple[Step, ...]]
"""What ``gammon moves`` needs of a play, worked out once for its steps: (a string that sorts as
:func:`play_order` does, the play's notation, its steps)."""

_ENTRIES: dict[tuple[Step, ...], Entry] = {}
"""Entries already made (plays repeat across positions and rolls)."""
_ENTRIES_MAX = 200_000


def _entry(steps: tuple[Step, ...]) -> Entry:
    """The :data:`Entry` of ``steps`` (remembered).

    The sort string is the moves, highest first, each point ``p`` as the character ``0x1000 - p`` (so
    a higher point sorts first), then NUL, then the notation: comparing two such strings is comparing
    :func:`play_order`'s tuples (a play whose moves begin another's sorts first, as the shorter tuple
    does, because NUL sorts before every point)."""
    e = _ENTRIES.get(steps)
    if e is None:
        text = format_play(steps)
        # (s, t, hit) from the highest: (s, t) as play_order sorts them (the hit mark does not matter)
        key = "".join([chr(0x1000 - a) + chr(0x1000 - b) for a, b, _hit in sorted(steps, reverse=True)]
                      ) + "\0" + text
        if len(_ENTRIES) >= _ENTRIES_MAX:
            _ENTRIES.clear()
        e = _ENTRIES[steps] = (key, text, steps)
    return e


def listed(mine: Board, theirs: Board, dice: tuple[int, int], rules: Rules) -> list[Entry]:
    """The :data:`Entry` of each legal play of ``mine`` against ``theirs``, in :func:`play_order`:
    what :func:`written_plays` lists, without making the plays (``tests/test_cli_show_moves.py`` holds
    the two equal)."""
    get = _ENTRIES.get
    entries = []
    for steps in rules.play_steps(mine, theirs, dice[0], dice[1]):
        e = get(steps)
        entries.append(e if e is not None else _entry(steps))
    entries.sort()
    return entries


def written_plays(position: Position, dice: tuple[int, int], rules: Rules | None = None
                  ) -> list[tuple[str, Play]]:
    """(notation, play) for each legal play, in :func:`play_order`; each play is formatted once."""
    rules = rules or position.rules
    plays = rules.plays_for(position.on_roll, position.opponent, dice[0], dice[1])
    keyed = []
    for p in plays:
        text = p.notation()
        moves = sorted(((a, b) for a, b, _hit in p.steps), key=lambda m: (-m[0], -m[1]))
        keyed.append((tuple((-a, -b) for a, b in moves), text, p))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [(text, p) for _, text, p in keyed]


_BITS = ["0" + "1" * n for n in range(16)]
"""A point's bits in a Position ID, highest first: its checkers' 1s above the 0 that ends it."""


def result_ids(mine: Board, theirs: Board, entries: list[Entry]) -> list[str]:
    """The Position ID after each play of ``entries`` (the opponent on roll), from the bits of the
    points the play changes: what :func:`notation.ids.boards_position_id` gives for
    :func:`result_boards` (``tests/test_moves_fast_path.py``), where no checker waits off the board
    and no point holds more than 15."""
    import binascii

    bits = _BITS
    b2a = binascii.b2a_base64
    # The key's bits from the highest: the opponent's points 25..1, then the mover's 25..1.
    mine_parts = [bits[n] for n in mine[25:0:-1]]  # mine_parts[25 - p] is point p
    theirs_text = "".join([bits[n] for n in theirs[25:0:-1]])
    out = []
    for _, _, steps in entries:
        m = list(mine)
        parts = mine_parts.copy()
        th = None
        for s, t, h in steps:
            m[s] -= 1
            parts[25 - s] = bits[m[s]]
            if t:
                m[t] += 1
                parts[25 - t] = bits[m[t]]
            if h:
                if th is None:
                    th = list(theirs)
                th[25 - t] -= 1
                th[25] += 1
        key = int(("".join([bits[n] for n in th[25:0:-1]]) if th is not None else theirs_text)
                  + "".join(parts), 2)
        out.append(b2a(key.to_bytes(10, "little"), newline=False)[:14].decode())
    return out


def result_boards(mine: Board, theirs: Board, steps: tuple[Step, ...]) -> tuple[Board, Board]:
    """(mover's board, opponent's board) after ``steps`` (as :class:`Play` holds them), where no checker
    waits off the board (not in Acey-Deucey, whose entering steps start from the waiting checkers)."""
    m = list(mine)
    th = None
    for s, t, h in steps:
        m[s] -= 1
        m[t] += 1
        if h:
            if th is None:
                th = list(theirs)
            th[25 - t] -= 1
            th[25] += 1
    return tuple(m), (theirs if th is None else tuple(th))


def parse_dice(text: str) -> tuple[int, int]:
    """``64``, ``6-4``, ``6,4`` or ``6 4`` → (6, 4), in the order given."""
    m = _DICE.match(text)
    if not m:
        bad = next((i for i, c in enumerate(text) if c not in "123456- ,/"), None)
        where = f": {text[bad]!r} at column {bad + 1} is not a die 1-6" if bad is not None else \
            " is not two dice 1-6 (e.g. 64)"
        raise click.UsageError(f"--dice {text!r}{where}")
    return int(m.group(1)), int(m.group(2))


def _inputs(position: str) -> Iterator[tuple[str, str | None]]:
    """(text, where) for each position: the argument, a file, or standard input for '-': one position a
    line, one XG/BGBlitz text export (whose ID gives the position), or an XG position file (.xgp)."""
    import os

    from ..positionio import maybe_export

    if position != "-" and not (len(position) < 4096 and os.path.isfile(position)):
        yield position, None
        return
    name = "<stdin>" if position == "-" else position
    if position == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(position, "rb") as f:
            data = f.read()
    if data[:4] == b"RGMH":  # an eXtreme Gammon position file (.xgp)
        from ..formats.xg import read_xgp
        from ..ids import xgid

        yield xgid(read_xgp(data, name).position), name
        return
    text = data.decode("utf-8-sig")
    if maybe_export(text):
        from ..formats.xgtext import looks_like_export, parse_export
        from ..ids import xgid

        if looks_like_export(text):
            yield xgid(parse_export(text, name=name).position), name
            return
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s and not s.startswith("#"):
            yield s, f"{name}:{n}"


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
def command(position: str, dice_text: str | None, all_rolls: bool, as_json: bool,
            variant: str | None) -> None:
    """List every legal play of POSITION's player on roll, one per distinct resulting position.

    POSITION is any supported ID (see 'gammon show'), a file, or '-' for standard input: one
    position a line, an eXtreme Gammon or BGBlitz text export, or an eXtreme Gammon position file
    (.xgp).  The roll is the position's
    dice, --dice, or each of the 21 rolls with --all-rolls.
    Plays are sorted by their moves, highest point first, then by their notation.
    """
    from ..cli import fail

    if dice_text is not None and all_rolls:
        fail("give either --dice or --all-rolls, not both")
    try:
        given = parse_dice(dice_text) if dice_text is not None else None
    except click.UsageError as e:
        fail(e.message)
        return
    try:
        rules = get_rules(variant) if variant else None
    except ValueError as e:
        fail(str(e))
        return
    several = position == "-"
    try:
        inputs = list(_inputs(position))
    except OSError as e:
        fail(f"{position}: cannot read: {e.strerror or e}")
        return
    except (NotationError, UnicodeDecodeError) as e:
        fail(str(e))
        return
    out: list[str] = []
    for text, where in inputs:
        try:
            pos = parse_position(text, variant=rules.name if rules else "standard")
        except NotationError as e:
            sys.stdout.write("".join(out))
            fail(f"{where}: {e.message}" if where else e.message)
            return
        if rules is not None:
            pos = pos.replace(variant=rules.name)
        if all_rolls:
            rolls = list(ALL_ROLLS)
        elif given is not None:
            rolls = [given]
        elif pos.dice is not None:
            rolls = [pos.dice]
        else:
            sys.stdout.write("".join(out))
            fail(f"{where + ': ' if where else ''}the position has no dice: give --dice AB or --all-rolls")
            return
        if several and not as_json:
            out.append(f"Position {text}\n")
        prules = pos.rules
        mine, theirs = pos.on_roll, pos.opponent
        if as_json:
            import json

            head = '{"position": ' + json.dumps(text) + ', "dice": "'
            waiting = prules.checkers_start_off_board  # Acey-Deucey: checkers may wait off the board
            fast_ids = prules.checkers <= 15 and len(mine) == len(theirs) == 26
        for roll in rolls:
            entries = listed(mine, theirs, roll, prules)
            roll_s = f"{roll[0]}{roll[1]}"
            if as_json:
                # json.dumps's layout, written directly: plays and IDs need no escaping
                # (tests/test_cli_show_moves.py compares the two)
                if waiting:
                    by_steps = {p.steps: p for p in prules.plays_for(mine, theirs, *roll)}
                    ids = [position_id(play_result(pos, by_steps[st])) for _, _, st in entries]
                elif fast_ids:  # the result: the opponent on roll
                    ids = result_ids(mine, theirs, entries)
                else:
                    ids = [boards_position_id(*result_boards(mine, theirs, st)[::-1]) for _, _, st in entries]
                out.append(head + roll_s + '", "plays": [' + ", ".join(
                    f'{{"play": "{e[1]}", "position_id": "{i}"}}' for e, i in zip(entries, ids, strict=True)) + "]}\n")
                continue
            n = len(entries)
            out.append(f"Roll {roll_s}: " + (f"{n} legal play{'s' if n != 1 else ''}" if n else "no legal play")
                       + "\n")
            out.extend(f"  {e[1]}\n" for e in entries)
        if len(out) > 4096:  # one write per batch of lines, not one per line
            sys.stdout.write("".join(out))
            out.clear()
    sys.stdout.write("".join(out))
