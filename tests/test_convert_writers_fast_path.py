"""The converters' fast paths against their general paths (more in ``test_convert_fast_path.py``).

* The writers that replay a match (SGF, text) take the replay the caller already made
  (``render_match(..., rep=...)``, as ``convert_file`` passes it): the output must be the same text
  and the same dropped items as when the writer replays the match itself.
* The SGF writer reads a written play's single steps directly when the play is plain notation
  (:func:`notation.formats.sgf_write._written_pairs`): always as :func:`notation.play.parse_play` reads them.
* The SGF writer's letter table gives what :func:`notation.formats.sgf._letter` gives.
* The SGF writer writes common moves from a cache (``_Writer.actions``, :func:`notation.formats.sgf_write._move_node`):
  the same text and the same dropped items as its general path (``_Writer.fast = False``), on every
  real file, on real files with plays changed at random (hit marks, order, chains, illegal plays,
  odd players and dice), and on random matches, with the cache empty and full.
* The JSON writer writes common actions straight from the objects
  (:func:`notation.formats.json_format._action_text`): as the general path writes their dicts.
"""

from __future__ import annotations

import copy
import itertools
import random
from pathlib import Path

import pytest
from conftest import CORPUS, DATA, distinct, sampled_per_kind
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_reference import dump_reference
from test_mat_writer import matches

from notation.batch import convert_file
from notation.convert import render_match
from notation.errors import NotationError, ParseError
from notation.formats import sgf_write as sgf
from notation.matchio import read_any
from notation.play import parse_play
from notation.position import Position
from notation.record import Action, Game, Match, Span
from notation.replay import replay_match

ROOT = Path(__file__).resolve().parents[1]


def _files() -> list[Path]:
    files = sorted(DATA.glob("*.mat")) + sorted(DATA.glob("*.sgf")) + sorted(DATA.glob("mat_*.txt")) \
        + sorted((ROOT / "samples").glob("*.mat")) + sorted((ROOT / "samples").glob("*.json"))
    if CORPUS.is_dir():
        # a third of each kind of the corpus's records (all with GAMMON_FULL_CORPUS=1)
        files += sampled_per_kind(sorted(p for p in (CORPUS / "mat").rglob("*") if p.is_file()), 3)
        files += sampled_per_kind(sorted(p for p in (CORPUS / "sgf").rglob("*.sgf") if p.is_file()), 3)
    return distinct(files)


def _general(text: str) -> list[tuple[int, int]] | None:
    try:
        parsed = parse_play(text)
    except ParseError:
        return None
    return [(x, y) for seg in parsed.segments for _ in range(seg.count) for x, y in itertools.pairwise(seg.points)]


def _matches(path: Path) -> list[object]:
    try:
        return list(read_any(str(path)))
    except NotationError:
        return []


@pytest.mark.parametrize("fmt", ["sgf", "txt"])
def test_writers_given_the_replay_write_the_same(fmt: str) -> None:
    files = _files()
    assert len(files) > 10
    for path in files:
        for m in _matches(path):
            own = render_match(m, fmt)  # type: ignore[arg-type]
            given_rep = render_match(m, fmt, rep=replay_match(m))  # type: ignore[arg-type]
            assert given_rep == own, path


@pytest.mark.parametrize("fmt", ["sgf", "txt", "json", "mat"])
def test_convert_file_writes_what_render_match_writes(tmp_path: Path, fmt: str) -> None:
    """``convert_file`` passes its replay to the writer: the file is what the writer alone writes."""
    for path in sorted(DATA.glob("*.mat")) + sorted((ROOT / "samples").glob("*.mat")):
        m = _matches(path)
        if not m:
            continue
        target = tmp_path / f"{path.stem}.{fmt}"
        for canonical in (False, True):
            target.unlink(missing_ok=True)
            r = convert_file(str(path), str(target), fmt, canonical=canonical)
            if r["status"] == 2:
                continue
            m0 = read_any(str(path))[0]
            m0.source = str(path)
            if canonical:
                from notation.convert import canonical_plays

                m0 = canonical_plays(m0)[0]
            text, dropped = render_match(m0, fmt)
            if r["status"] == 0:
                assert target.read_text(encoding="utf-8") == text, (path, canonical)


def test_written_pairs_on_real_plays() -> None:
    texts = {a.play or "" for path in _files() for m in _matches(path)
             for g in m.games for a in g.actions}  # type: ignore[attr-defined]
    assert len(texts) > 100
    for text in texts:
        assert sgf._written_pairs(text) == _general(text), text


_POINT = st.sampled_from([*map(str, range(0, 27)), "bar", "Bar", "off", "Off", "b", "o", "05", "-1"])
_TOKEN = st.builds(lambda a, b, star, sep: f"{a}{sep}{b}{'*' if star else ''}", _POINT, _POINT, st.booleans(),
                   st.sampled_from(["/", "-", "//", ""]))
_ODD = st.sampled_from(["(2)", "*", "/", "13/8/5", "*13/10", ",", "13/8,", "bar/20(2)", "24/18*/13"])


@settings(max_examples=2000, deadline=None)
@given(st.lists(_TOKEN | _ODD, max_size=5), st.sampled_from([" ", "  ", "\t"]))
def test_written_pairs_as_parse_play_reads(tokens: list[str], sep: str) -> None:
    text = sep.join(tokens)
    assert sgf._written_pairs(text) == _general(text), text


def test_letter_table() -> None:
    for player in (0, 1):
        for p in range(-2, 28):
            for q in range(-2, 28):
                assert sgf._letters([(p, q)], player) == sgf._letter(p, player) + sgf._letter(q, player)


# ------------------------------------------------------------------ the SGF writer's common moves


def _sgf_both_ways(m: Match) -> None:
    try:
        rep = replay_match(m)
    except Exception:  # noqa: BLE001 - the writer replays (and says so) itself
        rep = None
    general = sgf._Writer(m, rep)
    general.fast = False
    expected = general.write()
    sgf._MOVE_NODES.clear()
    for _ in range(2):  # the cache empty, then full
        assert sgf._Writer(m, rep).write() == expected


def test_sgf_common_moves_as_the_general_path_on_real_files() -> None:
    n = 0
    for path in _files():
        for m in _matches(path):
            _sgf_both_ways(m)  # type: ignore[arg-type]
            n += 1
    assert n > 10


def _mutate(m: Match, rng: random.Random) -> Match:
    out = copy.deepcopy(m)
    plays = [a.play for g in out.games for a in g.actions if a.play]
    for g in out.games:
        last = next((a for a in reversed(g.actions) if a.kind == "move"), None)
        if last is not None and rng.random() < 0.3:  # rolled, then nothing written: maybe a roll alone
            last.play = rng.choice(["", " "])
        for a in g.actions:
            if a.kind != "move" or rng.random() > 0.3:
                continue
            how = rng.randrange(9)
            tokens = (a.play or "").split()
            if how == 0:
                a.play = (a.play or "").replace("*", "")
            elif how == 1:
                a.play = " ".join(t if t.endswith("*") else t + "*" for t in tokens)
            elif how == 2:
                rng.shuffle(tokens)
                a.play = "  ".join(tokens)
            elif how == 3 and plays:
                a.play = rng.choice(plays)  # most likely illegal here
            elif how == 4:
                a.play = rng.choice(["13/8/5", "6/4(2)", "bar/22", "8/off", "24/18 18/13", "25/20 20/26",
                                     "-1/5", "0/3", "", " ", "13/8 x", "24/-2"])
            elif how == 5:
                a.dice = rng.choice([(0, 3), (7, 1), (6, 6), (True, 2), [3, 1]])  # type: ignore[assignment]
            elif how == 6:
                a.player = rng.choice([2, -1, True, 1 - a.player])
            elif how == 7:
                a.comment = "c"
            else:
                a.properties = {"XX": ["1"]}
    return out


def test_sgf_common_moves_as_the_general_path_on_changed_plays() -> None:
    rng = random.Random(13)
    files = [p for p in _files() if p.suffix in (".mat", ".txt")]
    n = 0
    for path in files[:: max(1, len(files) // 60)]:
        for m in _matches(path):
            for _ in range(3):
                _sgf_both_ways(_mutate(m, rng))  # type: ignore[arg-type]
                n += 1
    assert n > 30


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_sgf_common_moves_as_the_general_path_on_random_matches(m: Match) -> None:
    _sgf_both_ways(m)


def test_sgf_blank_last_play_with_an_empty_replayed_play() -> None:
    """A blank play followed by results only is the general path's (a roll alone when it could be
    played), even when the replay gives it an empty play (today's replay gives none)."""
    from types import SimpleNamespace

    from notation.rules import Play

    m = read_any(str(DATA / "gnubg_7p_crawford.mat"))[0]
    rep = replay_match(m)
    for g in m.games:
        last = [a for a in g.actions if a.kind == "move"][-1]
        last.play = ""
        writers = [sgf._Writer(m, rep), sgf._Writer(m, rep)]
        writers[1].fast = False
        for w in writers:
            w.steps[id(last)] = SimpleNamespace(action=last, play=Play((), (), ()), legal=False)
        fast, general = (w.write() for w in writers)
        assert fast == general
        assert "written as the roll alone" in "".join(general[1])


def test_sgf_move_nodes_can_tell_a_wrong_cache() -> None:
    """The comparison above sees a cached node that is not the general path's (the test can fail)."""
    path = DATA / "gnubg_7p_crawford.mat"
    m = read_any(str(path))[0]
    rep = replay_match(m)
    sgf._MOVE_NODES.clear()
    sgf._Writer(m, rep).write()
    key = next(iter(sgf._MOVE_NODES))
    node, pairs, marks = sgf._MOVE_NODES[key]
    sgf._MOVE_NODES[key] = (node.replace("[", "[0", 1), pairs, marks)
    try:
        general = sgf._Writer(m, rep)
        general.fast = False
        assert sgf._Writer(m, rep).write() != general.write()
    finally:
        sgf._MOVE_NODES.clear()


# ------------------------------------------------------------------ the JSON writer's actions


def _reference_doc(match: Match) -> str:
    from notation.formats import json_format

    doc = {"format": json_format.FORMAT, "version": json_format.VERSION,
           "match": json_format.match_to_dict(match)}
    out: list[str] = []
    dump_reference(doc, 0, out)
    return "".join(out) + "\n"


def test_json_actions_written_directly_on_real_files() -> None:
    from notation.formats.json_format import to_json

    n = 0
    for path in _files():
        for m in _matches(path):
            assert to_json(m) == _reference_doc(m), path  # type: ignore[arg-type]
            n += 1
    assert n > 10


_ODD_VALUES = st.none() | st.integers(-3, 300) | st.text(max_size=6) | st.booleans() | st.floats(-2, 2) \
    | st.builds(lambda s: type("S", (str,), {})(s), st.text(max_size=3))
_SPANS = st.none() | st.builds(lambda a, b, c, d: Span(a, b, c, d), _ODD_VALUES, _ODD_VALUES, _ODD_VALUES,
                               _ODD_VALUES)
_ACTIONS = st.builds(
    lambda kind, player, dice, play, no_move, value, text, span, mn, comment, props, setup: Action(
        kind, player, dice=dice, play=play, no_move=no_move, value=value, text=text, span=span, move_number=mn,
        comment=comment, setup=Position.initial() if setup else None, properties=props),
    st.sampled_from(["move", "roll", "double", "take", "drop", "win"]) | st.text(max_size=4),
    st.sampled_from([0, 1]) | _ODD_VALUES,
    st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)) | st.tuples(_ODD_VALUES, _ODD_VALUES)
    | st.lists(st.integers(1, 6), min_size=2, max_size=2),
    _ODD_VALUES, _ODD_VALUES, _ODD_VALUES, st.text(max_size=12) | _ODD_VALUES, _SPANS, _ODD_VALUES, _ODD_VALUES,
    st.dictionaries(st.text(max_size=3), st.lists(st.text(max_size=3), max_size=2), max_size=2),
    st.booleans(),
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_ACTIONS, max_size=4), st.integers(0, 2))
def test_json_actions_written_directly_on_any_action(actions: list[Action], games: int) -> None:
    from notation.formats.json_format import to_json

    m = Match(length=5, games=[Game(i + 1, score=(0, 0), actions=list(actions)) for i in range(games)])
    assert to_json(m) == _reference_doc(m)


@pytest.mark.parametrize("span", [Span(3, 4), Span(3, 4, None, 9), Span(None, 2, 3, None),
                                  Span(1, 2, 3, 4), Span(1, 2, 3, "4"), Span(1.0, 2, 3, 4), None])
@pytest.mark.parametrize("kind", ["move", "double", "win"])
def test_json_common_actions_with_partial_spans(span: object, kind: str) -> None:
    from notation.formats.json_format import to_json

    a = Action(kind, 1, dice=(3, 1) if kind == "move" else None, play="8/5 6/5" if kind == "move" else None,
               value=None if kind == "move" else 2, text="31: 8/5 6/5", span=span, move_number=7)  # type: ignore[arg-type]
    m = Match(length=5, games=[Game(1, score=(0, 0), actions=[a])])
    assert to_json(m) == _reference_doc(m)


def test_atomic_write_syncs_the_data_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from notation import convert

    seen: list[bool] = []
    target = tmp_path / "out.sgf"

    def sync(fd: int) -> None:
        seen.append(not target.exists())  # synced while the target is not there yet
        os.fsync(fd)

    monkeypatch.setattr(convert, "_sync", sync)
    convert.atomic_write(target, "(;GM[6])")
    assert seen == [True] and target.read_text() == "(;GM[6])"
