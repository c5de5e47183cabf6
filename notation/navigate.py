"""A replayed match's positions by the names ``gammon validate`` gives them: each action's label (its
move number, the ``.mat`` row as every format numbers it: :mod:`notation.rows`), a game by its number, a
move by its label, the action at a file's LINE[:COL], and an action's place as a finding names it.
``gammon render`` finds what to draw with these; each refusal is a ValueError that says why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .replay import GameReplay, MatchReplay, ReplayStep


def step_labels(steps: Sequence[ReplayStep]) -> list[str]:
    """Each step's name in the record's own numbering, as `gammon validate` prints it: the move number
    (the ``.mat`` row, as every format numbers it: :mod:`notation.rows`) for the first action of that
    move, ``14-2`` for its second ...; ``s5`` (the fifth action) where the record numbers none."""
    seen: dict[int, int] = {}
    out = []
    for k, step in enumerate(steps, 1):
        n = step.action.move_number
        if n is None:
            out.append(f"s{k}")
            continue
        seen[n] = seen.get(n, 0) + 1
        out.append(str(n) if seen[n] == 1 else f"{n}-{seen[n]}")
    return out


def game_of(rep: MatchReplay, game_no: int, source: str) -> GameReplay:
    """Game ``game_no`` (from 1) of ``rep``."""
    if not 1 <= game_no <= len(rep.games):
        raise ValueError(f"{source}: there is no game {game_no} (the match has {len(rep.games)})")
    return rep.games[game_no - 1]


def move_index(game: GameReplay, game_no: int, move_no: int, source: str) -> int:
    """The index in ``game``'s steps of the action labelled ``move_no`` (:func:`step_labels`)."""
    labels = step_labels(game.steps)
    want = str(move_no)
    if want not in labels:
        numbered = [x for x in labels if x[0].isdigit() and "-" not in x]
        raise ValueError(f"{source}: game {game_no} has no move {move_no} (its moves are numbered "
                         f"{numbered[0] if numbered else '-'} to {numbered[-1] if numbered else '-'}, as validate "
                         "prints them)")
    return labels.index(want)


def action_at(rep: MatchReplay, at: str, source: str) -> tuple[int, int]:
    """(game, action index from 1) of the action at ``at``, ``LINE`` or ``LINE:COL`` of the file
    (``gammon render --at``): with a column, the last action of the line starting at or before it."""
    try:
        parts = [int(x) for x in at.split(":")]
    except ValueError:
        raise ValueError(f"--at {at!r}: expected LINE or LINE:COL") from None
    line, col = parts[0], (parts[1] if len(parts) > 1 else None)
    best: tuple[int, int] | None = None
    for gi, g in enumerate(rep.games, 1):
        for si, step in enumerate(g.steps, 1):
            span = step.action.span
            if span is None or span.line != line:
                continue
            if col is None:
                return gi, si
            if span.column <= col:
                best = (gi, si)
    if best is None:
        raise ValueError(f"{source}: no action at line {at}")
    return best


def place(source: str, step: ReplayStep, game_no: int, label: str) -> str:
    """Where an action is, as `gammon validate` says it: ``file:line:col: game 2 move 14``."""
    span = step.action.span
    where = f":{span.line}:{span.column}" if span is not None and span.line else ""
    return f"{source}{where}: game {game_no} move {label}"
