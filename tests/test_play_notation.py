"""Play notation: every dialect of ``/work/shared/reference/quirks.md`` §5, gnubg's canonical writing,
and the reasons given for plays that are illegal or ambiguous.

``resolve_play`` takes the play without its ``NN:`` roll prefix and the roll separately.  Positions are
built from ``{point: checkers}`` in the owner's numbering (25 = bar); O (player 0) is on roll unless
a test says otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from notation.errors import AmbiguousPlayError, IllegalPlayError, NotationError, ParseError
from notation.play import (
    check_play,
    format_play,
    format_steps_plain,
    parse_play,
    plain_legs,
    play_result,
    point_words,
    resolve_play,
)
from notation.position import Position, board_from_points
from notation.rules import get_rules

START = {24: 2, 13: 5, 8: 3, 6: 5}

if TYPE_CHECKING:
    from lark import Lark


def pos(mine: dict[int, int], theirs: dict[int, int], turn: int = 0) -> Position:
    """A position with ``mine`` on roll (player ``turn``) against ``theirs``."""
    boards = [board_from_points(theirs), board_from_points(theirs)]
    boards[turn] = board_from_points(mine)
    return Position(boards=(boards[0], boards[1]), turn=turn)


def resolved(position: Position, text: str, dice: tuple[int, int]) -> str:
    return resolve_play(position, text, dice).play.notation()


def reason(position: Position, text: str, dice: tuple[int, int]) -> str:
    with pytest.raises(NotationError) as e:
        resolve_play(position, text, dice)
    return e.value.message


OPENING = Position()
ON_BAR = pos({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 4, 20: 1})
BEAROFF = pos({6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, {24: 2, 13: 13})


# --------------------------------------------------------------------------- bar and off


@pytest.mark.parametrize("text", ["25/23 13/8", "bar/23 13/8", "Bar/23 13/8", "BAR/23 13/8", "b/23 13/8",
                                  "bar-23 13-8", "Bar/23, 13/8"])
def test_the_bar_is_25_bar_or_Bar(text: str) -> None:
    r = resolve_play(ON_BAR, text, (5, 2))
    assert r.play.notation() == "bar/23 13/8"
    assert r.play.steps[0] == (25, 23, False)
    assert r.notes == ()


@pytest.mark.parametrize("text", ["6/0 5/0", "6/off 5/off", "6/Off 5/Off", "6/OFF 5/off", "6/o 5/o"])
def test_off_is_0_off_or_Off(text: str) -> None:
    r = resolve_play(BEAROFF, text, (6, 5))
    assert r.play.notation() == "6/off 5/off"
    assert r.play.mine[0] == 4  # two were off already


def test_mixed_forms_in_one_play() -> None:
    # quirks.md: "66: 11/5 6/0 5/0 4/0"
    p = pos({11: 1, 6: 1, 4: 1, 2: 1}, {24: 2, 13: 13})
    r = resolve_play(p, "11/5 6/0 5/0 4/0", (6, 6))
    assert r.play.notation() == "11/off 6/off 4/off"
    assert r.play.mine[0] == 14 and r.play.mine[2] == 1
    assert resolved(p, "11/5 6/off 5/Off 4/0", (6, 6)) == "11/off 6/off 4/off"


# --------------------------------------------------------------------------- hit marks

BLOT_ON_7 = pos(START, {18: 1, 13: 5, 8: 3, 6: 4, 1: 2})  # their 18 = our 7


def test_hit_marked() -> None:
    r = resolve_play(BLOT_ON_7, "13/7* 8/7", (6, 1))
    assert r.play.notation() == "13/7* 8/7"
    assert r.play.theirs[25] == 1 and r.notes == ()


def test_hit_not_marked_is_accepted_with_a_note() -> None:
    # most producers (Galaxy, FIBS clients, XG .mat) do not mark hits
    r = resolve_play(BLOT_ON_7, "13/7 8/7", (6, 1))
    assert r.play.notation() == "13/7* 8/7"
    assert r.notes == ("the hit on 7 is not marked",)


def test_hit_mark_on_the_other_checker_landing_there() -> None:
    r = resolve_play(BLOT_ON_7, "13/7 8/7*", (6, 1))
    assert r.play.notation() == "13/7* 8/7" and r.notes == ()


def test_hit_mark_in_the_wrong_place() -> None:
    r = resolve_play(BLOT_ON_7, "24/23* 13/7", (6, 1))
    assert r.play.notation() == "24/23 13/7*"
    assert r.notes == ("the hit on 7 is not marked", "23 is marked as a hit, but no blot is hit there")
    # a mark written before the point it belongs to
    r = resolve_play(BLOT_ON_7, "24/23 *13/7", (6, 1))
    assert r.play.notation() == "24/23 13/7*"
    assert "the hit on 7 is not marked" in r.notes


def test_a_mark_where_nothing_is_hit() -> None:
    r = resolve_play(OPENING, "8/5* 6/5", (3, 1))
    assert r.play.notation() == "8/5 6/5"
    assert r.notes == ("5 is marked as a hit, but no blot is hit there",)


# --------------------------------------------------------------------------- repeat counts

BLOT_ON_3 = pos({8: 3, 6: 5, 13: 5, 24: 2}, {22: 1, 13: 5, 8: 3, 6: 5, 24: 1})  # their 22 = our 3


@pytest.mark.parametrize("text", ["8/5(2) 6/3*(2)", "8/5(2) 6/3(2)*", "8/5(2) 6/3(2)", "6/3*(2) 8/5(2)",
                                  "8/5 8/5 6/3* 6/3", "8/5 6/3* 8/5 6/3"])
def test_repeat_counts_with_and_without_a_hit_mark(text: str) -> None:
    r = resolve_play(BLOT_ON_3, text, (3, 3))
    assert r.play.notation() == "8/5(2) 6/3*(2)"
    assert r.play.theirs[25] == 1
    assert r.notes == (() if "*" in text else ("the hit on 3 is not marked",))


def test_repeat_counts_of_three_and_four() -> None:
    assert resolved(OPENING, "13/7(3) 24/18", (6, 6)) == "24/18 13/7(3)"
    assert resolved(OPENING, "13/11(4)", (2, 2)) == "13/11(4)"
    assert resolved(OPENING, "13/11 (2) 6/4(2)", (2, 2)) == "13/11(2) 6/4(2)"


# --------------------------------------------------------------------------- chains and compressed moves


def test_chains_with_intermediate_points() -> None:
    assert resolved(OPENING, "24/18/13", (6, 5)) == "24/13"
    assert reason(OPENING, "24/19/13", (6, 5)) == "24/19 lands on 19, which X holds with 5 checkers"
    blot = pos(START, {7: 1, 13: 5, 8: 3, 6: 5, 1: 1})  # their 7 = our 18
    r = resolve_play(blot, "24/18*/13", (6, 5))
    assert r.play.notation() == "24/18*/13" and r.play.theirs[25] == 1 and r.notes == ()
    # unmarked, and 19 is closed: the only route hits, which is noted
    r = resolve_play(blot, "24/13", (6, 5))
    assert r.play.notation() == "24/18*/13" and r.notes == ("the hit on 18 is not marked",)
    # unmarked with 19 open: the route that does not hit is the one written
    open19 = pos(START, {7: 1, 13: 5, 8: 5, 5: 4})
    assert resolved(open19, "24/13", (6, 5)) == "24/13"
    assert resolved(open19, "24/18*/13", (6, 5)) == "24/18*/13"


def test_compressed_one_checker_moves() -> None:
    # quirks.md: 11: 24/20, 44: 8/off(2), 63: 24/15*, 55: 20/5, 66: 24/18 13/7(3)
    r = resolve_play(OPENING, "24/20", (1, 1))
    assert [s[:2] for s in r.play.steps] == [(24, 23), (23, 22), (22, 21), (21, 20)]
    home = pos({8: 2, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, {24: 2, 13: 13})
    r = resolve_play(home, "8/off(2)", (4, 4))
    assert r.play.notation() == "8/off(2)" and r.play.mine[0] == 2
    assert sorted(s[:2] for s in r.play.steps) == [(4, 0), (4, 0), (8, 4), (8, 4)]
    blot = pos(START, {10: 1, 13: 5, 8: 3, 6: 4, 1: 2})  # their 10 = our 15
    r = resolve_play(blot, "24/15*", (6, 3))
    assert r.play.notation() == "24/15*" and r.play.theirs[25] == 1
    runner = pos({20: 1, 13: 5, 8: 3, 6: 6}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert resolved(runner, "20/5 13/8", (5, 5)) == "20/5 13/8"
    assert resolved(OPENING, "24/18 13/7(3)", (6, 6)) == "24/18 13/7(3)"


def test_a_compressed_move_through_two_blots_is_ambiguous() -> None:
    two_blots = pos(START, {18: 1, 14: 1, 13: 4, 8: 3, 6: 4, 1: 2})  # blots on our 7 and 11
    with pytest.raises(AmbiguousPlayError) as e:
        resolve_play(two_blots, "13/5", (6, 2))
    assert e.value.message == "'13/5' can mean 13/11*/5; 13/7*/5"
    assert e.value.column == 1
    # the intermediate point settles it
    assert resolved(two_blots, "13/7*/5", (6, 2)) == "13/7*/5"
    assert resolved(two_blots, "13/11/5", (6, 2)) == "13/11*/5"


# --------------------------------------------------------------------------- separators and FIBS numbering


@pytest.mark.parametrize("text", ["24/23 13/11", "24/23, 13/11", "24/23,13/11", "24/23 ,13/11", "24/23;13/11",
                                  "  24/23   13/11  ", "13/11 24/23"])
def test_separators(text: str) -> None:
    assert resolved(OPENING, text, (2, 1)) == "24/23 13/11"


def test_fibs_hyphens_in_absolute_upward_numbering_are_mirrored() -> None:
    # JavaFIBS: "17-21 19-21" for the player who counts upward is 8/4 6/4
    r = resolve_play(OPENING, "17-21 19-21", (4, 2))
    assert r.play.notation() == "8/4 6/4"
    assert r.notes == ("points counted upward (FIBS numbering) were mirrored",)
    # Gibbon GMD: "1/3 12/15"
    assert resolved(OPENING, "1/3 12/15", (3, 2)) == "24/22 13/10"


def test_fibs_bar_entries() -> None:
    # "bar-23" counting downward is the mover's own numbering
    assert resolved(ON_BAR, "bar-23 13-8", (5, 2)) == "bar/23 13/8"
    # "bar/2" counting upward enters on our 23: tried when the own reading is illegal
    r = resolve_play(ON_BAR, "bar/2 12/17", (5, 2))
    assert r.play.notation() == "bar/23 13/8"
    assert r.notes == ("points counted upward (FIBS numbering) were mirrored",)
    # but "bar/5" with 55 is one checker's compressed move in the own numbering
    runner = pos({25: 1, 13: 5, 8: 3, 6: 6}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert resolved(runner, "bar/5", (5, 5)) == "bar/5"


def test_parse_keeps_segments_marks_counts_and_columns() -> None:
    p = parse_play("bar/22* 13/8(2) 6/1*", column=10)
    assert [(s.points, s.marks, s.count, s.column, s.text) for s in p.segments] == [
        ((25, 22), (False, True), 1, 10, "bar/22*"),
        ((13, 8), (False, False), 2, 18, "13/8(2)"),
        ((6, 1), (False, True), 1, 26, "6/1*"),
    ]
    assert not p.upward


@pytest.mark.parametrize(("text", "column", "message"), [
    ("24/18x", 6, "unexpected character 'x' in play '24/18x'"),
    ("24//18", 4, "'/' follows another '/' without a point between"),
    ("/18", 1, "'/' without a point before it"),
    ("24/", 4, "move '24/' ends without a point"),
    ("13/7(5)", 5, "repeat count 5 is not 1..4"),
    ("13/7(2)(2)", 8, "a second repeat count for one move"),
    ("99/3", 1, "point 99 is not 0..25"),
    ("24/18 13", 7, "'13' is not a move (from/to)"),
    ("(2)", 1, "a repeat count '(n)' must follow a move"),
])
def test_syntax_errors_say_where(text: str, column: int, message: str) -> None:
    with pytest.raises(ParseError) as e:
        parse_play(text)
    assert (e.value.column, e.value.message) == (column, message)
    with pytest.raises(ParseError) as e:
        parse_play(text, column=31)
    assert e.value.column == column + 30


# --------------------------------------------------------------------------- illegal plays: the reasons


def test_wrong_pips() -> None:
    assert reason(OPENING, "13/8 24/20", (6, 4)) == "13/8 moves 5 pips, which 64 cannot make"
    assert reason(OPENING, "24/20 13/9", (4, 1)) == "'24/20 13/9' needs 4 + 4 pips, which 41 cannot give"
    assert reason(OPENING, "24/18 18/13 13/7", (6, 5)) == \
        "'24/18 18/13 13/7' moves 3 times, but 65 gives only 2 moves"
    assert reason(OPENING, "24/22 13/14", (2, 1)) == "13/14: 13/14 does not move forward"
    assert reason(OPENING, "6/2 2/bar", (4, 3)) == "2/bar: a checker cannot move from off or to the bar"


def test_from_an_empty_point() -> None:
    assert reason(OPENING, "10/7 8/7", (3, 1)) == "10/7: there is no checker on 10 to move"
    assert reason(OPENING, "bar/22 13/8", (5, 3)) == "bar/22: there is no checker on the bar to move"


def test_bar_not_entered() -> None:
    assert reason(ON_BAR, "13/8 13/11", (5, 2)) == \
        "13/8: a checker is on the bar and must enter before 13 can move"


def test_blocked_landing() -> None:
    # X on roll; O holds X's 2-point (O's 23) with 3 checkers
    x_to_play = pos(START, {23: 3, 13: 5, 8: 2, 6: 5}, turn=1)
    assert reason(x_to_play, "8/2 6/5", (6, 1)) == "8/2 lands on 2, which O holds with 3 checkers"
    o_to_play = pos(START, {23: 3, 13: 5, 8: 2, 6: 5}, turn=0)
    assert reason(o_to_play, "8/2 6/5", (6, 1)) == "8/2 lands on 2, which X holds with 3 checkers"
    # a compressed move takes the open route (8/7/1), and fails only when every route is closed
    assert resolved(x_to_play, "8/1", (6, 1)) == "8/1"
    assert reason(x_to_play, "8/2/1", (6, 1)) == "8/2 lands on 2, which O holds with 3 checkers"


def test_an_unused_die() -> None:
    msg = reason(OPENING, "13/10", (4, 3))
    assert msg == "the 4 is not played, but 24/20 13/10 plays both dice"
    assert reason(OPENING, "13/9", (4, 1)) == "the 1 is not played, but 24/23 13/9 plays both dice"
    assert reason(OPENING, "24/20 13/9", (4, 4)) == \
        "only 2 of the four 4s are played, but 24/16 24/20 13/9 plays 4"
    assert reason(OPENING, "", (3, 1)).startswith("no move is written, but 31 can be played, e.g. ")


def test_the_larger_die_rule() -> None:
    # one checker outside on 13, our 2 held: 13/8 or 13/7 but never both dice
    stuck = pos({13: 1, 1: 14}, {23: 2, 6: 13})
    assert reason(stuck, "13/8", (6, 5)) == \
        "only one die can be played, and then it must be the larger one, the 6: 13/7"
    assert resolved(stuck, "13/7", (6, 5)) == "13/7"
    # when only the smaller can be played it is the play
    stuck7 = pos({13: 1, 1: 14}, {23: 2, 18: 2, 6: 11})
    assert resolved(stuck7, "13/8", (6, 5)) == "13/8"
    # nothing at all
    dead = pos({13: 1, 1: 14}, {23: 2, 18: 2, 17: 2, 6: 9})
    assert resolve_play(dead, "", (6, 5)).play.steps == ()
    assert reason(dead, "13/8", (6, 5)) == "65 cannot be played at all here, yet '13/8' is written"


def test_bear_off_with_a_checker_outside() -> None:
    outside = pos({8: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 3}, {24: 2, 13: 13})
    assert reason(outside, "6/off 5/off", (6, 5)) == \
        "6/off bears off while a checker is still outside the home board (on 8)"
    assert resolved(outside, "8/2 5/off", (6, 5)) == "8/2 5/off"


def test_bear_off_from_a_lower_point_with_a_higher_one_occupied() -> None:
    assert reason(BEAROFF, "4/off 3/off", (6, 5)) == \
        "4/off bears off from 4 with a 5, but a checker on 6 must move first"
    hit = pos({25: 1, 3: 2, 2: 2}, {24: 2, 13: 13})
    assert reason(hit, "3/off 2/off", (6, 5)) == \
        "3/off: a checker is on the bar and must enter before 3 can move"


def test_errors_carry_the_column_given() -> None:
    with pytest.raises(IllegalPlayError) as e:
        resolve_play(OPENING, "13/10", (4, 3), column=40)
    assert e.value.column == 40
    with pytest.raises(IllegalPlayError) as e:
        resolve_play(OPENING, "24/20 13/14", (4, 3), column=40)
    assert e.value.column == 46  # the second move
    with pytest.raises(IllegalPlayError):
        resolve_play(OPENING, "24/20 13/9")  # no roll at all


def test_check_play() -> None:
    assert check_play(OPENING, "8/5 6/5", (3, 1)) is None
    assert check_play(OPENING, "8/5 6/5", (4, 1)) == "8/5 moves 3 pips, which 41 cannot make"
    assert check_play(OPENING, "8/5 6/", (3, 1)) == "move '6/' ends without a point"


# --------------------------------------------------------------------------- writing


def test_format_play_is_gnubgs_canonical_form() -> None:
    assert format_play([(6, 5, False), (8, 5, False)]) == "8/5 6/5"
    assert format_play([(24, 18, False), (18, 13, False)]) == "24/13"
    assert format_play([(24, 21, True), (21, 20, False)]) == "24/21*/20"
    assert format_play([(13, 9, False)] * 2) == "13/9(2)"
    assert format_play([(6, 4, True), (6, 4, False)]) == "6/4*(2)"
    assert format_play([(8, 4, True), (6, 4, False)]) == "8/4* 6/4"
    assert format_play([(25, 23, False), (25, 23, False), (23, 21, False), (13, 11, False)]) == \
        "bar/21 bar/23 13/11"
    assert format_play([(13, 7, True), (13, 7, False), (7, 1, True), (7, 1, False)]) == "13/7*/1*(2)"
    assert format_play([(3, 0, False), (2, 0, False)]) == "3/off 2/off"
    assert format_play([(25, 20, False), (6, 0, False)], bar="25", off="0") == "25/20 6/0"
    assert format_play([(24, 21, True), (21, 20, False)], hits=False) == "24/20"
    assert format_play([]) == ""


def test_format_steps_plain_keeps_the_order_played() -> None:
    assert format_steps_plain([(6, 5, False), (8, 5, False)]) == "6/5 8/5"
    assert format_steps_plain([(25, 22, True), (6, 0, False)]) == "25/22* 6/0"
    assert format_steps_plain([(25, 22, True)], bar="bar", hits=False) == "bar/22"


def test_every_notation_of_the_opening_plays_resolves_back() -> None:
    for d1, d2 in [(3, 1), (6, 6), (2, 1), (5, 5)]:
        for p in get_rules("standard").legal_plays(OPENING, (d1, d2)):
            r = resolve_play(OPENING, p.notation(), (d1, d2))
            assert (r.play.mine, r.play.theirs) == (p.mine, p.theirs)


def test_play_result_passes_the_turn() -> None:
    r = resolve_play(BLOT_ON_7, "13/7* 8/7", (6, 1))
    after = play_result(BLOT_ON_7, r.play)
    assert after.turn == 1 and after.dice is None
    assert after.boards[0] == r.play.mine and after.boards[1] == r.play.theirs
    assert after.boards[1][25] == 1


# --------------------------------------------------------------------------- the grammar

_SAMPLES = {"POINT": ["13", "8", "24", "bar", "Off", "b", "o", "0", "25"], "SLASH": ["/", "-"], "STAR": ["*"],
            "COUNT": ["(2)", "( 3 )"], "SEP": [" ", ",", "; ", "\t"]}
_OTHER = ["x", "(", ")", "1", "**", "//"]


@st.composite
def _plays_and_edits(draw: st.DrawFn) -> list[str]:
    """Up to eight points, slashes and counts (points most often) with up to three blanks or marks between
    any two, then up to two tokens of any kind (or characters of none) inserted, removed or replaced."""
    def some(kind: str) -> str:
        return draw(st.sampled_from(_SAMPLES[kind]))

    def glue() -> list[str]:
        return [some(k) for k in draw(st.lists(st.sampled_from(["SEP", "STAR"]), max_size=3))]

    tokens: list[str] = glue()
    for kind in draw(st.lists(st.sampled_from(["POINT"] * 3 + ["SLASH"] * 2 + ["COUNT"]), max_size=8)):
        tokens += [some(kind)] + glue()
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(tokens)))
        edit = draw(st.integers(0, 2))
        kind = draw(st.sampled_from([*_SAMPLES, "OTHER"]))
        piece = draw(st.sampled_from(_SAMPLES.get(kind, _OTHER)))
        if edit == 0:
            tokens.insert(at, piece)
        elif at < len(tokens):
            tokens[at:at + 1] = [] if edit == 1 else [piece]
    return tokens


@settings(max_examples=1000, deadline=None)
@given(_plays_and_edits().map("".join))
def test_parse_play_reads_what_the_grammar_reads(text: str) -> None:
    """:func:`parse_play` accepts exactly the plays lark's parser of ``grammars/play.lark`` accepts (apart
    from what the syntax does not say: points above 25, counts outside 1..4)."""
    from lark.exceptions import UnexpectedInput

    from notation._grammar import parser

    try:
        parse_play(text)
        ours = True
    except ParseError as e:
        assume("is not 0..25" not in e.message and "is not 1..4" not in e.message)
        ours = False
    try:
        parser("play").parse(text)
        theirs = True
    except UnexpectedInput:
        theirs = False
    assert ours == theirs, text


def _both_read(grammar: Lark, text: str) -> tuple[bool, bool]:
    """Whether :func:`parse_play` reads ``text``, and whether lark's parser ``grammar`` of ``play.lark`` does."""
    from lark.exceptions import UnexpectedInput

    try:
        parse_play(text)
        ours = True
    except ParseError:
        ours = False
    try:
        grammar.parse(text)
        theirs = True
    except UnexpectedInput:
        theirs = False
    return ours, theirs


def test_parse_play_reads_what_the_grammar_reads_exhaustively() -> None:
    """Every sequence of up to seven tokens (a point, a slash, a mark, a count, a blank, in any order):
    :func:`parse_play` accepts exactly what lark's parser of ``grammars/play.lark`` accepts."""
    import itertools

    from notation._grammar import parser

    grammar = parser("play")
    texts = {"POINT": "13", "SLASH": "/", "STAR": "*", "COUNT": "(2)", "SEP": " "}
    checked = 0
    for n in range(8):
        for kinds in itertools.product(texts, repeat=n):
            if any(a == b == "SEP" for a, b in itertools.pairwise(kinds)):
                continue  # (two blanks are one token)
            text = "".join(texts[k] for k in kinds)
            ours, theirs = _both_read(grammar, text)
            assert ours == theirs, (kinds, text)
            checked += 1
    assert checked > 50_000


def test_parse_play_reads_the_corpus_plays_as_the_grammar(corpus: Path) -> None:
    """Every play written in the shared corpus's .mat files (many programs' dialects): :func:`parse_play`
    reads it exactly when lark's parser of ``grammars/play.lark`` does."""
    from notation._grammar import parser
    from notation.formats.mat import read_matches

    grammar = parser("play")
    plays: set[str] = set()
    for path in sorted((corpus / "mat").rglob("*.mat")):
        try:
            matches = read_matches(path)
        except NotationError:
            continue
        plays.update(a.play for m in matches for g in m.games for a in g.actions if a.kind == "move" and a.play)
    assert len(plays) > 1000
    for text in sorted(plays):
        ours, theirs = _both_read(grammar, text)
        assert ours == theirs, text


_POINT = st.sampled_from([*map(str, range(0, 27)), "bar", "Bar", "BAR", "off", "Off", "b", "o", "05", "-1"])
_MOVE = st.builds(lambda a, b, star, sep: f"{a}{sep}{b}{'*' if star else ''}", _POINT, _POINT, st.booleans(),
                  st.sampled_from(["/", "-", ""]))
_ODD = st.sampled_from(["(2)", "*", "/", "13/8/5", "*13/10", ",", "13/8,", "bar/20(2)", "24/18*/13"])


@settings(max_examples=2000, deadline=None)
@given(st.lists(_MOVE | _ODD, max_size=5), st.sampled_from([" ", "  ", "\t"]))
def test_plain_legs_are_the_moves_parse_play_reads(tokens: list[str], sep: str) -> None:
    """plain_legs reads the common shape only, and reads it as parse_play does (points, marks, order);
    without ``words`` it takes digits only."""
    text = sep.join(tokens)
    legs = plain_legs(text)
    if legs is None:
        assert plain_legs(text, words=False) is None
        return
    parsed = parse_play(text)
    assert tuple((s.points[0], s.points[1], s.marks[1]) for s in parsed.segments) == legs, text
    assert all(len(s.points) == 2 and s.count == 1 and not s.marks[0] for s in parsed.segments)
    digits = plain_legs(text, words=False)
    assert (digits is not None) == (not any(c.isalpha() for c in text)), text
    named = {25 if x.lower() == "bar" else 0 for tok in text.split() for x in tok.rstrip("*").split("/")
             if x.isalpha()}
    assert point_words(text) == named, text


def test_plain_legs_and_point_words() -> None:
    assert plain_legs("13/8 24/22*") == ((13, 8, False), (24, 22, True))
    assert plain_legs("bar/20 6/off") == ((25, 20, False), (6, 0, False))
    assert plain_legs("bar/20", words=False) is None
    assert plain_legs("") == ()
    for text in ("13/8(2)", "24/18/13", "1/7", "13-8", "13/8,", "0/5", "20/25"):
        assert plain_legs(text) is None, text
    assert point_words("Bar/24, 13/Off") == {25, 0}
    assert point_words("b/20 6/o") == {25, 0}
    assert point_words("25/20 13/8") == set()
    assert point_words("24/18bar/20") == {25}
