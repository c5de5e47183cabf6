"""`gammon validate --html` at archive scale: each match page is written by the process that checked its
file, ``--html-only-findings`` writes the pages of the files with findings only (the report still lists
every file), and the pages are the same whatever the number of processes."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import notation.commands.validate as validate
from notation.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
ERRORS = str(ROOT / "samples" / "illegal_plays.mat")
RATINGS = str(DATA / "mat_fibs_ratings_4games.txt")  # notes only
CLEAN = str(DATA / "mat_gnubg_selfplay_1p.mat")  # no finding at all


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["validate", "--no-excerpt", *args])
    return r.exit_code, r.stdout


def _report_links(report: Path) -> set[str]:
    return set(re.findall(r'href="(r_matches/[^"#]+)"', report.read_text(encoding="utf-8")))


def test_pages_are_written_by_the_worker_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "pids"
    real = validate.write_pages

    def logged(src: str, *args: object, **kw: object) -> list[str]:
        with open(log, "a") as fh:  # (a forked worker inherits the patch)
            fh.write(f"{os.getpid()} {Path(src).name}\n")
        return real(src, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(validate, "write_pages", logged)
    files = [ERRORS, RATINGS, CLEAN, str(DATA / "mat_gnubg_selfplay_3p.mat")]
    code, _ = run("--jobs", "2", "--html", str(tmp_path / "r.html"), *files)
    assert code == 1
    rows = [ln.split() for ln in log.read_text().splitlines()]
    assert sorted(name for _, name in rows) == sorted(Path(f).name for f in files)  # each once
    # shared among the processes as the checking is (this process takes a share too), none written after
    assert len({pid for pid, _ in rows}) == 2
    assert len(_report_links(tmp_path / "r.html")) == 4


def test_the_same_pages_with_one_process_or_several(tmp_path: Path) -> None:
    files = [ERRORS, RATINGS, CLEAN, str(DATA / "mat_gnubg_selfplay_3p.mat"), str(DATA / "mat_fibs_dialect.txt")]
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        out.mkdir()
        run("--jobs", jobs, "--html", str(out / "r.html"), *files)
    one = sorted(p.relative_to(tmp_path / "1") for p in (tmp_path / "1").rglob("*") if p.is_file())
    two = sorted(p.relative_to(tmp_path / "2") for p in (tmp_path / "2").rglob("*") if p.is_file())
    assert one == two and len(one) == 6
    for rel in one:
        assert (tmp_path / "1" / rel).read_bytes() == (tmp_path / "2" / rel).read_bytes(), rel


def test_only_findings_writes_the_pages_of_the_files_with_findings(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    code, _ = run("--html", str(report), "--html-only-findings", ERRORS, RATINGS, CLEAN)
    assert code == 1
    assert sorted(p.name for p in (tmp_path / "r_matches").iterdir()) == [
        "illegal_plays.html", "mat_fibs_ratings_4games.html"]  # the clean file has no finding
    page = report.read_text(encoding="utf-8")
    assert all(Path(f).name in page for f in (ERRORS, RATINGS, CLEAN))  # the table lists every file
    assert _report_links(report) == {"r_matches/illegal_plays.html", "r_matches/mat_fibs_ratings_4games.html"}


@pytest.mark.parametrize("options, pages", [(["-q"], ["illegal_plays.html"]),
                                            (["--min-severity", "warning"], ["illegal_plays.html"]),
                                            (["--min-severity", "note"], ["illegal_plays.html",
                                                                          "mat_fibs_ratings_4games.html"])])
def test_only_findings_follows_the_severity_printed(tmp_path: Path, options: list[str], pages: list[str]) -> None:
    run(*options, "--html", str(tmp_path / "r.html"), "--html-only-findings", ERRORS, RATINGS, CLEAN)
    assert sorted(p.name for p in (tmp_path / "r_matches").iterdir()) == pages
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "mat_gnubg_selfplay_1p.mat" in page and "mat_fibs_ratings_4games.txt" in page


def test_page_names_are_unique_and_chosen_before_the_workers(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(ERRORS, a / "match.mat")
    shutil.copy(ERRORS, b / "Match.mat")
    shutil.copy(CLEAN, a / "match.2.mat")
    files = [str(a / "match.mat"), str(b / "Match.mat"), str(a / "match.2.mat")]
    assert validate._page_names(files) == dict(zip(files, ["match", "Match-2", "match_2"], strict=True))
    run("--jobs", "2", "--html", str(tmp_path / "r.html"), *files)
    assert sorted(p.name for p in (tmp_path / "r_matches").iterdir()) == ["Match-2.html", "match.html",
                                                                          "match_2.html"]


def test_a_page_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "r_matches").write_text("a file where the folder goes")
    r = CliRunner().invoke(main, ["validate", "--html", str(tmp_path / "r.html"), CLEAN])
    assert r.exit_code == 2 and "use --force" in r.stderr  # an existing pages folder is not replaced unasked
    r = CliRunner().invoke(main, ["validate", "--html", str(tmp_path / "r.html"), "--force", CLEAN])
    assert r.exit_code == 2 and "cannot write" in r.stderr and "Traceback" not in r.stderr
