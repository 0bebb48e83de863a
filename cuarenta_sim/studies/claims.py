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
    "resolved" with one containing 0; a resolved row whose interval excludes 0 printed with a
    bound reading 0 (``[0.00, 0.41]``); and, whatever the interval kind, a sentence saying the
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..io import write_text_atomic
from .claim_checks import (
    CLAIM_VERDICTS,
    KINDS,
    TOO_SMALL,
    VERDICT_PHRASES,
    check_one,
    count_agreement,
    verdict_words,
)

__all__ = [
    "CLAIM_VERDICTS",
    "KINDS",
    "TOO_SMALL",
    "VERDICT_PHRASES",
    "Claim",
    "ClaimError",
    "Evidence",
    "Scope",
    "check_claims",
    "claim_problems",
    "count_agreement",
    "render_claim",
    "table_rows",
    "verdict_words",
    "write_claims",
]


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
        The report's tables; every evidence row of one of these tables must be found there
        with equal values (relative tolerance 1e-9); evidence of other tables (derived
        counts) is not looked up. :func:`table_rows` builds one from a DataFrame.
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
        problems.extend(check_one(claim, sentence, tables, models, rules))
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
