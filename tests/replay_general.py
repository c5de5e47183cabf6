"""The replay's general path alone, for tests that hold its fast lane to it."""

from __future__ import annotations

import pytest

from notation.record import Action
from notation.replay import _GameRunner


def one_play_at_a_time(mp: pytest.MonkeyPatch) -> None:
    """Within ``mp``'s context, the replay takes no run of plays at once (:meth:`_GameRunner.fast_moves`
    takes none): each play goes through ``do_move``."""
    def fast_moves(self: _GameRunner, actions: list[Action], i: int) -> int:
        return i

    mp.setattr(_GameRunner, "fast_moves", fast_moves)
