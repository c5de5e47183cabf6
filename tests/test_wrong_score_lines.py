"""Score lines the games do not give.  A negative score in a record (an ``.xg`` game record can hold one;
SGF ``MI[ws:-1]``) is read as written, flagged by the replay, kept by the formats that can say it and
refused by ``.mat``, whose score line holds digits only.  (A random run of tests/test_extreme_values.py
found the ``.mat`` writer writing ``: -1``, which no reader takes, the JSON reader refusing what its
writer wrote, and the SGF reader reading ``ws:-1`` as 0 without a word.)  A score line that disagrees
with the games before it is kept by every format that has score lines; OGXM derives each game's
score (and numbers the games, and finds the Crawford game), so converting to it says what it leaves out."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.batch import convert_file, validate_file
from notation.errors import NotationError
from notation.formats.mat import write_match
from notation.matchio import parse_any, read_match

DATA = Path(__file__).resolve().parent / "data"


def _with_second_score(score: str) -> str:
    """gnubg's two-game SGF with its second game's MI saying ``score`` for White (``ws``)."""
    text = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")
    first = text.index("[ws:0]")
    second = text.index("[ws:", first + 1)
    end = text.index("]", second)
    return text[:second] + f"[ws:{score}" + text[end:]


def test_the_sgf_reader_reads_a_negative_score_as_written() -> None:
    m = parse_any(_with_second_score("-1"), name="neg.sgf")[0]
    assert m.games[1].score is not None and m.games[1].score[0] == -1


def test_the_replay_flags_it(tmp_path: Path) -> None:
    path = tmp_path / "neg.sgf"
    path.write_text(_with_second_score("-1"), encoding="utf-8")
    res = validate_file(str(path))
    assert any(f["severity"] == "error" and "the score line says -1-" in f["message"] for f in res["findings"])


@pytest.mark.parametrize("field", ["length", "game"])
def test_a_negative_length_or_game_number_is_read_as_0_and_said(field: str) -> None:
    text = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")
    start = text.index(f"[{field}:")
    text = text[:start] + f"[{field}:-3" + text[text.index("]", start):]
    m = parse_any(text, name="neg.sgf")[0]
    assert any(f"MI[{field}:-3]: a negative {field}, read as 0" in n.message for n in m.normalisations)


def test_the_mat_writer_refuses_it_and_the_others_keep_it(tmp_path: Path) -> None:
    m = parse_any(_with_second_score("-1"), name="neg.sgf")[0]
    with pytest.raises(NotationError, match=r"game 2: the score -1-\d+ is negative: a \.mat score line cannot say it"):
        write_match(m)
    path = tmp_path / "neg.sgf"
    path.write_text(_with_second_score("-1"), encoding="utf-8")
    out = convert_file(str(path), "-", "mat")
    assert out["status"] == 2 and any("not converted: game 2: the score -1-" in x for x in out["messages"])
    for fmt in ("sgf", "json"):
        out = convert_file(str(path), "-", fmt)
        assert out["status"] == 0, out["messages"]
        again = parse_any(out["text"], name=f"again.{fmt}")[0]
        assert again.games[1].score == m.games[1].score


def test_a_mat_file_reads_back_what_its_writer_wrote() -> None:
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    assert parse_any(write_match(m), name="x.mat")[0].games[1].score == m.games[1].score


def test_ogxm_says_it_leaves_out_a_score_line_the_games_do_not_give(tmp_path: Path) -> None:
    sample = DATA.parent.parent / "samples" / "illegal_plays.mat"
    assert read_match(sample).games[1].score == (0, 2)  # the games give 0-4: validate's error
    out = convert_file(str(sample), str(tmp_path / "m.ogxm"), "ogxm")
    assert out["status"] == 0
    assert any(m.endswith("dropped: game 2: the score line 0-2, which the games before it do not give (0-4): OGXM "
                          "derives each game's score") for m in out["messages"]), out["messages"]
    assert read_match(tmp_path / "m.ogxm").games[1].score == (0, 4)


def test_ogxm_says_it_leaves_out_a_game_number_or_crawford_mark_it_derives_otherwise(tmp_path: Path) -> None:
    """The same for a game's number and its Crawford mark, which OGXM derives too."""
    import json

    from notation.formats.json_format import to_json

    d = json.loads(to_json(read_match(DATA.parent.parent / "samples" / "illegal_plays.mat")))
    games = d["match"]["games"]
    games[0]["crawford"] = True  # at 0-0 of a 7-point match: not the Crawford game (validate's error)
    games[2]["number"] = 7
    src = tmp_path / "m.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    out = convert_file(str(src), str(tmp_path / "m.ogxm"), "ogxm")
    assert out["status"] == 0
    said = [m.split(": dropped: ", 1)[1] for m in out["messages"] if ": dropped: " in m]
    assert "game 1: marked the Crawford game, which the score does not make it: OGXM derives the Crawford game" in said
    assert "game 7: its number: OGXM numbers the games in order (read back as game 3)" in said
    back = read_match(tmp_path / "m.ogxm")
    assert [g.number for g in back.games] == [1, 2, 3] and back.games[0].crawford is not True


def test_ogxm_says_it_leaves_out_names_and_ratings_written_for_one_game(tmp_path: Path) -> None:
    """A game's own names and the ratings on its score line (FIBS-era transcripts: ``nori,1749``)."""
    import json

    from notation.formats.json_format import to_json

    d = json.loads(to_json(read_match(DATA.parent.parent / "samples" / "illegal_plays.mat")))
    games = d["match"]["games"]
    games[1]["names"] = ["Someone Else", "root"]
    games[1]["ratings"] = ["1500", None]
    src = tmp_path / "m.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    out = convert_file(str(src), str(tmp_path / "m.ogxm"), "ogxm")
    said = [m.split(": dropped: ", 1)[1] for m in out["messages"] if ": dropped: " in m]
    assert ("game 2: the names written for it (Someone Else, root): OGXM names the players once, for the match "
            "(gnubg, root)") in said
    assert ("the ratings written on the score lines of 1 game: OGXM holds a player's rating only with its rating "
            "system, which they do not name") in said


@pytest.mark.parametrize("stream", [False, True])
def test_mat_says_it_leaves_out_a_crawford_mark_the_score_does_not_make(tmp_path: Path, stream: bool) -> None:
    """.mat marks no Crawford game (a reader finds it from the score): a mark the score does not make is
    reported, whole and one game at a time; a mark the score makes is not (nothing is lost)."""
    import json

    from notation.formats.json_format import to_json

    d = json.loads(to_json(read_match(DATA.parent.parent / "samples" / "illegal_plays.mat")))
    d["match"]["games"][0]["crawford"] = True  # at 0-0 of a 7-point match
    d["match"]["games"][1]["crawford"] = False  # as the score makes it
    src = tmp_path / "m.json"
    src.write_text(json.dumps(d), encoding="utf-8")
    sgf = tmp_path / "m.sgf"
    assert convert_file(str(src), str(sgf), "sgf")["status"] == 0  # SGF keeps the marks (RU[...:CrawfordGame])
    assert read_match(sgf).games[0].crawford is True
    out = convert_file(str(sgf), str(tmp_path / "m.mat"), "mat", stream=stream)
    said = [m.split(": dropped: ", 1)[1] for m in out["messages"] if ": dropped: " in m]
    assert [m for m in said if "Crawford" in m] == [
        "game 1: marked the Crawford game, which the score does not make it: .mat marks none (a reader finds the "
        "Crawford game from the score)"]


def test_mat_crawford_marks_come_from_the_replay_already_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The findings-only replay ``convert`` makes for ``.mat`` keeps each game's Crawford flag
    (``MatchReplay.crawford``): the writer's report reads it there, and does not replay the match again."""
    from notation.batch import _findings
    from notation.convert import render_match

    match = read_match(DATA.parent.parent / "samples" / "illegal_plays.mat")
    match.games[0].crawford = True  # at 0-0 of a 7-point match
    rep = _findings(match)[0]
    assert len(rep.games) == 0 and len(rep.crawford) == len(match.games)

    def no_replay(*_a: object, **_k: object) -> None:
        raise AssertionError("replayed again")

    from notation.replay import Replayer

    monkeypatch.setattr(Replayer, "feed", no_replay)
    _text, dropped = render_match(match, "mat", rep=rep)
    assert [m for m in dropped if "Crawford" in m] == [
        "game 1: marked the Crawford game, which the score does not make it: .mat marks none (a reader finds the "
        "Crawford game from the score)"]
