"""`gammon validate`: output lines, JSON, exit statuses, parallel jobs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from notation.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = str(ROOT / "samples" / "illegal_plays.mat")
CLEAN = str(ROOT / "tests" / "data" / "gnubg_7p_crawford.mat")
DATA = ROOT / "tests" / "data"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["validate", *args])
    return r.exit_code, r.stdout, r.stderr


def test_clean_file_exits_0() -> None:
    code, out, _ = run(CLEAN)
    assert code == 0
    assert out.strip().endswith("5 games, 245 plays, 0 errors, 0 warnings, 0 notes")


def test_errors_exit_1_compiler_style() -> None:
    code, out, _ = run(SAMPLE)
    assert code == 1
    first = out.splitlines()[0]
    # FILE:LINE:COL: error: game G move M (NAME 52): message
    assert first.startswith(f"{SAMPLE}:51:10: error: game 1 move 44 (gnubg 54): the 5 is not played")
    assert "4 errors" in out.splitlines()[-1]


def test_json_one_object_per_file() -> None:
    code, out, _ = run("--json", SAMPLE, CLEAN)
    assert code == 1
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["file"] for o in objs] == [SAMPLE, CLEAN]
    bad = objs[0]
    assert set(bad) == {"file", "games", "plays", "errors", "warnings", "notes", "findings"}
    assert bad["notes"] == sum(f["severity"] == "note" for f in bad["findings"])
    assert bad["errors"] == 4 and bad["games"] == 3
    f = bad["findings"][0]
    assert set(f) == {"severity", "line", "column", "game", "move", "player", "roll", "text", "message", "xgid"}
    assert (f["line"], f["column"], f["game"], f["move"], f["player"], f["roll"]) == (51, 10, 1, 44, "gnubg", "54")
    assert f["xgid"].startswith("XGID=")


def test_unparsable_file_exits_2_and_others_still_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(" 5 point match\n\n Game 1\n a : 0      b : 0\n  1) 71: 13/6\n")
    code, out, _ = run("--json", str(bad), CLEAN)
    assert code == 2
    objs = [json.loads(line) for line in out.splitlines()]
    assert objs[0]["errors"] == 1 and objs[0]["findings"][0]["line"] == 5
    assert objs[0]["findings"][0]["column"] is not None
    assert objs[1]["errors"] == 0 and objs[1]["plays"] == 245


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, out, _ = run(str(tmp_path / "nope.mat"))
    assert code == 2


def test_quiet_shows_only_errors() -> None:
    code, out, _ = run("--quiet", SAMPLE, CLEAN)
    assert code == 1
    assert "note:" not in out and "error:" in out
    assert CLEAN not in out


def test_jobs_same_output() -> None:
    files = [SAMPLE, CLEAN, SAMPLE]
    assert run("--jobs", "2", *files)[1] == run(*files)[1]


def test_installed_entry_point_runs_as_module() -> None:
    r = subprocess.run([sys.executable, "-m", "notation.cli", "validate", SAMPLE], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr


def test_parallel_by_default_same_output(tmp_path: Path) -> None:
    """Enough files for the default to use every CPU: the output, its order and the exit status are
    those of one process, an unreadable file included."""
    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 52: 13/8 24/22 zz\n")
    files = [SAMPLE, CLEAN, str(bad), *sorted(str(p) for p in DATA.glob("mat_*"))][:14]
    assert len(files) >= 8
    one = run("--jobs", "1", *files)
    assert one[0] == 2 and "bad.mat:5:" in one[1]
    assert run(*files)[:2] == one[:2]
    assert run("--jobs", "3", *files)[:2] == one[:2]


def test_a_closed_standard_output_ends_quietly() -> None:
    """A reader that went away (``| head``, a closed pipe): no traceback, no message, a failing status."""
    files = [str(p) for p in sorted(DATA.glob("mat_*.mat"))] + [SAMPLE]
    p = subprocess.Popen([sys.executable, "-m", "notation.cli", "validate", "--json", *files], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # before anything is written: every write fails
    assert (p.stderr.read(), p.wait() != 0) == (b"", True)


# ------------------------------------------------------- records with no games, long fields (issue 26, item 11)


def test_a_record_with_no_games_is_an_error(tmp_path: Path) -> None:
    from xg_container import container, records

    header_only_xg = container(records((DATA / "xg_ronde3.xg").read_bytes())[0])  # the match header alone
    files = {"header.mat": b" 7 point match\n",
             "empty.json": b'{"format": "gammon-notation", "version": 2, "match": {"length": 7, "games": []}}',
             "header.xg": header_only_xg}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        code, out, _ = run(str(tmp_path / name))
        assert code == 1 and f"{name}: error: the record holds no games" in out, (name, out)
        assert out.splitlines()[-1].endswith("0 games, 0 plays, 1 error, 0 warnings, 0 notes") or "note" in out
        r = CliRunner().invoke(main, ["convert", str(tmp_path / name), str(tmp_path / f"{name}.sgf")])
        assert r.exit_code == 2 and "the record holds no games: nothing to convert" in r.stderr
        assert not (tmp_path / f"{name}.sgf").exists()


def test_every_quoted_field_is_cut(tmp_path: Path) -> None:
    long_line = tmp_path / "long.mat"
    long_line.write_text(" 1 point match\n\n Game 1\n a : 0    b : 0\n  1) 52: 13/8 13/11 " + "x" * 1_000_000 + "\n")
    long_value = tmp_path / "long.sgf"
    long_value.write_text("(;FF[4]GM[6]CA[UTF-8]MI[length:1]PW[a]PB[b];B[52lqlq];CV[" + "7" * 5_000_000 + "])\n")
    for path in (long_line, long_value):
        code, out, _ = run("--format", "json", str(path))
        assert code == 2 and len(out) < 3000, len(out)
        (finding,) = json.loads(out)["findings"]
        assert "characters" in finding["message"] and len(finding["text"]) <= 200
        code, out, _ = run(str(path))
        assert code == 2 and len(out) < 3000
