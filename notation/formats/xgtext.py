"""The text that eXtreme Gammon and BGBlitz copy to the clipboard for a position: an ID, a board, the
names, and a ranked list of plays or a cube decision, in English, German, French or Japanese.

The position always comes from the ID (XG's ``XGID=`` line; BGBlitz's ``XGID=`` and its gnubg
``Position-ID``/``Match-ID``), never from the ASCII board: the board is language- and producer-dependent
decoration.  Where both IDs are given they must agree (BGBlitz writes the Match-ID's dice in the order
rolled, gnubg high die first: that difference alone is not a disagreement); a disagreement is reported
as a :class:`~notation.record.Normalisation` and the XGID wins.

The analysis is read by the shape of its lines, not by their words, so every language reads the same:

- XG checker play: ``1. XG Roller+  24/23 6/2  eq:-0,306 (-0.012)`` and two lines of percentages;
- XG cube decision: three ``label: +0.580`` lines after the cubeful header (no double, double/take,
  double/pass, in that order), the verdict on the next ``label: words`` line;
- BGBlitz checker play: ``1.  0.124 mwp /  -0.492  (-0.053)  19/18, 14/12`` and a line of chances;
- BGBlitz cube decision: ``Double / Take : 0.410 ( 0.000)  0.625 ( 0.000)`` rows (the second column is
  the EMG equity), and the ``Cube Action: ... : verdict`` line.
"""

from __future__ import annotations

import re

from ..analysis import Analysis, Candidate, CheckerAnalysis, CubeAnalysis, Probabilities
from ..errors import ParseError
from ..positionrecord import Normalisation, PositionRecord

__all__ = ["looks_like_export", "parse_export"]

_XGID = re.compile(r"XGID=[^\s]+")
_ids: tuple[re.Pattern[str], re.Pattern[str]] | None = None


def _id_lines() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """XG's ``Position-ID: <id>`` and ``Match-ID: <id>`` (the ID the first group), each ID as the rules
    ``position_id`` and ``match_id`` of ``grammars/ids_gnubg.lark`` say."""
    global _ids
    if _ids is None:
        from .._grammar import regexes

        t = regexes("ids_gnubg")
        _ids = (re.compile(rf"Position-ID:\s*({t['position_id']})"), re.compile(rf"Match-ID:\s*({t['match_id']})"))
    return _ids
_NUM = r"[+-]?[0-9]+(?:[.,][0-9]+)?"
_WORDS = r"\S(?:\s*+\S)*"
"""Words and the blanks between them, never ending in a blank: a run of blanks is taken at once (a lazy
``.*?`` before ``\\s+`` tries each blank of a run again: quadratic time in a long run)."""
_XG_CAND_HEAD = re.compile(r"\s*([0-9]+)\.\s")
_XG_EQ = re.compile(rf"\s[eé]q:\s*({_NUM})", re.I)
_XG_PCT = re.compile(rf"^[^:0-9][^:]*:\s*({_NUM})%\s*\(G:\s*({_NUM})%\s*B:\s*({_NUM})%\)")
_XG_CUBE_ROW = re.compile(rf"^\s+[^:\s][^:]*:\s+({_NUM})(?:\s+\(({_NUM})\))?\s*$")
_XG_LEVEL = re.compile(r"^\s*\S.*?\b(XG Roller\+*|[0-9]+-ply|Rollout|Book)\s*$", re.I)
_BB_CAND = re.compile(rf"^\s*([0-9]+)\.\s+({_NUM})\s+mwp\s*/\s*({_NUM})(?:\s+\(({_NUM})\))?\s+({_WORDS})\s*$")
_BB_CHANCES = re.compile(rf"^\s*({_NUM})\s+({_NUM})\s+({_NUM})\s+-\s+({_NUM})\s+({_NUM})\s+({_NUM})\s*$")
_BB_NAME = re.compile(r"\s([OX]):")
_BB_CUBE = re.compile(rf"^\s*(\S(?:\s*+\S)+?)\s*:\s*({_NUM})\s+\(\s*({_NUM})\)\s+({_NUM})\s+\(\s*({_NUM})\)\s*$")
_BB_VERDICT = re.compile(r"^[^:]+:\s*:\s*(\S(?:\s*+\S)*?)\s{2,}EMG\s*$")  # (no \s* before [^:]+: quadratic)
_BLANKS = re.compile(r"\s{2,}")


def _xg_candidate(line: str) -> tuple[str, str, str] | None:
    """(level, play, equity) of an XG candidate line (``1. XG Roller+   24/18 13/9   eq:+0.123``): the
    level and the play are separated by two blanks or more, the play ends before the first ``eq:``."""
    head = _XG_CAND_HEAD.match(line)
    if head is None:
        return None
    eq = _XG_EQ.search(line, head.end() - 1)
    if eq is None:
        return None
    parts = _BLANKS.split(line[head.end():eq.start()].strip(), maxsplit=1)
    if len(parts) < 2 or not parts[0] or not parts[1]:
        return None
    return parts[0], parts[1], eq.group(1)


def _xg_names(line: str) -> tuple[str, str] | None:
    """(X's name, O's name) of XG's ``X:name   O:name`` line: O's name after the first ``O:`` that two
    blanks or more come before."""
    s = line.strip()
    if not s.startswith("X:"):
        return None
    i = s.find("O:", 2)
    while i >= 0:
        if i >= 4 and s[i - 2:i].isspace():
            return s[2:i].strip(), s[i + 2:].strip()
        i = s.find("O:", i + 1)
    return None


def _bb_name(line: str) -> tuple[str, str] | None:
    """(``O`` or ``X``, the name) of a BGBlitz board line ``... X: Rot  111``: the name after the first
    ``X:`` or ``O:`` that a blank comes before, without the pip count after it."""
    body = line.rstrip()
    digits = len(body) - len(body.rstrip("0123456789"))
    head = body[:len(body) - digits]
    if not digits or not head[-1:].isspace():
        return None
    m = _BB_NAME.search(head)
    if m is None:
        return None
    return m.group(1), head[m.end():].strip()


_BOARD_FRAME = re.compile(r"\+(?:13-14-15|24-23-22|12-11-10|1--2--3)")


def looks_like_export(text: str) -> bool:
    """True for text holding an ``XGID=`` line or a BGBlitz ``Position-ID:`` and a drawn board (a list
    of IDs, one a line, is not an export)."""
    return bool((_XGID.search(text) or _id_lines()[0].search(text)) and _BOARD_FRAME.search(text))


def _f(s: str) -> float:
    return float(s.replace(",", "."))


def _percentages(mine: re.Match[str], theirs: re.Match[str]) -> Probabilities:
    """The chances of XG's two percentage lines (win, gammon, backgammon; then the loss's)."""
    return Probabilities(win=round(_f(mine.group(1)) / 100, 6), win_gammon=round(_f(mine.group(2)) / 100, 6),
                         win_backgammon=round(_f(mine.group(3)) / 100, 6),
                         lose_gammon=round(_f(theirs.group(2)) / 100, 6),
                         lose_backgammon=round(_f(theirs.group(3)) / 100, 6))


def _play(s: str) -> str:
    return " ".join(s.replace(",", " ").split())


def parse_export(text: str, *, name: str | None = None) -> PositionRecord:
    """An XG or BGBlitz text export as a :class:`PositionRecord` (position, names, analysis)."""
    from ..ids import parse_gnubg_id, parse_xgid

    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    notes: list[Normalisation] = []
    m = _XGID.search(text)
    bgblitz = bool(_id_lines()[0].search(text)) or " mwp " in text
    producer = "BGBlitz" if bgblitz else "eXtreme Gammon"
    pos = None
    if m:
        line_no = text.count("\n", 0, m.start()) + 1
        try:
            pos = parse_xgid(m.group())
        except ParseError as e:
            raise e.located(file=name, line=line_no) from None
    pid, mid = (p.search(text) for p in _id_lines())
    if pid:
        gnubg_text = pid.group(1) + (":" + mid.group(1) if mid else "")
        try:
            other = parse_gnubg_id(gnubg_text)
        except ParseError as e:
            notes.append(Normalisation(f"the Position-ID/Match-ID cannot be read ({e.message}); the XGID is used"))
            other = None
        if pos is None:
            pos = other
        elif other is not None:
            same = (other.boards == pos.boards and other.turn == pos.turn and other.cube == pos.cube
                    and other.cube_owner == pos.cube_owner and other.score == pos.score
                    and other.match_length == pos.match_length
                    and sorted(other.dice or ()) == sorted(pos.dice or ()))
            if not same:
                notes.append(Normalisation(f"the Position-ID/Match-ID {gnubg_text} says another position than the "
                                           "XGID; the XGID is used", text.count("\n", 0, pid.start()) + 1, None))
    if pos is None:
        raise ParseError("no XGID or Position-ID in this text export", file=name, line=1, column=1)
    names = _names(lines, bgblitz)
    if names is not None:
        pos = pos.replace(names=names)
    analysis = _bgblitz_analysis(lines) if bgblitz else _xg_analysis(lines)
    if analysis is not None:
        analysis.producer = producer
    fmt = "bgblitz-text" if bgblitz else "xg-text"
    return PositionRecord(position=pos, names=names, analysis=analysis, format=fmt, source=name,
                          normalisations=notes)


def _names(lines: list[str], bgblitz: bool) -> tuple[str, str] | None:
    """(player 0 = O, player 1 = X): XG's ``X:name   O:name`` line, BGBlitz's names beside the board
    (without the pip count printed after them)."""
    if not bgblitz:
        for ln in lines[:6]:
            xo = _xg_names(ln)
            if xo:
                return (xo[1], xo[0])
        return None
    found: dict[str, str] = {}
    for ln in lines[:20]:
        who = _bb_name(ln)
        if who and ("+" in ln or "|" in ln):
            found[who[0]] = who[1]
    if "O" in found and "X" in found:
        return (found["O"], found["X"])
    return None


def _xg_analysis(lines: list[str]) -> Analysis | None:
    cands: list[Candidate] = []
    i = 0
    while i < len(lines):
        m = _xg_candidate(lines[i])
        if not m:
            i += 1
            continue
        pcts = [_XG_PCT.match(x) for x in lines[i + 1:i + 3]]
        probs = None
        if len(pcts) == 2 and pcts[0] and pcts[1]:
            probs = _percentages(pcts[0], pcts[1])
        cands.append(Candidate(play=_play(m[1]), equity=_f(m[2]), probabilities=probs, level=m[0]))
        i += 3 if probs else 1
    if cands:
        return Analysis(checker=CheckerAnalysis(candidates=tuple(cands)))
    # a cube decision: three "label: +0.580" rows in a run, the verdict on the next "label: words" line
    for k in range(len(lines) - 2):
        rows = [_XG_CUBE_ROW.match(x) for x in lines[k:k + 3]]
        if all(rows):
            nd, dt, dp = (_f(r.group(1)) for r in rows if r)
            verdict = None
            level = None
            for x in lines[k + 3:k + 8]:  # the next line: "label: verdict", or (German) no colon at all
                if x.strip():
                    verdict = re.split(r"[:：]", x)[-1].strip() or None
                    break
            probs = None
            lines_found = [p for p in (_XG_PCT.match(x) for x in lines[:k]) if p]
            if len(lines_found) >= 2:
                probs = _percentages(lines_found[0], lines_found[1])
            for x in lines[:k]:
                lm = _XG_LEVEL.match(x)
                if lm:
                    level = lm.group(1)
            return Analysis(cube=CubeAnalysis(no_double=nd, double_take=dt, double_pass=dp, verdict=verdict,
                                              probabilities=probs, level=level))
    return None


def _bgblitz_analysis(lines: list[str]) -> Analysis | None:
    cands: list[Candidate] = []
    for i, ln in enumerate(lines):
        m = _BB_CAND.match(ln)
        if not m:
            continue
        probs = None
        if i + 1 < len(lines):
            c = _BB_CHANCES.match(lines[i + 1])
            if c:
                w, wg, wbg, _lose, lg, lbg = (_f(x) for x in c.groups())
                probs = Probabilities(win=w, win_gammon=wg, win_backgammon=wbg, lose_gammon=lg, lose_backgammon=lbg)
        cands.append(Candidate(play=_play(m.group(5)), equity=_f(m.group(3)), probabilities=probs))
    if cands:
        return Analysis(checker=CheckerAnalysis(candidates=tuple(cands)))
    rows: dict[str, float] = {}
    verdict = None
    for ln in lines:
        v = _BB_VERDICT.match(ln)
        if v and verdict is None:
            verdict = v.group(1).strip()
            continue
        m = _BB_CUBE.match(ln)
        if m:
            rows[m.group(1)] = _f(m.group(4))  # the EMG column
    if len(rows) != 3:
        return None
    nd = next((v for k, v in rows.items() if "/" not in k), None)
    slash = [v for k, v in rows.items() if "/" in k]
    if len(slash) != 2:
        return None
    # double/pass is +1.000 in EMG by definition; the other double row is double/take
    dp = 1.0 if 1.0 in slash else max(slash)
    take = slash[1] if slash[0] == dp else slash[0]
    return Analysis(cube=CubeAnalysis(no_double=nd, double_take=take, double_pass=dp, verdict=verdict))
