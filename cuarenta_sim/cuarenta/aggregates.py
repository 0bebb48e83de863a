"""Cuarenta's counters: the features of a data and of a game, and the tables they rebuild.

Each chunk of a run reduces its records to :class:`cuarenta_sim.aggregates.Counters` of the
features below; the merged counters rebuild the estimate tables of the record path
(:func:`.summaries.summarize_hands`, :func:`.summaries.summarize_games`,
:func:`cuarenta_sim.cuarenta.compare.estimate_metrics` with
:func:`cuarenta_sim.cuarenta.compare.cuarenta_metrics`,
:func:`cuarenta_sim.cuarenta.analysis.length_distribution`): the same rows, counts, estimates
and methods, bounds equal to rounding. Not covered: paired differences between two runs (they
need both runs' per-unit values) and the win probability by score state.

Public API: :func:`hand_features`, :func:`hand_counters`, :func:`game_features`,
:func:`game_counters`, :class:`Aggregates`, :func:`aggregate_frames`,
:func:`aggregate_results`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .. import stats
from ..aggregates import Aggregates as BaseAggregates
from ..aggregates import Counters
from ..aggregates import mean_row as _mean
from ..aggregates import ratio_row as _ratio

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
class Aggregates(BaseAggregates):
    """Merged counters of a Cuarenta run, with provenance: the memory-flat form of
    :class:`cuarenta_sim.results.Results`.

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
