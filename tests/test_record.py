"""The record's own promises: :class:`~notation.record.Action` and :class:`~notation.record.Span` are
dataclasses (``fields``/``replace`` work, as the README says), and :func:`~notation.record.move_action`, the
readers' quick way to make a plain play, makes exactly the action the keywords make."""

from __future__ import annotations

import pickle

from notation.record import Action, Span, fields, move_action, replace


def test_move_action_is_the_action_the_keywords_make_with_every_field_set() -> None:
    for play in ("13/8 24/22", ""):
        quick = move_action(1, (5, 2), play, f"52: {play}".strip(), 7, 21, 35, 4)
        made = Action("move", 1, dice=(5, 2), play=play, no_move=None if play else "", text=f"52: {play}".strip(),
                      span=Span(7, 21, 7, 35), move_number=4)
        for f in fields(Action):  # a field added to Action and not set by move_action fails here
            assert getattr(quick, f.name) == getattr(made, f.name), f.name
        for f in fields(Span):
            assert getattr(quick.span, f.name) == getattr(made.span, f.name), f.name
        assert quick == made and repr(quick) == repr(made)
        assert quick.properties is not made.properties  # each action its own properties
        quick.properties["x"] = ["1"]
        assert not made.properties and not move_action(0, (1, 1), "", "11:", 1, 1, 4, None).properties


def test_actions_and_spans_are_dataclasses_that_compare_hash_and_pickle_by_value() -> None:
    a = move_action(0, (6, 4), "24/18 13/9", "64: 24/18 13/9", 3, 6, 20, 1)
    assert [f.name for f in fields(a)][:2] == ["kind", "player"]
    assert replace(a, play="24/14").play == "24/14" and a.play == "24/18 13/9"
    assert replace(a.span, line=9) == Span(9, 6, 3, 20) and a.span == Span(3, 6, 3, 20)
    assert hash(Span(1, 2, 1, 5)) == hash(Span(1, 2, 1, 5)) and len({Span(1, 2), Span(1, 2)}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
