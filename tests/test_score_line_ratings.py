"""Issue 35, item 6: the ratings a FIBS score line gives (``zoonk,1666 : 0``) are kept by the text record
and the page, each beside its player's name in the game it was written for; nothing about them is
dropped (``--strict`` writes both)."""

from __future__ import annotations

import re

from conftest import DATA

import notation
from notation.batch import convert_file

SOURCE = DATA / "mat_fibs_ratings_4games.txt"


def _page(match: notation.Match, rep: object, written: object) -> str:
    from render.html import match_page

    return match_page(match, rep, written=written)  # type: ignore[arg-type]


def _rated(m: notation.Match) -> list[tuple[int, str, str]]:
    out = []
    for gi, g in enumerate(m.games):
        names = g.names or m.names
        out += [(gi, names[side], r) for side, r in enumerate(g.ratings) if r]
    return out


def test_the_text_record_keeps_each_game_s_ratings() -> None:
    m = notation.read_match(SOURCE)
    rated = _rated(m)
    assert len(rated) == 8, rated  # 4 games, 2 players (the test can fail)
    r = convert_file(str(SOURCE), "-", "txt", strict=True)
    assert r["status"] == 0, r["messages"]
    games = re.split(r"^Game \d+$", r["text"], flags=re.M)[1:]
    assert len(games) == len(m.games)
    for gi, name, rating in rated:
        score_line = games[gi].strip().splitlines()[0]
        assert f"{name} (rated {rating})" in score_line, (gi, score_line)


def test_the_page_keeps_each_game_s_ratings() -> None:
    m = notation.read_match(SOURCE)
    r = convert_file(str(SOURCE), "-", "html", strict=True, page=_page)
    assert r["status"] == 0, r["messages"]
    headers = re.findall(r"<tr class=gh><th colspan=3>(.*?)</th></tr>", r["text"])
    assert len(headers) == len(m.games)
    for gi, name, rating in _rated(m):
        assert f"{name} rated {rating}" in headers[gi], (gi, headers[gi])
