"""`gammon validate`: notes under control.  ``--min-severity`` and ``-q``, a note repeated in a file
printed once with its count (``--all-notes`` prints each), the machine formats holding every finding, and
the total line counting files with errors, with warnings and clean.

The file is a real FIBS transcript (bgnori/bglib, ``srv_texmex-nori-2009Feb011756.txt`` in the corpus):
its score lines carry ratings (``texmex,1747``), split off the names on each of its 4 games, 8 notes
alike."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from notation.cli import main
from notation.reports import note_kind, shown_findings

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
RATINGS = str(DATA / "mat_fibs_ratings_4games.txt")
ERRORS = str(ROOT / "samples" / "illegal_plays.mat")
WARNINGS = str(DATA / "mat_galaxy_dialect.txt")
CLEAN = str(DATA / "gnubg_7p_crawford.mat")
CORPUS = ROOT.parent / "shared" / "corpus"


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["validate", "--no-excerpt", "--color", "never", *args])
    return r.exit_code, r.stdout


def _json(path: str) -> dict:
    return json.loads(run("--format", "json", path)[1])


def test_the_rating_note_is_printed_once_with_its_count() -> None:
    rating = [f for f in _json(RATINGS)["findings"] if "split off the name" in f["message"]]
    assert len(rating) == 8  # two players, four games
    code, out = run(RATINGS)
    assert code == 0
    lines = [ln for ln in out.splitlines() if "split off the name" in ln]
    assert lines == [f"{RATINGS}:4:2: note: reading: rating 1747 split off the name 'texmex,1747' "
                     "(and 7 more like it in this file)"]
    assert out.splitlines()[-1].endswith("4 games, 313 plays, 0 errors, 0 warnings, 9 notes")  # every note counted


def test_all_notes_prints_each() -> None:
    _, out = run("--all-notes", RATINGS)
    lines = [ln for ln in out.splitlines() if "split off the name" in ln]
    assert len(lines) == 8 and not any("more like it" in ln for ln in lines)
    assert [ln.split(":")[1] for ln in lines] == ["4", "4", "47", "47", "80", "80", "143", "143"]


def test_notes_are_counted_per_file() -> None:
    _, out = run(RATINGS, str(DATA / "mat_fibs_dialect.txt"))
    counts = re.findall(r"split off the name .*\(and (\d+) more like it in this file\)", out)
    assert counts == ["7", "3"]


def test_like_it_means_the_same_message_once_numbers_and_quotes_are_masked() -> None:
    assert note_kind("rating 1747 split off the name 'texmex,1747'") == \
        note_kind("rating 1722 split off the name 'nori,1722'") == "rating # split off the name '…'"
    assert note_kind("Galaxy 'Losses 2 point' cell read as the loss of player 1") != \
        note_kind("Galaxy 'Losses 1 point' line read as the loss of player 1")
    assert note_kind("the match stops at 2-1, before either side reaches 5") == \
        "the match stops at #-#, before either side reaches #"
    # an apostrophe inside a word opens no quotation
    assert note_kind("the player's 'Wins' read as 3") == "the player's '…' read as #"


def test_errors_and_warnings_are_never_folded() -> None:
    findings = [{"severity": s, "message": "the same 1"} for s in ("error", "error", "warning", "warning")]
    assert [n for _, n in shown_findings(findings)] == [0, 0, 0, 0]
    notes = [{"severity": "note", "message": f"x {k}"} for k in range(5)]
    assert [n for _, n in shown_findings(notes)] == [4]
    assert [n for _, n in shown_findings(notes, all_notes=True)] == [0] * 5


@pytest.mark.parametrize("least, kept", [("note", {"note", "warning", "error"}), ("warning", {"warning", "error"}),
                                         ("error", {"error"})])
def test_min_severity(least: str, kept: set[str]) -> None:
    _, out = run("--min-severity", least, WARNINGS)
    printed = set(re.findall(r": (note|warning|error): ", out))
    assert printed == kept
    assert out.splitlines()[-1].endswith("4 errors, 4 warnings, 5 notes")  # the summary counts them all


def test_quiet_is_min_severity_error_and_terse() -> None:
    code, quiet = run("-q", ERRORS, RATINGS, CLEAN)
    _, least = run("--min-severity", "error", ERRORS, RATINGS, CLEAN)
    assert code == 1
    findings = [ln for ln in least.splitlines() if ": error: " in ln]
    assert [ln for ln in quiet.splitlines() if ": error: " in ln] == findings
    # terse: the summary of the file with errors and the total, not the clean files' summaries
    assert quiet.splitlines() == findings + [ln for ln in least.splitlines() if ln.startswith(f"{ERRORS}: ")
                                             or ln.startswith("total: ")]
    assert RATINGS not in quiet and CLEAN not in quiet


def test_quiet_keeps_an_explicit_min_severity() -> None:
    _, out = run("-q", "--min-severity", "warning", WARNINGS, CLEAN)
    assert ": warning: " in out and ": note: " not in out and CLEAN not in out


def test_total_counts_files_with_errors_with_warnings_and_clean(tmp_path: Path) -> None:
    _, out = run(ERRORS, RATINGS, CLEAN, str(tmp_path / "missing.mat"))
    total = out.splitlines()[-1]
    assert total.startswith("total: 4 files (2 with errors, 0 with warnings, 2 clean), "), total
    warned = _warning_only(tmp_path)
    _, out = run(warned, CLEAN)
    assert out.splitlines()[-1].startswith("total: 2 files (0 with errors, 1 with warnings, 1 clean), ")


def _warning_only(tmp_path: Path) -> str:
    """A file whose worst finding is a warning (a game that ends without a result)."""
    path = tmp_path / "warned.mat"
    path.write_text(" 3 point match\n\n Game 1\n a : 0                          b : 0\n"
                    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n")
    res = _json(str(path))
    assert res["errors"] == 0 and res["warnings"] >= 1, res
    return str(path)


def test_github_follows_the_text_rules() -> None:
    _, out = run("--format", "github", RATINGS)
    rating = [ln for ln in out.splitlines() if "split off the name" in ln]
    assert len(rating) == 1 and rating[0].endswith("(and 7 more like it in this file)")
    assert rating[0].startswith("::notice file=")
    _, every = run("--format", "github", "--all-notes", RATINGS)
    assert sum("split off the name" in ln for ln in every.splitlines()) == 8
    _, errors = run("--format", "github", "-q", ERRORS, RATINGS)
    assert errors and all(ln.startswith("::error ") for ln in errors.splitlines())
    _, warned = run("--format", "github", "--min-severity", "warning", WARNINGS)
    assert {ln.split(" ")[0] for ln in warned.splitlines()} == {"::error", "::warning"}


@pytest.mark.parametrize("options", [[], ["-q"], ["--min-severity", "error"]])
def test_machine_formats_keep_every_finding(options: list[str]) -> None:
    _, out = run("--format", "json", *options, RATINGS)
    assert len(json.loads(out)["findings"]) == 9
    _, out = run("--format", "sarif", *options, RATINGS)
    results = json.loads(out)["runs"][0]["results"]
    assert sum("split off the name" in r["message"]["text"] for r in results) == 8
    _, out = run("--format", "junit", *options, RATINGS)
    text = ET.fromstring(out).find(".//system-out").text
    assert text.count("split off the name") == 8 and "more like it" not in text


def test_the_corpus_rating_notes_fold_to_one_line_a_file() -> None:
    folder = CORPUS / "mat" / "bglib_nori"
    if not folder.is_dir():
        pytest.skip("no corpus")
    files = sorted(str(p) for p in folder.iterdir() if p.is_file())
    _, every = run("--all-notes", "--jobs", "1", *files)
    _, out = run("--jobs", "1", *files)
    per_file = [sum(1 for ln in every.splitlines() if ln.startswith(f + ":") and "split off the name" in ln)
                for f in files]
    assert sum(per_file) > 2 * len(files)
    for f, n in zip(files, per_file, strict=True):
        if not n:
            continue
        shown = [ln for ln in out.splitlines() if ln.startswith(f + ":") and "split off the name" in ln]
        assert len(shown) == 1 and shown[0].endswith(f"(and {n - 1} more like it in this file)")


_FINDING = st.fixed_dictionaries({"severity": st.sampled_from(["note", "warning", "error"]),
                                  "message": st.sampled_from(["rating 1747 split off the name 'a,1747'",
                                                              "rating 1 split off the name 'b'", "x 2", "x 3",
                                                              "the same"])})


@given(st.lists(_FINDING, max_size=30), st.sampled_from(["note", "warning", "error"]), st.booleans())
def test_every_finding_at_the_severity_is_printed_or_counted(findings: list[dict], least: str,
                                                             all_notes: bool) -> None:
    rank = {"note": 0, "warning": 1, "error": 2}
    shown = shown_findings(findings, least, all_notes)
    kept = [f for f in findings if rank[f["severity"]] >= rank[least]]
    assert len(shown) + sum(n for _, n in shown) == len(kept)
    at = [next(k for k, f in enumerate(kept) if f is g) for g, _ in shown]
    assert at == sorted(at)  # in the file's order
    assert [f for f in kept if f["severity"] != "note"] == [f for f, _ in shown if f["severity"] != "note"]
    kinds = [note_kind(f["message"]) for f, _ in shown if f["severity"] == "note"]
    assert all_notes or len(kinds) == len(set(kinds))
