"""An SVG draws its text as outlines, so a reader who cannot see it has only its ``<title>`` and
``<desc>``: they carry the caption and the position in words (the game, who is on roll and what is asked,
where every checker stands, the cube, the dice, the plays drawn), and the XGID."""

from __future__ import annotations

import re
import xml.dom.minidom
from pathlib import Path

from click.testing import CliRunner
from conftest import DATA

import render
from notation.cli import main
from notation.ids import parse_xgid
from notation.position import Position

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:0:0:7:10"


def _title_desc(svg: str) -> tuple[str, str]:
    doc = xml.dom.minidom.parseString(svg.encode("utf-8"))
    title = doc.getElementsByTagName("title")[0].firstChild.data  # type: ignore[union-attr]
    desc = doc.getElementsByTagName("desc")[0].firstChild.data  # type: ignore[union-attr]
    return title, desc


def _boards_from(desc: str) -> dict[str, dict[int, int]]:
    """Each colour's checkers as the description says them: point (25 the bar, 0 borne off) -> count."""
    out: dict[str, dict[int, int]] = {}
    for line in desc.splitlines():
        m = re.match(r"(White|Black)( \(.*?\))?: (.*)\.$", line)
        if not m:
            continue
        where: dict[int, int] = {}
        for part in m.group(3).split(", "):
            if (p := re.fullmatch(r"(\d+) on the (\d+)-point", part)):
                where[int(p.group(2))] = int(p.group(1))
            elif (p := re.fullmatch(r"(\d+) on the bar", part)):
                where[25] = int(p.group(1))
            elif (p := re.fullmatch(r"(\d+) borne off", part)):
                where[0] = int(p.group(1))
        out[m.group(1)] = where
    return out


def test_the_description_says_where_every_checker_stands() -> None:
    pos = parse_xgid("XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:4:3:0:7:10")
    _, desc = _title_desc(str(render.svg(pos)))
    said = _boards_from(desc)
    for player, colour in enumerate(("White", "Black")):
        board = pos.boards[player]
        assert said[colour] == {p: board[p] for p in range(26) if board[p]}, colour
    assert f"pips {pos.pips(0)}." in desc and f"pips {pos.pips(1)}." in desc
    assert "Cube 2, owned by" in desc and "Dice 6-3." in desc
    assert desc.splitlines()[-1].startswith("XGID=")


def test_the_caption_is_the_title_and_leads_the_description() -> None:
    pos = parse_xgid(XGID)
    title, desc = _title_desc(str(render.svg(pos, caption="Figure 4 & <more>", play="13/8 13/11")))
    assert title == "Figure 4 & <more>"
    lines = desc.splitlines()
    assert lines[0] == "Figure 4 & <more>"
    assert lines[1] == "Match to 7, Black leads 3-0. Black to play 52. Pips: Black 167, White 167."
    assert "Arrows: 13/8 13/11." in lines
    title, desc = _title_desc(str(render.svg(pos, caption="Figure 4", heading="Chapter 2")))
    assert title == "Chapter 2" and desc.startswith("Figure 4\n")
    title, desc = _title_desc(str(render.svg(pos)))  # nothing names it: a title is made, the caption is the book's
    assert title == "Backgammon position, Black to play 5-2"
    assert desc.startswith("Match to 7, Black leads 3-0. Black to play 52.")


def test_names_shown_are_named() -> None:
    pos = Position.initial(dice=(3, 1))
    _, desc = _title_desc(str(render.svg(pos, names=("Ann", "Ben"))))
    assert "White (Ann): 2 on the 24-point" in desc and "Money game. Ann to play 31." in desc


def test_a_double_pass_export_says_its_decision(tmp_path: Path) -> None:
    """The issue's example: a double/pass export's SVG said only 'Backgammon position, Black on roll'."""
    out = tmp_path / "dp.svg"
    r = CliRunner().invoke(main, ["render", str(DATA / "exports" / "bgblitz_04_DP_EN.txt"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    title, desc = _title_desc(out.read_text(encoding="utf-8"))
    assert title.startswith("Double / Reject. No double +0.767")
    assert desc.startswith(title + "\n")
    assert "Match to 7, Green leads 2-0. Red on roll. Cube action?" in desc
    assert "Black (Red): 1 on the bar" in desc


def test_an_offered_cube_is_said() -> None:
    pos = Position.initial(match_length=5, score=(1, 3), turn=1, double_offered=True)
    _, desc = _title_desc(str(render.svg(pos)))
    assert "Black doubles. Take or pass?" in desc and "Cube offered at 2." in desc
