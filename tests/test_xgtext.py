"""XG and BGBlitz text position exports: the position comes from the ID (never the ASCII board), in
every language; names, ranked plays and cube decisions are read; the commands take files and '-'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import main
from notation.formats.xgtext import looks_like_export, parse_export
from notation.ids import parse_gnubg_id, parse_xgid, xgid
from notation.positionio import parse_position_text, read_position

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "exports"
SHARED = ROOT.parent / "shared" / "corpus" / "other"
CORPUS = sorted(SHARED.glob("*_position_export/*.txt")) if SHARED.is_dir() else []
BUNDLED = sorted(DATA.glob("*.txt"))


def _own_xgid(text: str) -> str:
    return re.search(r"XGID=\S+", text).group()  # type: ignore[union-attr]


def _check(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rec = parse_export(text, name=str(path))
    own = parse_xgid(_own_xgid(text))
    p = rec.position
    assert (p.boards, p.turn, p.dice, p.cube, p.cube_owner, p.score, p.match_length, p.crawford) == (
        own.boards, own.turn, own.dice, own.cube, own.cube_owner, own.score, own.match_length, own.crawford)
    assert xgid(p.replace(names=("", ""))) == xgid(own)
    pid = re.search(r"Position-ID:\s*(\S+)", text)
    if pid:  # BGBlitz: its gnubg Position-ID says the same board, and nothing was reported
        mid = re.search(r"Match-ID:\s*(\S+)", text).group(1)  # type: ignore[union-attr]
        assert parse_gnubg_id(f"{pid.group(1)}:{mid}").boards == p.boards
        assert rec.format == "bgblitz-text" and rec.normalisations == []
    else:
        assert rec.format == "xg-text"
    assert rec.names is not None and all(rec.names) and not any(re.search(r"\d+$", n) for n in rec.names
                                                                if "2" not in n and "1" not in n)
    assert rec.analysis is not None
    a = rec.analysis
    if "checker" in path.name:
        assert a.checker is not None and len(a.checker.candidates) == 5
        assert a.checker.candidates[0].play == "19/18 14/12"
        eqs = [c.equity for c in a.checker.candidates]
        assert all(e is not None for e in eqs)
    else:
        assert a.cube is not None and a.cube.no_double is not None and a.cube.double_take is not None
        assert a.cube.double_pass == 1.0 and a.cube.verdict and "/" in a.cube.verdict


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_exports(path: Path) -> None:
    _check(path)


def test_all_56_corpus_exports() -> None:
    if not CORPUS:
        pytest.skip("../shared/corpus/other is not available")
    assert len(CORPUS) == 56
    for path in CORPUS:
        _check(path)


def test_values_as_written() -> None:
    rec = parse_export((DATA / "xg_01_checker_EN.txt").read_text(encoding="utf-8"))
    c = rec.analysis.checker.candidates  # type: ignore[union-attr]
    assert (c[1].play, c[1].equity, c[1].level) == ("19/18 3/1", -0.556, "4-ply")
    assert c[0].probabilities is not None and c[0].probabilities.win == pytest.approx(0.2545)
    bb = parse_export((DATA / "bgblitz_01_checker_DE.txt").read_text(encoding="utf-8"))
    assert bb.names == ("Grün", "Rot")  # no pip count glued on
    assert bb.analysis.checker.candidates[0].equity == -0.492  # type: ignore[union-attr]
    jp = parse_export((DATA / "xg_03_DT_JP.txt").read_text(encoding="utf-8"))
    cube = jp.analysis.cube  # type: ignore[union-attr]
    assert (cube.no_double, cube.double_take, cube.double_pass, cube.verdict) == (0.58, 0.689, 1.0, "ダブル / テイク")
    assert jp.position.match_length == 9 and jp.position.score == (4, 2)


def test_a_disagreeing_position_id_is_reported() -> None:
    text = (DATA / "bgblitz_04_DP_EN.txt").read_text(encoding="utf-8")
    pid = re.search(r"Position-ID:\s*(\S+)", text).group(1)  # type: ignore[union-attr]
    other = "4HPwATDgc/ABMA"
    assert pid != other
    rec = parse_export(text.replace(pid, other))
    assert any("says another position" in n.message for n in rec.normalisations)
    assert xgid(rec.position.replace(names=("", ""))) == xgid(parse_xgid(_own_xgid(text)))


def test_a_list_of_ids_is_not_an_export() -> None:
    ids = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10\nXGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10\n"
    assert not looks_like_export(ids)
    assert parse_position_text(ids.splitlines()[0]).format == "xgid"


def test_show_and_moves_take_files_and_stdin() -> None:
    path = DATA / "xg_03_DT_JP.txt"
    r = CliRunner().invoke(main, ["show", str(path)])
    assert r.exit_code == 0, r.output
    assert "9-point match, score O 4 - X 2" in r.output and "Format:      xg-text" in r.output
    assert "Cube:" in r.output and "double/take +0.689" in r.output
    r = CliRunner().invoke(main, ["show", "-"], input=path.read_bytes())
    assert r.exit_code == 0 and "9-point match, score O 4 - X 2" in r.output
    r = CliRunner().invoke(main, ["show", "--json", str(DATA / "bgblitz_01_checker_DE.txt")])
    import json

    info = json.loads(r.stdout)
    assert info["names"] == ["Grün", "Rot"] and len(info["analysis"]["checker"]["candidates"]) == 5
    r = CliRunner().invoke(main, ["moves", str(DATA / "xg_01_checker_EN.txt")])
    assert r.exit_code == 0 and r.output.startswith("Roll 21: 47 legal plays")
    r = CliRunner().invoke(main, ["moves", "-"], input=(DATA / "bgblitz_01_checker_DE.txt").read_bytes())
    assert r.exit_code == 0 and "Roll 21: 47 legal plays" in r.output


def test_missing_and_empty_position_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_position(tmp_path / "nope.txt")
    (tmp_path / "empty.txt").write_text("")
    r = CliRunner().invoke(main, ["show", str(tmp_path / "empty.txt")])
    assert r.exit_code == 2 and "empty file" in r.stderr
