"""``gammon moves`` in several processes (``--jobs``): byte for byte what one process writes.

The positions are split into runs of consecutive positions, listed by forked workers and written in
their order (:func:`notation.parallel.map_ordered`); standard output, standard error and the exit status
must be those of ``--jobs 1`` whatever the input: real positions, errors anywhere, empty input, one
position, many.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation import parallel
from notation.cli import main
from notation.commands import moves
from notation.errors import NotationError
from notation.ids import parse_position

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
CORPUS = ROOT.parent / "shared" / "corpus"
PARENT = os.getpid()


@pytest.fixture(autouse=True)
def _forkable() -> None:
    """Without fork (or with threads left by an earlier test) every run is one process: the comparisons
    would hold trivially, so these tests are skipped instead (see ``tests/test_parallel.py``)."""
    if not parallel.can_fork():
        pytest.skip("this process cannot fork workers (not Linux, or threads left by an earlier test)")


def _real_ids(n: int) -> list[str]:
    rows = [ln.split("\t")[0] for ln in (DATA / "movegen_positions.tsv").read_text().splitlines()
            if ln and not ln.startswith("#")]
    return rows[:n]


def _corpus_ids() -> list[str]:
    """Every ID of ../shared/corpus's ID lists (GNU IDs and XGIDs, some of them malformed), in order."""
    out = []
    for d in ("gnubgid", "xgid"):
        for f in sorted((CORPUS / d).glob("*.tsv")):
            out.extend(ln.split("\t")[0] for ln in f.read_text(encoding="utf-8").splitlines()
                       if ln.strip() and not ln.startswith("#"))
    return out


def run(*args: str, stdin: str | None = None) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout_bytes, result.stderr


def _same_in_every_process_count(*args: str, stdin: str | None = None, jobs: tuple[str, ...] = ("2", "3"),
                                 default: bool = True) -> tuple[int, bytes, str]:
    """What ``--jobs 1`` gives, checked to be what each of ``jobs`` gives and, with ``default``, what the
    command gives without ``--jobs`` (``--jobs 0``: one process per CPU from PARALLEL_PAIRS pairs, else one;
    on a machine of 2 CPUs one of the runs before, which is why the long listings leave it out)."""
    one = run(*args, "--jobs", "1", stdin=stdin)
    for j in jobs:
        assert run(*args, "--jobs", j, stdin=stdin) == one, f"--jobs {j}"
    if default:
        assert run(*args, stdin=stdin) == one, "--jobs 0 (by default)"
    return one


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many processes each call of map_ordered used (to be sure a test checked the parallel path)."""
    used: list[int] = []
    real = parallel.map_ordered

    def spy(fn, n, jobs):  # type: ignore[no-untyped-def]
        used.append(max(1, min(jobs, n)))
        return real(fn, n, jobs)

    monkeypatch.setattr(parallel, "map_ordered", spy)
    return used


@pytest.mark.parametrize("as_json", [False, True])
def test_real_positions_all_rolls(as_json: bool, forks: list[int]) -> None:
    stdin = "\n".join(_real_ids(150)) + "\n"
    flag = ("--json",) if as_json else ()
    code, out, err = _same_in_every_process_count("moves", "-", "--all-rolls", *flag, stdin=stdin)
    assert code == 0 and err == ""
    assert out.count(b"\n") == (150 * 21 if as_json else len(out.splitlines()))
    assert forks and max(forks) >= 2


@pytest.mark.parametrize("as_json", [False, True])
def test_real_positions_their_own_dice_and_given_dice(as_json: bool, forks: list[int]) -> None:
    ids = _real_ids(1500)
    flag = ("--json",) if as_json else ()
    # a GNU ID with a match ID carries the dice; add them so each position is listed for its own roll
    with_dice = [f"{pid}:cIkqAAAAAAAA" if k % 2 else f"{pid}:cInqAAAAAAAA" for k, pid in enumerate(ids)]
    code, out, err = _same_in_every_process_count("moves", "-", *flag, stdin="\n".join(with_dice) + "\n",
                                                   default=False)
    assert code == 0 and err == "" and out
    code, out, err = _same_in_every_process_count("moves", "-", "--dice", "11", *flag, stdin="\n".join(ids),
                                                   default=False)
    assert code == 0 and err == "" and out
    assert forks and max(forks) >= 2


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize("bad_at", [0, 1, 5, 6, 7, 100, 299])
def test_an_error_stops_at_the_same_line(as_json: bool, bad_at: int, forks: list[int]) -> None:
    """What comes before the bad line is written, then its message with its line number, status 2."""
    ids = _real_ids(300)
    ids[bad_at] = "XGID=oops"
    lines = ["# a comment", "", *ids]
    flag = ("--json",) if as_json else ()
    code, out, err = _same_in_every_process_count("moves", "-", "--all-rolls", *flag, stdin="\n".join(lines))
    assert code == 2 and err.startswith(f"gammon: <stdin>:{bad_at + 3}: XGID") and err.count("\n") == 1
    assert (out.count(b"\n") == bad_at * 21) if as_json else (out.count(b"\nPosition ") + (bad_at > 0) == bad_at)
    assert forks and max(forks) >= 2


@pytest.mark.parametrize("as_json", [False, True])
def test_a_position_without_dice_stops_at_the_same_line(as_json: bool, tmp_path: Path) -> None:
    ids = [f"{pid}:cIkqAAAAAAAA" for pid in _real_ids(900)]
    ids[777] = ids[777].split(":")[0]  # no match ID: no dice
    f = tmp_path / "positions.txt"
    f.write_text("\n".join(ids) + "\n")
    flag = ("--json",) if as_json else ()
    code, out, err = _same_in_every_process_count("moves", str(f), *flag)
    assert code == 2 and err == (f"gammon: {f}:778: the position has no dice: give --dice AB or --all-rolls\n")
    assert out.count(b"Roll 52:" if not as_json else b'"dice": "52"') == 777


@pytest.mark.parametrize("stdin", ["", "\n", "# only a comment\n\n"])
@pytest.mark.parametrize("as_json", [False, True])
def test_empty_input(stdin: str, as_json: bool) -> None:
    flag = ("--json",) if as_json else ()
    assert _same_in_every_process_count("moves", "-", "--all-rolls", *flag, stdin=stdin) == (0, b"", "")


@pytest.mark.parametrize("as_json", [False, True])
def test_one_position(as_json: bool) -> None:
    flag = ("--json",) if as_json else ()
    pid = _real_ids(1)[0]
    code, out, err = _same_in_every_process_count("moves", "-", "--all-rolls", *flag, stdin=pid + "\n")
    assert code == 0 and err == "" and out
    code, out2, err = _same_in_every_process_count("moves", pid, "--all-rolls", *flag)
    assert code == 0 and err == "" and out2
    bad = _same_in_every_process_count("moves", "-", "--all-rolls", *flag, stdin="XGID=oops\n")
    assert bad[0] == 2 and bad[1] == b"" and bad[2].startswith("gammon: <stdin>:1: XGID")


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon", "dutch"])
def test_variants(variant: str, forks: list[int]) -> None:
    from test_moves_fast_path import _walked_positions

    from notation.ids import xgid

    lines = []
    for p in _walked_positions(variant, games=3, moves_per_game=40):
        try:
            lines.append(xgid(p))
        except NotationError:  # not one here; Acey-Deucey's waiting checkers have no ID (below)
            continue
    assert len(lines) > 30
    for flag in ((), ("--json",)):
        code, out, err = _same_in_every_process_count("moves", "-", "--all-rolls", "--variant", variant, *flag,
                                                      stdin="\n".join(lines) + "\n", default=False)
        assert code == 0 and err == "" and out
    assert forks and max(forks) >= 2


def test_acey_deucey(forks: list[int]) -> None:
    """Real positions read as Acey-Deucey: checkers off the board wait to enter (the general path)."""
    stdin = "\n".join(_real_ids(400)) + "\n"
    for flag in ((), ("--json",)):
        code, out, err = _same_in_every_process_count("moves", "-", "--dice", "21", "--variant", "acey-deucey",
                                                      *flag, stdin=stdin, default=False)
        assert code == 0 and err == "" and out
    assert forks and max(forks) >= 2


def test_corpus_id_lists() -> None:
    """The ../shared corpus's ID lists as they are (the first malformed or impossible one stops the
    listing) and without the ones that do not read."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    ids = [i for i in _corpus_ids() if "\n" not in i]
    good = []
    for i in ids:
        try:
            parse_position(i)
        except NotationError:
            continue
        good.append(i)
    assert len(good) > 50
    for lines in (ids, good * 3):
        for flag in ((), ("--json",)):
            _same_in_every_process_count("moves", "-", "--all-rolls", *flag, stdin="\n".join(lines) + "\n",
                                         default=False)


def test_as_a_whole_process(tmp_path: Path) -> None:
    """``python -m notation moves`` with real standard input and output (a pipe)."""
    f = tmp_path / "ids.txt"
    f.write_text("\n".join(_real_ids(200)) + "\nXGID=oops\n")

    def prog(*args: str) -> subprocess.CompletedProcess[bytes]:
        with open(f, "rb") as stdin:
            return subprocess.run([sys.executable, "-m", "notation", "moves", *args], stdin=stdin,
                                  capture_output=True, cwd=ROOT, timeout=300)

    for flag in ((), ("--json",)):
        one = prog("-", "--all-rolls", "--jobs", "1", *flag)
        assert one.returncode == 2 and one.stderr.startswith(b"gammon: <stdin>:201: XGID")
        assert one.stderr.count(b"\n") == 1 and one.stdout
        for j in ("2", "0"):
            other = prog("-", "--all-rolls", "--jobs", j, *flag)
            assert (other.returncode, other.stdout, other.stderr) == (one.returncode, one.stdout, one.stderr)


def test_auto_jobs_threshold() -> None:
    assert moves._auto_jobs(moves.PARALLEL_PAIRS - 1) == 1
    assert moves._auto_jobs(moves.PARALLEL_PAIRS) == min(parallel.cpu_count(), 2)
    assert moves._auto_jobs(10**6) == min(parallel.cpu_count(), 16)


# --------------------------------------------------------------------------- map_ordered


def _pid_of(k: int) -> tuple[int, int]:
    return k, os.getpid()


@pytest.mark.parametrize(("n", "jobs"), [(0, 2), (1, 2), (2, 2), (7, 3), (50, 2), (5, 8)])
def test_map_ordered_in_order_and_in_turns(n: int, jobs: int) -> None:
    out = list(parallel.map_ordered(_pid_of, n, jobs))
    assert [k for k, _ in out] == list(range(n))
    used = max(1, min(jobs, n))
    for k, pid in out:
        assert (pid == PARENT) == (k % used == 0)
    assert len({pid for _, pid in out}) == (used if n else 0)


def test_map_ordered_streams() -> None:
    """The first result comes before this process computes its next share."""
    calls: list[int] = []

    def fn(k: int) -> int:
        if os.getpid() == PARENT:
            calls.append(k)
        return k

    results = parallel.map_ordered(fn, 40, 2)
    assert next(results) == 0 and calls == [0]
    assert list(results) == list(range(1, 40)) and calls == list(range(0, 40, 2))


def _children() -> set[int]:
    tid = os.getpid()
    try:
        return {int(x) for x in Path(f"/proc/{tid}/task/{tid}/children").read_text().split()}
    except OSError:
        return set()


def test_map_ordered_closed_early_reaps_its_children() -> None:
    before = _children()
    results = parallel.map_ordered(_pid_of, 1000, 3)
    assert next(results) == (0, PARENT)
    assert next(results)[0] == 1
    results.close()
    assert _children() == before


def test_map_ordered_child_that_dies_loses_nothing() -> None:
    def fn(k: int) -> int:
        if os.getpid() != PARENT and k > 10:
            os._exit(9)
        return k * k

    with pytest.warns(RuntimeWarning, match="worker process failed"):
        assert list(parallel.map_ordered(fn, 30, 2)) == [k * k for k in range(30)]


def test_map_ordered_exception_is_raised_here() -> None:
    def fn(k: int) -> int:
        if k == 7:
            raise ValueError("seven")
        return k

    results = parallel.map_ordered(fn, 20, 2)
    got = []
    with pytest.raises(ValueError, match="seven"), pytest.warns(RuntimeWarning):
        for r in results:
            got.append(r)
    assert got == list(range(7))
