"""The decision dataset: every action of an archive as a row of a Parquet dataset (``docs/dataset.md``).

:func:`write_dataset` takes the per-file results of :func:`notation.batch.decision_rows` (computed here,
in forked workers or on a Dask cluster) in the files' order and writes them as ``part-NNNNN.parquet``
files of at most ``files_per_part`` input files each, so that the same inputs always give the same
parts.  Every part carries the schema's version in its metadata (``gammon.dataset_version``).  A part is
written whole, through a temporary file and a rename.  pyarrow is optional
(``pip install 'gammon-notation[scale]'``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
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


def write_dataset(results: Iterable[dict[str, Any]], out_dir: str | os.PathLike[str], *,
                  files_per_part: int = FILES_PER_PART, force: bool = False) -> dict[str, int]:
    """Write the rows of ``results`` (in order) under ``out_dir``.  Refuses (FileExistsError) a
    directory that already holds parts, unless ``force``, which removes them first.  Returns counts:
    files, rows, parts, and files that could not be read (their errors are in the results)."""
    from .scale import need

    pa = need("pyarrow", "--to parquet")
    pq = need("pyarrow.parquet", "--to parquet")
    out = Path(out_dir)
    old = existing_parts(out)
    if old and not force:
        raise FileExistsError(f"{out}: already holds a dataset ({len(old)} parts); use --force to replace it")
    out.mkdir(parents=True, exist_ok=True)
    for p in old:
        p.unlink()
    sch = schema()
    counts = {"files": 0, "rows": 0, "parts": 0, "unreadable": 0}
    batch: dict[str, list[Any]] = {name: [] for name, _ in DATASET_COLUMNS}
    in_part = 0

    def flush() -> None:
        nonlocal batch, in_part
        if in_part == 0:
            return
        table = pa.Table.from_pydict(batch, schema=sch)
        path = out / f"{PART_PREFIX}{counts['parts']:05d}.parquet"
        tmp = out / f".{path.name}.gammon-tmp-{os.getpid()}"
        try:
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
        counts["parts"] += 1
        batch = {name: [] for name, _ in DATASET_COLUMNS}
        in_part = 0

    for res in results:
        counts["files"] += 1
        if res.get("error"):
            counts["unreadable"] += 1
        cols = res["columns"]
        for name in batch:
            batch[name].extend(cols[name])
        counts["rows"] += res["rows"]
        in_part += 1
        if in_part >= files_per_part:
            flush()
    flush()
    return counts


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
