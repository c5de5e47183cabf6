"""OGID, OGXM's position string: ``parse_ogid`` / ``ogid`` (exported from :mod:`notation.ids` too).

``white:black:cube:dice:player:state:scoreW:scoreB:length:moveid[:checkers]``, for example the opening
roll 6-4 of Black, ``11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0``:

1. ``white``, 2. ``black``: one character per checker on the board or the bar (``0-9a-p``: its absolute
   point, 0-25), sorted.  Points are OGXM's absolute frame: White moves up (its bar is 0, its home board
   19-24), Black down (its bar is 25, its home 1-6).  Here player 0 is White: player 0's point ``p`` is
   absolute ``25 - p``, player 1's point ``p`` is ``p``.  Borne-off checkers are not written.
3. ``cube``: the owner (``N`` centred, ``W``, ``B``; ``D`` dead and ``?`` unknown are read as centred), the
   value as a power of two, and its action: ``N``, ``O`` offered (a double is pending), ``T`` taken (just
   now), ``P`` passed (the double was dropped).
4. ``dice``: the roll, low die first; empty before the roll.
5. ``player``: the side that **reached** the position, not the side on roll: after White's play it is
   ``W`` and Black is on roll.  While a double is pending it is the doubler.
6. ``state``: ``IB`` (a game that has not started: before its first roll is played), ``R`` (rolled),
   ``C`` (before the roll: the player on roll may double), ``D`` (a double is pending), ``A`` (a double
   just taken), ``G`` (game over: ``RG`` when it ended by a resignation).
7.-8. the score, 9. the match length (0 money) with ``C`` for the Crawford game (``L``, post-Crawford,
   and ``G<n>``, a money session of ``n`` games, are read; post-Crawford is derived from the score), 10.
   the move number (plays made in the game), 11. checkers per side when not 15 (3 for hypergammon).

What an OGID holds is the board, the player on roll, the dice, the cube and its owner, a pending double,
the score, the match length, the Crawford game and whether the game is over.  It holds no names, no
Jacoby or beaver rule, no cube limit and no resignation offered; :func:`parse_ogid` gives those their
defaults, and keeps the state, move number and a taken cube it read in :attr:`Position.extras`
(``ogid_state``, ``ogid_move``, ``ogid_cube``, ``ogid_length`` for a one-point match, and ``ogid_games`` for
``G<n>``), which :func:`ogid` writes again where the position cannot tell them.

The syntax is ``grammars/ogid.lark``: :func:`parse_ogid` checks each field with the grammar's rule for it,
made a regular expression (:func:`notation._grammar.regexes`), so that an error names the field.
"""

from __future__ import annotations

import re

from .errors import InvalidPositionError, ParseError
from .position import GAME_DROPPED, GAME_OVER, GAME_PLAYING, GAME_RESIGNED, Board, Position

__all__ = ["ogid", "parse_ogid", "is_ogid"]

_CHARS = "0123456789abcdefghijklmnop"
"""The character of each absolute point 0..25 (base 26)."""
_VALUE = {c: i for i, c in enumerate(_CHARS)}

_FIELDS = ("white", "black", "cube", "dice", "player", "state", "score", "score", "length", "moveid", "checkers")
"""The rule of ``grammars/ogid.lark`` of each field, in order."""
_shapes: dict[str, re.Pattern[str]] = {}


def _shape(rule: str) -> re.Pattern[str]:
    """The rule (or terminal) ``rule`` of ``grammars/ogid.lark`` as a compiled regular expression
    (:func:`notation._grammar.regexes`, generated from the grammar)."""
    pattern = _shapes.get(rule)
    if pattern is None:
        from ._grammar import regexes

        pattern = _shapes[rule] = re.compile(regexes("ogid")[rule])
    return pattern


def _without_prefix(text: str) -> str:
    """``text`` without the ``OGID=`` before it (the grammar's ``PREFIX``), if it has one."""
    m = _shape("PREFIX").match(text)
    return text if m is None else text[m.end():]


def is_ogid(text: str) -> bool:
    """``text`` has an OGID's shape (its first five fields and the ':' after them, the grammar's ``head``),
    which no other ID has."""
    return _shape("head").match(_without_prefix(text.strip())) is not None


def _initial(position: Position) -> bool:
    """A position before the game's first roll is played: the variant's opening board, cube centred at 1."""
    return (position.cube == 1 and position.cube_owner is None
            and position.boards == Position.initial(position.variant).boards)


_UNTOLD = ("IB", "IW", "R", "C", "A", "T")
"""The states an OGID read keeps (its ``ogid_state``), which a position does not tell apart: before the first
roll, rolled, to roll, a double just taken."""


def ogid(position: Position, *, move_id: int | None = None, state: str | None = None,
         cube_action: str | None = None, crawford_rule: bool | None = None) -> str:
    """The OGID of ``position``.  ``move_id`` is the number of plays made in the game so far (by default
    the move number of the OGID the position was read from, :func:`parse_ogid`'s ``ogid_move``, else 0); ``state``
    and ``cube_action`` default to what the position says (``R`` rolled, ``C`` before the roll, ``D`` and
    ``O`` a pending double, ``G`` and ``P`` a dropped double, ``G`` / ``RG`` a game over, ``IB`` a game
    whose first roll is not played yet).  Raises :class:`InvalidPositionError` for a position no OGID
    holds (a variant's checkers waiting to enter, a point held by both sides).  ``crawford_rule``: whether
    the match plays the Crawford rule, which marks a one-point match's length ``1C`` (by default as the OGID
    the position was read from marked it, else ``1C``)."""
    if move_id is None:
        move_id = int(next((v for k, v in position.extras if k == "ogid_move"), 0))
    b0, b1 = position.boards
    if position.waiting(0) > 0 or position.waiting(1) > 0:
        raise InvalidPositionError("an OGID has no place for checkers waiting to enter")
    white = []
    black = []
    for p in range(1, 26):
        if b0[p]:
            white.append(_CHARS[0 if p == 25 else 25 - p] * b0[p])
        if b1[p]:
            black.append(_CHARS[p] * b1[p])
    w = "".join(sorted("".join(white)))
    k = "".join(sorted("".join(black)))
    cube = position.cube
    if cube < 1 or cube & (cube - 1):
        raise InvalidPositionError(f"cube value {cube} is not a power of two")
    owner = "N" if position.cube_owner is None else "WB"[position.cube_owner]
    action = cube_action
    read = dict(position.extras)
    if action is None:
        action = "O" if position.double_offered else "P" if position.game_state == GAME_DROPPED else "N"
        if action == "N" and read.get("ogid_cube") == "T":  # (a double just taken: the position cannot tell)
            action = "T"
    if state is None and read.get("ogid_state") in _UNTOLD and (position.dice is None) == (
            read["ogid_state"] != "R"):
        state = read["ogid_state"]  # (as the OGID read said it, where the position cannot tell)
    if state is None:
        if position.double_offered:
            state = "D"
        elif position.game_state == GAME_RESIGNED:
            state = "RG"
        elif position.game_state in (GAME_OVER, GAME_DROPPED):
            state = "G"
        elif move_id == 0 and _initial(position):
            state = "IB"
        elif position.dice is not None:
            state = "R"
        else:
            state = "C"
    if action not in ("N", "O", "T", "P"):
        raise ValueError(f"cube action {action!r} is not N, O, T or P")
    # the side that reached the position: the doubler while a double is pending, else not the one on roll
    reached = position.turn if position.double_offered else 1 - position.turn
    dice = "" if position.dice is None else "".join(str(d) for d in sorted(position.dice))
    # (a one-point match under the Crawford rule is written as its own Crawford game, as OGXM's reference
    # codec writes it; without the rule as a plain 1)
    if crawford_rule is None:
        crawford_rule = next((v.endswith("C") for k, v in position.extras if k == "ogid_length"), True)
    length = str(position.match_length) + ("C" if position.match_length and (
        position.crawford or position.match_length == 1 and crawford_rule) else "")
    fields = [w, k, f"{owner}{cube.bit_length() - 1}{action}", dice, "WB"[reached], state,
              str(position.score[0]), str(position.score[1]), length, str(move_id)]
    checkers = position.rules.checkers
    if checkers != 15:
        fields.append(str(checkers))
    return ":".join(fields)


def parse_ogid(text: str, *, variant: str | None = None, validate: bool = True) -> Position:
    """The position an OGID describes (``OGID=`` before it is allowed).  ``variant``: the rules to read it
    under; by default backgammon, or hypergammon when the string says 3 checkers.  Raises
    :class:`ParseError` naming the field and its column, and :class:`InvalidPositionError` for a
    well-formed string of a position that cannot exist (``validate=False`` gives it anyway)."""
    stripped = text.strip()
    line = _without_prefix(stripped)
    offset = len(text) - len(text.lstrip()) + len(stripped) - len(line)
    parts = line.split(":")
    cols = []
    col = offset + 1
    for p in parts:
        cols.append(col)
        col += len(p) + 1

    def bad(i: int, what: str) -> ParseError:
        """Field ``i`` (0-based) is not what it should be."""
        return ParseError(f"OGID field {i + 1} ({what}): {parts[i]!r} at column {cols[i]} is not valid",
                          column=cols[i], text=text)

    if len(parts) < 9:
        raise ParseError(f"an OGID has at least 9 fields separated by ':', this has {len(parts)}", column=offset + 1,
                         text=text)
    if len(parts) > 11:
        raise ParseError(f"an OGID has at most 11 fields, this has {len(parts)}", column=cols[11], text=text)
    checkers = 15
    if len(parts) == 11:
        if not _shape("checkers").fullmatch(parts[10]) or not 1 <= int(parts[10]) <= 15:
            raise bad(10, "checkers")
        checkers = int(parts[10])
    if variant is None:
        variant = {3: "hypergammon3", 2: "hypergammon2", 1: "hypergammon1"}.get(checkers, "standard")
    boards: list[list[int]] = [[0] * 26, [0] * 26]
    for i in (0, 1):
        if not _shape(_FIELDS[i]).fullmatch(parts[i]):
            raise bad(i, "White's checkers" if i == 0 else "Black's checkers")
        for ch in parts[i]:
            v = _VALUE[ch]
            if i == 0:
                if v == 25:
                    raise ParseError(f"OGID field 1: a White checker on point 25 (Black's bar) at column {cols[0]}",
                                     column=cols[0], text=text)
                boards[0][25 if v == 0 else 25 - v] += 1
            else:
                if v == 0:
                    raise ParseError(f"OGID field 2: a Black checker on point 0 (White's bar) at column {cols[1]}",
                                     column=cols[1], text=text)
                boards[1][v] += 1
    for i in (0, 1):
        on = sum(boards[i])
        if on > checkers:
            raise InvalidPositionError(f"{'White' if i == 0 else 'Black'} has {on} checkers on the board (at most "
                                       f"{checkers})", column=cols[i], text=text)
        boards[i][0] = checkers - on
    cube_text = parts[2]  # the grammar's OWNER, CUBE_LOG (one or two digits) and CUBE_ACTION
    if not _shape("cube").fullmatch(cube_text) or int(cube_text[1:-1]) > 30:
        raise bad(2, "cube")
    cube = 1 << int(cube_text[1:-1])
    owner = {"W": 0, "B": 1}.get(cube_text[0])
    action = cube_text[-1]
    dice_text = parts[3]
    if not _shape("dice").fullmatch(dice_text):
        raise bad(3, "dice")
    dice = (int(dice_text[0]), int(dice_text[1])) if dice_text else None
    if not _shape("player").fullmatch(parts[4]):
        raise bad(4, "player")
    reached = 0 if parts[4] == "W" else 1
    state = parts[5]
    if not _shape("state").fullmatch(state):
        raise bad(5, "state")
    scores = []
    for i in (6, 7):
        if not _shape("score").fullmatch(parts[i]):
            raise bad(i, "score")
        scores.append(int(parts[i]))
    length_text = parts[8]
    if not _shape("length").fullmatch(length_text):
        raise bad(8, "match length")
    digits = _shape("LENGTH").match(length_text)
    assert digits is not None  # (the field starts with it)
    length = int(digits.group())
    suffix = length_text[digits.end():]  # the grammar's CRAWFORD or GAMES, or nothing
    extras: list[tuple[str, str]] = [("ogid_state", state)]
    if action == "T":
        extras.append(("ogid_cube", action))
    if suffix[:1] == "G":
        extras.append(("ogid_games", suffix[1:]))
    if length == 1:  # (1C: a one-point match under the Crawford rule, 1 without it)
        extras.append(("ogid_length", length_text))
    if len(parts) > 9:
        if not _shape("moveid").fullmatch(parts[9]):
            raise bad(9, "move number")
        extras.append(("ogid_move", parts[9]))
    offered = action == "O"
    turn = reached if offered else 1 - reached
    game_state = GAME_PLAYING
    if state in ("RG", "RM"):
        game_state = GAME_RESIGNED
    elif action == "P":
        game_state = GAME_DROPPED
    elif state in ("G", "M"):
        game_state = GAME_OVER
    b: tuple[Board, Board] = (tuple(boards[0]), tuple(boards[1]))
    pos = Position(boards=b, turn=turn, dice=dice, cube=cube, cube_owner=owner, double_offered=offered,
                   match_length=length, score=(scores[0], scores[1]), crawford=suffix == "C" and length > 1,
                   game_state=game_state, variant=variant, extras=tuple(extras))
    if validate:
        problems = pos.problems()
        if problems:
            raise InvalidPositionError(f"OGID of a position that cannot exist: {'; '.join(problems)}",
                                       column=offset + 1, text=text)
    return pos

