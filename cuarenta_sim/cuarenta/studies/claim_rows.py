"""Claims of the rule studies built from their differences tables (issue 18 item 1).

The answer sentences of quito-vs-cuenca, sensitivity and odds are
:class:`~cuarenta_sim.studies.claims.Claim` objects whose evidence rows are rows of the
report's tables; these helpers turn a differences row (:func:`.common.apply_verdicts`) into
:class:`~cuarenta_sim.studies.claims.Evidence` with the units the sentence prints, and word the
"across models" part of a sentence so that every number names its model and an agreement
count never counts a run labelled "too small to tell"
(:data:`cuarenta_sim.studies.claims.TOO_SMALL`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...reports import format_number
from ...studies.claims import TOO_SMALL, Evidence, count_agreement
from .common import is_percent

#: Columns of a differences row copied into its evidence (when present and numeric).
DIFF_COLUMNS = (
    "estimate",
    "lower",
    "upper",
    "relative",
    "relative_lower",
    "relative_upper",
    "differing",
    "n",
    "p_adjusted",
    "p_value",
    "margin",
    "family_size",
)


def model_name(label: str) -> str:
    """The model's name as a sentence says it: the label without ``" (confirm)"``."""
    return str(label).replace(" (confirm)", "")


def row_id(row: Any, keys: Sequence[str]) -> str:
    """Row id of a table row: the ``keys`` columns joined by ``"|"``."""
    return "|".join(str(row[k]) for k in keys)


def diff_evidence(
    row: Any,
    *,
    table: str = "differences",
    keys: Sequence[str] = ("metric", "players", "model"),
    role: str = "agreement",
) -> Evidence:
    """Evidence of one differences row, in the units its sentence prints.

    Parameters
    ----------
    row : mapping
        A differences row with a ``verdict`` (and ``model`` when ``keys`` name it).
    table : str
        The report table it is a row of.
    keys : sequence of str
        Columns that identify the row in that table.
    role : str
        ``"agreement"`` when it may be counted in a "same sign in N of M models" statement.

    Returns
    -------
    Evidence
        ``relative*`` columns scaled by 100 (printed in %), and the estimate and bounds of a
        percentage metric (:func:`.common.is_percent`) too (printed in pp).
    """
    values = {}
    for col in DIFF_COLUMNS:
        if col in row and isinstance(row[col], (int, float, np.integer, np.floating)):
            v = float(row[col])
            if np.isfinite(v):
                values[col] = v
    scale = {c: 100.0 for c in ("relative", "relative_lower", "relative_upper")}
    if "metric" in row and is_percent(str(row["metric"])):
        scale.update({c: 100.0 for c in ("estimate", "lower", "upper", "margin")})
    return Evidence(
        table=table,
        row=row_id(row, keys),
        values=values,
        verdict=str(row["verdict"]),
        model=model_name(row["model"]) if "model" in row else "",
        role=role,
        scale=scale,
        # Printed intervals are at the level the row's Holm step tested it
        # (verdict_intervals.py): "resolved" iff the interval excludes 0, checked.
        interval_matches_verdict=True,
    )


def resolved(verdict: str) -> bool:
    """Whether a verdict resolves an effect (``resolved`` or ``resolved: ...``)."""
    return str(verdict).startswith("resolved")


def _names(rows: Any, names: Mapping[str, str] | None) -> list[str]:
    """Each row's model as a sentence names it: ``names[label]`` when given (e.g. the
    confirmatory run as ``"solver(samples=128) on 707 chicas"``), else :func:`model_name`."""
    return [(names or {}).get(str(m), model_name(m)) for m in rows["model"]]


def across_models(rows: Any, *, relative: bool, names: Mapping[str, str] | None = None) -> str:
    """How the models agree on one effect, every number beside its model's name.

    Parameters
    ----------
    rows : DataFrame
        One differences row per model (``model``, ``estimate``, ``relative``, ``verdict``).
    relative : bool
        Sizes as relative changes in %; else as the estimate (pp for a percentage metric).
    names : mapping of str to str, optional
        Model label -> the name a sentence gives it (default :func:`model_name`).

    Returns
    -------
    str
        ``"same sign in 3 of 3 models (from -5.8% under heuristic to -8.8% under greedy);
        too small to tell: solver"``: runs labelled "too small to tell" are named apart and
        never counted; not-resolved, negligible and identical runs are counted in M only.
    """
    verdicts = [str(v) for v in rows["verdict"]]
    est = [float(e) for e in rows["estimate"]]
    names = _names(rows, names)
    agree, counted = count_agreement(verdicts, est)
    res = [i for i, v in enumerate(verdicts) if resolved(v)]
    pos = sum(1 for i in res if est[i] > 0)
    sign = 1 if pos >= len(res) - pos else -1
    main = [i for i in res if np.sign(est[i]) == sign]
    parts = []
    if counted == 0:
        parts.append("no model large enough to tell")
    elif not main:
        parts.append("no model resolves it")
    else:
        pct = "metric" in rows and is_percent(str(rows["metric"].iloc[0]))
        rel = [float(rows["relative"].iloc[i]) for i in main]
        relative = relative and bool(np.isfinite(rel).all())
        vals = (
            [float(rows["relative"].iloc[i]) * 100.0 for i in main]
            if relative
            else [est[i] * (100.0 if pct else 1.0) for i in main]
        )
        unit = "%" if relative else (" pp" if pct else "")
        dec = 1 if relative else (2 if pct else 3)
        order = sorted(range(len(main)), key=lambda k: abs(vals[k]))
        lo, hi = order[0], order[-1]

        def fmt(k: int) -> str:
            return f"{format_number(vals[k], dec)}{unit} under {names[main[k]]}"

        size = fmt(lo) if lo == hi else f"from {fmt(lo)} to {fmt(hi)}"
        parts.append(f"same sign in {agree} of {counted} models ({size})")
    others: dict[str, list[str]] = {}
    for i, v in enumerate(verdicts):
        if i in main:
            continue
        word = {
            "negligible": "no difference",
            "identical": "identical",
            TOO_SMALL: TOO_SMALL,
        }.get(v, "opposite sign" if resolved(v) else v)
        others.setdefault(word, []).append(names[i])
    parts += [f"{word}: {', '.join(ms)}" for word, ms in others.items()]
    return "; ".join(parts)


def size_groups(rows: Any, names: Mapping[str, str] | None = None) -> str:
    """The relative sizes of the resolved models, grouped by their whole-percent rounding.

    ``"about 6% under learned, heuristic and solver; 9% under greedy"`` -- the headline's
    range across strong models (issue 18 item 3). Models not resolved are left out (the
    caller says what they were). ``names`` maps a model label to the name the sentence gives
    it (default :func:`model_name`), e.g. a confirmatory run with its policy and size.
    """
    groups: dict[int, list[str]] = {}
    for (_, r), name in zip(rows.iterrows(), _names(rows, names), strict=True):
        if resolved(str(r["verdict"])) and np.isfinite(r["relative"]):
            groups.setdefault(round(abs(float(r["relative"])) * 100.0), []).append(name)
    if not groups:
        return ""
    parts = [f"{pct}% under {_and(models)}" for pct, models in sorted(groups.items())]
    return "about " + "; ".join(parts)


def _and(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
