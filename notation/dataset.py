"""The decision dataset: every action of an archive as a row of a Parquet dataset (``docs/dataset.md``).

:func:`write_part` computes the rows of a run of input files (:func:`notation.batch.decision_rows`) and
writes them as one ``part-NNNNN.parquet`` where it runs (here, in a forked worker or on a Dask worker),
so that only counts travel back.  The runs are fixed by the number of inputs alone (:func:`parts`), so
the same inputs always give the same parts on any engine.  Every part carries the schema's version in
its metadata (``gammon.dataset_version``) and is written whole, through a temporary file and a rename.
pyarrow is optional (``pip install 'gammon-notation[scale]'``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from .batch import DATASET_COLUMNS, DATASET_VERSION

FILES_PER_PART = 1000
"""Input files per Parquet part: about 150,000 rows, 3 MB, for gnubg's own 7-point matches."""

PART_PREFIX = "part-"


def schema() -> Any:
    """The dataset's Arrow schema, with its version in the metadata."""
    from .scale import need

    pa = need("pyarrow", "--to parquet")
    types = {"string": pa.string(), "int8": pa.int8(), "int32": pa.int32(), "bool": pa.bool_(),
             "float64": pa.float64()}
    return pa.schema([pa.field(name, types[kind]) for name, kind in DATASET_COLUMNS],
                     metadata={b"gammon.dataset_version": str(DATASET_VERSION).encode()})


def existing_parts(out_dir: str | os.PathLike[str]) -> list[Path]:
    d = Path(out_dir)
    return sorted(d.glob(PART_PREFIX + "*.parquet")) if d.is_dir() else []


def part_size(files: int) -> int:
    """Input files per part: fixed by the number of inputs alone (never by the workers), so the same
    inputs give the same parts on any engine: 50 files a part for a small batch (64 parts or fewer above
    3,200 files), at most :data:`FILES_PER_PART` files a part for a big one."""
    return max(1, min(FILES_PER_PART, max(50, -(-files // 64))))


def parts(files: int) -> list[tuple[int, int]]:
    """The [start, end) ranges of input files that make each part."""
    size = part_size(files)
    return [(k, min(files, k + size)) for k in range(0, files, size)]


def write_part(paths: list[str], out_dir: str | os.PathLike[str], index: int,
               variant: str | None = None) -> dict[str, Any]:
    """Compute the rows of ``paths`` and write them as part ``index`` (a temporary file, then a
    rename).  Runs where the work is (a worker), so only counts and errors travel back:
    ``{"part", "files", "rows", "errors": [one line per unreadable file]}``."""
    from .batch import decision_rows
    from .scale import need

    pa = need("pyarrow", "--to parquet")
    pq = need("pyarrow.parquet", "--to parquet")
    cols: dict[str, list[Any]] = {name: [] for name, _ in DATASET_COLUMNS}
    errors: list[str] = []
    rows = 0
    done = []
    for p in paths:
        res = decision_rows(p, variant)
        if res["error"]:
            errors.append(res["error"])
        done.append(res)
        for name, values in res["columns"].items():
            cols[name].extend(values)
        rows += res["rows"]
    try:
        table = pa.Table.from_pydict(cols, schema=schema())
    except Exception:  # noqa: BLE001 - a value no column holds: the files are taken one by one
        table, rows = _file_by_file(done, errors)
    out = Path(out_dir)
    path = out / f"{PART_PREFIX}{index:05d}.parquet"
    tmp = out / f".{path.name}.gammon-tmp-{os.getpid()}"
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return {"part": index, "files": len(paths), "rows": rows, "errors": errors}


def _file_by_file(done: list[dict[str, Any]], errors: list[str]) -> tuple[Any, int]:
    """The part's table from the rows of each file that its columns can hold; each other file is one
    of ``errors`` (a bug: the readers bound every number a column holds)."""
    from .batch import internal_error
    from .scale import need

    pa = need("pyarrow", "--to parquet")
    tables = []
    rows = 0
    for res in done:
        try:
            tables.append(pa.Table.from_pydict(res["columns"], schema=schema()))
            rows += res["rows"]
        except Exception as e:  # noqa: BLE001 - this file's error, named
            errors.append(f"{res['file']}: not in the dataset: {internal_error(e, 'making its rows')}")
    return pa.concat_tables(tables) if tables else pa.Table.from_pydict(
        {name: [] for name, _ in DATASET_COLUMNS}, schema=schema()), rows


def prepare(out_dir: str | os.PathLike[str], *, force: bool = False) -> None:
    """Make ``out_dir`` ready for a new dataset: refuse (FileExistsError) one that holds parts unless
    ``force``, which removes them."""
    out = Path(out_dir)
    old = existing_parts(out)
    if old and not force:
        raise FileExistsError(f"{out}: already holds a dataset ({len(old)} parts); use --force to replace it")
    out.mkdir(parents=True, exist_ok=True)
    for p in old:
        p.unlink()


def write_dataset(files: Iterable[str], out_dir: str | os.PathLike[str], *, force: bool = False,
                  variant: str | None = None) -> dict[str, Any]:
    """Write the dataset of ``files`` under ``out_dir`` in this process (the command shares the parts
    among processes or a cluster).  Returns counts: files, rows, parts, and the errors of files that
    could not be read."""
    files = list(files)
    prepare(out_dir, force=force)
    counts: dict[str, Any] = {"files": 0, "rows": 0, "parts": 0, "errors": []}
    for k, (lo, hi) in enumerate(parts(len(files))):
        res = write_part(files[lo:hi], out_dir, k, variant)
        counts["files"] += res["files"]
        counts["rows"] += res["rows"]
        counts["parts"] += 1
        counts["errors"] += res["errors"]
    return counts


def part_task(item: tuple[int, list[str]], out: str) -> dict[str, Any]:
    """Part ``item`` (its number and files) written under ``out`` where it runs (a forked worker, a Dask
    worker): :func:`write_part`'s counts, or one error when the part cannot be written."""
    k, paths = item
    try:
        return write_part(paths, out, k)
    except OSError as e:
        return {"part": None, "files": len(paths), "rows": 0,
                "errors": [f"{out}: cannot write part {k}: {e.strerror or e}"]}


def probe_rows(path: str) -> int:
    """The rows of one file, computed and dropped: a task that fails only where the file kills its worker."""
    from .batch import decision_rows

    return int(decision_rows(path)["rows"])


def salvage_part(client: Any, item: tuple[int, list[str]], reason: str, *, out: str,
                 probe: Callable[[str], Any] = probe_rows,
                 write: Callable[..., dict[str, Any]] = part_task) -> dict[str, Any]:
    """A part whose task stopped every Dask worker that tried it (``reason``): each of its files is read
    alone, as its own task, and the part is written from the files that were read; each other file is
    reported (``--to parquet`` on a cluster: a file that kills its workers no longer loses its part)."""
    from .scale import task_results

    k, paths = item
    checked = task_results(client, probe, paths)
    # A task can fail beside the killer (it was on the worker that died): each file that failed is
    # tried again alone, so that only a file that kills its workers by itself is left out.
    for i, (ok, _) in enumerate(checked):
        if not ok:
            checked[i] = task_results(client, probe, [paths[i]])[0]
    good = [p for p, (ok, _) in zip(paths, checked, strict=True) if ok]
    errors = [f"{p}: not in the dataset: {why}" for p, (ok, why) in zip(paths, checked, strict=True) if not ok]
    res: dict[str, Any] = {"part": None, "files": len(paths), "rows": 0, "errors": errors}
    if good:
        ((ok, written),) = task_results(client, partial(write, out=out), [(k, good)])
        if not ok:
            return failed_part(item, written)
        res = {**written, "files": len(paths), "errors": list(written["errors"]) + errors}
    return res


def failed_part(item: Any, reason: str) -> dict[str, Any]:
    """The result of part ``item`` that could not be written at all (``reason``): none of its files is in
    the dataset."""
    k, paths = item
    return {"part": None, "files": len(paths), "rows": 0,
            "errors": [f"part {k} ({paths[0]}, ... {len(paths)} files): not written: {reason}"]}


def read_dataset(out_dir: str | os.PathLike[str]) -> Any:
    """The whole dataset as one Arrow table (for tests and small archives; use pyarrow.dataset,
    DuckDB or Spark for big ones)."""
    from .scale import need

    pq = need("pyarrow.parquet", "reading the dataset")
    pa = need("pyarrow", "reading the dataset")
    parts = existing_parts(out_dir)
    if not parts:
        return schema().empty_table()
    return pa.concat_tables([pq.read_table(p) for p in parts])
