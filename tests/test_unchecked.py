"""Constructors without a frozen dataclass's ``__init__`` make the same objects."""

from __future__ import annotations

from notation.record import Span, new_span
from notation.rules import Play, new_play


def test_same_objects_as_the_dataclass() -> None:
    assert new_span(3, 5) == Span(3, 5) and new_span(3, 5, 3, 9) == Span(3, 5, 3, 9)
    assert hash(new_span(3, 5, 3, 9)) == hash(Span(3, 5, 3, 9))
    board = (0,) * 26
    assert new_play(((8, 5, False),), board, board) == Play(((8, 5, False),), board, board)
    assert repr(new_span(1, 2)) == repr(Span(1, 2))
    assert new_span.__name__ == "new_span" and new_play.__name__ == "new_play"
