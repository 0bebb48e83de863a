"""Duplicate matches of Cuarenta policies: every game played twice, seats swapped, same decks.

:func:`play_duplicate` is the match player of the tournaments
(:func:`cuarenta_sim.cuarenta.strategy_play.cuarenta_tournament`), the folk-tactic experiments
(:mod:`cuarenta_sim.cuarenta.tactics`) and the strength sweep
(``python benchmarks/run.py policies-sweep``); it lives in its own module so that those
import it without importing one another.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..tournament import PAIR_COLUMNS, TOURNAMENT_LEVELS


def play_duplicate(
    a: str,
    b: str,
    *,
    rules: str = "quito",
    players: int = 2,
    level: str = "chica",
    n: int = 10_000,
    seed: int = 0,
    threads: int | None = None,
) -> pd.DataFrame:
    """Play ``n`` duplicate pairs of Cuarenta games between policies ``a`` and ``b``.

    Game ``g`` is played once with ``a`` on side 0 and once with ``a`` on side 1, on the same
    seed (same decks and first dealer, contract section 2).

    Parameters
    ----------
    a, b : str
        Policy specs (:func:`cuarenta_sim.cuarenta.policies.resolve_policies`); each plays every
        seat
        of its side.
    rules : str
        Preset or slug (section S).
    players : int
        2, or 4 (two partnerships, R2.1).
    level : str
        ``"chica"`` or ``"mesa"`` (R9).
    n : int
        Duplicate pairs (games per seating), > 0.
    seed : int
        Seed of both seatings.
    threads : int or None
        numba threads (never changes the numbers).

    Returns
    -------
    DataFrame
        One row per game index, columns :data:`PAIR_COLUMNS`: ``a_wins`` (float64: games of
        the pair won by ``a``, 0 to 2, a truncated game counting 0.5), ``games`` (int64, 2),
        ``a_points`` / ``b_points`` (int64: points scored by each policy's side over both
        games, R9.2), ``datas`` (int64: datas played in both games).

    Raises
    ------
    ValueError
        Unknown policy, rules, level, or bad ``n`` / ``players`` / ``seed``.
    """
    from ..simulation import simulate

    if level not in TOURNAMENT_LEVELS:
        raise ValueError(f"level must be one of {', '.join(TOURNAMENT_LEVELS)}, got {level!r}")
    runs = []
    for seating in ((a, b), (b, a)):
        res = simulate(
            rules=rules,
            players=players,
            policies=seating,
            n=n,
            level=level,
            seed=seed,
            threads=threads,
        )
        runs.append(res)
    out = {"game": runs[0].games["game"].to_numpy(np.int64)}
    a_wins = np.zeros(n, dtype=np.float64)
    a_points = np.zeros(n, dtype=np.int64)
    b_points = np.zeros(n, dtype=np.int64)
    datas = np.zeros(n, dtype=np.int64)
    for a_side, res in enumerate(runs):
        winner = res.games["winner"].to_numpy()
        a_wins += np.where(winner < 0, 0.5, (winner == a_side).astype(np.float64))
        h = res.hands
        game = h["game"].to_numpy()
        pts_a = h[f"points_{a_side}"].to_numpy(np.int64)
        pts_b = h[f"points_{1 - a_side}"].to_numpy(np.int64)
        a_points += np.bincount(game, weights=pts_a, minlength=n).astype(np.int64)
        b_points += np.bincount(game, weights=pts_b, minlength=n).astype(np.int64)
        datas += np.bincount(game, minlength=n).astype(np.int64)
    out.update(
        a_wins=a_wins,
        games=np.full(n, 2, dtype=np.int64),
        a_points=a_points,
        b_points=b_points,
        datas=datas,
    )
    return pd.DataFrame(out, columns=list(PAIR_COLUMNS))
