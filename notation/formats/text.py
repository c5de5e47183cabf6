"""A text game record for people: an ASCII board before each play, like gnubg's ``export match text``.

It is written from the replay, so each board is the position the rules give (an illegal play is
shown as recorded and flagged).  The header tags and the comments (on the match, each game and each
action) are written where they belong; the analysis is not.  It is not meant to be read back.
"""

from __future__ import annotations

from collections import Counter

from ..losses import dropped
from ..record import Match
from ..replay import MatchReplay, replay_match
from .registry import WriteResult

REASONS = {
    "analysis": "the text record does not show it (convert to json keeps it)",
    "property": "the text record has no place for them",
    "thumbnail": "the text record has no place for it",
}
"""Why the text record cannot hold what :func:`notation.losses.lost` says it lost (by kind)."""


def _score_line(match: Match, names: tuple[str, str], score: tuple[int, int], games: int,
                ratings: tuple[str | None, str | None] = (None, None)) -> str:
    """The score before a game, each name with the rating its score line gave it (FIBS ``zoonk,1666``)."""
    length = f" (match to {match.length} point{'s' if match.length != 1 else ''})" if match.length else \
        " (money session)"
    shown = [f"{n} (rated {r})" if r else n for n, r in zip(names, ratings or (None, None), strict=True)]
    return (f"The score (after {games} game{'s' if games != 1 else ''}) is: {shown[0]} {score[0]}, "
            f"{shown[1]} {score[1]}{length}")


def _comment(text: str, indent: str = "") -> list[str]:
    """A comment as lines of the record, each marked (``; ``), so that none reads as a move."""
    return [f"{indent}; {line}".rstrip() for line in text.replace("\r\n", "\n").split("\n")]


def write_text(match: Match, rep: MatchReplay | None = None) -> str:
    """The whole match as a text record."""
    return write_text_counted(match, rep)[0]


def write_text_counted(match: Match, rep: MatchReplay | None = None) -> tuple[str, Counter[tuple[str, ...]]]:
    """:func:`write_text`, and what it wrote of what :func:`notation.losses.holdings` counts."""
    from ..ids import ascii_board

    written: Counter[tuple[str, ...]] = Counter()
    rep = rep or replay_match(match)
    errors_at: dict[int, list[str]] = {}
    for f in rep.findings:
        if f.severity == "error" and f.line is not None:
            errors_at.setdefault(f.line, []).append(f.message)
    out: list[str] = []
    for k, v in match.tags:
        out.append(f"{k}: {v}")
        written["tag", k] += 1
    for c in match.comments:
        if c:
            out.extend(_comment(c))
            written["comment", "match"] += 1
    if out:
        out.append("")
    for gi, gr in enumerate(rep.games):
        game = gr.game
        names = game.names or match.names
        names = (names[0] or "O", names[1] or "X")
        out.append(f"Game {game.number}")
        out.append(_score_line(match, names, gr.start.score, gi, game.ratings))
        if gr.crawford:
            out.append("This is the Crawford game.")
        for c in game.comments:
            if c:
                out.extend(_comment(c))
                written["comment", "game"] += 1
        out.append("")
        number = 0
        for step in gr.steps:
            a = step.action
            who = names[a.player]
            if a.kind == "move":
                number += 1
                roll = f"{a.dice[0]}{a.dice[1]}" if a.dice else ""
                out.append(f"Move number {number}:  {who} to play {roll}")
                out.append("")
                out.append(ascii_board(step.before))
                out.append("")
                played = step.play.notation() if step.play is not None and step.play.steps else "cannot move"
                out.append(f"* {who} moves {played}")
                if a.span is not None and a.span.line in errors_at and not step.legal:
                    for msg in errors_at[a.span.line]:
                        out.append(f"  ! illegal: {msg}")
            elif a.kind == "roll":
                out.append(f"* {who} rolls {a.dice[0]}{a.dice[1]} and does not play" if a.dice else
                           f"* {who} does not play")
            elif a.kind == "double":
                out.append(f"* {who} doubles to {step.after.cube * 1 if a.value is None else a.value}")
            elif a.kind == "take":
                out.append(f"* {who} accepts the cube at {step.after.cube}")
            elif a.kind == "drop":
                out.append(f"* {who} refuses the cube")
            elif a.kind in ("beaver", "raccoon"):
                out.append(f"* {who} {a.kind}s: cube at {step.after.cube}")
            elif a.kind == "resign":
                level = {1: " a single game", 2: " a gammon", 3: " a backgammon"}.get(a.value or 0, "")
                out.append(f"* {who} resigns{level}")
            elif a.kind == "win":
                out.append(f"* {who} wins {a.value} point{'s' if a.value != 1 else ''}")
            elif a.kind == "setup":
                out.append("* the position is set:")
                out.append(ascii_board(step.after))
            if a.comment:
                out.extend(_comment(a.comment, "  "))
                written["comment", "action"] += 1
            out.append("")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n", written


def write(match: Match, rep: MatchReplay | None = None) -> WriteResult:
    """:func:`write_text`, and what the text record does not hold of the record (every writer's result,
    :mod:`notation.formats.registry`)."""
    text, written = write_text_counted(match, rep)
    return WriteResult(text, dropped(match, written, REASONS))
