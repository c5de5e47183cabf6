"""Problem sets: a match's decisions as a book prints them, a question and, on a later page, its answer.

:func:`problems` takes analysed matches (or their replays) and returns a :class:`Problem` for every
decision whose error is at least ``min_error`` (EMG; 0.08 by default), or, with ``marked=True``, every
decision the record marks (gnubg's ``BM``/``DO``/``IT`` marks, eXtreme Gammon's flags) or comments on.
The decisions and their errors are :func:`notation.decisions.decisions`' (the walk statistics use too);
nothing here computes an error.  Problems are numbered from 1 in the order of the records and of play;
``limit`` keeps the largest errors (the earlier one first where two are equal) and numbers what it keeps
in the same order, so a problem's number depends only on the input and the options.

A :class:`Problem` draws itself: :meth:`Problem.problem_png` / ``problem_svg`` (the position and its
book caption, the question, no answer), :meth:`Problem.solution_png` / ``solution_svg`` (the best play as
arrows and the play made as pale arrows under them, with the ranked plays and equities as a table; for a
cube decision the three equities and the right action; the comment of the position); in a notebook it
shows as its problem diagram.  :func:`write_problem_set` writes a set: the diagrams, ``index.html``,
``problems.json``, optionally one print-ready PDF (:func:`pdf`, Pillow) and an Anki import CSV
(:func:`anki_csv`).  The same input gives the same bytes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path, PurePath
from typing import IO, Any

from PIL import Image

from notation.decisions import Decision, decisions
from notation.position import Position
from notation.record import Match
from notation.replay import MatchReplay, replay_match

from . import raster, vector
from .captions import WORDS, book_caption, latin_name
from .display import Drawing, Group
from .layout import layout, text_items, text_lines
from .vector import SvgString

__all__ = ["MARKS", "MIN_ERROR", "Problem", "anki_csv", "anki_name", "index_page", "pdf", "problems", "problems_json",
           "write_pdf", "write_problem_set"]

MIN_ERROR = 0.08
"""The default threshold: a decision that lost at least this much (EMG) is a problem."""
MARKS = ("BM", "DO", "IT")
"""gnubg's marks of a move or cube decision in its SGF: bad (``BM[1]``) or very bad (``BM[2]``), doubtful,
interesting."""
TOP = 5
"""Ranked plays shown in a solution's table (the play made too, where it ranks lower)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One decision as a problem (see the module)."""

    number: int
    decision: Decision
    source: str
    """The record's file name (or what the caller named it)."""
    names: tuple[str, str]
    """The players' names as the record gives them ("" where it gives none)."""
    crawford_rule: bool = True
    options: dict[str, Any] = field(default_factory=dict, compare=False)
    """Render options for both diagrams (size, theme ...)."""

    # ------------------------------------------------------------ what it says
    @property
    def kind(self) -> str:
        return self.decision.kind

    @property
    def error(self) -> float | None:
        return self.decision.error

    @property
    def position(self) -> Position:
        """The position of the question (for a cube decision before rolling, or with the cube offered),
        with the players' names."""
        pos = self.decision.position
        assert pos is not None  # problems() keeps only decisions the replay followed
        return pos.replace(names=self.names) if any(self.names) else pos

    @property
    def player_name(self) -> str:
        return self.names[self.decision.player] or WORDS[("white", "black")[self.decision.player]]

    @property
    def caption(self) -> str:
        """The question: the book caption of the position (``Match to 7, White leads 3-0. White to play
        52.``)."""
        return book_caption(self.position, crawford_rule=self.crawford_rule)

    @property
    def comment(self) -> str | None:
        a = self.decision.source
        return a.comment.strip() if a is not None and a.comment and a.comment.strip() else None

    @property
    def where(self) -> str:
        """``Game 2, move 14`` (the record's numbering, as ``gammon validate`` prints it)."""
        d = self.decision
        move = f", {WORDS['move']} {d.move}" if d.move is not None else ""
        return f"{WORDS['game']} {d.game}{move}"

    def _checker(self) -> Any:
        """The record's checker-play analysis of this decision, or None."""
        a = self.decision.source
        an = a.analysis if a is not None else None
        return an.checker if an is not None else None

    @property
    def best(self) -> str | None:
        """The best play, or the right cube actions in words (``double, take``)."""
        return self.decision.best

    @property
    def played(self) -> str | None:
        """The play made, or the cube action taken (``no double``, ``take`` ...)."""
        return self.decision.played

    @property
    def answer(self) -> str:
        """The solution in one sentence: the best choice, the one made and what it cost."""
        d = self.decision
        err = "" if d.error is None else WORDS["error"].format(error=f"{d.error:.3f}")
        if d.kind == "checker":
            best = d.best if d.best is not None else "?"
            played = d.played if d.played else WORDS["no_move"]
            return WORDS["answer_checker"].format(best=best or WORDS["no_move"], played=played, error=err)
        redouble = self.position.cube_owner is not None
        best = "?"
        if d.equities is not None:
            v = d.equities.verdict
            # the doubled player's question is take or pass; the doubler's, both actions
            best = _cube_words(v.answer if d.action in ("take", "pass", "beaver") else v.words, redouble)
        return WORDS["answer_cube"].format(best=best, played=_cube_words(d.action, redouble), error=err)

    @property
    def table(self) -> tuple[tuple[str, ...], ...]:
        """The solution's table: for a checker play the ranked plays (rank, play, equity, difference
        from the best; the top :data:`TOP` and the play made), for a cube decision the three equities
        (EMG, from the doubler's side) and each one's difference from the best."""
        d = self.decision
        if d.kind == "cube":
            equities = d.equities
            if equities is None:
                return ()
            best = equities.optimal
            rows = ((WORDS["no_double"], equities.no_double), (WORDS["double_take"], equities.double_take),
                    (WORDS["double_pass"], equities.double_pass))
            return tuple((label, "", f"{v:+.3f}", "" if abs(v - best) < 5e-7 else f"{v - best:+.3f}")
                         for label, v in rows)
        checker = self._checker()
        cands = checker.candidates if checker is not None else ()
        if not cands:
            return ()
        played = checker.played
        shown = [i for i in range(min(TOP, len(cands)))]
        if played is not None and played >= TOP and played < len(cands):
            shown.append(played)
        best = cands[0].equity
        out = []
        for i in shown:
            c = cands[i]
            play = c.play or WORDS["no_move"]
            if i == played:
                play = WORDS["played_mark"].format(play=play)
            eq = "" if c.equity is None else f"{c.equity:+.3f}"
            diff = "" if i == 0 or c.equity is None or best is None else f"{c.equity - best:+.3f}"
            out.append((f"{i + 1}.", play, eq, diff))
        return tuple(out)

    # ------------------------------------------------------------ drawing
    def _base(self, options: dict[str, Any]) -> dict[str, Any]:
        pos = self.position
        base: dict[str, Any] = {"names": any(self.names), "score": pos.match_length > 0, "on_roll": True}
        base.update(self.options)
        base.update(options)
        return base

    def problem_options(self, **options: Any) -> dict[str, Any]:
        """The render options of the problem diagram: the position and its question, no answer."""
        opts = self._base(options)
        opts.setdefault("caption", self.caption)
        opts.setdefault("heading", f"{WORDS['problem']} {self.number}")
        return opts

    def solution_options(self, **options: Any) -> dict[str, Any]:
        """The render options of the solution diagram: the best play as arrows, the play made as pale
        arrows (checker), the table, the answer and the comment as the caption."""
        opts = self._base(options)
        d = self.decision
        if d.kind == "checker" and d.best:
            opts.setdefault("play", d.best)
            if d.played and d.played != d.best:
                opts.setdefault("ghost_play", d.played)
        caption = self.answer
        if self.comment:
            caption += "\n" + self.comment
        opts.setdefault("caption", caption)
        opts.setdefault("table", self.table)
        opts.setdefault("heading", f"{WORDS['solution']} {self.number}")
        return opts

    def problem_drawing(self, **options: Any) -> Drawing:
        return layout(self.position, **self.problem_options(**options))

    def solution_drawing(self, **options: Any) -> Drawing:
        opts = self.solution_options(**options)
        for drop in ((), ("ghost_play",), ("ghost_play", "play")):
            # a play the rules do not read here (a record's play its roll cannot give) is drawn without its
            # arrows: first the play made, then the best play too
            try:
                return layout(self.position, **{k: v for k, v in opts.items() if k not in drop})
            except ValueError:
                if drop == ("ghost_play", "play"):
                    raise
        raise AssertionError("unreachable")

    def problem_png(self, **options: Any) -> bytes:
        return raster.png(self.problem_drawing(**options))

    def solution_png(self, **options: Any) -> bytes:
        return raster.png(self.solution_drawing(**options))

    def problem_svg(self, **options: Any) -> SvgString:
        return vector.svg(self.problem_drawing(**options))

    def solution_svg(self, **options: Any) -> SvgString:
        return vector.svg(self.solution_drawing(**options))

    def _repr_svg_(self) -> str:
        return str(self.problem_svg())

    def __repr__(self) -> str:
        err = "" if self.error is None else f", error {self.error:.3f}"
        return f"<Problem {self.number}: {self.source}, {self.where}, {self.kind}{err}>"

    def to_dict(self, files: dict[str, str] | None = None) -> dict[str, Any]:
        """The problem as plain data (``problems.json``): its image files, game, move, the position's
        XGID, player, kind, error and caption, the answer and the table."""
        from notation.ids import xgid

        d = self.decision
        return {
            "number": self.number, "files": files or {}, "source": self.source, "game": d.game, "move": d.move,
            "xgid": xgid(self.position),
            "player": d.player, "player_name": self.names[d.player], "kind": d.kind, "action": d.action,
            "error": None if d.error is None else round(d.error, 6), "caption": self.caption,
            "best": d.best, "played": d.played, "answer": self.answer, "comment": self.comment,
            "table": [list(r) for r in self.table],
        }


def _cube_words(phrase: str, redouble: bool) -> str:
    """A cube action as :mod:`notation.decisions` says it (``double, take``, ``too good, pass``, ``no
    double``) in the words of :data:`~render.captions.WORDS`; ``redouble`` where the doubler owns the cube."""
    out = []
    for part in phrase.split(", "):
        key = "action_" + part.replace(" ", "_")
        if redouble and part in ("double", "no double"):
            key = key.replace("double", "redouble")
        out.append(WORDS.get(key, part))
    return ", ".join(out)


# --------------------------------------------------------------------------- selection


def _marked(d: Decision) -> bool:
    """The record marks this decision or comments on it: gnubg's marks and a comment on a move action are
    its checker play's, on a double, take or pass the cube decision's; eXtreme Gammon's flags are the
    play's (``xg:flagged``) and the cube decision's (``xg:flagged_cube``: a double, or the decision not
    to double kept with the next move)."""
    a = d.source
    if a is None:
        return False
    extra = a.analysis.extra if a.analysis is not None else {}
    if d.action == "no double":  # the move's marks and comment are its checker play's
        return "xg:flagged_cube" in extra
    flag = "xg:flagged" if d.kind == "checker" else "xg:flagged_cube"
    return any(k in a.properties for k in MARKS) or flag in extra or bool(a.comment and a.comment.strip())


SIDES = ({"white", "o", "0"}, {"black", "x", "1"})
"""What ``player=`` may say instead of a name: the side's colour, its letter or number."""


def _fold(name: str) -> str:
    """A name as ``player=`` compares it: case, accents and spacing aside (``kevin  unger`` is ``Kévin
    UNGER``, written with its accent composed or not)."""
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def _is_named(want: str, name: str) -> bool:
    """``want`` (what ``player=`` says) names the player ``name`` (as the record writes it)."""
    w = _fold(want)
    return bool(name.strip()) and w in (_fold(name), _fold(latin_name(name)))


def _player_matches(want: str, player: int, names: tuple[str, str]) -> bool:
    return _is_named(want, names[player]) or _fold(want) in SIDES[player]


def problems(records: Match | MatchReplay | Sequence[Match | MatchReplay], min_error: float = MIN_ERROR, *,
             marked: bool = False, player: str | None = None, kind: str | None = None, limit: int | None = None,
             sources: Sequence[str] | None = None, options: dict[str, Any] | None = None) -> list[Problem]:
    """The problems of ``records`` (a match or a replay, or a list of them): see the module.

    ``min_error``: the least error (EMG) of a problem; ``marked``: instead, the decisions the record marks
    or comments on; ``player``: only this player's (a name, or ``white``/``black``); ``kind``: only
    ``"checker"`` or ``"cube"`` decisions; ``limit``: the largest errors only; ``sources``: each
    record's name (default: its file name); ``options``: render options of every diagram."""
    if kind not in (None, "checker", "cube"):
        raise ValueError(f"kind must be 'checker' or 'cube', not {kind!r}")
    if limit is not None and limit < 0:
        raise ValueError("limit must be at least 0")
    if not math.isfinite(min_error) or min_error < 0:
        raise ValueError(f"min_error {min_error} is not a number >= 0")
    items = [records] if isinstance(records, Match | MatchReplay) else list(records)
    found: list[tuple[int, str, tuple[str, str], bool, Decision]] = []
    players: list[str] = []  # every record's names, for a player= that names none of them
    for k, rec in enumerate(items):
        rep = rec if isinstance(rec, MatchReplay) else replay_match(rec)
        match = rep.match
        source = sources[k] if sources is not None else (match.source or f"record {k + 1}")
        names = (match.names[0] or "", match.names[1] or "")
        players += [n for n in names if n.strip() and n not in players]
        for d in decisions(rep):
            if d.position is None or (kind is not None and d.kind != kind):
                continue
            if player is not None and not _player_matches(player, d.player, names):
                continue
            if marked:
                if not _marked(d):
                    continue
            elif d.error is None or d.error < min_error:
                continue
            found.append((len(found), source, names, match.rules.crawford, d))
    if player is not None and _fold(player) not in SIDES[0] | SIDES[1] and not any(
            _is_named(player, name) for name in players):
        known = ", ".join(players) if players else "none named"
        raise ValueError(f"player {player!r} plays in none of the records (players: {known}; or white, black)")
    if limit is not None and len(found) > limit:
        largest = sorted(found, key=lambda f: (-(f[4].error if f[4].error is not None else -1.0), f[0]))[:limit]
        found = sorted(largest, key=lambda f: f[0])
    return [Problem(n, d, source, names, crawford_rule, dict(options or {}))
            for n, (_, source, names, crawford_rule, d) in enumerate(found, 1)]


# --------------------------------------------------------------------------- writing a set


def file_names(p: Problem, fmt: str = "png") -> dict[str, str]:
    return {"problem": f"problem-{p.number:03d}.{fmt}", "solution": f"solution-{p.number:03d}.{fmt}"}


def problems_json(ps: Sequence[Problem], fmt: str = "png") -> str:
    """``problems.json``: the set's problems in order, each with its image files (see
    :meth:`Problem.to_dict`)."""
    data = {"problems": [p.to_dict(file_names(p, fmt)) for p in ps], "count": len(ps)}
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


_PAGE_CSS = """
:root{--bg:#fff;--fg:#111;--mut:#666;--line:#ddd}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e8e8e8;--mut:#9aa;--line:#333}
img{filter:invert(.88) hue-rotate(180deg)}}
body{margin:0;padding:1em;font:15px/1.4 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
h1{font-size:1.3em;margin:0 0 .5em}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid var(--line);padding:.3em .5em;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}img{width:220px;height:auto}
a{color:inherit}p.mut{color:var(--mut)}
"""


def index_page(ps: Sequence[Problem], fmt: str = "png", title: str | None = None) -> str:
    """``index.html``: one self-contained page (no network; the diagrams beside it) listing each problem
    with its question, linking its problem and solution diagrams."""
    title = title or WORDS["index_title"]
    rows = []
    for p in ps:
        f = file_names(p, fmt)
        err = "" if p.error is None else f"{p.error:.3f}"
        rows.append(
            f'<tr id="p{p.number}"><td class="n">{p.number}</td>'
            f'<td><a href="{escape(f["problem"])}"><img src="{escape(f["problem"])}" alt="{escape(p.caption)}">'
            f"</a></td><td>{escape(p.caption)}<p class=\"mut\">{escape(p.source)}: {escape(p.where)}, "
            f"{escape(p.player_name)}, {escape(WORDS['kind_' + p.kind])}</p>"
            f'<a href="{escape(f["solution"])}">{escape(WORDS["solution"])}</a>: {escape(p.answer)}</td>'
            f'<td class="n">{err}</td></tr>')
    head = (f"<tr><th>#</th><th>{escape(WORDS['problem'])}</th><th>{escape(WORDS['question'])}</th>"
            f"<th>{escape(WORDS['error_heading'])}</th></tr>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{_PAGE_CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1><p class=\"mut\">{len(ps)} {escape(WORDS['problems_count'])}</p>"
            f"<table>{head}{''.join(rows)}</table></body></html>\n")


def anki_name(image: bytes | str, fmt: str = "png") -> str:
    """The name of an image for Anki's media folder (``collection.media``), which every deck of a
    collection shares and which has no subfolders: ``gammon-`` and a digest of the image, so that two sets'
    images never take each other's place there (``problem-001.png`` of every set would) and the same image
    is the same file."""
    data = image.encode("utf-8") if isinstance(image, str) else image
    return f"gammon-{hashlib.sha256(data).hexdigest()[:24]}.{fmt}"


def anki_csv(ps: Sequence[Problem], fmt: str = "png", tags: str = "backgammon",
             images: Sequence[tuple[str, str]] | None = None) -> str:
    """A CSV that Anki imports as Basic notes (its file headers say the separator, that fields hold HTML
    and which column holds tags): front, the problem image and its question; back, the solution image and
    the answer.  ``images``: each problem's (problem, solution) image names, by default
    :func:`file_names`' (:func:`write_problem_set` gives :func:`anki_name`'s).  Anki shows an image only
    once it is in its media folder (``collection.media``): copy them there."""
    out = io.StringIO()
    out.write("#separator:Comma\n#html:true\n#columns:Front,Back,Tags\n#tags column:3\n")
    w = csv.writer(out, lineterminator="\n")
    for k, p in enumerate(ps):
        f = file_names(p, fmt)
        problem, solution = images[k] if images is not None else (f["problem"], f["solution"])
        front = f'<img src="{escape(problem)}"><br>{escape(p.caption)}'
        back = f'<img src="{escape(solution)}"><br>{escape(p.answer)}'
        if p.comment:  # its lines as HTML lines (a line break in a field's HTML is a space)
            back += "<br>" + "<br>".join(escape(line) for line in p.comment.splitlines())
        w.writerow([front, back, f"{tags} {p.kind}"])
    return out.getvalue()


INDEX_LINES = 36
"""Lines of the index on one PDF page (an entry's lines are kept together)."""


def _index_drawings(ps: Sequence[Problem], width: int, dpi: int) -> list[Drawing]:
    """The PDF's index pages: a title, then an entry for each problem (wrapped; its record's file name
    where the set has several), as tall as A4 is for its width; an entry that does not fit on a page
    starts the next."""
    height = round(width * 297 / 210)
    u = width / 16.5
    several = len({p.source for p in ps}) > 1
    entries = [text_lines(f"{p.number}. " + (f"{PurePath(p.source).name}, " if several else "")
                          + f"{p.where}, {p.player_name}: {p.caption}"
                          + ("" if p.error is None else f" ({p.error:.3f})"), u, width) for p in ps]
    chunks: list[list[str]] = [[]]
    for lines in entries:
        if chunks[-1] and len(chunks[-1]) + len(lines) > INDEX_LINES:
            chunks.append([])
        chunks[-1].extend(lines)
    pages: list[Drawing] = []
    for k, chunk in enumerate(chunks):
        head = WORDS["index_title"] + (f" ({k + 1}/{len(chunks)})" if len(chunks) > 1 else "")
        items = text_items([head], u, width, 0.6 * u, bold=True)
        items += text_items(chunk, u, width, 1.4 * u, left=True, line_height=(height - 2.2 * u) / INDEX_LINES)
        pages.append(Drawing(width, height, (255, 255, 255), Group(0.0, 0.0, tuple(items)), head, "",
                             supersample=2, dpi=dpi, grey=True))
    return pages


PDF_CHUNK = 16
"""Pages drawn and written to the PDF at a time (each later group appended to it), so that a set of any
size needs the memory of this many pages, not of all."""


def pdf(ps: Sequence[Problem], dpi: int = 300, title: str | None = None, **options: Any) -> bytes:
    """One print-ready PDF: the index, then each problem, then each solution, a page each, every diagram
    at the print size (120 mm wide) at ``dpi``; the same bytes for the same input (no dates).  A large
    set is better written to a file (:func:`write_pdf`)."""
    out = io.BytesIO()
    write_pdf(ps, out, dpi, title, **options)
    return out.getvalue()


def write_pdf(ps: Sequence[Problem], out: IO[bytes], dpi: int = 300, title: str | None = None,
              **options: Any) -> None:
    """:func:`pdf` written to ``out`` (empty, open for reading and writing: each group of pages after the
    first is appended to what is there, which Pillow reads back, from a file mapped rather than in memory)."""
    from collections.abc import Callable

    opts = {"size": "print", "dpi": dpi, **options}
    width = layout(Position(), **opts).width
    makers: list[Callable[[], Image.Image]] = [
        lambda d=d: _page(raster.image(d)) for d in _index_drawings(ps, width, dpi)]  # type: ignore[misc]
    makers += [lambda p=p: _page(raster.image(p.problem_drawing(**opts))) for p in ps]  # type: ignore[misc]
    makers += [lambda p=p: _page(raster.image(p.solution_drawing(**opts))) for p in ps]  # type: ignore[misc]
    for start in range(0, len(makers), PDF_CHUNK):
        pages = [make() for make in makers[start:start + PDF_CHUNK]]
        pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], append=start > 0,
                      resolution=float(dpi), quality=95, title=title or WORDS["index_title"], creationDate=None,
                      modDate=None, producer=None)
        del pages
    out.flush()


def _page(im: Image.Image) -> Image.Image:
    return im if im.mode in ("L", "RGB") else im.convert("RGB")


def write_problem_set(ps: Sequence[Problem], directory: str | Path, *, fmt: str = "png", pdf_path: str | None = None,
                      dpi: int = 300, anki_path: str | None = None, force: bool = False,
                      inputs: Iterable[str] = (), options: dict[str, Any] | None = None) -> list[Path]:
    """Write the set into ``directory``: ``problem-NNN`` and ``solution-NNN`` diagrams, ``index.html``,
    ``problems.json``; with ``pdf_path`` the PDF, with ``anki_path`` the Anki CSV and beside it the images
    it names (:func:`anki_name`: ``gammon-`` and a digest; one that is there already with the same bytes is
    left as it is).  Each file through a temporary file and a rename; existing files refused unless
    ``force``, inputs always.  Returns the files written."""
    from notation.convert import OutputBatch, check_target, open_pending

    opts = dict(options or {})
    out = Path(directory)
    ins = tuple(inputs)
    targets = [out / name for p in ps for name in file_names(p, fmt).values()]
    targets += [out / "index.html", out / "problems.json"]
    if anki_path is not None:
        targets.append(Path(anki_path))
    if pdf_path is not None:
        targets.append(Path(pdf_path))
    for target in targets:  # refused before anything is drawn
        check_target(target, force=force, inputs=ins)
    files: list[tuple[Path, bytes | str]] = []
    for p in ps:
        names = file_names(p, fmt)
        if fmt == "svg":
            files.append((out / names["problem"], str(p.problem_svg(**opts))))
            files.append((out / names["solution"], str(p.solution_svg(**opts))))
        else:
            files.append((out / names["problem"], p.problem_png(**opts)))
            files.append((out / names["solution"], p.solution_png(**opts)))
    images = list(files)
    media: dict[Path, bytes | str] = {}  # Anki's images: named by their bytes, rewritten only when they differ
    files.append((out / "index.html", index_page(ps, fmt)))
    files.append((out / "problems.json", problems_json(ps, fmt)))
    if anki_path is not None:
        target = Path(anki_path)
        named = [anki_name(data, fmt) for _, data in images]
        files.append((target, anki_csv(ps, fmt, images=list(zip(named[::2], named[1::2], strict=True)))))
        for name, (_, data) in zip(named, images, strict=True):
            path = target.parent / name
            check_target(path, force=True, inputs=ins)
            raw = data.encode("utf-8") if isinstance(data, str) else data
            if path not in media and not (path.is_file() and path.stat().st_size == len(raw)
                                          and path.read_bytes() == raw):
                media[path] = data
                files.append((path, data))
    with OutputBatch() as batch:
        for path, data in files:
            batch.add(path, data, force=force or path in media, inputs=ins)
        if pdf_path is not None:  # written into its temporary file as it is made
            pending = open_pending(pdf_path, force=force, inputs=ins, listings=batch.listings())
            try:
                with open(pending.tmp, "r+b") as fp:
                    write_pdf(ps, fp, dpi, **opts)
            except BaseException:
                pending.abandon()
                raise
            batch.adopt(pending, force=force)
            files.append((Path(pdf_path), b""))
        batch.finish()
    return [path for path, _ in files]
