"""Exactly mergeable counters of simulation records, and the statistics they give.

A large run (billions of datas) cannot keep one row per data. Each chunk of games instead
reduces its records to integer :class:`Counters` (count, per-column sum, sum of squares and
value histogram, plus the cross-products the ratio intervals need); counters of chunks add up
exactly, in any grouping, so the merged counters of a run equal the counters of its full
record frames, bit for bit. From them :class:`Aggregates` rebuilds the estimate tables of the
record path (:func:`.summaries.summarize_hands`,
:func:`.summaries.summarize_games`, :func:`cuarenta_sim.cuarenta.compare.estimate_metrics`
with :func:`cuarenta_sim.cuarenta.compare.cuarenta_metrics`,
:func:`cuarenta_sim.cuarenta.analysis.length_distribution`): the same rows, counts, estimates and
methods, bounds equal to rounding (the record path computes standard deviations in floating
point, this module from exact integer sums). Not covered: paired differences between two
runs (they need both runs' per-unit values) and the win probability by score state.

Two parts:

* generic: :class:`Counters` (no Cuarenta in it) and the interval helpers
  :func:`mean_from_sums`, :func:`ratio_from_sums`;
* Cuarenta: the features of a data and of a game (:func:`hand_counters`,
  :func:`game_counters`), :class:`Aggregates` and :func:`aggregate_results`.

Exactness: the counters are Python integers (int64 within a chunk); a chunk may hold at most
2**31 rows of values below 2**15 in magnitude, so no chunk sum overflows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from .. import stats

FeatureFn = Callable[[pd.DataFrame], np.ndarray]


# =========================================================================== generic counters
@dataclass
class Counters:
    """Integer counters of a set of per-unit integer features; add two with :meth:`merge`.

    Attributes
    ----------
    n : int
        Units counted (rows).
    sums : dict of str to int
        Per feature, the sum of its values.
    squares : dict of str to int
        Per feature, the sum of its squared values.
    histograms : dict of str to dict of int to int
        Per feature, how many units had each value (values that occur only).
    cross : dict of str to int
        Per declared pair ``"a*b"``, the sum of products ``a_i * b_i``.
    """

    n: int = 0
    sums: dict[str, int] = field(default_factory=dict)
    squares: dict[str, int] = field(default_factory=dict)
    histograms: dict[str, dict[int, int]] = field(default_factory=dict)
    cross: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_arrays(
        cls, features: Mapping[str, np.ndarray], pairs: Iterable[tuple[str, str]] = ()
    ) -> Counters:
        """Count integer feature arrays of equal length.

        Parameters
        ----------
        features : mapping of str to ndarray of int or bool, shape (rows,)
            Feature values per unit.
        pairs : iterable of (str, str)
            Feature pairs whose cross-product sums are kept (key ``"a*b"``).

        Returns
        -------
        Counters

        Raises
        ------
        ValueError
            If the arrays differ in length, are not integer / boolean, or a pair names an
            unknown feature.
        """
        arrays = {name: np.asarray(values) for name, values in features.items()}
        lengths = {a.shape for a in arrays.values()}
        if len(lengths) > 1:
            raise ValueError(f"features must have equal lengths, got shapes {sorted(lengths)}")
        n = next(iter(lengths))[0] if lengths else 0
        out = cls(n=int(n))
        for name, a in arrays.items():
            if a.dtype.kind not in "biu":
                raise ValueError(f"feature {name!r} must be integer or boolean, got {a.dtype}")
            x = a.view(np.int8) if a.dtype == np.bool_ else a
            if x.size:
                total, squares, lo, counts = _moments(x)
                values = np.nonzero(counts)[0]
                hist = {int(v) + int(lo): int(counts[v]) for v in values}
            else:
                total, squares, hist = 0, 0, {}
            out.sums[name] = int(total)
            out.squares[name] = int(squares)
            out.histograms[name] = hist
        for a, b in pairs:
            if a not in arrays or b not in arrays:
                raise ValueError(f"cross pair {a!r}*{b!r} names an unknown feature")
            xa, xb = (arrays[k].view(np.int8) if arrays[k].dtype == np.bool_ else arrays[k]
                      for k in (a, b))  # fmt: skip
            out.cross[f"{a}*{b}"] = int(_cross(xa, xb)) if xa.size else 0
        return out

    def merge(self, other: Counters) -> Counters:
        """Return the counters of both sets of units together (exact integer sums).

        Raises
        ------
        ValueError
            If the two count different features or pairs (and neither is empty).
        """
        if self.n == 0 and not self.sums:
            return other.copy()
        if other.n == 0 and not other.sums:
            return self.copy()
        if self.sums.keys() != other.sums.keys() or self.cross.keys() != other.cross.keys():
            raise ValueError("cannot merge counters of different features")
        hist = {}
        for name, h in self.histograms.items():
            merged = dict(h)
            for value, count in other.histograms[name].items():
                merged[value] = merged.get(value, 0) + count
            hist[name] = dict(sorted(merged.items()))
        return Counters(
            n=self.n + other.n,
            sums={k: v + other.sums[k] for k, v in self.sums.items()},
            squares={k: v + other.squares[k] for k, v in self.squares.items()},
            histograms=hist,
            cross={k: v + other.cross[k] for k, v in self.cross.items()},
        )

    def copy(self) -> Counters:
        """Return an independent copy."""
        return Counters.from_dict(self.to_dict())

    def count_equal(self, name: str, value: int) -> int:
        """Units whose feature ``name`` equals ``value`` (from the histogram)."""
        return self.histograms[name].get(int(value), 0)

    def count_positive(self, name: str) -> int:
        """Units whose feature ``name`` is > 0 (from the histogram)."""
        return sum(c for v, c in self.histograms[name].items() if v > 0)

    def product(self, a: str, b: str) -> int:
        """Sum of ``a_i * b_i``: a square when ``a == b``, else a declared cross pair.

        Raises
        ------
        KeyError
            If the pair was not declared when counting.
        """
        if a == b:
            return self.squares[a]
        key = f"{a}*{b}" if f"{a}*{b}" in self.cross else f"{b}*{a}"
        return self.cross[key]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (histogram keys become strings); inverse :meth:`from_dict`."""
        return {
            "n": self.n,
            "sums": dict(self.sums),
            "squares": dict(self.squares),
            "histograms": {
                k: {str(v): c for v, c in h.items()} for k, h in self.histograms.items()
            },
            "cross": dict(self.cross),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Counters:
        """Rebuild counters from :meth:`to_dict` output.

        Raises
        ------
        ValueError
            If a field is missing or not integral.
        """
        try:
            return cls(
                n=int(data["n"]),
                sums={k: int(v) for k, v in data["sums"].items()},
                squares={k: int(v) for k, v in data["squares"].items()},
                histograms={
                    k: {int(v): int(c) for v, c in h.items()} for k, h in data["histograms"].items()
                },
                cross={k: int(v) for k, v in data["cross"].items()},
            )
        except (KeyError, TypeError, AttributeError, ValueError) as err:
            raise ValueError(f"malformed counters: {err!r}") from err


@njit(cache=True)
def _moments(x: np.ndarray) -> tuple[int, int, int, np.ndarray]:
    """Sum, sum of squares (int64), minimum and value counts from the minimum up, in one
    pass after a min / max pass (``x`` non-empty, any integer dtype)."""
    lo = np.int64(x[0])
    hi = lo
    for v in x:
        w = np.int64(v)
        lo = min(lo, w)
        hi = max(hi, w)
    counts = np.zeros(hi - lo + 1, dtype=np.int64)
    total = np.int64(0)
    squares = np.int64(0)
    for v in x:
        w = np.int64(v)
        total += w
        squares += w * w
        counts[w - lo] += 1
    return total, squares, lo, counts


@njit(cache=True)
def _cross(x: np.ndarray, y: np.ndarray) -> int:
    """Sum of ``x_i * y_i`` in int64."""
    acc = np.int64(0)
    for i in range(x.size):
        acc += np.int64(x[i]) * np.int64(y[i])
    return acc


def merge_all(counters: Iterable[Counters | None]) -> Counters | None:
    """Merge counters in the order given (None entries are skipped; all None gives None)."""
    out: Counters | None = None
    for c in counters:
        if c is not None:
            out = c.copy() if out is None else out.merge(c)
    return out


# =========================================================================== intervals
def mean_from_sums(metric: str, n: int, total: int, squares: int, confidence: float = 0.95) -> dict:
    """:func:`cuarenta_sim.stats.mean` from the count, sum and sum of squares of the values.

    The sample variance ``(n * squares - total**2) / (n (n - 1))`` is computed exactly, then
    rounded once. Returns an estimate row (``method`` ``"t"`` below
    :data:`cuarenta_sim.stats.T_MAX_N`, else ``"normal"``); ``n < 2`` is undefined; equal
    values (zero variance) are flagged ``no_variation`` with NaN bounds.
    """
    est = float(Fraction(total, n)) if n else math.nan
    method = stats.mean_method(n)
    if n < 2:
        return stats.spread_row(metric, est, math.nan, n, confidence, method, constant=False)
    var = Fraction(n * squares - total * total, n * (n - 1))
    # Same interval as stats.mean (t below stats.T_MAX_N; a zero variance, i.e. equal values,
    # is flagged no_variation instead of a zero-width interval).
    return stats.spread_row(
        metric, est, math.sqrt(float(var)), n, confidence, method, constant=var == 0
    )


def ratio_from_sums(
    metric: str,
    n: int,
    sy: int,
    sx: int,
    syy: int,
    sxx: int,
    sxy: int,
    confidence: float = 0.95,
) -> dict:
    """:func:`cuarenta_sim.stats.ratio` (``sum(y) / sum(x)``, delta method) from sums.

    Parameters
    ----------
    metric : str
        Name of the row.
    n : int
        Units.
    sy, sx : int
        Sums of numerators and denominators.
    syy, sxx, sxy : int
        Sums of ``y**2``, ``x**2`` and ``x * y``.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict
        An estimate row (``method = "ratio"``, Student t critical value below
        :data:`cuarenta_sim.stats.T_MAX_N` units); undefined with fewer than 2 units or
        ``sx == 0``. The residual sum of squares ``sum((y - r x)**2)`` is exact; when it is 0
        (every unit the same ratio) the row is flagged ``no_variation`` with NaN bounds.
    """
    if n < 2 or sx == 0:
        est = float(Fraction(sy, sx)) if sx else math.nan
        return _row(metric, est, math.nan, math.nan, n, "ratio", False)
    r = Fraction(sy, sx)
    resid_ss = syy - 2 * r * sxy + r * r * sxx
    if resid_ss == 0:  # every unit has the same ratio: no variation (as stats.ratio)
        return _row(metric, float(r), math.nan, math.nan, n, "ratio", False, True)
    se = math.sqrt(float(resid_ss / (n - 1)) * n) / sx
    half = stats.critical_value(confidence, n) * se
    est = float(r)
    return _row(metric, est, est - half, est + half, n, "ratio", True)


def _row(
    metric: str,
    est: float,
    lo: float,
    hi: float,
    n: int,
    method: str,
    ok: bool,
    no_variation: bool = False,
) -> dict:
    return {
        "metric": metric,
        "estimate": est,
        "lower": lo,
        "upper": hi,
        "n": int(n),
        "method": method,
        "defined": ok,
        "no_variation": no_variation,
        "p_value": math.nan,
    }


def _mean(c: Counters, metric: str, name: str, confidence: float) -> dict:
    return mean_from_sums(metric, c.n, c.sums[name], c.squares[name], confidence)


def _ratio(c: Counters, metric: str, y: str, x: str | int, confidence: float) -> dict:
    """Ratio of feature ``y`` over feature ``x`` or over the constant ``x`` per unit."""
    if isinstance(x, int):
        sx, sxx, sxy = x * c.n, x * x * c.n, x * c.sums[y]
    else:
        sx, sxx, sxy = c.sums[x], c.squares[x], c.product(y, x)
    return ratio_from_sums(metric, c.n, c.sums[y], sx, c.squares[y], sxx, sxy, confidence)


# =========================================================================== Cuarenta features
#: Per-side column stems of ``Results.hands`` (contract section 8).
SIDE_STEMS = (
    "cards",
    "rondas",
    "doble_rondas",
    "caidas",
    "caidas_en_ronda",
    "limpias",
    "caidas_limpias",
    "points",
    "ronda_points",
    "caida_points",
    "limpia_points",
    "carton_points",
    "other_points",
)
#: Point sources (``{source}_points_k``), as :data:`cuarenta_sim.cuarenta.compare.POINT_SOURCES`.
SOURCES = ("carton", "caida", "limpia", "ronda", "other")
#: Dealt 5-card hands in one data (R2.2).
HANDS_PER_DATA = 8
#: Cross-product pairs of the hand features (ratio intervals: per play, share of points).
HAND_PAIRS: tuple[tuple[str, str], ...] = (
    ("caidas", "plays"),
    ("limpias", "plays"),
    ("caidas_limpias", "plays"),
    *((f"{s}_points", "points") for s in SOURCES),
)
#: Columns that identify a row rather than measure it (not counted).
ID_COLUMNS = ("game",)


def hand_features(hands: pd.DataFrame) -> dict[str, np.ndarray]:
    """Integer features of every data of a ``Results.hands`` frame.

    Returns
    -------
    dict of str to ndarray, shape (rows,)
        Every record column except ``game`` (and except ``hand`` at level data, where it is
        the index), then per stem of :data:`SIDE_STEMS` the sum over both sides (named by the
        stem, e.g. ``points``), ``ronda_or_better_k`` and ``ronda_or_better`` (rondas plus
        doble rondas, R4), ``dealer_points`` / ``other_points_side`` (points of the dealer's
        side and of the other side, R3.3) and ``dealer_advantage`` (their difference).
    """
    out: dict[str, np.ndarray] = {}
    level_data = "game" not in hands.columns
    for col in hands.columns:
        if col in ID_COLUMNS or (level_data and col == "hand"):
            continue
        out[col] = hands[col].to_numpy()
    for stem in SIDE_STEMS:
        out[stem] = _add(hands[f"{stem}_0"].to_numpy(), hands[f"{stem}_1"].to_numpy())
    for k in (0, 1):
        out[f"ronda_or_better_{k}"] = _add(
            hands[f"rondas_{k}"].to_numpy(), hands[f"doble_rondas_{k}"].to_numpy()
        )
    out["ronda_or_better"] = out["rondas"] + out["doble_rondas"]
    dealer_side = (hands["dealer"].to_numpy() % 2) == 0
    p0 = hands["points_0"].to_numpy().astype(np.int32)
    p1 = hands["points_1"].to_numpy().astype(np.int32)
    out["dealer_points"] = np.where(dealer_side, p0, p1)
    out["other_points_side"] = np.where(dealer_side, p1, p0)
    out["dealer_advantage"] = out["dealer_points"] - out["other_points_side"]
    return out


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b`` in int32 (no overflow of int8 / int16 record columns)."""
    return np.add(a, b, dtype=np.int32)


def hand_counters(hands: pd.DataFrame) -> Counters:
    """:class:`Counters` of the :func:`hand_features` of a hands frame (pairs
    :data:`HAND_PAIRS`)."""
    return Counters.from_arrays(hand_features(hands), HAND_PAIRS)


def game_features(games: pd.DataFrame) -> dict[str, np.ndarray]:
    """Integer features of every game of a ``Results.games`` frame.

    Returns
    -------
    dict of str to ndarray, shape (rows,)
        Every column except ``game``, then ``side0_wins`` (winner is side 0),
        ``first_dealer_wins`` (the side dealing first won, R3.4) and at level mesa ``chicas``
        (chicas played, R9.3).
    """
    out = {c: games[c].to_numpy() for c in games.columns if c not in ID_COLUMNS}
    winner = games["winner"].to_numpy(np.int64)
    out["side0_wins"] = winner == 0
    out["first_dealer_wins"] = winner == games["first_dealer"].to_numpy(np.int64) % 2
    if "chicas_0" in games.columns:
        out["chicas"] = games["chicas_0"].to_numpy(np.int64) + games["chicas_1"].to_numpy(np.int64)
    return out


def game_counters(games: pd.DataFrame) -> dict[str, Counters]:
    """Counters of the :func:`game_features` of all games (``"all"``) and of the games that
    finished (``"finished"``: not truncated, the units of the per-game proportions)."""
    finished = ~games["truncated"].to_numpy().astype(bool)
    features = game_features(games)
    return {
        "all": Counters.from_arrays(features),
        "finished": Counters.from_arrays({k: v[finished] for k, v in features.items()}),
    }


@dataclass
class Aggregates:
    """Merged counters of a run, with provenance: the memory-flat form of :class:`Results`.

    Attributes
    ----------
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.
    hands : Counters or None
        Counters of every data (:func:`hand_counters`); None when the run kept no hands.
    games : dict of str to Counters, or None
        Levels chica and mesa: :func:`game_counters` (``"all"``, ``"finished"``).
    provenance : dict
        As ``Results.provenance``.
    """

    level: str
    hands: Counters | None
    games: dict[str, Counters] | None
    provenance: dict[str, Any] = field(default_factory=dict)

    def merge(self, other: Aggregates) -> Aggregates:
        """Counters of both runs' units together (provenance of ``self``).

        Raises
        ------
        ValueError
            If the levels or the kept parts differ.
        """
        if self.level != other.level or (self.hands is None) != (other.hands is None):
            raise ValueError("cannot merge aggregates of different levels or kept parts")
        hands = None if self.hands is None else self.hands.merge(other.hands)  # type: ignore[arg-type]
        games = None
        if self.games is not None and other.games is not None:
            games = {k: v.merge(other.games[k]) for k, v in self.games.items()}
        return Aggregates(self.level, hands, games, dict(self.provenance))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; inverse :meth:`from_dict`."""
        return {
            "level": self.level,
            "hands": None if self.hands is None else self.hands.to_dict(),
            "games": None
            if self.games is None
            else {k: v.to_dict() for k, v in self.games.items()},
            "provenance": self.provenance,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Aggregates:
        """Rebuild from :meth:`to_dict` output.

        Raises
        ------
        ValueError
            If the data is malformed.
        """
        try:
            games = data["games"]
            return cls(
                level=str(data["level"]),
                hands=None if data["hands"] is None else Counters.from_dict(data["hands"]),
                games=None
                if games is None
                else {k: Counters.from_dict(v) for k, v in games.items()},
                provenance=dict(data.get("provenance") or {}),
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"malformed aggregates: {err!r}") from err

    # ------------------------------------------------------------------ statistics
    def summarize_hands(self, confidence: float = 0.95) -> pd.DataFrame:
        """The table of :func:`.summaries.summarize_hands`, from the counters.

        Raises
        ------
        ValueError
            If the run kept no hands.
        """
        c = self._hands()
        n = c.n
        rows = [
            _mean(c, "points per data, dealer's side", "dealer_points", confidence),
            _mean(c, "points per data, non-dealer's side", "other_points_side", confidence),
            _mean(c, "dealer's advantage (points per data)", "dealer_advantage", confidence),
            stats.proportion(
                "P(a ronda is dealt in a data)", c.count_positive("rondas"), n, confidence
            ),
            stats.proportion(
                "P(a doble ronda is dealt in a data)",
                c.count_positive("doble_rondas"),
                n,
                confidence,
            ),
            _mean(c, "caidas per data", "caidas", confidence),
            _ratio(c, "caidas per play", "caidas", "plays", confidence),
            _mean(c, "limpias per data", "limpias", confidence),
            _ratio(c, "limpias per play", "limpias", "plays", confidence),
        ]
        return pd.DataFrame(rows, columns=stats.ESTIMATE_COLUMNS)

    def summarize_games(self, confidence: float = 0.95) -> pd.DataFrame:
        """The table of :func:`.summaries.summarize_games` at this run's level.

        Raises
        ------
        ValueError
            At level data (no games).
        """
        games = self._games()
        level = self.level
        every, done = games["all"], games["finished"]
        rows = [
            stats.proportion(
                f"P(side 0 wins the {level})", done.sums["side0_wins"], done.n, confidence
            ),
            _mean(every, f"datas per {level}", "hands", confidence),
        ]
        if level == "mesa":
            rows.append(_mean(every, "chicas per mesa", "chicas", confidence))
            rows.append(
                stats.proportion(
                    "P(mesa won by a first-chica zapateria)",
                    done.sums["zapateria"],
                    done.n,
                    confidence,
                )
            )
        else:
            rows.append(
                stats.proportion("P(zapateria)", done.sums["zapateria"], done.n, confidence)
            )
        rows.append(
            stats.proportion(f"P({level} truncated)", every.sums["truncated"], every.n, confidence)
        )
        return pd.DataFrame(rows, columns=stats.ESTIMATE_COLUMNS)

    def length_distribution(
        self, confidence: float = 0.95, max_length: int | None = None
    ) -> pd.DataFrame:
        """The table of :func:`cuarenta_sim.cuarenta.analysis.length_distribution` of the games'
        lengths in datas (``Results.games["hands"]``), from their histogram.

        Raises
        ------
        ValueError
            At level data (no games).
        """
        every = self._games()["all"]
        hist = every.histograms["hands"]
        top = (max(hist) if hist else 0) if max_length is None else int(max_length)
        frame = pd.DataFrame(
            {
                "length": np.arange(1, top + 1, dtype=np.int64),
                "successes": np.array([hist.get(k, 0) for k in range(1, top + 1)], dtype=np.int64),
                "n": np.full(top, every.n, dtype=np.int64),
            }
        )
        return stats.proportions(frame, confidence=confidence)

    def estimate_metrics(
        self, metrics: Sequence[Any] | None = None, confidence: float = 0.95
    ) -> pd.DataFrame:
        """The table of :func:`cuarenta_sim.cuarenta.compare.estimate_metrics` for this run's level.

        Parameters
        ----------
        metrics : sequence of compare.Metric, optional
            Default :func:`cuarenta_sim.cuarenta.compare.cuarenta_metrics`. Only the catalogue's
            metrics are known here (by name); those of another level are skipped, like the
            record path skips metrics whose level has no frame.
        confidence : float
            Two-sided confidence level.

        Returns
        -------
        DataFrame
            Columns :data:`cuarenta_sim.cuarenta.compare.ESTIMATE_METRIC_COLUMNS`. Level data gives
            the
            data metrics (hands of a level-data run); levels chica and mesa their game metrics.

        Raises
        ------
        ValueError
            For a metric name the counters cannot answer.
        """
        from .compare import ESTIMATE_METRIC_COLUMNS, cuarenta_metrics

        metrics = cuarenta_metrics() if metrics is None else list(metrics)
        rows = []
        for m in metrics:
            if m.level != self.level or (self.level == "data" and self.hands is None):
                continue
            row = self._metric_row(m.name, confidence)
            rows.append({"label": m.label, "level": m.level, "kind": m.kind, **row})
        return pd.DataFrame(rows, columns=ESTIMATE_METRIC_COLUMNS)

    def _metric_row(self, name: str, confidence: float) -> dict:
        if self.level == "data":
            c = self._hands()
            means = {"points": "points", "dealer_advantage": "dealer_advantage"}
            means.update({f"points_{s}": f"{s}_points" for s in SOURCES})
            for stem in ("caidas", "limpias", "caidas_limpias"):
                means[f"{stem}_per_data"] = stem
            if name in means:
                return _mean(c, name, means[name], confidence)
            if name.startswith("share_") and name[6:] in SOURCES:
                return _ratio(c, name, f"{name[6:]}_points", "points", confidence)
            if name.endswith("_per_play") and name[:-9] in ("caidas", "limpias", "caidas_limpias"):
                return _ratio(c, name, name[:-9], "plays", confidence)
            if name == "ronda_dealt":
                return stats.proportion(name, c.count_positive("rondas"), c.n, confidence)
            if name in ("rondas_per_hand", "doble_rondas_per_hand"):
                return _ratio(c, name, name[:-9], HANDS_PER_DATA, confidence)
        else:
            done = self._games()["finished"]
            every = self._games()["all"]
            proportions = {
                "first_dealer_wins": "first_dealer_wins",
                "zapateria": "zapateria",
                "decided_at_38": "decided_at_38",
                "mesa_zapateria": "zapateria",
            }
            if name in proportions:
                return stats.proportion(name, done.sums[proportions[name]], done.n, confidence)
            if name == "datas_per_chica":
                return _mean(every, name, "hands", confidence)
            if name == "chicas_per_mesa":
                return _mean(done, name, "chicas", confidence)
        raise ValueError(f"metric {name!r} cannot be estimated from level-{self.level} counters")

    def _hands(self) -> Counters:
        if self.hands is None:
            raise ValueError("these aggregates kept no hands (keep_hands=False)")
        return self.hands

    def _games(self) -> dict[str, Counters]:
        if self.games is None:
            raise ValueError(f"level {self.level!r} has no games to summarize")
        return self.games


def aggregate_frames(
    level: str, hands: pd.DataFrame | None, games: pd.DataFrame | None
) -> Aggregates:
    """Counters of record frames (``Results.hands`` / ``Results.games``), no provenance."""
    return Aggregates(
        level=level,
        hands=None if hands is None else hand_counters(hands),
        games=None if games is None else game_counters(games),
    )


def aggregate_results(results: Any) -> Aggregates:
    """:class:`Aggregates` of a :class:`cuarenta_sim.results.Results` (same provenance):
    equal, counter for counter, to the aggregates-only run of the same simulation."""
    agg = aggregate_frames(results.provenance.get("level", "data"), results.hands, results.games)
    agg.provenance = dict(results.provenance)
    return agg
