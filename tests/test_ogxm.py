"""OGXM read and written: the codec on its own (no oracle needed).  The reference codec and GammonView
as oracles over the whole corpus are in test_ogxm_corpus.py; damaged files in test_ogxm_damaged.py."""

from __future__ import annotations

import base64
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import kind_of, sampled_per_kind

from notation.analysis import Rollout
from notation.errors import NotationError, ParseError
from notation.formats import _ogxm_wire as W
from notation.formats.json_format import from_json, to_json
from notation.formats.mat import parse_matches
from notation.formats.ogxm import is_stream, iter_ogxm, read_ogxm, write_ogxm, write_ogxms
from notation.matchio import read_match
from notation.position import Position
from notation.record import Match
from notation.replay import replay_match

sys.path.insert(0, str(Path(__file__).parent))
from ogxm_digest import of_match  # noqa: E402

DATA = Path(__file__).parent / "data"
CHARLOT = DATA / "mat_gnubg_charlot_7p.mat"
CHARLOT_IMPLIED = ("2 games that end before they are played out with no resignation written (an implied resignation): "
                   "OGXM says it as one, read back as a resignation and its acceptance")
"""What converting CHARLOT to OGXM says: two of its games end with 'Wins' and no resignation written (gnubg's
.mat writes a resignation so)."""
GV_CHARLOT = DATA / "ogxm_gammonview_charlot_7p.ogxm"
GV_CHARLOT_V1 = DATA / "ogxm_gammonview_charlot_7p_v1.ogxm"
SAMPLES = [CHARLOT, *sorted(DATA.glob("mat_gnubg_*.mat")), DATA / "mat_snowie_setup.txt", DATA / "mat_xg_dialect.txt",
           DATA / "sgf_gnubg_analysed.sgf", DATA / "sgf_gibbon_edited_position.sgf", DATA / "mat_galaxy_dialect.txt",
           DATA / "sgf_gnubg_beaver.sgf"]


def sections(data: bytes) -> list[W.Section]:
    return W.split(data, "t").sections


def rebuild(secs: list[bytes]) -> bytes:
    return W.assemble(secs)


@pytest.mark.parametrize("path", sorted(set(SAMPLES)), ids=lambda p: p.name)
def test_written_file_reads_back_as_the_record_and_rewrites_to_the_same_bytes(path: Path) -> None:
    """Our OGXM of a record reads back as the same match (games, rolls, boards, cube actions, results), and
    a file we wrote, read and written again (also through JSON), gives the same bytes."""
    m = read_match(path)
    data, _dropped = write_ogxm(m)
    back = read_ogxm(data, name="t.ogxm", keep=False)[0]
    assert of_match(back) == of_match(m)
    assert write_ogxm(back)[0] == data
    assert write_ogxm(from_json(to_json(back)))[0] == data


def test_corpus_files_we_wrote_rewrite_to_the_same_bytes(corpus: Path) -> None:
    """OGXM → JSON → OGXM gives the same bytes for the corpus records we write (.xg, .mat and SGF): every
    third of each kind, all of them with GAMMON_FULL_CORPUS=1."""
    every = sorted([*corpus.glob("xg/*.xg"), *(p for p in corpus.glob("mat/**/*") if p.is_file()),
                    *corpus.glob("sgf/*.sgf")])
    assert len(every) > 150
    files = sampled_per_kind(every, 3)
    assert {kind_of(p) for p in files} == {kind_of(p) for p in every}
    for path in files:
        data, _ = write_ogxm(read_match(path))
        back = read_ogxm(data, keep=False)[0]
        assert write_ogxm(from_json(to_json(back)))[0] == data, path.name


def test_a_gammonview_file_reads_as_its_source() -> None:
    source = read_match(CHARLOT)
    m = read_ogxm(GV_CHARLOT.read_bytes(), name=str(GV_CHARLOT))[0]
    assert m.format == "ogxm" and m.names == ("charlot1", "charlot2") and m.length == 7
    assert not [n for n in m.normalisations if "checksum" in n.message]
    assert of_match(m) == of_match(source)
    assert ("source", "1") in m.tags and ("started_at", "2025-11-08") in m.tags
    assert not [f for f in replay_match(m).findings if f.severity == "error"]


def test_version_1_reads_as_version_2() -> None:
    v2 = read_ogxm(GV_CHARLOT.read_bytes())[0]
    v1 = read_ogxm(GV_CHARLOT_V1.read_bytes())[0]
    assert of_match(v1) == of_match(v2)
    assert any("OGXM v1.3" in n.message for n in v1.normalisations)


def test_an_unchanged_record_keeps_the_file_s_bytes_and_a_changed_one_is_written_anew() -> None:
    raw = GV_CHARLOT.read_bytes()
    m = read_ogxm(raw)[0]
    assert write_ogxm(m) == (raw, [])
    m.games[1].comments.append("a note on game 2")
    data, _ = write_ogxm(m)
    assert data != raw
    back = read_ogxm(data)[0]
    assert back.games[1].comments == ["a note on game 2"]
    assert of_match(back) == of_match(m)


def test_an_illegal_play_is_a_set_position_ply_and_reads_back_as_the_play() -> None:
    """Each illegal play (here one made so, and the plays the board then makes illegal after it) is a
    set-position ply with its dice and the illegal flag; it reads back as the play as recorded, and the
    replay reports the same errors."""
    text = CHARLOT.read_text().replace("41: 24/20* 24/23", "42: 24/20* 24/23", 1)  # the 1 is not rolled
    m = parse_matches(text, name="illegal.mat")[0]
    illegal = [st.action.play for gr in replay_match(m).games for st in gr.steps if not st.legal]
    data, _ = write_ogxm(m)
    plies = [p for s in sections(data) if s.kind == b"GAME" for p in W.decode_game(s.payload, s.start, "t")[1]]
    restated = [p for p in plies if p[0] == W.SET_POSITION]
    assert len(restated) == len(illegal) > 0
    assert all(p[3]["illegal"] and len(p[3]["dice"]) == 2 for p in restated)
    back = read_ogxm(data, name="illegal.ogxm")[0]
    assert [st.action.play for gr in replay_match(back).games for st in gr.steps if not st.legal] == illegal
    assert illegal == ["24/20* 24/23"]
    errors = [f.message for f in replay_match(m).findings if f.severity == "error"]
    assert [f.message for f in replay_match(back).findings if f.severity == "error"] == errors


def test_tags_comments_and_properties_keep_their_names() -> None:
    m = read_match(CHARLOT)
    m.tags += [("Event", "Club night"), ("round", "3"), ("site", "club.example.org"), ("Player 1 Elo", "1500"),
               ("x-other-tool", "1:kept"), ("Player 1 Elo", "1501")]
    m.comments.append("a header comment")
    m.games[0].actions[0].comment = "first roll"
    m.games[0].actions[0].properties["x-private"] = ["a", "b"]
    m.games[2].properties["termination"] = ["1"]
    data, _ = write_ogxm(m)
    mtch = W.decode_mtch(sections(data)[0].payload, 16, "t")
    assert (mtch["event"], mtch["round"], mtch["site"]) == ("Club night", 3, "club.example.org")
    back = read_ogxm(data)[0]
    assert ("event", "Club night") in back.tags and ("round", "3") in back.tags
    assert [v for k, v in back.tags if k == "Player 1 Elo"] == ["1500", "1501"]
    assert ("x-other-tool", "1:kept") in back.tags
    assert back.comments == ["a header comment"]
    first = back.games[0].actions[0]
    assert first.comment == "first roll" and first.properties["x-private"] == ["a", "b"]
    assert back.games[2].properties["termination"] == ["1"]


def test_a_value_longer_than_an_ogxm_string_is_continued_and_read_back_whole() -> None:
    """OGXM's strings hold 4096 bytes: a longer comment, tag or property (XG's thumbnail, in Base64, is 15 to
    18 KB) is its first 4096 bytes in its own annotation and the rest in ``x-gammon-notation-more`` ones,
    which the reader joins back; nothing is dropped, and the reference codec takes the file."""
    m = read_match(CHARLOT)
    long_c = "é" * 3000 + "x" * 5000  # 11,000 bytes, cut between characters
    m.comments += ["short", long_c, "y" * 9000]
    m.tags.append(("Annotator", "z" * 5000))
    m.properties["xg:thumbnail"] = ["A" * 16092]
    m.games[1].comments.append("g" * 4097)
    m.games[0].actions[0].comment = "€" * 2000
    m.games[0].actions[0].properties["x-private"] = ["p" * 8193, "q"]
    data, dropped = write_ogxm(m)
    assert dropped == [CHARLOT_IMPLIED]  # none of the long values
    annos = W.decode_anno(next(s for s in sections(data) if s.kind == b"ANNO").payload, 0, "t")
    assert max(len(r["value"].encode("utf-8")) for r in annos) <= W.MAX_STRING
    assert sum(1 for r in annos if r.get("key", "").startswith("x-gammon-notation-more")) == 12
    back = read_ogxm(data)[0]
    assert back.comments[-3:] == ["short", long_c, "y" * 9000]
    assert ("Annotator", "z" * 5000) in back.tags and back.properties["xg:thumbnail"] == ["A" * 16092]
    assert back.games[1].comments[-1] == "g" * 4097
    first = back.games[0].actions[0]
    assert first.comment == "€" * 2000 and first.properties["x-private"] == ["p" * 8193, "q"]
    assert write_ogxm(back)[0] == data
    ogxm = pytest.importorskip("ogxm")
    assert ogxm.verify(data) == (None, True)
    assert ogxm.json_to_binary(ogxm.binary_to_json(data)) == data


def test_an_unknown_ancillary_section_is_kept_and_an_unknown_critical_one_refused() -> None:
    data, _ = write_ogxm(read_match(CHARLOT))
    secs = [s.raw() for s in sections(data)]
    extra = W.section(b"XTRA", b"producer's own", False)
    with_extra = rebuild([secs[0], extra, *secs[1:]])
    m = read_ogxm(with_extra)[0]
    assert any(k.startswith("XTRA:MTCH:") for k in m.properties["ogxm.keep"])
    m.games[0].comments.append("changed")
    again = write_ogxm(m)[0]
    assert [s.kind for s in sections(again)][:2] == [b"MTCH", b"XTRA"]
    critical = rebuild([secs[0], W.section(b"XTRA", b"must be understood", True), *secs[1:]])
    with pytest.raises(ParseError, match=r"unknown critical section 'XTRA'.*\(byte 55\)"):
        read_ogxm(critical)


def test_what_cannot_be_written_is_said() -> None:
    text = CHARLOT.read_text()
    m = parse_matches(text.replace("  2) 62: 13/7* 24/22", "  2) 62: 13/7* 24/22", 1), name="x.mat")[0]
    m.rules.cube_limit = 3
    _, dropped = write_ogxm(m)
    assert any("cube limit 3" in d for d in dropped)
    dutch = read_match(CHARLOT)
    dutch.rules.variant = "dutch"
    with pytest.raises(NotationError, match="variant 'dutch'"):
        write_ogxm(dutch)


def test_a_rollout_s_settings_are_said_dropped() -> None:
    """XG's rollouts (:class:`~notation.analysis.Rollout` on a ranked play or a cube decision): the figures are
    written, the settings are not, and the writer says so."""
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    assert not any("rollouts' settings" in d for d in write_ogxm(m)[1])
    ro = Rollout(trials=1296, truncation=None, error=0.004, checker_level="XG Roller")
    actions = [a for g in m.games for a in g.actions if a.analysis is not None]
    a = next(a for a in actions if a.analysis and a.analysis.checker and a.kind == "move")
    assert a.analysis is not None and a.analysis.checker is not None
    ch = a.analysis.checker
    a.analysis = replace(a.analysis, checker=replace(ch, candidates=(replace(ch.candidates[0], rollout=ro),
                                                                     *ch.candidates[1:])))
    b = next(b for b in actions if b.analysis and b.analysis.cube and b.kind == "move")
    assert b.analysis is not None and b.analysis.cube is not None
    b.analysis = replace(b.analysis, cube=replace(b.analysis.cube, no_double=0.1, double_take=0.05, double_pass=1.0,
                                                  verdict="No double", rollout=ro))
    assert any(d.startswith("2 rollouts' settings") for d in write_ogxm(m)[1])


def test_analysis_is_written_in_match_winning_chances_and_read_back_as_the_producer_s_equities() -> None:
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    data, dropped = write_ogxm(m)
    anal = next(W.decode_anal(s.payload, s.start, "t") for s in sections(data) if s.kind == b"ANAL")
    assert anal["currency"] == (2 if m.length else 1) and anal["model_name"] == "GNU Backgammon"
    back = read_ogxm(data)[0]
    pairs = [(a.analysis, b.analysis) for g, h in zip(m.games, back.games, strict=True)
             for a, b in zip([x for x in g.actions if x.kind != "accept"], [y for y in h.actions if y.kind != "accept"],
                             strict=False) if a.analysis is not None and a.analysis.checker is not None]
    assert len(pairs) > 20
    for x, y in pairs:
        assert y is not None and y.checker is not None and y.producer == "GNU Backgammon"
        # the same figures, to the precision an OGXM match-winning chance holds (1e-6 of a chance)
        ex = sorted(c.equity for c in x.checker.candidates if c.equity is not None)
        ey = sorted(c.equity for c in y.checker.candidates if c.equity is not None)
        assert len(ex) == len(ey) and max(abs(u - v) for u, v in zip(ex, ey, strict=True)) < 2e-5
    assert any("gnubg analysis properties" in d for d in dropped)


def test_streams_give_each_member_and_then_the_damaged_tail() -> None:
    matches = [read_match(p) for p in (CHARLOT, DATA / "mat_gnubg_selfplay_3p.mat", DATA / "mat_gnubg_selfplay_1p.mat")]
    data, dropped = write_ogxms(matches)
    assert is_stream(data) and dropped == [f"member 1: {CHARLOT_IMPLIED}"]
    back = read_ogxm(data, name="s.ogxms")
    assert len(back) == 3
    assert [of_match(m) for m in back] == [of_match(m) for m in matches]
    cut = data[:-10]
    got = []
    with pytest.raises(ParseError, match=rf"stream member 3 is truncated.*\(byte {len(cut)}\)"):
        for m in iter_ogxm(cut, name="s.ogxms"):
            got.append(m)
    assert len(got) == 2


def test_signatures_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signed file (made with the reference codec's signing payloads when it and cryptography are
    installed): the signatures verify, a changed record loses them (said), and without cryptography
    they are reported present and not verified."""
    ogxm = pytest.importorskip("ogxm")
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from ogxm import signature

    data, _ = write_ogxm(read_match(DATA / "sgf_gnubg_analysed.sgf"))
    doc = ogxm.binary_to_json(data)
    key = Ed25519PrivateKey.generate()
    pub = base64.b64encode(key.public_key().public_bytes(serialization.Encoding.Raw,
                                                         serialization.PublicFormat.Raw)).decode()
    zero = base64.b64encode(bytes(64)).decode()
    doc["analysis_info"]["signature"] = {"algorithm": 1, "signature": zero, "public_key": pub}
    doc["analysis_info"]["signature"]["signature"] = base64.b64encode(
        key.sign(signature.analysis_payload(doc, 0))).decode()
    doc["match_signatures"] = [{"algorithm": 1, "signature": zero, "public_key": pub}]
    doc["match_signatures"][0]["signature"] = base64.b64encode(key.sign(signature.match_payload(doc, 0))).decode()
    signed = ogxm.json_to_binary(doc)
    m = read_ogxm(signed)[0]
    notes = [n.message for n in m.normalisations if "signed" in n.message]
    assert len(notes) == 2 and all("verifies with the key it carries" in n for n in notes)
    m.games[0].comments.append("annotations are not signed")
    kept, dropped = write_ogxm(m)
    assert not dropped and signature.verify_analysis(kept) and signature.verify_match(kept)
    m.games[0].actions[1].play = "13/11 6/5"
    _, dropped = write_ogxm(m)
    assert any("match signature (MSIG)" in d for d in dropped)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    monkeypatch.setitem(sys.modules, "cryptography.exceptions", None)
    notes = [n.message for n in read_ogxm(signed)[0].normalisations if "signed" in n.message]
    assert len(notes) == 2 and all("present, not verified" in n and "cryptography" in n for n in notes)


def test_rolls_after_a_play_that_cannot_be_made_say_their_dice_order_is_not_kept() -> None:
    """After a play the replay cannot make, OGXM writes each roll lower die first (a set-position ply, whose
    OGIDs say the dice so): a roll written higher first is counted in what the conversion says, not turned
    round silently."""
    m = read_match(DATA.parent.parent / "samples" / "illegal_plays.mat")
    acts = m.games[0].actions
    k = next(i for i, a in enumerate(acts) if a.kind == "move" and i > 3)
    acts[k] = replace(acts[k], player=1 - acts[k].player)  # the same side twice: the rest cannot be checked
    gr = replay_match(m).games[0]
    assert not gr.verifiable
    done = {id(st.action) for st in gr.steps}
    higher = sum(1 for a in acts if id(a) not in done and a.kind in ("move", "roll") and a.dice is not None
                 and a.dice[0] > a.dice[1])
    assert higher > 0
    _data, dropped = write_ogxm(m)
    said = [d for d in dropped if d.endswith(" rolls of an illegal play or a set-up position written higher die "
                                             "first: OGXM's set-position ply holds the dice lower die first (read "
                                             "back so)")]
    assert len(said) == 1 and int(said[0].split()[0]) >= higher, dropped


def test_a_roll_written_lower_die_first_is_said() -> None:
    """A dice ply's action id is the roll, not the order of its dice: OGXM reads it back higher die first,
    so each roll written lower die first (FIBS clients, PlayOK) is counted in what the conversion says and
    --strict refuses; a file whose rolls are all written higher die first says nothing of dice."""
    m = parse_matches((DATA / "mat_fibs_dialect.txt").read_text())[0]
    lower = sum(1 for g in m.games for a in g.actions if a.kind in ("move", "roll") and a.dice is not None
                and a.dice[0] < a.dice[1])
    assert lower > 0
    data, dropped = write_ogxm(m)
    back = read_ogxm(data)[0]
    turned = sum(1 for g, h in zip(m.games, back.games, strict=True) for a, b in zip(
        [a for a in g.actions if a.dice], [b for b in h.actions if b.dice], strict=True)
        if a.dice != b.dice and a.dice[0] < a.dice[1])  # type: ignore[index]
    assert 0 < turned <= lower  # (an illegal play's set-position ply holds the dice lower die first)
    assert (f"{turned} rolls written lower die first: OGXM's dice ply holds the roll, not the order of its dice "
            "(read back higher die first)") in dropped, dropped
    assert not any("die first" in d for d in write_ogxm(read_match(CHARLOT))[1])


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """What the writer counts is said as ``1 game that ends ...``, not ``1 games that end ...``."""
    m = read_match(CHARLOT)
    implied = [g for g in m.games if g.actions and g.actions[-1].kind == "win"
               and not any(a.kind == "resign" for a in g.actions)]
    assert len(implied) >= 2
    m.games = [g for g in m.games if g is implied[0] or g not in implied]
    dropped = write_ogxm(m)[1]
    assert ("1 game that ends before it is played out with no resignation written (an implied resignation): "
            "OGXM says it as one, read back as a resignation and its acceptance") in dropped, dropped

def test_a_limit_of_automatic_doubles_above_one_is_said() -> None:
    """OGXM's rules say only that automatic doubles are played: a limit of 3 a game reads back as 1."""
    m = read_match(DATA / "mat_gnubg_selfplay_money.mat")
    m.rules.auto_doubles = 3
    data, dropped = write_ogxm(m)
    assert read_ogxm(data)[0].rules.auto_doubles == 1
    assert ("at most 3 automatic doubles a game: OGXM says only that automatic doubles are played (read back as at "
            "most 1)") in dropped
    m.rules.auto_doubles = 1
    data, dropped = write_ogxm(m)
    assert read_ogxm(data)[0].rules.auto_doubles == 1 and not any("automatic doubles" in d for d in dropped)


def test_comments_and_properties_of_actions_with_no_ply_are_said_to_move_to_the_game() -> None:
    """A result (and an acceptance, a rejection) has no ply in OGXM: its comment and properties are written on
    the game, and read back as the game's."""
    m = read_match(DATA / "mat_gnubg_selfplay_money.mat")
    win = next(a for a in m.games[0].actions if a.kind == "win")
    win.comment = "well played"
    win.properties["ZZ"] = ["v"]
    data, dropped = write_ogxm(m)
    back = read_ogxm(data)[0].games[0]
    assert "well played" in back.comments and back.properties.get("ZZ") == ["v"]
    assert ("1 comment on an action OGXM has no ply for (a result, an acceptance ...): written on the game, read "
            "back as a comment of the game") in dropped
    assert ("1 property of an action OGXM has no ply for (a result, an acceptance ...): written on the game, read "
            "back as a property of the game") in dropped


def test_match_properties_are_said_to_read_back_as_tags() -> None:
    """A keyed annotation on the match is read as a header tag: a match property other than XG's thumbnail
    comes back as a tag."""
    m = read_match(DATA / "mat_gnubg_selfplay_money.mat")
    m.properties["ZZ"] = ["v"]
    m.properties["xg:thumbnail"] = ["QUJD"]
    data, dropped = write_ogxm(m)
    back = read_ogxm(data)[0]
    assert ("ZZ", "v") in back.tags and back.properties["xg:thumbnail"] == ["QUJD"]
    assert ("match properties ZZ: written as OGXM annotations on the match, which are read back as header tags"
            in dropped)


def test_a_starting_position_is_kept_and_what_ogxm_cannot_hold_of_it_is_said() -> None:
    """OGXM's start of a game holds its board and cube (GAME's initial board, cube value and owner), and the side
    on roll is the first ply's.  A start on the opening board is written with the board (it read back as no start
    at all), and what the start holds besides is said: its dice, another side on roll, a pending double, a cube
    that is not a power of two (which OGXM refuses)."""
    m = read_match(DATA / "mat_gnubg_selfplay_money.mat")
    game = m.games[0]
    first = game.actions[0].player
    game.start = Position.initial(names=m.names, turn=first)
    data, dropped = write_ogxm(m)
    back = read_ogxm(data)[0]
    start = back.games[0].start
    assert start is not None and (start.boards, start.turn, start.dice, start.cube) == (game.start.boards, first,
                                                                                        None, 1)
    assert not [d for d in dropped if "starting position" in d]
    assert write_ogxm(back)[0] == data
    game.start = Position.initial(names=m.names, turn=1 - first, dice=(3, 1), cube=2, cube_owner=first)
    data, dropped = write_ogxm(m)
    start = read_ogxm(data)[0].games[0].start
    assert start is not None and (start.turn, start.dice, start.cube, start.cube_owner) == (first, None, 2, first)
    assert [d for d in dropped if "starting position" in d] == [
        "game 1: the dice 31 of its starting position: OGXM's start of a game holds the board and the cube, not the "
        "dice (read back without)",
        f"game 1: player {1 - first} on roll in its starting position: OGXM's start of a game holds the board and "
        f"the cube, and the side on roll is the first ply's (read back as player {first})"]
    game.start = Position.initial(names=m.names, turn=first, cube=3)
    data, dropped = write_ogxm(m)
    start = read_ogxm(data)[0].games[0].start
    assert start is not None and start.cube == 1
    assert [d for d in dropped if "starting position" in d] == [
        "game 1: the cube value 3 of its starting position: OGXM holds a power of two (read back as 1)"]
    game.start = Position.initial(names=m.names, turn=first, cube=2, double_offered=True)
    assert ("game 1: a double pending in its starting position: OGXM's start of a game holds the board and the cube "
            "(read back as none)") in write_ogxm(m)[1]



def test_a_beaver_s_take_is_in_the_beaver_ply() -> None:
    """gnubg's beaver (``sgf_gnubg_beaver.sgf``: W doubles, B beavers, W takes, W rolls) was written with a take
    ply after the beaver, a file the reference codec refuses ('turn order'): OGXM's beaver and raccoon plies
    hold their take.  The take is no ply of its own, and the reader gives it back."""
    m = read_match(DATA / "sgf_gnubg_beaver.sgf")
    assert [a.kind for a in m.games[0].actions][2:5] == ["double", "beaver", "take"]
    data, dropped = write_ogxm(m)
    assert not dropped
    back = read_ogxm(data)[0]
    assert [(a.kind, a.player) for a in back.games[0].actions] == [(a.kind, a.player) for a in m.games[0].actions]
    ogxm = pytest.importorskip("ogxm")
    assert ogxm.verify(data) == (None, True)
    assert [p["action_id"] for p in ogxm.binary_to_json(data)["games"][0]["plies"]][2:] == [21, 32, 5]


def test_a_raccoon_the_rules_do_not_allow_is_written_with_the_rule_and_said() -> None:
    """``mat_multi_money.mat`` (beavers on, no raccoon tag) holds a raccoon: OGXM's rules said no raccoons, a file
    the reference codec refuses ('turn order').  The raccoon rule is written as the record's raccoon says, and
    that is said (a rule that reads back otherwise)."""
    m = read_match(DATA / "mat_multi_money.mat")
    assert not m.rules.raccoons and "raccoon" in [a.kind for a in m.games[0].actions]
    data, dropped = write_ogxm(m)
    assert ("the rules: raccoons written as allowed, as the record's raccoon says (its rules did not allow "
            "raccoons; read back as allowed)") in dropped
    assert read_ogxm(data)[0].rules.raccoons
    ogxm = pytest.importorskip("ogxm")
    assert ogxm.verify(data) == (None, True)

def test_an_empty_move_where_the_record_stops_is_a_roll_left_unplayed() -> None:
    """gnubg's .mat export of an unfinished game ends '11:' (then 'Game 2'): an empty play with plays to make,
    which the replay takes as a roll not played.  It was a dice ply with no steps, which the reference codec
    replays as an illegal play (no OGIDs after it); it is left out, and said, as a roll left unplayed."""
    m = read_match(DATA / "gnubg_export_long_names.mat")
    data, dropped = write_ogxm(m)
    assert ("1 roll left unplayed where the record stops (no resignation after it): not written (OGXM holds a "
            "roll without a play only before its roller's resignation)") in dropped
    ogxm = pytest.importorskip("ogxm")
    doc = ogxm.binary_to_json(data)
    assert doc["replay_complete"]
    assert all(p.get("ogid_after") for g in doc["games"] for p in g["plies"])

def test_the_dice_of_a_set_up_position_are_said() -> None:
    """Gibbon's edited position (SGF ``PL[W]DI[53]``, then the cube and the board set) is five set-up positions
    with White's 53 rolled and not yet played.  OGXM's set-position ply holds the board (dice on it are an
    illegal play's): they were read back without the dice, unsaid (issue 35's matrix, sgf->ogxm); it is said,
    and the boards and the cube are kept."""
    m = read_match(DATA / "sgf_gibbon_edited_position.sgf")
    setups = [a.setup for a in m.games[0].actions if a.kind == "setup"]
    assert len(setups) == 5 and all(p is not None and p.dice == (5, 3) for p in setups)
    data, dropped = write_ogxm(m)
    back = [a.setup for a in read_ogxm(data)[0].games[0].actions if a.kind == "setup"]
    assert [(p.boards, p.cube, p.cube_owner, p.dice) for p in back if p is not None] == [
        (p.boards, p.cube, p.cube_owner, None) for p in setups if p is not None]
    assert ("5 set-up positions with the dice rolled and not yet played: their dice not written (OGXM's set-position "
            "ply holds the board, and dice only with an illegal play; read back without)") in dropped, dropped
    m.games[0].actions[-1].setup = setups[-1].replace(dice=None, double_offered=True)  # type: ignore[union-attr]
    assert ("1 set-up position with a double or a resignation pending: not written pending (OGXM's set-position ply "
            "holds the board and the cube; read back as none)") in write_ogxm(m)[1]

@pytest.mark.parametrize("producer", [None, ""])
def test_analysis_with_no_producer_reads_back_with_none(producer: str | None) -> None:
    """OGXM's analysis block names its producer only when there is one (``model_name``, ``model_id``): analysis
    that names none is written without a name (an empty name as empty), and read back so (it was read back as
    "OGXM analysis", a producer the record did not have)."""
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    for an in (a.analysis for g in m.games for a in g.actions if a.analysis is not None):
        an.producer = producer
    data, dropped = write_ogxm(m)
    anal = next(W.decode_anal(s.payload, s.start, "t") for s in sections(data) if s.kind == b"ANAL")
    assert "model_id" not in anal and anal.get("model_name") == producer
    back = read_ogxm(data)[0]
    assert {a.analysis.producer for g in back.games for a in g.actions if a.analysis is not None} == {producer}
    assert not [d for d in dropped if "producer" in d]
    assert write_ogxm(back)[0] == data


def test_analysis_figures_that_do_not_read_back_as_they_are_are_counted_as_rounded() -> None:
    """OGXM holds probabilities to 4 decimals and equities in millionths (of a match-winning chance in match play,
    read back through the match equity table): a figure that reads back otherwise is counted, and only such a
    figure (a record read from OGXM holds its figures at OGXM's precision already)."""
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    line = next(d for d in write_ogxm(m)[1] if "rounded" in d)
    assert int(line.split()[0]) > 1000
    assert line.endswith(" analysis figures rounded to OGXM's precision (probabilities to 4 decimals; equities to "
                         "millionths of a money equity, or in match play of a match-winning chance, read back "
                         "through the match equity table to 8 decimals)")
    back = read_ogxm(write_ogxm(m)[0])[0]
    back.games[0].comments.append("written anew")
    assert not [d for d in write_ogxm(back)[1] if "rounded" in d]
    a = next(a for g in back.games for a in g.actions
             if a.analysis and a.analysis.checker and a.analysis.checker.candidates[0].probabilities)
    assert a.analysis is not None and a.analysis.checker is not None
    first, *rest = a.analysis.checker.candidates
    p = first.probabilities
    assert p is not None and first.equity is not None
    first = replace(first, equity=first.equity + 1e-7, probabilities=replace(p, win=p.win + 0.00004,
                                                                             win_gammon=round(p.win_gammon + 0.01, 4)))
    a.analysis = replace(a.analysis, checker=replace(a.analysis.checker, candidates=(first, *rest)))
    assert [d for d in write_ogxm(back)[1] if "rounded" in d] == [
        "2 analysis figures rounded to OGXM's precision (probabilities to 4 decimals; equities to millionths of a "
        "money equity, or in match play of a match-winning chance, read back through the match equity table to 8 "
        "decimals)"]
    first = replace(first, probabilities=replace(p, lose_backgammon=-0.01))
    a.analysis = replace(a.analysis, checker=replace(a.analysis.checker, candidates=(first, *rest)))
    dropped = write_ogxm(back)[1]
    assert "1 probability outside 0 to 1 written as 0 or 1 (OGXM holds a chance)" in dropped
    assert any(d.startswith("1 analysis figure rounded") for d in dropped)  # (the equity)


def _figures(m: Match) -> list[float | None]:
    """The equities of a match's analysis, in order: each ranked play's, each cube decision's three."""
    out: list[float | None] = []
    for an in (a.analysis for g in m.games for a in g.actions if a.analysis is not None):
        if an.checker is not None:
            out += [c.equity for c in an.checker.candidates]
        if an.cube is not None:
            out += [an.cube.no_double, an.cube.double_take, an.cube.double_pass]
    return out


@pytest.mark.parametrize("met_id", ["rockwell-kazaross", None, "someone-else's-table"])
def test_analysis_is_written_through_the_match_equity_table_its_block_names(met_id: str | None) -> None:
    """An analysis block read from OGXM is written again through the match equity table it names (the one the
    reader read it through; the reference codec's when it names none, or one we do not know, said), not through
    Kazaross-XG2: its equities read back as they were (nearly all of them changed, some by a hundredth), and none
    is counted as rounded."""
    m = read_ogxm(write_ogxm(read_match(DATA / "xg_ronde3.xg"))[0])[0]
    (raw,) = m.properties["ogxm.analysis"]
    info = W.decode_anal(base64.b64decode(raw), 0, None)
    assert info["met_id"] == "kazaross-xg2"
    if met_id is None:
        info.pop("met_id")
    else:
        info["met_id"] = met_id
    m.properties["ogxm.analysis"] = [base64.b64encode(W.encode_anal(info)).decode("ascii")]
    read = read_ogxm(write_ogxm(m)[0])[0]  # read through the table the block names
    said = [n.message for n in read.normalisations if "match equity table" in n.message]
    if met_id == "someone-else's-table":  # the reader says which table it read the equities through
        assert said == ["analysis block 1 (eXtreme Gammon) names the match equity table \"someone-else's-table\", "
                        "which is not one we know: its match-winning chances are read as equities through the ogxm "
                        "reference codec's table"]
    else:
        assert not said
    before = _figures(read)
    assert len(before) > 500
    read.games[0].comments.append("written anew")
    data, dropped = write_ogxm(read)
    back = read_ogxm(data)[0]
    assert _figures(back) == before
    assert not [d for d in dropped if "rounded" in d]
    unknown = [d for d in dropped if "match equity table" in d]
    if met_id == "someone-else's-table":
        assert unknown == ["the match equity table someone-else's-table, which the analysis of eXtreme Gammon names, "
                           "is not one we know: its equities are written as match-winning chances through the ogxm "
                           "reference codec's table, as they were read (the table it names would read them back as "
                           "other equities)"]
    else:
        assert not unknown


def test_a_best_equity_and_an_equity_loss_a_file_holds_are_written_again_also_when_the_plays_give_them() -> None:
    """A checker decision's best equity and equity loss are kept as the file holds them (the reader derives
    neither): written again also when they are what the ranked plays give (they were left out then, and read
    back as not there), as well as when they are not."""
    data = write_ogxm(read_match(DATA / "xg_ronde3.xg"))[0]
    out = []
    held: list[tuple[int, int | None, int]] = []  # (ply_ref, best_equity, equity_loss) of the decisions changed
    container = W.split(data, "t")
    for s in container.sections:
        if s.kind == b"CSUM":
            continue
        payload = s.payload
        if s.kind == b"DECS":
            decs = W.decode_decs(s.payload, s.start, "t")
            checker = [d for d in decs if d["kind"] == W.KIND_CHECKER and len(d["alternatives"]) > 1]
            # what the plays give; a best equity and a loss they do not; the best alone as they give it; the
            # loss alone as they give it
            for d, (more_best, more_loss) in zip(checker, [(0, 0), (7, 11), (0, 5), (None, 0)], strict=False):
                best = d["alternatives"][0]["equity"]
                d["equity_loss"] = best - next(al for al in d["alternatives"] if al.get("is_played"))["equity"] \
                    + more_loss
                if more_best is not None:
                    d["best_equity"] = best + more_best
                held.append((d["ply_ref"], d.get("best_equity"), d["equity_loss"]))
            payload = b"".join(W.encode_decision(d) for d in decs)
        out.append(W.section(s.kind, payload, bool(s.flags & W.CRITICAL)))
    file = W.assemble(out, container.minor, container.need_minor)

    def kept(m: Match) -> list[dict[str, str]]:
        return [{k: v for k, v in a.analysis.extra.items() if k in ("ogxm:best_equity", "ogxm:equity_loss")}
                for g in m.games for a in g.actions if a.analysis is not None and ("ogxm:equity_loss" in
                                                                                  a.analysis.extra)]

    m = read_ogxm(file)[0]
    assert len(kept(m)) == 4 and [len(x) for x in kept(m)] == [2, 2, 2, 1]
    m.games[0].comments.append("written anew")
    again, dropped = write_ogxm(m)
    assert not dropped and kept(read_ogxm(again)[0]) == kept(m)
    decs = [d for s in sections(again) if s.kind == b"DECS" for d in W.decode_decs(s.payload, s.start, "t")]
    assert [(d["ply_ref"], d.get("best_equity"), d["equity_loss"]) for d in decs if "equity_loss" in d] == held
    assert write_ogxm(read_ogxm(file, keep=False)[0])[0] == file


@pytest.mark.parametrize(("value", "said"), [
    ("abc", "1 kept OGXM figure that is not a number OGXM can hold (not written)"),
    ("nan", "1 kept OGXM figure that is not a number OGXM can hold (not written)"),
    ("-inf", "1 kept OGXM figure that is not a number OGXM can hold (not written)"),
    ("1e300", "1 kept OGXM figure that is not a number OGXM can hold (not written)"),
    ("-0.5", "1 negative equity loss written as 0 (OGXM holds a loss as unsigned)"),
])
def test_a_kept_figure_changed_by_hand_is_said_not_an_internal_error(value: str, said: str) -> None:
    """The figures an OGXM file held beyond the model (``ogxm:equity_loss`` ... in an analysis's ``extra``)
    are numbers only as long as nobody edits the JSON: a word, NaN, an infinite or enormous number was an
    internal error of the writer (``float``, ``round``, the wire's 32 bits), a negative loss became 0 without a
    word.  Each is now written as OGXM can hold it, or not at all, and said."""
    m = read_ogxm(write_ogxm(read_match(DATA / "xg_ronde3.xg"))[0])[0]
    a = next(a for g in m.games for a in g.actions if a.analysis is not None and a.analysis.checker is not None)
    for key in ("ogxm:equity_loss", "ogxm:best_equity"):
        a.analysis.extra[key] = value if key == "ogxm:equity_loss" else "0.1"
    data, dropped = write_ogxm(m)
    assert said in dropped
    back = read_ogxm(data)[0]
    assert back.games and not [n for n in back.normalisations if "damaged" in n.message]


@pytest.mark.parametrize("value", ["", "abc", "nan", "-1", "1e300", "99999999999999999999", "9" * 5000, "1,2,3",
                                   "\u0000", "é\u202e", "x" * 100_000])
def test_a_kept_variant_number_changed_by_hand_is_said_not_an_internal_error(value: str) -> None:
    """``ogxm.variant`` keeps the number of a variant an OGXM file named that we do not play (read under the
    standard rules); a hand-edited record that holds no number OGXM can hold there was an internal error of the
    writer (``int``, the wire's varint): it is now not written, and said."""
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    m.properties["ogxm.variant"] = [value]
    data, dropped = write_ogxm(m)
    assert any("the kept OGXM variant number" in d and "not written" in d and len(d) < 300 for d in dropped)
    back = read_ogxm(data)[0]
    assert back.rules.variant == "standard" and "ogxm.variant" not in back.properties


def test_a_kept_variant_number_is_written_again() -> None:
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    m.properties["ogxm.variant"] = ["7"]
    data, dropped = write_ogxm(m)
    assert not [d for d in dropped if "variant" in d]
    assert read_ogxm(data)[0].properties["ogxm.variant"] == ["7"]


@pytest.mark.parametrize("where", ["game", "move", "resign", "win"])
@pytest.mark.parametrize("value", ["", "abc", "nan", "0", "-1", "1e300", "9" * 5000, "00", "ff" * 3000, "\u0000",
                                   "é\u202e", "x" * 100_000])
def test_a_kept_ply_changed_by_hand_is_said_not_an_internal_error(where: str, value: str) -> None:
    """The plies an OGXM file held that the model cannot (``ogxm.plies`` on a game or an action, ``ogxm.ply`` on a
    resignation, ``ogxm.end`` on a result) are kept as hex and written as they came: a hand-edited record that
    holds no hex there was an internal error of the writer (``bytes.fromhex``), and hex that is no ply was written
    into the game, damaging the file.  Each is now not written, and said."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    game = m.games[0]
    key = {"game": "ogxm.plies", "move": "ogxm.plies", "resign": "ogxm.ply", "win": "ogxm.end"}[where]
    holder = game if where == "game" else next(a for a in game.actions if a.kind == where)
    holder.properties[key] = [value]
    data, dropped = write_ogxm(m)
    assert "1 kept OGXM ply (ogxm.ply, ogxm.plies, ogxm.end) that is not one OGXM can read (not written)" in dropped
    back = read_ogxm(data)[0]
    assert len(back.games) == len(m.games) and not [n for n in back.normalisations if "damaged" in n.message]


@pytest.mark.parametrize("value", ["", "abc", "nan", "0", "1e300", "9" * 5000, "\u0000", "é\u202e", "x" * 100_000])
def test_a_kept_annotation_changed_by_hand_is_said_not_an_internal_error(value: str) -> None:
    """``ogxm.anno`` keeps, as base64, an annotation of an OGXM file that the model cannot hold: a hand-edited record
    that holds no annotation there was an internal error of the writer (an empty one) or was left out without a
    word; it is now said."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.properties["ogxm.anno"] = [value]
    data, dropped = write_ogxm(m)
    assert "1 kept OGXM annotation (ogxm.anno) that is not one OGXM can read (not written)" in dropped
    assert read_ogxm(data)[0].games


@pytest.mark.parametrize("value", [["", "abc", "nan", "1e300", "\u0000", "x" * 100_000], ["é\u202e:MTCH:0:AAAA"],
                                   ["TOOLONG:MTCH:0:AAAA"], ["MTCH:MTCH:0:AAAA"], ["GAME:GAME:0:AAAA"],
                                   ["END!:ANNO:0:AAAA"], ["ZZZZ:MTCH:0:@@"], ["ANAL:MTCH:4:AAAA"], ["DECS:MTCH:4:AAAA"],
                                   ["ANAL:MTCH:4:AAAA", "DECS:MTCH:4:AAAA"]])
def test_a_kept_section_changed_by_hand_is_said_not_an_internal_error_or_a_damaged_file(value: list[str]) -> None:
    """``ogxm.keep`` keeps the sections of an OGXM file the model does not read (``KIND:ANCHOR:PLIES:BASE64``),
    written again as they came: a hand-edited one was left out without a word (no such entry), an internal error
    (a type that is not Latin-1), or written into a file the reader refuses (a type not four printable
    characters, a critical one, an analysis block half or not one).  Each is now not written, and said."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.properties["ogxm.keep"] = value
    data, dropped = write_ogxm(m)
    n = len(value)
    assert f"{n} kept OGXM section{'s' if n > 1 else ''} (ogxm.keep) that {'are' if n > 1 else 'is'} not one OGXM " \
           "can read (not written)" in dropped
    back = read_ogxm(data)[0]
    assert back.games and "ogxm.keep" not in back.properties


@pytest.mark.parametrize("anchor", ["block²", "block" + "9" * 5000, "block-1", "blockx"])
def test_a_kept_signature_of_a_block_changed_by_hand_is_said_not_an_internal_error(anchor: str) -> None:
    """A kept analysis signature names the block it signs (``block1`` ...): a number ``isdigit`` takes and ``int``
    does not (``²``), or of 5,000 digits, was an internal error of the writer; it signs no block written, and is
    said so."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.properties["ogxm.keep"] = [f"SIGN:{anchor}:0:AAAA"]
    data, dropped = write_ogxm(m)
    assert "the analysis signature (SIGN): the bytes it signs are written anew" in dropped
    assert read_ogxm(data)[0].games


def test_a_kept_unknown_section_is_written_again() -> None:
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.properties["ogxm.keep"] = ["ZZZZ:MTCH:0:AAAA"]
    data, dropped = write_ogxm(m)
    assert not [d for d in dropped if "kept" in d]
    assert [k.split(":")[0] for k in read_ogxm(data)[0].properties["ogxm.keep"]] == ["ZZZZ"]


@pytest.mark.parametrize("value", ["", "abc", "\u0000", "é\u202e", "x" * 100_000])
def test_a_kept_analysis_header_changed_by_hand_is_said(value: str) -> None:
    m = read_match(DATA / "sgf_gnubg_analysed.sgf")
    m.properties["ogxm.analysis"] = [value]
    data, dropped = write_ogxm(m)
    assert "1 kept OGXM analysis block header (ogxm.analysis) that is not one OGXM can read (not written: the block " \
           "is described anew)" in dropped
    assert read_ogxm(data)[0].games


@pytest.mark.parametrize("key", ["started_at", "completed_at"])
@pytest.mark.parametrize("value", ["18446744073709551616", "99999999999999999999", "9" * 5000])
def test_an_instant_past_64_bits_is_an_annotation_not_an_internal_error_or_a_damaged_file(key: str, value: str) -> None:
    """A tag naming an OGXM instant as a count of milliseconds too large for the field (64 bits) was an internal
    error of the writer (more than 4,300 digits) or written into a file the reader refuses; it is now kept as an
    annotation, as every tag the field cannot hold."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.tags.append((key, value))
    back = read_ogxm(write_ogxm(m)[0])[0]
    assert (key, value) in back.tags


@pytest.mark.parametrize("value", ["x" * 100_000, "é" * 2049, "9" * 5000])
def test_a_name_or_level_past_ogxms_strings_is_said_not_an_internal_error(value: str) -> None:
    """A player's name, an analysis's producer and an evaluation level longer than OGXM's strings (4,096 bytes of
    UTF-8) were an internal error of the writer (the wire's string); each is now not written, and said."""
    from notation.analysis import Candidate, CheckerAnalysis, CubeAnalysis

    m = read_match(DATA / "xg_ronde3.xg")
    m.names = (value, value)
    analysed = [a for g in m.games for a in g.actions if a.analysis is not None]
    analysed[0].analysis.producer = value
    a = next(a for a in analysed if a.analysis.checker is not None and len(a.analysis.checker.candidates) > 1)
    ch = a.analysis.checker
    a.analysis.checker = CheckerAnalysis(tuple(Candidate(c.play, c.equity, c.probabilities, value, c.cubeless_equity)
                                               for c in ch.candidates), ch.played)
    a = next(a for a in analysed if a.analysis.cube is not None)
    c = a.analysis.cube
    a.analysis.cube = CubeAnalysis(c.no_double, c.double_take, c.double_pass, c.verdict, c.probabilities, value)
    data, dropped = write_ogxm(m)
    size = f"{len(value.encode('utf-8')):,} bytes"
    for who in ("White", "Black", "the producer of an analysis"):
        assert f"the name of {who} ({size}): OGXM holds a name of at most 4,096 bytes (not written)" in dropped
    assert f"{len(ch.candidates) + 1} evaluation levels longer than OGXM's 4,096 bytes (not written)" in dropped
    back = read_ogxm(data)[0]
    assert back.names == ("", "") and len(back.games) == len(m.games)


@pytest.mark.parametrize("key", ["ogxm:alternatives_total", "ogxm:rollouts_done", "ogxm:deep_searched",
                                 "ogxm:position_tags", "ogxm:source_band", "ogxm:cube_take_point",
                                 "ogxm:resign_correct_value"])
@pytest.mark.parametrize("value", ["-1", "4294967296", "99999999999999999999", "9" * 5000, "abc", "1e3", ""])
def test_a_kept_count_changed_by_hand_is_said_not_an_internal_error_or_a_damaged_file(key: str, value: str) -> None:
    """The counts an OGXM file held beyond the model (``ogxm:alternatives_total`` ... in an analysis's ``extra``)
    are written in OGXM's 32 bits: a hand-edited one past them was written into a file the reader refuses, a
    negative resignation value was an internal error (the wire's varint), and the rest was left out without a
    word.  Each is now not written, and said."""
    if key.startswith("ogxm:resign_"):
        from notation.analysis import Analysis

        m = read_match(DATA / "sgf_gnubg_resign.sgf")
        a = next(a for g in m.games for a in g.actions if a.kind == "resign")
        a.analysis = Analysis(extra={key: value})
    else:
        m = read_match(DATA / "xg_ronde3.xg")
        cube = key.startswith("ogxm:cube_")
        a = next(a for g in m.games for a in g.actions if a.analysis is not None
                 and (a.analysis.cube if cube else a.analysis.checker) is not None and a.kind in ("move", "double"))
        assert a.analysis is not None
        a.analysis.extra[key] = value
    data, dropped = write_ogxm(m)
    assert "1 kept OGXM figure that is not a number OGXM can hold (not written)" in dropped
    back = read_ogxm(data)[0]
    assert len(back.games) == len(m.games)


@pytest.mark.parametrize("key", ["termination", "auto_doubles", "is_last_game"])
@pytest.mark.parametrize("value", ["-1", "4294967296", "99999999999999999999", "9" * 5000, "abc", ""])
def test_a_kept_game_field_changed_by_hand_is_said_not_a_damaged_file(key: str, value: str) -> None:
    """A game's OGXM fields the model does not hold (``termination`` ... as game properties) are written in OGXM's
    32 bits: a hand-edited one past them was written into a file the reader refuses, and one that is no number
    was left out without a word.  Each is now not written, and said."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.games[0].properties[key] = [value]
    data, dropped = write_ogxm(m)
    assert "1 kept OGXM figure that is not a number OGXM can hold (not written)" in dropped
    assert len(read_ogxm(data)[0].games) == len(m.games)


@pytest.mark.parametrize(("value", "last"), [("yes", True), ("1", True), ("true", True), ("no", False), ("0", False),
                                             ("false", False)])
def test_the_last_game_flag_is_written_as_it_says(value: str, last: bool) -> None:
    """``is_last_game`` is a flag (the reader says a set one as "yes"): "0" or "no", edited by hand, was written
    as set."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    m.games[0].properties["is_last_game"] = [value]
    data, dropped = write_ogxm(m)
    assert not [d for d in dropped if "kept OGXM figure" in d]
    assert read_ogxm(data)[0].games[0].properties.get("is_last_game") == (["yes"] if last else None)


def test_a_roll_then_a_resignation_without_moving_reads_back_as_that_roll() -> None:
    """XG's "rolled, then resigned without moving" is a roll with no play: OGXM writes it as a dice ply
    with no steps before the roller's resignation, and it reads back as that roll, not as an empty play
    (which changed the count of plays without a word)."""
    m = read_match(DATA / "xg_ronde3.xg")
    rolls = [(g.number, a.player, a.dice) for g in m.games for a in g.actions if a.kind == "roll"]
    assert rolls
    data, dropped = write_ogxm(m)
    back = read_ogxm(data)[0]
    assert [(g.number, a.player, a.dice) for g in back.games for a in g.actions if a.kind == "roll"] == rolls
    assert [a.play for g in back.games for a in g.actions if a.kind == "roll"] == [None] * len(rolls)
    plays = [sum(1 for a in g.actions if a.kind == "move") for g in m.games]
    assert [sum(1 for a in g.actions if a.kind == "move") for g in back.games] == plays
    assert not any("roll" in d and "luck" not in d for d in dropped), dropped


def test_a_dance_is_no_roll_then_resignation() -> None:
    """A dice ply with no steps that no resignation of its roller follows is a dance (an empty play)."""
    m = read_match(DATA / "mat_gnubg_charlot_7p.mat")
    dances = sum(1 for g in m.games for a in g.actions if a.kind == "move" and not a.play)
    assert dances
    back = read_ogxm(write_ogxm(m)[0])[0]
    assert sum(1 for g in back.games for a in g.actions if a.kind == "move" and not a.play) == dances


def test_a_roll_left_unplayed_where_the_record_stops_is_said_not_written_as_an_empty_play() -> None:
    """Issue 35 item 7: gnubg's SGF of an unfinished match ends on a roll (``PL[W]DI[54]``) that no
    resignation follows.  OGXM holds a roll without a play only before its roller's resignation: a dice ply
    with no steps here read back as an empty play (a play and its dice that were not there, unsaid) and the
    reference codec could not replay the game.  It is left out, and said (so ``--strict`` refuses)."""
    m = read_match(DATA / "sgf_gnubg_resign.sgf")
    assert [(a.kind, a.dice) for a in m.games[1].actions] == [("roll", (5, 4))]
    data, dropped = write_ogxm(m)
    back = read_ogxm(data)[0]
    assert back.games[1].actions == []
    assert [(a.kind, a.dice) for a in back.games[0].actions if a.kind == "roll"] == [("roll", (5, 5))]
    assert ("1 roll left unplayed where the record stops (no resignation after it): not written (OGXM holds a "
            "roll without a play only before its roller's resignation)") in dropped, dropped
    ogxm = pytest.importorskip("ogxm")
    assert ogxm.binary_to_json(data)["replay_complete"]



_CAPPED = """; [Site "Test"]

7 point match

 Game 1
 O : 4                                X : 0
  1) 31: 8/5 6/5                      62: 24/18 13/11
  2)  Doubles => 2                    Takes
  3) 42: 8/4 6/4                      65:
      Wins 3 point and the match
"""
_FORFEIT = """; [Site "Test"]

11 point match

 Game 1
 O : 0                                X : 0
  1) 31: 8/5 6/5                      66:
      Wins 1004 point
"""


def test_result_endings_survive_ogxm() -> None:
    """Issue 35 item 4: a result no resignation level is worth is read back the same, without a replay error: a
    gammon capped at what the winner needed (Galaxy: 3 points with the cube at 2) is written as a gammon
    resignation, not a single one; BG Studio's forfeit (1004 points) as OGXM's forfeit ply, the loser's last roll
    still a roll not played, and nothing to say."""
    capped, forfeit = parse_matches(_CAPPED)[0], parse_matches(_FORFEIT)[0]
    backs = []
    for m in (capped, forfeit):
        assert not [f for f in replay_match(m).findings if f.severity == "error"]
        data, dropped = write_ogxm(m)
        back = read_ogxm(data)[0]
        assert not [f.message for f in replay_match(back).findings if f.severity == "error"]
        backs.append((back.games[0].actions, dropped))
    (g1, said1), (g2, said2) = backs
    assert [(a.kind, a.player, a.value) for a in g1[-3:]] == [("resign", 1, 2), ("accept", 0, None), ("win", 0, 3)]
    assert [d for d in said1 if "implied resignation" in d] == [
        "1 game that ends before it is played out with no resignation written (an implied resignation): OGXM says it "
        "as one, read back as a resignation and its acceptance"]
    assert [(a.kind, a.player, a.dice, a.value) for a in g2[-2:]] == [("roll", 1, (6, 6), None), ("win", 0, None, 1004)]
    assert [(a.kind, a.player, a.dice, a.value) for a in g2] == [
        (a.kind, a.player, a.dice, a.value) for a in forfeit.games[0].actions]
    assert not said2
