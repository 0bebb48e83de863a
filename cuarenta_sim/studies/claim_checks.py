"""The checker behind :func:`cuarenta_sim.studies.claims.check_claims`: reading a rendered
sentence back as a careful reader would (numbers, verdict words, scope, agreement counts,
intervals), and the verdict vocabulary it knows.

Split from :mod:`.claims` (which holds the data model and the public entry points) to keep
both modules short; every public name here is re-exported there. Game-independent.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .claims import Claim, Evidence

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

#: Aggregate label of a claim whose sentence reports rows with different verdicts, distinct
#: from a row's own verdict word "mixed" (a tactic whose evidence disagrees).
SEVERAL_VERDICTS = "several verdicts"
#: Verdicts a claim may carry besides the phrases: "mixed" or :data:`SEVERAL_VERDICTS` for a
#: sentence that reports rows with different verdicts (each word is then checked against the
#: rows only), "" for a sentence that states no verdict (a count, an exact value).
CLAIM_VERDICTS = (*VERDICT_PHRASES, "undefined", "mixed", SEVERAL_VERDICTS, "")

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
#: A printed interval ``[lower, upper]`` (units such as ``%`` or `` pp`` allowed after a bound).
_BRACKET = re.compile(
    r"\[\s*([-+\u2212]?\d[\d,]*(?:\.\d+)?)[^\d,\]]*,\s*([-+\u2212]?\d[\d,]*(?:\.\d+)?)[^\d\]]*\]"
)
_CONTAINS_ZERO = re.compile(r"\b(?:contains?|includes?|covers?|spans?)\s+(?:0|zero)\b", re.I)
_EXCLUDES_ZERO = re.compile(
    r"\b(?:excludes?|(?:does not|doesn't) (?:contain|include))\s+(?:0|zero)\b", re.I
)


def check_one(
    claim: Claim,
    sentence: str,
    tables: Mapping[str, Mapping[str, Mapping[str, Any]]] | None,
    models: set[str],
    rules: set[str],
) -> list[tuple[str, str, str]]:
    """Every problem of one claim's rendered ``sentence``: (claim id, kind, message) tuples.

    ``models`` and ``rules`` are the names known across the report (a name outside the
    claim's scope is an overclaim; names are never read as numbers). ``tables``, when given,
    must hold every evidence row. See :mod:`cuarenta_sim.studies.claims` for the kinds.
    """
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
        if (
            base not in ("mixed", SEVERAL_VERDICTS, "")
            and not _supports(word, base)
            and (word != base)
        ):
            out.append(("verdict", f"says {word!r} but the claim's verdict is {claim.verdict!r}"))
    base = _base(claim.verdict)
    supported = any(_supports(base, v) or base == v for v in ev_verdicts)
    if (
        base not in ("mixed", SEVERAL_VERDICTS, "", "undefined")
        and claim.evidence
        and (not supported)
    ):
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
        if base in ("resolved", "helps", "hurts") and not contains:
            k = float(ev.scale.get("lower", 1.0))
            for a, b in _BRACKET.findall(sentence):
                pa, pb = (float(x.replace(",", "").replace("\u2212", "-")) for x in (a, b))
                if 0.0 not in (pa, pb):
                    continue
                da, db = _decimals(a.lstrip("-+\u2212")), _decimals(b.lstrip("-+\u2212"))
                tol_a, tol_b = 0.5 * 10.0**-da * (1 + 1e-9), 0.5 * 10.0**-db * (1 + 1e-9)
                if abs(lo * k - pa) <= tol_a and abs(hi * k - pb) <= tol_b:
                    out.append(
                        (
                            "interval",
                            f"row {ev.row!r} is {base!r} (its interval [{lo}, {hi}] excludes 0) "
                            f"but the sentence prints it as [{a}, {b}], a bound reading 0",
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
        return ""  # a derived count, not a row of a looked-up table
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
