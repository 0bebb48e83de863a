"""Sizing: how many units an interval of a wanted half-width needs (:func:`required_n`).

Every confirmatory or panel run of a report is sized with it to a stated detectable
difference; :func:`cuarenta_sim.verdicts.too_small` says when a run came out too small.
"""

from __future__ import annotations

import math
import numbers

from .distributions import z_value
from .small_sample import critical_value


def required_n(
    kind: str,
    target_half_width: float,
    p: float | None = None,
    sd: float | None = None,
    confidence: float = 0.95,
    design_effect: float = 1.0,
) -> int:
    """Units needed for an interval of half-width at most ``target_half_width``.

    Parameters
    ----------
    kind : {"proportion", "mean"}
        ``"proportion"``: ``n = z^2 p (1 - p) deff / h^2`` (the normal half-width; the Wilson
        half-width is at most this at these sizes). ``"mean"`` (also a paired difference,
        with the sd of the per-unit differences): the smallest ``n`` with
        ``c(n) sd sqrt(deff) / sqrt(n) <= h``, ``c`` the critical value actually used
        (:func:`cuarenta_sim.verdicts.critical_value`: Student t below 1,000 units).
    target_half_width : float
        Wanted half-width ``h`` (units of the estimate: 0.01 is one percentage point).
    p : float, optional
        Anticipated proportion, strictly in (0, 1); ``None``: the worst case 0.5.
    sd : float
        Standard deviation of one unit's value (``kind="mean"``, required).
    confidence : float
        Two-sided level.
    design_effect : float
        Variance inflation over independent units (>= 0; e.g. Kish's ``deff`` of duplicate
        pairs, below 1 when pairing helps).

    Returns
    -------
    int
        Units to run (at least 2).

    Raises
    ------
    ValueError
        On an unknown kind, a non-positive half-width, ``p`` outside (0, 1), a missing or
        non-positive ``sd``, or a negative design effect.
    """
    z = z_value(confidence)
    if not (
        isinstance(target_half_width, numbers.Real)
        and math.isfinite(target_half_width)
        and target_half_width > 0
    ):
        raise ValueError(f"target_half_width must be positive, got {target_half_width!r}")
    if not design_effect > 0:
        raise ValueError(f"design_effect must be positive, got {design_effect!r}")
    h = float(target_half_width)
    if kind == "proportion":
        q = 0.5 if p is None else p
        if not 0.0 < q < 1.0:
            raise ValueError(f"p must be strictly between 0 and 1 (None: worst case), got {p!r}")
        return max(2, math.ceil(z * z * q * (1.0 - q) * design_effect / (h * h) - 1e-9))
    if kind == "mean":
        if sd is None or not sd > 0:
            raise ValueError(f"kind='mean' needs a positive sd, got {sd!r}")
        s = float(sd) * math.sqrt(design_effect)
        n = max(2, math.ceil((z * s / h) ** 2 - 1e-9))
        while critical_value(confidence, n) * s / math.sqrt(n) > h:
            n += max(1, n // 100)
        while n > 2 and critical_value(confidence, n - 1) * s / math.sqrt(n - 1) <= h:
            n -= 1
        return n
    raise ValueError(f"unknown kind {kind!r}; accepted: 'proportion', 'mean'")
