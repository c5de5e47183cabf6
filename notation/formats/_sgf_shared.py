"""What the SGF reader (:mod:`notation.formats.sgf`) and writer (:mod:`notation.formats.sgf_write`) share:
the root properties that are header tags, the variants' rule names, point letters, value escapes, the
board as gnubg's loader keeps it, gnubg's analysis properties (read and written) and the level of a
resignation result."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .._version import __version__
from ..analysis import Analysis, Candidate, CheckerAnalysis, CubeAnalysis, Probabilities
from ..errors import ParseError
from ..play import format_steps_plain, parse_play
from ..position import Position
from ..rules import Step, get_rules

SGF_TAGS: tuple[tuple[str, str], ...] = (
    ("DT", "EventDate"),
    ("EV", "Event"),
    ("RO", "Round"),
    ("PC", "Site"),
    ("AN", "Transcriber"),
)
"""Root properties that are header tags, in the order gnubg writes them, with their ``.mat`` names."""

VARIANT_RULES = {
    "Nackgammon": "nackgammon",
    "Hypergammon1": "hypergammon1",
    "Hypergammon2": "hypergammon2",
    "Hypergammon3": "hypergammon3",
}
SETUP_PROPS = ("AE", "AB", "AW", "PL", "CV", "CP", "CO", "DI")
COLOURS = "WB"


# --------------------------------------------------------------------------- coordinates


def white_point(ch: str) -> int:
    """``a``..``x`` → 1..24 (White's numbering), ``y`` → 25 (bar), ``z`` → 0 (off)."""
    if ch == "y":
        return 25
    if ch == "z":
        return 0
    return ord(ch) - ord("a") + 1


def own_point(ch: str, player: int) -> int:
    """A move letter in ``player``'s own numbering (25 = bar, 0 = off)."""
    p = white_point(ch)
    if player == 1 and 1 <= p <= 24:
        return 25 - p
    return p


def letter(p: int, player: int) -> str:
    """The letter of ``player``'s point ``p`` (own numbering)."""
    if p >= 25:
        return "y"
    if p <= 0:
        return "z"
    w = p if player == 0 else 25 - p
    return chr(ord("a") + w - 1)


LETTERS: tuple[dict[int, str], dict[int, str]] = ({p: letter(p, 0) for p in range(26)},
                                                   {p: letter(p, 1) for p in range(26)})
""":func:`letter` of every point 0..25, for each player."""


def escape(value: str) -> str:
    """An SGF ``Text``/``SimpleText`` value escaped: ``\\`` and ``]``."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


# --------------------------------------------------------------------------- board state


@dataclass(slots=True)
class BoardState:
    """The position as gnubg's loader keeps it: moves applied as written, no legality checks."""

    boards: list[list[int]]
    checkers: int
    turn: int = 0
    dice: tuple[int, int] | None = None
    cube: int = 1
    owner: int | None = None
    chain: list[int] = field(default_factory=list)
    """The players of the pending double, beaver, raccoon (empty when no double is pending)."""
    dropped: bool = False

    @classmethod
    def start(cls, variant: str, cube: int = 1) -> BoardState:
        rules = get_rules(variant)
        b = list(rules.start_board())
        return cls([list(b), list(b)], rules.checkers, cube=cube)

    def move(self, player: int, pairs: Iterable[tuple[int, int]]) -> list[Step]:
        mine, theirs = self.boards[player], self.boards[1 - player]
        steps: list[Step] = []
        for s, t in pairs:
            hit = False
            if 0 <= s <= 25:
                mine[s] -= 1
            if 1 <= t <= 24 and theirs[25 - t] == 1:
                theirs[25 - t] = 0
                theirs[25] += 1
                hit = True
            if 0 <= t <= 25:
                mine[t] += 1
            steps.append((s, t, hit))
        self.turn = 1 - player
        self.dice = None
        self.chain = []
        return steps

    def cube_action(self, kind: str, player: int) -> int | None:
        """Follow a cube action; returns the value for a double/beaver/raccoon."""
        if kind in ("double", "beaver", "raccoon"):
            self.chain.append(player)
            if len(self.chain) == 1:
                return self.cube * 2
            # A beaver (raccoon) takes and redoubles at once: the cube is doubled for the take and again.
            self.cube *= 4 if len(self.chain) == 2 else 2
            self.owner = player
            return self.cube
        if kind == "take":
            if len(self.chain) == 1:
                self.cube *= 2
                self.owner = player
            self.chain = []
        elif kind == "drop":
            self.chain = []
            self.dropped = True
        return None

    def fix_off(self) -> None:
        for b in self.boards:
            b[0] = max(0, self.checkers - sum(b[1:26]))

    def position(self, base: Position) -> Position:
        return base.replace(boards=(tuple(self.boards[0]), tuple(self.boards[1])), turn=self.turn,
                            dice=self.dice, cube=self.cube, cube_owner=self.owner)

    def same_board(self, pos: Position) -> bool:
        return (tuple(self.boards[0]), tuple(self.boards[1])) == pos.boards


# --------------------------------------------------------------------------- the producer (AP)

_FROM = ", from "


def producer_of(original: list[str] | None) -> str:
    """The ``AP`` value the writer writes: ours, and the program that wrote the original when the record
    names one (its ``AP``): ``gammon-notation:0.1.0, from GNU Backgammon:1.07.001``; :func:`original_producer`
    reads it back."""
    ours = f"gammon-notation:{__version__}"
    first = (original or [""])[0]
    return f"{ours}{_FROM}{first}" if first and first != ours else ours


def original_producer(value: str) -> str:
    """The program an ``AP`` value names as the original's (what :func:`producer_of` wrote after ``, from``),
    else the value itself."""
    head, sep, rest = value.partition(_FROM)
    return rest if sep and head.startswith("gammon-notation:") else value


# --------------------------------------------------------------------------- gnubg analysis


GNUBG = "GNU Backgammon"
"""The producer named in the analysis read from gnubg's ``A``, ``DA``, ``LU``, ``GB``, ``GW``."""
ANALYSIS_PROPS = frozenset({"A", "DA", "LU", "GB", "GW"})
_F = r"(-?[0-9]{1,9}\.[0-9]{1,12})"
_I = r"(-?[0-9]{1,9})"
_A_EVAL = re.compile(r"E ver 3 " + " ".join([_F] * 6) + rf" ([0-9]{{1,3}})(C?) {_I} {_I} {_F} {_I}")
"""A candidate's evaluation (gnubg 1.07, ``SGF_FORMAT_VER`` 3): win, win gammon, win backgammon, lose
gammon, lose backgammon, equity, then plies, ``C`` (cubeful), a former flag, deterministic, noise, prune."""
_DA_EVAL = re.compile(rf"E ver 3 ([0-9]{{1,3}})(C?) {_I} {_F} {_I} " + " ".join([_F] * 14))
"""A cube decision's evaluation: plies, ``C``, deterministic, noise, prune, then 7 outputs for no double
and 7 for double/take (5 chances, cubeless equity, cubeful equity: match winning chances in a match)."""
_LEVEL = re.compile(r"(Cubeful|Cubeless) ([0-9]+)-ply(?: noise (-?[0-9]+\.[0-9]+))?(?: deterministic (-?[0-9]+))?"
                    r"(?: prune (-?[0-9]+))?(?: flag (-?[0-9]+))?")
_LUCK = {"very unlucky": ("W", "2"), "unlucky": ("W", "1"), "lucky": ("B", "1"), "very lucky": ("B", "2")}
"""gnubg's luck words, with the ``G?`` property Black's roll gets (White's swaps ``B`` and ``W``)."""


def _level(plies: str, cubeful: str, det: str, noise: str, prune: str, flag: str = "0") -> str:
    """gnubg's words for an evaluation (``Cubeful 2-ply``), with what differs from its defaults."""
    out = f"{'Cubeful' if cubeful else 'Cubeless'} {int(plies)}-ply"
    if noise != "0.000000":
        out += f" noise {noise}"
    if det != "1":
        out += f" deterministic {det}"
    if prune != "1":
        out += f" prune {prune}"
    if flag != "0":
        out += f" flag {flag}"
    return out


def _context(level: str | None, with_flag: bool) -> str | None:
    """The evaluation context gnubg writes for a level made by :func:`_level` (None for other words)."""
    m = _LEVEL.fullmatch(level or "")
    if m is None:
        return None
    kind, plies, noise, det, prune, flag = m.groups()
    c = "C" if kind == "Cubeful" else ""
    parts = [f"{plies}{c}"] + ([flag or "0"] if with_flag else []) + [det or "1", noise or "0.000000", prune or "1"]
    return " ".join(parts)


def _finite(text: str) -> float | None:
    """A number as gnubg wrote it, or None (not a number, infinite or NaN: JSON cannot hold those)."""
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _probs(v: list[str]) -> Probabilities:
    x = [_finite(t) for t in v[:5]]
    if len(x) < 5 or any(t is None for t in x):
        raise ValueError("not five numbers")
    return Probabilities(*(t for t in x if t is not None))


def _fmt(x: float) -> str:
    return f"{x:.6f}"


def _probs_text(p: Probabilities) -> str:
    return " ".join(_fmt(x) for x in (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon))


def _steps_on(boards: list[list[int]], player: int, letters: str) -> list[Step]:
    """The single-die steps (hits marked) of a move written in letters, on a copy of ``boards``."""
    mine, theirs = list(boards[player]), list(boards[1 - player])
    steps: list[Step] = []
    for k in range(0, len(letters) - 1, 2):
        s, t = own_point(letters[k], player), own_point(letters[k + 1], player)
        hit = 1 <= t <= 24 and theirs[25 - t] == 1
        if 0 <= s <= 25:
            mine[s] -= 1
        if hit:
            theirs[25 - t] = 0
            theirs[25] += 1
        if 0 <= t <= 25:
            mine[t] += 1
        steps.append((s, t, hit))
    return steps


def _candidate(raw: str, player: int, boards: list[list[int]], i: int, extra: dict[str, str]) -> Candidate:
    """One ``A`` value: the play's letters, then its evaluation.  An evaluation this reader does not
    take apart (a rollout, another version) keeps its text in ``extra`` so that it is written back."""
    m = re.match(r"([a-z]{0,8})(?: |$)", raw)
    letters = m.group(1) if m else ""
    if len(letters) % 2:
        letters = letters[:-1]
    play = format_steps_plain(_steps_on(boards, player, letters))
    rest = raw[m.end():] if m else raw
    e = _A_EVAL.fullmatch(rest)
    if e is not None:
        g = e.groups()
        c = Candidate(play, equity=float(g[5]), probabilities=_probs(list(g[:5])),
                      level=_level(g[6], g[7], g[9], g[10], g[11], g[8]))
    elif rest == "":
        c = Candidate(play)
    else:
        score = re.search(r"Score (\S+)", rest)
        output = re.search(r"Output((?: \S+){5})", rest)
        equity = _finite(score.group(1)) if score else None
        try:
            probs = _probs(output.group(1).split()) if output else None
        except ValueError:
            probs = None
        c = Candidate(play, equity=equity, probabilities=probs, level="Rollout" if rest[:1] in ("R", "X") else None)
    if raw != f"{letters} {rest}" or _eval_text(c) != rest:  # written back as read, not from the figures
        extra[f"A[{i}]"] = rest
    return c


def _letters_of(play: str, player: int) -> str | None:
    """The letters gnubg writes for a play (its single-die steps in the order written), or None."""
    try:
        parsed = parse_play(play)
    except ParseError:
        return None
    pairs = [(x, y) for seg in parsed.segments for _ in range(seg.count) for x, y in itertools.pairwise(seg.points)]
    if len(pairs) > 4:
        return None
    return "".join(letter(s, player) + letter(t, player) for s, t in pairs)


def _eval_text(c: Candidate) -> str | None:
    """The evaluation gnubg writes after a candidate's letters ("" for none), or None."""
    if c.equity is None and c.probabilities is None and c.level is None:
        return ""
    ctx = _context(c.level, with_flag=True)
    if c.equity is None or c.probabilities is None or ctx is None:
        return None
    return f"E ver 3 {_probs_text(c.probabilities)} {_fmt(c.equity)} {ctx}"


def _candidate_text(c: Candidate, player: int, raw_eval: str | None = None) -> str | None:
    """One ``A`` value for ``c`` (its evaluation as ``raw_eval`` says when given), or None."""
    letters = _letters_of(c.play, player)
    evaluation = raw_eval if raw_eval is not None else _eval_text(c)
    if letters is None or evaluation is None:
        return None
    return f"{letters} {evaluation}"


def _cube(raw: str, money: bool, extra: dict[str, str]) -> CubeAnalysis:
    """A ``DA`` value.  In a match gnubg keeps match winning chances there, not equities: they are kept
    as text in ``extra`` (``mwc_no_double``, ``mwc_double_take``), never turned into equities here."""
    e = _DA_EVAL.fullmatch(raw)
    if e is not None:
        g = e.groups()
        nd, dt = list(g[5:12]), list(g[12:19])
        if nd[:6] == dt[:6]:
            level = _level(g[0], g[1], g[2], g[3], g[4])
            if money:
                c = CubeAnalysis(no_double=float(nd[6]), double_take=float(dt[6]),  # gnubg writes no double/pass
                                 probabilities=_probs(nd), level=level, cubeless_equity=float(nd[5]))
                mwc: dict[str, str] = {}
            else:
                c = CubeAnalysis(probabilities=_probs(nd), level=level, cubeless_equity=float(nd[5]))
                mwc = {"mwc_no_double": nd[6], "mwc_double_take": dt[6]}
            if _cube_text(c, money, mwc) == raw:
                extra.update(mwc)
                return c
    extra["DA"] = raw
    return CubeAnalysis()


def _cube_text(c: CubeAnalysis, money: bool, extra: dict[str, str]) -> str | None:
    if "DA" in extra:
        return extra["DA"]
    ctx = _context(c.level, with_flag=False)
    if ctx is None or c.probabilities is None or c.cubeless_equity is None:
        return None
    if money:
        if c.no_double is None or c.double_take is None:
            return None
        nd, dt = _fmt(c.no_double), _fmt(c.double_take)
    else:
        if "mwc_no_double" not in extra or "mwc_double_take" not in extra:
            return None
        nd, dt = extra["mwc_no_double"], extra["mwc_double_take"]
    base = f"{_probs_text(c.probabilities)} {_fmt(c.cubeless_equity)}"
    return f"E ver 3 {ctx} {base} {nd} {base} {dt}"


def read_analysis(props: dict[str, list[str]], player: int, boards: list[list[int]], money: bool
                   ) -> Analysis | None:
    """The analysis in gnubg's node properties (None when the node has none).  ``boards`` is the
    position before the move (for the candidates' hits); ``money`` says whether cube figures are
    equities (money) or match winning chances (a match)."""
    if not ANALYSIS_PROPS.intersection(props):
        return None
    try:
        return _analysis_of(props, player, boards, money)
    except (ValueError, IndexError, KeyError, TypeError):  # never seen from gnubg; the text stays a property
        return None


def _analysis_of(props: dict[str, list[str]], player: int, boards: list[list[int]], money: bool) -> Analysis:
    a = Analysis(producer=GNUBG)
    extra = a.extra
    da = props.get("DA")
    if da:
        a.cube = _cube(da[0], money, extra)
    av = props.get("A")
    if av and len(av) > 1:  # gnubg cannot load an A without candidates (it stops on an assertion)
        first = av[0].strip()
        cands = tuple(_candidate(raw, player, boards, i, extra) for i, raw in enumerate(av[1:]))
        played = int(first) if first.isascii() and first.isdigit() and len(first) < 4 and int(first) < len(cands) \
            else None
        if played is None or first != str(played):
            extra["A.played"] = av[0]
        a.checker = CheckerAnalysis(cands, played)
    lu = props.get("LU")
    if lu:
        a.luck = _finite(lu[0])
        if a.luck is None or f"{a.luck:.5f}" != lu[0]:
            extra["LU"] = lu[0]
    for name in ("GB", "GW"):
        v = props.get(name)
        if v is not None:
            side = name[1] if player == 1 else "BW"[name[1] == "B"]
            level = "2" if v and v[0][:1] == "2" else "1"
            a.luck_rating = next(w for w, sl in _LUCK.items() if sl == (side, level))
            if not v or v[0] != level:
                extra[name] = v[0] if v else ""
    if a.is_empty():
        raise ValueError("no analysis gnubg can load")
    return a


def analysis_props(a: Analysis, player: int, money: bool) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """gnubg's properties for ``a`` (in the order gnubg writes them), and what cannot be written."""
    out: list[tuple[str, list[str]]] = []
    lost: list[str] = []
    extra = a.extra
    if a.cube is not None:
        text = _cube_text(a.cube, money, extra)
        if text is None:
            lost.append("the cube decision (it lacks figures gnubg's DA needs)")
        else:
            out.append(("DA", [text]))
    if a.checker is not None and a.checker.candidates:
        values = []
        for i, c in enumerate(a.checker.candidates):
            t = _candidate_text(c, player, extra.get(f"A[{i}]"))
            if t is None:
                lost.append(f"the ranked plays (play {i + 1} lacks figures gnubg's A needs)")
                break
            values.append(t)
        else:
            played = a.checker.played
            first = extra.get("A.played", str(played if played is not None else len(values)))
            out.append(("A", [first, *values]))
    if a.luck is not None or "LU" in extra:
        out.append(("LU", [extra["LU"] if "LU" in extra else f"{a.luck:.5f}"]))
    if a.luck_rating is not None:
        sl = _LUCK.get(a.luck_rating.lower())
        if sl is None:
            lost.append(f"the luck rating {a.luck_rating!r}")
        else:
            side, level = sl
            if player == 0:
                side = "BW"[side == "B"]
            name = f"G{side}"
            out.append((name, [extra.get(name, level)]))
            other = "GW" if name == "GB" else "GB"
            if other in extra:  # both were written (gnubg writes one): the last read gives the rating
                out.insert(-1 if other == "GB" else len(out), (other, [extra[other]]))
    return out, lost


# --------------------------------------------------------------------------- results


def resign_level(points: int | None, cube: int) -> int | None:
    """The level of the resignation ``RE[W+nR]`` says: 1, 2 or 3 where its ``points`` are that many times
    the ``cube``; None (not known) where they are not, a result cut to what the match needed or a forfeit
    (a level read there would make a resignation the replay finds wrong); 1 where no points are given."""
    if points is None:
        return 1
    c = max(cube, 1)
    return points // c if points % c == 0 and 1 <= points // c <= 3 else None

