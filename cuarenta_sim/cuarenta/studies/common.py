"""Shared pieces of the Cuarenta rule reports: templates, units, margins, verdicts, cells.

Every rule report (quito-vs-cuenca, odds, sensitivity) formats its numbers with these helpers
so that the same quantity reads the same everywhere: probabilities in %, differences of
probabilities in percentage points, an identical comparison as "identical (0 of n pairs
differ)" rather than an interval, a difference inside the practical margin as "no
difference" with its count of differing pairs, and verdicts adjusted by Holm over each
family (:func:`apply_verdicts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ... import stats
from ...reports import format_significant, markdown_table
from ...studies import cell, templates
from ...studies import diff_cell as _diff_cell
from ...studies import row_cell as _row_cell

#: Templates of the Cuarenta reports (package data).
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"

#: Metrics printed as percentages (their differences in percentage points).
PERCENT_METRICS = frozenset(
    {
        "first_dealer_wins",
        "zapateria",
        "decided_at_38",
        "ronda_dealt",
        "mesa_zapateria",
        "caidas_per_play",
        "limpias_per_play",
        "caidas_limpias_per_play",
        "rondas_per_hand",
        "doble_rondas_per_hand",
        "share_carton",
        "share_caida",
        "share_limpia",
        "share_ronda",
        "share_other",
    }
)

#: Practical margin of a probability of a game outcome (first dealer wins, zapateria, decided
#: at 38, a ronda dealt, a mesa ended by zapateria): a difference inside +-0.1 percentage
#: points changes nothing a player or organiser would notice in a lifetime of play. These are
#: the metrics whose margin is absolute (:data:`ABSOLUTE_MARGIN_METRICS`): a chance is felt in
#: points of percentage whatever its base.
PERCENT_MARGIN = 0.001
#: Metrics with the absolute margin :data:`PERCENT_MARGIN`.
ABSOLUTE_MARGIN_METRICS = frozenset(
    {"first_dealer_wins", "zapateria", "decided_at_38", "ronda_dealt", "mesa_zapateria"}
)
#: Practical margin of every other metric (means, counts, shares of points, rates per play or
#: per dealt hand), relative to the baseline's value: a difference smaller than 0.5% of the
#: baseline (Quito, or the default rule set) is negligible. Relative is the natural scale there
#: (a 0.1-point change means little on 21 points per data, much on a 0.3-point source), so
#: the same effect gets the same verdict under models with different base rates.
RELATIVE_MARGIN = 0.005
#: Margin of a metric whose baseline is unknown or 0 (absolute; points, datas, chicas).
COUNT_MARGIN = 0.01
#: Margin of a rate per play or per dealt hand whose baseline is unknown or 0 (absolute).
PER_PLAY_MARGIN = 0.0001

#: The difference every confirmatory or panel run is sized to detect (stated in the Methods):
#: 1.5 percentage points for the probabilities of :data:`ABSOLUTE_MARGIN_METRICS`, 1.5% of the
#: baseline's value for every other metric (e.g. the chica-length effect to +-1.5 pp of
#: relative change). A row whose 95% interval is wider than this and that is not resolved is
#: "too small to tell" (:func:`cuarenta_sim.verdicts.too_small`).
DETECTABLE = 0.015

#: Holm over each family (the verdicts of one table); named in every methods section.
ADJUSTMENT = "holm"


def prose(report: str) -> Any:
    """The section macros of a report's template (``templates/<report>.md.j2``).

    Parameters
    ----------
    report : str
        Template stem, e.g. ``"quito_vs_cuenca"``.

    Returns
    -------
    jinja2 module
        One attribute per macro.
    """
    return templates.macros(f"{report}.md.j2", directory=TEMPLATES)


def is_percent(metric: str) -> bool:
    """Whether ``metric`` is printed as a percentage (:data:`PERCENT_METRICS`)."""
    return metric in PERCENT_METRICS


def margin_of(metric: str, base: float = float("nan")) -> float:
    """Practical margin of ``metric``'s differences, in its own units.

    Parameters
    ----------
    metric : str
        A metric name of :func:`cuarenta_sim.cuarenta.compare.cuarenta_metrics`.
    base : float
        The baseline's value of the metric (the relative margin's scale); NaN: unknown.

    Returns
    -------
    float
        :data:`PERCENT_MARGIN` for the probabilities of :data:`ABSOLUTE_MARGIN_METRICS`;
        otherwise :data:`RELATIVE_MARGIN` times ``|base|`` when ``base`` is known and not 0,
        else :data:`PER_PLAY_MARGIN` for rates per play or per hand, :data:`PERCENT_MARGIN`
        for other percentages and :data:`COUNT_MARGIN` for the rest.
    """
    if metric in ABSOLUTE_MARGIN_METRICS:
        return PERCENT_MARGIN
    if np.isfinite(base) and base != 0.0:
        return RELATIVE_MARGIN * abs(float(base))
    if metric.endswith(("_per_play", "_per_hand")):
        return PER_PLAY_MARGIN
    return PERCENT_MARGIN if is_percent(metric) else COUNT_MARGIN


def detectable_of(metric: str, base: float = float("nan")) -> float:
    """The difference a run is sized to detect for ``metric`` (:data:`DETECTABLE`).

    Returns
    -------
    float
        1.5 percentage points for :data:`ABSOLUTE_MARGIN_METRICS`, 1.5% of ``|base|`` for
        the others; NaN (no "too small to tell") when the base is unknown or 0.
    """
    if metric in ABSOLUTE_MARGIN_METRICS:
        return DETECTABLE
    if np.isfinite(base) and base != 0.0:
        return DETECTABLE * abs(float(base))
    return float("nan")


def margin_text(metric: str, margin: float | None = None) -> str:
    """A practical margin as printed (``"0.10 pp"``, ``"0.053"``, ``"0.0015"``): at least two
    significant digits (:func:`cuarenta_sim.reports.format_significant`), so a non-zero margin
    never prints as ``0.00``; ``margin`` default :func:`margin_of` without a base."""
    m = margin_of(metric) if margin is None or not np.isfinite(margin) else float(margin)
    if is_percent(metric):
        return f"{format_significant(100 * m)} pp"
    return format_significant(m)


def apply_verdicts(
    diff: pd.DataFrame, family: Sequence[str], confidence: float = 0.95
) -> pd.DataFrame:
    """Recompute the verdicts of a differences frame, with intervals that agree with them.

    Parameters
    ----------
    diff : DataFrame
        Rows of :func:`cuarenta_sim.cuarenta.compare.paired_differences` (``metric``,
        ``estimate``, ``lower``, ``upper``, ``defined``, ``p_value``, ``no_variation``, ``n``,
        ``method``, optionally ``n_pos``, ``n_neg``, ``baseline_value``, ``relative``,
        ``relative_lower``, ``relative_upper``) plus the ``family`` columns.
    family : sequence of str
        Columns whose values make one family (e.g. ``("model", "players")``).
    confidence : float
        Level of the intervals.

    Returns
    -------
    DataFrame
        A copy with ``margin`` (:func:`margin_of`), ``detectable`` (:func:`detectable_of`),
        ``p_adjusted``, ``family_size``, ``test_level`` and a new ``verdict``
        (:func:`cuarenta_sim.stats.with_verdicts`: Holm per family; identical, negligible,
        resolved, resolved possibly negligible, not resolved, too small to tell, undefined).
        ``lower`` / ``upper`` and ``relative_lower`` / ``relative_upper`` are the intervals at
        each row's Holm level (the marginal ones kept as ``*_marginal``), so a row is resolved
        exactly when both printed intervals exclude 0: a resolved row whose relative interval
        (a different delta method) reaches 0 is downgraded to "not resolved", and a row that
        is not resolved shows intervals that reach 0 (``guarded``).
    """
    out = diff.reset_index(drop=True).copy()
    if out.empty:
        for col in ("margin", "detectable", "p_adjusted", "family_size", "test_level"):
            out[col] = pd.Series(dtype=float)
        return out
    base = (
        out["baseline_value"].to_numpy(np.float64)
        if "baseline_value" in out
        else np.full(len(out), np.nan)
    )
    out["margin"] = [margin_of(m, b) for m, b in zip(out["metric"], base, strict=True)]
    out["detectable"] = [detectable_of(m, b) for m, b in zip(out["metric"], base, strict=True)]
    out = stats.with_verdicts(
        out,
        family=list(family),
        margin="margin",
        method=ADJUSTMENT,
        confidence=confidence,
        detectable="detectable",
    )
    if "relative" in out:
        _relative_at_level(out, confidence)
    return out


def _relative_at_level(out: pd.DataFrame, confidence: float) -> None:
    """Rescale the relative intervals of ``out`` to each row's ``test_level`` (log scale), and
    make them agree with the verdicts (in place)."""
    from ...verdict_intervals import interval_at

    out["relative_lower_marginal"] = out["relative_lower"]
    out["relative_upper_marginal"] = out["relative_upper"]
    lo, hi = [], []
    for _, r in out.iterrows():
        a, b = interval_at(
            float(r["relative"]), float(r["relative_lower"]), float(r["relative_upper"]),
            float(r["n"]), "paired log-ratio", confidence, float(r["test_level"]),
        )  # fmt: skip
        lo.append(a)
        hi.append(b)
    rlo, rhi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    verdict = out["verdict"].astype(str)
    resolved = verdict.str.startswith("resolved").to_numpy()
    finite = np.isfinite(rlo) & np.isfinite(rhi)
    straddles = finite & (rlo <= 0.0) & (rhi >= 0.0)
    down = resolved & straddles
    if down.any():
        out.loc[down, "verdict"] = "not resolved"
        out.loc[down, "guarded"] = True
        out.loc[down, "lower"] = np.minimum(out.loc[down, "lower"], 0.0)
        out.loc[down, "upper"] = np.maximum(out.loc[down, "upper"], 0.0)
    settled = out["verdict"].astype(str).str.startswith("resolved").to_numpy()
    ident = (out["verdict"] == "identical").to_numpy()
    hull = finite & ~settled & ~ident & ~straddles
    out["relative_lower"] = np.where(hull, np.minimum(rlo, 0.0), rlo)
    out["relative_upper"] = np.where(hull, np.maximum(rhi, 0.0), rhi)


def pairs_text(row: Any) -> str:
    """``"k of n pairs differ"`` of a difference row."""
    return f"{int(row['differing']):,} of {int(row['n']):,} pairs differ"


def verdict_text(row: Any) -> str:
    """The verdict of a difference row in words, with its count of differing pairs.

    ``negligible`` reads "no difference (within +-margin; k of n pairs differ)" (the row's
    ``margin``), identical "identical (0 of n pairs differ)", not resolved and too small to
    tell with their differing pairs, the others their verdict
    (:data:`cuarenta_sim.verdicts.VERDICT_WORDS`).
    """
    v = str(row["verdict"])
    if v == "negligible":
        margin = margin_text(row["metric"], row.get("margin"))
        return f"no difference (within ±{margin}; {pairs_text(row)})"
    if v == "identical":
        return f"identical ({pairs_text(row)})"
    if v in ("not resolved", "too small to tell"):
        return f"{v} ({pairs_text(row)})"
    return v


def diff_text(row: Any, *, percent: bool | None = None) -> str:
    """A difference with its interval; an identical comparison prints no interval.

    A comparison in which no pair differed has no sampling error to show: its
    no-variation bound (:func:`cuarenta_sim.stats.no_variation_bound`) is not an interval
    around a measured difference, so it prints ``"0 (identical)"``.

    Parameters
    ----------
    row : mapping
        A differences row.
    percent : bool, optional
        Percentage metric; default :func:`is_percent` of ``row["metric"]``.

    Returns
    -------
    str
    """
    pct = is_percent(str(row["metric"])) if percent is None else percent
    if row["verdict"] == "identical":
        return "0 (identical)"
    return _diff_cell(row, percent=pct)


def est_text(row: Any, *, percent: bool | None = None) -> str:
    """An estimate with its interval, in % for percentage metrics."""
    pct = is_percent(str(row["metric"])) if percent is None else percent
    return _row_cell(row, percent=pct)


def rel_text(row: Any) -> str:
    """The relative difference with its interval; ``"0%"`` when identical, ``"n/a"``."""
    if not np.isfinite(row["relative"]):
        return "n/a"
    if row["verdict"] == "identical":
        return "0%"
    ok = np.isfinite(row["relative_lower"]) and np.isfinite(row["relative_upper"])
    return cell(row["relative"], row["relative_lower"], row["relative_upper"], ok, percent=True)


def unresolved(diffs: pd.DataFrame, label_cols: Sequence[str]) -> str:
    """The *Resolution* section: every difference not resolved, with its differing pairs.

    Parameters
    ----------
    diffs : DataFrame
        Differences with verdicts (:func:`apply_verdicts`).
    label_cols : sequence of str
        Columns that say which comparison a row is (e.g. ``("model", "players")``).

    Returns
    -------
    str
        Markdown.
    """
    bad = diffs[diffs["verdict"].isin(["not resolved", "too small to tell", "undefined"])]
    rows = [
        [
            *(str(r[c]) for c in label_cols),
            str(r["label"]),
            diff_text(r),
            f"{int(r['differing']):,} of {int(r['n']):,}",
            r["verdict"],
        ]
        for _, r in bad.iterrows()
    ]
    table = markdown_table(
        [*label_cols, "metric", "difference [interval]", "pairs that differ", "verdict"],
        rows,
        right=(len(label_cols) + 1, len(label_cols) + 2),
    )
    return prose("common").resolution(len(bad), table)


def exact_table(t: pd.DataFrame, *, fraction: bool, scopes: dict[str, str] | None = None) -> str:
    """Markdown table of exact odds beside the simulated intervals (one row of ``t`` a row).

    Parameters
    ----------
    t : DataFrame
        Rows of :func:`cuarenta_sim.cuarenta.analysis.odds_check`.
    fraction : bool
        Add the exact fraction.
    scopes : dict, optional
        Display names of scopes.

    Returns
    -------
    str
    """
    rows = []
    for _, r in t.iterrows():
        pct = r["scope"] != "per data"
        exact = f"{100 * r['exact']:.4f}%" if pct else f"{r['exact']:.5f}"
        frac = []
        if fraction:
            long = len(r["exact_fraction"]) > 24
            frac = ["(long fraction)" if long else r["exact_fraction"]]
        level = [r["level"]] if "level" in t.columns else []
        rows.append(
            [
                r["event"].replace("_", " "),
                (scopes or {}).get(r["scope"], r["scope"]),
                r["players"],
                *level,
                exact,
                *frac,
                _row_cell(r, percent=pct),
                f"{int(r['n']):,}",
                r["method"],
                exact_flag(r["within"]),
            ]
        )
    header = ["event", "scope", "players", *(["level"] if "level" in t.columns else [])]
    header += ["exact", *(["exact fraction"] if fraction else [])]
    header += ["simulated [interval]", "n", "method", "exact inside"]
    first = 4 if "level" in t.columns else 3
    right = tuple(range(first, len(header) - 2))
    return markdown_table(header, rows, right=right)


def exact_flag(within: Any, no: str = "**no**") -> str:
    """The *exact inside* cell of an odds row: ``"yes"``, ``no`` or, where the exact value does
    not apply (a data scope inside chicas, :func:`cuarenta_sim.cuarenta.analysis.odds_check`'s
    ``comparable``), ``"n/a (datas cut short)"``."""
    if within is None or (isinstance(within, float) and np.isnan(within)):
        return "n/a (datas cut short)"
    return "yes" if bool(within) else no


def select(frame: pd.DataFrame, **where: Any) -> pd.Series:
    """The one row of ``frame`` whose columns equal ``where``.

    Raises
    ------
    KeyError
        When no row matches.
    """
    mask = np.ones(len(frame), dtype=bool)
    for col, value in where.items():
        mask &= (frame[col] == value).to_numpy()
    sub = frame[mask]
    if sub.empty:
        raise KeyError(f"no row with {where}")
    return sub.iloc[0]


def wrap_console(text: str, width: int = 100) -> str:
    """Wrap the prose lines of a console summary to ``width`` columns.

    Tables (:func:`cuarenta_sim.reports.text_table`) already fit ``width``; any longer line
    is a sentence, wrapped with a hanging indent when it is a bullet (``"- "``).

    Parameters
    ----------
    text : str
    width : int

    Returns
    -------
    str
    """
    import textwrap

    out = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        indent = "  " if line.startswith("- ") else ""
        out.append(
            textwrap.fill(line, width=width, subsequent_indent=indent, break_on_hyphens=False)
        )
    return "\n".join(out)


def overlap_text(rows: pd.DataFrame) -> str:
    """Whether the models' intervals of one rate overlap, worded exactly as computed.

    The intervals overlap (share a value) exactly when the largest lower bound is at most the
    smallest upper bound; otherwise at least one pair is disjoint, and the wording names the
    pair that is furthest apart rather than calling every interval "apart".

    Parameters
    ----------
    rows : DataFrame
        One row per model: ``model``, ``lower``, ``upper`` (any units).

    Returns
    -------
    str
        ``"intervals overlap"``; ``"no two intervals overlap"`` when every pair is disjoint;
        else ``"not all intervals overlap: greedy's lies below heuristic's"``.

    Raises
    ------
    ValueError
        On an empty frame.
    """
    if rows.empty:
        raise ValueError("overlap_text needs at least one model's row")
    lo = rows["lower"].to_numpy(dtype=np.float64)
    hi = rows["upper"].to_numpy(dtype=np.float64)
    if lo.max() <= hi.min():
        return "intervals overlap"
    k = len(rows)
    disjoint = sum(lo[i] > hi[j] or lo[j] > hi[i] for i in range(k) for j in range(i + 1, k))
    if disjoint == k * (k - 1) // 2:
        return "no two intervals overlap"
    names = [str(m).replace(" (confirm)", "") for m in rows["model"]]
    below, above = names[int(np.argmin(hi))], names[int(np.argmax(lo))]
    return f"not all intervals overlap: {below}'s lies below {above}'s"


#: How each tuned player model got its weights (checked against the weights' provenance,
#: ``cuarenta_sim/cuarenta/policies/weights/learned_v2.npz``, ``benchmarks/tune_learned.py``,
#: ``benchmarks/tune_heuristic.py`` and benchmarks/README.md): every tuning ran under Quito.
TUNING = {
    "learned": (
        "`learned` (weights `learned_v2`: imitation of `pimc` under Quito, then evolution "
        "strategies on its duplicate chica win rate against `heuristic` under Quito, one model "
        "per player count; its features are computed under each rule set's switches, its "
        "weights are not re-fitted)"
    ),
    "heuristic": (
        "`heuristic` (default weights from a coordinate search in duplicate chicas against its "
        "own current best, Quito, 2 players)"
    ),
}


#: :data:`TUNING` in a figure's few words (the same facts, for a caption line).
TUNING_SHORT = {
    "learned": (
        "learned_v2: imitation of pimc, then evolution strategies against heuristic (Quito)"
    ),
    "heuristic": "heuristic: coordinate search against its own best (Quito, 2 players)",
}


def tuning_of(labels: Sequence[str]) -> list[str]:
    """How each tuned model of a panel got its weights, in the shared :data:`TUNING` wording.

    Parameters
    ----------
    labels : sequence of str
        The report's model labels (``"learned"``, ``"heuristic"``, ``"solver (confirm)"``); a
        label counts as a tuned model when its first policy is one of :data:`TUNING`.

    Returns
    -------
    list of str
        One phrase per tuned model, in panel order, without repeats; empty when none is tuned.
    """
    tuned: list[str] = []
    for label in labels:
        policy = str(label).split("(")[0].split(",")[0].strip()
        if policy in TUNING and TUNING[policy] not in tuned:
            tuned.append(TUNING[policy])
    return tuned


def tuned_disclosure(labels: Sequence[str], elsewhere: str) -> str:
    """The disclosure that the panel's tuned players were tuned under Quito only.

    Parameters
    ----------
    labels : sequence of str
        The report's model labels (``"learned"``, ``"heuristic"``, ``"solver (confirm)"``); a
        label counts as a tuned model when its first policy is one of :data:`TUNING`.
    elsewhere : str
        The rule sets the players are used under unchanged (``"Cuenca"``, ``"every flipped
        switch and preset"``).

    Returns
    -------
    str
        One sentence without a final period; empty when no tuned model is in the panel.
    """
    tuned = tuning_of(labels)
    if not tuned:
        return ""
    what = " and ".join(tuned)
    return (
        f"The panel's tuned players were tuned under Quito and are used unchanged under "
        f"{elsewhere}: {what}. Their effects are the rule's effect on these fixed players, not "
        f"on players re-tuned for each rule set"
    )
