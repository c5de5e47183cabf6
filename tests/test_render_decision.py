"""Diagrams that say the decision: a cube decision's caption (the verdict and the three equities, as
``gammon show`` prints them), the side on roll marked, the score by default when the source has one,
and names in a script no shipped font has drawn as the program's Latin default, or a font named to add."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import render
from notation.analysis import CubeAnalysis
from notation.cli import main
from notation.matchio import read_any
from notation.position import GAME_OVER, Position
from notation.positionio import read_position
from render.captions import cube_caption, english_verdict, latin_name
from render.display import Drawing, Glyphs, Group, Polygon
from render.themes import PRINT

DATA = Path(__file__).resolve().parent / "data"
EXPORTS = DATA / "exports"
CJK_FONT = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")

CAPTIONS = {
    "xg_02_NDT_FR": "Pas de double / Prend. No double +0.337, double/take +0.215, double/pass +1.000.",
    "xg_03_DT_JP": "Double / Take. No double +0.580, double/take +0.689, double/pass +1.000.",  # ダブル / テイク
    "bgblitz_04_DP_EN": "Double / Reject. No double +0.767, double/take +1.287, double/pass +1.000.",
    # リダブル / 降りる
    "bgblitz_07_RP_JP": "Redouble / Pass. No double +0.969, double/take +1.680, double/pass +1.000.",
}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["render", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def pixels(data: bytes) -> bytes:
    return Image.open(io.BytesIO(data)).tobytes()


def items(d: Drawing) -> list[object]:
    out: list[object] = []

    def walk(g: Group) -> None:
        for it in g.items:
            walk(it) if isinstance(it, Group) else out.append(it)

    walk(d.root)
    return out


def texts(d: Drawing) -> str:
    """The drawing's texts, without their spaces (spaces are not drawn)."""
    return " | ".join("".join(c for c, _, _ in it.chars) for it in items(d) if isinstance(it, Glyphs))


@pytest.mark.parametrize("name", sorted(CAPTIONS))
def test_cube_caption_of_each_export(name: str) -> None:
    """The producer's verdict (in English where it is in a script no font in use has) and the equities
    as `gammon show` prints them."""
    rec = read_position(EXPORTS / f"{name}.txt")
    assert rec.analysis is not None and rec.analysis.cube is not None
    assert cube_caption(rec.analysis.cube, rec.position) == CAPTIONS[name]


def test_english_verdicts() -> None:
    def v(nd: float, dt: float, dp: float, owned: bool = False) -> str | None:
        pos = Position(cube=2, cube_owner=0) if owned else Position()
        return english_verdict(CubeAnalysis(nd, dt, dp), pos)

    assert v(0.3, 0.2, 1.0) == "No double / Take"
    assert v(0.5, 0.6, 1.0) == "Double / Take"
    assert v(0.8, 1.2, 1.0) == "Double / Pass"
    assert v(1.2, 1.5, 1.0) == "Too good to double / Pass"
    assert v(0.5, 0.6, 1.0, owned=True) == "Redouble / Take"
    assert v(0.3, 0.2, 1.0, owned=True) == "No redouble / Take"
    assert english_verdict(CubeAnalysis(0.3, None, 1.0)) is None
    assert cube_caption(CubeAnalysis(0.3, None, 1.0)) == "No double +0.300, double/take ?, double/pass +1.000."


def test_default_names_in_a_script_without_a_font_are_drawn_in_latin() -> None:
    assert latin_name("プレーヤー 1") == "Player 1" and latin_name("プレーヤー 2") == "Player 2"
    assert latin_name("緑") == "Green" and latin_name("赤") == "Red"
    assert latin_name("山田") == "山田" and latin_name("Joueur 1") == "Joueur 1"
    from render import _font

    _font.MISSING.clear()
    d = render.drawing(Position(names=("プレーヤー 2", "プレーヤー 1")), names=True)
    assert "Player2" in texts(d) and "Player1" in texts(d) and not _font.MISSING


def turn_marks(d: Drawing) -> list[Polygon]:
    """Triangles of a checker's colours half a checker tall (the points are five)."""
    return [it for it in items(d) if isinstance(it, Polygon) and len(it.points) == 3 and it.fill in PRINT.checker
            and abs(max(y for _, y in it.points) - min(y for _, y in it.points) - 18) < 0.1]


def test_the_side_on_roll_is_marked() -> None:
    pos = Position(turn=1, match_length=9, score=(4, 2))
    assert turn_marks(render.drawing(pos)) == []  # not asked
    d = render.drawing(pos, on_roll=True, names=True)
    (mark,) = turn_marks(d)
    assert mark.fill == PRINT.checker[1]
    (tip,) = [p for p in mark.points if p[0] == sum(q[0] for q in mark.points) / 3]
    assert tip[1] > max(p[1] for p in mark.points if p is not tip) - 1  # Black sits at the bottom: pointing down
    assert "Black(onroll)" in texts(d)
    top = render.drawing(pos, on_roll=True, bottom="white")
    (mark,) = turn_marks(top)
    assert min(p[1] for p in mark.points) == mark.points[2][1]  # Black at the top: pointing up
    # nothing to mark where the dice, an offered cube or the end of the game say it
    assert turn_marks(render.drawing(pos.replace(dice=(3, 1)), on_roll=True)) == []
    assert turn_marks(render.drawing(pos.replace(double_offered=True), on_roll=True)) == []
    assert turn_marks(render.drawing(pos.replace(game_state=GAME_OVER), on_roll=True)) == []


@pytest.mark.parametrize("name", sorted(CAPTIONS))
def test_render_an_export_says_the_decision(tmp_path: Path, name: str) -> None:
    """`gammon render EXPORT`: the caption, the names (XG's and BGBlitz's Japanese defaults in Latin:
    no '?' and no warning), the score of the match by default, the side on roll marked."""
    rec = read_position(EXPORTS / f"{name}.txt")
    out = tmp_path / "x.png"
    code, _, err = run(str(EXPORTS / f"{name}.txt"), "-o", str(out))
    assert code == 0 and err == "", err
    pos = rec.position.replace(names=rec.names)
    assert pos.match_length > 0
    expected = render.png(pos, names=True, score=True, on_roll=True, caption=CAPTIONS[name])
    assert pixels(out.read_bytes()) == pixels(expected)


def test_render_a_double_in_a_match_says_the_decision(tmp_path: Path) -> None:
    """An .xg match's double (its analysis has no verdict in words: the equities say it)."""
    from render.captions import step_caption

    match = DATA / "xg_ronde3.xg"
    out = tmp_path / "d.png"
    code, _, err = run(str(match), "--at", "51", "-o", str(out))  # game 1: the double of move 13 (its .mat row)
    assert code == 0, err
    from notation.replay import replay_match

    step = next(s for s in replay_match(read_any(str(match))[0]).games[0].steps if s.action.kind == "double")
    cap = step_caption(step, 1, "13-2")
    assert cap.endswith("doubles to 2. Double / Take. No double +0.691, double/take +0.721, double/pass +1.000.")
    expected = render.png(step.before, names=True, pips=True, score=True, on_roll=True, caption=cap)
    assert pixels(out.read_bytes()) == pixels(expected)
    code, _, err = run(str(match), "--at", "51", "--candidate", "1", "-o", str(tmp_path / "c.png"))
    assert code == 0, err
    assert pixels((tmp_path / "c.png").read_bytes()) == pixels(out.read_bytes())


def test_a_name_no_font_has_names_a_font_to_add(tmp_path: Path) -> None:
    code, _, err = run(str(EXPORTS / "xg_01_checker_EN.txt"), "--names", "山田,Ben", "-o", str(tmp_path / "n.png"))
    assert code == 0
    assert "'山' (U+5C71)" in err and "--font" in err
    assert (str(CJK_FONT) in err) if CJK_FONT.is_file() else ("DroidSansFallbackFull.ttf" in err)


@pytest.mark.skipif(not CJK_FONT.is_file(), reason="no Droid Sans Fallback here (Debian: fonts-droid-fallback)")
def test_with_a_font_the_producers_words_are_drawn() -> None:
    script = (f"import render\nrender.add_font({str(CJK_FONT)!r})\nfrom notation.positionio import read_position\n"
              "from render.captions import cube_caption, latin_name\n"
              f"r = read_position({str(EXPORTS / 'xg_03_DT_JP.txt')!r})\n"
              "print(cube_caption(r.analysis.cube, r.position))\nprint(latin_name('プレーヤー 1'))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    assert out.splitlines() == ["ダブル / テイク. No double +0.580, double/take +0.689, double/pass +1.000.",
                                "プレーヤー 1"]
