"""The position model: both sides' checkers, the player on roll, dice, cube and match state.

Conventions (the same as GNU Backgammon's, so that IDs map one to one):

* Player 0 is O (White in SGF, the top player in an XGID), player 1 is X (Black, the bottom player).
* Each player's checkers are a tuple of 26 counts in that player's *own* numbering:
  index 0 = borne off, 1..24 = points 1..24 (the 1-point is the last point of the home board),
  25 = bar.  So the index is exactly the number used in move notation (25 = bar, 0 = off).
* A player's point ``p`` is the opponent's point ``25 - p``.
* Checkers that are neither on the board, on the bar nor borne off are *waiting* to enter
  (Dutch backgammon and Acey-Deucey start that way); in standard backgammon there are none.

:class:`Position` is immutable and hashable; derive changed copies with :meth:`Position.replace`.
It shows itself as gnubg does: its ``repr`` holds its gnubg ID (:func:`gnubg_id`) and its ``str`` is
gnubg's text board (:func:`ascii_board`); both are defined here, and the other position IDs and all the
readers in :mod:`notation.ids`.  A position's rules are :mod:`notation.rules`' (:attr:`Position.rules`).
"""

from __future__ import annotations

import binascii
import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Literal

from .errors import InvalidPositionError, NotationError
from .rules import Board, Play, Rules, get_rules

OFF = 0
BAR = 25

STANDARD_START: Board = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROPPED = range(5)

RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}
PLAYER_LETTERS = ("O", "X")
_RULES_BY_VARIANT: dict[str, Rules] = {}

assert Rules().start_board() == STANDARD_START


def board_from_points(points: dict[int, int], *, off: int | None = None, total: int = 15) -> Board:
    """Build a board from ``{point: count}`` (25 = bar).  Borne-off checkers default to the rest."""
    b = [0] * 26
    for p, n in points.items():
        if not 1 <= p <= 25:
            raise ValueError(f"point {p} is not 1..25")
        b[p] += n
    b[0] = total - sum(b) if off is None else off
    return tuple(b)


_DICE = re.compile(r"\s*([1-6])\s*[-/, ]?\s*([1-6])\s*")


def parse_dice(dice: object, what: str = "dice") -> tuple[int, int]:
    """A roll given by a person (``--dice``, ``render.png(..., dice=...)``): ``"64"``, ``"6-4"``,
    ``"6/4"``, ``"6,4"`` or ``"6 4"``, or a pair of numbers, → ``(6, 4)``, in the order given.
    ValueError says what is wrong, naming the value as ``what``."""
    if isinstance(dice, str):
        m = _DICE.fullmatch(dice)
        if m:
            return int(m.group(1)), int(m.group(2))
        bad = next((i for i, c in enumerate(dice) if c not in "123456-/, "), None)
        if bad is not None:
            raise ValueError(f"{what} {dice!r}: {dice[bad]!r} at column {bad + 1} is not a die 1-6")
        raise ValueError(f"{what} {dice!r} is not two dice 1-6, such as 64 or 6-4")
    if isinstance(dice, tuple | list) and len(dice) == 2 and all(type(x) is int and 1 <= x <= 6 for x in dice):
        return dice[0], dice[1]
    raise ValueError(f"{what} {dice!r} is not two dice 1-6, such as (6, 4)")


@dataclass(frozen=True, slots=True)
class Position:
    """A backgammon position with its cube and match context."""

    boards: tuple[Board, Board] = (STANDARD_START, STANDARD_START)
    turn: int = 0
    """The player on roll (or who rolled; gnubg's ``fMove``)."""
    dice: tuple[int, int] | None = None
    """The dice as rolled (order kept), or None before the roll."""
    cube: int = 1
    cube_owner: int | None = None
    """None = centred."""
    double_offered: bool = False
    """``turn`` has doubled; the opponent must take, drop (or beaver)."""
    beaver: int = 0
    """After a double: 1 = beavered, 2 = beavered and raccooned (XGID dice ``B`` / ``R``)."""
    resign_offered: int = 0
    """0 none, 1 single, 2 gammon, 3 backgammon; offered by ``resigner``."""
    resigner: int | None = None
    match_length: int = 0
    """0 = money play."""
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    """This game is the Crawford game."""
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 10
    """log2 of the cube limit as XGID writes it; 0 means the cube is not used."""
    game_state: int = GAME_PLAYING
    names: tuple[str, str] = ("", "")
    variant: str = "standard"
    extras: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """Free annotations a reader kept (not part of the position's identity)."""

    # ----------------------------------------------------------------- identity
    def _identity(self) -> tuple[object, ...]:
        """What makes two positions the same: every field but ``extras``, and the money-only options
        (Jacoby, beavers) only in money play, where they change the game (gnubg's Match ID carries a
        Jacoby bit in matches too; an XGID cannot, and it means nothing there)."""
        money = self.match_length == 0
        return (self.boards, self.turn, self.dice, self.cube, self.cube_owner, self.double_offered, self.beaver,
                self.resign_offered, self.resigner, self.match_length, self.score, self.crawford,
                self.jacoby and money, self.beavers and money, self.max_cube, self.game_state, self.names,
                self.variant)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Position:
            return NotImplemented
        return self._identity() == other._identity()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._identity())

    # ----------------------------------------------------------------- construction
    @classmethod
    def initial(cls, variant: str = "standard", **kwargs: object) -> Position:
        """The starting position of ``variant`` (keywords set the other fields)."""
        rules = get_rules(variant)
        start = rules.start_board()
        return cls(boards=(start, start), variant=rules.name, **kwargs)  # type: ignore[arg-type]

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed (:func:`dataclasses.replace`)."""
        return dataclasses.replace(self, **changes)

    # ----------------------------------------------------------------- views
    @property
    def rules(self) -> Rules:
        r = _RULES_BY_VARIANT.get(self.variant)
        if r is None:
            r = _RULES_BY_VARIANT[self.variant] = get_rules(self.variant)
        return r

    @property
    def on_roll(self) -> Board:
        return self.boards[self.turn]

    @property
    def opponent(self) -> Board:
        return self.boards[1 - self.turn]

    @property
    def to_act(self) -> int:
        """The player who must act now (gnubg's ``fTurn``)."""
        if self.double_offered:
            return 1 - self.turn
        if self.resign_offered and self.resigner is not None:
            return 1 - self.resigner
        return self.turn

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game (as gnubg has it: also at double match point and in a
        1-point match)."""
        return self.match_length > 0 and not self.crawford and max(self.score) == self.match_length - 1

    def checkers(self, player: int) -> int:
        """Checkers of ``player`` on the board, on the bar or borne off."""
        return sum(self.boards[player])

    def waiting(self, player: int) -> int:
        """Checkers of ``player`` not yet entered (Dutch backgammon, Acey-Deucey)."""
        return self.rules.checkers - sum(self.boards[player])

    def pips(self, player: int) -> int:
        b = self.boards[player]
        return sum(p * b[p] for p in range(1, 26)) + 25 * max(0, self.waiting(player))

    @property
    def pip_counts(self) -> tuple[int, int]:
        """(player on roll, opponent)."""
        return self.pips(self.turn), self.pips(1 - self.turn)

    def point(self, player: int, p: int) -> int:
        """Checkers on point ``p`` of ``player``'s numbering: positive for ``player``, negative for the opponent."""
        if p in (0, 25):
            return self.boards[player][p]
        mine = self.boards[player][p]
        theirs = self.boards[1 - player][25 - p]
        return mine - theirs

    def flipped(self) -> Position:
        """The same position with the player on roll passed to the other side (no dice)."""
        return self.replace(turn=1 - self.turn, dice=None)

    # ----------------------------------------------------------------- sanity
    def problems(self) -> list[str]:
        """Everything that is wrong with this position (empty when it can exist).  Never raises."""
        out: list[str] = []
        n = self.rules.checkers
        for pl in (0, 1):
            b = self.boards[pl]
            name = PLAYER_LETTERS[pl]
            if len(b) != 26:
                out.append(f"{name}'s board has {len(b)} slots, not 26")
                continue
            if any(c < 0 for c in b):
                out.append(f"{name} has a negative number of checkers somewhere")
            total = sum(b)
            if total > n:
                out.append(f"{name} has {total} checkers (at most {n})")
            elif total < n and not self.rules.checkers_start_off_board:
                out.append(f"{name} has {total} checkers ({n} expected)")
        if out:
            return out
        b0, b1 = self.boards
        for p in range(1, 25):
            if b0[p] and b1[25 - p]:
                out.append(f"both players have checkers on O's {p}-point (X's {25 - p}-point)")
        if b0[25] and b1[25] and _closed_home(b0, b1) and _closed_home(b1, b0):
            out.append("both players are on the bar against closed boards")
        if b0[0] == n and b1[0] == n:
            out.append("both players have borne off all their checkers")
        if self.turn not in (0, 1):
            out.append(f"player on roll {self.turn} is not 0 or 1")
        if self.dice is not None and not all(1 <= d <= 6 for d in self.dice):
            out.append(f"dice {self.dice} are not 1..6")
        if self.cube < 1 or self.cube & (self.cube - 1):
            out.append(f"cube value {self.cube} is not a power of two")
        if self.cube_owner not in (None, 0, 1):
            out.append(f"cube owner {self.cube_owner} is not 0, 1 or centred")
        if self.double_offered:
            if self.dice is not None:
                out.append("a double is offered after the dice were rolled")
            if self.cube_owner is not None and self.cube_owner != self.turn and not self.beaver:
                out.append("a double is offered by the player who does not own the cube")
            if self.crawford:
                out.append("a double is offered in the Crawford game")
        if self.match_length < 0:
            out.append(f"match length {self.match_length} is negative")
        if any(s < 0 for s in self.score):
            out.append("a score is negative")
        if self.match_length > 0:
            if max(self.score) > self.match_length or (
                    max(self.score) == self.match_length and self.game_state < GAME_OVER):
                out.append(f"score {self.score[0]}-{self.score[1]} is at or above the match length "
                           f"{self.match_length}")
            if self.crawford:
                if self.match_length - 1 not in self.score:
                    out.append("Crawford game, but neither player is one point from winning")
                if self.cube != 1 or self.cube_owner is not None:
                    out.append("the cube has been turned in the Crawford game")
        else:
            if self.crawford:
                out.append("Crawford game in a money session")
        if self.resign_offered not in (0, 1, 2, 3):
            out.append(f"resignation value {self.resign_offered} is not 1, 2 or 3")
        return out

    def is_valid(self) -> bool:
        return not self.problems()

    # ----------------------------------------------------------------- display
    def __str__(self) -> str:
        return ascii_board(self)

    def _repr_svg_(self) -> str | None:
        """Jupyter: the diagram (the renderer is imported on first use: :mod:`notation.notebook`)."""
        from .notebook import shown

        return shown("position_svg", self)

    def __repr__(self) -> str:
        try:
            return f"Position({gnubg_id(self)!r})"
        except Exception:  # noqa: BLE001 - repr must not fail
            return f"Position(boards={self.boards!r}, turn={self.turn})"


def _closed_home(mine: Board, theirs: Board) -> bool:
    """``mine`` holds all six points of its home board (where ``theirs`` would enter)."""
    return all(mine[p] >= 2 for p in range(1, 7))


def play_result(position: Position, play: Play) -> Position:
    """The position after ``play`` by the player on roll of ``position``: the opponent on roll, no dice."""
    boards = (play.mine, play.theirs) if position.turn == 0 else (play.theirs, play.mine)
    return position.replace(boards=boards, turn=1 - position.turn, dice=None)


# =========================================================================== gnubg's Position ID and Match ID
# (how a Position shows itself; the other IDs, and reading them all, are in notation.ids)



def _log2(value: int, what: str) -> int:
    if value < 1 or value & (value - 1):
        raise InvalidPositionError(f"{what} {value} is not a power of two")
    return value.bit_length() - 1


def b64_keys(keys: Iterable[int], nbytes: int = 10, nchars: int = 14) -> list[str]:
    """gnubg's Base64 text of each key: its ``nbytes`` little-endian bytes in standard Base64, the first
    ``nchars`` characters (a Position ID: 10 bytes, 14 characters; a Match ID: 9 bytes, 12).  The one
    encoder of Position and Match IDs; many keys cost one encoding (``gammon moves`` encodes the IDs of
    all the plays of a roll at once): each key is widened to whole groups of three bytes, so that it
    starts its own group of four characters."""
    width = -(-nbytes // 3) * 3
    step = width // 3 * 4
    little: Literal["little"] = "little"
    text = binascii.b2a_base64(b"".join(map(int.to_bytes, keys, repeat(width), repeat(little))),
                               newline=False).decode("ascii")
    return [text[i:i + nchars] for i in range(0, len(text), step)]


def _no_waiting(position: Position, fmt: str) -> None:
    """IDs store the board and the bar; checkers waiting to enter (Acey-Deucey) would read back as
    borne off, so such a position has no ID.  (Dutch backgammon's checkers wait on the bar: fine.)"""
    if not position.rules.checkers_start_off_board:
        return
    for pl in (0, 1):
        n = position.waiting(pl)
        if n > 0:
            raise InvalidPositionError(
                f"{n} of {PLAYER_LETTERS[pl]}'s checkers are waiting to enter ({position.rules.title}); "
                f"a {fmt} cannot say so (it would read them as borne off)")


def position_key(position: Position) -> int:
    """gnubg's 80-bit position key as an integer (bit k = bit k of the Position ID)."""
    _no_waiting(position, "Position ID")
    return _board_key(position.on_roll, position.opponent)


_UNARY = {n: "1" * n + "0" for n in range(16)}
"""A point's bits in a Position ID, lowest first: one per checker, then a 0."""


def _board_key(on_roll: Board, opponent: Board) -> int:
    try:
        bits = "".join([_UNARY[n] for n in opponent[1:26]] + [_UNARY[n] for n in on_roll[1:26]])
    except KeyError:  # a count the table does not hold (negative, or more than 15): the general loop says why
        return _board_key_loop(on_roll, opponent)
    if len(bits) > 80:
        return _board_key_loop(on_roll, opponent)
    return int(bits[::-1], 2)


def _board_key_loop(on_roll: Board, opponent: Board) -> int:
    """:func:`_board_key` point by point (the general path, and the one that explains a bad board)."""
    key = 0
    bit = 0
    for board in (opponent, on_roll):
        for p in range(1, 26):
            n = board[p]
            if n < 0:
                raise InvalidPositionError("a negative number of checkers cannot be written as a Position ID")
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    if bit > 80:
        raise InvalidPositionError(f"{bit - 50} checkers on the board do not fit in a Position ID "
                                   "(at most 30)")
    return key


def position_id(position: Position) -> str:
    """The 14-character gnubg Position ID (the player on roll is ``position.turn``)."""
    return b64_keys((position_key(position),))[0]


def match_key(position: Position, *, dice_as_rolled: bool = False) -> int:
    """gnubg's 72-bit match key as an integer (bit k = bit k of the Match ID)."""
    p = position
    fields: list[tuple[int, int, int]] = []  # (start, width, value)

    def put(start: int, width: int, value: int, what: str) -> None:
        if not 0 <= value < (1 << width):
            raise InvalidPositionError(f"{what} {value} does not fit in a Match ID ({width} bits)")
        fields.append((start, width, value))

    put(0, 4, _log2(p.cube, "cube value"), "log2 of the cube")
    put(4, 2, 3 if p.cube_owner is None else p.cube_owner, "cube owner")
    put(6, 1, p.turn, "player on roll")
    put(7, 1, int(p.crawford), "Crawford flag")
    put(8, 3, p.game_state, "game state")
    put(11, 1, p.to_act, "player to act")
    put(12, 1, int(p.double_offered), "double flag")
    put(13, 2, p.resign_offered, "resignation")
    d1, d2 = p.dice if p.dice is not None else (0, 0)
    if not dice_as_rolled and d2 > d1:
        d1, d2 = d2, d1
    put(15, 3, d1, "die")
    put(18, 3, d2, "die")
    put(21, 15, p.match_length, "match length")
    put(36, 15, p.score[0], "score")
    put(51, 15, p.score[1], "score")
    put(66, 1, int(not p.jacoby), "Jacoby bit")
    key = 0
    for start, _width, value in fields:
        key |= value << start
    return key


def match_id(position: Position, *, dice_as_rolled: bool = False) -> str:
    """The 12-character gnubg Match ID.

    gnubg writes the higher die first; so does this unless ``dice_as_rolled`` (BGBlitz's habit).
    """
    return b64_keys((match_key(position, dice_as_rolled=dice_as_rolled),), 9, 12)[0]


def gnubg_id(position: Position, *, dice_as_rolled: bool = False) -> str:
    """``PositionID:MatchID``."""
    return f"{position_id(position)}:{match_id(position, dice_as_rolled=dice_as_rolled)}"


# =========================================================================== gnubg's text board ("show board")

_GAME_RESULT = {1: "single game", 2: "gammon", 3: "backgammon"}
_COUNT_X = "     X6789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_COUNT_O = "     O6789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TOP_X = " +13-14-15-16-17-18------19-20-21-22-23-24-+     "
_TOP_O = " +12-11-10--9--8--7-------6--5--4--3--2--1-+     "


def _count_glyph(n: int, table: str) -> str:
    return table[n] if 0 <= n < len(table) else "?"


def ascii_board(position: Position) -> str:
    """gnubg's text board (``show board``): Position ID and Match ID, the board drawn from X's side
    (O's checkers on top) with the points numbered for the player on roll, and names, scores, dice
    and cube at the right.  Never raises (an unwritable ID shows as ``?``)."""
    p = position
    o, x = p.boards  # player 0 = O, player 1 = X

    def safe(fn: Callable[[Position], str], width: int) -> str:
        try:
            return fn(p)
        except (NotationError, ValueError, IndexError, KeyError):
            return "?" * width

    def cell(xp: int, y: int) -> str:
        """X's point ``xp`` (1..24), row ``y`` counted from the edge (4 = the row nearest the bar)."""
        nx, no = x[xp], o[25 - xp]
        if y < 4:
            return " X " if nx > y else " O " if no > y else "   "
        return f" {_count_glyph(nx, _COUNT_X) if nx else _count_glyph(no, _COUNT_O)} "

    n = p.rules.checkers
    off_o = max(0, n - sum(o[1:26]))
    off_x = max(0, n - sum(x[1:26]))
    info: list[str | None] = [None] * 7
    info[0] = f"O: {p.names[0]}"
    info[6] = f"X: {p.names[1]}"
    info[1] = f"{p.score[0]} point{'s' if p.score[0] != 1 else ''}"
    info[5] = f"{p.score[1]} point{'s' if p.score[1] != 1 else ''}"
    roll = ""
    if p.double_offered:
        info[4 if p.to_act else 2] = f"Cube offered at {p.cube * 2}"
    else:
        if p.dice is not None:
            roll = f"Rolled {p.dice[0]}{p.dice[1]}"
        elif p.game_state == GAME_PLAYING:
            roll = "On roll"
        if p.cube_owner is None:
            if p.match_length == 1:  # gnubg 1.07 shows no cube in a 1-point match
                info[3] = "1 point match"
            elif p.match_length:
                info[3] = f"{p.match_length} points match " + (
                    "(Crawford game)" if p.crawford else f"(Cube: {p.cube})")
            else:
                info[3] = f"(Cube: {p.cube})"
        else:
            owner = p.cube_owner
            info[6 if owner else 0] = f"{'XO'[owner == 0]}: {p.names[owner]} (Cube: {p.cube})"
            if p.match_length:
                info[3] = f"{p.match_length} point{'s' if p.match_length != 1 else ''} match"
    if p.resign_offered:  # gnubg's words (its aszGameResult)
        roll += f", resigns {_GAME_RESULT.get(p.resign_offered, str(p.resign_offered))}"
    if not p.double_offered:
        info[4 if p.turn else 2] = roll
    lines = [f" GNU Backgammon  Position ID: {safe(position_id, 14)}",
             f"                 Match ID   : {safe(match_id, 12)}",
             (_TOP_X if p.turn else _TOP_O) + (info[0] or "")]
    for y in range(5):
        row = " |" + "".join(cell(xp, y) for xp in range(13, 19)) + "| "
        bar = ("O" if o[25] > y else " ") if y < 4 else _count_glyph(o[25], _COUNT_O)
        row += bar + " |" + "".join(cell(xp, y) for xp in range(19, 25)) + "| "
        row += "".join("O" if off_o > 5 * c + y else " " for c in range(3))
        if y < 4:
            row += " " + ((info[y + 1] or "") if y < 2 else "")
        lines.append(row)
    lines.append(("v" if p.turn else "^") + "|                  |BAR|                  |     "
                 + (info[3] or ""))
    for y in range(4, -1, -1):
        row = " |" + "".join(cell(xp, y) for xp in range(12, 6, -1)) + "| "
        bar = ("X" if x[25] > y else " ") if y < 4 else _count_glyph(x[25], _COUNT_X)
        row += bar + " |" + "".join(cell(xp, y) for xp in range(6, 0, -1)) + "| "
        row += "".join("X" if off_x > 5 * c + y else " " for c in range(3))
        if y < 4:
            row += " " + ((info[5 - y] or "") if y < 2 else "")
        lines.append(row)
    lines.append((_TOP_O if p.turn else _TOP_X) + (info[6] or ""))
    return "\n".join(lines)
