"""``gammon render``: positions, a move of a match with its play as arrows, a whole match, errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import render
from notation.cli import main
from notation.commands.render import _describe
from notation.matchio import read_match
from notation.replay import replay

DATA = Path(__file__).resolve().parent / "data"
ROOT = DATA.parent.parent
MATCH = DATA / "render_match_7p.mat"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["render", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def pixels(data: bytes) -> bytes:
    im = Image.open(io.BytesIO(data))
    return im.tobytes()


def test_match_move_draws_the_position_before_it_with_arrows(tmp_path: Path) -> None:
    out = tmp_path / "g2m14.png"
    code, _, err = run(str(MATCH), "--game", "2", "--move", "14", "-o", str(out))
    assert code == 0, err
    # --move is the record's own move number, as validate prints it (the .mat row): its first action
    step = next(s for s in replay(read_match(MATCH)).games[1].steps if s.action.move_number == 14)
    assert step.action.kind == "move" and step.play is not None and step.play.steps
    expected = render.png(step.before, arrows=[tuple(s) for s in step.play.steps], dice=step.action.dice,
                          names=True, pips=True, score=True, caption=_describe(step, 2, 14))
    assert pixels(out.read_bytes()) == pixels(expected)
    plain = render.png(step.before, names=True, pips=True, score=True, caption=_describe(step, 2, 14))
    assert pixels(out.read_bytes()) != pixels(plain)  # the arrows are there


def test_caption_describes_the_move() -> None:
    step = replay(read_match(MATCH)).games[1].steps[13]
    text = _describe(step, 2, 14)
    assert text.startswith("Game 2, move 14: ") and f"{step.action.dice[0]}-{step.action.dice[1]}" in text
    assert step.play is not None and step.play.notation() in text


def test_match_svg_by_extension(tmp_path: Path) -> None:
    out = tmp_path / "g1m1.svg"
    code, _, err = run(str(MATCH), "--game", "1", "--move", "1", "-o", str(out), "--theme", "classic",
                       "--no-caption")
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "<svg" in text and "<text" not in text


def test_all_positions_of_a_match(tmp_path: Path) -> None:
    rep = replay(read_match(MATCH))
    code, _, err = run(str(MATCH), "--all", "-o", str(tmp_path / "figs"), "--size", "small")
    assert code == 0, err
    files = sorted((tmp_path / "figs").iterdir())
    assert len(files) == sum(len(g.steps) + 1 for g in rep.games)
    assert files[0].name == "game01_end.png" and (tmp_path / "figs" / "game01_move001.png").exists()
    # named by the record's move numbers: row 2's second action (the right column's play) is 002-2
    assert (tmp_path / "figs" / "game01_move002-2.png").exists()
    for f in files[:5] + files[-5:]:
        assert Image.open(f).size[0] == render.drawing(rep.games[0].start, size="small").width
    assert f"{len(files)} diagrams" in err


def test_options_reach_the_renderer(tmp_path: Path) -> None:
    out = tmp_path / "w.png"
    code, _, err = run(str(MATCH), "--game", "1", "--move", "3", "-o", str(out), "--width", "900",
                       "--dpi", "300", "--home", "left", "--numbers", "both", "--no-names", "--no-pips",
                       "--no-score")
    assert code == 0, err
    im = Image.open(out)
    assert im.width == 900 and im.info["dpi"] == pytest.approx((300, 300), abs=0.01)


@pytest.mark.parametrize("args, message", [
    (["--game", "9"], "no game 9"),
    (["--game", "1", "--move", "999"], "has"),
    (["--all", "--game", "1"], "--all"),
])
def test_bad_match_requests(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = run(str(MATCH), *args, "-o", str(tmp_path / "x.png"))
    assert code == 2
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_unknown_output_format(tmp_path: Path) -> None:
    code, _, err = run(str(MATCH), "--game", "1", "-o", str(tmp_path / "x.jpg"))
    assert code == 2 and ".png or .svg" in err


def test_bad_dice(tmp_path: Path) -> None:
    code, _, err = run(str(MATCH), "--game", "1", "--dice", "79", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "dice" in err


# --------------------------------------------------------------------------- position IDs


def test_position_id_with_two_plays(tmp_path: Path) -> None:
    ids = pytest.importorskip("notation.ids")
    out = tmp_path / "two.png"
    code, _, err = run(START_XGID, "--play", "13/8 13/10", "--play", "8/3 6/3", "-o", str(out))
    assert code == 0, err
    pos = ids.parse_position(START_XGID)
    assert pixels(out.read_bytes()) == pixels(render.png(pos, play=["13/8 13/10", "8/3 6/3"]))


def test_bad_position_id(tmp_path: Path) -> None:
    pytest.importorskip("notation.ids")
    code, _, err = run("XGID=not-a-position", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "Traceback" not in err and err.startswith("gammon: ")


def test_illegal_play_is_reported(tmp_path: Path) -> None:
    pytest.importorskip("notation.ids")
    code, _, err = run(START_XGID, "--play", "13/7", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "Traceback" not in err


def test_at_a_place_validate_printed(tmp_path: Path) -> None:
    """`--at LINE:COL` draws the action `gammon validate` reported there, marked as illegal."""
    from click.testing import CliRunner

    from notation.cli import main

    sample = Path(__file__).resolve().parents[1] / "samples" / "illegal_plays.mat"
    out = tmp_path / "at.svg"
    r = CliRunner().invoke(main, ["render", str(sample), "--at", "98:38", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.exists()
    r = CliRunner().invoke(main, ["render", str(sample), "--at", "3", "-o", str(tmp_path / "x.png")])
    assert r.exit_code == 2


def test_render_never_overwrites_its_input_nor_an_existing_file(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import main

    src = tmp_path / "m.mat"
    src.write_bytes((ROOT / "samples" / "illegal_plays.mat").read_bytes())
    before = src.read_bytes()
    runner = CliRunner()
    r = runner.invoke(main, ["render", str(src), "--format", "svg", "-o", str(src), "--force"])
    assert r.exit_code == 2 and "input" in r.stderr and src.read_bytes() == before
    (tmp_path / "link.svg").symlink_to(src)
    r = runner.invoke(main, ["render", str(src), "-o", str(tmp_path / "link.svg"), "--force"])
    assert r.exit_code == 2 and src.read_bytes() == before
    out = tmp_path / "fig.png"
    out.write_bytes(b"keep")
    r = runner.invoke(main, ["render", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "-o", str(out)])
    assert r.exit_code == 2 and "exists" in r.stderr and out.read_bytes() == b"keep"
    r = runner.invoke(main, ["render", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "-o", str(out),
                             "--force"])
    assert r.exit_code == 0 and out.read_bytes()[:4] == b"\x89PNG"
    assert not [p for p in tmp_path.iterdir() if "gammon-tmp" in p.name]


def test_render_all_refuses_files_and_overwrites_only_with_force(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import main

    match = str(ROOT / "tests" / "data" / "gnubg_7p_crawford.mat")
    runner = CliRunner()
    r = runner.invoke(main, ["render", match, "--all", "-o", str(tmp_path / "long.png")])
    assert r.exit_code == 2 and "names a directory" in r.stderr and not (tmp_path / "long.png").exists()
    d = tmp_path / "figs"
    d.mkdir()
    (d / "game01_move001.png").write_bytes(b"keep")
    r = runner.invoke(main, ["render", match, "--all", "-o", str(d)])
    assert r.exit_code == 2 and "--force" in r.stderr and (d / "game01_move001.png").read_bytes() == b"keep"
    assert len(list(d.iterdir())) == 1


def test_render_to_standard_output_and_capped_sizes() -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "notation", "render",
                        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "-o", "-"], capture_output=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout[:4] == b"\x89PNG"
    r = subprocess.run([sys.executable, "-m", "notation", "render",
                        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "--dpi", "4800", "-o", "-"],
                       capture_output=True, timeout=120)
    assert r.returncode == 2 and b"1200" in r.stderr and not r.stdout


def test_render_reads_standard_input() -> None:
    import subprocess
    import sys

    xgid = b"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10\n"
    r = subprocess.run([sys.executable, "-m", "notation", "render", "-", "-o", "-"], input=xgid,
                       capture_output=True, timeout=120)
    assert r.returncode == 0 and r.stdout[:4] == b"\x89PNG"
    match = (ROOT / "samples" / "illegal_plays.mat").read_bytes()
    r = subprocess.run([sys.executable, "-m", "notation", "render", "-", "--game", "1", "--move", "44", "-o", "-"],
                       input=match, capture_output=True, timeout=120)
    assert r.returncode == 0 and r.stdout[:4] == b"\x89PNG"
