"""notation.statistics against GNU Backgammon itself: gnubg's text export of a match it analysed prints
its statistics for each game and for the match; ours, computed from the per-decision analysis of gnubg's
SGF of the same match (its stored statistics ``GS[]`` removed), must print the same figures (integers
exactly, totals within 0.0005, rates within 0.05: gnubg's printed digits)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import CORPUS, SHARED, TEST_CACHE, have_gnubg
from gnubg_statistics import compare, read_export

from notation.matchio import parse_match, read_match
from notation.replay import replay_match
from notation.statistics import BOOTSTRAP_SEED, Statistics, luck_rating, rating, statistics

DATA = Path(__file__).resolve().parent / "data" / "stats"
TOOL = SHARED / "tools" / "gnubg-analysed"

PRODUCERS = [  # one real match (small) from each program that wrote some, as in ../shared/corpus/INDEX.tsv
    "mat/galaxy_1486073_lasse-jonnyb1169_3p.txt",  # Backgammon Galaxy
    "mat/bglib_nori/srv_PghPete-nori-2009Jan242323.txt",  # FIBS client
    "mat/dueller/001-gnubg-BGBlitz_3-pt_1_BGBlitz.mat",  # Dueller (gnubg against BGBlitz)
    "mat/dailygammon/dg_hape42-darkhelmet_7p_game1-2.txt",  # DailyGammon
    "mat/bgstudio/bgstudio_fibs_goldbach7808-fairytails_2013Nov232002.txt",  # Backgammon Studio
    "mat/xg/xg_53rd-bgwc_mochy-dicek_11p.txt",  # eXtreme Gammon's text export
    "mat/gnubg_test-match01_gnubg-LMDN_3p.txt",  # gnubg's .mat export
    "mat/playok/playok_bg176365983_29th-INBC-final_5p.txt",  # PlayOK
]


def _pairs(folder: Path) -> list[tuple[Path, Path]]:
    return [(s, s.with_suffix(".txt")) for s in sorted(folder.glob("*.sgf")) if s.with_suffix(".txt").exists()]


def _check(sgf: Path, txt: Path) -> tuple[int, int, list[str]]:
    """(figures compared, figures equal, the differences) of one analysed match."""
    games, match = read_export(txt)
    ours = statistics(read_match(sgf))
    assert match is not None, f"{txt}: no match statistics"
    assert len(games) == len(ours.games), f"{sgf.name}: {len(ours.games)} games, gnubg printed {len(games)}"
    compared = equal = 0
    problems = []
    for name, mine, theirs in [("match", ours.match, match)] + [
            (f"game {i + 1}", g, t) for i, (g, t) in enumerate(zip(ours.games, games, strict=True))]:
        for p in (0, 1):
            bad = compare(mine.gnubg[p].to_dict(), theirs[p])
            compared += len(theirs[p])
            equal += len(theirs[p]) - len(bad)
            problems += [f"{sgf.name} {name} {ours.players[p]}: {b}" for b in bad]
    return compared, equal, problems


@pytest.mark.parametrize("stem", ["galaxy_1093632", "fibs_pghpete_crawford_double"])
def test_kept_records_print_gnubg_figures(stem: str) -> None:
    compared, equal, problems = _check(DATA / f"{stem}.sgf", DATA / f"{stem}.gnubg.txt")
    assert not problems
    assert compared == equal > 100


def _analysed(name: str, files: list[Path]) -> Path:
    """``files`` analysed by gnubg (``../shared/tools/gnubg-analysed``), kept in the test cache."""
    if not TOOL.exists() or not have_gnubg():
        pytest.skip("gnubg or ../shared/tools/gnubg-analysed is not available")
    key = hashlib.sha256(TOOL.read_bytes() + b"".join(f.read_bytes() for f in files)).hexdigest()[:16]
    done = TEST_CACHE / f"analysed-{name}-{key}"
    if not (done / "complete").exists():
        TEST_CACHE.mkdir(parents=True, exist_ok=True)
        out = Path(tempfile.mkdtemp(prefix=f".analysed-{name}-", dir=TEST_CACHE))
        subprocess.run(["bash", str(TOOL), str(out), *map(str, files)], check=True, capture_output=True,
                       timeout=1800)
        (out / "complete").write_text("\n")
        shutil.rmtree(done, ignore_errors=True)
        out.rename(done)
    return done


def test_real_matches_from_every_producer_print_gnubg_figures() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    folder = _analysed("producers", [CORPUS / f for f in PRODUCERS])
    pairs = _pairs(folder)
    assert len(pairs) == len(PRODUCERS)
    problems: list[str] = []
    for sgf, txt in pairs:
        problems += _check(sgf, txt)[2]
    assert not problems, "\n".join(problems[:20])


def test_gnubg_self_play_prints_gnubg_figures(gnubg_corpus: Path) -> None:
    # matches of every length gnubg plays for the tests, and money sessions (figures in points)
    every = sorted((gnubg_corpus / "mat").glob("*.mat"))
    money = [m for m in every if " 0 point match" in m.read_text(encoding="utf-8", errors="replace")[:200]]
    mats = every[:int(os.environ.get("GAMMON_STATS_SELFPLAY", "4"))] + money[:2]
    folder = _analysed("selfplay", mats)
    pairs = _pairs(folder)
    assert len(pairs) == len(mats)
    problems: list[str] = []
    for sgf, txt in pairs:
        problems += _check(sgf, txt)[2]
    assert not problems, "\n".join(problems[:20])


def test_stored_statistics_are_a_check_never_the_source() -> None:
    # gnubg's own SGF stores each game's statistics in GS[]: a wrong one changes nothing
    text = (DATA / "galaxy_1093632.sgf").read_text(encoding="utf-8")
    assert "GS[" not in text
    tampered = text.replace("RE[W+1]", "RE[W+1]GS[0 7 7 0 0 1 0 0 5 9 9 9 9]", 1)
    a = statistics(parse_match(text, name="a.sgf")).to_dict()
    b = statistics(parse_match(tampered, name="a.sgf")).to_dict()
    a.pop("file"), b.pop("file")
    assert a == b


def test_no_analysis_gives_counts_and_no_figure() -> None:
    m = parse_match(" 1 point match\n\n Game 1\n A : 0      B : 0\n  1) 31: 8/5 6/5      52: 13/11 13/8\n"
                    "  2) 66: 24/18 24/18 13/7 13/7\n", name="t.mat")
    st = statistics(m)
    g = st.match.gnubg[0]
    assert g.total_moves == 2 and g.unanalysed_moves == 2
    assert g.checker_error_emg is None and g.error_rate is None and g.luck_emg is None and g.snowie_error_rate is None
    x = st.match.xg[0]
    assert x.pr is None and x.decisions == 0 and x.uncounted == 2 and x.source == "none"
    assert st.messages == ["the record holds no analysis: 3 moves counted, no error, luck or PR figure"]


def test_a_record_without_analysis_is_counted_without_a_replay() -> None:
    # the counts read from the record equal those the replay and its decisions give
    m = read_match(Path(__file__).resolve().parent / "data" / "gnubg_7p_crawford.mat")
    fast = statistics(m)
    slow = statistics(replay_match(m))
    assert fast.decisions == [] and slow.decisions
    assert fast.to_dict() == slow.to_dict()
    assert fast.match.gnubg[0].total_moves > 50


def test_part_of_the_analysis_is_counted_and_said() -> None:
    text = (DATA / "galaxy_1093632.sgf").read_text(encoding="utf-8")
    # drop the ranked plays of one node (nopnop's 66 at move 3): it is then not analysed
    start = text.index(";B[66")
    a = text.index("A[", start)
    end = text.index("]MR[", a)
    partial = text[:a] + text[end + 1:]
    whole = statistics(parse_match(text, name="a.sgf"))
    part = statistics(parse_match(partial, name="a.sgf"))
    assert part.match.gnubg[1].unanalysed_moves == 1
    assert part.match.gnubg[1].unforced_moves == whole.match.gnubg[1].unforced_moves - 1
    assert any("1 move not analysed" in m for m in part.messages)
    assert part.match.xg[1].uncounted == 1


def test_ratings_are_gnubg_words() -> None:
    assert [rating(x) for x in (0.001, 0.004, 0.007, 0.011, 0.017, 0.025, 0.034, 0.05)] == [
        "Supernatural", "World class", "Expert", "Advanced", "Intermediate", "Casual player", "Beginner", "Awful!"]
    assert [luck_rating(x) for x in (0.07, 0.04, 0.0, -0.04, -0.07)] == [
        "Go to Las Vegas", "Good dice, man!", "None", "Bad dice, man!", "Go to bed"]


def test_the_pr_interval_is_deterministic_and_holds_the_pr() -> None:
    m = read_match(DATA / "fibs_pghpete_crawford_double.sgf")
    a, b = statistics(m), statistics(m)
    assert a.to_dict() == b.to_dict()
    for x in a.match.xg:
        assert x.pr is not None and x.pr_low is not None and x.pr_high is not None
        assert x.pr_low <= x.pr <= x.pr_high
    other = statistics(m, seed=BOOTSTRAP_SEED + 1).match.xg[0]
    assert (other.pr_low, other.pr_high) != (a.match.xg[0].pr_low, a.match.xg[0].pr_high)


def test_statistics_of_a_match_and_its_games_agree() -> None:
    st: Statistics = statistics(read_match(DATA / "galaxy_1093632.sgf"))
    assert len(st.games) == 1 and st.game_numbers == [1]
    assert st.games[0].to_dict() == st.match.to_dict() or st.games[0].gnubg == st.match.gnubg
