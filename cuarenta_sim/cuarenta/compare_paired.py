"""Paired comparisons of variants with common random numbers: the generic plumbing of
:mod:`cuarenta_sim.cuarenta.compare` (no Cuarenta rule in it; a second game reuses it).

A :class:`Metric` says how to read one per-unit quantity from a tidy frame of one *level*
(``"data"``, ``"chica"``, ...); :func:`estimate_metrics` estimates metrics with intervals,
:func:`paired_differences` compares two variants unit by unit, :func:`compare_variants` runs a
baseline and variants through a caller's ``run`` function and collects both. Import them from
:mod:`cuarenta_sim.cuarenta.compare`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import stats

#: Kinds of metric: a mean of per-unit values, a proportion of 0/1 outcomes, a ratio of sums.
KINDS = ("mean", "proportion", "ratio")

#: Columns of :func:`estimate_metrics`.
ESTIMATE_METRIC_COLUMNS = ["metric", "label", "level", "kind", *stats.ESTIMATE_COLUMNS[1:]]
#: Columns of :func:`paired_differences`.
DIFFERENCE_COLUMNS = [
    *ESTIMATE_METRIC_COLUMNS,
    "differing",
    "n_pos",
    "n_neg",
    "baseline_value",
    "relative",
    "relative_lower",
    "relative_upper",
    "verdict",
]

ArrayFn = Callable[[pd.DataFrame], np.ndarray]


# =========================================================================== generic plumbing
@dataclass(frozen=True)
class Metric:
    """How to read one per-unit quantity from a tidy frame.

    Attributes
    ----------
    name : str
        Identifier (a column value in outputs), e.g. ``"datas_per_chica"``.
    label : str
        Human-readable name for tables and figures.
    level : str
        Key of the frame the metric reads (e.g. ``"data"``, ``"chica"``, ``"mesa"``).
    kind : str
        ``"mean"`` (mean of ``value``, normal interval), ``"proportion"`` (``value`` is 0/1,
        Wilson interval) or ``"ratio"`` (``sum(value) / sum(denominator)`` over units,
        delta-method interval).
    value : callable
        ``frame -> ndarray`` of shape ``(len(frame),)``: the per-unit value or numerator.
    denominator : callable or None
        ``frame -> ndarray`` of per-unit denominators; required for ``"ratio"``.
    mask : callable or None
        ``frame -> bool ndarray``: the units that count (e.g. games that finished); None
        means all. Paired differences use the units counted in both variants.
    note : str
        Definition and rule numbers, for reports.
    value_range : (float, float) or None
        Bounds of a per-unit ratio (``(0, 1)`` for events out of trials: rondas per dealt
        hand, caidas per play); a ratio sample with no variation then gets the
        ``clopper-pearson bound`` of :func:`cuarenta_sim.stats.ratio` instead of no interval.

    Raises
    ------
    ValueError
        From the constructor, for an unknown kind or a ratio without a denominator.
    """

    name: str
    label: str
    level: str
    kind: str
    value: ArrayFn
    denominator: ArrayFn | None = None
    mask: ArrayFn | None = None
    note: str = ""
    value_range: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown metric kind {self.kind!r}; accepted: {', '.join(KINDS)}")
        if (self.kind == "ratio") != (self.denominator is not None):
            raise ValueError(
                f"metric {self.name!r}: a denominator is needed by, and only by, kind 'ratio'"
            )

    def units(self, frame: pd.DataFrame) -> np.ndarray:
        """Which units of ``frame`` count for this metric.

        Parameters
        ----------
        frame : DataFrame
            The frame of the metric's level, one row per unit.

        Returns
        -------
        ndarray of bool, shape (len(frame),)
            :attr:`mask` applied to ``frame``, or all True when there is no mask.
        """
        if self.mask is None:
            return np.ones(len(frame), dtype=bool)
        return np.asarray(self.mask(frame), dtype=bool)

    def arrays(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray | None]:
        """Per-unit values of every unit of ``frame``, before the mask is applied.

        Parameters
        ----------
        frame : DataFrame
            The frame of the metric's level, one row per unit.

        Returns
        -------
        (value, denominator) : ndarray of float64, shape (len(frame),), and the same or None
            The denominator is None unless the kind is ``"ratio"``.
        """
        value = np.asarray(self.value(frame), dtype=np.float64)
        den = None
        if self.denominator is not None:
            den = np.asarray(self.denominator(frame), dtype=np.float64)
        return value, den

    def estimate(self, frame: pd.DataFrame, confidence: float = 0.95) -> dict:
        """Estimate the metric on ``frame`` with its interval.

        Parameters
        ----------
        frame : DataFrame
            The frame of the metric's level, one row per unit.
        confidence : float
            Two-sided confidence level.

        Returns
        -------
        dict
            A row with the columns :data:`ESTIMATE_METRIC_COLUMNS`: ``wilson`` for
            proportions, ``normal`` for means, ``ratio`` for ratios (see
            :mod:`cuarenta_sim.stats`); undefined (NaN bounds) when no unit counts.
        """
        keep = self.units(frame)
        value, den = self.arrays(frame)
        value = value[keep]
        if self.kind == "mean":
            row = stats.mean(self.name, value, confidence)
        elif self.kind == "proportion":
            row = stats.proportion(self.name, int(value.sum()), int(value.size), confidence)
        else:
            assert den is not None
            row = stats.ratio(self.name, value, den[keep], confidence, self.value_range)
        return {"label": self.label, "level": self.level, "kind": self.kind, **row}


def estimate_metrics(
    frames: Mapping[str, pd.DataFrame], metrics: Iterable[Metric], confidence: float = 0.95
) -> pd.DataFrame:
    """Estimate every metric whose level is among ``frames``.

    Parameters
    ----------
    frames : mapping of str to DataFrame
        Level key -> tidy frame (one row per unit).
    metrics : iterable of Metric
        Metrics to estimate; those whose ``level`` is not a key of ``frames`` are skipped.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per metric, columns :data:`ESTIMATE_METRIC_COLUMNS` (``metric``, ``label``,
        ``level``, ``kind``, ``estimate``, ``lower``, ``upper``, ``n``, ``method``,
        ``defined``).
    """
    rows = [m.estimate(frames[m.level], confidence) for m in metrics if m.level in frames]
    return pd.DataFrame(rows, columns=ESTIMATE_METRIC_COLUMNS)


def paired_differences(
    variant: Mapping[str, pd.DataFrame],
    baseline: Mapping[str, pd.DataFrame],
    metrics: Iterable[Metric],
    confidence: float = 0.95,
    keys: Mapping[str, str | Sequence[str]] | None = None,
) -> pd.DataFrame:
    """Paired differences ``variant - baseline`` of every metric, unit by unit.

    Row ``i`` of a variant's frame is paired with row ``i`` of the baseline's frame of the
    same level (common random numbers: the same seed and index played the same cards).

    Parameters
    ----------
    variant, baseline : mapping of str to DataFrame
        Level key -> frame, as for :func:`estimate_metrics`; levels missing from either are
        skipped.
    metrics : iterable of Metric
        What to compare.
    confidence : float
        Two-sided confidence level.
    keys : mapping of str to column name(s), optional
        Per level, columns that identify a unit (e.g. ``{"data": "hand"}``); when given they
        must be equal row by row in both frames.

    Returns
    -------
    DataFrame
        One row per metric, columns :data:`DIFFERENCE_COLUMNS`: the absolute difference
        (``estimate``, ``lower``, ``upper``; ``method`` ``paired`` for means and proportions,
        ``paired ratio`` for ratios), ``n`` (pairs counted in both), ``differing`` (pairs whose
        values, or denominators, differ: 0 means the variants never differed), ``n_pos`` /
        ``n_neg`` (pairs whose per-unit value, or ratio ``num_a den_b - num_b den_a``, is
        higher / lower under the variant: the discordant pairs of a 0/1 outcome, from which
        :func:`cuarenta_sim.stats.verdict_table` recomputes the exact interval at another
        level), ``baseline_value`` (the baseline's estimate: the scale of a relative margin),
        the relative difference
        ``variant / baseline - 1`` (``relative``, ``relative_lower``, ``relative_upper``,
        ``paired log-ratio``; NaN when undefined) and the ``verdict`` of
        :func:`cuarenta_sim.stats.verdicts` on the absolute difference.

    Raises
    ------
    ValueError
        If two frames of a level differ in length, or their key columns differ.
    """
    rows = []
    for m in metrics:
        if m.level not in variant or m.level not in baseline:
            continue
        fa, fb = variant[m.level], baseline[m.level]
        if len(fa) != len(fb):
            raise ValueError(
                f"level {m.level!r}: cannot pair {len(fa)} units with {len(fb)}; run both "
                f"variants with the same n and seed"
            )
        if keys and m.level in keys:
            cols = [keys[m.level]] if isinstance(keys[m.level], str) else list(keys[m.level])
            for col in cols:
                if not np.array_equal(fa[col].to_numpy(), fb[col].to_numpy()):
                    raise ValueError(
                        f"level {m.level!r}: key column {col!r} differs between the paired frames"
                    )
        keep = m.units(fa) & m.units(fb)
        va, da = m.arrays(fa)
        vb, db = m.arrays(fb)
        va, vb = va[keep], vb[keep]
        differing = va != vb
        sign = np.sign(va.astype(np.float64) - vb.astype(np.float64))
        base = float(vb.mean()) if vb.size else np.nan
        if m.kind == "ratio":
            assert da is not None and db is not None
            da, db = da[keep], db[keep]
            differing |= da != db
            sign = np.sign(va * db - vb * da)
            base = float(vb.sum() / db.sum()) if db.sum() else np.nan
            row = stats.diff_paired_ratio(m.name, va, da, vb, db, confidence)
            rel = stats.rel_diff_paired(m.name, va, vb, confidence, den_a=da, den_b=db)
        else:
            row = stats.diff_paired(m.name, va, vb, confidence)
            rel = stats.rel_diff_paired(m.name, va, vb, confidence)
        rows.append(
            {
                "label": m.label,
                "level": m.level,
                "kind": m.kind,
                **row,
                "differing": int(differing.sum()),
                "n_pos": int((sign > 0).sum()),
                "n_neg": int((sign < 0).sum()),
                "baseline_value": base,
                "relative": rel["estimate"],
                "relative_lower": rel["lower"] if rel["defined"] else np.nan,
                "relative_upper": rel["upper"] if rel["defined"] else np.nan,
            }
        )
    out = pd.DataFrame(rows, columns=DIFFERENCE_COLUMNS[:-1])
    out["verdict"] = stats.verdicts(out) if len(out) else pd.Series(dtype=object)
    return out


@dataclass
class Comparison:
    """Estimates and paired differences of several variants against a baseline.

    Attributes
    ----------
    baseline : str
        Label of the baseline variant.
    estimates : DataFrame
        Column ``variant`` then :data:`ESTIMATE_METRIC_COLUMNS`: every metric of every
        variant, baseline first.
    differences : DataFrame
        Columns ``variant``, ``baseline`` then :data:`DIFFERENCE_COLUMNS`: ``variant -
        baseline`` for every variant but the baseline.
    frames : dict
        ``{variant: {level: frame}}`` for the levels asked to be kept (else empty).
    meta : dict
        Free-form description of the runs (e.g. provenance per variant).
    """

    baseline: str
    estimates: pd.DataFrame
    differences: pd.DataFrame
    frames: dict[str, dict[str, pd.DataFrame]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def metric(self, name: str) -> pd.DataFrame:
        """Estimates of one metric across variants (rows of :attr:`estimates`).

        Parameters
        ----------
        name : str
            A :attr:`Metric.name`.

        Returns
        -------
        DataFrame
            Rows of :attr:`estimates` for that metric, index reset.

        Raises
        ------
        KeyError
            If no variant has the metric.
        """
        out = _metric_rows(self.estimates, name)
        if out.empty:
            raise KeyError(f"no estimates of metric {name!r}")
        return out

    def effect(self, name: str) -> pd.DataFrame:
        """Differences of one metric, one row per non-baseline variant.

        Parameters
        ----------
        name : str
            A :attr:`Metric.name`.

        Returns
        -------
        DataFrame
            Rows of :attr:`differences` for that metric (columns ``variant``, ``baseline``
            and :data:`DIFFERENCE_COLUMNS`), index reset.

        Raises
        ------
        ValueError
            If no difference of the metric was computed; the message lists the metrics that
            have differences.
        """
        out = _metric_rows(self.differences, name)
        if out.empty:
            known = list(dict.fromkeys(self.differences["metric"].astype(str)))
            raise ValueError(
                f"no differences of metric {name!r}; accepted: {', '.join(known) or 'none'}"
            )
        return out


def _metric_rows(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """The rows of ``frame`` whose ``metric`` is ``name``, index reset (maybe empty)."""
    return frame[frame["metric"] == name].reset_index(drop=True)


def compare_variants(
    variants: Mapping[str, Any],
    run: Callable[[Any], Mapping[str, pd.DataFrame]],
    metrics: Sequence[Metric],
    baseline: str | None = None,
    confidence: float = 0.95,
    keep: Iterable[str] = (),
    keys: Mapping[str, str | Sequence[str]] | None = None,
    on_variant: Callable[[str], None] | None = None,
) -> Comparison:
    """Run every variant, estimate the metrics and pair each variant with the baseline.

    Only the baseline's frames and one variant's frames are in memory at a time (plus the
    levels in ``keep``).

    Parameters
    ----------
    variants : mapping of str to object
        Label -> whatever ``run`` takes (e.g. a rule set). Order is kept.
    run : callable
        ``run(variant) -> {level: frame}``. For the differences to be paired, ``run`` must use
        common random numbers (the same seed and sizes for every variant).
    metrics : sequence of Metric
        What to estimate and compare.
    baseline : str, optional
        Label of the baseline; default the first variant.
    confidence : float
        Two-sided confidence level.
    keep : iterable of str
        Levels whose frames are kept in :attr:`Comparison.frames` (memory!).
    keys : mapping, optional
        Passed to :func:`paired_differences`.
    on_variant : callable, optional
        Called with each label before it is run (progress reporting).

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError
        If ``variants`` is empty or ``baseline`` is not one of its labels, or from
        :func:`paired_differences`.
    """
    if not variants:
        raise ValueError("compare_variants needs at least one variant")
    base = next(iter(variants)) if baseline is None else baseline
    if base not in variants:
        raise ValueError(f"baseline {base!r} is not among the variants: {', '.join(variants)}")
    keep = tuple(keep)
    order = [base, *(v for v in variants if v != base)]
    estimates, differences = [], []
    kept: dict[str, dict[str, pd.DataFrame]] = {}
    base_frames: Mapping[str, pd.DataFrame] = {}
    for label in order:
        if on_variant is not None:
            on_variant(label)
        frames = run(variants[label])
        est = estimate_metrics(frames, metrics, confidence)
        est.insert(0, "variant", label)
        estimates.append(est)
        if label == base:
            base_frames = frames
        else:
            diff = paired_differences(frames, base_frames, metrics, confidence, keys)
            diff.insert(0, "baseline", base)
            diff.insert(0, "variant", label)
            differences.append(diff)
        if keep:
            kept[label] = {lv: f for lv, f in frames.items() if lv in keep}
        del frames
    diff_frame = (
        pd.concat(differences, ignore_index=True)
        if differences
        else pd.DataFrame(columns=["variant", "baseline", *DIFFERENCE_COLUMNS])
    )
    return Comparison(
        baseline=base,
        estimates=pd.concat(estimates, ignore_index=True),
        differences=diff_frame,
        frames=kept,
    )
