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
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import Rules

Board = tuple[int, ...]
"""26 counts: [0] borne off, [1..24] points in the owner's numbering, [25] bar."""

OFF = 0
BAR = 25

STANDARD_START: Board = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROPPED = range(5)

RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}
PLAYER_LETTERS = ("O", "X")
_RULES_BY_VARIANT: dict[str, Rules] = {}


def board_from_points(points: dict[int, int], *, off: int | None = None, total: int = 15) -> Board:
    """Build a board from ``{point: count}`` (25 = bar).  Borne-off checkers default to the rest."""
    b = [0] * 26
    for p, n in points.items():
        if not 1 <= p <= 25:
            raise ValueError(f"point {p} is not 1..25")
        b[p] += n
    b[0] = total - sum(b) if off is None else off
    return tuple(b)


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
        from .rules import get_rules

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
            from .rules import get_rules

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
        from .ids import ascii_board

        return ascii_board(self)

    def __repr__(self) -> str:
        from .ids import gnubg_id

        try:
            return f"Position({gnubg_id(self)!r})"
        except Exception:  # noqa: BLE001 - repr must not fail
            return f"Position(boards={self.boards!r}, turn={self.turn})"


def _closed_home(mine: Board, theirs: Board) -> bool:
    """``mine`` holds all six points of its home board (where ``theirs`` would enter)."""
    return all(mine[p] >= 2 for p in range(1, 7))
