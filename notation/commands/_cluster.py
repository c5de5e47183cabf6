"""What ``--dask`` needs before any work, checked once for every command that takes it."""

from __future__ import annotations


def check_dask(address: str, paths: list[str]) -> None:
    """Refuse at once what a cluster cannot do: no Dask installed, a bad address, standard input."""
    from ..cli import fail
    from ..scale import ExtraMissing, _workers, need

    try:
        need("dask.distributed", "--dask")
        _workers(address)
    except (ExtraMissing, ValueError) as e:
        fail(str(e))
    if "-" in paths:
        fail("--dask cannot read standard input: give the files' paths (every worker must see them)")
