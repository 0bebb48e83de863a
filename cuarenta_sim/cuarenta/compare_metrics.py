"""The Cuarenta metric catalogue of :mod:`cuarenta_sim.cuarenta.compare`.

:func:`cuarenta_metrics`: points per data by source, caida and limpia rates, the dealer's
advantage, chica and mesa figures, each a :class:`~.compare_paired.Metric` with its rule
numbers. Import it from :mod:`cuarenta_sim.cuarenta.compare`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .compare_paired import ArrayFn, Metric

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


#: Range of a per-unit share of events out of trials (per play, per dealt hand): a sample
#: with no variation gets a bound, not "no interval" (:func:`cuarenta_sim.stats.ratio`).
_SHARE = (0.0, 1.0)


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
            value_range=_SHARE,
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
            value_range=_SHARE,
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
            value_range=_SHARE,
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
            value_range=_SHARE,
        ),
        Metric(
            "doble_rondas_per_hand",
            "doble rondas per dealt hand",
            "data",
            "ratio",
            _both("doble_rondas"),
            denominator=_hands_dealt,
            note="R4.2",
            value_range=_SHARE,
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
