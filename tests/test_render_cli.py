"""``gammon render``: positions, a move of a match with its play as arrows, a whole match, errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import render
from notation.cli import main
from notation.matchio import read_match
from notation.replay import replay_match
from render.captions import step_caption

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
    step = next(s for s in replay_match(read_match(MATCH)).games[1].steps if s.action.move_number == 14)
    assert step.action.kind == "move" and step.play is not None and step.play.steps
    expected = render.png(step.before, arrows=[tuple(s) for s in step.play.steps], dice=step.action.dice,
                          names=True, pips=True, score=True, caption=step_caption(step, 2, 14))
    assert pixels(out.read_bytes()) == pixels(expected)
    plain = render.png(step.before, names=True, pips=True, score=True, caption=step_caption(step, 2, 14))
    assert pixels(out.read_bytes()) != pixels(plain)  # the arrows are there


def test_caption_describes_the_move() -> None:
    step = replay_match(read_match(MATCH)).games[1].steps[13]
    text = step_caption(step, 2, 14)
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
    rep = replay_match(read_match(MATCH))
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


def test_move_0_draws_the_final_position(tmp_path: Path) -> None:
    out = tmp_path / "end.svg"
    code, _, err = run(str(MATCH), "--game", "1", "--move", "0", "-o", str(out))
    rep = replay_match(read_match(MATCH))
    assert code == 0 and err == ""
    assert out.read_text(encoding="utf-8") == render.svg(rep.games[0].end, caption="Game 1: final position",
                                                         names=True, pips=True, score=True)


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


def test_a_missing_file_is_not_read_as_an_id(tmp_path: Path) -> None:
    """A file name that names nothing says so (as show and moves do), not a Position ID error."""
    missing = str(tmp_path / "no-such-match.mat")
    code, _, err = run(missing, "-o", str(tmp_path / "x.png"))
    assert (code, err) == (2, f"gammon: {missing}: cannot read: No such file or directory\n")


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
    from conftest import gammon_in_process

    r = gammon_in_process("render", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "-o", "-")
    assert r.returncode == 0 and r.stdout[:4] == b"\x89PNG"
    r = gammon_in_process("render", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "--dpi", "4800", "-o", "-")
    assert r.returncode == 2 and b"1200" in r.stderr and not r.stdout


def test_render_reads_standard_input() -> None:
    from conftest import gammon_in_process

    xgid = b"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10\n"
    r = gammon_in_process("render", "-", "-o", "-", input=xgid)
    assert r.returncode == 0 and r.stdout[:4] == b"\x89PNG"
    match = (ROOT / "samples" / "illegal_plays.mat").read_bytes()
    r = gammon_in_process("render", "-", "--game", "1", "--move", "44", "-o", "-", input=match)
    assert r.returncode == 0 and r.stdout[:4] == b"\x89PNG"


# --------------------------------------------------------------------------- names, title, convention


def test_names_option_names_the_players_of_an_id(tmp_path: Path) -> None:
    ids = pytest.importorskip("notation.ids")
    pos = ids.parse_position(START_XGID)
    out = tmp_path / "n.png"
    code, _, err = run(START_XGID, "--names", "Ann,Ben", "-o", str(out))
    assert code == 0, err
    assert pixels(out.read_bytes()) == pixels(render.png(pos, names=("Ann", "Ben")))
    assert pixels(out.read_bytes()) != pixels(render.png(pos, names=True))  # not "White" and "Black"
    # alone: the source's names (an ID has none: the colours); --no-names hides them
    code, _, err = run(START_XGID, "--names", "-o", str(tmp_path / "w.png"))
    assert code == 0, err
    assert pixels((tmp_path / "w.png").read_bytes()) == pixels(render.png(pos, names=True))
    code, _, err = run(START_XGID, "--names", ",Ben", "-o", str(tmp_path / "b.png"))
    assert code == 0, err
    assert pixels((tmp_path / "b.png").read_bytes()) == pixels(render.png(pos, names=("White", "Ben")))


def test_names_option_errors_name_the_option(tmp_path: Path) -> None:
    for value in ("Ann", "A,B,C", ","):
        code, _, err = run(START_XGID, "--names", value, "-o", str(tmp_path / "x.png"))
        assert code == 2 and "--names" in err and err.count("\n") == 1, (value, err)
    code, _, err = run(START_XGID, "--names", "A,B", "--no-names", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "--no-names" in err


def test_names_flag_before_the_source_still_works(tmp_path: Path) -> None:
    """--names was a plain flag: `render --names MATCH ...` keeps working."""
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    code, _, err = run("--names", str(MATCH), "--game", "1", "--move", "3", "-o", str(a))
    assert code == 0, err
    code, _, err = run(str(MATCH), "--game", "1", "--move", "3", "-o", str(b))
    assert code == 0, err
    assert pixels(a.read_bytes()) == pixels(b.read_bytes())
    code, _, err = run(str(MATCH), "--game", "1", "--move", "3", "--names", "Ann,Ben", "-o", str(tmp_path / "c.png"))
    assert code == 0 and pixels((tmp_path / "c.png").read_bytes()) != pixels(b.read_bytes())
    code, _, err = run(str(MATCH), "--game", "1", "--move", "3", "--no-names", "--no-pips", "--no-score", "-o",
                       str(tmp_path / "d.png"))
    assert code == 0 and Image.open(tmp_path / "d.png").height < Image.open(b).height


def test_title_is_drawn_above_the_diagram(tmp_path: Path) -> None:
    ids = pytest.importorskip("notation.ids")
    pos = ids.parse_position(START_XGID)
    out = tmp_path / "t.png"
    code, _, err = run(START_XGID, "--title", "Figure 7. Ann against Ben", "-o", str(out))
    assert code == 0, err
    plain = Image.open(io.BytesIO(render.png(pos)))
    titled = Image.open(out)
    assert titled.width == plain.width and titled.height > plain.height + 20
    band = titled.convert("L").crop((0, 0, titled.width, titled.height - plain.height))
    assert band.getextrema()[0] < 64  # dark text in the band above the board
    code, _, err = run(START_XGID, "--title", "Figure 7 & more", "-o", str(tmp_path / "t.svg"))
    assert code == 0 and "<title>Figure 7 &amp; more</title>" in (tmp_path / "t.svg").read_text(encoding="utf-8")


def test_one_convention_stated_in_both_helps() -> None:
    from click.testing import CliRunner

    show_help = CliRunner().invoke(main, ["show", "--help"]).output
    render_help = CliRunner().invoke(main, ["render", "--help"]).output
    for text in (show_help, render_help):
        flat_text = " ".join(text.split())
        assert "X is Black, player 1" in flat_text or "Black is X, player 1" in flat_text
        assert "O is White, player 0" in flat_text or "White is O, player 0" in flat_text
        assert "at the bottom" in flat_text and "on roll" in flat_text and "numbered" in flat_text


def test_bottom_accepts_the_letters_and_black_is_x(tmp_path: Path) -> None:
    ids = pytest.importorskip("notation.ids")
    for letter, colour in (("x", "black"), ("O", "white")):
        code, _, err = run(START_XGID, "--bottom", letter, "-o", str(tmp_path / f"{letter}.png"))
        assert code == 0, err
        assert pixels((tmp_path / f"{letter}.png").read_bytes()) == pixels(render.png(ids.parse_position(START_XGID),
                                                                                       bottom=colour))
    # X (upper case in the XGID, player 1) is drawn with the dark checkers
    from render.themes import PRINT

    assert sum(PRINT.checker[1]) < sum(PRINT.checker[0])
    assert ids.parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10").boards[1][6] == 5


# --------------------------------------------------------------------------- --candidate


EXPORT = DATA / "exports" / "xg_01_checker_EN.txt"


def test_candidate_draws_the_ranked_play_with_its_equity(tmp_path: Path) -> None:
    from notation.positionio import read_position

    rec = read_position(EXPORT)
    assert rec.analysis is not None and rec.analysis.checker is not None
    cands = rec.analysis.checker.candidates
    pos = rec.position.replace(names=rec.names)
    for n in (1, 3):
        out = tmp_path / f"c{n}.png"
        code, _, err = run(str(EXPORT), "--candidate", str(n), "-o", str(out))
        assert code == 0, err
        c = cands[n - 1]
        cap = ("Best play" if n == 1 else f"Play {n} of {len(cands)}") + f" ({c.level}): {c.play}, equity " \
            f"{c.equity:+.3f}" + ("" if n == 1 else f" ({c.equity - cands[0].equity:+.3f})")
        assert pixels(out.read_bytes()) == pixels(render.png(pos, play=c.play, names=True, score=True, on_roll=True,
                                                             caption=cap))
    # the default is the best play
    code, _, err = run(str(EXPORT), "-o", str(tmp_path / "d.png"))
    assert code == 0, err
    assert pixels((tmp_path / "d.png").read_bytes()) == pixels((tmp_path / "c1.png").read_bytes())
    # from standard input too
    r = CliRunner().invoke(main, ["render", "-", "--candidate", "3", "-o", str(tmp_path / "s.png")],
                           input=EXPORT.read_bytes())
    assert r.exit_code == 0, r.output
    assert pixels((tmp_path / "s.png").read_bytes()) == pixels((tmp_path / "c3.png").read_bytes())
    # --play instead of the analysis
    code, _, err = run(str(EXPORT), "--play", "14/11", "-o", str(tmp_path / "p.png"))
    assert code == 0, err
    assert pixels((tmp_path / "p.png").read_bytes()) == pixels(render.png(pos, play="14/11", names=True, score=True,
                                                                          on_roll=True))


@pytest.mark.parametrize("source, args, message", [
    (str(EXPORT), ["--candidate", "6"], "--candidate 6: "),
    (str(EXPORT), ["--candidate", "2", "--play", "14/11"], "--candidate 2 and --play"),
    (START_XGID, ["--candidate", "1"], "--candidate 1: "),
    (str(MATCH), ["--candidate", "1"], "--candidate 1: "),
])
def test_candidate_errors_name_the_option(tmp_path: Path, source: str, args: list[str], message: str) -> None:
    code, _, err = run(source, *args, "-o", str(tmp_path / "x.png"))
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_candidate_of_a_cube_decision_draws_the_decision(tmp_path: Path) -> None:
    """A cube decision has one verdict: --candidate 1 (and the default) draws the position with it; a
    second candidate is refused."""
    export = str(DATA / "exports" / "xg_02_NDT_FR.txt")
    code, _, err = run(export, "--candidate", "1", "-o", str(tmp_path / "c.png"))
    assert code == 0, err
    code, _, err = run(export, "-o", str(tmp_path / "d.png"))
    assert code == 0, err
    assert pixels((tmp_path / "c.png").read_bytes()) == pixels((tmp_path / "d.png").read_bytes())
    code, _, err = run(export, "--candidate", "2", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "--candidate 2" in err and "cube decision" in err and not (tmp_path / "x.png").exists()


# --------------------------------------------------------------------------- --all: workers, progress


def test_all_in_worker_processes_writes_the_same_files(tmp_path: Path) -> None:
    match = str(DATA / "mat_gnubg_selfplay_3p.mat")  # 112 diagrams: 7 batches of 16, two or three a worker
    one, two = tmp_path / "one", tmp_path / "two"
    code, _, err = run(match, "--all", "--jobs", "1", "--size", "small", "-o", str(one))
    assert code == 0, err
    code, _, err = run(match, "--all", "--jobs", "3", "--size", "small", "-o", str(two))
    assert code == 0, err
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in two.iterdir()) and len(names) > 8
    for name in names:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


def test_all_refuses_an_existing_file_as_output(tmp_path: Path) -> None:
    f = tmp_path / "figures"
    f.write_bytes(b"keep")
    code, _, err = run(str(MATCH), "--all", "-o", str(f))
    assert code == 2 and "names a directory" in err and f.read_bytes() == b"keep"


def test_all_shows_progress_only_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    match = str(DATA / "mat_gnubg_selfplay_1p.mat")  # 35 diagrams (the bar is shown from the first)
    r = subprocess.run([sys.executable, "-m", "notation", "render", match, "--all", "--size", "small", "-o",
                        str(tmp_path / "a")], capture_output=True, timeout=300)
    assert r.returncode == 0 and b"Rendering" not in r.stderr and b"diagrams written" in r.stderr
    main_fd, child_fd = pty.openpty()
    try:
        p = subprocess.Popen([sys.executable, "-m", "notation", "render", match, "--all", "--size", "small", "-o",
                              str(tmp_path / "b")], stdout=subprocess.DEVNULL, stderr=child_fd)
        os.close(child_fd)
        seen = b""
        while True:  # read as it comes (a terminal's buffer is small)
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        p.wait(timeout=300)
    finally:
        os.close(main_fd)
    assert p.returncode == 0
    assert b"Rendering" in seen and b"diagrams written" in seen


def test_a_file_holding_an_id_is_a_position(tmp_path: Path) -> None:
    ids = pytest.importorskip("notation.ids")
    f = tmp_path / "pos.txt"
    f.write_text(START_XGID + "\n", encoding="utf-8")
    code, _, err = run(str(f), "-o", str(tmp_path / "p.png"))
    assert code == 0, err
    assert pixels((tmp_path / "p.png").read_bytes()) == pixels(render.png(ids.parse_position(START_XGID)))
    code, _, err = run(str(f), "--game", "1", "-o", str(tmp_path / "q.png"))
    assert code == 2 and "is a position, not a match" in err


def test_candidate_of_an_analysed_match_move(tmp_path: Path) -> None:
    """An .xg move carries XG's ranked plays: --candidate N draws the N-th, with its equity."""
    xg = str(DATA / "xg_ronde3.xg")
    rep = replay_match(read_match(xg))
    step = rep.games[0].steps[1]  # move 2 (the .mat row): the first action of the second row (XG's player
    assert step.action.move_number == 2 and rep.games[0].steps[0].action.move_number == 1  # 2 began)
    cands = step.action.analysis.checker.candidates  # type: ignore[union-attr]
    a, b, c = tmp_path / "a.png", tmp_path / "b.png", tmp_path / "c.png"
    code, _, err = run(xg, "--game", "1", "--move", "2", "--candidate", "2", "-o", str(a))
    assert code == 0, err
    code, _, err = run(xg, "--game", "1", "--move", "2", "--play", cands[1].play, "--no-caption", "-o", str(b))
    assert code == 0, err
    code, _, err = run(xg, "--game", "1", "--move", "2", "--candidate", "2", "--no-caption", "-o", str(c))
    assert code == 0 and pixels(c.read_bytes()) == pixels(b.read_bytes())  # the second-ranked play's arrows
    assert pixels(a.read_bytes()) != pixels(c.read_bytes())  # and a caption with its equity
    code, _, err = run(xg, "--game", "1", "--move", "2", "--candidate", str(len(cands) + 1), "-o", str(a),
                       "--force")
    assert code == 2 and "--candidate" in err and f"ranks {len(cands)} play" in err
    code, _, err = run(xg, "--all", "--candidate", "1", "-o", str(tmp_path / "all"))
    assert code == 2 and "--move or --at" in err
    code, _, err = run(str(MATCH), "--game", "1", "--move", "2", "--candidate", "1", "-o", str(tmp_path / "m.png"))
    assert code == 2 and "no analysis" in err
