"""Estimates of the player's guide summaries, clustered by chica, and the dealer's-edge
point sources with their definitions (split from :mod:`cuarenta_sim.cuarenta.guide_analysis`).

* :func:`ratio_by`: the share of rows with a hit per group, ratio of sums over chicas;
* :func:`clustered_means`: a mean value per group with its interval clustered by chica (the
  decisions of one chica are not independent);
* :data:`SOURCES`, :data:`SOURCE_DEFINITIONS`, :func:`source_legend`: what each source of
  the dealer's-edge table counts, with its rules.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import stats

#: Point sources of the dealer's-edge tables, in order (records columns ``<source>_points_k``).
SOURCES = ("ronda", "caida", "limpia", "carton", "other")
#: What each of :data:`SOURCES` counts, with its rules (``cuarenta_sim.results``: the records'
#: ``<source>_points_k`` columns, which add up to ``points_k``).
SOURCE_DEFINITIONS = {
    "ronda": "ronda announcements (R4)",
    "caida": "caidas, claims included (R6, R6.4)",
    "limpia": "limpias (R7)",
    "carton": "carton points for 20 or more cards (R8.2)",
    "other": (
        "every other end-of-data point: the tie points when both sides have exactly 20 cards "
        "(R8.3), the 2 points when neither side reaches 20 (R8.4) and the falla points "
        "received (R8.5)"
    ),
}


def source_legend() -> str:
    """The dealer's-edge sources defined in one clause (:data:`SOURCE_DEFINITIONS`), e.g.
    ``"sources: `ronda` = ronda announcements (R4); ..."``, for the text above the table."""
    return "sources: " + "; ".join(f"`{k}` = {SOURCE_DEFINITIONS[k]}" for k in SOURCES)


def ratio_by(
    log: pd.DataFrame, by: Sequence[str], hit: str, confidence: float, metric: str
) -> pd.DataFrame:
    """Share of rows with ``hit`` per group: ratio of sums over chicas (delta method).

    The delta-method bounds are clipped to [0, 1] (a share); with few chicas in a group the
    interval is wide and approximate, which the ``chicas`` column lets a reader see.
    """
    out = []
    for key, sub in log.groupby(list(by), sort=True, observed=True):
        per = sub.groupby("game")[hit].agg(["sum", "count"])
        row = stats.ratio(
            metric,
            per["sum"].to_numpy(np.float64),
            per["count"].to_numpy(np.float64),
            confidence,
            (0.0, 1.0),
        )
        keys = key if isinstance(key, tuple) else (key,)
        out.append(
            {
                **dict(zip(by, keys, strict=True)),
                "successes": int(per["sum"].sum()),
                "n": int(per["count"].sum()),
                "chicas": len(per),
                **{c: row[c] for c in ("estimate", "lower", "upper", "method", "defined")},
            }
        )
    frame = pd.DataFrame(out)
    if len(frame):
        frame["lower"] = frame["lower"].clip(0.0, 1.0)
        frame["upper"] = frame["upper"].clip(0.0, 1.0)
    return frame


def clustered_means(
    frame: pd.DataFrame, by: Sequence[str], value: str, confidence: float, metric: str
) -> pd.DataFrame:
    """Mean of ``value`` per group with its interval **clustered by chica** (column ``game``):
    the ratio of the per-chica sums to the per-chica counts (:func:`cuarenta_sim.stats.ratio`,
    delta method, Student t below 1,000 chicas), since the decisions of one chica are not
    independent (an interval over decisions would treat them so and be too narrow).

    Returns
    -------
    DataFrame
        The ``by`` columns, ``n`` (rows: decisions), ``chicas``, ``estimate``, ``lower``,
        ``upper``, ``method`` (``"ratio"``), ``defined``, ``no_variation``. Groups with no
        finite value are left out.
    """
    data = frame[np.isfinite(frame[value].to_numpy(np.float64))]
    out = []
    for key, sub in data.groupby(list(by), sort=True, observed=True):
        per = sub.groupby("game")[value].agg(["sum", "count"])
        row = stats.ratio(
            metric,
            per["sum"].to_numpy(np.float64),
            per["count"].to_numpy(np.float64),
            confidence,
        )
        keys = key if isinstance(key, tuple) else (key,)
        out.append(
            {
                **dict(zip(by, keys, strict=True)),
                "n": int(per["count"].sum()),
                "chicas": len(per),
                **{c: row[c] for c in ("estimate", "lower", "upper", "method", "defined")},
                "no_variation": bool(row.get("no_variation", False)),
            }
        )
    columns = [*by, "n", "chicas", "estimate", "lower", "upper", "method", "defined"]
    return pd.DataFrame(out, columns=[*columns, "no_variation"])
