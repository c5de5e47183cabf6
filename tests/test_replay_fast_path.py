"""The replay's fast path (:func:`notation.replay._fast_play`) against the full path.

The fast path accepts plain notation without generating plays when every die is used; it must never
accept an illegal play (soundness, on random positions and random written plays), and on real files
the replay must give the same findings and positions with it as without it.
"""

from __future__ import annotations

import importlib
import itertools
from pathlib import Path

import pytest
from conftest import CORPUS, DATA, distinct, sampled_per_kind
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_general import one_play_at_a_time
from test_rules import ROLLS, positions

from notation.errors import NotationError
from notation.matchio import read_any
from notation.position import Board, Position, board_from_points
from notation.rules import can_move, get_rules

ROOT = Path(__file__).resolve().parents[1]
R = get_rules("standard")
replay_module = importlib.import_module("notation.replay")


def _position(mine: Board, theirs: Board, roll: tuple[int, int]) -> Position:
    return Position(boards=(mine, theirs), turn=0, dice=roll)


def _token(s: int, t: int, star: bool) -> str:
    return f"{s}/{t}{'*' if star else ''}"


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS, st.data())
def test_fast_path_never_accepts_an_illegal_play(pos: tuple[Board, Board], roll: tuple[int, int],
                                                 data: st.DataObject) -> None:
    """Any written play of 0 to 4 single steps: what the fast path accepts is one of the legal results."""
    mine, theirs = pos
    p = _position(mine, theirs, roll)
    n = data.draw(st.integers(0, 4))
    # steps mostly from points the mover holds, by a die, to off, or anywhere
    held = [q for q in range(1, 26) if mine[q]] or [25]
    steps = []
    for _ in range(n):
        s = data.draw(st.sampled_from(held) | st.integers(1, 25))
        t = data.draw(st.sampled_from([max(s - roll[0], 0), max(s - roll[1], 0), 0]) | st.integers(0, 24))
        steps.append((s, t, data.draw(st.booleans())))
    text = " ".join(_token(*s) for s in steps)
    fast = replay_module._fast_play(p.on_roll, p.opponent, R, text, roll)
    if fast is not None:
        legal = {(q.mine, q.theirs) for q in R.plays_for(mine, theirs, *roll)}
        assert (fast.mine, fast.theirs) in legal or (not legal and not fast.steps)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS, st.data())
def test_fast_path_accepts_legal_plays_in_every_order(pos: tuple[Board, Board], roll: tuple[int, int],
                                                      data: st.DataObject) -> None:
    """A legal play written step by step, in its own order, is accepted with its result; in another
    order it is accepted with the same result, or left to the full path."""
    mine, theirs = pos
    legal = R.plays_for(mine, theirs, *roll)
    p = _position(mine, theirs, roll)
    if not legal:
        assert replay_module._fast_play(p.on_roll, p.opponent, R, "", roll) is not None
        return
    play = data.draw(st.sampled_from(legal))
    text = " ".join(_token(*s) for s in play.steps)
    fast = replay_module._fast_play(p.on_roll, p.opponent, R, text, roll)
    assert fast is not None and (fast.mine, fast.theirs) == (play.mine, play.theirs), text
    for order in itertools.islice(itertools.permutations(play.steps), 6):
        other = replay_module._fast_play(p.on_roll, p.opponent, R, " ".join(_token(*s) for s in order), roll)
        assert other is None or (other.mine, other.theirs) == (play.mine, play.theirs)


@st.composite
def blocked(draw: st.DrawFn) -> tuple[Board, Board]:
    """(mine, theirs) where often only one die of a roll can be played: the opponent holds points
    (often in a row: primes), the mover has checkers behind them or on the bar, or few checkers left."""
    mine = [0] * 26
    theirs = [0] * 26
    start = draw(st.integers(1, 24))
    held = {(start + i - 1) % 24 + 1 for i in range(draw(st.integers(0, 6)))}
    held |= set(draw(st.lists(st.integers(1, 24), max_size=4)))
    left = 15
    for q in sorted(held):
        if left >= 2:
            k = draw(st.integers(2, 3)) if left >= 3 else 2
            theirs[q] = k
            left -= k
    theirs[0] = left
    free = [p for p in range(1, 25) if theirs[25 - p] == 0]
    on = draw(st.integers(1, 15))
    mine[25] = draw(st.integers(0, min(3, on)))
    for p in draw(st.lists(st.sampled_from(free), min_size=on - mine[25], max_size=on - mine[25])):
        mine[p] += 1
    mine[0] = 15 - on
    return tuple(mine), tuple(theirs)


def _single_steps(mine: Board, theirs: Board, d: int) -> list[tuple[int, int]]:
    """Every single step (from, to) of ``mine`` by the die ``d`` that the rules allow, to = 0 off."""
    if mine[25]:
        return [(25, 25 - d)] if theirs[d] < 2 else []
    home = not any(mine[7:25])
    out = []
    for s in range(1, 25):
        if mine[s]:
            t = s - d
            if t >= 1 and theirs[25 - t] < 2:
                out.append((s, t))
            elif t < 1 and home and (t == 0 or not any(mine[s + 1:7])):
                out.append((s, 0))
    return out


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked() | positions(), ROLLS.filter(lambda r: r[0] != r[1]))
def test_one_die_plays_are_judged_as_the_generator_judges_them(pos: tuple[Board, Board],
                                                               roll: tuple[int, int]) -> None:
    """Where one die of a roll is played, the fast path (which decides most such plays without the
    generator: no play uses both dice, and it played the larger die or the larger cannot move) accepts
    exactly the generator's plays, with the generator's result; its helpers agree with the generator."""
    mine, theirs = pos
    legal = R.plays_for(mine, theirs, *roll)
    most = max((q.dice_used for q in legal), default=0)
    assert replay_module._both_dice(mine, theirs, *roll) == (most == 2)
    for d in roll:
        assert can_move(mine, theirs, d) == bool(_single_steps(mine, theirs, d))
    one = {(q.mine, q.theirs): q for q in legal if q.dice_used == 1}
    for d in roll:
        for s, t in _single_steps(mine, theirs, d):
            hit = t > 0 and theirs[25 - t] == 1
            text = _token(s, t, hit)
            fast = replay_module._fast_play(mine, theirs, R, text, roll)
            if fast is None:
                continue  # left to the full path, which explains it
            assert (fast.mine, fast.theirs) in one, (text, roll)
            assert fast.steps == one[(fast.mine, fast.theirs)].steps


def test_one_die_plays_blocked_and_on_the_bar() -> None:
    """Worked cases: two on the bar against a board open only on its 6 point; one checker that either
    die moves, but not both (the larger must be played)."""
    five = board_from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})  # their points; their 6 is open
    on_bar = board_from_points({25: 2, 13: 13})
    assert replay_module._fast_play(on_bar, five, R, "25/19", (6, 3)) is not None  # the 3 cannot enter
    assert replay_module._fast_play(on_bar, five, R, "25/22", (6, 3)) is None
    one = board_from_points({25: 1, 13: 14})  # after entering, another checker plays the 3
    assert replay_module._fast_play(one, five, R, "25/19", (6, 3)) is None
    runner = board_from_points({20: 1})  # 14 off; their 16 (our 9) held: 20/15/9 and 20/14/9 blocked
    wall = board_from_points({16: 2, 1: 13})
    assert replay_module._fast_play(runner, wall, R, "20/14", (6, 5)) is not None
    assert replay_module._fast_play(runner, wall, R, "20/15", (6, 5)) is None  # the smaller die
    assert [q.notation() for q in R.plays_for(runner, wall, 6, 5)] == ["20/14"]


def _files() -> list[Path]:
    files = sorted(DATA.glob("*.mat")) + sorted(DATA.glob("*.sgf")) + sorted((ROOT / "samples").glob("*.mat"))
    if CORPUS.is_dir():  # a third of each kind of the corpus's records (all with GAMMON_FULL_CORPUS=1)
        files += sampled_per_kind(sorted(p for p in (CORPUS / "mat").rglob("*") if p.is_file()), 3)
    return distinct(files)


def _replay_all(path: Path) -> list[object]:
    try:
        matches = read_any(str(path))
    except NotationError:
        return []
    out: list[object] = []
    for m in matches:
        rep = replay_module.replay_match(m)
        out.append([f.to_dict() for f in rep.findings])
        out.append([(s.action.span, s.before, s.after, s.legal, s.play is not None and sorted(s.play.steps))
                    for g in rep.games for s in g.steps])
    return out


def test_real_files_replay_the_same_without_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same findings, positions and plays with the fast path, one play at a time through
    ``do_move`` (:func:`replay_general.one_play_at_a_time`), and without the fast path at all."""
    files = _files()
    assert len(files) > 10
    for path in files:
        fast = _replay_all(path)
        with monkeypatch.context() as mp:
            one_play_at_a_time(mp)
            one_by_one = _replay_all(path)
            mp.setattr(replay_module, "_fast_play", lambda *a: None)
            full = _replay_all(path)
        assert fast == one_by_one, path
        assert fast == full, path


def test_fast_moves_stop_where_do_move_takes_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of plays broken by what the fast lane leaves to ``do_move``: a cube action, the wrong player,
    a play written in another notation, an illegal play, an opening double, a bear-off that ends the game,
    plays after the end; the same replay with the run taken at once as one play at a time."""
    from notation.formats.mat import read_match

    rows = [
        "  1)                             31: 8/5 6/5",
        "  2) 64: 24/18 13/9              52: 13/8 13/11",
        "  3) 33: 13/10(2) 6/3(2)          Doubles => 2",
        "  4) Takes                        42: 8/4 6/4",
        "  5) 61: 13/7 8/7                 55: 13/3 13/3",
        "  6) 21: 13/11 24/23             21: 13/11 24/23",
        "  7) 43: 13/9 13/10               43: 13/9 13/10",
        "  8) 11: 6/5 6/5 6/5 6/5         66: 24/18 24/18 13/7 13/7",
    ]
    body = " 3 point match\n\n Game 1\n a : 0                 b : 0\n" + "\n".join(rows) + "\n"
    for text in (body, body.replace("  1)                             31: 8/5 6/5", "  1) 33: 8/5 6/5"),
                 body.replace("52: 13/8 13/11", "52: 13/8 13/13")):
        m = read_match(text)
        fast = replay_module.replay_match(m)
        with monkeypatch.context() as mp:
            one_play_at_a_time(mp)
            slow = replay_module.replay_match(m)
        assert [f.to_dict() for f in fast.findings] == [f.to_dict() for f in slow.findings]
        assert [(s.action, s.before, s.after, s.play, s.legal) for g in fast.games for s in g.steps] == [
            (s.action, s.before, s.after, s.play, s.legal) for g in slow.games for s in g.steps]
        assert fast.findings  # each of these records has something to say


@pytest.mark.parametrize(("mine", "theirs", "roll", "text"), [
    ({5: 1, 2: 1, 1: 1}, {}, (4, 3), "2/0 1/0"),          # bears off below a checker on the 5-point
    ({8: 1, 2: 2}, {}, (6, 2), "2/0 8/2"),                # bears off with a checker outside
    ({25: 1, 13: 2}, {}, (6, 2), "13/7 25/23"),           # the bar checker must enter first
    ({13: 2}, {18: 2}, (6, 1), "13/7 13/12"),             # 7 is the opponent's point (their 18)
    ({13: 2}, {}, (6, 1), "13/7"),                        # the 1 can be played too
    ({13: 2}, {}, (6, 1), ""),                            # nothing played, yet both dice play
    ({13: 2}, {}, (6, 1), "13/12"),                       # the larger die must be played
    ({13: 2}, {}, (6, 1), "13/7* 13/12"),                 # marked as a hit, but 7 is empty
    ({13: 2}, {}, (3, 3), "13/10 13/10 10/7"),            # a double played three times of four
])
def test_fast_path_refuses(mine: dict[int, int], theirs: dict[int, int], roll: tuple[int, int],
                           text: str) -> None:
    p = _position(board_from_points(mine), board_from_points(theirs), roll)
    assert replay_module._fast_play(p.on_roll, p.opponent, R, text, roll) is None


@pytest.mark.parametrize(("mine", "theirs", "roll", "text"), [
    ({5: 1, 2: 1}, {}, (6, 4), "5/0 2/0"),                # larger dice bear off from the highest point
    ({2: 2}, {}, (6, 5), "2/0 2/0"),
    ({25: 1, 13: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, (6, 5), ""),  # a closed board: a dance
    ({25: 1, 13: 2}, {5: 2, 11: 2, 17: 2}, (6, 5), "25/19"),  # enters with the 6; no 5 can be played
    ({13: 2}, {18: 1}, (6, 1), "13/7* 13/12"),            # a hit (their 18 is our 7), marked
])
def test_fast_path_accepts(mine: dict[int, int], theirs: dict[int, int], roll: tuple[int, int],
                           text: str) -> None:
    m, t = board_from_points(mine), board_from_points(theirs)
    p = _position(m, t, roll)
    fast = replay_module._fast_play(p.on_roll, p.opponent, R, text, roll)
    legal = {(q.mine, q.theirs) for q in R.plays_for(m, t, *roll)}
    assert fast is not None and ((fast.mine, fast.theirs) in legal or not legal)


# ------------------------------------------------------------------ findings only (Replayer(steps=False))

def _lean_and_full(match: object) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What ``gammon validate`` reads of a replay: the findings, the games and the plays, from the
    findings-only replay and from the whole one."""
    full = replay_module.replay_match(match)
    r = replay_module.Replayer(match, keep=False, steps=False)
    for g in match.games:  # type: ignore[attr-defined]
        r.feed(g)
    lean = r.finish()
    return ((lean.findings, r.games, r.plays, lean.games),
            (full.findings, len(full.games), full.plays, []))


def _lean_files() -> list[Path]:
    files = _files() + sorted(DATA.glob("mat_*.txt")) + sorted((ROOT / "samples").glob("*.sgf"))
    if CORPUS.is_dir():
        files += sampled_per_kind(sorted(p for p in CORPUS.rglob("*") if p.is_file() and p not in files), 3)
    return distinct(files)


def test_findings_only_replay_finds_what_the_whole_replay_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every real file, with the fast lane, one play at a time and without the fast path: the
    findings-only replay gives the whole replay's findings (hit marks included), games and plays."""
    files = _lean_files()
    assert len(files) > 10
    seen = 0
    for path in files:
        try:
            matches = read_any(str(path))
        except (NotationError, OSError, UnicodeDecodeError):
            continue
        for m in matches:
            if getattr(m, "replay_override", None) is not None:
                continue
            seen += 1
            lean, full = _lean_and_full(m)
            assert lean == full, path
            with monkeypatch.context() as mp:
                one_play_at_a_time(mp)
                assert _lean_and_full(m)[0] == full, path
    assert seen > 10


@pytest.mark.parametrize("edit", [
    None,                               # every hit marked
    ("7/5*", "7/5"),                    # one hit not marked, the others marked: a note for it
    ("*", ""),                          # no hit marked at all: one note for the file
    ("  1) 41:", "  1) 44:"),           # an opening double, before any other play
])
def test_findings_only_replay_on_hit_marks_and_opening_doubles(monkeypatch: pytest.MonkeyPatch,
                                                               edit: tuple[str, str] | None) -> None:
    from notation.formats.mat import read_match

    rows = [
        "  1) 41: 24/20 24/23             62: 13/7 7/5*",
        "  2) 61: 25/24 24/18             53: 13/8 5/2*",
        "  3) 64: 25/21 21/15             42: 13/9 9/7*",
        "  4) 31: 25/22 22/21             65: 24/18 18/13",
    ]
    body = " 3 point match\n\n Game 1\n a : 0                 b : 0\n" + "\n".join(rows) + "\n"
    if edit is not None:
        body = body.replace(*edit)
    m = read_match(body)
    lean, full = _lean_and_full(m)
    assert lean == full
    notes = [f.message for f in full[0] if "hit" in f.message or "opening" in f.message]
    assert len(notes) == (0 if edit is None else 1), notes
    with monkeypatch.context() as mp:
        one_play_at_a_time(mp)
        assert _lean_and_full(m)[0] == full


def test_validate_file_is_the_whole_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate_file`` (the findings-only replay) says what it says with the whole replay."""
    import notation.batch as batch

    def whole(match: object) -> tuple[object, int, int]:
        rep = replay_module.replay_match(match)
        return rep, len(rep.games), rep.plays

    files = [p for p in _lean_files() if p.suffix != ".sgf"]
    for path in files:
        lean = batch.validate_file(str(path))
        with monkeypatch.context() as mp:
            mp.setattr(batch, "_findings", whole)
            assert batch.validate_file(str(path)) == lean, path
