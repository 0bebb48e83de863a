"""Paired comparisons of variants with common random numbers, and rule sensitivity.

Two parts:

* **Generic plumbing** (no Cuarenta in it; a second game reuses it): a :class:`Metric` says
  how to read one per-unit quantity from a tidy frame of one *level* (``"data"``, ``"chica"``,
  ...); :func:`estimate_metrics` estimates metrics with intervals, :func:`paired_differences`
  compares two variants unit by unit, :func:`compare_variants` runs a baseline and variants
  through a caller's ``run`` function and collects both.
* **Cuarenta**: :func:`cuarenta_metrics` (the catalogue: points per data by source, caida and
  limpia rates, the dealer's advantage, chica and mesa figures), :func:`simulate_frames`,
  :func:`compare_rules`, :func:`switch_flips` and :func:`sensitivity`.

Common random numbers
---------------------
``simulate(..., seed=s)`` deals the same deck to data ``i`` (level data), and to data ``d`` of
chica / mesa ``j`` with the same first dealer, whatever the rules (``docs/engine_contract.md``
section 2). Row ``i`` of one rule set's frame and row ``i`` of another's therefore played the
same cards: the paired differences cancel the deal-to-deal noise and get much tighter
intervals than independent runs (a rule set compared with itself differs by exactly 0).

Interval methods: see :mod:`cuarenta_sim.stats` (``wilson``, ``normal``, ``ratio`` for
estimates; ``paired``, ``paired ratio``, ``paired log-ratio`` for differences).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import stats
from ..switches import format_value
from .rules import AT_38, LEFTOVERS, PRESETS, SWITCHES, TIMINGS, RuleSet

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
            row = stats.ratio(self.name, value, den[keep], confidence)
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
        out = self.estimates[self.estimates["metric"] == name]
        if out.empty:
            raise KeyError(f"no estimates of metric {name!r}")
        return out.reset_index(drop=True)

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
        out = self.differences[self.differences["metric"] == name]
        if out.empty:
            known = list(dict.fromkeys(self.differences["metric"].astype(str)))
            raise ValueError(
                f"no differences of metric {name!r}; accepted: {', '.join(known) or 'none'}"
            )
        return out.reset_index(drop=True)


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


# =========================================================================== Cuarenta
#: Point sources of a data (contract section 8): column stem and rule numbers.
POINT_SOURCES: dict[str, str] = {
    "carton": "R8.2",
    "caida": "R6, R6.4 (claims included)",
    "limpia": "R7, R7.2",
    "ronda": "R4",
    "other": "R8.3, R8.4, R8.5",
}
#: Dealt 5-card hands in one data (R2.2): 8 with 2 and with 4 players.
HANDS_PER_DATA = 8
#: Keys identifying a unit per level, checked when pairing.
CUARENTA_KEYS: dict[str, str] = {"data": "hand", "chica": "game", "mesa": "game"}
#: Frame levels :func:`simulate_frames` can produce: level data's hands, chica games, chica
#: hands (per data of the chicas, with scores), mesa games.
FRAME_LEVELS = ("data", "chica", "chica_hands", "mesa")


def _both(col: str) -> ArrayFn:
    def f(h: pd.DataFrame) -> np.ndarray:
        return h[f"{col}_0"].to_numpy(np.int64) + h[f"{col}_1"].to_numpy(np.int64)

    return f


def _dealer_minus_other(h: pd.DataFrame) -> np.ndarray:
    side = h["dealer"].to_numpy(np.int64) % 2
    p0 = h["points_0"].to_numpy(np.int64)
    p1 = h["points_1"].to_numpy(np.int64)
    return np.where(side == 0, p0 - p1, p1 - p0)


def _first_dealer_wins(g: pd.DataFrame) -> np.ndarray:
    return g["winner"].to_numpy(np.int64) == g["first_dealer"].to_numpy(np.int64) % 2


def _finished(g: pd.DataFrame) -> np.ndarray:
    return ~g["truncated"].to_numpy(bool)


def _plays(h: pd.DataFrame) -> np.ndarray:
    return h["plays"].to_numpy(np.int64)


def _hands_dealt(h: pd.DataFrame) -> np.ndarray:
    return np.full(len(h), HANDS_PER_DATA, dtype=np.int64)


def cuarenta_metrics() -> list[Metric]:
    """The catalogue of Cuarenta metrics, valid for 2 and 4 players.

    Level ``"data"`` reads ``Results.hands`` of a level-data run (every data played to the
    last card from 0-0, dealer = index % players); ``"chica"`` and ``"mesa"`` read
    ``Results.games`` of level chica / mesa runs (contract section 8). Points and counts are
    summed over both sides.

    Returns
    -------
    list of Metric
        In order: ``points`` (points per data, mean); per source ``s`` in
        :data:`POINT_SOURCES` ``points_s`` (points per data from ``s``, mean) and ``share_s``
        (share of all points, ratio); ``dealer_advantage`` (dealer's side minus the other,
        points per data, mean, R3.3); ``caidas_per_data``, ``caidas_per_play``,
        ``limpias_per_data``, ``limpias_per_play``, ``caidas_limpias_per_data``,
        ``caidas_limpias_per_play`` (plays both caida and limpia, R7.2) (means / ratios);
        ``ronda_dealt`` (P(a ronda is dealt in a data), proportion), ``rondas_per_hand`` and
        ``doble_rondas_per_hand`` (per dealt 5-card hand, ratio, R4); level chica:
        ``first_dealer_wins`` (P(the side dealing first wins the chica), proportion, R3.4),
        ``datas_per_chica`` (mean), ``zapateria`` (proportion, R9.3), ``decided_at_38``
        (P(the winner stood at 38 before its winning step), proportion, R9.1); level mesa:
        ``chicas_per_mesa`` (mean), ``mesa_zapateria`` (P(the mesa ended by a first-chica
        zapateria), proportion, R9.3). Chica and mesa metrics count finished games only.
    """
    m: list[Metric] = [
        Metric(
            "points",
            "points per data (both sides)",
            "data",
            "mean",
            _both("points"),
            note="all points credited in a data, claims included",
        ),
    ]
    for src, rule in POINT_SOURCES.items():
        m.append(
            Metric(
                f"points_{src}",
                f"{src} points per data",
                "data",
                "mean",
                _both(f"{src}_points"),
                note=rule,
            )
        )
    for src, rule in POINT_SOURCES.items():
        m.append(
            Metric(
                f"share_{src}",
                f"share of points from {src}",
                "data",
                "ratio",
                _both(f"{src}_points"),
                denominator=_both("points"),
                note=rule,
            )
        )
    m += [
        Metric(
            "dealer_advantage",
            "dealer's advantage (points per data)",
            "data",
            "mean",
            _dealer_minus_other,
            note="points of the dealer's side minus the other side's (R3.3: dealer plays last)",
        ),
        Metric("caidas_per_data", "caidas per data", "data", "mean", _both("caidas"), note="R6.1"),
        Metric(
            "caidas_per_play",
            "caidas per play",
            "data",
            "ratio",
            _both("caidas"),
            denominator=_plays,
            note="R6.1; a play is one card played",
        ),
        Metric(
            "limpias_per_data", "limpias per data", "data", "mean", _both("limpias"), note="R7.1"
        ),
        Metric(
            "limpias_per_play",
            "limpias per play",
            "data",
            "ratio",
            _both("limpias"),
            denominator=_plays,
            note="R7.1",
        ),
        Metric(
            "caidas_limpias_per_data",
            "caida+limpia plays per data",
            "data",
            "mean",
            _both("caidas_limpias"),
            note="R7.2",
        ),
        Metric(
            "caidas_limpias_per_play",
            "caida+limpia plays per play",
            "data",
            "ratio",
            _both("caidas_limpias"),
            denominator=_plays,
            note="R7.2",
        ),
        Metric(
            "ronda_dealt",
            "P(a ronda is dealt in a data)",
            "data",
            "proportion",
            lambda h: _both("rondas")(h) > 0,
            note="R4.1, anyone",
        ),
        Metric(
            "rondas_per_hand",
            "rondas per dealt hand",
            "data",
            "ratio",
            _both("rondas"),
            denominator=_hands_dealt,
            note="R4.1; 8 five-card hands per data",
        ),
        Metric(
            "doble_rondas_per_hand",
            "doble rondas per dealt hand",
            "data",
            "ratio",
            _both("doble_rondas"),
            denominator=_hands_dealt,
            note="R4.2",
        ),
        Metric(
            "first_dealer_wins",
            "P(side dealing first wins the chica)",
            "chica",
            "proportion",
            _first_dealer_wins,
            mask=_finished,
            note="R3.4, R9.2",
        ),
        Metric(
            "datas_per_chica",
            "datas per chica",
            "chica",
            "mean",
            lambda g: g["hands"].to_numpy(np.int64),
            note="R9.2",
        ),
        Metric(
            "zapateria",
            "P(zapateria)",
            "chica",
            "proportion",
            lambda g: g["zapateria"].to_numpy(bool),
            mask=_finished,
            note="R9.3",
        ),
        Metric(
            "decided_at_38",
            "P(chica decided at 38)",
            "chica",
            "proportion",
            lambda g: g["decided_at_38"].to_numpy(bool),
            mask=_finished,
            note="R9.1: the winner had 38 before its winning step",
        ),
        Metric(
            "chicas_per_mesa",
            "chicas per mesa",
            "mesa",
            "mean",
            lambda g: g["chicas_0"].to_numpy(np.int64) + g["chicas_1"].to_numpy(np.int64),
            mask=_finished,
            note="R9.3",
        ),
        Metric(
            "mesa_zapateria",
            "P(mesa ended by a first-chica zapateria)",
            "mesa",
            "proportion",
            lambda g: g["zapateria"].to_numpy(bool),
            mask=_finished,
            note="R9.3, zapateria_ends_mesa",
        ),
    ]
    return m


def simulate_frames(
    rules: RuleSet | str,
    *,
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n_datas: int = 0,
    n_chicas: int = 0,
    n_mesas: int = 0,
    seed: int = 0,
    threads: int | None = None,
    chica_hands: bool = False,
    runs: list[dict[str, Any]] | None = None,
) -> dict[str, pd.DataFrame]:
    """Simulate one rule set at the levels a comparison needs.

    Parameters
    ----------
    rules : RuleSet or str
        Rule set, preset name or slug (spec section S).
    players : int
        2 or 4 (R2.1).
    policies : str or sequence of str
        Policy names (one, per side or per seat).
    n_datas, n_chicas, n_mesas : int
        Games per level; 0 skips the level.
    seed : int
        Seed shared by every level and (for pairing) every rule set.
    threads : int or None
        numba threads.
    chica_hands : bool
        Also return the per-data records of the chicas (``"chica_hands"``: scores after every
        data), for the win probability by score state.
    runs : list, optional
        When given, the ``Results.provenance`` of every simulation is appended to it.

    Returns
    -------
    dict of str to DataFrame
        Keys among :data:`FRAME_LEVELS`: ``"data"`` (``Results.hands`` of level data),
        ``"chica"`` (``Results.games`` of level chica), ``"chica_hands"``, ``"mesa"``
        (``Results.games`` of level mesa).

    Raises
    ------
    ValueError
        From :func:`cuarenta_sim.simulate` (bad rules, players, policies, counts, seed).
    """
    from ..simulation import simulate

    common = {
        "rules": rules,
        "players": players,
        "policies": policies,
        "seed": seed,
        "threads": threads,
    }
    out: dict[str, pd.DataFrame] = {}
    if n_datas:
        res = simulate(n=n_datas, level="data", **common)
        assert res.hands is not None
        out["data"] = res.hands
        if runs is not None:
            runs.append(res.provenance)
    if n_chicas:
        res = simulate(n=n_chicas, level="chica", keep_hands=chica_hands, **common)
        assert res.games is not None
        if runs is not None:
            runs.append(res.provenance)
        out["chica"] = res.games
        if chica_hands:
            assert res.hands is not None
            out["chica_hands"] = res.hands
    if n_mesas:
        res = simulate(n=n_mesas, level="mesa", keep_hands=False, **common)
        assert res.games is not None
        if runs is not None:
            runs.append(res.provenance)
        out["mesa"] = res.games
    return out


def compare_rules(
    rules: Mapping[str, RuleSet | str] | Sequence[RuleSet | str],
    *,
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n_datas: int = 100_000,
    n_chicas: int = 20_000,
    n_mesas: int = 10_000,
    seed: int = 0,
    baseline: str | None = None,
    confidence: float = 0.95,
    threads: int | None = None,
    keep: Iterable[str] = (),
    metrics: Sequence[Metric] | None = None,
    on_variant: Callable[[str], None] | None = None,
) -> Comparison:
    """Paired comparison of rule sets: the same seeds and decks under each (common random
    numbers).

    Parameters
    ----------
    rules : mapping of label to rules, or sequence of rules
        Rule sets (RuleSet, preset name or slug); a sequence is labelled by slugs.
    players : int
        2 or 4.
    policies : str or sequence of str
        Policy names, as for :func:`cuarenta_sim.simulate`.
    n_datas, n_chicas, n_mesas : int
        Datas (level data), chicas and mesas per rule set; 0 skips a level.
    seed : int
        Seed of every run.
    baseline : str, optional
        Label of the baseline; default the first rule set.
    confidence : float
        Two-sided confidence level.
    threads : int or None
        numba threads.
    keep : iterable of str
        Frame levels (:data:`FRAME_LEVELS`) to keep in :attr:`Comparison.frames`;
        ``"chica_hands"`` is simulated only when kept.
    metrics : sequence of Metric, optional
        Default :func:`cuarenta_metrics`.
    on_variant : callable, optional
        Called with each label before it is simulated.

    Returns
    -------
    Comparison
        ``meta`` holds ``players``, ``policies``, ``seed``, the counts, ``confidence``, the
        slug of every label (``rules``) and the provenance of every simulation (``runs``).

    Raises
    ------
    ValueError
        Bad rules, duplicate labels, sizes all 0 or beyond ``2**53``, or bad simulation
        arguments.
    """
    from ..limits import check_sizes
    from .rules import resolve_rules

    check_sizes({"n_datas": n_datas, "n_chicas": n_chicas, "n_mesas": n_mesas})
    if isinstance(rules, Mapping):
        named = {str(k): resolve_rules(v) for k, v in rules.items()}
    else:
        resolved = [resolve_rules(r) for r in rules]
        named = {r.slug(): r for r in resolved}
        if len(named) != len(resolved):
            raise ValueError("compare_rules got the same rule set twice; label them with a dict")
    keep = tuple(keep)
    for lv in keep:
        if lv not in FRAME_LEVELS:
            raise ValueError(f"unknown frame level {lv!r}; accepted: {', '.join(FRAME_LEVELS)}")

    runs: list[dict[str, Any]] = []

    def run(rs: RuleSet) -> dict[str, pd.DataFrame]:
        return simulate_frames(
            rs,
            players=players,
            policies=policies,
            n_datas=n_datas,
            n_chicas=n_chicas,
            n_mesas=n_mesas,
            seed=seed,
            threads=threads,
            chica_hands="chica_hands" in keep,
            runs=runs,
        )

    comp = compare_variants(
        named,
        run,
        cuarenta_metrics() if metrics is None else metrics,
        baseline=baseline,
        confidence=confidence,
        keep=keep,
        keys=CUARENTA_KEYS,
        on_variant=on_variant,
    )
    comp.meta = {
        "players": players,
        "policies": list(policies) if not isinstance(policies, str) else [policies],
        "seed": seed,
        "n_datas": n_datas,
        "n_chicas": n_chicas,
        "n_mesas": n_mesas,
        "confidence": confidence,
        "rules": {label: rs.slug() for label, rs in named.items()},
        "runs": runs,
    }
    return comp


#: Alternatives tried for each switch when no other preset supplies one (spec section S).
FALLBACK_FLIPS: dict[str, tuple[Any, ...]] = {
    "max_sum_cards": (2,),
    "ronda_points": (4,),
    "doble_ronda": (4,),
    "caida_en_ronda_points": (10,),
    "ronda_blocked_from": (30,),
    "carton_blocked_from": (30,),
    "tie_points_20": (6,),
    "falla_points": (2,),
    "chicas_to_win": (1,),
    "zapateria_below": (0,),
}
#: Switches :func:`switch_flips` leaves alone by default: ``target`` is the game itself
#: (Cuarenta is played to 40 in every source); changing it changes every metric by design.
NOT_FLIPPED: tuple[str, ...] = ("target",)


def switch_flips(
    base: RuleSet | str = "quito", switches: Iterable[str] | None = None
) -> dict[str, RuleSet]:
    """Rule sets that differ from ``base`` in exactly one switch ("flip each switch alone").

    Alternatives per switch: booleans are negated; a choice switch (``caida_en_ronda_timing``,
    ``at_38``, ``leftover_cards``) takes each other accepted value; other switches take the
    values other presets give it (spec section S), or :data:`FALLBACK_FLIPS` when no preset
    differs, or the base preset's default when the base already has the fallback value.

    Parameters
    ----------
    base : RuleSet or str
        Base rule set (preset or slug).
    switches : iterable of str, optional
        Switches to flip; default every switch of :data:`cuarenta_sim.cuarenta.rules.SWITCHES` but
        :data:`NOT_FLIPPED`.

    Returns
    -------
    dict of str to RuleSet
        ``"switch=value"`` (slug spelling of the value) -> the flipped rule set, in switch
        order.

    Raises
    ------
    ValueError
        For an unknown switch or base.
    """
    from .rules import resolve_rules

    rs = resolve_rules(base)
    names = [s for s in SWITCHES if s not in NOT_FLIPPED] if switches is None else list(switches)
    unknown = [s for s in names if s not in SWITCHES]
    if unknown:
        raise ValueError(f"unknown switch {', '.join(unknown)}; accepted: {', '.join(SWITCHES)}")
    choices: dict[str, tuple[Any, ...]] = {
        "caida_en_ronda_timing": TIMINGS,
        "at_38": AT_38,
        "leftover_cards": LEFTOVERS,
    }
    out: dict[str, RuleSet] = {}
    for name in names:
        current = getattr(rs, name)
        if isinstance(current, bool):
            alts: list[Any] = [not current]
        elif name in choices:
            alts = [v for v in choices[name] if v != current]
        else:
            alts = []
            for preset in PRESETS.values():
                v = getattr(preset, name)
                if v != current and v not in alts:
                    alts.append(v)
            if not alts:
                fallback = [v for v in FALLBACK_FLIPS.get(name, ()) if v != current]
                default = getattr(RuleSet(), name)
                alts = fallback or ([default] if default != current else [])
        for v in alts:
            out[f"{name}={format_value(v)}"] = rs.replace(**{name: v})
    return out


def sensitivity(
    base: RuleSet | str = "quito",
    *,
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n_datas: int = 100_000,
    n_chicas: int = 20_000,
    n_mesas: int = 10_000,
    seed: int = 0,
    switches: Iterable[str] | None = None,
    confidence: float = 0.95,
    threads: int | None = None,
    on_variant: Callable[[str], None] | None = None,
) -> Comparison:
    """Rule sensitivity: flip each switch of ``base`` alone and measure the paired effects.

    Parameters
    ----------
    base : RuleSet or str
        Base rule set (preset or slug); labelled ``"base"`` in the output.
    players, policies, n_datas, n_chicas, n_mesas, seed, confidence, threads, on_variant
        As for :func:`compare_rules`.
    switches : iterable of str, optional
        Switches to flip (:func:`switch_flips`).

    Returns
    -------
    Comparison
        Baseline ``"base"``; one variant per flip, labelled ``"switch=value"``; ``meta`` as
        in :func:`compare_rules` plus ``base`` (slug).

    Raises
    ------
    ValueError
        Bad base, switch or simulation arguments.
    """
    from .rules import resolve_rules

    rs = resolve_rules(base)
    variants: dict[str, RuleSet] = {"base": rs, **switch_flips(rs, switches)}
    comp = compare_rules(
        variants,
        players=players,
        policies=policies,
        n_datas=n_datas,
        n_chicas=n_chicas,
        n_mesas=n_mesas,
        seed=seed,
        baseline="base",
        confidence=confidence,
        threads=threads,
        on_variant=on_variant,
    )
    comp.meta["base"] = rs.slug()
    return comp
