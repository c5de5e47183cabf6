"""A record that sets up a position that cannot exist (SGF ``AW[a:y]``: 40 white checkers): validate says
so, and the commands that draw positions draw every other one and name the one they cannot draw,
never an internal error.  (Found by a random run of tests/test_extreme_values.py: the match page was
an internal error.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.batch import convert_file, validate_file
from notation.cli import main

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def impossible(tmp_path: Path) -> Path:
    """gnubg's SGF with white stones added on every point at its second node (line 2, column 1)."""
    text = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")
    i = [m.end() for m in re.finditer(";", text)][1]
    path = tmp_path / "impossible.sgf"
    path.write_text(text[:i] + "AW[a:y]" + text[i:], encoding="utf-8")
    return path


def test_validate_says_the_position_is_impossible(impossible: Path) -> None:
    res = validate_file(str(impossible))
    assert any("the position set here is impossible" in f["message"] for f in res["findings"])


def test_the_match_page_draws_the_others_and_says_which_is_not_drawn(impossible: Path) -> None:
    from render.html import match_page

    out = convert_file(str(impossible), "-", "html", page=match_page)
    assert out["status"] == 0, out["messages"]
    assert not [m for m in out["messages"] if "internal error" in m]
    page = out["text"]
    assert page.count("(a position that cannot exist: not drawn)") >= 1
    steps = __import__("json").loads(re.search(r'<script type=application/json id=data>(.*?)</script>', page,
                                               re.S).group(1).replace("\\u003c", "<").replace("\\u003e", ">")
                                     .replace("\\u0026", "&"))["steps"]
    drawn = [s for s in steps if "not drawn" not in s[4]]
    assert drawn and all(s[2] for s in drawn)  # every other position has its checkers
    assert all(s[2] == "" for s in steps if "not drawn" in s[4])  # the empty board, nothing on it


def test_render_all_draws_the_others_and_names_each_it_cannot(impossible: Path, tmp_path: Path) -> None:
    out = tmp_path / "all"
    r = CliRunner().invoke(main, ["render", str(impossible), "--all", "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and "internal error" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if "not drawn:" in ln]
    assert lines and all(re.match(rf"{re.escape(str(impossible))}(:\d+:\d+)?: game \d+ (move \S+|final position): "
                                  r"not drawn: White has 40 checkers \(at most 15\)$", ln) for ln in lines), lines
    written = sorted(p.name for p in out.iterdir())
    assert written, "the positions that can be drawn are drawn"
    assert f"{len(written)} diagrams written" in r.stderr and f"{len(lines)} positions that cannot exist" in r.stderr


def test_render_of_one_impossible_position_names_its_place(impossible: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["render", str(impossible), "--at", "2:1", "-o", str(tmp_path / "x.png")])
    assert r.exit_code == 2
    assert re.fullmatch(rf"gammon: {re.escape(str(impossible))}:2:1: game 1 move \S+: cannot be drawn: White has 40 "
                        r"checkers \(at most 15\)", r.stderr.strip().splitlines()[-1]), r.stderr
    assert not (tmp_path / "x.png").exists()
