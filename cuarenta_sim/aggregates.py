"""Exactly mergeable counters of simulation records, and the statistics they give (both games).

A large run (billions of hands) cannot keep one row per hand. Each chunk of games instead
reduces its records to integer :class:`Counters` (count, per-column sum, sum of squares and
value histogram, plus the cross-products the ratio intervals need); counters of chunks add up
exactly, in any grouping, so the merged counters of a run equal the counters of its full
record frames, bit for bit. A game's :class:`Aggregates` subclass (its ``aggregates`` module)
chooses the features and rebuilds its summary tables from them: the same rows, counts,
estimates and methods as the record path, bounds equal to rounding (the record path computes
standard deviations in floating point, this module from exact integer sums).

Public API: :class:`Counters`, :func:`merge_all`, :func:`mean_from_sums`,
:func:`ratio_from_sums`, :func:`mean_row`, :func:`ratio_row`, :class:`Aggregates` (the
game-independent base: level, hand and game counters, provenance, merge, JSON form).

Exactness: the counters are Python integers (int64 within a chunk); a chunk may hold at most
2**31 rows of values below 2**15 in magnitude, so no chunk sum overflows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from . import stats

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


def mean_row(c: Counters, metric: str, name: str, confidence: float = 0.95) -> dict:
    """:func:`mean_from_sums` of feature ``name`` of ``c``, as an estimate row ``metric``."""
    return mean_from_sums(metric, c.n, c.sums[name], c.squares[name], confidence)


def ratio_row(c: Counters, metric: str, y: str, x: str | int, confidence: float = 0.95) -> dict:
    """:func:`ratio_from_sums` of feature ``y`` over feature ``x`` (or over the constant
    ``x`` per unit), as an estimate row ``metric``."""
    if isinstance(x, int):
        sx, sxx, sxy = x * c.n, x * x * c.n, x * c.sums[y]
    else:
        sx, sxx, sxy = c.sums[x], c.squares[x], c.product(y, x)
    return ratio_from_sums(metric, c.n, c.sums[y], sx, c.squares[y], sxx, sxy, confidence)


@dataclass
class Aggregates:
    """Merged counters of a run, with provenance: the memory-flat form of
    :class:`cuarenta_sim.results.Results`. Each game subclasses it with its summary tables.

    Attributes
    ----------
    level : str
        The simulated level (a ``Game.levels`` entry).
    hands : Counters or None
        Counters of every hand record; None when the run kept no hands.
    games : dict of str to Counters, or None
        Counters of the games (at least ``"all"``, whose features include ``hands`` and
        ``truncated``); None at a hand level.
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
        return type(self)(self.level, hands, games, dict(self.provenance))

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
        """Rebuild from :meth:`to_dict` output (an instance of the class called on).

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

    @property
    def hands_played(self) -> int:
        """Hand records counted: the hands counters' ``n``, else the games' ``hands`` summed."""
        if self.hands is not None:
            return self.hands.n
        if self.games is None:
            return 0
        return self.games["all"].sums["hands"]

    @property
    def truncated(self) -> int:
        """Games cut short by the engine's cap (0 at a hand level)."""
        if self.games is None:
            return 0
        return self.games["all"].sums["truncated"]

    def _hands(self) -> Counters:
        if self.hands is None:
            raise ValueError("these aggregates kept no hands (keep_hands=False)")
        return self.hands

    def _games(self) -> dict[str, Counters]:
        if self.games is None:
            raise ValueError(f"level {self.level!r} has no games to summarize")
        return self.games
