"""OGID, OGXM's position string: the fields, the errors, and the round trip over every position of the
corpus.  That our OGIDs are the reference codec's, ply for ply, is in test_ogxm_corpus.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import FULL, kind_of, sampled_per_kind
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from notation._grammar import parser, regexes
from notation.errors import InvalidPositionError, NotationError, ParseError
from notation.ogid import is_ogid, ogid, parse_ogid
from notation.position import GAME_DROPPED, GAME_RESIGNED, Position
from notation.record import Match
from notation.replay import replay_match

DATA = Path(__file__).parent / "data"


def held(p: Position) -> tuple[object, ...]:
    """What an OGID holds of a position (the roll low die first)."""
    return (p.boards, p.turn, None if p.dice is None else tuple(sorted(p.dice)), p.cube, p.cube_owner,
            p.double_offered, p.score, p.match_length, p.crawford and p.match_length > 1, p.game_state)


def test_the_opening_roll() -> None:
    start = Position.initial(match_length=7, turn=1, dice=(6, 4))
    text = ogid(start)
    # Black (player 1) on roll: the player field says White, who "reached" the position
    assert text == "11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0"
    back = parse_ogid(text)
    assert held(back) == held(start) and back.extras == (("ogid_state", "IB"), ("ogid_move", "0"))


def test_fields() -> None:
    p = parse_ogid("OGID=kklllmnnoo:1233:W1N:36:W:R:0:0:7:44")
    assert p.turn == 1 and p.dice == (3, 6) and p.cube == 2 and p.cube_owner == 0  # White reached: Black rolls
    assert p.boards[0][0] == 5 and p.boards[1][0] == 11 and p.boards[0][10] == 0 and p.boards[1][3] == 2
    offered = parse_ogid("llm:2356:W1O::W:D:0:2:7:39")
    assert offered.double_offered and offered.turn == 0
    dropped = parse_ogid("llm:2356:W1P::B:G:0:2:7:39")
    assert dropped.game_state == GAME_DROPPED
    crawford = parse_ogid("11ccccchhhjjjjj:66666888dddddoo:N0N:24:W:R:5:6:7C:1")
    assert crawford.crawford and crawford.score == (5, 6)
    hyper = parse_ogid("123:mno:N0N:21:B:R:0:0:0:3:3")
    assert hyper.variant == "hypergammon3" and ogid(hyper, move_id=3) == "123:mno:N0N:12:B:R:0:0:0:3:3"
    assert is_ogid("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0")
    assert not is_ogid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    resigned = Position.initial(game_state=GAME_RESIGNED)
    assert parse_ogid(ogid(resigned)).game_state == GAME_RESIGNED


@pytest.mark.parametrize(("text", "field", "column"), [
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0", None, 1),
    ("11ccccchhhjjjjz:66666888dddddoo:N0N:46:W:IB:0:0:7:0", 1, 1),
    ("11ccccchhhjjjjj:66666888dddddoo:X0N:46:W:IB:0:0:7:0", 3, 33),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:47:W:IB:0:0:7:0", 4, 37),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:Q:IB:0:0:7:0", 5, 40),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:ZZ:0:0:7:0", 6, 42),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7X:0", 9, 49),
    # digits str.isdigit takes and int does not, and more digits than int reads: internal errors before
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:²:0:7:0", 7, 45),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0:1²", 11, 53),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:²", 10, 51),
    ("11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0:" + "1" * 5000, 11, 53),
])
def test_errors_name_the_field_and_column(text: str, field: int | None, column: int) -> None:
    with pytest.raises(ParseError) as e:
        parse_ogid(text)
    assert e.value.column == column
    if field is not None:
        assert f"field {field}" in e.value.message


def test_impossible_positions() -> None:
    with pytest.raises(InvalidPositionError, match="17 checkers"):
        parse_ogid("1111ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0")
    with pytest.raises(ParseError, match="Black's bar"):
        parse_ogid("p1ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0")
    with pytest.raises(InvalidPositionError, match="both players"):
        parse_ogid("11ccccchhhjjjjj:11666888dddddoo:N0N:46:W:IB:0:0:7:0")


def _positions(matches: list[Match]) -> list[Position]:
    out = []
    for m in matches:
        for gr in replay_match(m).games:
            for s in gr.steps:
                out += [p for p in (s.before, s.after) if not p.resign_offered]
    return out


def test_every_position_of_the_corpus_round_trips(corpus: Path) -> None:
    """An OGID holds no resignation offered: those positions aside, every position before and after every
    action of the corpus reads back from its OGID as itself (what an OGID holds of it), and the string
    reads back to the same string.  Every third record of each kind (all with GAMMON_FULL_CORPUS=1)."""
    from notation.matchio import read_match

    every = sorted([*corpus.glob("xg/*.xg"), *(p for p in corpus.glob("mat/**/*") if p.is_file()),
                    *corpus.glob("sgf/*.sgf")])
    files = sampled_per_kind(every, 3)
    assert {kind_of(p) for p in files} == {kind_of(p) for p in every}
    n = 0
    for path in files:
        for p in _positions([read_match(path)]):
            text = ogid(p)
            back = parse_ogid(text, variant=p.variant)
            assert held(back) == held(p), (path.name, text)
            assert ogid(back) == text
            n += 1
    assert n > (80000 if FULL else 40000)


def test_the_samples_round_trip() -> None:
    from notation.matchio import read_match

    positions = _positions([read_match(p) for p in sorted(DATA.glob("mat_gnubg_*.mat"))])
    assert len(positions) > 500
    for p in positions:
        assert held(parse_ogid(ogid(p), variant=p.variant)) == held(p)



def test_a_one_point_match_is_1c_under_the_crawford_rule_only() -> None:
    """The reference codec writes a one-point match's length ``1C`` when the match plays the Crawford rule and
    ``1`` when it does not (gnubg's self-play SGF, no ``RU``): we wrote ``1C`` always, all 68 of its OGIDs
    differing, and ``gammon show`` turned a ``1`` it read into ``1C``.  An OGID read keeps its mark."""
    from notation.formats.ogxm import game_ogids
    from notation.matchio import read_match

    for text in ("11ccccchhhjjjjj:66666888dddddoo:N0N:45:B:IB:0:0:1:0",
                 "11ccccchhhjjjjj:66666888dddddoo:N0N:45:B:IB:0:0:1C:0"):
        assert ogid(parse_ogid(text)) == text
    m = read_match(DATA / "sgf_gnubg_selfplay.sgf")
    assert m.length == 1 and not m.rules.crawford
    gr = replay_match(m).games[0]
    lengths = {og.split(":")[8] for _, *ogs in game_ogids(gr, crawford_rule=False) for og in ogs if og}
    assert lengths == {"1"}
    assert {og.split(":")[8] for _, *ogs in game_ogids(gr) for og in ogs if og} == {"1C"}
    ogxm = pytest.importorskip("ogxm")
    from notation.formats.ogxm import write_ogxm

    plies = ogxm.binary_to_json(write_ogxm(m)[0])["games"][0]["plies"]
    assert {p[k].split(":")[8] for p in plies for k in ("ogid_before", "ogid_after")} == {"1"}


def test_every_reference_ogid_of_our_files_is_written_back_as_it_is() -> None:
    """``gammon show OGID`` (:func:`parse_ogid`, then :func:`ogid`) gives every field back as the reference codec
    wrote it (issue 35 item 8): the OGIDs of our OGXM of the .mat and SGF files of tests/data, every one of them.
    The state and the cube action a position cannot tell (a double just taken, ``B2T:..:A``) were written as
    ``B2N:..:C``."""
    import glob

    from notation.formats.ogxm import write_ogxm
    from notation.matchio import read_match

    ogxm = pytest.importorskip("ogxm")
    files = sorted(glob.glob(str(DATA / "*.mat"))) + sorted(glob.glob(str(DATA / "sgf_*.sgf")))
    seen = 0
    for f in files:
        doc = ogxm.binary_to_json(write_ogxm(read_match(f))[0])
        for p in (p for g in doc["games"] for p in g["plies"]):
            for text in (p.get("ogid_before"), p.get("ogid_after")):
                if text:
                    seen += 1
                    assert ogid(parse_ogid(text)) == text, f
    assert seen > 3000


def test_the_ogids_of_our_files_of_tests_data_are_the_reference_codec_s() -> None:
    """What test_ogxm_corpus.py checks on the corpus, on the .mat and SGF files of tests/data, which hold what
    the corpus does not: a beaver and its take (whose ply holds the take: the cube after it ``B2T``, reached
    by the beaverer), a raccoon, a set-up position after two plays (the state and move number stay: ``C`` and
    2, not ``IB`` and 0), a one-point match without the Crawford rule."""
    import glob

    from notation.formats.ogxm import game_ogids, read_ogxm, write_ogxm
    from notation.matchio import read_match

    ogxm = pytest.importorskip("ogxm")
    checked, wrong = 0, []
    for f in sorted(glob.glob(str(DATA / "*.mat"))) + sorted(glob.glob(str(DATA / "sgf_*.sgf"))):
        data = write_ogxm(read_match(f))[0]
        games = ogxm.binary_to_json(data)["games"]
        m = read_ogxm(data, keep=False)[0]
        for g, gr in zip(games, replay_match(m).games, strict=True):
            plies = [p for p in g["plies"] if p["action_id"] != 36]
            got = game_ogids(gr, crawford_rule=m.rules.crawford)
            if not gr.verifiable:
                plies = plies[:len(got)]
            assert len(got) == len(plies), f
            for (_, before, after), p in zip(got, plies, strict=True):
                for mine, theirs in ((before, p.get("ogid_before")), (after, p.get("ogid_after"))):
                    if theirs is None:  # (the reference gives none after a ply its replay cannot make)
                        continue
                    checked += 1
                    if mine != theirs:
                        wrong.append((Path(f).name, mine, theirs))
    assert not wrong, (len(wrong), wrong[:3])
    assert checked > 3000

@given(st.lists(st.integers(0, 25), min_size=15, max_size=15), st.lists(st.integers(0, 25), min_size=15, max_size=15),
       st.integers(0, 1), st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))),
       st.integers(0, 6), st.sampled_from([None, 0, 1]), st.integers(0, 25), st.integers(0, 25))
def test_random_boards_round_trip(w: list[int], b: list[int], turn: int, dice: tuple[int, int] | None, k: int,
                                  owner: int | None, sw: int, sb: int) -> None:
    """Any two sets of 15 checkers (0 borne off, 1-24 points, 25 the bar), apart where they share a point."""
    boards = [[0] * 26, [0] * 26]
    for i, pts in enumerate((w, b)):
        for pt in pts:
            boards[i][pt] += 1
    pos = Position(boards=(tuple(boards[0]), tuple(boards[1])), turn=turn, dice=dice, cube=1 << k, cube_owner=owner,
                   match_length=25, score=(sw % 25, sb % 25))
    text = ogid(pos)
    assert held(parse_ogid(text, validate=False)) == held(pos)
    assert ogid(parse_ogid(text, validate=False)) == text


OGIDS = ["11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0", "OGID=kklllmnnoo:1233:W1N:36:W:R:0:0:7:44",
         "llm:2356:W1O::W:D:0:2:7G12", "123:mno:N0N:21:B:R:0:0:0:3:3",
         "11ccccchhhjjjjj:66666888dddddoo:N0N:24:W:R:5:6:7C:1"]
OGID_CHARS = "0129acpqxNWBDOTP?:CLGIRAMog=-"


def _edited(base: str, ops: list[tuple[int, int, str]]) -> str:
    """``base`` with a field replaced (kind 3: field ``at`` becomes ``text``), or characters replaced,
    inserted or deleted (kinds 0, 1, 2: ``text[0]`` at ``at``)."""
    s = base
    for kind, at, text in ops:
        if kind == 3:
            parts = s.split(":")
            parts[at % len(parts)] = text
            s = ":".join(parts)
            continue
        i = at % (len(s) + 1)
        ch = text[:1]
        s = s[:i] + ch + s[i + 1:] if kind == 0 else s[:i] + ch + s[i:] if kind == 1 else s[:i] + s[i + 1:]
    return s


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(OGIDS), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 60),
                                                  st.text(OGID_CHARS, min_size=1, max_size=3)), max_size=3))
def test_the_reader_follows_the_grammar(base: str, ops: list[tuple[int, int, str]]) -> None:
    """grammars/ogid.lark is the syntax: its start rule made a regular expression accepts exactly what lark's
    parser of it reads, and parse_ogid refuses whatever the grammar refuses (and reads every sample)."""
    text = _edited(base, ops)
    try:
        parser("ogid").parse(text)
        lark_reads = True
    except UnexpectedInput:
        lark_reads = False
    assert bool(re.fullmatch(regexes("ogid")["start"], text)) == lark_reads, text
    if not lark_reads:
        with pytest.raises(NotationError):
            parse_ogid(text, validate=False)
    if not ops:
        parse_ogid(text, validate=False)
        assert is_ogid(text)
