"""OGXM against its two other codecs, over the .xg, .mat and SGF records of the corpus (a sample of each kind;
all of them with GAMMON_FULL_CORPUS=1):

- the reference codec (PyPI ``ogxm``, libogxm) decodes our files with their checksum verified and no rule
  broken, replays them to the end, and reads ply for ply what we read in GammonView's files;
- GammonView (PyPI ``gammonview``, module ``gvformat``) reads our files as the same match, and its files
  read as the same match as their sources, analysis figures included.

Each oracle is optional: a test skips when its package or the corpus is absent."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FULL, kept, kind_of, oracle_stamp, sampled_per_kind

from notation.formats.ogxm import read_ogxm, write_ogxm
from notation.matchio import read_match
from notation.play import resolve_play
from notation.replay import replay_match

pytestmark = pytest.mark.xdist_group("ogxm_corpus")  # one worker reads, writes and replays the files once
sys.path.insert(0, str(Path(__file__).parent))
from ogxm_digest import (  # noqa: E402
    Digest,
    of_document,
    of_match,
    plies_of_model,
    plies_of_reference,
    swapped,
    unplayable_games,
)

# GammonView's codec is slow (about 0.4 s to write or read a match, up to 14 s on a file it misreads): each
# file is converted, written and read once for the session, and the tests share the results.  The sweeps
# take a sample: every fourth record of each kind (directory and the program that wrote it, so every
# dialect and every source program is in), all of them with GAMMON_FULL_CORPUS=1.


def records(corpus: Path) -> list[Path]:
    return sorted([*corpus.glob("xg/*.xg"), *(p for p in corpus.glob("mat/**/*") if p.is_file()),
                   *corpus.glob("sgf/*.sgf")])


def sample(corpus: Path) -> list[Path]:
    """The records the sweeps take (:func:`records` when GAMMON_FULL_CORPUS=1); every kind is in."""
    every = records(corpus)
    assert len(every) > 150
    files = sampled_per_kind(every, 4)
    assert {kind_of(p) for p in files} == {kind_of(p) for p in every}
    return files


@functools.cache
def source(path: Path) -> tuple[Digest, set[int], int]:
    """A corpus record as read and replayed: its digest, its games the replay cannot finish, and how many
    set-position plies with dice its OGXM must hold (its illegal plays, the plays from one the replay
    could not make on, and the positions set by hand after a roll: Snowie's "Illegal play")."""
    m = read_match(path)
    rep = replay_match(m)
    bad = unplayable_games(m)
    illegal = sum(1 for gr in rep.games for st in gr.steps if not st.legal and st.action.kind == "move")
    by_hand = sum(1 for gr in rep.games for st in gr.steps if st.action.kind == "setup" and st.action.dice)
    placed = {id(st.action) for gr in rep.games for st in gr.steps}
    unplaced = sum(1 for i in bad for a in m.games[i].actions
                   if id(a) not in placed and a.kind in ("move", "roll") and a.dice)
    return of_match(m), bad, illegal + by_hand + unplaced


@functools.cache
def ours(path: Path) -> bytes:
    return write_ogxm(read_match(path))[0]


@functools.cache
def reference(path: Path) -> dict[str, Any]:
    """The reference codec's verdict on our file, whether it replays it to the end, and each game's plies
    as it reads them (action, dice, OGID before and after)."""
    ogxm = pytest.importorskip("ogxm")
    data = ours(path)

    def decode() -> dict[str, Any]:
        doc = ogxm.binary_to_json(data)
        games = [[{k: p.get(k) for k in ("action_id", "d1", "ogid_before", "ogid_after")} for p in g["plies"]]
                 for g in doc["games"]]
        return {"verify": ogxm.verify(data), "complete": doc["replay_complete"], "games": games}

    return kept("ogxm-reference", (data, oracle_stamp(ogxm)), decode)  # by our file's bytes


DIGEST = Path(__file__).parent / "ogxm_digest.py"


@functools.cache
def gammonview(path: Path) -> tuple[bytes, Digest]:
    """GammonView's OGXM of a source file, and the digest of its document of the source (what it
    understood); kept between runs by the file's bytes (:func:`conftest.kept`: its writer takes seconds)."""
    gvformat = pytest.importorskip("gvformat")

    def convert() -> tuple[bytes, Digest]:
        doc = gvformat.convert_xg(path) if path.suffix == ".xg" else gvformat.convert_mat(path)
        return gvformat.write_gvab(doc), of_document(doc, reference=False)

    return kept("gammonview-convert", (path.name, path.read_bytes(), oracle_stamp(gvformat, DIGEST)), convert)


def gammonview_reads(data: bytes) -> Digest:
    """The digest of GammonView's reading of an OGXM file (kept between runs by its bytes)."""
    gvformat = pytest.importorskip("gvformat")
    return kept("gammonview-read", (data, oracle_stamp(gvformat, DIGEST)),
                lambda: of_document(gvformat.read_gvab(data), reference=False))


def test_the_reference_codec_verifies_and_replays_every_file_we_write(corpus: Path) -> None:
    pytest.importorskip("ogxm")
    for path in sample(corpus):
        ref = reference(path)
        assert ref["verify"] == (None, True), path.name
        assert ref["complete"], path.name
        restated = sum(1 for g in ref["games"] for p in g if p["action_id"] == 31 and p["d1"])
        assert restated == source(path)[2], path.name


def test_gammonview_reads_every_file_we_write_as_the_same_match(corpus: Path) -> None:
    pytest.importorskip("gvformat")
    for path in sample(corpus):
        expected, bad, _ = source(path)
        theirs = gammonview_reads(ours(path))
        for gi in bad:  # the plies up to the one the replay cannot make
            theirs[gi] = (theirs[gi][0], theirs[gi][1], theirs[gi][2][:len(expected[gi][2])])
        assert theirs == expected, path.name


def test_gammonview_files_read_as_their_sources(corpus: Path) -> None:
    """GammonView's OGXM of every corpus .xg and .mat file reads as the same match as its source, wherever
    GammonView's own conversion is the source's (it makes the alphabetically first player of a .mat White;
    on 24 files it mistakes the dialect or loses a result and writes another match, 18 of which the reference
    codec refuses:
    there our reading agrees ply for ply with the reference codec's, and our replay says what is wrong)."""
    pytest.importorskip("gvformat")
    ogxm = pytest.importorskip("ogxm")
    faithful = unfaithful = 0
    mats = sorted(p for p in corpus.glob("mat/**/*") if p.is_file())
    # every sixth file of each kind (the codec takes 0.4-14 s a file): 44 of 154 files, 7 of them misread
    files = sampled_per_kind(sorted([*corpus.glob("xg/*.xg"), *mats]), 6)
    for path in files:
        data, understood = gammonview(path)
        m = read_ogxm(data, name=path.name)[0]
        # either way round: GammonView makes the alphabetically first player of a .mat White (of the names
        # as it reads them, which may not be ours: it keeps FIBS ratings in them, 'nori,1769')
        both = [source(path)[0], swapped(source(path)[0])]
        if understood in both:
            assert of_match(m) in both, path.name
            faithful += 1
            continue
        unfaithful += 1
        try:
            ref = ogxm.binary_to_json(data)
        except ogxm.OgxmError:
            assert ogxm.verify(data)[0] is not None
        else:
            assert plies_of_model(m) == plies_of_reference(ref), path.name
        if of_match(m) not in both:
            assert any(f.severity in ("error", "warning") for f in replay_match(m).findings), path.name
    assert faithful + unfaithful == len(files)
    assert faithful >= 130 and len(files) == 154 if FULL else faithful >= 0.8 * len(files)


def _boards(before: object, candidates: object) -> dict[tuple[object, object], object]:
    out = {}
    for c in candidates:  # type: ignore[attr-defined]
        play = resolve_play(before, c.play, before.dice).play  # type: ignore[attr-defined]
        out[(play.mine, play.theirs)] = c
    return out


def test_analysis_figures_read_as_the_source_s(corpus: Path) -> None:
    """The analysis of GammonView's OGXM of each .xg reads back as XG's figures: every ranked play (matched
    by the position it leaves) with its equity and probabilities, every cube decision, every luck figure,
    to GammonView's precision (it keeps four decimals).  XG's unanalysed cube decisions (all three equities
    0, which the .xg reader gives today) are what GammonView leaves out; the analysis of an illegal play
    GammonView keeps in its own annotation (``x-gammonview-decisions``, kept as it is, not read).  The ranked
    plays of a roll its roller resigned after without playing (XG analysed it; the .xg reader keeps that) are
    what GammonView leaves out: it keeps no checker decision without a play."""
    pytest.importorskip("gvformat")
    n = {"plays": 0, "cubes": 0, "luck": 0, "unplayed": 0}
    for path in sorted(corpus.glob("xg/*.xg")):
        original = read_match(path)
        m = read_ogxm(gammonview(path)[0])[0]
        for gs, gm in zip(replay_match(original).games, replay_match(m).games, strict=True):
            kinds = ("move", "roll", "double", "take", "drop")
            for a, b in zip([s for s in gs.steps if s.action.kind in kinds],
                            [s for s in gm.steps if s.action.kind in kinds], strict=True):
                x, y = a.action.analysis, b.action.analysis
                if x is None or x.is_empty() or not a.legal:
                    continue
                if x.checker is not None and x.checker.candidates and a.action.kind == "roll":
                    # a roll not played (the roller resigned): XG ranked its plays, GammonView keeps no checker
                    # decision without a play
                    assert y is None or y.checker is None, path.name
                    n["unplayed"] += 1
                elif x.checker is not None and x.checker.candidates:
                    assert y is not None and y.checker is not None, path.name
                    cx, cy = _boards(a.before, x.checker.candidates), _boards(b.before, y.checker.candidates)
                    assert set(cx) == set(cy), path.name
                    for k, c in cx.items():
                        assert abs(c.equity - cy[k].equity) < 1e-4, path.name  # type: ignore[attr-defined]
                        p, q = c.probabilities, cy[k].probabilities  # type: ignore[attr-defined]
                        assert abs(p.win - q.win) < 6e-5 and abs(p.win_gammon - q.win_gammon) < 6e-5
                        n["plays"] += 1
                if x.cube is not None and (x.cube.no_double, x.cube.double_take, x.cube.double_pass) != (0, 0, 0):
                    assert y is not None and y.cube is not None, path.name
                    for f in ("no_double", "double_take", "double_pass"):
                        assert abs(getattr(x.cube, f) - getattr(y.cube, f)) < 1e-4, path.name
                    n["cubes"] += 1
                if x.luck is not None:
                    assert y is not None and y.luck is not None and abs(x.luck - y.luck) < 1e-4, path.name
                    n["luck"] += 1
    assert n["plays"] > 10000 and n["cubes"] > 800 and n["luck"] > 800 and n["unplayed"] >= 2


def test_ogids_agree_with_the_reference_codec_s(corpus: Path) -> None:
    """For every ply of our OGXM of every corpus record, the OGIDs before and after it that the library
    gives (``notation.formats.ogxm.game_ogids``, of our replay of the file as we read it) are the reference
    codec's, every field: the cube right after a take (``W1T``), the state and the player of a resignation
    and of the game-over ply, the move number after a set-position ply, the Crawford game in the length
    field (``7C``).  (It gave 4,228 of 127,610 other ones, and none for the game-over plies.)"""
    pytest.importorskip("ogxm")
    from notation.formats.ogxm import game_ogids

    checked = 0
    wrong: list[tuple[str, int, str | None, str]] = []
    for path in sample(corpus):
        games = reference(path)["games"]
        m = read_ogxm(ours(path), keep=False)[0]
        unfinished = unplayable_games(m)
        for gi, (plies, gr) in enumerate(zip(games, replay_match(m).games, strict=True)):
            plies = [p for p in plies if p["action_id"] != 36]  # a cube set with a set-up: its position's cube
            got = game_ogids(gr, crawford_rule=m.rules.crawford)
            if gi in unfinished:  # the plays after one the replay cannot make are no steps: no OGIDs
                plies = plies[:len(got)]
            assert len(got) == len(plies), (path.name, gi + 1)
            for (_, before, after), ply in zip(got, plies, strict=True):
                for mine, theirs in ((before, ply["ogid_before"]), (after, ply["ogid_after"])):
                    checked += 1
                    if mine != theirs:
                        wrong.append((path.name, gi + 1, mine, theirs))
    assert not wrong, (len(wrong), wrong[:3])
    assert checked > (80000 if FULL else 20000)
