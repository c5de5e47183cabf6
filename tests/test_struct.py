"""Record classes (:mod:`notation._struct`) behave as the dataclasses they replace: each shape is made
both ways and every behaviour compared (construction, defaults, repr, equality, hashing, frozen fields,
pickling, copying, pattern matching), with the library's own classes checked the same way."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from notation import _struct
from notation._struct import FrozenInstanceError, struct


def _pair(frozen: bool, repr_: bool = True) -> tuple[type, type]:
    """The same class body made by dataclasses and by struct."""
    def body(field: Any) -> dict[str, Any]:
        return {"__annotations__": {"a": "int", "b": "str", "c": "list[int]", "d": "tuple[int, ...]", "e": "int"},
                "b": "x", "c": field(default_factory=list), "d": field(default=(1, 2), compare=False),
                "e": field(default=0, repr=False),
                "total": lambda self: self.a + len(self.c)}
    dc = dataclasses.dataclass(frozen=frozen, slots=True, repr=repr_)(type("Rec", (), body(dataclasses.field)))
    st = struct(frozen=frozen, repr=repr_)(type("Rec", (), body(_struct.field)))
    return dc, st


def _same(dc_obj: Any, st_obj: Any) -> None:
    assert repr(dc_obj) == repr(st_obj)
    for name in ("a", "b", "c", "d", "e"):
        assert getattr(dc_obj, name) == getattr(st_obj, name)


@pytest.mark.parametrize("frozen", [False, True])
def test_construction_defaults_and_repr(frozen: bool) -> None:
    dc, st = _pair(frozen)
    assert str(inspect.signature(dc)) == str(inspect.signature(st))
    for args, kwargs in [((1,), {}), ((1, "y", [3], (4,), 5), {}), ((), {"a": 2, "e": 7}), ((3, "z"), {"c": [1]})]:
        _same(dc(*args, **kwargs), st(*args, **kwargs))
    assert st(1).c is not st(1).c  # a new list each time
    assert st(1).total() == 1
    for bad_args, bad_kwargs in [((), {}), ((1,), {"f": 2}), ((1, 2, 3, 4, 5, 6), {}), ((1,), {"a": 1})]:
        with pytest.raises(TypeError):
            dc(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError):
            st(*bad_args, **bad_kwargs)
    assert st.__match_args__ == dc.__match_args__ == ("a", "b", "c", "d", "e")
    assert not hasattr(st(1), "__dict__")
    assert st.__name__ == "Rec" and st.__init__.__qualname__ == "Rec.__init__"


@pytest.mark.parametrize("frozen", [False, True])
def test_equality_and_hashing(frozen: bool) -> None:
    dc, st = _pair(frozen)
    for cls in (dc, st):
        assert cls(1, "y", [2], (9,)) == cls(1, "y", [2], (8,))  # d is not compared
        assert cls(1) != cls(2) and cls(1, e=1) != cls(1, e=2)
        assert cls(1) != (1, "x", [], (1, 2), 0) and cls(1).__eq__(object()) is NotImplemented
    if frozen:
        assert hash(dc(1, c=None)) == hash(st(1, c=None))  # type: ignore[arg-type]
        assert len({st(1, c=None), st(1, c=None, d=(5,)), st(2, c=None)}) == 2  # type: ignore[arg-type]
    else:
        for cls in (dc, st):
            with pytest.raises(TypeError):
                hash(cls(1))


def test_frozen_fields_refuse_changes() -> None:
    dc, st = _pair(True)
    for obj in (dc(1), st(1)):
        with pytest.raises(AttributeError):
            obj.a = 2
        with pytest.raises(AttributeError):
            del obj.b
    with pytest.raises(AttributeError):  # (a frozen dataclass with slots raises TypeError here)
        st(1).other = 1
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
        st(1).a = 2
    dc2, st2 = _pair(False)
    s = st2(1)
    s.a = 5
    assert s.a == 5


@pytest.mark.parametrize("frozen", [False, True])
def test_pickle_and_copy(frozen: bool) -> None:
    _, st = _pair(frozen)
    globals()["Rec"] = st  # pickle finds the class by its module and name
    try:
        obj = st(1, "y", [2, 3], (4,), 5)
        for other in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
            assert other == obj and other is not obj and repr(other) == repr(obj) and other.d == (4,)
        assert copy.deepcopy(obj).c is not obj.c
    finally:
        del globals()["Rec"]


def test_own_methods_are_kept_and_repr_can_be_left_out() -> None:
    @struct(frozen=True)
    class Own:
        a: int
        b: int = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Own) and self.a == other.a

        def __hash__(self) -> int:
            return hash(self.a)

        def __repr__(self) -> str:
            return f"<Own {self.a}>"

    assert Own(1, 2) == Own(1, 3) and hash(Own(1, 2)) == hash(Own(1, 3)) and repr(Own(1)) == "<Own 1>"
    dc, st = _pair(False, repr_=False)
    assert repr(st(1)).startswith("<") and repr(dc(1)).startswith("<")


def test_recursive_repr_and_pattern_matching() -> None:
    @struct
    class Node:
        value: int
        children: list[Any] = _struct.field(default_factory=list)

    n = Node(1)
    n.children.append(n)
    assert repr(n) == f"{Node.__qualname__}(value=1, children=[...])" and Node.__qualname__.endswith(".Node")
    match Node(2):
        case Node(v, kids):
            assert (v, kids) == (2, [])
        case _:  # pragma: no cover
            pytest.fail("no match")


def test_bad_definitions_are_refused_as_dataclasses_refuses_them() -> None:
    with pytest.raises(ValueError, match="mutable default"):
        struct(type("Bad", (), {"__annotations__": {"a": "list[int]"}, "a": []}))
    with pytest.raises(TypeError, match="follows a field with a default"):
        struct(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 0}))
    with pytest.raises(ValueError, match="both a default and a default factory"):
        _struct.field(default=1, default_factory=list)


def test_class_variables_and_what_struct_refuses() -> None:
    from typing import ClassVar

    @struct
    class WithClassVar:
        a: int
        shared: ClassVar[int] = 7

    assert [f.name for f in _struct.fields(WithClassVar)] == ["a"] and WithClassVar.shared == 7
    assert WithClassVar(1).shared == 7
    with pytest.raises(TypeError, match="__post_init__"):
        struct(type("Bad", (), {"__annotations__": {"a": "int"}, "__post_init__": lambda self: None}))
    with pytest.raises(TypeError, match="InitVar"):
        struct(type("Bad", (), {"__annotations__": {"a": "InitVar[int]"}}))


def test_fields_and_replace_take_both_kinds() -> None:
    dc, st = _pair(True)
    for cls in (dc, st):
        got = _struct.fields(cls)
        assert [f.name for f in got] == ["a", "b", "c", "d", "e"]
        assert got[1].default == "x" and got[2].default_factory is list and got[0].default is _struct.MISSING
        obj = cls(1, c=[7])
        new = _struct.replace(obj, a=2)
        assert (new.a, new.b, new.c) == (2, "x", [7]) and obj.a == 1


def test_the_library_classes_are_records_not_dataclasses() -> None:
    from notation.analysis import Analysis, Candidate, CheckerAnalysis, CubeAnalysis, Probabilities
    from notation.chouette import Chouette, ChouetteGame, ChouetteMatch
    from notation.ids import _Fields, _MatchFields
    from notation.play import ParsedPlay, Segment
    from notation.position import Position
    from notation.record import Action, Game, Match, MatchRules, Normalisation, PositionRecord, Span
    from notation.replay import Finding, GameReplay, MatchReplay
    from notation.rules import Play

    for cls in (Position, Action, Game, Match, MatchRules, Normalisation, PositionRecord, Span, Finding,
                GameReplay, MatchReplay, Play, ParsedPlay, Segment, _Fields, _MatchFields, Analysis, Candidate,
                CheckerAnalysis, CubeAnalysis, Probabilities, Chouette, ChouetteGame, ChouetteMatch):
        assert hasattr(cls, "__struct_fields__") and not dataclasses.is_dataclass(cls), cls
    span = Span(1, 2)
    assert repr(span) == "Span(line=1, column=2, end_line=None, end_column=None)"
    assert pickle.loads(pickle.dumps(span)) == span and hash(span) == hash(Span(1, 2, None, None))
    action = Action("move", 0, (5, 2), "13/8 24/22")
    assert action == pickle.loads(pickle.dumps(action)) and action.properties == {}
    assert action.properties is not Action("move", 0).properties
    pos = Position.initial()
    assert pickle.loads(pickle.dumps(pos)) == pos and _struct.replace(pos, turn=1) == pos.replace(turn=1)
    from notation.record import fields, replace  # the public names
    assert replace(action, player=1).player == 1 and [f.name for f in fields(action)][:2] == ["kind", "player"]
    with pytest.raises(AttributeError):
        pos.turn = 1  # type: ignore[misc]
    chouette = ChouetteMatch(length=3, chouette=None)  # a record class that extends another
    assert chouette.length == 3 and chouette.games == [] and isinstance(chouette, Match)
    assert [f.name for f in _struct.fields(ChouetteMatch)][-1] == "chouette"
