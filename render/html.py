"""A match as one self-contained web page, and a batch validation report.

:func:`match_page` writes one HTML file that opens offline (no network, no other file): a header
(players, event, match length, result), the list of games, the move list beside the board, the
replay's findings inline and as a caption on the board, and the producer's analysis where the record
holds one.  The board is the SVG backend's output of the same display list as ``gammon render``
(:func:`render.layout.layout`), so a page position and a ``render`` diagram of the same step look
alike.

Size: the page holds one board, drawn by a small script from compact data (:class:`_Boards`): the empty
board and the glyph outlines once, each unit on the board (a stack, an arrow, the dice, a line of text)
once as a shape and the coordinates that place it, and each position as the list of its units.  A
17-point match of 743 positions is about 370 KB (1.6 MB when each position's SVG was stored).  Every
text from the record is
escaped: in HTML with :func:`html.escape`; the data block is JSON with ``<``, ``>`` and ``&`` written as
``\\u`` escapes; names on the board are drawn as glyph outlines, never as SVG text.

Rows carry their fragment in ``data-a`` (not ``id``: the browser would scroll the window to it).
The board container (``#board``) carries the XGID of the position shown in ``data-xgid``.  Deep links:
``page.html#g3m14`` opens game 3 at move 14, numbered as ``gammon validate`` numbers them (the record's
move numbers; ``#g3m14-2`` is the next action of move 14); ``#g3s5`` is the 5th action of game 3,
``#g3end`` its final position, ``#L98:38`` the action at line 98, column 38 of the source (a place
``gammon validate`` printed).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from notation.analysis import Probabilities, Rollout
from notation.errors import InvalidPositionError
from notation.ids import xgid
from notation.losses import action_items
from notation.record import Action, Match, action_phrase
from notation.replay import Finding, MatchReplay, ReplayStep, replay_match

from ._font import default_font
from .captions import play_words, player_name
from .display import Glyphs, Group
from .layout import layout
from .vector import _glyph_id, _Writer

__all__ = ["match_page", "batch_page", "step_anchor", "notebook_page"]

BOARD_OPTIONS: dict[str, Any] = {"size": "medium", "bottom": 0, "names": True, "pips": True, "score": True,
                                 "on_roll": True}
"""How the page draws each position (white, player 0, always at the bottom: the board never flips; the
side on roll marked before a cube action, where no dice say it)."""


def _e(s: object) -> str:
    return escape(str(s), quote=True)


def _json(obj: object) -> str:
    """JSON safe inside a ``<script>`` element."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return s.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _xgid(position: Any) -> str:
    """The XGID, or "" where an XGID cannot say the position (Acey-Deucey checkers waiting to enter)."""
    try:
        return xgid(position)
    except ValueError:
        return ""


def _action_text(step: ReplayStep, names: Sequence[str]) -> str:
    a = step.action
    who = player_name(names, a.player)
    if a.kind == "move":
        roll = f"{a.dice[0]}{a.dice[1]}" if a.dice else ""
        what = play_words(step)
        return f"{who} {roll}: {a.play or '?' if what is None else what}"
    return f"{who} {action_phrase(a)}"


def _add_board(boards: _Boards, position: Any, options: dict[str, Any]) -> tuple[int, str, str]:
    """:meth:`_Boards.add`, and what the page says under the board beside the action: a position that
    cannot exist (the replay's finding says why) is the empty board, saying so, and the rest of the page
    is drawn as usual."""
    try:
        return (*boards.add(position, options), "")
    except InvalidPositionError:
        empty = (0,) * 26
        blank = position.replace(boards=(empty, empty), dice=None, turn=0, cube=1, double_offered=False)
        return (*boards.add(blank, BOARD_OPTIONS, empty_only=True), " (a position that cannot exist: not drawn)")


def _board_options(step: ReplayStep | None) -> dict[str, Any]:
    opts = dict(BOARD_OPTIONS)
    if step is not None:
        a = step.action
        if a.kind == "move" and step.play is not None and step.play.steps:
            opts["arrows"] = [tuple(s) for s in step.play.steps]
            if a.dice:
                opts["dice"] = a.dice
    return opts


class _Boards:
    """Each position's display list, stored compactly.  The empty board is stored once.  Every unit on it
    (a top-level item of the board's group: a stack, the dice, an arrow, a line of text; see
    :func:`render.display.close_group`) is the SVG backend's text for it, stored once however many
    positions show it, and a position is the list of its units' numbers.  A unit's SVG is cut into a
    *shape* (what it looks like, with placeholders ``$0``, ``$1`` ... for its coordinates), stored once,
    and the coordinates that place it (:func:`_shape`); a line of text is the list of its characters'
    units.  The page's script puts the coordinates back into the shape: the SVG it shows is the SVG
    backend's, element for element."""

    def __init__(self) -> None:
        self.table: dict[str, int] = {}
        """Units by first use: ``shape:coordinates`` or ``*`` and the numbers of the units it joins."""
        self.shapes: dict[str, int] = {}
        self.statics: dict[str, int] = {}
        self.glyphs: dict[str, None] = {}
        self.size = (0, 0)
        self.background = "none"
        self._units: dict[Any, int] = {}
        """A unit (a display-list item, hashable) -> its number in ``table``."""
        self._known: dict[int, tuple[Any, int]] = {}
        """The same, by the unit's ``id`` (with the unit, which keeps the id its own): the layout gives
        the units it reuses as the same objects (:class:`render.layout._Parts`), found here without
        hashing them."""
        self._empty: dict[tuple[Any, ...], int] = {}
        """An empty board's items -> its number in ``statics``."""
        self._last_empty: tuple[tuple[Any, ...], int] = ((), -1)
        self._entries: dict[str, str] = {}
        """SVG text -> its table entry (:meth:`_entry`): a character of a line of text at one place recurs."""

    def add(self, position: Any, options: dict[str, Any], empty_only: bool = False) -> tuple[int, str]:
        """The position's empty board's number and its units' numbers (:func:`_toks`; none with
        ``empty_only``)."""
        d = layout(position, **options)
        self.size = (d.width, d.height)
        if d.background is not None:
            self.background = "#{:02x}{:02x}{:02x}".format(*d.background)
        root = d.root
        if root.dx or root.dy:  # pragma: no cover - one board is never shifted
            raise ValueError("a page board is one board")
        empty = root.items[:root.static]
        last, known = self._last_empty
        # the same items, the same objects: no item compared nor hashed
        s = known if empty == last else self._empty.get(empty)
        if s is None:
            s = self._empty[empty] = self.statics.setdefault("".join(self._svg(it) for it in empty), len(self.statics))
        self._last_empty = (empty, s)
        units = () if empty_only else root.items[root.static:]
        return s, _toks(self._unit(it) for it in units)

    def _svg(self, it: Any) -> str:
        return "".join(self._lines(it))

    def _lines(self, it: Any) -> list[str]:
        w = _Writer()
        w.group(it, "") if isinstance(it, Group) else w.item(it, "")
        self.glyphs.update(w.used)
        return [x.strip().replace("xlink:href=", "href=") for x in w.out]

    def _unit(self, it: Any) -> int:
        known = self._known.get(id(it))
        if known is not None and known[0] is it:
            return known[1]
        k = self._units.get(it)
        if k is None:
            if isinstance(it, Glyphs):  # a line of text: its characters' units (a digit in one place: one unit)
                entry = "*" + _toks(self._add(self._entry(x)) for x in self._lines(it))
            elif isinstance(it, Group):
                entry = self._group(it)
            else:
                entry = self._entry(self._svg(it))
            k = self._units[it] = self._add(entry)
        self._known[id(it)] = (it, k)
        return k

    def _group(self, g: Group) -> str:
        """A group whose items repeat one another's coordinates (a checker's rim and ring, an arrow's halo
        and shaft: drawn twice, placed once) is one shape; any other group (a stack, the dice, the
        tray) is the list of its items' units, each stored once."""
        svgs = [self._svg(it) for it in g.items]  # a group is never shifted: its SVG is its items'
        shape, coords, placed = _shapes(svgs)
        if len({c for c in placed if c}) < len([c for c in placed if c]):
            return self._shaped(shape, coords)
        return "*" + _toks(self._unit(it) for it in g.items)

    def _add(self, entry: str) -> int:
        return self.table.setdefault(entry, len(self.table))

    def _entry(self, svg: str) -> str:
        """A table entry: the shape's number and the coordinates."""
        entry = self._entries.get(svg)
        if entry is None:
            entry = self._entries[svg] = self._shaped(*_shape(svg))
        return entry

    def _shaped(self, shape: str, coords: str) -> str:
        return f"{_b36(self.shapes.setdefault(shape, len(self.shapes)))}:{coords}"


_PLACED = re.compile(r' (?:(cx|cy|x|y)="([^"]*)"|(d|points)="([^"]*)"|transform="matrix\(([^ ]+ [^ ]+ [^ ]+ [^ ]+) '
                     r'([^ ]+) ([^ )]+)\)")')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_B64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_ORIGIN = 64 ** 3 // 2
"""A coordinate is stored as hundredths of a pixel plus this, in three digits of :data:`_B64`: -1310.72 to
1310.71 (a page board is 600 pixels wide)."""


def _shape(svg: str) -> tuple[str, str]:
    """SVG text cut into its shape and its coordinates: each coordinate (``x``, ``y``, ``cx``, ``cy``, the
    numbers of ``d`` and ``points``, a glyph's place in its ``matrix``) replaced by ``$k``, equal values
    sharing one ``k`` (an arrow's halo and its shaft share theirs); the coordinates in three characters
    each, read back by the page's script as the number the SVG backend wrote."""
    shape, coords, _each = _shapes([svg])
    return shape, coords


def _shapes(svgs: Sequence[str]) -> tuple[str, str, list[str]]:
    """:func:`_shape` of the SVG texts joined, and the coordinates :func:`_shape` gives each text alone:
    one pass over the text for both."""
    coords: list[str] = []
    slot: dict[str, tuple[str, str]] = {}
    own: list[str] = []
    own_slot: set[str] = set()
    each: list[str] = []

    def place(v: str) -> str:
        known = slot.get(v)
        if known is None:
            code = _CODES.get(v)
            if code is None:
                code = _code(v)
            known = slot[v] = f"${len(coords)}", code
            coords.append(code)
        if v not in own_slot:
            own_slot.add(v)
            own.append(known[1])
        return known[0]

    def sub(m: re.Match[str]) -> str:
        if m.group(1):
            return f' {m.group(1)}="{place(m.group(2))}"'
        if m.group(3):
            return f' {m.group(3)}="{_NUMBER.sub(lambda n: place(n.group()), m.group(4))}"'
        return f' transform="matrix({m.group(5)} {place(m.group(6))} {place(m.group(7))})"'

    shapes = []
    for svg in svgs:
        shapes.append(_PLACED.sub(sub, svg))
        each.append("".join(own))
        own.clear()
        own_slot.clear()
    return "".join(shapes), "".join(coords), each


_CODES: dict[str, str] = {}
"""A coordinate's three characters (:func:`_code`), by its text: most recur from one board to the next."""


def _code(v: str) -> str:
    """A coordinate (the SVG backend's text for it) in three characters of :data:`_B64` (remembered in
    :data:`_CODES`); an error if the page's script would not read it back as the same text."""
    h = round(float(v) * 100) + _ORIGIN
    if not 0 <= h < 64 ** 3 or _num(h) != v:
        raise ValueError(f"coordinate {v} does not fit a page board")
    code = _B64[h >> 12] + _B64[(h >> 6) & 63] + _B64[h & 63]
    if len(_CODES) >= 65536:
        _CODES.clear()
    _CODES[v] = code
    return code


def _num(h: int) -> str:
    """A stored coordinate as the page's script writes it (JavaScript's ``String(v / 100)``), which is
    the SVG backend's writing of the number (shortest form, at most two decimals)."""
    v = h - _ORIGIN
    if v % 100 == 0:
        return str(v // 100)
    return repr(v / 100)


def _b36(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _B36[r] + out
        if not n:
            return out


def step_anchor(game: int, action: Action, index: int, seen: set[str]) -> str:
    """The fragment of a step: ``g{game}m{move}`` for the first action of a numbered move (the record's
    number, as ``gammon validate`` prints it), ``g{game}m{move}-2`` ... for the next actions of that move
    (the other side's play, a cube action), ``g{game}s{index}`` for an unnumbered action (index from 1
    within the game)."""
    if action.move_number is not None:
        a = f"g{game}m{action.move_number}"
        k = 1
        while (f"{a}-{k}" if k > 1 else a) in seen:
            k += 1
        a = f"{a}-{k}" if k > 1 else a
        seen.add(a)
        return a
    return f"g{game}s{index}"


def _finding_step(f: Finding, index: dict[int, list[tuple[int, int, int]]],
                  game_first: dict[int, int]) -> int | None:
    """The page step a finding is about: the action at its line (and column), else its game's start."""
    if f.game is None:
        return None
    if f.line is not None:
        best = None
        for line, col, i in index.get(f.game, []):
            if line == f.line and (f.column is None or col <= f.column):
                best = i
        if best is not None:
            return best
    return game_first.get(f.game)


def _legal(plays: Sequence[str], shown: int = 5) -> str:
    """The legal plays of a finding: all of them, or the first ``shown`` with how many there are."""
    if not plays:
        return ""
    if len(plays) <= shown + 1:
        return f" (legal: {', '.join(plays)})"
    return f" ({shown} of {len(plays)} legal plays: {', '.join(plays[:shown])}, ...)"


def _fmt_eq(v: float | None) -> str:
    return "" if v is None else f"{v:+.3f}"


def _rollout_text(r: Rollout) -> str:
    """A rollout in a few words: ``rollout 1296 games ±0.012, truncated at 7 plies, XG Roller+``."""
    bits = []
    if r.trials is not None:
        bits.append(f"{r.trials} games" + (f" ±{r.error:.3f}" if r.error is not None else ""))
    if r.double_trials is not None:
        bits.append(f"double/take line {r.double_trials} games"
                    + (f" ±{r.double_error:.3f}" if r.double_error is not None else ""))
    if r.truncation is not None:
        bits.append(f"truncated at {r.truncation} plies")
    if r.checker_level:
        bits.append(f"checker play {r.checker_level}" + (f", cube {r.cube_level}" if r.cube_level else ""))
    bits += [f"{k} {v}" for k, v in r.settings]
    return "rollout: " + ", ".join(bits)


def _analysis_html(step: ReplayStep) -> str:
    a = step.action.analysis
    if a is None or a.is_empty():
        return ""
    out: list[str] = []
    by = f" ({_e(a.producer)})" if a.producer else ""
    if a.checker is not None and a.checker.candidates:
        played = a.checker.played
        if played is None and step.play is not None:
            made = step.play.notation()
            for k, c in enumerate(a.checker.candidates):
                if c.play == made:
                    played = k
        out.append(f"<div class=scroll><table class=cand><caption>Candidates{by}</caption><thead><tr><th>#</th>"
                   "<th>Play</th><th>Equity</th><th>Diff</th><th>Win %</th><th>Gammon %</th><th>Level</th></tr>"
                   "</thead><tbody>")
        best = a.checker.candidates[0].equity
        for k, c in enumerate(a.checker.candidates):
            diff = "" if (k == 0 or c.equity is None or best is None) else f"{c.equity - best:+.3f}"
            p = c.probabilities
            win = f"{100 * p.win:.1f}" if p else ""
            gam = f"{100 * p.win_gammon:.1f}" if p else ""
            cls = " class=played" if k == played else ""
            out.append(f"<tr{cls}><td>{k + 1}</td><td>{_e(c.play or 'no move')}</td><td>{_fmt_eq(c.equity)}</td>"
                       f"<td>{diff}</td><td>{win}</td><td>{gam}</td><td>{_e(c.level or '')}</td></tr>")
            if c.rollout is not None:
                out.append(f"<tr class=ro><td></td><td colspan=6>{_e(_rollout_text(c.rollout))}</td></tr>")
        out.append("</tbody></table></div>")
    if a.cube is not None:
        cube = a.cube
        rows = [("No double", cube.no_double), ("Double, take", cube.double_take), ("Double, pass", cube.double_pass)]
        out.append(f"<div class=scroll><table class=cube><caption>Cube{by}</caption><tbody>")
        for label, v in rows:
            if v is not None:
                out.append(f"<tr><td>{label}</td><td>{_fmt_eq(v)}</td></tr>")
        if cube.verdict:
            out.append(f"<tr><td>Verdict</td><td>{_e(cube.verdict)}</td></tr>")
        double = cube.double_probabilities, cube.double_cubeless_equity
        if double == (cube.probabilities, cube.cubeless_equity):  # the producer's two lines are one evaluation
            lines = [("No double, double/take", cube.probabilities, cube.cubeless_equity)]
        else:
            lines = [("No double", cube.probabilities, cube.cubeless_equity)]
            if double != (None, None):
                lines.append(("Double/take", *double))
        for label, p, cubeless in lines:
            if p is not None:
                out.append(f"<tr><td>{label}: win (gammon, backgammon) / loss, %</td><td>{_chances(p)}</td></tr>")
            if cubeless is not None:
                out.append(f"<tr><td>{label}: cubeless equity</td><td>{_fmt_eq(cubeless)}</td></tr>")
        if cube.level:
            out.append(f"<tr><td>Level</td><td>{_e(cube.level)}</td></tr>")
        if cube.rollout is not None:
            out.append(f"<tr class=ro><td colspan=2>{_e(_rollout_text(cube.rollout))}</td></tr>")
        out.append("</tbody></table></div>")
    if a.luck is not None or a.luck_rating:
        luck = " ".join(x for x in (_fmt_eq(a.luck), _e(a.luck_rating or "")) if x)
        out.append(f"<p class=luck>Luck: {luck}</p>")
    for name, value in a.extra.items():
        out.append(f"<p class=extra>{_e(name)}: {_e(value)}</p>")
    return "".join(out)


def _chances(p: Probabilities) -> str:
    """A player's chances as the cube table shows them: ``53.5 (15.0, 0.7) / 46.5 (11.4, 0.5)``, the player
    who may double first."""
    return (f"{100 * p.win:.1f} ({100 * p.win_gammon:.1f}, {100 * p.win_backgammon:.1f}) / "
            f"{100 * p.lose:.1f} ({100 * p.lose_gammon:.1f}, {100 * p.lose_backgammon:.1f})")


def _result_text(rep: MatchReplay, names: Sequence[str]) -> str:
    pts = [0, 0]
    for g in rep.games:
        if g.winner is not None and g.points:
            pts[g.winner] += g.points
    start = rep.games[0].game.score if rep.games and rep.games[0].game.score else (0, 0)
    total = (start[0] + pts[0], start[1] + pts[1])
    length = rep.match.length
    text = f"{player_name(names, 0)} {total[0]} – {player_name(names, 1)} {total[1]}"
    if length and max(total) >= length:
        text += f"; {player_name(names, 0 if total[0] >= length else 1)} wins the match"
    return text


def match_page(match: Match, rep: MatchReplay | None = None, *, title: str | None = None,
               written: Counter[tuple[str, ...]] | None = None) -> str:
    """The whole match as one self-contained HTML page (a ``str``; write it as UTF-8).  ``written``,
    when given, gets what the page shows of what :func:`notation.losses.holdings` counts (the rest
    is reported as dropped by ``gammon convert``)."""
    if rep is None:
        rep = replay_match(match)
    shown: Counter[tuple[str, ...]] = Counter() if written is None else written
    names = match.names
    boards = _Boards()
    steps: list[list[Any]] = []
    anchors: list[str] = []
    rows: list[str] = []
    games_nav: list[str] = []
    analyses: list[str] = []
    line_index: dict[int, list[tuple[int, int, int]]] = {}
    game_first: dict[int, int] = {}
    game_starts: list[int] = []
    seen: set[str] = set()
    row_of: dict[int, int] = {}
    anchor_of: dict[int, str] = {}
    for gi, g in enumerate(rep.games):
        gno = g.game.number
        gnames = g.game.names or names
        game_first.setdefault(gno, len(steps))
        game_starts.append(len(steps))
        score = g.game.score
        sc = f" ({score[0]}–{score[1]})" if score else ""
        games_nav.append(f'<li><a href="#g{gno}" data-i="{len(steps)}">Game {gno}{_e(sc)}</a></li>')
        gcom = "".join(f"<div class=comment>{_e(c)}</div>" for c in g.game.comments)
        shown["comment", "game"] += sum(1 for c in g.game.comments if c)
        rated = ", ".join(f"{gnames[side] or 'OX'[side]} rated {r}" for side, r in enumerate(g.game.ratings or ())
                          if r)
        rated = f" <span class=rated>({_e(rated)})</span>" if rated else ""
        rows.append(f'<tr class=gh><th colspan=3>Game {gno}{_e(sc)}{rated}{gcom}</th></tr>')
        for si, st in enumerate(g.steps, 1):
            i = len(steps)
            a = st.action
            if a.span is not None:
                line_index.setdefault(gno, []).append((a.span.line, a.span.column, i))
            s, toks, not_drawn = _add_board(boards, st.before, _board_options(st))
            anchor = step_anchor(gno, a, si, seen)
            anchors.append(anchor)
            anchor_of[id(a)] = anchor
            text = _action_text(st, gnames)
            loc = f"{a.span.line}:{a.span.column}" if a.span is not None else ""
            an = _analysis_html(st)
            if an:
                analyses.append(f'<div class=an data-i="{i}" hidden>{an}</div>')
            if an or a.comment:
                shown.update({k: n for k, n in action_items(a).items() if k[0] in ("analysis", "comment")})
            steps.append([gi, s, toks, _xgid(st.before), text + not_drawn, loc, 1 if an else 0])
            num = a.move_number if a.move_number is not None else ""
            comment = f'<div class=comment>{_e(a.comment)}</div>' if a.comment else ""
            row_of[i] = len(rows)
            rows.append(f'<tr data-a="{anchor}" data-i="{i}"><td class=n>{num}</td><td class=loc>{_e(loc)}</td>'
                        f'<td class=a>{_e(text)}{comment}<!--f{i}--></td></tr>')
        i = len(steps)
        s, toks, not_drawn = _add_board(boards, g.end, _board_options(None))
        anchor = f"g{gno}end"
        anchors.append(anchor)
        res = ""
        if g.winner is not None:
            res = f": {player_name(gnames, g.winner)} wins {g.points or ''} point{'s' if g.points != 1 else ''}"
        steps.append([gi, s, toks, _xgid(g.end), f"Game {gno}: final position{res}{not_drawn}", "", 0])
        row_of[i] = len(rows)
        rows.append(f'<tr data-a="{anchor}" data-i="{i}"><td class=n></td><td class=loc></td>'
                    f'<td class=a>Final position{_e(res)}<!--f{i}--></td></tr>')
    # findings
    fsteps: list[int] = []
    per_step: dict[int, list[str]] = {}
    caps: dict[int, list[list[str]]] = {}
    loose: list[str] = []
    for f in rep.findings:
        at = _finding_step(f, line_index, game_first)
        loc = ":".join(str(x) for x in (f.line, f.column) if x is not None)
        msg = f.message + _legal(f.legal)
        item = (f'<div class="finding {f.severity}" data-i="{"" if at is None else at}">'
                f'<span class=sev>{f.severity}</span> <span class=loc>{_e(loc)}</span> {_e(msg)}</div>')
        if at is None:
            loose.append(item)
            continue
        per_step.setdefault(at, []).append(item)
        caps.setdefault(at, []).append([f.severity, loc, msg])
        fsteps.append(at)
    for i, items in per_step.items():
        rows[row_of[i]] = rows[row_of[i]].replace(f"<!--f{i}-->", "".join(items), 1)
    body_rows = "\n".join(rows)
    glyphs = "".join(f'<path id="{_glyph_id(ch)}" d="{default_font().glyph(ch).svg_path()}"/>'
                     for ch in sorted(boards.glyphs))
    w, h = boards.size
    statics = sorted(boards.statics, key=boards.statics.__getitem__)
    table = sorted(boards.table, key=boards.table.__getitem__)
    shapes = sorted(boards.shapes, key=boards.shapes.__getitem__)
    data = {"steps": steps, "anchors": anchors, "games": game_starts, "findings": sorted(set(fsteps)),
            "captions": {str(k): v for k, v in caps.items()}, "shapes": shapes, "table": table, "statics": statics}
    event = ""
    for k, v in match.tags:
        if k.lower() in ("event", "tournament"):
            event = v
            break
    length = f"{match.length}-point match" if match.length else "Money session"
    header_bits = [length]
    if event:
        header_bits.insert(0, event)
    for k, v in match.tags:
        if k.lower() in ("site", "eventdate", "date", "round") and v:
            header_bits.append(f"{k} {v}")
        shown["tag", k] += 1
    shown["comment", "match"] += sum(1 for c in match.comments if c)
    tags = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in match.tags)
    players = f"{player_name(names, 0)} vs {player_name(names, 1)}"
    page_title = title if title is not None else f"{players}: {length}"
    nerr, nwarn = rep.errors, rep.warnings
    summary = (f"{len(rep.games)} games, {rep.plays} plays, {nerr} errors, {nwarn} warnings, "
               f"{rep.count('note')} notes")
    result = _result_text(rep, names) if rep.games else ""
    return "".join([
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>",
        '<meta name=viewport content="width=device-width, initial-scale=1">',
        _csp(_JS),
        f"<title>{_e(page_title)}</title><style>{_CSS}</style></head><body>",
        f"<header><h1>{_e(players)}</h1><p class=meta>{' · '.join(_e(b) for b in header_bits)}</p>",
        f"<p class=result>{_e(result)}</p><p class=summary>{_e(summary)}</p>",
        (f"<details><summary>Comments</summary>{''.join(f'<div class=comment>{_e(c)}</div>' for c in match.comments)}"
         "</details>" if match.comments else ""),
        (f"<details><summary>Header</summary><table class=tags>{tags}</table></details>" if tags else ""),
        _statistics_panel(rep, anchor_of),
        "</header>",
        f"<nav class=games aria-label=Games><ol>{''.join(games_nav)}</ol></nav>",
        "<main><section class=view>",
        f'<div id=board role=img aria-label="board" data-xgid="" data-step="">'
        f'<svg id=svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">'
        f'<defs>{glyphs}</defs><rect width="{w}" height="{h}" fill="{boards.background}"/>'
        '<g id=static></g><g id=dyn></g></svg></div>',
        "<div id=where></div><div id=caption aria-live=polite></div><div id=xgid class=loc></div>",
        '<div class=buttons><button id=prev title="previous (←)">◀</button>'
        '<button id=next title="next (→)">▶</button>'
        '<button id=pf title="previous finding (p)">◀ finding</button>'
        '<button id=nf title="next finding (n)">finding ▶</button></div>',
        f"<div id=analysis>{''.join(analyses)}</div>",
        (f"<div class=loose>{''.join(loose)}</div>" if loose else ""),
        "<p class=keys>Keys: ←/→ step, ↑/↓ game, Home/End, n/p next/previous finding.</p>",
        f"</section><section class=moves><table id=moves><tbody>{body_rows}</tbody></table></section></main>",
        f"<script type=application/json id=data>{_json(data)}</script>",
        f"<script>{_JS}</script></body></html>\n",
    ])


LARGEST_ERRORS = 10
"""How many of the largest errors the statistics panel lists."""


def _statistics_panel(rep: MatchReplay, anchor_of: dict[int, str]) -> str:
    """The page's statistics panel (:mod:`notation.statistics`): both players' PR with its interval and
    gnubg's figures, and the largest errors, each a link to its position; nothing for a record without
    analysis."""
    from notation.decisions import has_analysis

    if not has_analysis(rep.match):
        return ""
    from notation.statistics import statistics  # a record with analysis only (it imports random: 10 ms)

    st = statistics(rep)
    g, x = st.match.gnubg, st.match.xg

    def num(v: float | None, d: int) -> str:
        return "–" if v is None else f"{v:.{d}f}"

    def pr(f: Any) -> str:
        if f.pr is None:
            return "–"
        return f"{f.pr:.2f}" + ("" if f.pr_low is None else f" ({f.pr_low:.2f}–{f.pr_high:.2f})")

    lines = [("PR (95% interval)", pr(x[0]), pr(x[1])),
             ("Checker / cube PR", f"{num(x[0].checker_pr, 2)} / {num(x[0].cube_pr, 2)}",
              f"{num(x[1].checker_pr, 2)} / {num(x[1].cube_pr, 2)}"),
             ("Decisions", str(x[0].decisions), str(x[1].decisions)),
             ("gnubg error rate (mEMG)", num(g[0].error_rate, 1), num(g[1].error_rate, 1)),
             ("Snowie error rate", num(g[0].snowie_error_rate, 1), num(g[1].snowie_error_rate, 1)),
             ("gnubg rating", g[0].overall_rating or "–", g[1].overall_rating or "–"),
             ("Luck (EMG)", num(g[0].luck_emg, 3), num(g[1].luck_emg, 3))]
    body = "".join(f"<tr><th>{_e(a)}</th><td>{_e(b)}</td><td>{_e(c)}</td></tr>" for a, b, c in lines)
    head = f"<tr><th></th><th>{_e(st.players[0])}</th><th>{_e(st.players[1])}</th></tr>"
    worst = sorted((d for d in st.decisions if d.error and d.source is not None and id(d.source) in anchor_of),
                   key=lambda d: -(d.error or 0.0))[:LARGEST_ERRORS]
    items = []
    for d in worst:
        what = d.played or "(no move)" if d.kind == "checker" else d.action
        best = f"; best {d.best}" if d.best else ""
        items.append(f'<li><a href="#{anchor_of[id(d.source)]}">Game {d.game}, move {d.move}: '
                     f"{_e(st.players[d.player])} {_e(what)}</a> <span class=loc>−{d.error:.3f}{_e(best)}</span></li>")
    errors = f"<p>Largest errors</p><ol class=worst>{''.join(items)}</ol>" if items else ""
    notes = "".join(f"<p class=loc>{_e(m)}</p>" for m in st.messages)
    return (f"<details class=stats><summary>Statistics</summary><div class=scroll><table class=stats>"
            f"<thead>{head}</thead><tbody>{body}</tbody></table></div>{errors}{notes}</details>")


def notebook_page(obj: Match | MatchReplay, height: int = 720) -> str:
    """The match page (of a Match, or of a replay with its findings) for a notebook's output: inside an
    ``<iframe>`` of its own (``srcdoc``, scripts allowed and nothing else), so that its style, script and
    keys stay in it and several pages can sit in one notebook."""
    match, rep = (obj.match, obj) if isinstance(obj, MatchReplay) else (obj, None)
    names = match.names
    title = f"{player_name(names, 0)} vs {player_name(names, 1)}"
    return (f'<iframe srcdoc="{_e(match_page(match, rep))}" sandbox="allow-scripts" title="{_e(title)}" '
            f'style="width:100%;height:{height}px;border:1px solid #ccc"></iframe>')


def _csp(script: str) -> str:
    """A Content-Security-Policy that lets only the page's own script run (by its hash): no network, no
    other script, no inline event handler, even if something in a record escaped the escaping."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return ("<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'; "
            f"script-src 'sha256-{digest}'\">")


_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _toks(toks: Iterable[int]) -> str:
    """Element numbers as fixed-width base-36 digits (3 each: up to 46655 distinct elements)."""
    out = []
    for t in toks:
        if t >= 36 ** 3:
            raise ValueError("too many distinct board elements for one page")
        out.append(_B36[t // 1296] + _B36[t // 36 % 36] + _B36[t % 36])
    return "".join(out)


def batch_page(results: Sequence[dict[str, Any]], links: dict[str, str] | None = None,
               title: str = "Validation report") -> str:
    """One page for a batch: a sortable table of files (games, plays, errors, warnings, notes), each
    row linking to that file's match page (``links``: file -> relative URL) and listing its findings."""
    links = links or {}
    rows = []
    details = []
    tot = {"games": 0, "plays": 0, "errors": 0, "warnings": 0, "notes": 0}
    for k, r in enumerate(results):
        f = str(r["file"])
        for key in tot:
            tot[key] += int(r.get(key, 0))
        name = _e(f)
        if f in links:
            name = f'<a href="{_e(links[f])}">{name}</a>'
        status = "unreadable" if r.get("unreadable") else "errors" if r.get("errors") else (
            "warnings" if r.get("warnings") else "ok")
        rows.append(f'<tr class="{status}"><td>{name}</td><td>{int(r.get("games", 0))}</td>'
                    f'<td>{int(r.get("plays", 0))}</td><td>{int(r.get("errors", 0))}</td>'
                    f'<td>{int(r.get("warnings", 0))}</td><td>{int(r.get("notes", 0))}</td>'
                    f'<td><a href="#f{k}">{len(r.get("findings", []))}</a></td></tr>')
        if r.get("findings"):
            items = []
            for fd in r["findings"]:
                loc = ":".join(str(x) for x in (fd.get("line"), fd.get("column")) if x is not None)
                where = " ".join(x for x in (f"game {fd['game']}" if fd.get("game") is not None else "",
                                             f"move {fd['move']}" if fd.get("move") is not None else "") if x)
                link = ""
                if f in links and fd.get("line") is not None:
                    frag = f"L{fd['line']}" + (f":{fd['column']}" if fd.get("column") is not None else "")
                    link = f' <a href="{_e(links[f])}#{_e(frag)}">show</a>'
                elif f in links and fd.get("game") is not None:
                    frag = f"g{fd['game']}" + (f"m{fd['move']}" if fd.get("move") is not None else "")
                    link = f' <a href="{_e(links[f])}#{_e(frag)}">show</a>'
                items.append(f'<li class="finding {_e(fd["severity"])}"><span class=sev>{_e(fd["severity"])}</span>'
                             f' <span class=loc>{_e(loc)}</span> {_e(where + ": " if where else "")}'
                             f'{_e(fd["message"])}{link}</li>')
            details.append(f'<section id="f{k}"><h2>{_e(f)}</h2><ul>{"".join(items)}</ul></section>')
    return "".join([
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>",
        '<meta name=viewport content="width=device-width, initial-scale=1">',
        _csp(_SORT_JS),
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body class=report>",
        f"<header><h1>{_e(title)}</h1><p class=summary>{len(results)} files, {tot['games']} games, "
        f"{tot['plays']} plays, {tot['errors']} errors, {tot['warnings']} warnings, {tot['notes']} notes</p>"
        "</header><div class=scroll><table id=files class=sortable><thead><tr><th data-t=s>File</th><th>Games</th>"
        "<th>Plays</th><th>Errors</th><th>Warnings</th><th>Notes</th><th>Findings</th></tr></thead><tbody>",
        "".join(rows), "</tbody></table></div>", _players_section(results), "".join(details),
        f"<script>{_SORT_JS}</script></body></html>\n",
    ])


def _players_section(results: Sequence[dict[str, Any]]) -> str:
    """The report's players' table (:func:`notation.statistics.players_table`) over the analysed matches
    of the batch, best PR first; nothing when no match holds an analysis."""
    stats = [st for r in results for st in r.get("statistics") or ()]
    if not stats:
        return ""
    from notation.statistics import players_table

    def num(v: float | None, d: int) -> str:
        return "–" if v is None else f"{v:.{d}f}"

    rows = []
    for p in players_table(stats):
        x, g = p.xg, p.gnubg
        interval = "–" if x.pr_low is None or x.pr_high is None else f"{x.pr_low:.2f}–{x.pr_high:.2f}"
        rows.append(f"<tr><td>{_e(p.name)}</td><td>{p.matches}</td><td>{num(x.pr, 2)}</td><td>{interval}</td>"
                    f"<td>{num(x.checker_pr, 2)}</td><td>{num(x.cube_pr, 2)}</td><td>{x.decisions}</td>"
                    f"<td>{num(g.error_rate, 1)}</td><td>{num(g.snowie_error_rate, 1)}</td>"
                    f"<td>{_e(g.overall_rating or '–')}</td></tr>")
    return ("<section id=players><h2>Players</h2><p class=summary>Over the analysed matches: XG's PR (500 x "
            "error per decision, 95% interval) and gnubg's rates (docs/statistics.md).</p><div class=scroll>"
            "<table id=playerstable class=sortable><thead><tr><th data-t=s>Player</th><th>Matches</th><th>PR</th>"
            "<th data-t=s>95% interval</th><th>Checker PR</th><th>Cube PR</th><th>Decisions</th>"
            "<th>gnubg rate</th><th>Snowie rate</th><th data-t=s>Rating</th></tr></thead><tbody>"
            f"{''.join(rows)}</tbody></table></div></section>")


_CSS = """
:root{--bg:#fff;--fg:#111;--mut:#666;--line:#ddd;--hi:#ffe9a8;--err:#b00020;--warn:#9a5b00;--note:#2a5db0;
--card:#f6f6f4}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e8e8e8;--mut:#9aa;--line:#333;--hi:#4a3f12;
--err:#ff6b81;--warn:#f0b050;--note:#8fb4ff;--card:#202328}#board svg{filter:invert(.88) hue-rotate(180deg)}}
*{box-sizing:border-box}body{margin:0;font:15px/1.4 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{padding:.6em 1em;border-bottom:1px solid var(--line)}h1{font-size:1.3em;margin:0}
header p{margin:.15em 0;color:var(--mut)}header .result{color:var(--fg);font-weight:600}
nav.games ol{list-style:none;margin:0;padding:.4em 1em;display:flex;flex-wrap:wrap;gap:.3em}
nav.games a{display:block;padding:.15em .5em;border:1px solid var(--line);border-radius:4px;color:inherit;
text-decoration:none;font-size:.9em}nav.games a.cur{background:var(--hi)}
main{display:flex;gap:1em;padding:0 1em 1em;align-items:flex-start}
.view{flex:0 1 620px;position:sticky;top:0;min-width:0}
#board svg{width:100%;height:auto;display:block;max-width:620px}
#where{font-weight:600;margin:.3em 0}#xgid{user-select:all;margin:.2em 0}#caption .finding{margin:.2em 0}
.buttons button{font:inherit;padding:.2em .7em;margin:.2em .2em 0 0;background:var(--card);color:var(--fg);
border:1px solid var(--line);border-radius:4px;cursor:pointer}
.moves{flex:1 1 340px;max-height:calc(100vh - 2em);overflow:auto;position:sticky;top:0}
#moves{border-collapse:collapse;width:100%;font-size:.92em}#moves td{padding:.12em .4em;vertical-align:top;
border-bottom:1px solid var(--line);cursor:pointer}#moves tr.cur td{background:var(--hi)}
#moves tr.gh th{text-align:left;padding:.5em .4em .2em;background:var(--bg)}
#moves td.n{color:var(--mut);text-align:right;width:2.5em}#moves td.loc,.loc{color:var(--mut);
font-variant-numeric:tabular-nums;font-size:.85em}
.finding{font-size:.9em}.sev{font-weight:700;text-transform:uppercase;font-size:.75em;padding:0 .3em;
border-radius:3px;border:1px solid currentColor}.error{color:var(--err)}.warning{color:var(--warn)}
.note{color:var(--note)}.comment{color:var(--mut);font-style:italic;white-space:pre-wrap}
table.cand,table.cube{border-collapse:collapse;margin:.5em 0;font-size:.9em;font-variant-numeric:tabular-nums}
table.cand td,table.cand th,table.cube td{padding:.1em .5em;border-bottom:1px solid var(--line);text-align:right}
table.cand td:nth-child(2),table.cand th:nth-child(2){text-align:left}caption{text-align:left;font-weight:600}
table.cand tr.played td{background:var(--hi);font-weight:700}
tr.ro td{text-align:left!important;color:var(--mut);font-size:.85em;white-space:normal}
table.tags{display:block;overflow-x:auto;font-size:.85em}div.scroll{overflow-x:auto}table.stats{font-size:.85em;border-collapse:collapse}
table.stats th,table.stats td{text-align:left;padding:.1em .8em .1em 0;white-space:nowrap}
ol.worst{font-size:.85em;padding-left:1.6em;margin:.2em 0}table.tags th{text-align:left;padding-right:1em}
.keys{color:var(--mut);font-size:.8em}
body.report{padding:0 1em}#files{border-collapse:collapse;margin:1em 0}#files td,#files th{padding:.2em .6em;
border-bottom:1px solid var(--line);text-align:right}#files td:first-child,#files th:first-child{text-align:left}
#files th{cursor:pointer;user-select:none}#files th[data-dir=asc]::after{content:" ▲"}
#files th[data-dir=desc]::after{content:" ▼"}body.report header{padding-left:0;padding-right:0}
body.report h2{font-size:1.15em}
#files tr.errors td:nth-child(4),#files tr.unreadable td{color:var(--err)}
a{color:var(--note)}
.scroll{overflow-x:auto;max-width:100%}h1,h2,header p,#where,#xgid,.finding,.comment,.extra{overflow-wrap:anywhere}
@media (max-width:760px){nav.games ol{flex-wrap:nowrap;overflow-x:auto;padding:.4em .5em}
nav.games a{white-space:nowrap}main{flex-direction:column;padding:0 .5em}.view{position:static;flex:none;width:100%}
.moves{max-height:45vh;position:static;width:100%;flex:none}header{padding:.5em}.keys{display:none}
body.report{padding:0 .5em}}
@media (max-width:480px){body{font-size:14px}table.cand,table.cube{font-size:.82em}
table.cand td,table.cand th,table.cube td{padding:.1em .25em}#files{font-size:.85em}#files td,#files th{
padding:.2em .3em}#moves td{padding:.12em .25em}#moves td.n{width:2em}}
@media (max-width:560px){#files,#files thead,#files tbody{display:block}#files thead tr{display:flex;flex-wrap:wrap;
gap:.3em;margin-bottom:.3em}#files th{border:1px solid var(--line);border-radius:4px;padding:.1em .4em;
font-weight:400}#files tbody tr{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));padding:.3em 0;
border-bottom:1px solid var(--line)}#files td,#files td:first-child{border:0;text-align:left;padding:.05em .2em}
#files td:first-child{grid-column:1/-1;overflow-wrap:anywhere;font-weight:600}#files td:not(:first-child)::before{
color:var(--mut)}#files td:nth-child(2)::before{content:"games "}#files td:nth-child(3)::before{content:"plays "}
#files td:nth-child(4)::before{content:"errors "}#files td:nth-child(5)::before{content:"warnings "}
#files td:nth-child(6)::before{content:"notes "}#files td:nth-child(7)::before{content:"findings "}}
@media print{nav.games,.moves,.buttons,.keys,.loose{display:none}main{display:block}.view{position:static}
#board svg{filter:none!important;max-width:17cm}body{background:#fff;color:#000}
.view{break-inside:avoid;page-break-inside:avoid}header{break-after:avoid}}
"""

_JS = r"""(function(){
var D=JSON.parse(document.getElementById('data').textContent),S=D.steps,T=D.table,F=D.findings,U=[];
var SH=D.shapes.map(function(t){return t.split(/\$(\d+)/);});
var board=document.getElementById('board'),dyn=document.getElementById('dyn'),st=document.getElementById('static');
var rows=document.querySelectorAll('#moves tr[data-i]'),games=document.querySelectorAll('nav.games a');
var cur=-1,curStatic=-1,an=null;
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;
 if(text!=null)e.textContent=text;return e;}
var box=document.querySelector('.moves');
function into(r){var a=r.getBoundingClientRect(),b=box.getBoundingClientRect();
 var top=Math.max(b.top,0),bot=Math.min(b.bottom,window.innerHeight);
 if(a.top<top||a.bottom>bot)box.scrollTop+=a.top-top-Math.max(0,(bot-top)/3);}
var B={},B64='0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';for(var b=0;b<64;b++)B[B64[b]]=b;
function units(t){var h='';for(var k=0;k<t.length;k+=3)h+=unit(parseInt(t.substr(k,3),36));return h;}
function unit(n){var u=U[n];if(u!=null)return u;var e=T[n];if(e[0]==='*')return U[n]=units(e.slice(1));
 var c=e.indexOf(':'),sh=SH[parseInt(e.slice(0,c),36)];u=sh[0];
 for(var j=1;j<sh.length;j+=2){var k=c+1+3*sh[j];
  u+=String(((B[e[k]]*64+B[e[k+1]])*64+B[e[k+2]]-131072)/100)+sh[j+1];}return U[n]=u;}
function show(i,scroll){
 if(!(i>=0&&i<S.length))return;var s=S[i];
 if(s[1]!==curStatic){st.innerHTML=D.statics[s[1]];curStatic=s[1];}
 dyn.innerHTML=units(s[2]);
 board.setAttribute('data-xgid',s[3]);document.getElementById('xgid').textContent=s[3];board.setAttribute('aria-label',s[4]);board.setAttribute('data-step',String(i));
 if(cur>=0&&rows[cur])rows[cur].classList.remove('cur');cur=i;var r=rows[i];
 if(r){r.classList.add('cur');if(scroll!==false)into(r);}
 for(var g=0;g<games.length;g++)games[g].classList.toggle('cur',g===s[0]);
 var w=document.getElementById('where');w.textContent='';
 w.appendChild(el('span',null,s[4]));if(s[5])w.appendChild(el('span','loc',' ('+s[5]+')'));
 var c=document.getElementById('caption');c.textContent='';var cs=D.captions[String(i)]||[];
 for(var k2=0;k2<cs.length;k2++){var d=el('div','finding '+cs[k2][0]);d.appendChild(el('span','sev',cs[k2][0]));
  d.appendChild(document.createTextNode(' '));d.appendChild(el('span','loc',cs[k2][1]));
  d.appendChild(document.createTextNode(' '+cs[k2][2]));c.appendChild(d);}
 if(an)an.hidden=true;an=s[6]?document.querySelector('.an[data-i="'+i+'"]'):null;if(an)an.hidden=false;
 var a='#'+D.anchors[i];try{if(location.hash!==a)history.replaceState(null,'',a);}catch(x){}
}
function game(d){var g=S[cur][0]+d;if(g>=0&&g<D.games.length)show(D.games[g]);}
function finding(d){var i;if(d>0){for(i=0;i<F.length;i++)if(F[i]>cur)return show(F[i]);}
 else{for(i=F.length-1;i>=0;i--)if(F[i]<cur)return show(F[i]);}}
function fromHash(){var h=decodeURIComponent(location.hash.slice(1));if(!h)return 0;
 var k=D.anchors.indexOf(h);if(k>=0)return k;var L=h.match(/^L(\d+)(?::(\d+))?$/);
 if(L){var best=-1;for(var j=0;j<S.length;j++){var p=S[j][5].split(':');
  if(+p[0]===+L[1]&&(!L[2]||+p[1]<=+L[2])){best=j;if(!L[2])break;}}if(best>=0)return best;}
 var m=h.match(/^g(\d+)(?:m(\d+))?$/);if(!m)return 0;
 var g=+m[1];for(var i=0;i<S.length;i++){var a=D.anchors[i];
  if(m[2]?(a==='g'+g+'m'+m[2]):(a.indexOf('g'+g+'m')===0||a.indexOf('g'+g+'s')===0||a==='g'+g+'end'))return i;}
 if(m[2])for(i=0;i<S.length;i++)if(D.anchors[i].match(/^g(\d+)/)[1]===m[1])return i;
 return 0;}
document.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey)return;var k=e.key;
 if(k==='ArrowRight')show(cur+1);else if(k==='ArrowLeft')show(cur-1);else if(k==='ArrowDown')game(1);
 else if(k==='ArrowUp')game(-1);else if(k==='Home')show(0);else if(k==='End')show(S.length-1);
 else if(k==='n')finding(1);else if(k==='p')finding(-1);else return;e.preventDefault();});
document.getElementById('moves').addEventListener('click',function(e){var r=e.target.closest('[data-i]');
 if(r&&r.getAttribute('data-i')!=='')show(+r.getAttribute('data-i'),false);});
document.querySelector('nav.games').addEventListener('click',function(e){var a=e.target.closest('a');
 if(a){e.preventDefault();show(+a.getAttribute('data-i'));}});
document.getElementById('next').onclick=function(){show(cur+1);};document.getElementById('prev').onclick=function(){show(cur-1);};
document.getElementById('nf').onclick=function(){finding(1);};document.getElementById('pf').onclick=function(){finding(-1);};
window.addEventListener('hashchange',function(){var i=fromHash();if(i!==cur)show(i);});
show(fromHash());
})();"""

_SORT_JS = r"""document.querySelectorAll('table.sortable th').forEach(function(th,col){
 th.addEventListener('click',function(){var tb=th.closest('table').tBodies[0],rs=Array.prototype.slice.call(tb.rows);
  var asc=th.getAttribute('data-dir')!=='asc';
  th.parentNode.querySelectorAll('th').forEach(function(x){x.removeAttribute('data-dir');});
  th.setAttribute('data-dir',asc?'asc':'desc');var txt=th.getAttribute('data-t')==='s';
  rs.sort(function(a,b){var x=a.cells[col].textContent,y=b.cells[col].textContent;
   var c=txt?x.localeCompare(y):(+x)-(+y);return asc?c:-c;});rs.forEach(function(r){tb.appendChild(r);});});});"""
