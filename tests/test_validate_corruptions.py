"""Corrupted copies of a gnubg-written match: each mistake is caught at the right line (and column)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.formats.mat import read_match
from notation.play import format_steps_plain
from notation.replay import MatchReplay, ReplayStep, replay_match

DATA = Path(__file__).resolve().parent / "data"
ORIGINAL = (DATA / "gnubg_7p_crawford.mat").read_text()


def run(text: str) -> MatchReplay:
    return replay_match(read_match(text))


def errors_at(text: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for f in run(text).findings:
        if f.severity == "error":
            out.setdefault(f.line or 0, []).append(f.message)
    return out


def replace_cell(text: str, step: ReplayStep, new_play: str) -> str:
    """Put ``new_play`` in place of the step's play text, on its line."""
    lines = text.split("\n")
    a = step.action
    assert a.span is not None and a.play is not None
    i = a.span.line - 1
    line = lines[i]
    start = line.index(a.play, a.span.column - 1)
    lines[i] = line[:start] + new_play + line[start + len(a.play):]
    return "\n".join(lines)


def moves() -> list[tuple[int, ReplayStep]]:
    rep = run(ORIGINAL)
    return [(g.game.number, s) for g in rep.games for s in g.steps if s.action.kind == "move" and s.play]


def test_original_is_clean() -> None:
    assert errors_at(ORIGINAL) == {}


def test_wrong_pips() -> None:
    game, step = next((g, s) for g, s in moves() if len(s.play.steps) == 2 and s.play.steps[0][1] > 2
                      and s.action.dice[0] != s.action.dice[1])
    (a, b, _), rest = step.play.steps[0], step.play.steps[1:]
    bad = f"{a}/{b - 1} " + format_steps_plain(rest)
    errs = errors_at(replace_cell(ORIGINAL, step, bad))
    line = step.action.span.line
    assert line in errs, errs
    assert any("pip" in m or "cannot" in m for m in errs[line])


def test_bar_not_entered_first() -> None:
    for _game, step in moves():
        pos = step.before
        if not pos.on_roll[25] or len(step.play.steps) != 2 or step.action.dice[0] == step.action.dice[1]:
            continue
        (a, b, _), (c, d, _) = step.play.steps
        if a != 25 or c == 25:
            continue
        die = a - b
        # Move some other checker with the entering die instead of entering.
        other = next((p for p in range(24, die, -1) if pos.on_roll[p] and p != c
                      and pos.opponent[25 - (p - die)] < 2), None)
        if other is None:
            continue
        bad = f"{other}/{other - die} {c}/{d}"
        errs = errors_at(replace_cell(ORIGINAL, step, bad))
        line = step.action.span.line
        assert any("bar" in m for m in errs.get(line, [])), errs
        return
    pytest.fail("no entering play to corrupt in the file")


def test_unused_die() -> None:
    game, step = next((g, s) for g, s in moves() if len(s.play.steps) == 2 and s.play.steps[0][1] > 0
                      and s.play.steps[1][0] != s.play.steps[0][1])
    bad = format_steps_plain(step.play.steps[:1])
    errs = errors_at(replace_cell(ORIGINAL, step, bad))
    line = step.action.span.line
    assert line in errs, errs
    assert any("is not played" in m for m in errs[line])


def test_larger_die_rule() -> None:
    """Where only one die can be played, playing the smaller one instead of the larger is caught."""
    from notation.play import resolve_play

    text = (DATA / "gnubg_larger_die.mat").read_text()
    rep = replay_match(read_match(text))
    assert not [f for f in rep.findings if f.severity == "error"]
    for g in rep.games:
        for step in g.steps:
            if step.action.kind != "move" or not step.play or len(step.play.steps) != 1:
                continue
            d1, d2 = step.action.dice
            if d1 == d2:
                continue
            hi, lo = max(d1, d2), min(d1, d2)
            pos = step.before
            for p in range(25, 0, -1):
                if not pos.on_roll[p] or p - lo <= 0:
                    continue
                alt = f"{p}/{p - lo}"
                try:
                    resolve_play(pos, alt, (hi, lo))
                except ValueError as e:
                    if "larger one" not in str(e):
                        continue
                    lines = text.split("\n")
                    errs = errors_at(replace_cell(text, step, alt))
                    line = step.action.span.line
                    assert any("larger one" in m for m in errs.get(line, [])), (errs, lines[line - 1])
                    return
    pytest.fail("no single-die position with a playable smaller die in the file")


def test_move_from_empty_point() -> None:
    game, step = next((g, s) for g, s in moves() if len(s.play.steps) == 2 and s.action.dice[0] != s.action.dice[1]
                      and s.play.steps[1][0] != s.play.steps[0][1] and not s.before.on_roll[25])
    (a, b, _), rest = step.play.steps[0], step.play.steps[1:]
    die = a - b
    empty = next(p for p in range(24, die, -1) if not step.before.on_roll[p] and p - die >= 1
                 and step.before.opponent[25 - (p - die)] < 2)
    bad = f"{empty}/{empty - die} " + format_steps_plain(rest)
    errs = errors_at(replace_cell(ORIGINAL, step, bad))
    line = step.action.span.line
    assert any("no checker" in m for m in errs.get(line, [])), errs


def test_double_in_crawford_game() -> None:
    lines = ORIGINAL.split("\n")
    game5 = next(i for i, t in enumerate(lines) if t.strip() == "Game 5")
    first_row = game5 + 2
    row = lines[first_row]
    # The Crawford game's first mover doubles before rolling and the opponent takes.
    mover_left = row[5:7].strip() != ""
    cube_row = ("  1)  Doubles => 2                Takes" if mover_left
                else "  1)                              Doubles => 2")
    lines.insert(first_row, cube_row)
    if not mover_left:
        lines.insert(first_row + 1, "  1)  Takes")
    errs = errors_at("\n".join(lines))
    assert any("Crawford" in m for m in errs.get(first_row + 1, [])), errs


def test_double_by_player_not_owning_cube() -> None:
    # Game 1 row 6: gnubg doubles, root takes (root owns the cube at 2); make gnubg double again later.
    lines = ORIGINAL.split("\n")
    i = next(i for i, t in enumerate(lines) if i > 12 and t.startswith("  8)"))
    left = lines[i][:33]
    lines[i] = left.replace(left[5:].strip(), "").rstrip().ljust(5) + " Doubles => 4"
    lines.insert(i + 1, "  8)                              Takes")
    text = "\n".join(lines)
    errs = errors_at(text)
    assert any("owns the cube" in m for m in errs.get(i + 1, [])), errs


def test_wrong_wins_value() -> None:
    text = ORIGINAL.replace("     Wins 1 point\n\n Game 4", "     Wins 2 points\n\n Game 4")
    assert text != ORIGINAL
    line = text[:text.index("Wins 2 points\n\n Game 4")].count("\n") + 1
    errs = errors_at(text)
    assert any("not 2" in m for m in errs.get(line, [])), errs


def test_wrong_score_line() -> None:
    text = ORIGINAL.replace(" gnubg : 5                      root : 4", " gnubg : 5                      root : 3")
    assert text != ORIGINAL
    line = text[:text.index("root : 3")].count("\n") + 1
    errs = errors_at(text)
    assert any("score line says 5-3" in m for m in errs.get(line, [])), errs
