"""`gammon stats`: the table, --json (one object a match a line, the issue's shape), the players' table of
several files, CSV, records without analysis, unreadable files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from notation.cli import main

DATA = Path(__file__).resolve().parent / "data"
GALAXY = str(DATA / "stats" / "galaxy_1093632.sgf")
PGHPETE = str(DATA / "stats" / "fibs_pghpete_crawford_double.sgf")
XG = str(DATA / "xg_ronde3.xg")
PLAIN = str(DATA / "gnubg_7p_crawford.mat")


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["stats", *args])
    return r.exit_code, r.stdout, r.stderr


def test_table_prints_gnubg_figures_and_pr() -> None:
    code, out, _ = run(GALAXY)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{GALAXY}: lasse vs nopnop, 8-point match, 1 game"
    row = {ln.split("  ")[1].strip(): ln for ln in lines if ln.startswith("  ")}
    # gnubg's own export prints: Error total EMG (MWC) -0.100 ( -0.549%) -0.310 ( -1.701%)
    assert row["Checker error EMG (MWC)"].split()[-4:] == ["-0.100", "(-0.549%)", "-0.310", "(-1.701%)"]
    assert row["Snowie error rate"].split()[-2:] == ["-8.7", "-42.4"]
    assert row["Rating"].split()[-2:] == ["Intermediate", "Awful!"]
    assert "PR (95% interval)" in row


def test_json_has_the_issue_shape() -> None:
    code, out, _ = run("--json", GALAXY, XG)
    assert code == 0
    objs = [json.loads(ln) for ln in out.splitlines()]
    assert len(objs) == 2
    for o in objs:
        assert set(o) >= {"file", "players", "match", "games"}
        assert len(o["players"]) == 2
        assert len(o["match"]["gnubg"]) == len(o["match"]["xg"]) == 2
        for g in o["games"]:
            assert len(g["gnubg"]) == len(g["xg"]) == 2
        p = o["match"]["gnubg"][0]
        for k in ("total_moves", "unforced_moves", "doubtful", "bad", "very_bad", "checker_error_emg",
                  "checker_error_mwc", "checker_error_rate", "luck_emg", "luck_mwc", "luck_rate", "cube_decisions",
                  "close_cube_decisions", "doubles", "takes", "passes", "cube_error_emg", "cube_error_mwc",
                  "cube_error_rate", "error_emg", "error_mwc", "error_rate", "snowie_error_rate"):
            assert k in p, k
        for k in ("pr", "checker_pr", "cube_pr", "decisions", "pr_low", "pr_high"):
            assert k in o["match"]["xg"][0], k
    galaxy = objs[0]["match"]["gnubg"]
    assert galaxy[1]["very_bad"] == 1 and round(galaxy[1]["checker_error_emg"], 3) == -0.310
    assert objs[1]["match"]["xg"][0]["source"] == "stored"


def test_several_files_give_the_players_table_and_csv() -> None:
    code, out, _ = run(GALAXY, PGHPETE)
    assert code == 0
    head = out.splitlines()[0].split()
    assert head[:3] == ["Player", "Matches", "PR"]
    names = [ln.split()[0] for ln in out.splitlines()[1:]]
    assert sorted(names) == ["PghPete", "lasse", "nopnop", "nori"]
    code, out, _ = run("--format", "csv", GALAXY, PGHPETE)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["player"] for r in rows] == names  # best PR first, as the text
    assert all(r["pr"] and float(r["pr_low"]) <= float(r["pr"]) <= float(r["pr_high"]) for r in rows)


def test_no_analysis_is_said_and_gives_no_figure() -> None:
    code, out, _ = run("--json", PLAIN)
    assert code == 0
    o = json.loads(out)
    p = o["match"]["gnubg"][0]
    assert p["total_moves"] > 0 and p["checker_error_emg"] is None and p["error_rate"] is None
    assert o["match"]["xg"][0]["pr"] is None
    assert o["messages"][0].startswith("the record holds no analysis")
    code, out, _ = run(PLAIN)
    assert "note: the record holds no analysis" in out


def test_the_count_of_records_without_analysis_is_good_english(tmp_path: Path) -> None:
    for name in ("a.mat", "b.mat"):
        (tmp_path / name).write_bytes(Path(PLAIN).read_bytes())
    code, _, err = run(str(tmp_path))
    assert code == 0
    assert "note: 2 matches of 2 hold no analysis" in err  # it said "2 matchs"
    (tmp_path / "b.mat").unlink()
    code, _, err = run(str(tmp_path))
    assert "note: 1 match of 1 holds no analysis" in err  # it said "1 match of 1 hold"


def test_an_unreadable_file_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]GM[6];B[", encoding="utf-8")
    code, out, err = run(GALAXY, str(bad))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "bad.sgf" in err
    assert "lasse" in out  # the readable file is still done
