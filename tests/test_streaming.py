"""Records read and replayed one game at a time: :func:`notation.formats.sgf.iter_sgf` gives the games
:func:`read_sgf` gives, :class:`notation.replay.Replayer` the findings :func:`replay` gives, and
``gammon validate`` of an SGF collection holds one game, not the file (issue 16, item 7)."""

from __future__ import annotations

import gc
import os
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, DATA, FULL, ROOT, distinct, sampled, sampled_per_kind

from notation.batch import validate_file
from notation.errors import ParseError
from notation.formats.sgf import iter_sgf, read_sgf
from notation.matchio import read_any
from notation.replay import Replayer, replay_match

SGF_FILES = distinct(sorted(DATA.glob("*.sgf")) + sorted(CORPUS.glob("**/*.sgf")))
"""Our SGF files and the corpus's, without the corpus's twins of ours (two Gibbon files)."""
RECORDS = SGF_FILES + sorted(DATA.glob("*.mat")) + sorted(DATA.glob("mat_*.txt")) + sorted(
    (ROOT / "samples").glob("*.mat")) + sorted(CORPUS.glob("mat/**/*.mat"))[:60]


def money_session(games: int) -> bytes:
    """``games`` copies of a gnubg game as one money session whose score lines add up."""
    text = (DATA / "sgf_gnubg_selfplay.sgf").read_text(encoding="utf-8")
    game = re.sub(r"(?<=[\];])(A|DA|MR|LU|GS)((\[(?:[^\]\\]|\\.)*\])+)", "", text.strip()) + "\n"
    assert "RE[W+1]" in game
    return "".join(re.sub(r"MI\[[^;]*?\]\[bs:\d+\]", f"MI[length:0][game:{i}][ws:{i}][bs:0]", game, count=1)
                   for i in range(games)).encode()


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.name)
def test_iter_sgf_gives_what_read_sgf_gives(path: Path) -> None:
    data = path.read_bytes()
    whole = read_sgf(data, name=path.name)
    header, games = iter_sgf(data, name=path.name)
    read = list(games)
    assert header.games == []
    assert read == whole.games
    header.games = read
    assert header == whole  # names, length, rules, tags, comments and every normalisation


def test_iter_sgf_fails_where_read_sgf_fails_after_the_games_before() -> None:
    data = money_session(3)[:-10]  # the last game tree cut short
    with pytest.raises(ParseError) as whole:
        read_sgf(data)
    _, games = iter_sgf(data)
    assert next(games).number == 1 and next(games).number == 2
    with pytest.raises(ParseError) as streamed:
        next(games)
    assert (streamed.value.line, streamed.value.column, streamed.value.message) == (
        whole.value.line, whole.value.column, whole.value.message)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_replay_fed_game_by_game_finds_what_the_whole_replay_finds(path: Path) -> None:
    for match in read_any(path):
        if getattr(match, "replay_override", None) is not None:
            continue
        whole = replay_match(match)
        r = Replayer(match, keep=False)
        fed = [r.feed(g) for g in match.games]
        streamed = r.finish()
        assert streamed.findings == whole.findings
        assert streamed.games == []
        assert (r.games, r.plays) == (len(whole.games), whole.plays)
        assert [(g.winner, g.points, g.crawford, len(g.steps)) for g in fed] == [
            (g.winner, g.points, g.crawford, len(g.steps)) for g in whole.games]


def warmed(tmp_path: Path, fmt: str | None) -> None:
    """One small reading (and conversion to ``fmt``) first, so that a memory peak measured after it counts
    what a file costs, not the modules, grammars and caches a process makes once (else the test's
    result would depend on which tests ran before it in the same process)."""
    from notation.batch import convert_file

    path = tmp_path / "warm.sgf"
    path.write_bytes(money_session(2))
    validate_file(str(path))
    if fmt is not None:
        for stream in (True, False):
            convert_file(str(path), str(tmp_path / f"warm.{fmt}"), fmt, stream=stream, force=True)


GAMES = (100, 200)
"""The sizes of the memory tests' collections: 100 games is the smallest whose streamed conversion keeps
under 10x the file (9.1-9.9x for .mat and JSON: a fixed share, the modules' data and one game, is the rest;
the whole conversion takes 36-95x); twice that shows the share of a game not growing (a streamed
conversion at 5-7x, the whole one still at 36-95x)."""


def test_validate_of_an_sgf_collection_holds_one_game_not_the_file(tmp_path: Path) -> None:
    warmed(tmp_path, None)
    peaks = []
    for n in GAMES:
        path = tmp_path / f"s{n}.sgf"
        path.write_bytes(money_session(n))
        tracemalloc.start()
        out = validate_file(str(path))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert (out["games"], out["plays"], out["errors"], out["warnings"]) == (n, 33 * n, 0, 0)
        size = path.stat().st_size
        # the file's bytes and its text, one game and the findings; the whole record would be about 30x
        assert peak < 4 * size, (n, peak, size)
        peaks.append(peak / size)
    assert peaks[1] < peaks[0] * 1.2  # no growth with the number of games


def test_validate_streams_sgf_with_the_same_result_as_the_whole_match(tmp_path: Path) -> None:
    text = money_session(4).decode()
    text = text.replace(";B[62egci]", ";B[62egcj]", 1).replace("[ws:3]", "[ws:2]", 1)  # an illegal play, a score
    path = tmp_path / "m.sgf"
    path.write_text(text, encoding="utf-8")
    out = validate_file(str(path))
    match = read_sgf(text, name=str(path))
    rep = replay_match(match)
    assert out["errors"] == rep.errors == 2
    assert [(f["line"], f["column"], f["message"]) for f in out["findings"]] == sorted(
        ((f.line, f.column, f.message) for f in rep.findings), key=lambda t: (t[0] or 0, t[1] or 0))


def test_sgf_is_decoded_as_declared_wherever_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "latin1.sgf"
    path.write_bytes(b"(;FF[4]GM[6]CA[ISO-8859-1]MI[length:1][game:0][ws:0][bs:0]PW[Jos\xe9]PB[B]RE[W+1]\n"
                     b";W[54mhxt])\n")
    assert read_any(path)[0].names == ("Jos\u00e9", "B")
    assert validate_file(str(path))["errors"] == 0


def test_text_before_the_first_game_tree_is_reported() -> None:
    m = read_sgf("junk\n(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]RE[W+1]\n;W[54mhxt])\n")
    assert [n.message for n in m.normalisations] == ["text before the first game tree was ignored"]


@pytest.mark.parametrize("fmt", ["json", "mat", "sgf"])
def test_convert_reports_the_whole_replays_findings_whatever_it_keeps(tmp_path: Path, fmt: str) -> None:
    """``convert`` keeps only the findings of the replay for writers that do not use its steps."""
    from notation.batch import convert_file

    text = money_session(3).decode().replace(";B[62egci]", ";B[62egcj]", 1)
    path = tmp_path / "m.sgf"
    path.write_text(text, encoding="utf-8")
    out = convert_file(str(path), str(tmp_path / f"out.{fmt}"), fmt)
    match = read_sgf(text, name=str(path))
    expected = [f.format() for f in replay_match(match).findings if f.severity != "note"]
    assert expected and [m for m in out["messages"] if "dropped" not in m] == expected


# ------------------------------------------------------------------------------ convert, one game at a time
# ``gammon convert`` of an SGF collection to SGF, JSON or .mat reads the file twice and writes one game
# at a time (notation/stream.py): the same bytes, messages and status as the whole-match conversion.

BENCH = Path(os.environ.get("GAMMON_BENCH_CORPUS", "/tmp/gammon-bench-corpus")) / "sgf"
BENCH_SGF = sampled(sorted(BENCH.glob("*.sgf")), 10) if BENCH.is_dir() else []
"""gnubg's matches of the benchmarks, where made: every tenth (each takes seconds; all with
GAMMON_FULL_CORPUS=1)."""
VARIANTS = [{}, {"quiet": True}, {"strict": True}, {"canonical": True}, {"canonical": True, "quiet": True},
            {"bar": "bar", "off": "off", "hit_marks": False}]


def converted(src: Path, target: Path, fmt: str, stream: bool, fresh: bool = True,
              **settings: Any) -> tuple[dict[str, Any], bytes | None]:
    """convert_file's result (its target left out) and the bytes it wrote (``fresh``: the target removed
    before), the streamed path checked to have been taken when ``stream`` is True."""
    import notation.stream as st
    from notation.batch import convert_file

    options = {k: settings.pop(k) for k in ("bar", "off", "hit_marks") if k in settings}
    if fmt != "mat":
        options = {}
    if fresh:
        target.unlink(missing_ok=True)
    taken: list[bool] = []
    real = st.convert_sgf

    def spy(*args: Any, **kwargs: Any) -> dict[str, Any] | None:
        out = real(*args, **kwargs)
        taken.append(out is not None)
        return out

    st.convert_sgf = spy  # type: ignore[assignment]
    try:
        res = convert_file(str(src), str(target), fmt, stream=stream, options=options, **settings)
    finally:
        st.convert_sgf = real  # type: ignore[assignment]
    assert taken == ([True] if stream else [])
    data = target.read_bytes() if target.exists() else None
    assert not [p for p in target.parent.iterdir() if ".gammon-tmp-" in p.name]
    return {**res, "target": None}, data


def same_conversion(src: Path, tmp: Path, fmt: str, **settings: Any) -> None:
    whole = converted(src, tmp / f"whole.{fmt}", fmt, False, **dict(settings))
    streamed = converted(src, tmp / f"streamed.{fmt}", fmt, True, **dict(settings))
    assert streamed[0] == whole[0]
    assert streamed[1] == whole[1]


FORMATS = ["sgf", "json", "mat"]


CONVERTED = [p for p in SGF_FILES if p.is_relative_to(DATA)] + sampled_per_kind(
    [p for p in SGF_FILES if not p.is_relative_to(DATA)], 3)
"""The files converted both ways: ours, and every third of the corpus's of each program that wrote them
(gnubg's analysed matches take seconds a conversion, and are alike; all of them with GAMMON_FULL_CORPUS=1)."""


def variants_for(path: Path, fmt: str) -> list[dict[str, Any]]:
    """Every variant of the settings on our own files; on the corpus's the default and one other in turn,
    so that each variant meets corpus files and formats (every variant on every file with
    GAMMON_FULL_CORPUS=1)."""
    if FULL or path.is_relative_to(DATA):
        return VARIANTS
    i = CONVERTED.index(path) * len(FORMATS) + FORMATS.index(fmt)
    return [VARIANTS[0], VARIANTS[1 + i % (len(VARIANTS) - 1)]]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("path", CONVERTED, ids=lambda p: p.name)
def test_convert_streamed_is_the_whole_conversion(tmp_path: Path, path: Path, fmt: str) -> None:
    for settings in variants_for(path, fmt):
        same_conversion(path, tmp_path, fmt, **settings)


@pytest.mark.parametrize("path", BENCH_SGF, ids=lambda p: p.name)
def test_convert_streamed_is_the_whole_conversion_on_gnubg_matches(tmp_path: Path, path: Path) -> None:
    for fmt in ("sgf", "json", "mat"):
        same_conversion(path, tmp_path, fmt)


def awkward_collection() -> str:
    """A collection whose header is complete only at its end: tags, a game comment, rules and a
    variant first seen in later game trees, a match property, comments with line breaks, a set-up game
    with the cube at 2, a roll followed by a resignation, an illegal play, a score line that is off."""
    games = money_session(6).decode().split("\n(;")
    games = [games[0]] + ["(;" + g for g in games[1:]]
    games[1] = games[1].replace("GM[6]", "GM[6]EV[Late event]GC[a game\ncomment]XR[beavers][cubelimit:64]", 1)
    games[2] = games[2].replace("GM[6]", "GM[6]XT[Site:Somewhere][Odd\\:key:v]C[two\nlines]ZZ[x]", 1)
    games[3] = games[3].replace("GM[6]", "GM[6]CV[2]XR[autodoubles:3]", 1).replace(";B[62egci]", ";B[62egcj]", 1)
    games[4] = games[4].replace("[ws:4]", "[ws:3]", 1)
    games[5] = games[5].replace("GM[6]", "GM[6]XR[variant:nackgammon]", 1)
    return "".join(games)


@pytest.mark.parametrize("fmt", ["sgf", "json", "mat"])
def test_convert_streamed_keeps_what_only_later_games_say(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "late.sgf"
    path.write_text(awkward_collection(), encoding="utf-8")
    whole = read_sgf(path.read_bytes(), name=str(path))
    header, games = iter_sgf(path.read_bytes(), name=str(path))
    first = next(games)
    assert whole.games[0] == first and header.tags != whole.tags  # the header is complete only at the end
    for settings in VARIANTS:
        same_conversion(path, tmp_path, fmt, **settings)


def test_stubs_answer_the_whole_match_questions() -> None:
    """The writers' whole-match questions give the same answers for a match of stubs."""
    from notation.formats.mat_write import mat_losses as _mat_losses
    from notation.formats.mat_write import rewrites as _mat_rewrites
    from notation.formats.mat_write import roll_losses as _roll_losses
    from notation.formats.sgf_write import _crawford_games
    from notation.losses import holdings
    from notation.stream import stub_game

    for path in [*SGF_FILES, *sorted(DATA.glob("*.mat")), *sorted(DATA.glob("*.json"))]:
        for m in read_any(path):
            stubbed = m
            stubs = type(m)(**{f: getattr(m, f) for f in m.__slots__ if f != "games"},  # type: ignore[attr-defined]
                            games=[stub_game(g) for g in m.games])
            for fn in (_mat_losses, _mat_rewrites, _roll_losses,
                       holdings, _crawford_games,
                       lambda x: _mat_rewrites(x, bar="bar", off="off", hit_marks=False)):
                assert fn(stubs) == fn(stubbed), path


def test_stubs_keep_a_play_that_is_no_play() -> None:
    """A move whose play is made of a plain play's characters but is no play ('13/7 (', '99/1') is kept
    in the stubs: the .mat writer writes it as the dice alone and the report must count it, streamed or
    not (issue 26)."""
    from notation.formats.mat_write import rewrites as _mat_rewrites
    from notation.stream import stub_game

    m = read_any(DATA / "gnubg_7p_crawford.mat")[0]
    moves = [a for a in m.games[0].actions if a.kind == "move" and a.play]
    moves[0].play, moves[1].play = "13/7 (", "99/1"
    stubs = type(m)(**{f: getattr(m, f) for f in m.__slots__ if f != "games"},  # type: ignore[attr-defined]
                    games=[stub_game(g) for g in m.games])
    said = [x for x in _mat_rewrites(m) if "no play" in x]
    assert said and said[0].startswith("2 plays that are no play")
    assert _mat_rewrites(stubs) == _mat_rewrites(m)


def test_convert_streamed_fails_where_the_whole_conversion_fails(tmp_path: Path) -> None:
    path = tmp_path / "cut.sgf"
    path.write_bytes(money_session(5)[:-10])
    for fmt in ("sgf", "json", "mat"):
        whole = converted(path, tmp_path / f"w.{fmt}", fmt, False)
        streamed = converted(path, tmp_path / f"s.{fmt}", fmt, True)
        assert streamed[0]["status"] == 2 and streamed == whole and streamed[1] is None


def test_convert_streamed_writes_through_hard_links_and_batches(tmp_path: Path) -> None:
    from notation.batch import convert_files

    path = tmp_path / "m.sgf"
    path.write_bytes(money_session(4))
    expected = converted(path, tmp_path / "w.json", "json", False)[1]
    target, link = tmp_path / "t.json", tmp_path / "link.json"
    target.write_text("old")
    os.link(target, link)
    res = converted(path, target, "json", True, fresh=False, force=True)
    assert res[0]["status"] == 0 and target.read_bytes() == link.read_bytes() == expected
    outs = [tmp_path / f"b{i}.mat" for i in range(3)]
    results = convert_files([str(path)] * 3, [str(o) for o in outs], "mat", stream=True)
    assert [r["status"] for r in results] == [0, 0, 0]
    assert {o.read_bytes() for o in outs} == {converted(path, tmp_path / "w.mat", "mat", False)[1]}


def test_convert_streamed_refuses_an_existing_target_as_the_whole_conversion(tmp_path: Path) -> None:
    path = tmp_path / "m.sgf"
    path.write_bytes(money_session(2))
    (tmp_path / "there.sgf").write_text("keep")
    whole = converted(path, tmp_path / "there.sgf", "sgf", False, fresh=False)
    assert (tmp_path / "there.sgf").read_text() == "keep"
    streamed = converted(path, tmp_path / "there.sgf", "sgf", True, fresh=False)
    assert streamed == whole and whole[0]["status"] == 2
    assert (tmp_path / "there.sgf").read_text() == "keep"


def convert_peak(path: Path, target: Path, fmt: str, stream: bool) -> int:
    from notation.batch import convert_file

    target.unlink(missing_ok=True)
    gc.collect()  # the peak counts this conversion alone, whatever garbage the worker's earlier tests left
    tracemalloc.start()
    out = convert_file(str(path), str(target), fmt, stream=stream)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert out["status"] == 0, out
    return peak


@pytest.mark.parametrize("fmt", ["sgf", "json", "mat"])
def test_convert_of_an_sgf_collection_holds_one_game_not_the_file(tmp_path: Path, fmt: str) -> None:
    """At most 10x the file size (the target of issue 16, item 7), whatever the number of games; the
    whole-match conversion of the same file takes several times that (the bound can fail)."""
    warmed(tmp_path, fmt)
    ratios = []
    for n in GAMES:
        path = tmp_path / f"s{n}.sgf"
        path.write_bytes(money_session(n))
        size = path.stat().st_size
        peak = convert_peak(path, tmp_path / f"out.{fmt}", fmt, True)
        assert peak < 10 * size, (fmt, n, peak / size)
        ratios.append(peak / size)
    assert ratios[1] < ratios[0] * 1.2  # no growth with the number of games
    small = tmp_path / "s100.sgf"  # the whole match does not fit (its share of the file does not change with n)
    assert convert_peak(small, tmp_path / f"out.{fmt}", fmt, False) > 10 * small.stat().st_size


def test_convert_streams_large_sgf_files_by_itself(tmp_path: Path) -> None:
    import notation.stream as st

    path = tmp_path / "m.sgf"
    path.write_bytes(money_session(3))
    assert not st.wants_stream(str(path), "o.json", "json", None)
    assert st.wants_stream(str(path), "o.json", "json", True)
    assert not st.wants_stream(str(path), "-", "json", True) and not st.wants_stream("-", "o.json", "json", True)
    assert not st.wants_stream(str(path), "o.txt", "txt", True)
    big = tmp_path / "big.sgf"
    big.write_bytes(money_session(st.STREAM_FROM // len(money_session(1)) + 1))
    assert st.wants_stream(str(big), "o.json", "json", None)
