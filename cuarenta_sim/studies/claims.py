"""Claims: report sentences built from evidence, and the checker that refuses overclaims.

A report's answers are not free prose. Each sentence is a :class:`Claim`: a template, the
values it fills in, the evidence rows those values come from (:class:`Evidence`: a table, a
row id and the row's values and verdict), the test and its adjusted verdict, the scope it rests
on (:class:`Scope`: player models, player counts, rules, sizes) and its caveats.
:func:`render_claim` turns a claim into its sentence; :func:`check_claims` reads the rendered
sentences back, as a careful reader would, and raises :class:`ClaimError` listing every problem
(one line each, with its kind) when the words outrun the evidence:

``number``
    A number printed in the sentence (parsed from the rendered text, not only from the template
    values) matches no evidence value after rounding to the printed precision. Signs are
    ignored (a sentence may say "lowers by 0.20" for an estimate of -0.20). Numbers that are
    part of a name (``learned_v2``, ``R5.2``) are not numbers; player counts (``2 players``,
    ``4p``) are checked against the scope instead, "N of M" agreement counts by the
    ``agreement`` kind, and stated settings (a confidence level, a margin) must be listed in
    the claim's ``constants``.
``verdict``
    A verdict word of :data:`VERDICT_PHRASES` in the sentence is supported by no evidence row
    (e.g. "resolved" where every row is "not resolved", "helps" where the estimate is
    negative), or disagrees with the claim's own verdict.
``scope``
    The sentence generalises past its scope: a number from one model's rows without that
    model named (every sentence naming a number names its model), a model or rule set named
    that is not in the scope, a player count not in the scope, a single player count left
    unnamed, or "all models" / "every model" on a one-model scope.
``agreement``
    An "N of M" count (e.g. "same sign in 3 of 4 models") that disagrees with the evidence rows
    of role ``"agreement"``: rows labelled :data:`TOO_SMALL` are never counted, for or against.
``interval``
    An interval that contradicts its verdict when the interval is meant to be verdict-compatible
    (``Evidence.interval_matches_verdict``): "not resolved" with an interval excluding 0,
    "resolved" with one containing 0; and, whatever the interval kind, a sentence saying the
    interval contains 0 when it does not (or excludes 0 when it does not).
``evidence``
    An evidence row that is not in the report's tables, or whose values differ from the table
    (only when ``tables`` are given to :func:`check_claims`), or a claim without evidence.
``template``
    A template that does not render from its values.

This module is part of the shared layer: it never imports a game. Verdict words are the
project's (see :mod:`cuarenta_sim.verdicts`); the label :data:`TOO_SMALL` is the one the
verdict code gives a run too small to detect the stated difference.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..io import write_text_atomic

#: Label of a run too small to detect the difference a claim states (never counted for or
#: against agreement).
TOO_SMALL = "too small to tell"

#: Verdict phrases a sentence may use, longest first (a longer phrase hides the shorter ones
#: inside it: "not resolved" is not also "resolved").
VERDICT_PHRASES: tuple[str, ...] = (
    "resolved, possibly negligible",
    "too small to tell",
    "not resolved",
    "no difference",
    "never binds",
    "negligible",
    "identical",
    "resolved",
    "helps",
    "hurts",
    "help",
    "hurt",
)

#: For each phrase, the evidence verdicts (the part before any ":") that support it.
_SUPPORTS: dict[str, frozenset[str]] = {
    "resolved, possibly negligible": frozenset({"resolved, possibly negligible"}),
    "too small to tell": frozenset({TOO_SMALL}),
    "not resolved": frozenset({"not resolved"}),
    "no difference": frozenset({"no difference", "identical", "negligible", "never binds"}),
    "never binds": frozenset({"never binds"}),
    "negligible": frozenset({"negligible", "resolved, possibly negligible"}),
    "identical": frozenset({"identical"}),
    "resolved": frozenset({"resolved", "resolved, possibly negligible", "helps", "hurts"}),
    "helps": frozenset({"helps"}),
    "hurts": frozenset({"hurts"}),
    "help": frozenset({"helps"}),
    "hurt": frozenset({"hurts"}),
}

_RESOLVED = frozenset({"resolved", "resolved, possibly negligible", "helps", "hurts"})

#: Verdicts a claim may carry besides the phrases: "mixed" for a sentence that reports rows
#: with different verdicts (each word is then checked against the rows only), "" for a
#: sentence that states no verdict (a count, an exact value).
CLAIM_VERDICTS = (*VERDICT_PHRASES, "undefined", "mixed", "")

#: Problem kinds reported by :func:`check_claims`.
KINDS = ("number", "verdict", "scope", "agreement", "interval", "evidence", "template")

_ALL_MODELS = re.compile(r"\b(?:all|every|any|each)\s+(?:\w+\s+)?(?:models?|players?)\b", re.I)
_IDENT = re.compile(r"(?<![0-9])[A-Za-z_][A-Za-z0-9_]*(?:[.][0-9]+)*")
_NUMBER = re.compile(r"(?<![\w.])[-\u2212+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_PLAYERS = re.compile(
    r"((?:\d+\s*(?:,|and|or|&)\s*)*\d+)\s*(?:-|\u2011)?\s*(?:players?\b|p\b|player\b)", re.I
)
_OF = re.compile(
    r"\b(?:same sign|agree(?:s|ing)?|sign agrees?|consistent|the same direction)\s+in\s+"
    r"(\d+)\s+of\s+(?:the\s+)?(\d+)\b"
    r"|\b(\d+)\s+of\s+(?:the\s+)?(\d+)\s+(?:\w+\s+)?(?:agree|share|have the same)",
    re.I,
)
_CONTAINS_ZERO = re.compile(r"\b(?:contains?|includes?|covers?|spans?)\s+(?:0|zero)\b", re.I)
_EXCLUDES_ZERO = re.compile(
    r"\b(?:excludes?|(?:does not|doesn't) (?:contain|include))\s+(?:0|zero)\b", re.I
)


class ClaimError(ValueError):
    """A report's claims failed :func:`check_claims`.

    Attributes
    ----------
    problems : list of tuple (claim id, kind, message)
        Every problem found, in claim order; ``kind`` is one of :data:`KINDS`.
    """

    def __init__(self, problems: Sequence[tuple[str, str, str]]) -> None:
        self.problems = list(problems)
        lines = [f"{cid} [{kind}]: {msg}" for cid, kind, msg in self.problems]
        super().__init__(
            f"{len(self.problems)} claim problem(s); a report whose sentences outrun its "
            "tables is refused:\n  " + "\n  ".join(lines)
        )

    @property
    def kinds(self) -> set[str]:
        """The set of problem kinds found."""
        return {kind for _, kind, _ in self.problems}


@dataclass(frozen=True)
class Evidence:
    """One row of a report table that a claim rests on.

    Parameters
    ----------
    table : str
        Table id within the report (e.g. ``"panel"``).
    row : str
        Row id within the table (key columns joined by ``"|"``, e.g.
        ``"datas per chica|2|learned"``).
    values : mapping str -> float or int
        The row's values in the units the report prints (a percentage as a percentage), e.g.
        ``estimate``, ``lower``, ``upper``, ``n``, ``p_adj``.
    verdict : str
        The row's adjusted verdict as the verdict code labels it (``"resolved"``,
        ``"not resolved"``, :data:`TOO_SMALL`, ``"resolved: cuenca higher"``...); empty when
        the row is a plain value (an exact odd, a count).
    model : str
        The player model the row was measured under (empty when it does not depend on one,
        e.g. an exact value).
    role : str
        ``"agreement"`` for a run counted by an "N of M" statement; empty otherwise.
    interval_matches_verdict : bool
        True when ``lower``/``upper`` are meant to agree with ``verdict`` (simultaneous or
        test-inverted intervals); then an interval that contradicts the verdict is an error.
    scale : mapping str -> float
        Factor from a value's table unit to its printed unit, per key (``{"relative": 100}``
        when the table holds a fraction and the sentence prints a percentage); default 1.
        Values stay as the table holds them, so they can be checked against the table.
    """

    table: str
    row: str
    values: Mapping[str, float] = field(default_factory=dict)
    verdict: str = ""
    model: str = ""
    role: str = ""
    interval_matches_verdict: bool = False
    scale: Mapping[str, float] = field(default_factory=dict)

    def printed(self) -> list[float]:
        """Every value in its printed unit (value times its :attr:`scale`); non-numbers left out."""
        out = []
        for key, v in self.values.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            out.append(float(v) * float(self.scale.get(key, 1.0)))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (values as plain floats/ints)."""
        return {
            "table": self.table,
            "row": self.row,
            "values": {k: _plain(v) for k, v in self.values.items()},
            "scale": {k: _plain(v) for k, v in self.scale.items()},
            "verdict": self.verdict,
            "model": self.model,
            "role": self.role,
            "interval_matches_verdict": self.interval_matches_verdict,
        }


@dataclass(frozen=True)
class Scope:
    """What a claim rests on: the player models, player counts, rules and sizes of its runs.

    Parameters
    ----------
    models : tuple of str
        Player models (policy labels as the report prints them). A claim whose numbers come
        from one model must name it.
    players : tuple of int
        Player counts (2, 4). A player count the sentence names must be one of them; with a
        single count, the sentence must name it when it prints a number.
    rules : tuple of str
        Rule sets (``quito``, ``cuenca``...). A rule set the sentence names must be one of them
        (rule names known to the check are the union of all scopes checked together).
    sizes : mapping str -> int
        Run sizes (``{"datas": 1_000_000}``); a size may be printed in the sentence.
    """

    models: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    rules: tuple[str, ...] = ()
    sizes: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "models": list(self.models),
            "players": [int(p) for p in self.players],
            "rules": list(self.rules),
            "sizes": {k: _plain(v) for k, v in self.sizes.items()},
        }


@dataclass(frozen=True)
class Claim:
    """One answer sentence of a report, with what it rests on.

    Parameters
    ----------
    id : str
        Stable id (``"qc.headline.2p"``), unique within a report.
    template : str
        :meth:`str.format` template of the sentence (e.g. ``"... by {rel:.2f}% ..."``).
    values : mapping
        Values the template fills in (numbers in printed units, names).
    evidence : tuple of Evidence
        The table rows the sentence rests on; every printed number must be one of their values.
    test : str
        The test and adjustment behind the verdict (``"paired delta method, Holm over 11
        metrics"``); empty for exact values.
    verdict : str
        The claim's verdict, one of :data:`CLAIM_VERDICTS`.
    scope : Scope
        Models, player counts, rules and sizes the claim rests on.
    caveats : tuple of str
        What the sentence does not cover (printed in claims.json; may be printed in the report).
    constants : mapping str -> float
        Stated settings the sentence may print that are not evidence (a confidence level, a
        margin), each named by what it is.
    direction : int
        For "N of M" agreement counts: +1 counts rows with a positive estimate, -1 negative,
        0 the majority sign among the counted rows.
    """

    id: str
    template: str
    values: Mapping[str, Any] = field(default_factory=dict)
    evidence: tuple[Evidence, ...] = ()
    test: str = ""
    verdict: str = ""
    scope: Scope = field(default_factory=Scope)
    caveats: tuple[str, ...] = ()
    constants: Mapping[str, float] = field(default_factory=dict)
    direction: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: id, sentence, evidence, test, verdict, scope, caveats, constants.

        Raises
        ------
        ClaimError
            If the template does not render (kind ``template``).
        """
        return {
            "id": self.id,
            "sentence": render_claim(self),
            "evidence": [e.to_dict() for e in self.evidence],
            "test": self.test,
            "verdict": self.verdict,
            "scope": self.scope.to_dict(),
            "caveats": list(self.caveats),
            "constants": {k: _plain(v) for k, v in self.constants.items()},
        }


def render_claim(claim: Claim) -> str:
    """The sentence of a claim: its template formatted with its values.

    Raises
    ------
    ClaimError
        If the template names a value the claim does not have or cannot format it
        (kind ``template``).
    """
    try:
        return claim.template.format(**claim.values)
    except (KeyError, IndexError, ValueError, TypeError) as exc:
        raise ClaimError([(claim.id, "template", f"template does not render: {exc!r}")]) from None


def check_claims(
    claims: Sequence[Claim],
    tables: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
    *,
    known_models: Iterable[str] = (),
    known_rules: Iterable[str] = (),
) -> None:
    """Check every claim's rendered sentence against its evidence; raise listing every problem.

    Parameters
    ----------
    claims : sequence of Claim
        The report's claims (ids must be unique).
    tables : mapping table id -> (row id -> {column: value}), optional
        The report's tables; when given, every evidence row must be found there with equal
        values (relative tolerance 1e-9). :func:`table_rows` builds one from a DataFrame.
    known_models, known_rules : iterable of str
        Model and rule names that count as named when they appear in a sentence, in addition
        to the union of the claims' scopes.

    Raises
    ------
    ClaimError
        Listing every problem with its kind (:data:`KINDS`); see the module docstring.
    """
    problems: list[tuple[str, str, str]] = []
    models = {m for c in claims for m in c.scope.models} | set(known_models)
    models |= {e.model for c in claims for e in c.evidence if e.model}
    rules = {r for c in claims for r in c.scope.rules} | set(known_rules)
    seen: set[str] = set()
    for claim in claims:
        if claim.id in seen:
            problems.append((claim.id, "evidence", "duplicate claim id"))
        seen.add(claim.id)
        try:
            sentence = render_claim(claim)
        except ClaimError as exc:
            problems.extend(exc.problems)
            continue
        problems.extend(_check_one(claim, sentence, tables, models, rules))
    if problems:
        raise ClaimError(problems)


def claim_problems(claims: Sequence[Claim], **kwargs: Any) -> list[tuple[str, str, str]]:
    """The problems :func:`check_claims` would raise, as a list (empty when all pass)."""
    try:
        check_claims(claims, **kwargs)
    except ClaimError as exc:
        return exc.problems
    return []


def table_rows(frame: Any, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Row-id -> values mapping of a DataFrame, the row id being ``keys`` joined by ``"|"``.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (any columns).
    keys : sequence of str
        Columns whose values, as text, form the row id.
    """
    out: dict[str, dict[str, Any]] = {}
    for rec in frame.to_dict("records"):
        out["|".join(str(rec[k]) for k in keys)] = rec
    return out


def write_claims(claims: Sequence[Claim], path: str | Path) -> Path:
    """Write the claims as JSON (a list of :meth:`Claim.to_dict`) atomically; return the path."""
    path = Path(path)
    text = json.dumps([c.to_dict() for c in claims], indent=2, ensure_ascii=False) + "\n"
    write_text_atomic(path, text)
    return path


# ---------------------------------------------------------------------------------- checking
def _check_one(
    claim: Claim,
    sentence: str,
    tables: Mapping[str, Mapping[str, Mapping[str, Any]]] | None,
    models: set[str],
    rules: set[str],
) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []

    def bad(kind: str, msg: str) -> None:
        out.append((claim.id, kind, f"{msg} -- in: {sentence!r}"))

    if not claim.evidence:
        bad("evidence", "a claim without evidence rows")
    if claim.verdict not in CLAIM_VERDICTS and _base(claim.verdict) not in CLAIM_VERDICTS:
        bad("verdict", f"unknown claim verdict {claim.verdict!r}; accepted: {CLAIM_VERDICTS}")
    if tables is not None:
        for ev in claim.evidence:
            msg = _evidence_in_tables(ev, tables)
            if msg:
                bad("evidence", msg)

    # names are not numbers: strip identifiers (learned_v2, R5.2, P1) before parsing numbers
    lower = sentence.lower()
    named_models = {m for m in models if _mentions(lower, m)}
    stripped = sentence
    for name in sorted(models | rules, key=len, reverse=True):  # names are not numbers
        for m in _name_pattern(name).finditer(stripped):
            stripped = stripped[: m.start()] + " " * (m.end() - m.start()) + stripped[m.end() :]
    stripped = _IDENT.sub(lambda m: " " * len(m.group(0)), stripped)

    # player counts
    player_spans: list[tuple[int, int]] = []
    counts_named: set[int] = set()
    for m in _PLAYERS.finditer(sentence):
        player_spans.append(m.span(1))
        for tok in re.findall(r"\d+", m.group(1)):
            counts_named.add(int(tok))
    for p in sorted(counts_named):
        if claim.scope.players and p not in claim.scope.players:
            bad(
                "scope",
                f"names {p} players, outside the scope's player counts {claim.scope.players}",
            )
    # agreement counts
    of_spans: list[tuple[int, int]] = []
    for m in _OF.finditer(sentence):
        of_spans.append(m.span())
        out.extend(
            (claim.id, k, f"{msg} -- in: {sentence!r}")
            for k, msg in _check_agreement(claim, int(m.group(1)), int(m.group(2)))
        )

    # numbers
    number_models: set[str] = set()
    printed_numbers = False
    for m in _NUMBER.finditer(stripped):
        if any(a <= m.start() < b for a, b in player_spans + of_spans):
            continue
        text = m.group(0)
        printed = abs(float(text.replace(",", "").replace("\u2212", "-")))
        decimals = _decimals(text)
        rows = [
            ev for ev in claim.evidence if any(_matches(v, printed, decimals) for v in ev.printed())
        ]
        if rows:
            printed_numbers = True
            row_models = {ev.model for ev in rows}
            if all(row_models) and not (row_models & named_models):
                number_models |= row_models
            continue
        if any(_matches(v, printed, decimals) for v in claim.constants.values()):
            continue
        if any(_matches(v, printed, decimals) for v in claim.scope.sizes.values()):
            continue
        bad(
            "number",
            f"{text} is in no evidence row (rounded to {decimals} decimals) nor a stated constant",
        )
    for model in sorted(number_models):
        bad("scope", f"a number from model {model!r} is stated without naming the model")

    # scope: models, rules, player counts
    for model in sorted(named_models):
        if (
            claim.scope.models
            and model not in claim.scope.models
            and not any(model in s for s in claim.scope.models)
        ):
            bad("scope", f"names model {model!r}, outside the scope's models {claim.scope.models}")
    if (
        len(claim.scope.models) == 1
        and printed_numbers
        and not named_models & set(claim.scope.models)
    ):
        bad(
            "scope",
            f"a single-model number stated without naming its model {claim.scope.models[0]!r}",
        )
    if len(claim.scope.models) < 2 and _ALL_MODELS.search(sentence):
        bad("scope", "speaks of all models on a scope of fewer than two models")
    for rule in sorted(rules):
        if _mentions(lower, rule) and claim.scope.rules and rule not in claim.scope.rules:
            bad("scope", f"names rule set {rule!r}, outside the scope's rules {claim.scope.rules}")
    if len(claim.scope.players) == 1 and printed_numbers and not counts_named:
        bad(
            "scope",
            f"a {claim.scope.players[0]}-player number stated without naming the player count",
        )

    # verdict words
    out.extend(
        (claim.id, k, f"{msg} -- in: {sentence!r}") for k, msg in _check_verdicts(claim, lower)
    )
    # intervals
    out.extend(
        (claim.id, k, f"{msg} -- in: {sentence!r}") for k, msg in _check_intervals(claim, sentence)
    )
    return out


def _check_verdicts(claim: Claim, lower: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    words = verdict_words(lower)
    ev_verdicts = [_row_verdict(ev) for ev in claim.evidence]
    for word in words:
        if not any(_supports(word, v) for v in ev_verdicts):
            out.append(
                ("verdict", f"says {word!r} but no evidence row supports it (rows: {ev_verdicts})")
            )
        base = _base(claim.verdict)
        if base not in ("mixed", "") and not _supports(word, base) and word != base:
            out.append(("verdict", f"says {word!r} but the claim's verdict is {claim.verdict!r}"))
    base = _base(claim.verdict)
    supported = any(_supports(base, v) or base == v for v in ev_verdicts)
    if base not in ("mixed", "", "undefined") and claim.evidence and not supported:
        msg = f"claim verdict {claim.verdict!r} is supported by no evidence row {ev_verdicts}"
        out.append(("verdict", msg))
    return out


def _check_agreement(claim: Claim, n: int, m: int) -> list[tuple[str, str]]:
    rows = [ev for ev in claim.evidence if ev.role == "agreement"]
    if not rows:
        return [("agreement", f"states '{n} of {m}' but no evidence row has role 'agreement'")]
    counted = [ev for ev in rows if _base(ev.verdict) not in (TOO_SMALL, "undefined")]
    agree, _ = count_agreement(
        [ev.verdict for ev in counted],
        [ev.values.get("estimate", math.nan) for ev in counted],
        claim.direction,
    )
    out: list[tuple[str, str]] = []
    small = [ev.row for ev in rows if _base(ev.verdict) == TOO_SMALL]
    if m != len(counted):
        why = f" (runs labelled {TOO_SMALL!r} are never counted: {small})" if small else ""
        out.append(
            ("agreement", f"'{n} of {m}' counts {m} runs; {len(counted)} may be counted{why}")
        )
    if n != agree:
        msg = f"'{n} of {m}': {agree} of the counted runs are resolved with the stated sign"
        out.append(("agreement", msg))
    return out


def _check_intervals(claim: Claim, sentence: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    says_contains = bool(_CONTAINS_ZERO.search(sentence))
    says_excludes = bool(_EXCLUDES_ZERO.search(sentence))
    for ev in claim.evidence:
        lo, hi = ev.values.get("lower"), ev.values.get("upper")
        if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
            continue
        contains = lo <= 0.0 <= hi
        base = _row_verdict(ev)
        if ev.interval_matches_verdict:
            if base == "not resolved" and not contains:
                out.append(
                    (
                        "interval",
                        f"row {ev.row!r} is 'not resolved' but its interval [{lo}, {hi}] excludes 0",  # noqa: E501
                    )
                )
            if base in ("resolved", "helps", "hurts") and contains:
                out.append(
                    (
                        "interval",
                        f"row {ev.row!r} is {base!r} but its interval [{lo}, {hi}] contains 0",
                    )
                )
        if says_contains and not contains and len(claim.evidence) == 1:
            out.append(("interval", f"says the interval contains 0 but [{lo}, {hi}] does not"))
        if says_excludes and contains and len(claim.evidence) == 1:
            out.append(("interval", f"says the interval excludes 0 but [{lo}, {hi}] contains it"))
    return out


def verdict_words(text: str) -> list[str]:
    """Verdict phrases of :data:`VERDICT_PHRASES` found in ``text``, longest phrase first wins.

    Each occurrence masks its span, so "not resolved" is not also read as "resolved".
    """
    lower = text.lower()
    found: list[str] = []
    for phrase in VERDICT_PHRASES:
        pattern = re.compile(r"(?<![\w-])" + re.escape(phrase) + r"(?![\w-])")
        while True:
            m = pattern.search(lower)
            if not m:
                break
            found.append(phrase)
            lower = lower[: m.start()] + "#" * (m.end() - m.start()) + lower[m.end() :]
    return found


def count_agreement(
    verdicts: Sequence[str], estimates: Sequence[float], direction: int = 0
) -> tuple[int, int]:
    """(agreeing, counted) runs of an "N of M" statement ("same sign in N of M models").

    Runs labelled :data:`TOO_SMALL` or ``"undefined"`` are not counted at all (neither in N
    nor in M); a counted run agrees when its verdict is resolved (``resolved``, ``helps``,
    ``hurts``, ``resolved, possibly negligible``) and its estimate has the stated sign.

    Parameters
    ----------
    verdicts, estimates : sequences of the same length
        Each run's verdict label and estimate.
    direction : int
        +1 or -1: the sign counted as agreeing; 0: the commoner sign among the resolved runs.

    Raises
    ------
    ValueError
        If the lengths differ.
    """
    if len(verdicts) != len(estimates):
        raise ValueError(f"{len(verdicts)} verdicts for {len(estimates)} estimates")
    pairs = [
        (_base(v), _sign(e))
        for v, e in zip(verdicts, estimates, strict=True)
        if _base(v) not in (TOO_SMALL, "undefined")
    ]
    signs = [sg for v, sg in pairs if v in _RESOLVED]
    if direction == 0:
        direction = 1 if signs.count(1) >= signs.count(-1) else -1
    return sum(1 for sg in signs if sg == direction), len(pairs)


# ---------------------------------------------------------------------------------- helpers
def _base(verdict: str) -> str:
    v = verdict.strip().lower()
    if v.startswith("resolved, possibly negligible"):
        return "resolved, possibly negligible"
    return v.split(":")[0].strip()


def _row_verdict(ev: Evidence) -> str:
    return _base(ev.verdict)


def _supports(word: str, verdict: str) -> bool:
    if word == verdict:
        return True
    return verdict in _SUPPORTS.get(word, frozenset())


def _sign(x: float) -> int:
    if not isinstance(x, (int, float)) or not math.isfinite(x) or x == 0:
        return 0
    return 1 if x > 0 else -1


def _decimals(text: str) -> int:
    """Printed precision as a power of ten: 2 for ``"6.02"``, 52 for ``"2.7e-51"``."""
    mant, _, exp = text.lower().partition("e")
    dec = len(mant.split(".")[1]) if "." in mant else 0
    return dec - int(exp) if exp else dec


def _matches(value: Any, printed: float, decimals: int) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    v = abs(float(value))
    if not math.isfinite(v):
        return False
    return abs(v - printed) <= 0.5 * 10.0 ** (-decimals) * (1 + 1e-9) + 1e-300


def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])", re.I)


def _mentions(lower: str, name: str) -> bool:
    return _name_pattern(name).search(lower) is not None


def _evidence_in_tables(ev: Evidence, tables: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    if ev.table not in tables:
        return f"evidence table {ev.table!r} is not a table of the report ({sorted(tables)})"
    rows = tables[ev.table]
    if ev.row not in rows:
        return f"evidence row {ev.row!r} is not in table {ev.table!r}"
    row = rows[ev.row]
    for key, value in ev.values.items():
        if key not in row:
            return f"evidence value {key!r} is not a column of {ev.table}/{ev.row}"
        have = row[key]
        try:
            if not math.isclose(float(have), float(value), rel_tol=1e-9, abs_tol=1e-12):
                return f"evidence {ev.table}/{ev.row} {key} = {value!r} but the table has {have!r}"
        except (TypeError, ValueError):
            if have != value:
                return f"evidence {ev.table}/{ev.row} {key} = {value!r} but the table has {have!r}"
    return ""


def _plain(v: Any) -> Any:
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return int(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return v
    if f.is_integer() and abs(f) < 2**53 and not isinstance(v, float):
        return int(f)
    return f if math.isfinite(f) else None
