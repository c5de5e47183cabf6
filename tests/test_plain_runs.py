"""Runs of plain plays (:class:`notation.record.PlainRun`), as ``gammon validate`` reads ``.mat`` files for
its findings-only replay, held to the ordinary reading: the same findings, games, plays and reading notes
on every real file and on randomly edited ones, with the fast lane and without it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from conftest import CORPUS, DATA
from hypothesis import HealthCheck, given, settings
from replay_general import one_play_at_a_time
from test_fuzz_validate import SOURCES, edited

from notation import batch
from notation.errors import NotationError
from notation.formats.mat import parse_matches, write_match
from notation.record import Action, PlainRun, cut_run, plain_run, unpack_runs

ROOT = Path(__file__).resolve().parents[1]
replay_module = importlib.import_module("notation.replay")  # the package exports the function `replay`


def _mat_files() -> list[Path]:
    files = sorted(DATA.glob("*.mat")) + sorted(DATA.glob("mat_*.txt")) + sorted((ROOT / "samples").glob("*.mat"))
    if CORPUS.is_dir():
        files += sorted(p for p in (CORPUS / "mat").rglob("*") if p.is_file())
    return files


def _outcome(text: str, *, packed: bool) -> object:
    """What validate reports of ``text``: the reader's error, or per match the findings, games, plays and
    reading notes; packed, from the findings-only replay; else from the whole replay."""
    try:
        matches = parse_matches(text, name="x.mat", packed=packed)
    except NotationError as e:
        return ("error", e.message, e.line, e.column)
    out: list[object] = []
    for m in matches:
        if packed:
            r = replay_module.Replayer(m, keep=False, steps=False)
            for g in m.games:
                r.feed(g)
            rep, games, plays = r.finish(), r.games, r.plays
        else:
            rep = replay_module.replay_match(m)
            games, plays = len(rep.games), rep.plays
        out.append(([f.to_dict() for f in rep.findings], games, plays, m.normalisations))
    return out


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig", errors="replace")


def test_real_files_read_as_runs_give_what_the_ordinary_reading_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _mat_files()
    assert len(files) > 10
    runs = 0
    for path in files:
        text = _read(path)
        try:
            runs += sum(type(a) is PlainRun for m in parse_matches(text, packed=True) for g in m.games
                        for a in g.actions)
        except NotationError:
            pass
        expected = _outcome(text, packed=False)
        assert _outcome(text, packed=True) == expected, path
        with monkeypatch.context() as mp:
            one_play_at_a_time(mp)  # runs made back into actions, one play at a time
            assert _outcome(text, packed=True) == expected, path
    assert runs > 100  # the files do hold runs


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited(SOURCES))
def test_edited_files_read_as_runs_give_what_the_ordinary_reading_gives(text: str) -> None:
    """Random edits (wrong dice and points, lines swapped or cut, cube actions and results inserted) cut
    runs everywhere: the findings are still those of the ordinary reading and the whole replay."""
    assert _outcome(text, packed=True) == _outcome(text, packed=False)


@pytest.mark.parametrize("edit", ["no results", "cut", "bear-off", "after the end"])
def test_games_that_end_in_a_run(edit: str) -> None:
    """Games whose last action would be in a run: no result line (the finding points at the last play),
    a file cut in the middle of a game, a game borne off in a run with plays after it, plays (a dance
    among them) after the result line."""
    text = (DATA / "gnubg_7p_crawford.mat").read_text()
    lines = text.split("\n")
    if edit == "no results":
        variants = ["\n".join(x for x in lines if "Wins" not in x)]
    elif edit == "cut":
        rows = [i for i, x in enumerate(lines) if x.strip()[:1].isdigit() and ")" in x[:6]]
        variants = ["\n".join(lines[:i + 1]) + "\n" for i in rows[::7]]
    elif edit == "bear-off":  # the Wins line dropped and the bear-off's row doubled
        wins = [i for i, x in enumerate(lines) if "Wins" in x]
        variants = ["\n".join(lines[:i - 1] + [lines[i - 1], lines[i - 1]] + lines[i + 1:]) for i in wins]
    else:  # plays written after the result, a dance first or not
        wins = [i for i, x in enumerate(lines) if "Wins" in x]
        dance = [" 99) 66:                           52: 13/8 24/22",
                 "100) 41: 24/23 13/9                 31: 8/5 6/5"]
        variants = ["\n".join(lines[:i + 1] + extra + lines[i + 1:]) for i in wins
                    for extra in (lines[i - 3:i - 1], dance)]
    for v in variants:
        expected = _outcome(v, packed=False)
        assert _outcome(v, packed=True) == expected
        assert any(f for m in expected for f in m[0]) if isinstance(expected, list) else True


def test_validate_file_reads_runs_and_says_what_the_ordinary_reading_says(monkeypatch: pytest.MonkeyPatch) -> None:
    import notation.matchio as matchio

    calls: list[bool] = []
    parse_any = matchio.parse_any

    def ordinary(data: str | bytes, *, name: str | None = None, packed: bool = False) -> object:
        calls.append(packed)
        return parse_any(data, name=name)

    for path in _mat_files():
        packed = batch.validate_file(str(path))
        with monkeypatch.context() as mp:
            mp.setattr(matchio, "parse_any", ordinary)
            assert batch.validate_file(str(path)) == packed, path
    assert calls and all(calls)  # validate asks for runs


def test_runs_are_made_only_when_asked_for_and_unpack_to_the_ordinary_actions() -> None:
    text = (DATA / "gnubg_7p_crawford.mat").read_text()
    ordinary = parse_matches(text)
    assert not any(type(a) is PlainRun for m in ordinary for g in m.games for a in g.actions)
    packed = parse_matches(text, packed=True)
    for m in packed:
        for g in m.games:
            assert any(type(a) is PlainRun for a in g.actions)
            assert type(g.actions[-1]) is not PlainRun  # the last action is ordinary (end-of-game findings)
            unpack_runs(g.actions)
    assert [write_match(m) for m in packed] == [write_match(m) for m in ordinary]
    assert [m.games for m in packed] == [m.games for m in ordinary]


def test_cut_run_puts_an_ordinary_action_where_the_run_is_cut() -> None:
    cells = [(i % 2, (5, 2), "13/8 24/22", "52: 13/8 24/22", 10 + i, 5, 19, i) for i in range(5)]
    for k in range(5):
        actions: list[Action] = [Action("double", 1, value=2), plain_run(list(cells))]
        at = cut_run(actions, 1, k)
        a = actions[at]
        assert type(a) is Action and a.span is not None and a.span.line == 10 + k and a.move_number == k
        assert a.no_move is None and a.play == "13/8 24/22"
        assert len(actions) == 2 + (k > 0) + (k < 4)
        unpack_runs(actions)
        assert [b.move_number for b in actions[1:]] == list(range(5))
        assert all(type(b) is Action for b in actions)
