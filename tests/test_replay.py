"""The rules-checked replay on hand-built records (independent of any reader)."""

from __future__ import annotations

from notation.record import Action, Game, Match, MatchRules, Span
from notation.replay import replay_match


def mv(player: int, dice: str, play: str, line: int) -> Action:
    return Action("move", player, dice=(int(dice[0]), int(dice[1])), play=play, text=f"{dice}: {play}",
                  span=Span(line, 5 if player == 0 else 33), move_number=line)


def act(kind: str, player: int, line: int, value: int | None = None) -> Action:
    return Action(kind, player, value=value, text=kind, span=Span(line, 5 if player == 0 else 33),
                  move_number=line)  # type: ignore[arg-type]


def match_of(*games: Game, length: int = 5, **rules: object) -> Match:
    return Match(length=length, names=("Alice", "Bob"), games=list(games), rules=MatchRules(**rules))  # type: ignore[arg-type]


def errors(m: Match) -> list[str]:
    return [f"{f.line}:{f.message}" for f in replay_match(m).findings if f.severity == "error"]


OPENING = [mv(0, "31", "8/5 6/5", 1), mv(1, "52", "13/8 24/22", 1)]


def test_legal_moves_and_drop() -> None:
    g = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("drop", 1, 2), act("win", 0, 3, 1)])
    rep = replay_match(match_of(g))
    assert [f.message for f in rep.findings if f.severity == "error"] == []
    assert rep.games[0].winner == 0 and rep.games[0].points == 1
    assert rep.plays == 2


def test_wrong_pips_is_an_error_at_its_line() -> None:
    g = Game(1, score=(0, 0), actions=[mv(0, "31", "13/7", 1), mv(1, "52", "13/8 24/22", 1)])
    errs = errors(match_of(g))
    assert errs and errs[0].startswith("1:") and "6 pips" in errs[0]


def test_illegal_play_does_not_cascade() -> None:
    # 13/8 with 31 is wrong pips but physically possible: the replay goes on from the recorded position.
    g = Game(1, score=(0, 0), actions=[mv(0, "31", "13/8", 1), mv(1, "52", "13/8 24/22", 1),
                                       mv(0, "64", "24/18 13/9", 2)])
    errs = errors(match_of(g))
    assert len(errs) == 1


def test_unused_die_and_larger_die() -> None:
    g = Game(1, score=(0, 0), actions=[mv(0, "31", "8/5", 1)])
    errs = errors(match_of(g))
    assert errs and "the 1 is not played" in errs[0]


def test_double_by_non_owner_and_in_crawford() -> None:
    g = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("take", 1, 2),
                                       mv(0, "21", "13/11 6/5", 3), act("double", 1, 3, 4), act("take", 0, 3),
                                       mv(1, "21", "13/11 6/5", 4), act("double", 1, 4, 8)])
    errs = errors(match_of(g))
    assert any("owns the cube" in e for e in errs)
    g1 = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("drop", 1, 2), act("win", 0, 3, 1)])
    cg = Game(2, score=(1, 0), actions=[*OPENING, act("double", 0, 2, 2)])
    errs = errors(match_of(g1, cg, length=2))
    assert any("Crawford" in e for e in errs)
    # The game after the Crawford game may double.
    cg2 = Game(2, score=(1, 0), actions=[*OPENING, act("drop", 1, 2), act("win", 0, 3, 1)])
    pc = Game(3, score=(1, 1), actions=[*OPENING, act("double", 0, 2, 2)])
    g1b = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("drop", 1, 2), act("win", 0, 3, 1)])
    cg2.actions = [*OPENING, act("win", 1, 3, 1)]
    assert not any("Crawford" in e for e in errors(match_of(g1b, cg2, pc, length=2)))


def test_wrong_wins_value_and_score_line() -> None:
    g1 = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("drop", 1, 2), act("win", 0, 3, 2)])
    errs = errors(match_of(g1))
    assert any("not 2" in e for e in errs)
    g1 = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("drop", 1, 2), act("win", 0, 3, 1)])
    g2 = Game(2, score=(0, 0), span=Span(10, 2), score_span=Span(11, 2), actions=list(OPENING))
    errs = errors(match_of(g1, g2))
    assert any(e.startswith("11:") and "games so far give 1-0" in e for e in errs)


def test_bar_must_enter_first() -> None:
    # Bob hits on 5 (Alice's blot after 8/5 is covered: use 6/5 only => 31 8/5 leaves... build a hit).
    g = Game(1, score=(0, 0), actions=[mv(0, "43", "24/20 13/10", 1), mv(1, "55", "13/3(2)", 1),
                                       mv(0, "64", "20/14 13/9", 2), mv(1, "61", "13/7 8/7", 2)])
    assert errors(match_of(g)) == []
    g = Game(1, score=(0, 0), actions=[mv(0, "62", "24/18 13/11", 1), mv(1, "61", "13/7* 8/7", 1),
                                       mv(0, "31", "8/5 6/5", 2)])
    errs = errors(match_of(g))
    assert errs and "bar" in errs[0]


def test_wrong_side_moves() -> None:
    g = Game(1, score=(0, 0), actions=[mv(0, "31", "8/5 6/5", 1), mv(0, "52", "13/8 13/11", 2)])
    errs = errors(match_of(g))
    assert errs and "turn" in errs[0]


def test_nothing_after_match_end() -> None:
    g1 = Game(1, score=(0, 0), actions=[*OPENING, act("double", 0, 2, 2), act("drop", 1, 2), act("win", 0, 3, 1)])
    g2 = Game(2, score=(1, 0), span=Span(9, 2), actions=list(OPENING))
    errs = errors(match_of(g1, g2, length=1))
    assert any("match was over" in e for e in errs)


def test_the_module_is_a_module_and_the_function_replay_match() -> None:
    """``notation.replay`` is the module (it was made callable to stand for its function, ``replay``);
    the function is ``replay_match``, and its old name still gives it, with a DeprecationWarning."""
    import types
    import warnings

    import notation
    import notation.replay as module

    assert type(notation.replay) is types.ModuleType and notation.replay is module and not callable(module)
    assert notation.replay_match is module.replay_match
    from notation import replay as from_the_package

    assert from_the_package is module
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from notation.replay import replay as old
    assert old is replay_match and [w.category for w in caught] == [DeprecationWarning]
    assert "replay_match" in str(caught[0].message)
