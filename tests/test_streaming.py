"""Records read and replayed one game at a time: :func:`notation.formats.sgf.iter_sgf` gives the games
:func:`read_sgf` gives, :class:`notation.replay.Replayer` the findings :func:`replay` gives, and
``gammon validate`` of an SGF collection holds one game, not the file (issue 16, item 7)."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
from conftest import CORPUS, DATA, ROOT

from notation.batch import validate_file
from notation.errors import ParseError
from notation.formats.sgf import iter_sgf, read_sgf
from notation.matchio import read_any
from notation.replay import Replayer, replay

SGF_FILES = sorted(DATA.glob("*.sgf")) + sorted(CORPUS.glob("**/*.sgf"))
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
        whole = replay(match)
        r = Replayer(match, keep=False)
        fed = [r.feed(g) for g in match.games]
        streamed = r.finish()
        assert streamed.findings == whole.findings
        assert streamed.games == []
        assert (r.games, r.plays) == (len(whole.games), whole.plays)
        assert [(g.winner, g.points, g.crawford, len(g.steps)) for g in fed] == [
            (g.winner, g.points, g.crawford, len(g.steps)) for g in whole.games]


def test_validate_of_an_sgf_collection_holds_one_game_not_the_file(tmp_path: Path) -> None:
    peaks = []
    for n in (150, 600):
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
    rep = replay(match)
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
    expected = [f.format() for f in replay(match).findings if f.severity != "note"]
    assert expected and [m for m in out["messages"] if "dropped" not in m] == expected
