"""The CLI's join between the notation library and the page writer (:mod:`render.html`): the ``html``
target of ``gammon convert`` and ``gammon validate --html``.  ``notation/`` itself never imports
``render/``; only this command-layer module does."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

HTML_EXTENSIONS = (".html", ".htm")


def wants_html(out: str, to: str | None) -> bool:
    """True when ``convert`` should write a page: ``--to html`` or an output named ``*.html``."""
    if to:
        return to.lower().lstrip(".") in ("html", "htm")
    return Path(out).suffix.lower() in HTML_EXTENSIONS


def match_html(match: Any, rep: Any = None, written: Any = None) -> str:
    """The match as one self-contained page; ``written`` (a Counter), when given, gets what the page
    shows of what :func:`notation.losses.holdings` counts."""
    from render.html import match_page

    return match_page(match, rep, written=written)


def _publish(path: str, text: str, inputs: Sequence[str]) -> None:
    """Written whole (through a temporary file and a rename), readable as the umask allows (a temporary
    file is created private): the pages are made to be put on a web server."""
    import os

    from ..convert import atomic_write

    atomic_write(path, text, force=True, inputs=inputs)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o666 & ~mask)


def write_report(report: str, results: Sequence[dict[str, Any]], variant: str | None = None,
                 auto_doubles: int | None = None) -> list[str]:
    """Write the batch page ``report`` and, in a folder beside it (``NAME_matches/``), one page per
    readable match; returns the paths written.  Each row of the report links to its file's page."""
    from render.html import batch_page

    from ..errors import NotationError
    from ..matchio import read_any
    from ..replay import replay

    rpath = Path(report)
    folder = rpath.parent / f"{rpath.stem}_matches"
    links: dict[str, str] = {}
    written: list[str] = []
    used: set[str] = set()
    for res in results:
        if res.get("unreadable"):
            continue
        src = str(res["file"])
        try:
            matches = read_any(src)
        except (OSError, NotationError):
            continue
        for k, match in enumerate(matches):
            if variant:
                match.rules.variant = variant
            if auto_doubles is not None:
                match.rules.auto_doubles = auto_doubles
            match.source = src
            stem = Path(src).stem + (f"-{k + 1}" if k else "")
            name, n = stem, 1
            while name.lower() in used:
                n += 1
                name = f"{stem}-{n}"
            used.add(name.lower())
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{name}.html"
            _publish(str(target), match_html(match, replay(match)), [src])
            written.append(str(target))
            if k == 0:
                links[src] = f"{folder.name}/{target.name}"
    rpath.parent.mkdir(parents=True, exist_ok=True)
    _publish(report, batch_page(results, links), [str(r["file"]) for r in results])
    written.append(report)
    return written
