"""Writing the match model as OGXM v2 (see :mod:`notation.formats.ogxm`).

The writer replays the match (the plays must be placed on the board to be split into steps) and writes:

- ``MTCH`` from the names, length, variant, rules and cube limit, and every header tag that names an
  OGXM field and holds a value the field can (``event``, ``Event``, ``round``, ``site`` for a host name,
  ``started_at``, or ``EventDate`` and ``EventTime`` when there is no ``started_at`` ...); every other tag
  and the header comments go to ``ANNO``, keyed and not;
- a ``GAME`` for each game: its start's board and cube (the side on roll is the first ply's; the start's
  dice and a pending double are not held, said); a legal play as its single-die steps in a legal order
  (the order written, when it is one) on a dice ply, which holds the roll and not the order of its dice
  (a roll written lower die first is said); an illegal play as a set-position ply (the dice lower die
  first, said; the illegal flag and the board after it), the play as recorded in an annotation where the
  board alone does not say it; cube actions; an accepted resignation; the end of the game (24, or 26 for
  the game that ends the match);
- the analysis, one block per producer, in OGXM's units (match-winning chances in match play, through the
  table a block read before names, as the reader reads them, else Kazaross-XG2; money equities otherwise;
  the figures that do not read back as they are, rounded to OGXM's precision, are counted);
- comments and properties as annotations, and the sections a file read before held and the model does
  not (kept by the reader), where they still apply.

A match read from an OGXM file keeps the file's bytes (``ogxm.sections``); when nothing the file holds has
changed since, those bytes are written back as they are.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
import struct
from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .._digits import ascii_number
from .._term import utf8
from ..analysis import Analysis, CheckerAnalysis, CubeAnalysis, Probabilities
from ..errors import NotationError, cut_text
from ..losses import THUMBNAIL, crawford_mark
from ..met import KAZAROSS_XG2, Met, frame, met_named
from ..play import plain_legs
from ..position import GAME_RESIGNED, Position
from ..record import Action, Game, Match
from ..rules import Refusal, play_legs
from . import _ogxm_wire as W
from ._ogxm_shared import (
    END_KEY,
    KEEP_KEY,
    MORE_KEY,
    OWN_PREFIX,
    PLAY_KEY,
    PLIES_KEY,
    PLY_KEY,
    PRODUCERS,
    RAW_KEY,
    SETUP_KEY,
    VARIANT_NUMBERS,
    VERDICTS,
    Units,
    absolute_board,
    diff_play,
    end_plies,
    first_to_move,
    implied_level,
    opening,
    parts,
    producer_of,
)

if TYPE_CHECKING:
    from ..replay import GameReplay, MatchReplay, ReplayStep

OURS = frozenset((RAW_KEY, KEEP_KEY, "ogxm.analysis", "ogxm.anno", "ogxm.decisions", "ogxm.variant"))
"""Match properties that are the OGXM reader's own bookkeeping, not annotations."""
GAME_FIELDS = ("termination", "auto_doubles", "is_last_game")
"""Game properties that are GAME record fields."""
ACTION_OURS = frozenset((END_KEY, PLIES_KEY, PLY_KEY))
SGF_ANALYSIS = frozenset(("A", "DA", "LU", "GB", "GW"))
"""gnubg's SGF analysis properties, which the SGF reader keeps beside the analysis it reads from them: where
the action holds that analysis, it is written as OGXM analysis, not again as their text."""
ROLLOUTS = ("[rollout's|rollouts'] settings (trials, truncation, error bound, levels): [its|their] figures are "
            "written, how [it was|they were] rolled out is not (OGXM's rollout level and standard error are not "
            "what the producer stored)")
"""The drop line of the :class:`~notation.analysis.Rollout` of a ranked play or a cube decision."""
ROUNDED = ("analysis figure[|s] rounded to OGXM's precision (probabilities to 4 decimals; equities to millionths of a "
           "money equity, or in match play of a match-winning chance, read back through the match equity table to "
           "8 decimals)")
"""The drop line of the figures that do not read back as they are (:class:`_Convert`)."""
MAX_ANNOTATIONS = 4096
MAX_ANNO_BYTES = 256 * 1024
MAX_KEY = 1024
"""The longest annotation key written (bytes): a key is an OGXM string, and a long value's continuations
(:data:`MORE_KEY`) name it in theirs."""

_HOST = re.compile(r"[a-z0-9.\-]{1,253}")
_MATCH_REF = re.compile(r"[A-Za-z0-9._\-]{1,64}")
_COUNTRY = re.compile(r"[A-Z]{2}")
_RATING_SYSTEM = re.compile(r"[a-z0-9\-]{1,32}")
_DAY = 86_400_000
PRODUCER_IDS = {v: k for k, v in PRODUCERS.items()}
_DERIVED = object()
_CUBE_PLIES = {"double": W.DOUBLE, "take": W.TAKE, "drop": W.DROP, "beaver": W.BEAVER, "raccoon": W.RACCOON}


class Writer:
    def __init__(self, match: Match, rep: MatchReplay | None) -> None:
        self.m = match
        self.rep = rep
        self.dropped: list[str] = []
        self.annos: list[tuple[tuple[Any, ...], bytes]] = []
        self.refs: dict[int, int] = {}
        """``id(action)`` → the ply_ref of the ply written for it."""
        self.info: dict[int, tuple[ReplayStep, int]] = {}
        """ply_ref → the replay step of its action and the seat whose equities its decisions hold."""
        self.illegal: set[int] = set()
        self.plies = 0
        self.pending_end = False
        self.counts: Counter[str] = Counter()
        self.keys: dict[tuple[int, int], Counter[str]] = {}
        """Per target (scope, ref), how many times each key was annotated on it."""
        self.anno_count = 0
        """Annotation records made (each one's place in the order of making)."""
        self.annos_cut = 0
        """Annotation records left out past OGXM's limits before :meth:`write` (:meth:`_keep`)."""
        self.comments: Counter[tuple[int, int]] = Counter()  # the unkeyed annotations on each target

    def drop(self, what: str) -> None:
        if what not in self.dropped:
            self.dropped.append(what)

    # ------------------------------------------------------------------ the file

    def write(self) -> tuple[bytes, list[str]]:
        m = self.m
        raw = self._unchanged()
        if raw is not None:
            return raw, []
        if m.rules.variant not in VARIANT_NUMBERS and self._kept_variant() is None:
            raise NotationError(f"OGXM cannot hold the variant {m.rules.variant!r} (it has backgammon, nackgammon "
                                "and hypergammon)")
        rep = self.rep
        if rep is None:
            from ..replay import replay_match

            rep = replay_match(m)
        self.rep = rep
        mtch, uses_new = self._mtch(rep)
        games = [self._game(gi, game, rep.games[gi]) for gi, game in enumerate(m.games)]
        if len(games) > W.MAX_GAMES:
            raise NotationError(f"{len(games)} games: OGXM holds at most {W.MAX_GAMES}")
        self._props_and_comments()
        mtch_bytes = W.encode_mtch(mtch)
        blocks = self._analysis(mtch_bytes + b"".join(games))
        sections = self._sections(mtch_bytes, games, blocks)
        for what, n in self.counts.items():
            self.drop(_counted(n, what))
        minor = 2 if self.pending_end else (1 if uses_new else 0)
        return W.assemble(sections, minor, 2 if self.pending_end else 0), self.dropped

    def _unchanged(self) -> bytes | None:
        """The bytes of the OGXM file the match was read from, when nothing they hold has changed."""
        kept = self.m.properties.get(RAW_KEY)
        if not kept or len(kept) != 1:
            return None
        try:
            raw = base64.b64decode(kept[0], validate=True)
            from ._ogxm_read import Reader

            then = Reader(raw, self.m.source, 0, True).read()
        except (ValueError, NotationError):
            return None
        return raw if _same(then, self.m) else None

    # ------------------------------------------------------------------ MTCH

    def _mtch(self, rep: MatchReplay) -> tuple[dict[str, Any], bool]:
        m = self.m
        variant = VARIANT_NUMBERS.get(m.rules.variant)
        kept = self._kept_variant() if variant in (None, 0) else None
        if kept is not None:
            variant = kept
        elif variant is None:  # (refused by write() before)
            variant = 0
        f: dict[str, Any] = {"match_length": m.length, "variant": variant}
        for side, name in zip(("White", "Black"), m.names, strict=True):
            if name and not _fits(name):
                self.drop(f"the name of {side} ({len(utf8(name)):,} bytes): OGXM holds a name of at most "
                          f"{W.MAX_STRING:,} bytes (not written)")
            elif name:
                f[f"{side.lower()}_name"] = name
        r = m.rules
        bits = ((1 if r.crawford and m.length else 0) | (2 if r.jacoby else 0) | (4 if r.beavers else 0)
                | (8 if r.raccoons else 0) | (16 if r.auto_doubles else 0))
        held = {a.kind for g in m.games for a in g.actions}
        for kind, bit, allowed in (("beaver", 4, r.beavers), ("raccoon", 8, r.raccoons)):
            if kind in held and not allowed:
                # the reference codec refuses a beaver or raccoon ply the rules do not allow ('turn order')
                bits |= bit
                self.drop(f"the rules: {kind}s written as allowed, as the record's {kind} says (its rules did not "
                          f"allow {kind}s; read back as allowed)")
        if r.cube_limit:
            if r.cube_limit & (r.cube_limit - 1) == 0:
                f["cube_limit"] = r.cube_limit
            else:
                self.drop(f"the cube limit {r.cube_limit}: OGXM holds a power of two")
        if not r.cube:
            self.drop("cubeless play: OGXM has no rule for it")
        if r.auto_doubles > 1:
            self.drop(f"at most {r.auto_doubles} automatic doubles a game: OGXM says only that automatic doubles are "
                      "played (read back as at most 1)")
        if rep.games:
            start = rep.games[0].start.score
            if start != (0, 0):
                f["score_start"] = start
            first = rep.games[0]
            if m.length > 1 and m.length - 1 in start and not first.crawford and (
                    first.game.crawford is False or any(a.kind == "double" for a in first.game.actions)):
                # OGXM makes the first game at one point away the Crawford game unless told it was before
                # the record starts: said when the record says so, or doubles in that game
                f["crawford_before_start"] = True
        derived = self._result(rep)
        tags = list(m.tags)
        date = _event_date(tags)
        for k, v in tags:
            key = k.lower()
            if key == "rules":
                n = _int(v)
                if n is not None and not n & 0x1F:
                    bits |= n
                    continue
            elif key in W.MTCH_BITS and key not in f and key not in ("white_name", "black_name", "score_start",
                                                                       "cube_limit", "crawford_before_start"):
                value = self._field(key, v, derived)
                if value is _DERIVED:
                    continue
                if value is not None:
                    f[key] = value
                    continue
            elif key.startswith(("white_profile.", "black_profile.")):
                side, _, field = key.partition(".")
                if self._profile(f, side, field, v):
                    continue
            elif key in ("eventdate", "eventtime") and date is not None and "started_at" not in f:
                f["started_at"] = date
                continue
            self._anno(W.SCOPE_MATCH, 0, _tag_key(k), v)
        for side in ("white_profile", "black_profile"):
            pr = f.get(side)
            if pr is not None and ("rating" in pr) != ("rating_system" in pr):
                f.pop(side)
                self.drop(f"{side}: a rating needs its rating system (and the other way round) in OGXM")
        if "event_year" in f and "event" not in f:
            self._anno(W.SCOPE_MATCH, 0, _tag_key("event_year"), str(f.pop("event_year")))
        if "date_precision" in f and not _on_boundary(f.get("started_at"), f["date_precision"]):
            self._anno(W.SCOPE_MATCH, 0, _tag_key("date_precision"), str(f.pop("date_precision")))
        if "match_ref" in f and "site" not in f:
            self._anno(W.SCOPE_MATCH, 0, _tag_key("match_ref"), f.pop("match_ref"))
        if bits:
            f["rules"] = bits
        return f, any(W.MTCH_BITS[k] >= 12 for k in f if k in W.MTCH_BITS)

    def _paired(self, sections: list[bytes]) -> list[bytes]:
        """The kept ANAL and DECS sections of the analysis blocks the reader did not read, each ANAL with the DECS
        after it; one without its other half (a record changed by hand) is counted, not written (a reader refuses
        the file)."""
        out = []
        i = 0
        while i < len(sections):
            if sections[i][:4] == b"ANAL" and i + 1 < len(sections) and sections[i + 1][:4] == b"DECS":
                try:
                    W.decode_anal(sections[i][W.SECTION_HEADER:], 0, None)
                    W.decode_decs(sections[i + 1][W.SECTION_HEADER:], 0, None)
                except (ValueError, NotationError):
                    self.counts[_KEEP_NOT_READ] += 2
                else:
                    out += sections[i:i + 2]
                i += 2
                continue
            self.counts[_KEEP_NOT_READ] += 1
            i += 1
        return out

    def _level(self, text: str) -> bool:
        """Whether an evaluation level's words fit in OGXM's string; one that does not is counted (not written)."""
        if _fits(text):
            return True
        self.counts[f"evaluation level[|s] longer than OGXM's {W.MAX_STRING:,} bytes (not written)"] += 1
        return False

    def _kept_ply(self, raw: str) -> bytes | None:
        """:func:`_raw_ply`, a kept ply that is no ply counted (not written)."""
        data = _raw_ply(raw)
        if data is None:
            self.counts["kept OGXM pl[y|ies] (ogxm.ply, ogxm.plies, ogxm.end) that [is|are] not one OGXM can read "
                        "(not written)"] += 1
        return data

    def _kept_plies(self, raws: list[str]) -> list[bytes]:
        return [data for data in map(self._kept_ply, raws) if data is not None]

    def _kept_variant(self) -> int | None:
        """The variant number an OGXM file held that we do not play (``ogxm.variant``, read under the standard
        rules), or None: also where a record changed by hand holds no such number there (a word, a negative or
        enormous number, several values), which is said (the variant is then written as the record's own)."""
        vals = self.m.properties.get("ogxm.variant")
        if vals is None:
            return None
        n = _int(vals[0]) if len(vals) == 1 else None
        if n is None or not 0 <= n < 1 << 32:
            self.drop(f"the kept OGXM variant number {cut_text(' '.join(vals), 80)!r} (the property ogxm.variant): "
                      "not a number OGXM can hold, not written")
            return None
        return n

    def _running(self, rep: MatchReplay) -> list[tuple[int, int]]:
        """The score at the start of each game as OGXM derives it (the first game's as recorded, then
        each result added), and after the last game."""
        length = self.m.length
        w, b = rep.games[0].start.score if rep.games else (0, 0)
        out = [(w, b)]
        for gr in rep.games:
            if gr.winner is not None and gr.points is not None:
                if gr.winner == 0:
                    w += min(gr.points, length - w) if length > 0 else gr.points
                else:
                    b += min(gr.points, length - b) if length > 0 else gr.points
            out.append((w, b))
        return out

    def _result(self, rep: MatchReplay) -> tuple[int, tuple[int, int]]:
        """The result and final score the games give (what OGXM derives); what a game says otherwise is
        reported, as OGXM keeps none of it: a later game's score line, a game's number, names and ratings,
        its Crawford mark."""
        length = self.m.length
        running = self._running(rep)
        for k, (gr, derived) in enumerate(zip(rep.games, running, strict=False), 1):
            game = gr.game
            said = game.score
            if k > 1 and said is not None and tuple(said) != derived:
                self.drop(f"game {game.number}: the score line {said[0]}-{said[1]}, which the games before it "
                          f"do not give ({derived[0]}-{derived[1]}): OGXM derives each game's score")
            if game.number != k:
                self.drop(f"game {game.number}: its number: OGXM numbers the games in order (read back as game {k})")
            if game.names is not None and tuple(game.names) != tuple(self.m.names):
                self.drop(f"game {game.number}: the names written for it ({game.names[0]}, {game.names[1]}): OGXM "
                          f"names the players once, for the match ({self.m.names[0]}, {self.m.names[1]})")
            mark = crawford_mark(game, gr.crawford, "OGXM derives the Crawford game") if length > 0 else None
            if mark:
                self.drop(mark)
        rated = [gr.game.number for gr in rep.games if gr.game.ratings and any(gr.game.ratings)]
        if rated:
            self.drop(f"the ratings written on the score lines of {len(rated)} game{'s' if len(rated) != 1 else ''}: "
                      "OGXM holds a player's rating only with its rating system, which they do not name")
        w, b = running[-1]
        return (1 if length > 0 and w >= length else 2 if length > 0 and b >= length else 0), (w, b)

    def _field(self, key: str, v: str, derived: tuple[int, tuple[int, int]]) -> Any:
        """The value of MTCH field ``key`` from tag text ``v``; None when the field cannot hold it, and
        ``_DERIVED`` for a value OGXM derives from the games (not stored; reported when it disagrees)."""
        v = v.strip()
        if key in ("event", "stage", "table", "city"):
            cap = {"event": 120, "stage": 60, "table": 24, "city": 80}[key]
            return v if 1 <= len(utf8(v)) <= cap else None
        if key == "country":
            return v if _COUNTRY.fullmatch(v) else None
        if key == "event_url":
            return v if v.startswith("https://") and len(v) <= 512 and all(0x20 <= ord(c) <= 0x7E for c in v) \
                else None
        if key == "site":
            return v if _HOST.fullmatch(v) else None
        if key == "match_ref":
            return v if _MATCH_REF.fullmatch(v) and v not in (".", "..") else None
        if key in ("started_at", "completed_at"):
            return _instant(v)
        if key in ("rated",):
            return True if v.lower() in ("yes", "true", "1", "on") else None
        if key == "score_final":
            got = _pair(v)
            if got is None:
                return None
            if got != derived[1]:
                self.drop(f"the final score {v} that the games do not add up to ({derived[1][0]}-{derived[1][1]}): "
                          "OGXM derives it")
            return _DERIVED
        n = _int(v)
        if n is None:
            return None
        if key == "result":
            if derived[0] == 0:  # the score leaves it open: stored
                return n if 0 < n <= 3 else None
            if derived[0] != n:
                self.drop(f"the result {v}: the games give {derived[0]}, and OGXM derives it")
            return _DERIVED
        if key == "round":
            return n if 1 <= n <= 99 else None
        return n if 0 <= n < 1 << 32 else None

    def _profile(self, f: dict[str, Any], side: str, field: str, v: str) -> bool:
        pr = f.setdefault(side, {})
        if field in pr:
            return False
        if field == "user_id":
            ok = 1 <= len(utf8(v)) <= 64
            value: Any = v
        elif field == "rating":
            try:
                n = round(float(v) * 100)
            except (ValueError, OverflowError):  # not a number, NaN, infinite
                return False
            ok = 0 <= n < 1 << 32 and n / 100 == float(v)
            value = n
        elif field == "rating_system":
            ok = bool(_RATING_SYSTEM.fullmatch(v))
            value = v
        elif field == "country":
            ok = bool(_COUNTRY.fullmatch(v))
            value = v
        elif field == "kind":
            value = _int(v)
            ok = value is not None and 0 <= value < 1 << 32
        else:
            ok = False
        if not ok:
            if not pr:
                f.pop(side)
            return False
        pr[field] = value
        return True

    # ------------------------------------------------------------------ annotations

    def _anno(self, scope: int, ref: int, key: str | None, value: str) -> None:
        """An annotation record; a key's further values on one target are ``key~1``, ``key~2`` ...  A value
        longer than OGXM's strings is its first part here and the rest in :data:`MORE_KEY` annotations."""
        if key is not None and len(utf8(key)) > MAX_KEY:
            self.drop(f"an annotation whose key is longer than {MAX_KEY} bytes ({key[:40]!r}...)")
            return
        counts = self.keys.setdefault((scope, ref), Counter()) if key is not None else None
        n = counts[key] if counts is not None and key is not None else self.comments[(scope, ref)]
        if counts is not None and key is not None:
            counts[key] += 1
            if n:
                key = f"{key}~{n}"
        else:
            self.comments[(scope, ref)] += 1
        first = parts(value, W.MAX_STRING)[0]
        self._record(scope, ref, key, first)
        if len(first) < len(value):
            label = f"c{n}" if key is None else f"k{key}"
            if "\n" in label:
                self.drop(f"the annotation {key!r} past OGXM's {W.MAX_STRING} bytes (its key has a line break, "
                          "so its value cannot be continued)")
                return
            for piece in parts(value[len(first):], W.MAX_STRING - len(utf8(label)) - 1):
                self._anno(scope, ref, MORE_KEY, f"{label}\n{piece}")

    def _forget_keys(self, scope: int, ref: int) -> None:
        """Forget the counts of the keys annotated on a target no more annotations go to."""
        self.keys.pop((scope, ref), None)

    def _keep(self, order: tuple[Any, ...], record: bytes) -> None:
        """Keep an annotation record; of more than twice :data:`MAX_ANNOTATIONS`, only the first
        :data:`MAX_ANNOTATIONS` in OGXM's order (the most :meth:`write` can keep; the others are counted in
        :attr:`annos_cut`), so that memory stays bounded whatever the number of properties."""
        self.annos.append((order, record))
        if len(self.annos) >= 2 * MAX_ANNOTATIONS:
            self.annos.sort(key=lambda t: t[0])
            self.annos_cut += len(self.annos) - MAX_ANNOTATIONS
            del self.annos[MAX_ANNOTATIONS:]

    def _record(self, scope: int, ref: int, key: str | None, value: str) -> None:
        r: dict[str, Any] = {"scope": scope, "ref": ref, "value": value}
        if key is not None:
            r["key"] = key
        kb = utf8(key) if key is not None else b""
        self.anno_count += 1
        self._keep((scope, ref, False, b"", False, 0, False, 0, key is None, kb, False, b"", self.anno_count),
                   W.encode_anno(r))

    def _props_and_comments(self) -> None:
        m = self.m
        for c in m.comments:
            self._anno(W.SCOPE_MATCH, 0, None, c)
        tags = []
        for k, vals in m.properties.items():
            if k in OURS:
                continue
            if k != THUMBNAIL:
                tags.append(k)
            for v in vals:
                self._anno(W.SCOPE_MATCH, 0, _tag_key(k), v)
        if tags:  # (a keyed annotation on the match is a tag; XG's thumbnail is known by its key)
            self.drop(f"match properties {', '.join(tags)}: written as OGXM annotations on the match, which are read "
                      "back as header tags")
        for raw in m.properties.get("ogxm.anno", []):
            try:
                got = W.decode_anno(base64.b64decode(raw), 0, None)
            except (ValueError, NotationError):
                got = []
            if len(got) != 1:  # (a record changed by hand)
                self.counts["kept OGXM annotation[|s] (ogxm.anno) that [is|are] not one OGXM can read (not "
                            "written)"] += 1
                continue
            r = got[0]
            limit = self.plies if r["scope"] >= W.SCOPE_PLY else len(m.games) if r["scope"] == W.SCOPE_GAME else 1
            if r["ref"] >= limit:
                self.drop("an annotation on a ply the record no longer holds")
                continue
            a = r.get("analysis", b"")
            key = r.get("key")
            lang = r.get("lang")
            self.anno_count += 1
            self._keep((r["scope"], r["ref"], "analysis" in r, a, "kind" in r, r.get("kind", 0),
                        "alt_index" in r, r.get("alt_index", 0), key is None,
                        utf8(key) if key is not None else b"", lang is not None,
                        utf8(lang) if lang is not None else b"", self.anno_count),
                       W.encode_anno(r))

    # ------------------------------------------------------------------ GAME

    def _game(self, gi: int, game: Game, gr: GameReplay) -> bytes:
        m = self.m
        rec: dict[str, Any] = {}
        plies: list[Any] = []
        start = gr.start
        variant = VARIANT_NUMBERS.get(m.rules.variant, 0)
        if game.start is not None:
            board = absolute_board(start.boards)
            cube = start.cube
            if cube < 1 or cube & (cube - 1):
                self.drop(f"game {game.number}: the cube value {cube} of its starting position: OGXM holds a power "
                          "of two (read back as 1)")
                cube = 1
            if cube != 1:
                rec["initial_cube_value"] = cube
            if start.cube_owner is not None:
                rec["initial_cube_owner"] = start.cube_owner
            if tuple(board) != opening(variant) or "initial_cube_value" not in rec and start.cube_owner is None:
                rec["initial_board"] = tuple(board)  # (the opening board too: else no start is read back)
        elif start.cube != 1:
            rec["auto_doubles"] = start.cube.bit_length() - 1
        for key in GAME_FIELDS:
            vals = game.properties.get(key)
            if vals and key == "is_last_game":  # a flag, written only when set (as the reader says it: "yes")
                flag = vals[0].strip().lower()
                if flag in ("yes", "1", "true"):
                    rec[key] = True
                elif flag not in ("no", "0", "false"):  # (a record changed by hand)
                    self.counts[_NOT_KEPT] += 1
            elif vals:
                n = self._kept_count(vals[0])
                if n is not None:
                    rec[key] = n
        losses = sum(1 for a in game.actions if a.kind == "loss")
        if losses:
            self.counts["Galaxy 'Losses N points' result[|s]: not written (OGXM holds a result as the winner's)"] += \
                losses
        winner, points = gr.winner, gr.points
        if winner is not None:
            rec["winner"] = winner
            rec["points_won"] = max(points or 0, 0)
        plies += self._kept_plies(game.properties.get(PLIES_KEY, []))
        complete = winner is not None and m.length > 0 and start.score[winner] + (points or 0) >= m.length
        steps = gr.steps
        done = {id(s.action) for s in steps}
        missing = [a for a in game.actions if id(a) not in done] if not gr.verifiable else []
        ended = None
        double_pending = False
        first_ref = self.plies
        skip_next = False
        end_override: list[str] | None = None
        result: ReplayStep | None = None
        for i, st in enumerate(steps):
            a = st.action
            kind = a.kind
            if skip_next:
                skip_next = False
                continue
            ref = first_ref + len(plies)
            wrote = True
            unplayed = kind == "roll" or kind == "move" and not (a.play or "").strip() and st.play is None \
                and a.dice is not None and winner is None  # (an empty play the replay took as a roll not
            # played, in a game with no result: not a dance, nor a last play left out before the roller's win)
            if unplayed and not _resigned_after(steps, i, winner):
                # a roll the record leaves unplayed with no resignation after it (a record that stops there):
                # OGXM has a dice ply with no steps for a dance, and for a roll not played only right before
                # its roller's resignation; the reference codec would replay this one as an illegal empty play
                self.counts["roll[|s] left unplayed where the record stops (no resignation after [it|them]): "
                            "not written (OGXM holds a roll without a play only before its roller's "
                            "resignation)"] += 1
                if a.analysis is not None:
                    self.counts["analysis of [a roll|rolls] not written (left unplayed where the record "
                                "stops)"] += 1
                continue
            if kind in ("move", "roll"):
                self._move(plies, st, ref)
            elif kind == "double":
                plies.append((W.DOUBLE, a.player, (), None))
                self.info[ref] = (st, a.player)
                double_pending = True
            elif kind == "take" and i and steps[i - 1].action.kind in ("beaver", "raccoon"):
                # OGXM's beaver and raccoon plies hold their take (the reference codec refuses a take ply after
                # one: 'turn order'); the reader gives the take back
                wrote = False
                double_pending = False
            elif kind in ("take", "drop", "beaver", "raccoon"):
                plies.append((_CUBE_PLIES[kind], a.player, (), None))
                self.info[ref] = (st, 1 - a.player)
                double_pending = False
                if kind == "drop":
                    ended = "drop"
            elif kind == "resign":
                nxt = steps[i + 1].action.kind if i + 1 < len(steps) else None
                if nxt == "reject":
                    self.counts["rejected resignation[|s] (OGXM holds only an accepted one)"] += 1
                    skip_next = True
                    continue
                kept = self._kept_ply(a.properties[PLY_KEY][0]) if PLY_KEY in a.properties else None
                if kept is not None:
                    plies.append(kept)
                else:
                    value = a.value if a.value in (1, 2, 3) else _resign_value(points, st.before.cube)
                    plies.append((W.RESIGN_MATCH if complete else W.RESIGN_GAME, a.player, (),
                                  {"resign_value": value}))
                self.info[ref] = (st, a.player)
                ended = "resign"
                if double_pending:
                    self.pending_end = True
            elif kind == "setup":
                self._setup(plies, st, ref)
            else:  # accept, reject, win, loss: no ply of their own
                wrote = False
                if kind in ("win", "loss") and END_KEY in a.properties:
                    end_override = a.properties[END_KEY]
                if kind in ("win", "loss"):
                    result = st
                if kind == "reject":
                    self.counts["rejected resignation[|s] (OGXM holds only an accepted one)"] += 1
            if wrote:
                self.refs[id(a)] = ref
            plies += self._kept_plies(a.properties.get(PLIES_KEY, []))
        if missing:
            # The replay stopped at a play it could not make: that play and the rest of the game are written
            # as recorded, each play a set-position ply on the board as it last stood.
            last_board = tuple(absolute_board((steps[-1].after if steps else start).boards))
            for a in missing:
                ref = first_ref + len(plies)
                kind = a.kind
                if kind in ("move", "roll") and a.dice is not None:
                    plies.append((W.SET_POSITION, 1 - a.player, (), {"dice": self._low_first(a.dice),
                                                                       "illegal": True, "board": last_board}))
                    self.illegal.add(ref)
                    if (a.play or "").strip():
                        self._anno(W.SCOPE_PLY, ref, PLAY_KEY, (a.play or "").strip())
                elif kind in _CUBE_PLIES:
                    plies.append((_CUBE_PLIES[kind], a.player, (), None))
                    double_pending = kind == "double"
                    if kind == "drop":
                        ended = "drop"
                elif kind == "resign" and ended is None:
                    plies.append((W.RESIGN_MATCH if complete else W.RESIGN_GAME, a.player, (),
                                  {"resign_value": a.value if a.value in (1, 2, 3) else 1}))
                    ended = "resign"
                else:
                    if kind in ("move", "roll", "setup"):
                        self.counts["set-up position[|s] after a play the replay could not make"
                                    if kind == "setup" else "play[|s] without a roll"] += 1
                    continue
                self.refs[id(a)] = ref
                plies += self._kept_plies(a.properties.get(PLIES_KEY, []))
        if winner is not None and ended is None and (result is None or result.after.game_state == GAME_RESIGNED):
            # a result that neither a bear-off nor a drop gives (a roll left unplayed, then 'Wins'; or a game
            # the replay could not finish): the loser resigned, and OGXM says so
            cube = (result or steps[-1]).before.cube if steps else start.cube
            level = implied_level(points, cube)
            if level is None:  # more points than a resignation gives: a forfeit (BG Studio's 1004 points ...)
                plies.append((W.FORFEIT, 1 - winner, (), None))
                ended = "forfeit"
            else:
                plies.append((W.RESIGN_MATCH if complete else W.RESIGN_GAME, 1 - winner, (), {"resign_value": level}))
                ended = "resign"
                self.counts["game[ that ends|s that end] before [it is|they are] played out with no resignation "
                            "written (an implied resignation): OGXM says it as one, read back as a resignation and "
                            "its acceptance"] += 1
            if double_pending:
                self.pending_end = True
        kept_ends = None
        if end_override is not None:
            raws = [raw for raw in end_override if raw != "none"]
            kept_ends = self._kept_plies(raws)
            if len(kept_ends) != len(raws):
                kept_ends = None  # (one of them is no ply: the end plies the game gives)
        if kept_ends is not None:
            plies += kept_ends
        else:
            plies += [(x, 0, (), None) for x in end_plies(ended, winner, complete)]
        if len(plies) > W.MAX_PLIES:
            raise NotationError(f"game {game.number} has {len(plies)} plies: OGXM holds at most {W.MAX_PLIES}")
        self.plies += len(plies)
        for c in game.comments:
            self._anno(W.SCOPE_GAME, gi, None, c)
        for k, vals in game.properties.items():
            if k in GAME_FIELDS or k in (PLIES_KEY, END_KEY):
                continue
            for v in vals:
                self._anno(W.SCOPE_GAME, gi, _tag_key(k), v)
        last_ply: int | None = None
        for a in game.actions:
            ply = self.refs.get(id(a))
            if ply is not None:
                if last_ply is not None and ply > last_ply:  # (a ply's annotations all written: its key counts
                    self._forget_keys(W.SCOPE_PLY, last_ply)  # go, or 999 properties a ply kept 999 of them)
                last_ply = ply
            where = (W.SCOPE_PLY, ply) if ply is not None else (W.SCOPE_GAME, gi)
            if a.comment:
                self._anno(*where, None, a.comment)
                if ply is None:
                    self.counts["comment[ on an action|s on actions] OGXM has no ply for (a result, an acceptance "
                                "...): written on the game, read back as [a comment|comments] of the game"] += 1
            for k, vals in a.properties.items():
                if k in ACTION_OURS:
                    continue
                if k in SGF_ANALYSIS and a.analysis is not None:
                    self.counts["[action's|actions'] gnubg analysis properties (A, DA, LU, GB, GW): written as "
                                "the OGXM analysis they hold, not as their SGF text"] += 1
                    continue
                if ply is None:
                    self.counts["propert[y of an action|ies of actions] OGXM has no ply for (a result, an acceptance "
                                "...): written on the game, read back as [a property|properties] of the game"] += 1
                for v in vals:
                    self._anno(*where, _tag_key(k), v)
        data = W.encode_game(rec, plies)
        if game.start is not None:
            self._start_losses(game, game.start, data)
        return data

    def _start_losses(self, game: Game, start: Position, data: bytes) -> None:
        """What OGXM's start of a game (GAME's initial board, cube value and owner) does not hold of the record's
        starting position: its dice, a double or resignation pending in it, and the side on roll, which the
        reader takes from the game's first ply."""
        where = f"game {game.number}: "
        if start.dice is not None:
            self.drop(f"{where}the dice {start.dice[0]}{start.dice[1]} of its starting position: OGXM's start of a "
                      "game holds the board and the cube, not the dice (read back without)")
        if start.double_offered or start.resign_offered:
            what = "a double" if start.double_offered else "a resignation"
            self.drop(f"{where}{what} pending in its starting position: OGXM's start of a game holds the board and "
                      "the cube (read back as none)")
        turn = first_to_move(W.decode_game(data, 0, None)[1])
        if start.turn != turn:
            self.drop(f"{where}player {start.turn} on roll in its starting position: OGXM's start of a game holds "
                      f"the board and the cube, and the side on roll is the first ply's (read back as player {turn})")

    def _move(self, plies: list[Any], st: ReplayStep, ref: int) -> None:
        a = st.action
        dice = a.dice
        if dice is None:
            self.counts["play[|s] without a roll"] += 1
            return
        aid = W.DICE_ACTION[dice]
        text = (a.play or "").strip()
        before = st.before
        if a.kind == "roll" or not text:
            if st.legal:
                plies.append((aid, a.player, (), None))
                self.info[ref] = (st, a.player)
                self._dice_order(dice)
                return
        elif st.legal and st.play is not None:
            steps = hop_bytes(before, a.player, dice, text, st.play.steps)
            if steps is not None:
                plies.append((aid, a.player, steps, None))
                self.info[ref] = (st, a.player)
                self._dice_order(dice)
                return
        # an illegal play: its dice, the illegal flag and the board it leaves, on the side to move next
        after = absolute_board(st.after.boards)
        plies.append((W.SET_POSITION, 1 - a.player, (), {"dice": self._low_first(dice), "illegal": True,
                                                           "board": tuple(after)}))
        self.illegal.add(ref)
        self.info[ref] = (st, a.player)
        if diff_play(absolute_board(before.boards), after, a.player) != text:
            self._anno(W.SCOPE_PLY, ref, PLAY_KEY, text)

    def _dice_order(self, dice: tuple[int, int]) -> None:
        """A dice ply's action id is the roll, not the order of its dice: the reader gives the higher die
        first, and a roll written lower die first is counted (the order is lost)."""
        if dice[0] < dice[1]:
            self.counts["roll[|s] written lower die first: OGXM's dice ply holds the roll, not the order of its "
                        "dice (read back higher die first)"] += 1

    def _low_first(self, dice: tuple[int, int]) -> tuple[int, int]:
        """A set-position ply's roll as OGXM writes one, the low die first (its OGIDs say the dice so); a
        roll written higher die first is counted (read back lower die first)."""
        if dice[0] > dice[1]:
            self.counts["roll[|s] of an illegal play or a set-up position written higher die first: OGXM's "
                        "set-position ply holds the dice lower die first (read back so)"] += 1
            return dice[1], dice[0]
        return dice

    def _setup(self, plies: list[Any], st: ReplayStep, ref: int) -> None:
        a = st.action
        after = st.after
        board = tuple(absolute_board(after.boards))
        if a.dice is not None:
            plies.append((W.SET_POSITION, after.turn, (), {"dice": self._low_first(a.dice), "illegal": True,
                                                             "board": board}))
            self._anno(W.SCOPE_PLY, ref, SETUP_KEY, a.text)
            self.illegal.add(ref)
        else:
            plies.append((W.SET_POSITION, after.turn, (), {"board": board}))
        before = st.before
        self.info[ref] = (st, after.turn)
        pos = a.setup or after
        if pos.dice is not None:
            self.counts["set-up position[|s] with the dice rolled and not yet played: [its|their] dice not written "
                        "(OGXM's set-position ply holds the board, and dice only with an illegal play; read back "
                        "without)"] += 1
        if pos.double_offered or pos.resign_offered:
            self.counts["set-up position[|s] with a double or a resignation pending: not written pending (OGXM's "
                        "set-position ply holds the board and the cube; read back as none)"] += 1
        if (after.cube, after.cube_owner) != (before.cube, before.cube_owner):
            # the cube the set-up sets: a cube-set ply after it
            x: dict[str, Any] = {"cube_value": after.cube}
            if after.cube_owner is not None:
                x["cube_owner"] = after.cube_owner
            plies.append((W.CUBE_SET, after.turn, (), x))

    # ------------------------------------------------------------------ analysis

    def _analysis(self, match_bytes: bytes) -> list[tuple[bytes, bytes]]:
        """One (ANAL, DECS) pair for each producer whose analysis the record holds."""
        by_producer: dict[str | None, list[tuple[int, ReplayStep, int]]] = {}
        for ref, (st, decider) in sorted(self.info.items()):
            an = st.action.analysis
            if an is None or an.is_empty():
                continue
            if ref in self.illegal:
                self.counts["analysed illegal play[|s] (OGXM puts no decision on the set-position ply that "
                            "restates one)"] += 1
                continue
            by_producer.setdefault(an.producer, []).append((ref, st, decider))
        unplaced = sum(1 for g in self.m.games for a in g.actions if a.analysis is not None and
                       not a.analysis.is_empty() and id(a) not in self.refs)
        if unplaced:
            self.counts["[analysis of an action|analyses of actions] with no ply of [its|their] own"] += unplaced
        kept: dict[str | None, dict[str, Any]] = {}
        for raw in self.m.properties.get("ogxm.analysis", []):
            try:
                info = W.decode_anal(base64.b64decode(raw), 0, None)
            except (ValueError, NotationError):  # (a record changed by hand)
                self.counts["kept OGXM analysis block header[|s] (ogxm.analysis) that [is|are] not one OGXM can read "
                            "(not written: the block is described anew)"] += 1
                continue
            kept.setdefault(producer_of(info), info)
        out = []
        for k, (producer, decisions) in enumerate(by_producer.items()):
            out.append(self._block(k, producer, decisions, kept.get(producer), match_bytes))
        return out

    def _block(self, k: int, producer: str | None, decisions: list[tuple[int, ReplayStep, int]],
               kept: dict[str, Any] | None, match_bytes: bytes) -> tuple[bytes, bytes]:
        m = self.m
        match_play = m.length > 0
        if kept is not None:
            info = {key: v for key, v in kept.items() if key not in ("level", "coverage", "complete", "match_digest",
                                                                     "_more")}
        else:
            seed = hashlib.sha256(b"gammon-notation analysis\0" + (producer or "").encode("utf-8") + bytes((k,))
                                  + match_bytes).digest()
            aid = bytearray(seed[:16])
            aid[6] = (aid[6] & 0x0F) | 0x80
            aid[8] = (aid[8] & 0x3F) | 0x80
            info = {"analysis_id": bytes(aid)}
            if producer is not None:  # (none named: no name written, read back as none; an empty one: empty)
                if producer in PRODUCER_IDS:
                    info["model_id"] = PRODUCER_IDS[producer]
                if _fits(producer):
                    info["model_name"] = producer
                else:
                    self.drop(f"the name of the producer of an analysis ({len(utf8(producer)):,} bytes): "
                              f"OGXM holds a name of at most {W.MAX_STRING:,} bytes (not written)")
            info["currency"] = 2 if match_play else 1
            if match_play:
                info["met_id"] = KAZAROSS_XG2.name
        currency = info.get("currency", 2 if match_play else 1)
        mwc = currency == 2 and match_play
        # the table the reader reads the block's match-winning chances through (the one it names, the
        # reference codec's when it names none or one we do not know)
        met = met_named(info.get("met_id"))
        if mwc and info.get("met_id") and met.name != str(info["met_id"]).lower():
            self.drop(f"the match equity table {info['met_id']}, which the analysis of "
                      f"{producer or 'no producer named'} names, is not one we know: its equities are written as "
                      f"match-winning chances through the {met.name}'s table, as they were read (the table it names "
                      "would read them back as other equities)")
        levels: Counter[str] = Counter()
        for _ref, st, _d in decisions:
            an = st.action.analysis
            assert an is not None
            if an.checker is not None:
                levels.update(c.level for c in an.checker.candidates if c.level and _fits(c.level))
            if an.cube is not None and an.cube.level and _fits(an.cube.level):
                levels[an.cube.level] += 1
        block_level = levels.most_common(1)[0][0] if levels else None
        if block_level is not None:
            info["level"] = {"preset": block_level}
        records: list[dict[str, Any]] = []
        for ref, st, decider in decisions:
            an = st.action.analysis
            assert an is not None
            conv = _Convert(st.before, decider, met if mwc else None)
            if conv.frame is None:
                self.counts["analysed decision[|s] at a score with no match-winning chance frame"] += 1
                continue
            records += self._decisions(ref, st, an, conv, block_level)
            if conv.rounded:
                self.counts[ROUNDED] += conv.rounded
            if conv.clamped:
                self.counts["[probability|probabilities] outside 0 to 1 written as 0 or 1 (OGXM holds a chance)"] += \
                    conv.clamped
        records.sort(key=lambda d: (d["ply_ref"], d["kind"]))
        return W.encode_anal(info), b"".join(W.encode_decision(d) for d in records)

    def _decisions(self, ref: int, st: ReplayStep, an: Analysis, conv: _Convert,
                   block_level: str | None) -> list[dict[str, Any]]:
        a = st.action
        x = an.extra
        out = []
        if an.checker is not None and a.kind == "move" and an.checker.candidates:
            d = self._checker(ref, st, an.checker, conv, block_level, x)
            if d is not None:
                out.append(d)
        elif an.checker is not None:
            self.counts["checker-play analys[is|es] on [an action that is not a play|actions that are not plays]"] += 1
        if an.cube is not None:
            d = self._cube(ref, a, an.cube, conv, block_level, x)
            if d is not None:
                out.append(d)
        if an.luck is not None:
            if a.kind == "move":
                d = {"ply_ref": ref, "kind": W.KIND_ROLL, "luck": conv.delta(an.luck)}
                if x.get("ogxm:luck_level") not in (None, block_level) and self._level(x["ogxm:luck_level"]):
                    d["level"] = {"preset": x["ogxm:luck_level"]}
                out.append(d)
            else:
                self.counts["luck figure[|s] on [an action that is not a roll|actions that are not rolls]"] += 1
        if a.kind == "resign" and any(k.startswith("ogxm:resign_") for k in x):
            d = {"ply_ref": ref, "kind": W.KIND_RESIGN}
            n = self._kept_count(x.get("ogxm:resign_correct_value"))
            if n is not None:
                d["correct_value"] = n
            for key in ("resign_error", "take_resign_error"):
                v = self._kept(x, f"ogxm:resign_{key}")
                if v is not None:
                    d[key] = conv.delta(v)
            v = self._kept(x, "ogxm:resign_equity_loss")
            if v is not None:
                d["equity_loss"] = self._loss(conv, v)
            if "ogxm:resign_probs" in x:
                probs = [_int(v) for v in x["ogxm:resign_probs"].split(",")]
                if len(probs) == 5 and all(p is not None and 0 <= p <= 10000 for p in probs):
                    d["probs"] = tuple(probs)
                else:
                    self.counts[_NOT_KEPT] += 1
            if x.get("ogxm:resign_level") not in (None, block_level) and self._level(x["ogxm:resign_level"]):
                d["level"] = {"preset": x["ogxm:resign_level"]}
            out.append(d)
        return out

    def _checker(self, ref: int, st: ReplayStep, ch: CheckerAnalysis, conv: _Convert, block_level: str | None,
                 x: dict[str, str]) -> dict[str, Any] | None:
        a = st.action
        assert a.dice is not None
        cands = ch.candidates
        dec_level = cands[0].level if cands[0].level and _fits(cands[0].level) else block_level
        alts = []
        for i, c in enumerate(cands):
            steps = hop_bytes(st.before, a.player, a.dice, c.play, None)
            if steps is None:
                self.counts["ranked play[|s] that cannot be placed on the board"] += 1
                if ch.played == i:
                    return None
                continue
            alt: dict[str, Any] = {"steps": steps, "equity": conv.eq(c.equity or 0.0, counted=c.equity is not None)}
            if c.equity is None:
                self.counts["ranked play[|s] without an equity (written as 0)"] += 1
            if c.probabilities is not None:
                alt["probs"] = conv.probs(c.probabilities)
            if c.level and c.level != dec_level and self._level(c.level):
                alt["level"] = {"preset": c.level}
            if ch.played == i or x.get(f"ogxm:{i}:is_played") == "yes":
                alt["is_played"] = True
            se = self._kept(x, f"ogxm:{i}:rollout_se")
            if se is not None:
                alt["rollout_se"] = conv.delta(se)
            if c.cubeless_equity is not None:
                alt["cubeless_equity"] = conv.eq(c.cubeless_equity)
            if c.rollout is not None:
                self.counts[ROLLOUTS] += 1
            alts.append(alt)
        if not alts:
            return None
        # OGXM keeps the alternatives of one level together, best first within each (the first level
        # first, so the best play stays first)
        groups: dict[str | None, list[dict[str, Any]]] = {}
        for alt in alts:
            groups.setdefault(alt.get("level", {}).get("preset"), []).append(alt)
        ordered = [alt for g in groups.values() for alt in sorted(g, key=lambda al: -al["equity"])]
        if ordered != alts:
            self.counts["list[|s] of ranked plays reordered: OGXM keeps the plays of one evaluation level "
                        "together (in the order of their first play), best first within each"] += 1
            alts = ordered
        d: dict[str, Any] = {"ply_ref": ref, "kind": W.KIND_CHECKER, "alternatives": alts}
        if dec_level and dec_level != block_level:
            d["level"] = {"preset": dec_level}
        for key in ("alternatives_total", "rollouts_done", "deep_searched", "position_tags", "source_band"):
            n = self._kept_count(x.get(f"ogxm:{key}"))
            if n is not None:
                d[key] = n
        # the best equity and the loss a file held, written as they are: also when the ranked plays give
        # them, as the reader keeps them only when the file holds them (it derives neither)
        best = self._kept(x, "ogxm:best_equity")
        if best is not None:
            d["best_equity"] = conv.eq(best)
        loss = self._kept(x, "ogxm:equity_loss")
        if loss is not None:
            d["equity_loss"] = self._loss(conv, loss)
        return d

    def _kept(self, x: dict[str, str], key: str) -> float | None:
        """The figure an OGXM file held, kept as the extra ``key`` of an analysis (an equity, a loss, an error, in
        the model's units); None where there is none, or where it is not a finite number of at most 1,000
        (a record changed by hand: counted, not written)."""
        v = x.get(key)
        if v is None:
            return None
        try:
            f = float(v)
        except ValueError:
            f = math.nan
        if not (math.isfinite(f) and abs(f) <= 1000):
            self.counts[_NOT_KEPT] += 1
            return None
        return f

    def _kept_count(self, v: str | None, most: int = (1 << 32) - 1) -> int | None:
        """A count an OGXM file held, kept as text (an extra of an analysis, a game property); None where there
        is none, or where it is not a whole number from 0 to ``most`` (OGXM's 32 bits; a record changed by hand:
        counted, not written)."""
        if v is None:
            return None
        n = _int(v)
        if n is None or not 0 <= n <= most:
            self.counts[_NOT_KEPT] += 1
            return None
        return n

    def _loss(self, conv: _Convert, v: float) -> int:
        """A kept equity loss as OGXM holds one, unsigned: a negative one (a record changed by hand) is written
        as 0, counted."""
        n = conv.delta(v)
        if n < 0:
            self.counts["negative equity loss[|es] written as 0 (OGXM holds a loss as unsigned)"] += 1
            return 0
        return n

    def _cube(self, ref: int, a: Action, cube: CubeAnalysis, conv: _Convert, block_level: str | None,
              x: dict[str, str]) -> dict[str, Any] | None:
        nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
        response = a.kind in ("take", "drop", "beaver", "raccoon")
        if a.kind not in ("move", "double") and not response:
            self.counts["cube analys[is|es] on [an action that is not a cube decision|actions that are not cube "
                        "decisions]"] += 1
            return None
        verdict = VERDICTS.index(cube.verdict) if cube.verdict in VERDICTS else None
        allowed = (2, 3, 5, 6) if response else (0, 1, 4)
        if verdict not in allowed:
            if nd is None or dt is None or dp is None:
                self.counts["cube analys[is|es] without the three equities"] += 1
                return None
            if cube.verdict is not None:
                self.counts["cube verdict[|s] written as OGXM's verdict codes ([its|their] wording is not kept)"] += 1
            if response:
                verdict = 2 if dt <= dp else 3
            elif dt >= dp:
                verdict = 4 if nd > dp else 1
            else:
                verdict = 0 if nd >= dt else 1
        d: dict[str, Any] = {"ply_ref": ref, "kind": W.KIND_CUBE, "verdict": verdict}
        for key, e in (("no_double", nd), ("double_take", dt), ("double_pass", dp)):
            if e is not None:
                d[key] = conv.eq(e)
        if cube.probabilities is not None:
            d["probs"] = conv.probs(cube.probabilities)
        if cube.rollout is not None:
            self.counts[ROLLOUTS] += 1
        loss = self._kept(x, "ogxm:cube_equity_loss")
        if loss is not None:
            d["equity_loss"] = self._loss(conv, loss)
        tp = self._kept_count(x.get("ogxm:cube_take_point"), 10000)
        if tp is not None:
            d["take_point"] = tp
        if cube.level and cube.level != block_level and self._level(cube.level):
            d["level"] = {"preset": cube.level}
        for key in ("window_searched", "is_optional", "is_free_cube"):
            if x.get(f"ogxm:cube_{key}") == "yes":
                d[key] = True
        take = self._kept(x, "ogxm:cube_cubeful_take_value")
        if take is not None:
            d["cubeful_take_value"] = conv.eq(take)
        if cube.cubeless_equity is not None:
            self.counts["cubeless equit[y|ies] of cube decisions (OGXM has no field for them)"] += 1
        if cube.double_probabilities is not None or cube.double_cubeless_equity is not None:
            self.counts["double/take-line evaluation[|s] of cube decisions (chances and cubeless equity: OGXM "
                        "holds one evaluation of a cube decision, the no-double line's)"] += 1
        return d

    # ------------------------------------------------------------------ what the file held besides

    def _sections(self, mtch: bytes, games: list[bytes], blocks: list[tuple[bytes, bytes]]) -> list[bytes]:
        """The file's sections in OGXM's order (MTCH, the games, the analysis blocks, the clock, the video,
        ANNO), with what the reader kept: further analysis blocks, the clock and the video while the plies
        are the ones they were about, and unknown sections after the section they followed.  Signatures
        sign the bytes the file was read from; a record written anew loses them (said)."""
        kept: dict[str, list[bytes]] = {}
        unknown: dict[str, list[bytes]] = {}
        digest = hashlib.sha256(b"".join(struct.pack("<I", len(x)) + x for x in [mtch, *games])).digest()
        for entry in self.m.properties.get(KEEP_KEY, []):
            parts = entry.split(":", 3)
            payload = None
            if len(parts) == 4 and _keepable(parts[0]):
                try:
                    payload = base64.b64decode(parts[3], validate=True)
                except ValueError:
                    pass
            if payload is None:  # (a record changed by hand)
                self.counts[_KEEP_NOT_READ] += 1
                continue
            kind, anchor, plies, _raw = parts
            section = W.section(kind.encode("ascii"), payload, False)
            if kind in ("SIGN", "MSIG"):
                number = anchor[5:] if anchor.startswith("block") else ""
                k = ascii_number(number) or 0  # (else it signs no block of ours)
                if kind == "MSIG":
                    now = hashlib.sha256(b"OGXM-MTCH-SIG-v2" + digest).hexdigest()
                elif 1 <= k <= len(blocks):
                    now = hashlib.sha256(b"OGXM-ANAL-SIG-v2" + digest + hashlib.sha256(
                        blocks[k - 1][0] + blocks[k - 1][1]).digest()).hexdigest()
                else:
                    now = ""
                if now == plies:  # what it signs is written as it was: it still holds
                    kept.setdefault(kind if kind == "MSIG" else anchor, []).append(section)
                else:
                    self.drop(f"the {'match' if kind == 'MSIG' else 'analysis'} signature ({kind}): the bytes it "
                              "signs are written anew")
            elif kind in ("ANAL", "DECS", "CLCK", "VIDO"):
                if plies == str(self.plies):
                    kept.setdefault("blocks" if kind in ("ANAL", "DECS") else kind, []).append(section)
                elif kind != "DECS":
                    self.drop({"ANAL": "an analysis block the record does not hold", "CLCK": "the clock",
                               "VIDO": "the video marks"}[kind] + ": the plies changed since the file was read")
            else:
                unknown.setdefault(anchor, []).append(section)
        out = [W.section(b"MTCH", mtch, True)] + unknown.pop("MTCH", [])
        out += [W.section(b"GAME", g, True) for g in games] + unknown.pop("GAME", [])
        for k, (anal, decs) in enumerate(blocks, 1):
            out += [W.section(b"ANAL", anal, False), W.section(b"DECS", decs, False)] + kept.get(f"block{k}", [])
            out += unknown.pop(f"block{k}", [])
        out += self._paired(kept.get("blocks", []))
        for kind in ("CLCK", "VIDO"):
            out += kept.get(kind, []) + unknown.pop(kind, [])
        tail_msig = kept.get("MSIG", [])
        if self.annos:
            self.annos.sort(key=lambda t: t[0])
            keep = len(self.annos)
            size = sum(len(r) for _k, r in self.annos)
            while keep > MAX_ANNOTATIONS or size > MAX_ANNO_BYTES:
                keep -= 1
                size -= len(self.annos[keep][1])
            if keep < len(self.annos) or self.annos_cut:
                self.drop(f"{len(self.annos) - keep + self.annos_cut} annotations (comments, tags, properties) past "
                          "OGXM's limits "
                          f"({MAX_ANNOTATIONS} records, {MAX_ANNO_BYTES // 1024} KB): the last ones in OGXM's order")
            out.append(W.section(b"ANNO", b"".join(r for _k, r in self.annos[:keep]), False))
        out += tail_msig
        for rest in unknown.values():
            out += rest
        return out


# --------------------------------------------------------------------------- helpers


def hop_bytes(before: Position, mover: int, dice: tuple[int, int], text: str,
              steps: tuple[tuple[int, int, bool], ...] | None) -> tuple[int, ...] | None:
    """A play of ``mover`` from ``before`` as step bytes (``from | pips << 5``, absolute) in a legal order:
    the order ``text`` writes, when it writes one step per die and that order is legal; else the order of
    ``steps`` (a legal play's), else any legal order.  Without ``steps`` the play is resolved on the board
    from ``text`` when it does not write one step per die (``9/2``, ``8/4(2)``).  None when it cannot be
    placed."""
    mine, theirs = before.boards[mover], before.boards[1 - mover]
    dice_list = [dice[0], dice[1]] if dice[0] != dice[1] else [dice[0]] * 4
    legs = plain_legs(text)
    if legs is not None:
        written = [(f, t) for f, t, _h in legs]
        pips = _pips(mine, theirs, written, dice_list)
        if pips is not None and (steps is None or sorted(written) == sorted((f, t) for f, t, _h in steps)):
            return _bytes(written, pips, mover)
    if steps is None:
        from ..play import resolve_play

        try:
            steps = resolve_play(before.replace(turn=mover, dice=dice), text, dice).play.steps
        except (NotationError, ValueError):
            return None
    plain = [(f, t) for f, t, _h in steps]
    pips = _pips(mine, theirs, plain, dice_list)
    if pips is not None:
        return _bytes(plain, pips, mover)
    from itertools import permutations

    for order in permutations(plain):
        pips = _pips(mine, theirs, list(order), dice_list)
        if pips is not None:
            return _bytes(list(order), pips, mover)
    return None


def _pips(mine: tuple[int, ...], theirs: tuple[int, ...], order: list[tuple[int, int]],
          dice: list[int]) -> list[int] | None:
    """The die each step uses, when ``order`` can be played step by step, each step one that the rules
    allow with a die left (:func:`notation.rules.play_legs`); None otherwise."""
    used: list[int] = []
    r = play_legs(mine, theirs, [(f, t, False) for f, t in order], list(dice), whole=False, used=used)
    return None if type(r) is Refusal else used


def _bytes(order: list[tuple[int, int]], pips: list[int], mover: int) -> tuple[int, ...]:
    out = []
    for (f, _t), p in zip(order, pips, strict=True):
        a = f if mover == 1 else (0 if f == 25 else 25 - f)
        out.append(a | p << 5)
    return tuple(out)


def _raw_ply(raw: str) -> bytes | None:
    """A ply the reader kept as hex: its bytes, written as they came; None when they are not one ply OGXM can
    read (a record changed by hand: not hex, no ply, several, a damaged one)."""
    try:
        data = bytes.fromhex(raw)
        plies = W.decode_game(W.encode_game({}, [data]), 0, None)[1]
    except (ValueError, NotationError):
        return None
    return data if len(plies) == 1 else None


class _Convert:
    """The model's figures (normalised equities) as OGXM's: millionths of a match-winning chance through
    the decider's frame of ``met`` (the block's table) at the decision's score and cube (match play), of a
    money equity otherwise (no ``met``);
    probabilities in ten-thousandths.  ``rounded`` counts the figures that do not read back as they are
    (read as the reader reads them: :class:`~notation.formats._ogxm_shared.Units`, ``n / 1e4``), ``clamped``
    the probabilities outside 0 to 1."""

    __slots__ = ("frame", "units", "rounded", "clamped")

    def __init__(self, before: Position, decider: int, met: Met | None) -> None:
        self.rounded = 0
        self.clamped = 0
        if met is None:
            self.frame: tuple[float, float] | None = (0.0, 1.0)
        else:
            length = before.match_length
            mine, theirs = before.score[decider], before.score[1 - decider]
            self.frame = frame(met, length - mine, length - theirs, before.cube, before.crawford)
        self.units = Units(self.frame)

    def eq(self, e: float, *, counted: bool = True) -> int:
        mid, half = self.frame  # type: ignore[misc]
        n = round((mid + e * half) * 1e6)
        if counted and self.units.eq(n) != e:
            self.rounded += 1
        return n

    def delta(self, d: float) -> int:
        n = round(d * self.frame[1] * 1e6)  # type: ignore[index]
        if self.units.delta(n) != d:
            self.rounded += 1
        return n

    def probs(self, p: Probabilities) -> tuple[int, ...]:
        out = []
        for v in (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon):
            n = max(0, min(10000, round(v * 1e4)))
            if n / 1e4 != v:
                if 0 <= v <= 1:
                    self.rounded += 1
                else:
                    self.clamped += 1
            out.append(n)
        return tuple(out)


def _counted(n: int, what: str) -> str:
    """``n`` and the drop line ``what`` of :attr:`_Writer.counts`, its ``[one|more]`` alternatives chosen
    for ``n``: ``1 rejected resignation``, ``2 rejected resignations``."""
    return f"{n} " + _ALTERNATIVES.sub(lambda m: m.group(1 if n == 1 else 2), what)


_ALTERNATIVES = re.compile(r"\[([^|\]]*)\|([^\]]*)\]")


def _resigned_after(steps: list[ReplayStep], i: int, winner: int | None) -> bool:
    """Whether the roll of step ``i``, not played, is followed by its roller's resignation as OGXM writes
    it: a resignation of the roller next (one not rejected), or none written and the game won all the same
    (the writer then writes the loser's resignation)."""
    roller = steps[i].action.player
    rest = [s.action for s in steps[i + 1:] if s.action.kind not in ("win", "loss", "accept")]
    if not rest:
        return winner is not None and winner != roller
    return rest[0].kind == "resign" and rest[0].player == roller and (len(rest) < 2 or rest[1].kind != "reject")


def _resign_value(points: int | None, cube: int) -> int:
    if points and cube and points % cube == 0 and 1 <= points // cube <= 3:
        return points // cube
    return 1


def _tag_key(k: str) -> str:
    """An annotation key for a tag or property ``k``: itself, unless it is one of OGXM's field names (a key
    may not be), then ``x-gammon-notation.<k>``."""
    return OWN_PREFIX + k if k in W.FIELD_NAMES or k.startswith(OWN_PREFIX) else k


_NOT_KEPT = "kept OGXM figure[|s] that [is not a number|are not numbers] OGXM can hold (not written)"
"""The drop line of a figure kept from an OGXM file (an ``ogxm:`` extra of an analysis) that a record
changed by hand no longer holds as a number (:meth:`Writer._kept`)."""


_KEEP_NOT_READ = "kept OGXM section[|s] (ogxm.keep) that [is|are] not one OGXM can read (not written)"
"""The drop line of a section kept from an OGXM file (``ogxm.keep``) that a record changed by hand no longer holds
as one (:meth:`Writer._sections`)."""
_KEPT_KINDS = frozenset(("ANAL", "DECS", "CLCK", "VIDO", "SIGN", "MSIG"))
"""The known sections the reader keeps (``ogxm.keep``) for the writer to write again."""


def _keepable(kind: str) -> bool:
    """Whether ``kind`` is a section type the reader keeps: one of :data:`_KEPT_KINDS`, or an unknown type (four
    printable ASCII characters that are no known section's)."""
    if kind in _KEPT_KINDS:
        return True
    return (len(kind) == 4 and all(0x20 < ord(c) < 0x7F for c in kind)
            and kind.encode("ascii") not in W.KNOWN_SECTIONS and kind.encode("ascii") != W.END)


def _fits(text: str) -> bool:
    """Whether ``text`` fits in an OGXM string (:data:`~notation.formats._ogxm_wire.MAX_STRING` bytes of UTF-8)."""
    return len(text) <= W.MAX_STRING // 4 or len(utf8(text)) <= W.MAX_STRING


def _int(v: str) -> int | None:
    try:
        return int(v.strip())
    except (ValueError, AttributeError):
        return None


def _pair(v: str) -> tuple[int, int] | None:
    m = re.fullmatch(r"\s*([0-9]+)\s*[-,:]\s*([0-9]+)\s*", v)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _instant(v: str) -> int | None:
    """An ISO 8601 date or instant (``2024-08-10``, ``2024-08-10T14:05:00Z``, ...) as milliseconds, UTC; None for
    one OGXM cannot hold (a count of milliseconds of more than 64 bits)."""
    v = v.strip()
    if re.fullmatch(r"[0-9]+", v):
        return int(v) if len(v) <= 20 and int(v) < 1 << 64 else None
    try:
        d = datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        return None
    if d.tzinfo is None:
        d = d.replace(tzinfo=UTC)
    ms = round(d.timestamp() * 1000)
    return ms if ms >= 0 else None


def _event_date(tags: list[tuple[str, str]]) -> int | None:
    """``EventDate`` (``2024.08.10``) and ``EventTime`` (``14.05``) as an instant, UTC."""
    date = next((v for k, v in tags if k.lower() == "eventdate"), None)
    if not date:
        return None
    time = next((v for k, v in tags if k.lower() == "eventtime"), None) or "00:00"
    m = re.fullmatch(r"\s*([0-9]{4})[.\-/]([0-9]{1,2})[.\-/]([0-9]{1,2})\s*", date)
    t = re.fullmatch(r"\s*([0-9]{1,2})[.:]([0-9]{2})\s*", time)
    if m is None:
        return None
    try:
        d = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), int(t.group(1)) if t else 0,
                     int(t.group(2)) if t else 0, tzinfo=UTC)
    except ValueError:
        return None
    return round(d.timestamp() * 1000)


def _on_boundary(ms: int | None, precision: int) -> bool:
    if ms is None or ms % _DAY:
        return False
    if precision not in (1, 2):
        return True
    d = datetime.fromtimestamp(ms // 1000, UTC)
    return d.day == 1 and (precision == 2 or d.month == 1)


def _same(a: Match, b: Match) -> bool:
    """The two matches hold the same record, as far as an OGXM file can say (not where they were read
    from, nor the text of each cell, nor the locations)."""
    if (a.length, a.names, a.rules, a.tags, a.comments) != (b.length, b.names, b.rules, b.tags, b.comments):
        return False
    pa = {k: v for k, v in a.properties.items() if k != RAW_KEY}
    pb = {k: v for k, v in b.properties.items() if k != RAW_KEY}
    if pa != pb or len(a.games) != len(b.games):
        return False
    for ga, gb in zip(a.games, b.games, strict=True):
        if (ga.number, ga.score, ga.names, ga.start, ga.crawford, ga.comments, ga.properties) != (
                gb.number, gb.score, gb.names, gb.start, gb.crawford, gb.comments, gb.properties):
            return False
        if len(ga.actions) != len(gb.actions):
            return False
        for x, y in zip(ga.actions, gb.actions, strict=True):
            if (x.kind, x.player, x.dice, x.play, x.no_move, x.value, x.comment, x.setup, x.properties,
                    x.analysis) != (y.kind, y.player, y.dice, y.play, y.no_move, y.value, y.comment, y.setup,
                                    y.properties, y.analysis):
                return False
    return True
