"""What "the same match" means in the OGXM tests: per game the winner, the points and the plies (each roll
with its player, its dice and the board it leaves; each cube action with its player), made from our model
(through the replay) and from GammonView's and the reference codec's documents (through their OGIDs).

Boards are OGXM's absolute boards (White positive; player 0 is White).  Resignations are left out: a
record that ends with 'Wins' after an unplayed roll has one implied, which one writer states and another
does not; the winner and the points say how the game ended."""

from __future__ import annotations

from typing import Any

from notation.formats._ogxm_shared import absolute_board
from notation.record import Match
from notation.replay import replay_match

CUBE = {21: "double", 22: "take", 23: "drop", 32: "beaver", 33: "raccoon"}
Digest = list[tuple[int | None, int | None, list[tuple[Any, ...]]]]


def _flip(b: list[int]) -> list[int]:
    """The board with the colours swapped (White's absolute point ``i`` is Black's ``25 - i``)."""
    return [-b[25 - i] for i in range(26)]


def of_match(m: Match, swap: bool = False) -> Digest:
    """Our record, replayed; ``swap`` swaps the players (GammonView makes the alphabetically first
    player of a ``.mat`` White).  A game the replay cannot finish gives its plies up to there."""
    out: Digest = []
    for gr in replay_match(m).games:
        plies: list[tuple[Any, ...]] = []
        for st in gr.steps:
            a = st.action
            p = a.player ^ swap
            if a.kind in ("move", "roll", "setup") and a.dice is not None:
                b = absolute_board(st.after.boards)
                plies.append(("move", p, tuple(sorted(a.dice)), tuple(_flip(b) if swap else b)))
            elif a.kind in CUBE.values():
                plies.append((a.kind, p))
        out.append((None if gr.winner is None else gr.winner ^ swap, gr.points, plies))
    return out


def swapped(d: Digest) -> Digest:
    """The digest with the players swapped (what ``of_match(m, swap=True)`` gives)."""
    out: Digest = []
    for w, pts, plies in d:
        out.append((None if w is None else w ^ 1, pts,
                    [(k, p ^ 1, dice, tuple(_flip(list(b)))) if k == "move" else (k, p ^ 1)
                     for k, p, *rest in plies for dice, b in [rest if rest else (None, None)]]))
    return out


def unplayable_games(m: Match) -> set[int]:
    """The games whose replay stops at a play it cannot make."""
    return {i for i, gr in enumerate(replay_match(m).games) if not gr.verifiable}


def board_of_ogid(og: str) -> tuple[int, ...]:
    f = og.split(":")
    b = [0] * 26
    for ch in f[0]:
        b["0123456789abcdefghijklmnop".index(ch)] += 1
    for ch in f[1]:
        b["0123456789abcdefghijklmnop".index(ch)] -= 1
    return tuple(b)


def of_document(doc: dict[str, Any], *, reference: bool) -> Digest:
    """A document of GammonView's (``reference=False``) or the reference codec's JSON projection: colour
    1 is White; the reference seats a restated play (a set-position ply with dice) on the side to move
    next, GammonView on its mover."""
    out: Digest = []
    for g in doc["games"]:
        plies: list[tuple[Any, ...]] = []
        for p in g["plies"]:
            a = p["action_id"]
            player = 0 if p.get("color") == 1 else 1
            if reference and a == 31 and p.get("d1"):
                player = 1 - player
            if a <= 20 or (a == 31 and p.get("d1")):
                after = p.get("ogid_after")  # (the reference gives none after a ply it cannot replay)
                plies.append(("move", player, tuple(sorted((p["d1"], p["d2"]))),
                              board_of_ogid(after) if after else None))
            elif a in CUBE:
                plies.append((CUBE[a], player))
        w = g.get("winner")
        w = w if w in (0, 1) else None
        out.append((w, g.get("points_won") if w is not None else None, plies))
    return out


def plies_of_model(m: Match) -> list[list[tuple[Any, ...]]]:
    """Our reading of a file ply by ply, with no replay: each roll's player and dice, each cube action."""
    out = []
    for g in m.games:
        s: list[tuple[Any, ...]] = []
        for a in g.actions:
            if a.kind in ("move", "roll", "setup") and a.dice is not None:
                s.append(("move", a.player, tuple(sorted(a.dice))))
            elif a.kind in CUBE.values():
                s.append((a.kind, a.player))
        out.append(s)
    return out


def plies_of_reference(doc: dict[str, Any]) -> list[list[tuple[Any, ...]]]:
    return [[p[:3] if p[0] == "move" else p for p in g[2]] for g in of_document(doc, reference=True)]
