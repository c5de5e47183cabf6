"""``gammon convert IN... OUT``: convert match records between .mat, SGF, JSON, a text record, a web page and
a decision dataset, validating them on the way."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any

import click

from .._term import fail, safe_line
from ..batch import BATCH, convert_file, convert_files
from ..convert import EXTENSIONS, InputSet, check_target, format_for
from ..formats.registry import FORMATS, Format, by_name
from ..matchio import find_inputs, skipped_summary
from ..parallel import auto_jobs, collect_if_piled, collector_paused, map_batches, map_files

__all__ = ["command", "TARGETS"]

TARGETS = (*(n for f in FORMATS if f.writer is not None for n in (f.name, *f.aliases)), "html", "parquet")
"""What --to takes: every format written (:mod:`notation.formats.registry`; ``text`` is ``txt``), the web page
and the decision dataset."""

HTML_EXTENSIONS = (".html", ".htm")


@click.command("convert")
@click.argument("paths", nargs=-1, required=True)
@click.option("--to", "to", default=None, type=click.Choice(TARGETS, case_sensitive=False),
              help="Target format (default: OUT's extension).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file (never an input).")
@click.option("--strict", is_flag=True, help="Refuse to write when the target cannot hold everything.")
@click.option("--quiet", "-q", is_flag=True, help="Do not report validation findings or what is dropped.")
@click.option("--bar", "bar", type=click.Choice(["25", "bar"]), default="25", show_default=True,
              help=".mat output: how the bar is written in moves.")
@click.option("--off", "off", type=click.Choice(["0", "off"]), default="0", show_default=True,
              help=".mat output: how bearing off is written in moves.")
@click.option("--hit-marks/--no-hit-marks", default=True, show_default=True,
              help=".mat output: keep or drop the '*' hit marks.")
@click.option("--canonical", is_flag=True,
              help="Rewrite legal plays as gnubg writes them (one step per die, every hit marked); "
                   "each rewrite is reported.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Convert on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' for a "
                   "local cluster ('local:N' for N workers).  Workers write the outputs, so OUT must be "
                   "on a filesystem they share.  Needs the [scale] extra.")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Convert in this many parallel processes; 0: one per CPU (at most 16, one per four "
                   "files) when there are at least 8 files.  With several processes the reports come "
                   "when all are done, in the inputs' order.")
def command(paths: tuple[str, ...], to: str | None, force: bool, strict: bool, quiet: bool, bar: str, off: str,
            hit_marks: bool, canonical: bool, dask_address: str | None = None, jobs: int = 1) -> None:
    """Convert IN... to OUT (a file, '-' for standard output, or a directory for several inputs).

    IN is a record file (recognised by content), a directory (walked for records), a pattern, or '-'
    for standard input.  The record is validated on the way and findings are reported as `gammon
    validate` does, but an illegal record is still converted.  What the target format cannot hold is
    listed; --strict makes that an error.  Outputs are checked before any work: an input is never
    overwritten, an existing file only with --force, and two inputs never write the same output.  A
    bad input is reported and the others are still converted.  IN may also be a URL (s3://..., with
    fsspec).  --to parquet writes the decision dataset under the directory OUT (a row per action,
    docs/dataset.md; needs the [scale] extra).
    Exit status: 0 written, 1 --strict refused a lossy conversion, 2 bad input or a refused output.
    """
    if len(paths) < 2:
        fail("convert needs at least one input and an output (IN... OUT)")
    found = find_inputs(paths[:-1])
    inputs = InputSet(found.files)  # every output is checked against every input: their identities once
    out = paths[-1]
    if not out:
        fail("the output is an empty name: give a file, a directory, or '-' for standard output")
    for p in found.problems:
        fail(p)
    skipped = skipped_summary(found.skipped)
    if skipped is not None and not quiet:
        click.echo(f"gammon: {safe_line(skipped)}", err=True)
    if dask_address is not None:
        from ..scale import ExtraMissing, check_cluster

        try:
            check_cluster(dask_address, inputs)
        except (ExtraMissing, ValueError) as e:
            fail(str(e))
    if jobs == 0:
        jobs = auto_jobs(len(inputs))
    if "-" in inputs:
        jobs = 1
    if to is not None and to.lower() == "parquet":
        _parquet(inputs, out, force=force, quiet=quiet, jobs=jobs, dask_address=dask_address)
        return
    collector = _collector(out, to)
    if collector is not None:
        _stream(inputs, out, collector, force=force, strict=strict, quiet=quiet)
        return
    # A directory or a pattern among the inputs writes a directory, however many records it holds: the
    # meaning of OUT does not change with the number of files found.
    several = len(inputs) > 1 or found.walked or Path(out).is_dir()
    make_folder = several and out != "-" and not os.path.lexists(out) and Path(out).suffix.lower() not in (
        *EXTENSIONS.values(), ".html", ".parquet")
    if several and not make_folder and (out == "-" or not Path(out).is_dir()):
        fail(f"{out}: with several inputs, a directory or a pattern, the output must be a directory (one "
             "that does not exist yet is made, unless its name ends as a record's)")
    try:
        fmt = "html" if _wants_html("" if several else out, to) else format_for(None if several else out, to)
    except ValueError as e:
        fail(str(e))
    # every target is known and checked before any work: refusals come first, alone
    targets: dict[str, str] = {}
    seen: dict[str, str] = {}
    for src in inputs:
        stem = "stdin" if src == "-" else Path(src).stem
        target = str(Path(out) / (stem + EXTENSIONS.get(fmt, ".html"))) if several else out
        n = 1
        while target.lower() in seen:  # a.mat and a.sgf: the second written as a-2.mat, and said
            n += 1
            target = str(Path(out) / f"{stem}-{n}{EXTENSIONS.get(fmt, '.html')}")
        if n > 1 and not quiet:
            first = seen[str(Path(out) / (stem + EXTENSIONS.get(fmt, ".html"))).lower()]
            click.echo(f"gammon: {safe_line(src)} is written to {safe_line(target)} ({safe_line(first)} has "
                       f"the name {stem}{EXTENSIONS.get(fmt, '.html')})", err=True)
        seen[target.lower()] = src
        targets[src] = target
        if target != "-":
            try:
                check_target(target, force=force, inputs=inputs)
            except FileExistsError as e:
                fail(str(e))
    if make_folder:  # (docs/guarantees.md: an output's missing folders are made)
        try:
            Path(out).mkdir(parents=True)
        except OSError as e:
            fail(f"{out}: cannot make the folder: {e.strerror or e}")
        if not quiet:
            click.echo(f"gammon: made the folder {safe_line(out)}", err=True)
    given = {"bar": bar, "off": off, "hit_marks": hit_marks}
    options = {} if fmt == "html" else {k: v for k, v in given.items() if k in by_name(fmt).options}
    page: Callable[..., str] | None = None
    if fmt == "html":  # the page writer (render/ imports notation/; only the command joins the two)
        from render.html import match_page

        page = match_page
    # Every output was checked against every input above; as it is written, it is checked again against
    # the inputs here (forked workers share them), or on a cluster against its own input only (the
    # whole list would travel with every task).
    settings: dict[str, Any] = dict(fmt=fmt, force=force, strict=strict, quiet=quiet, canonical=canonical,
                                    inputs=() if dask_address is not None else inputs, options=options,
                                    page=page, per_match=several)
    if dask_address is not None:
        from ..scale import dask_imap

        one = partial(_convert_one, work=partial(convert_file, **settings), targets=targets)
        results: Any = dask_imap(one, inputs, dask_address, _failed_file)
    else:
        # Here, BATCH files at a time, their outputs synced together (batch.convert_files); in order,
        # each batch reported as soon as it is done with one process, all at the end with several.
        some = partial(_convert_some, settings=settings, targets=targets)
        if jobs > 1:  # (started below, with the collector paused)
            results = _later(partial(map_batches, some, inputs, jobs, BATCH, lost=_failed_file))
        else:
            results = (res for lo in range(0, len(inputs), BATCH) for res in some(inputs[lo:lo + BATCH]))
    status = 0
    # As ``gammon validate`` does: a file's many small objects are freed by their reference counts, so
    # the cycle collector runs between files when objects pile up (_convert_some), not during them, and
    # never re-scans what the imports left.
    with collector_paused():
        it = iter(results)
        while True:  # a bad input is reported and the others are still converted
            try:
                res = next(it)
            except StopIteration:
                break
            except OSError as e:  # the cluster cannot be reached or did not start
                fail(str(e))
            # (a standard output that fails here is the command's: one line from gammon's entry point)
            status = max(status, _report(res))
    sys.exit(status)


def _later(run: Any) -> Any:
    yield from run()


def _convert_some(srcs: Sequence[str], settings: dict[str, Any], targets: dict[str, str]) -> list[dict[str, Any]]:
    results = convert_files(srcs, [targets[s] for s in srcs], **settings)
    collect_if_piled()
    return results


def _convert_one(src: str, work: Any, targets: dict[str, str]) -> dict[str, Any]:
    result = work(src, targets[src])
    collect_if_piled()
    return result  # type: ignore[no-any-return]


def _parquet(inputs: Sequence[str], out: str, *, force: bool, quiet: bool, jobs: int, dask_address: str | None) -> None:
    """``--to parquet``: the decision dataset of every input under the directory ``out``, each part
    written where it is computed (here, a forked worker, or a Dask worker: ``out`` must be shared)."""
    from .._term import plural, safe_line
    from ..dataset import failed_part, part_task, parts, prepare, salvage_part
    from ..scale import ExtraMissing, need

    try:
        need("pyarrow", "--to parquet")
    except ExtraMissing as e:
        fail(str(e))
    if out == "-" or (Path(out).exists() and not Path(out).is_dir()):
        fail(f"{out}: --to parquet writes a dataset: the output must be a directory")
    try:
        prepare(out, force=force)
    except FileExistsError as e:
        fail(str(e))
    except OSError as e:
        fail(f"{out}: cannot write: {e.strerror or e}")
    items = [(k, inputs[lo:hi]) for k, (lo, hi) in enumerate(parts(len(inputs)))]
    work = partial(part_task, out=out)
    if dask_address is not None:
        from ..scale import dask_imap

        results: Any = dask_imap(work, items, dask_address, failed_part,  # type: ignore[arg-type]
                                 salvage=partial(salvage_part, out=out))
    else:
        results = map_files(work, items, min(jobs, len(items)))  # type: ignore[arg-type]
    counts = {"files": 0, "rows": 0, "parts": 0}
    unreadable = 0
    try:
        for res in results:
            for error in res["errors"]:
                click.echo(safe_line(error), err=True)
            unreadable += len(res["errors"])
            counts["files"] += res["files"]
            counts["rows"] += res["rows"]
            counts["parts"] += 1 if res.get("part") is not None else 0
    except OSError as e:  # the cluster cannot be reached or did not start
        fail(str(e))
    if not quiet:
        click.echo(f"{safe_line(out)}: {plural(counts['rows'], 'row')} from {plural(counts['files'], 'file')} "
                   f"in {plural(counts['parts'], 'part')}", err=True)
    sys.exit(2 if unreadable else 0)


def _report(res: dict[str, Any]) -> int:
    if res["messages"]:  # a file's lines at once (each is one line: batch.convert_file made them so)
        click.echo("\n".join(res["messages"]), err=True)
    if isinstance(res["text"], bytes):  # (OGXM)
        sys.stdout.flush()
        sys.stdout.buffer.write(res["text"])
    elif res["text"] is not None:
        text = res["text"]
        if sys.stdout.isatty():  # shown, not kept: a record's control characters cannot act on the terminal
            from .._term import safe, safe_json

            text = safe_json(text) if text.startswith(("{", "[")) else safe(text)
        sys.stdout.write(text)
    return int(res["status"])


def _collector(out: str, to: str | None) -> Format | None:
    """The format that collects every match of every input into one file (its registry line's ``collects``:
    ``.ogxms``) when ``convert`` writes one: ``--to`` it, or no ``--to`` and an output (not a directory) named
    with its extension."""
    for f in FORMATS:
        if f.collects and (to.lower() in (f.name, *f.aliases) if to is not None else
                           out.lower().endswith(f.extensions[0]) and not Path(out).is_dir()):
            return f
    return None


def _stream(inputs: Sequence[str], out: str, fmt: Format, *, force: bool, strict: bool, quiet: bool) -> None:
    """``--to ogxms`` (``fmt``, a format that ``collects``): every match of every input as one stream, each a
    member in the inputs' order.  Each input's findings are reported as for any conversion; an input that cannot be
    read is reported and left out (exit 2), the others are written.  Each member is written as it is
    made, and an OGXM stream among the inputs is read one member at a time: memory is one member,
    whatever their number."""
    import tempfile

    from .._term import safe_line
    from ..batch import source_bytes
    from ..convert import _sync, check_target, open_pending, write_error
    from ..errors import NotationError
    from ..matchio import iter_matches
    from ..replay import replay_match

    if out != "-":
        try:
            check_target(out, force=force, inputs=inputs)
        except FileExistsError as e:
            fail(str(e))
    status = 0
    members = 0
    lines: list[str] = []
    pending = None
    sink: IO[bytes]
    try:
        if out == "-":
            sink = tempfile.TemporaryFile()  # (standard output gets the stream once it is whole)
        else:
            pending = open_pending(out, force=force, inputs=inputs)
            sink = open(pending.fd, "wb", closefd=False)
    except OSError as e:
        fail(write_error(out, e))
    try:
        for src in inputs:
            name = "<stdin>" if src == "-" else src
            at, said, before = sink.tell(), len(lines), members  # (an input that fails midway is left out whole)
            try:
                data = source_bytes(src)[0]
                for m in iter_matches(data, name=name):
                    m.source = name
                    rep = replay_match(m)
                    if not quiet:
                        lines += [safe_line(f.format()) for f in rep.findings if f.severity != "note"]
                    try:
                        written = fmt.write(m, rep)
                    except NotationError as e:
                        lines.append(safe_line(f"{name}: not converted: {e.message}"))
                        status = 2
                        continue
                    finally:
                        del m, rep
                    if strict or not quiet:
                        lines += [safe_line(f"{name}: {'error' if strict else 'dropped'}: member {members + 1}: {d}")
                                  for d in written.dropped]
                    if written.dropped and strict:
                        status = max(status, 1)
                    members += 1
                    member = written.data
                    _put(sink, member if isinstance(member, bytes) else member.encode("utf-8"), out)
                del data
            except (OSError, NotationError) as e:
                sink.seek(at)
                sink.truncate()
                del lines[said:]
                members = before
                if isinstance(e, NotationError):
                    e.located(file=name)
                    lines.append(safe_line(str(e)))
                else:
                    lines.append(safe_line(f"{name}: cannot read: {e.strerror or e}"))
                status = 2
        if lines:
            click.echo("\n".join(lines), err=True)
        if status == 1 or not members:
            sys.exit(status or 2)
        try:
            sink.flush()
            if out == "-":
                sink.seek(0)
                sys.stdout.flush()
                while chunk := sink.read(1 << 20):
                    sys.stdout.buffer.write(chunk)
            elif pending is not None:
                _sync(pending.fd)
                pending.finish(force=True)
                pending = None
        except OSError as e:
            fail(write_error(out, e))
    except _WriteFailed as e:
        fail(write_error(out, e.error))
    finally:
        sink.close()
        if pending is not None:
            pending.abandon()
    sys.exit(status)


class _WriteFailed(Exception):
    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _put(sink: Any, data: bytes, out: str) -> None:
    """Write ``data`` to the stream's file (a failure is the output's, not the input's)."""
    try:
        sink.write(data)
    except OSError as e:
        raise _WriteFailed(e) from e


def _failed_file(path: str, reason: str) -> dict[str, Any]:
    return {"file": path, "target": None, "status": 2, "messages": [f"{path}: not converted: {reason}"],
            "text": None}


def _wants_html(out: str, to: str | None) -> bool:
    """True when ``convert`` should write a page: ``--to html`` or an output named ``*.html``."""
    if to:
        return to.lower().lstrip(".") in ("html", "htm")
    return Path(out).suffix.lower() in HTML_EXTENSIONS
