"""One move numbering for every format: "game G, move M" is the row of a ``.mat`` transcript.

A ``.mat`` transcript numbers its rows (``14) 52: 13/8 13/11   31: 8/5 6/5``): the left column is player 0's
action, the right column player 1's.  ``gammon validate``, the page's ``#gGmM`` links, ``render --game
--move`` and the dataset name an action by that number (``M-2`` for the second action of a row).  A
``.mat`` file says its numbers; for the other formats (SGF, ``.xg``, OGXM) the number is the row the ``.mat``
writer puts the action in: :func:`mat_rows` lays a game's actions out in rows exactly as
:mod:`notation.formats.mat` writes them (the writer lays its rows out with it), and :func:`number_rows`
sets each action's ``move_number`` from it.  So the same match read from a ``.mat``, an SGF, an ``.xg`` or
an OGXM file has the same position at the same game and move.
"""

from __future__ import annotations

from collections.abc import Iterable

from .record import Action, Game

__all__ = ["Row", "mat_rows", "number_rows"]

Row = tuple["int | None", "Action | None", "Action | None", "Action | None"]
"""One row of a ``.mat`` game: its number (None for a ``Wins`` line of its own), the left cell's action
(player 0), the right cell's (player 1) and a result written on the row (a ``Wins`` in the right
column, or on the next line under a left cell alone)."""


def mat_rows(actions: Iterable[Action], number: int = 1) -> list[Row]:
    """The rows of a ``.mat`` game holding ``actions`` (in order), the first numbered ``number``: a
    player-0 action opens a row (closing a row the left cell of which is still open), a player-1 action
    fills the right cell and closes it, a result closes the open row or stands on its own line, and a
    Galaxy ``loss`` is not written."""
    rows: list[Row] = []
    left: Action | None = None
    for a in actions:
        kind = a.kind
        if kind == "loss":
            continue
        if kind == "win":
            if left is not None:
                rows.append((number, left, None, a))
                left = None
                number += 1
            else:
                rows.append((None, None, None, a))
            continue
        if a.player == 0:
            if left is not None:
                rows.append((number, left, None, None))
                number += 1
            left = a
        else:
            rows.append((number, left, a, None))
            left = None
            number += 1
    if left is not None:
        rows.append((number, left, None, None))
    return rows


def number_rows(game: Game) -> None:
    """Set the ``move_number`` of each action of ``game`` to the row the ``.mat`` writer writes it in
    (counted from 1; a game that starts from a set-up position has that position's cell first, as the
    writer writes it).  A result on a line of its own, and a ``loss``, get None (as the ``.mat`` reader
    reads them)."""
    actions: list[Action] = list(game.actions)
    if game.start is not None:  # written first, as a Snowie "Illegal play" cell (see the .mat writer)
        actions.insert(0, Action(kind="setup", player=game.start.turn))
    for a in game.actions:
        a.move_number = None
    for number, left, right, win in mat_rows(actions):
        if number is None:
            continue
        for cell in (left, right):
            if cell is not None:
                cell.move_number = number
        if win is not None and win.player == 1:  # a Wins in the right column: on the row's line
            win.move_number = number
