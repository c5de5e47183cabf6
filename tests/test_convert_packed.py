"""``gammon convert --to json`` reads a ``.mat`` file's runs of plain plays as runs
(:class:`notation.record.PlainRun`), replays them for its findings and writes each cell as the action
it stands for: held here to the ordinary reading (an :class:`~notation.record.Action` a play), byte for
byte and message for message, on every real file and on randomly edited ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from test_fuzz_validate import SOURCES, edited
from test_plain_runs import _mat_files

import notation.matchio as matchio
from notation import batch
from notation.formats.json_format import match_to_dict, to_json
from notation.record import PlainRun

ordinary_parse = matchio.parse_any


def _convert(path: Path, monkeypatch: pytest.MonkeyPatch, *, packed: bool, quiet: bool = False) -> dict[str, object]:
    """``convert_file(path, "-", "json")``, reading runs as the command does, or (``packed=False``) every
    play as an ordinary action, whatever the command asks for."""
    with monkeypatch.context() as mp:
        if not packed:
            mp.setattr(matchio, "parse_any", lambda data, *, name=None, packed=False: ordinary_parse(data, name=name))
        return batch.convert_file(str(path), "-", "json", quiet=quiet)


def test_real_files_convert_to_the_json_of_the_ordinary_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _mat_files()
    assert len(files) > 10
    asked: list[bool] = []

    def spy(data: str | bytes, *, name: str | None = None, packed: bool = False) -> object:
        asked.append(packed)
        return ordinary_parse(data, name=name, packed=packed)

    converted = 0
    for path in files:
        with monkeypatch.context() as mp:
            mp.setattr(matchio, "parse_any", spy)
            got = batch.convert_file(str(path), "-", "json")
        assert got == _convert(path, monkeypatch, packed=False), path
        # quiet: no replay, so no run is cut; the cells are written as they were read
        assert _convert(path, monkeypatch, packed=True, quiet=True) == _convert(path, monkeypatch, packed=False,
                                                                                 quiet=True), path
        converted += got["status"] == 0
    assert converted > 10
    assert asked and all(asked)  # convert --to json asks for runs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited(SOURCES))
def test_edited_files_convert_to_the_json_of_the_ordinary_reading(text: str) -> None:
    """Random edits (wrong dice and points, lines swapped or cut, cube actions and results inserted) cut
    runs everywhere: the text is still the ordinary reading's."""
    try:
        ordinary = matchio.parse_any(text, name="x.mat")
    except ValueError:
        return
    packed = matchio.parse_any(text, name="x.mat", packed=True)
    for m in packed:
        batch._findings(m)
    assert [to_json(m) for m in packed] == [to_json(m) for m in ordinary]


def test_the_runs_are_written_from_their_cells_and_as_dicts_too() -> None:
    text = (DATA / "gnubg_7p_crawford.mat").read_text()
    ordinary = matchio.parse_any(text, name="x.mat")
    packed = matchio.parse_any(text, name="x.mat", packed=True)
    assert sum(len(a.cells) for m in packed for g in m.games for a in g.actions if type(a) is PlainRun) > 100
    assert [to_json(m) for m in packed] == [to_json(m) for m in ordinary]
    assert [match_to_dict(m) for m in packed] == [match_to_dict(m) for m in ordinary]
