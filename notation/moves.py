"""A roll's legal plays as ``gammon moves`` lists them: one per distinct resulting position, in a fixed
order (by their single-die moves, each play's moves taken from the highest point down and compared point
by point, so plays that start from the back come first; ties broken by the notation), each written in
gnubg's canonical notation (:meth:`notation.rules.Play.notation`), and the Position ID of each result,
worked out from the position's key and the play's steps (:class:`PositionPlays`)."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .ids import b64_keys, boards_position_id, position_id
from .play import play_result
from .playtext import _format_default
from .position import Board, Position
from .rules import Play, Rules, Step, boards_after


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
    keys: list[int] = []
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


class PositionPlays:
    """One position's legal plays, roll by roll, as ``gammon moves`` lists them (its rules: the
    position's), with the Position ID of each result (the opponent on roll) for ``--json``."""

    __slots__ = ("position", "rules", "mine", "theirs", "_waiting", "_table")

    def __init__(self, position: Position) -> None:
        self.position = position
        self.rules = position.rules
        self.mine, self.theirs = position.on_roll, position.opponent
        self._waiting = self.rules.checkers_start_off_board  # Acey-Deucey: checkers may wait off the board
        self._table: tuple[int, _IdTerms] | None = None
        if not self._waiting and self.rules.checkers <= 15 and len(self.mine) == len(self.theirs) == 26:
            self._table = _id_table(self.mine, self.theirs)  # each result's ID from the position's key

    def entries(self, roll: tuple[int, int]) -> list[Entry]:
        """The :data:`Entry` of each legal play of ``roll``, in :func:`play_order`."""
        return listed(self.mine, self.theirs, roll, self.rules)

    def json(self, roll: tuple[int, int]) -> str:
        """The JSON list of ``roll``'s plays, each ``{"play": ..., "position_id": ...}`` (the result's ID),
        as :func:`json.dumps` lays it out, written directly: plays and IDs need no escaping
        (``tests/test_moves_fast_path.py`` compares the two)."""
        mine, theirs = self.mine, self.theirs
        if self._table is not None:
            k16, table = self._table
            jentries = listed(mine, theirs, roll, self.rules, _json_entry)
            if not jentries:
                return "[]"
            return "[" + '"}, '.join(map(str.__add__, map(_FRAG, jentries),
                                         b64_keys(_result_keys(k16, table, jentries)))) + '"}]'
        entries = listed(mine, theirs, roll, self.rules)
        if self._waiting:
            by_steps = {p.steps: p for p in self.rules.plays_for(mine, theirs, *roll)}
            ids = [position_id(play_result(self.position, by_steps[st])) for _, _, st in entries]
        else:
            ids = [boards_position_id(*result_boards(mine, theirs, st)[::-1]) for _, _, st in entries]
        return "[" + ", ".join(f'{{"play": "{e[1]}", "position_id": "{i}"}}'
                               for e, i in zip(entries, ids, strict=True)) + "]"
