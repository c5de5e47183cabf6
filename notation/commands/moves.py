"""``gammon moves POSITION``: every legal play of a roll, one per distinct resulting position.

Plays are listed in a fixed order: by their single-die moves, each play's moves taken from the
highest point down and compared point by point (so plays that start from the back come first),
ties broken by the notation.  Each play is written in gnubg's canonical notation
(:meth:`notation.rules.Play.notation`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from typing import Any

import click

from .._term import fail
from ..errors import NotationError
from ..ids import b64_keys, boards_position_id, parse_position, position_id
from ..play import play_result
from ..playtext import _format_default
from ..position import Board, Position
from ..rules import ALL_ROLLS, Play, Rules, Step, boards_after, get_rules

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
        key, text = _key_and_text(steps)
        if len(_ENTRIES) >= _ENTRIES_MAX:
            _ENTRIES.clear()
        e = _ENTRIES[steps] = (key, text, steps)
    return e


def _key_and_text(steps: tuple[Step, ...]) -> tuple[str, str]:
    """(the sort string, the notation) of :func:`_entry`."""
    text = _format_default(steps)  # not format_play's cache: a listed play is written once
    # (s, t, hit) from the highest: (s, t) as play_order sorts them (the hit mark does not matter)
    return "".join([chr(0x1000 - a) + chr(0x1000 - b) for a, b, _hit in sorted(steps, reverse=True)]
                   ) + "\0" + text, text


_FRAG = itemgetter(3)
"""The start of a :data:`JsonEntry`'s JSON object."""

JsonEntry = tuple[str, str, tuple[Step, ...], str, tuple[int, ...]]
"""An :data:`Entry` with what ``gammon moves --json`` adds: the start of the play's JSON object (up to
its ID) and the terms of its result's key (:func:`_id_terms`)."""

_JSON_ENTRIES: dict[tuple[Step, ...], JsonEntry] = {}


def _json_entry(steps: tuple[Step, ...]) -> JsonEntry:
    """The :data:`JsonEntry` of ``steps`` (remembered)."""
    e = _JSON_ENTRIES.get(steps)
    if e is None:
        key, text = _key_and_text(steps)
        if len(_JSON_ENTRIES) >= _ENTRIES_MAX:
            _JSON_ENTRIES.clear()
        e = _JSON_ENTRIES[steps] = (key, text, steps, '{"play": "' + text + '", "position_id": "',
                                    _id_terms(steps))
    return e


def listed(mine: Board, theirs: Board, dice: tuple[int, int], rules: Rules,
           make: Callable[[tuple[Step, ...]], Any] = _entry) -> list[Any]:
    """The :data:`Entry` (or what ``make`` makes: :func:`_json_entry`) of each legal play of ``mine``
    against ``theirs``, in :func:`play_order`: what :func:`written_plays` lists, without making the plays
    (``tests/test_cli_show_moves.py`` holds the two equal)."""
    get = (_JSON_ENTRIES if make is _json_entry else _ENTRIES).get
    entries = []
    for steps in rules.play_steps(mine, theirs, dice[0], dice[1]):
        e = get(steps)
        entries.append(e if e is not None else make(steps))
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


# --------------------------------------------------------------------------- Position IDs of results
#
# A Position ID is the Base64 of an 80-bit key: for each of 50 slots (the mover's points 1..24 and bar,
# then the opponent's points 1..24 and bar, in the opponent's own numbering), as many 1 bits as the slot
# holds checkers, then a 0 bit, from the lowest bit up.  With C_j the checkers in slots 1..j, slot j's 0
# bit is bit z_j = C_j + j - 1, and
#
#     key + 1 = 2**z_50 - sum(2**z_j for j in 1..49).
#
# A play changes C_j by d_j (the net count of checkers it moved into slots 1..j), which moves slot j's
# 0 bit to z_j + d_j: with v_j the j-th term above (v_j = -2**z_j, v_50 = 2**z_50),
#
#     16 * (key' + 1) = sum(v_j * 2**(d_j + 4)),   so   16 * key' = 16 * key + sum(V_i * w_i)
#
# where V_i = v_1 + ... + v_i (of the position) and w_i = g(d_i) - g(d_{i+1}), g(d) = 2**(d + 4) - 16.
# w_i is 0 except where d changes, i.e. next to a slot the play changes: at most two terms a step.  The
# terms (i, w_i) depend on the play only (remembered with its entry), the V_i on the position only, so a
# play's key costs a few additions.  (The factor 16 keeps every term whole when d_j < 0: bearing off,
# hit checkers.)  The keys of one roll are encoded together: each as 12 bytes, whose Base64 is the ID's
# 14 characters and "AA".

_G: tuple[int, ...] = tuple((1 << (d + 4)) - 16 if d >= -4 else 0 for d in range(-8, 9))
"""g(d) at index d + 8 (d is at least -4: a play moves at most four checkers)."""


def _id_terms(steps: tuple[Step, ...]) -> tuple[int, ...]:
    """The (i, w_i) terms of a play, each as ``w << 6 | i`` (see above); for boards where no checker
    waits off the board."""
    net: dict[int, int] = {}
    get = net.get
    for s, t, h in steps:
        net[s] = get(s, 0) - 1
        if t:
            net[t] = get(t, 0) + 1
            if h:  # the opponent's checker on the mover's t: its slot 25 + (25 - t), to its bar (slot 50)
                net[50 - t] = get(50 - t, 0) - 1
                net[50] = get(50, 0) + 1
    g = _G
    terms = []
    d = 8  # d_j + 8 below the slot at hand
    for j in sorted(net):
        n = net[j]
        if n:
            if j > 1:  # V_0 is 0
                terms.append(((g[d] - g[d + n]) << 6) | (j - 1))
            d += n
    if d != 8:  # checkers borne off: every slot's count below the top changed
        terms.append((g[d] << 6) | 50)
    return tuple(terms)


class _IdTerms(dict[int, int]):
    """A position's ``w_i * V_i`` by term (made when first asked)."""

    __slots__ = ("v",)

    def __init__(self, v: list[int]) -> None:
        super().__init__()
        self.v = v

    def __missing__(self, term: int) -> int:
        x = self[term] = (term >> 6) * self.v[term & 63]
        return x


def _id_table(mine: Board, theirs: Board) -> tuple[int, _IdTerms]:
    """(16 times the key of ``mine`` and ``theirs``, with ``mine`` not on roll; the position's terms)."""
    v = [0] * 51
    acc = 0
    c = 0
    j = 0
    for n in (*mine[1:26], *theirs[1:26]):
        c += n
        acc -= 1 << (c + j)  # slot j + 1's 0 bit: C + (j + 1) - 1
        j += 1
        v[j] = acc
    v[50] = acc + (2 << (c + 49))  # the top slot's term counts positive
    return (v[50] - 1) << 4, _IdTerms(v)


def _result_keys(k16: int, table: _IdTerms, entries: list[JsonEntry]) -> list[int]:
    """The key after each play of ``entries`` (the opponent on roll)."""
    keys = []
    append = keys.append
    for e in entries:
        k = k16
        for term in e[4]:
            k += table[term]
        append(k >> 4)
    return keys


def result_ids(mine: Board, theirs: Board, entries: list[Entry] | list[JsonEntry]) -> list[str]:
    """The Position ID after each play of ``entries`` (the opponent on roll), from the position's key
    and each play's terms: what :func:`notation.ids.boards_position_id` gives for
    :func:`result_boards` (``tests/test_moves_fast_path.py``), where no checker waits off the board
    and no side has more than 15 checkers."""
    k16, table = _id_table(mine, theirs)
    return b64_keys(_result_keys(k16, table, [_json_entry(e[2]) for e in entries]))


def result_boards(mine: Board, theirs: Board, steps: tuple[Step, ...]) -> tuple[Board, Board]:
    """(mover's board, opponent's board) after ``steps`` (as :class:`Play` holds them), where no checker
    waits off the board (not in Acey-Deucey, whose entering steps start from the waiting checkers):
    :func:`notation.rules.boards_after`, as the generator makes each play's boards."""
    return boards_after(mine, theirs, steps)


def parse_dice(text: str) -> tuple[int, int]:
    """``64``, ``6-4``, ``6,4`` or ``6 4`` → (6, 4), in the order given; ValueError says what is wrong."""
    m = _DICE.match(text)
    if not m:
        bad = next((i for i, c in enumerate(text) if c not in "123456- ,/"), None)
        where = f": {text[bad]!r} at column {bad + 1} is not a die 1-6" if bad is not None else \
            " is not two dice 1-6 (e.g. 64)"
        raise ValueError(f"--dice {text!r}{where}")
    return int(m.group(1)), int(m.group(2))


def _inputs(position: str) -> Iterator[tuple[str, str | None]]:
    """(text, where) for each position: the argument, a file, or standard input for '-': one position a
    line, one XG/BGBlitz text export (whose ID gives the position), or an XG position file (.xgp)."""
    import os

    from .._input import MAX_POSITION_BYTES, bad_bytes, read_bytes
    from ..errors import ParseError
    from ..positionio import maybe_export, refuse_missing_file

    if position != "-" and not (len(position) < 4096 and "\n" not in position and os.path.exists(position)
                                and not os.path.isdir(position)):  # (a FIFO or a device too, as show reads)
        refuse_missing_file(position)
        yield position, None
        return
    name = "<stdin>" if position == "-" else position
    # within the bound `show` holds a position to (`yes XGID | gammon moves -` stops at it): about
    # 20,000 IDs, one a line
    data = read_bytes(position, limit=MAX_POSITION_BYTES, what="a list of positions", name=name)
    if data[:4] == b"RGMH":  # an eXtreme Gammon position file (.xgp)
        from ..formats.xg import read_xgp
        from ..ids import xgid

        yield xgid(read_xgp(data, name).position), name
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        _, places, count = bad_bytes(data, "utf-8", most=1)
        offset, line, column = places[0]
        raise ParseError(f"byte 0x{data[offset]:02x} is not UTF-8 (the text of positions is UTF-8)"
                         + (f"; {count - 1} more such places" if count > 1 else ""),
                         file=name, line=line, column=column) from None
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
            prules = pos.rules
            mine, theirs = pos.on_roll, pos.opponent
            if as_json:
                import json

                head = '{"position": ' + json.dumps(text) + ', "dice": "'
                waiting = prules.checkers_start_off_board  # Acey-Deucey: checkers may wait off the board
                fast_ids = not waiting and prules.checkers <= 15 and len(mine) == len(theirs) == 26
                if fast_ids:
                    k16, table = _id_table(mine, theirs)
            for roll in rolls:
                roll_s = f"{roll[0]}{roll[1]}"
                if as_json:
                    # json.dumps's layout, written directly: plays and IDs need no escaping
                    # (tests/test_moves_fast_path.py compares the two)
                    if fast_ids:  # the result: the opponent on roll
                        jentries = listed(mine, theirs, roll, prules, _json_entry)
                        if jentries:
                            out.append(head + roll_s + '", "plays": [' + '"}, '.join(
                                map(str.__add__, map(_FRAG, jentries),
                                    b64_keys(_result_keys(k16, table, jentries)))) + '"}]}\n')
                        else:
                            out.append(head + roll_s + '", "plays": []}\n')
                        continue
                    entries = listed(mine, theirs, roll, prules)
                    if waiting:
                        by_steps = {p.steps: p for p in prules.plays_for(mine, theirs, *roll)}
                        ids = [position_id(play_result(pos, by_steps[st])) for _, _, st in entries]
                    else:
                        ids = [boards_position_id(*result_boards(mine, theirs, st)[::-1]) for _, _, st in entries]
                    out.append(head + roll_s + '", "plays": [' + ", ".join(
                        f'{{"play": "{e[1]}", "position_id": "{i}"}}' for e, i in zip(entries, ids, strict=True))
                        + "]}\n")
                    continue
                entries = listed(mine, theirs, roll, prules)
                n = len(entries)
                out.append(f"Roll {roll_s}: " + (f"{n} legal play{'s' if n != 1 else ''}" if n else "no legal play")
                           + "\n")
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
        given = parse_dice(dice_text) if dice_text is not None else None
    except ValueError as e:
        fail(str(e))
    try:
        rules = get_rules(variant) if variant else None
    except ValueError as e:
        fail(str(e))
    try:
        inputs = list(_inputs(position))
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
