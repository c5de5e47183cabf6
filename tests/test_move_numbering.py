"""One move numbering: "game G, move M" is the row of the ``.mat`` transcript our writer writes for the
record (``M-2`` the second action of a row), whatever the format read: ``validate``'s findings, the
JSON ``move_number``, the page's ``#gGmM`` links, ``render --game --move`` and the dataset.  The same
match held as an ``.xg``, as XG's own ``.mat`` export (or gnubg's) and as gnubg's SGF gives the same
position at the same game and move."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import CORPUS, DATA

import notation
from notation.convert import render_match
from notation.ids import xgid
from notation.navigate import step_labels
from notation.replay import replay_match
from notation.rows import mat_rows

SAME_MATCH = [
    (DATA / "xg_ronde3.xg", CORPUS / "mat" / "xg_aachen-2024_consultation_huyck-larsen_vs_unger-harmand.txt"),
    (DATA / "xg_hsbt-paris-2023_job-unger.xg", CORPUS / "mat" / "xg_hsbt-paris-2023_job-unger.mat",
     CORPUS / "sgf" / "gnubg_hsbt-paris-2023_job-unger.sgf"),
    (DATA / "xg_charlot1-charlot2_7p_2305.xg", CORPUS / "mat" / "gnubg_charlot1-charlot2_7p_2305.mat",
     CORPUS / "sgf" / "gnubg_charlot1-charlot2_7p_2305.sgf"),
]
"""The same matches in several formats: our .xg, XG's own .mat export (ronde3, hsbt) or gnubg's .mat
(charlot), and gnubg's SGF."""

Label = tuple[int, str]


def positions(path: Path) -> dict[Label, tuple[str, str, int]]:
    """(game, move label) → (XGID of the position before the action, its kind, its player)."""
    rep = replay_match(notation.read_match(path))
    out = {}
    for g in rep.games:
        for label, st in zip(step_labels(g.steps), g.steps, strict=True):
            out[(g.game.number, label)] = (xgid(st.before), st.action.kind, st.action.player)
    return out


@pytest.mark.parametrize("paths", SAME_MATCH, ids=lambda p: p[0].name)
def test_the_same_game_and_move_is_the_same_position_in_every_format(paths: tuple[Path, ...]) -> None:
    if not all(p.exists() for p in paths):
        pytest.skip("../shared/corpus is not available")
    views = [positions(p) for p in paths]
    base = views[0]
    for path, view in zip(paths[1:], views[1:], strict=True):
        common = set(base) & set(view)
        assert all(base[k] == view[k] for k in common), [(k, base[k], view[k]) for k in sorted(common)
                                                          if base[k] != view[k]][:3]
        # every play and cube action is numbered alike; only how a game ends may differ (a resignation
        # XG writes, a .mat implies)
        for v in (base, view):
            odd = [k for k in set(v) - common if v[k][1] not in ("resign", "accept", "win")]
            assert not odd, (path.name, sorted(odd)[:5])
        assert len(common) > 150


def test_an_xg_converted_to_mat_keeps_its_numbers() -> None:
    """Our .mat conversion numbers its rows as the .xg reading numbers its moves (one layout:
    notation.rows, which the writer writes with)."""
    for path in sorted(DATA.glob("*.xg")):
        m = notation.read_match(path)
        text, _ = render_match(m, "mat")
        back = notation.parse_match(text)
        for g, h in zip(m.games, back.games, strict=True):
            kinds = ("move", "roll", "double")  # a roll before a resignation reads back as an empty move
            ours = [(a.move_number, a.player, a.dice) for a in g.actions if a.kind in kinds]
            theirs = [(a.move_number, a.player, a.dice) for a in h.actions if a.kind in kinds]
            assert ours == theirs, (path.name, g.number)


def test_rows_as_the_writer_lays_them_out() -> None:
    """mat_rows of every corpus .mat game gives the numbers the file writes (our reader's)."""
    files = [DATA / "sgf_gnubg_selfplay.mat", DATA / "gnubg_7p_crawford.mat", DATA / "render_match_7p.mat"]
    n = 0
    for path in files:
        for g in notation.read_match(path).games:
            first = g.actions[0].move_number or 1
            for number, left, right, win in mat_rows(g.actions, first):
                for a in (left, right):
                    if a is not None:
                        assert a.move_number == number, (path.name, g.number, a.text)
                        n += 1
                if win is not None and number is not None and win.player == 1:
                    assert win.move_number == number
    assert n > 300


def test_json_page_and_dataset_number_an_xg_as_its_mat() -> None:
    from notation.batch import decision_rows
    from render.html import match_page

    xg = DATA / "xg_hsbt-paris-2023_job-unger.xg"
    mat = CORPUS / "mat" / "xg_hsbt-paris-2023_job-unger.mat"
    if not mat.exists():
        pytest.skip("../shared/corpus is not available")
    # JSON: the move numbers of every play
    doc = json.loads(render_match(notation.read_match(xg), "json")[0])
    plays = [(gi, a["player"], a["move_number"]) for gi, g in enumerate(doc["match"]["games"])
             for a in g["actions"] if a["kind"] == "move"]
    ref = [(gi, a.player, a.move_number) for gi, g in enumerate(notation.read_match(mat).games)
           for a in g.actions if a.kind == "move"]
    assert plays == ref
    # the page: each #gGmM link shows the same position (its XGID) in both pages

    def anchored(path: Path) -> dict[str, str]:
        data = re.search(r"<script type=application/json id=data>(.*?)</script>", match_page(
            notation.read_match(path))).group(1)  # type: ignore[union-attr]
        d = json.loads(data)
        return {a: s[3] for a, s in zip(d["anchors"], d["steps"], strict=True) if re.fullmatch(r"g\d+m\d+(-2)?", a)}

    a, b = anchored(xg), anchored(mat)
    common = set(a) & set(b)
    assert len(common) > 300 and all(a[k] == b[k] for k in common)
    # the dataset: the move column
    rx, rm = decision_rows(str(xg))["columns"], decision_rows(str(mat))["columns"]
    moves_x = [(g, mv, p) for g, mv, p, k in zip(rx["game"], rx["move"], rx["player"], rx["kind"], strict=True)
               if k == "move"]
    moves_m = [(g, mv, p) for g, mv, p, k in zip(rm["game"], rm["move"], rm["player"], rm["kind"], strict=True)
               if k == "move"]
    assert moves_x == moves_m


def test_validate_names_the_same_move_in_every_format(tmp_path: Path) -> None:
    """An illegal play planted in the .xg's .mat conversion and in its SGF conversion: validate names
    the same game and move for both."""
    m = notation.read_match(DATA / "xg_hsbt-paris-2023_job-unger.xg")
    g = m.games[1]
    target = next(a for a in g.actions if a.kind == "move" and a.move_number == 9 and a.player == 1)
    target.play = "24/13"  # not a legal 4-1
    out = []
    for fmt in ("mat", "sgf", "json", "ogxm"):
        text, _ = render_match(m, fmt)
        rep = replay_match(notation.parse_match(text))
        errors = [(f.game, f.move) for f in rep.findings if f.severity == "error"]
        out.append(errors[:1])
    assert out == [[(2, 9)]] * 4, out


def test_an_xg_converted_to_ogxm_keeps_its_numbers() -> None:
    """OGXM numbers a game's plies, not its rows: the reader numbers each action by the row the .mat writer
    puts it in (notation.rows), as the .xg reader does, so every action of our OGXM of an .xg has the .xg's
    (game, move, player) and kind (it gave the count of rolls: 'game 7 move 26' for the .xg's 'move 14')."""
    for path in sorted(DATA.glob("*.xg")):
        m = notation.read_match(path)
        back = notation.parse_match(render_match(m, "ogxm")[0])
        for g, h in zip(m.games, back.games, strict=True):
            kinds = ("move", "roll", "double", "take", "drop")
            ours = [(a.move_number, a.player, a.kind, a.dice) for a in g.actions if a.kind in kinds]
            theirs = [(a.move_number, a.player, a.kind, a.dice) for a in h.actions if a.kind in kinds]
            assert ours == theirs, (path.name, g.number)
