"""Validation leaves no reference cycles behind.

``gammon validate`` turns the cycle collector off while it checks files (a file's objects are freed by
their reference counts when it is done) and collects only when objects pile up between files.  That
is only cheap when reading and replaying make no cycles: recursive closures, for instance, must be
broken when their search is over.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from conftest import DATA

from notation.commands.validate import check_file

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in DATA.iterdir() if p.is_file() and p.suffix in (".mat", ".txt", ".sgf", ".json", ".ogxm"))
FILES += sorted(p for p in (ROOT / "samples").iterdir() if p.is_file() and p.suffix in (".mat", ".sgf", ".json"))


@pytest.fixture
def no_automatic_gc():  # type: ignore[no-untyped-def]
    """The collector off, and what the process held before the test frozen (``gc.freeze``): a collection
    then looks only at the objects made since, among them every cycle a file leaves, and not at the heap of
    the tests that ran before in the same worker (a collection of that took 0.1 s, the module a minute)."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


@pytest.mark.usefixtures("no_automatic_gc")
def test_checking_a_file_leaves_no_cycles() -> None:
    assert len(FILES) > 20
    for path in FILES:  # warm up: modules imported on first use, parsers built or loaded (they hold cycles)
        check_file(str(path))
    gc.collect()
    for path in FILES:
        check_file(str(path))
        left = gc.collect()
        assert left <= 30, f"{path.name}: {left} objects were only reachable through reference cycles"


@pytest.mark.usefixtures("no_automatic_gc")
@pytest.mark.parametrize("fmt", ["sgf", "json", "txt", "mat"])
def test_converting_a_file_leaves_no_cycles(tmp_path: Path, fmt: str) -> None:
    """``gammon convert`` too runs with the cycle collector off between its collections."""
    from notation.batch import convert_file

    mats = [p for p in FILES if p.suffix in (".mat", ".sgf")]
    for path in mats:  # warm up, as above
        convert_file(str(path), "-", fmt)
    gc.collect()
    for i, path in enumerate(mats):
        convert_file(str(path), str(tmp_path / f"{i}.{fmt}"), fmt)
        left = gc.collect()
        assert left <= 30, f"{path.name} to {fmt}: {left} objects were only reachable through reference cycles"
