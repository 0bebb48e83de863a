"""Win-probability tables: P(win the chica) and P(win the mesa) at the start of every deal.

The data come from the one pipeline and the numba engine's traces, never from new play code:
:func:`deal_states` runs :func:`cuarenta_sim.simulate` at level ``mesa`` (records: dealer of
every data, chica of every data, mesa winner) and reads each mesa's kernel trace
(:func:`cuarenta_sim.cuarenta.engine.batch.trace_game`, contract section 7: the same play as
the records) for the scores at the start of every deal of every data. A chica inside a mesa is
a chica (R9.2), so one run gives both tables.

:func:`win_probability_table` turns the states into one row per cell (both sides' scores, who
deals, the deal within the data; at level mesa also the chicas each side has won) with Wilson
intervals over independent chicas (a chica passes through a cell at most once: scores only
grow, R1.4, R8.2). Cells with fewer than ``min_n`` observations are **masked**: their
estimate and bounds are NaN and ``masked`` is True (``n`` stays); cells never reached have
``n = 0``. No smoothing. :func:`write_table_csv` / :func:`read_table_csv` round-trip a table.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from .. import stats
from ..io import atomic_path
from .trace_format import KIND_ANNOUNCE, TRACE_COLUMNS

#: Default smallest number of observations of a shown cell.
MIN_N = 30
#: Levels of :func:`win_probability_table`.
TABLE_LEVELS = ("chica", "mesa")
_DATA = TRACE_COLUMNS.index("data")
_DEAL = TRACE_COLUMNS.index("deal")
_SEAT = TRACE_COLUMNS.index("seat")
_KIND = TRACE_COLUMNS.index("kind")
_FLAG = TRACE_COLUMNS.index("flag")
_S0 = TRACE_COLUMNS.index("score0")
_S1 = TRACE_COLUMNS.index("score1")
#: Columns of :func:`deal_states`.
STATE_COLUMNS = (
    "game",
    "chica",
    "data",
    "deal",
    "dealer_side",
    "score_0",
    "score_1",
    "chicas_0",
    "chicas_1",
    "chica_winner",
    "mesa_winner",
)


def chica_winner(last_row: np.ndarray, target: int) -> int:
    """The side that won a chica, from the chica's last trace row (contract section 7).

    A chica ends at once when a side reaches ``target`` (R9.2) or by a ``win_chica`` doble
    ronda announcement (R4.2), whose points are not added to the score.

    Parameters
    ----------
    last_row : ndarray of int64, shape (17,)
        The last trace row of the chica.
    target : int
        Points that win a chica.

    Returns
    -------
    int
        0 or 1.

    Raises
    ------
    ValueError
        If the row ends no chica (no side at the target and no doble ronda announcement).
    """
    if last_row[_S0] >= target:
        return 0
    if last_row[_S1] >= target:
        return 1
    if last_row[_KIND] == KIND_ANNOUNCE and last_row[_FLAG] == 2:
        return int(last_row[_SEAT]) % 2
    raise ValueError(f"trace row {last_row.tolist()} ends no chica (R9.2, R4.2)")


def states_of_trace(
    trace: np.ndarray,
    data_chica: np.ndarray,
    data_dealer: np.ndarray,
    players: int,
    target: int,
) -> dict[str, np.ndarray]:
    """The score state at the start of every deal of one mesa (or chica) trace.

    Parameters
    ----------
    trace : ndarray of int64, shape (steps, 17)
        A level-mesa (or level-chica) kernel trace.
    data_chica : ndarray of int, shape (datas,)
        Chica number of each data of the game (records column ``chica``; zeros at level
        chica).
    data_dealer : ndarray of int, shape (datas,)
        Dealer seat of each data (records column ``dealer``).
    players : int
        2 or 4 (the dealer's side is ``dealer % 2``, R2.1).
    target : int
        Points that win a chica.

    Returns
    -------
    dict of str to ndarray
        Equal-length arrays, one entry per deal that started: ``chica``, ``data``, ``deal``,
        ``dealer_side``, ``score_0``, ``score_1`` (before the deal's first step, announcements
        included), ``chicas_0``, ``chicas_1`` (chicas won earlier in the mesa) and
        ``chica_winner``.
    """
    data = trace[:, _DATA]
    deal = trace[:, _DEAL]
    key = data * 16 + deal
    start = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    chica_of_row = data_chica[data]
    # The last row of each chica decides it (R9.2): one winner per chica, in order.
    last = np.flatnonzero(np.r_[chica_of_row[1:] != chica_of_row[:-1], True])
    winners = np.array([chica_winner(trace[i], target) for i in last], dtype=np.int64)
    won0 = np.r_[0, np.cumsum(winners == 0)[:-1]]
    won1 = np.r_[0, np.cumsum(winners == 1)[:-1]]
    chica = chica_of_row[start]
    first_of_chica = np.r_[True, chica[1:] != chica[:-1]]
    prev = np.maximum(start - 1, 0)
    s0 = np.where(first_of_chica, 0, trace[prev, _S0])
    s1 = np.where(first_of_chica, 0, trace[prev, _S1])
    order = np.searchsorted(chica_of_row[last], chica)
    return {
        "chica": chica.astype(np.int64),
        "data": data[start],
        "deal": deal[start],
        "dealer_side": (data_dealer[data[start]] % 2).astype(np.int64),
        "score_0": s0,
        "score_1": s1,
        "chicas_0": won0[order],
        "chicas_1": won1[order],
        "chica_winner": winners[order],
    }


def deal_states(
    rules: str = "quito",
    players: int = 2,
    policies: str | Sequence[str] = "learned",
    n_mesas: int = 1_000,
    seed: int = 0,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Play ``n_mesas`` mesas and return the state at the start of every deal.

    Parameters
    ----------
    rules : str
        Preset or slug (section S).
    players : int
        2 or 4 (R2.1).
    policies : str or sequence of str
        Policy specs as for :func:`cuarenta_sim.simulate`.
    n_mesas : int
        Mesas, > 0.
    seed : int
        Seed of the run (the traces replay the same games).
    threads : int or None
        numba threads of the records run.
    progress : callable, optional
        Called with the number of mesas traced so far, every 1,000.

    Returns
    -------
    DataFrame
        One row per deal that started, columns :data:`STATE_COLUMNS` (``game`` is the mesa,
        ``mesa_winner`` its winner); truncated mesas are left out.

    Raises
    ------
    ValueError
        Bad rules, players, policies, size or seed.
    """
    from ..simulation import simulate
    from .engine.batch import trace_game
    from .rules import resolve_rules

    ruleset = resolve_rules(rules)
    res = simulate(
        "cuarenta",
        rules=ruleset,
        players=players,
        policies=policies,
        n=n_mesas,
        level="mesa",
        seed=seed,
        threads=threads,
    )
    hands, games = res.hands, res.games
    assert hands is not None and games is not None
    bounds = np.searchsorted(hands["game"].to_numpy(), np.arange(n_mesas + 1))
    chica_col = hands["chica"].to_numpy(np.int64)
    dealer_col = hands["dealer"].to_numpy(np.int64)
    winners = games["winner"].to_numpy(np.int64)
    truncated = games["truncated"].to_numpy(bool)
    parts = []
    for g in range(n_mesas):
        if progress is not None and g % 1000 == 0 and g:
            progress(g)
        if truncated[g]:
            continue
        trace = trace_game(ruleset, players, policies, seed, "mesa", g)
        lo, hi = bounds[g], bounds[g + 1]
        part = states_of_trace(trace, chica_col[lo:hi], dealer_col[lo:hi], players, ruleset.target)
        part["game"] = np.full(part["chica"].size, g, dtype=np.int64)
        part["mesa_winner"] = np.full(part["chica"].size, winners[g], dtype=np.int64)
        parts.append(part)
    if not parts:
        return pd.DataFrame({c: np.zeros(0, dtype=np.int64) for c in STATE_COLUMNS})
    cols = {c: np.concatenate([p[c] for p in parts]) for c in STATE_COLUMNS}
    return pd.DataFrame(cols)


def win_probability_table(
    states: pd.DataFrame,
    level: str = "chica",
    *,
    players: int = 2,
    target: int = 40,
    chicas_to_win: int = 2,
    min_n: int = MIN_N,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """P(win the chica or mesa) by both scores, who deals and the deal within the data.

    Each state of :func:`deal_states` gives two observations, one from each side: ``own``
    is the side whose chance is estimated, ``own_deals`` whether its seat deals this data
    (R3.3: the dealer plays last in every deal).

    Parameters
    ----------
    states : DataFrame
        :func:`deal_states` output.
    level : {"chica", "mesa"}
        Whose win: the chica's (``chica_winner``) or the mesa's (``mesa_winner``).
    players : int
        2 or 4: deals per data are 4 or 2 (R2.2).
    target : int
        Points of a chica (the grid is ``0, 2, ..., target - 2``, R1.4).
    chicas_to_win : int
        Chicas that win a mesa (level mesa: ``own_chicas`` and ``opponent_chicas`` run over
        ``0 .. chicas_to_win - 1``).
    min_n : int
        Cells with fewer observations are masked (NaN estimate and bounds, ``masked``
        True); >= 1.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per cell of the full grid (cells never reached kept with ``n = 0``):
        ``level``, ``players``, ``deal``, ``own_deals`` (bool), at level mesa
        ``own_chicas``, ``opponent_chicas``; ``own_score``, ``opponent_score``, ``successes``,
        ``n``, ``estimate``, ``lower``, ``upper`` (Wilson), ``method``, ``reached`` (n > 0),
        ``masked`` (0 < n < min_n: hidden), ``min_n``.

    Raises
    ------
    ValueError
        Unknown level, ``min_n < 1`` or players not 2 or 4.
    """
    if level not in TABLE_LEVELS:
        raise ValueError(f"level must be one of {', '.join(TABLE_LEVELS)}, got {level!r}")
    if isinstance(min_n, bool) or not isinstance(min_n, int) or min_n < 1:
        raise ValueError(f"min_n must be a whole number >= 1, got {min_n!r}")
    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4 (R2.1), got {players!r}")
    winner = states["chica_winner" if level == "chica" else "mesa_winner"].to_numpy(np.int64)
    scores = list(range(0, target, 2))
    deals = list(range(40 // (5 * players)))  # R2.2: 4 deals with 2 players, 2 with 4
    frames = []
    for own in (0, 1):
        opp = 1 - own
        frame = {
            "deal": pd.Categorical(states["deal"].to_numpy(), categories=deals),
            "own_deals": pd.Categorical(
                states["dealer_side"].to_numpy() == own, categories=[False, True]
            ),
        }
        if level == "mesa":
            tally = list(range(chicas_to_win))
            frame["own_chicas"] = pd.Categorical(states[f"chicas_{own}"], categories=tally)
            frame["opponent_chicas"] = pd.Categorical(states[f"chicas_{opp}"], categories=tally)
        frame["own_score"] = pd.Categorical(states[f"score_{own}"], categories=scores)
        frame["opponent_score"] = pd.Categorical(states[f"score_{opp}"], categories=scores)
        frame["won"] = (winner == own).astype(np.int64)
        frames.append(pd.DataFrame(frame))
    keys = [c for c in frames[0].columns if c != "won"]
    table = stats.grouped_proportions(pd.concat(frames, ignore_index=True), keys, "won", confidence)
    for c in keys:
        table[c] = table[c].astype(bool if c == "own_deals" else np.int64)
    table = table.drop(columns=["defined", "no_variation"])
    table["reached"] = table["n"] > 0
    table["masked"] = table["reached"] & (table["n"] < min_n)
    hide = table["n"] < min_n
    table.loc[hide, ["estimate", "lower", "upper"]] = np.nan
    table["min_n"] = min_n
    table.insert(0, "players", players)
    table.insert(0, "level", level)
    return table


def write_table_csv(table: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write a table as CSV (atomically; NaN as an empty field).

    Parameters
    ----------
    table : DataFrame
        E.g. :func:`win_probability_table` output.
    path : str or path
        Destination; its directory is created.
    """
    with atomic_path(path) as tmp:
        table.to_csv(tmp, index=False, float_format="%.17g")


def read_table_csv(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a CSV written by :func:`write_table_csv` (empty fields back to NaN).

    Parameters
    ----------
    path : str or path

    Returns
    -------
    DataFrame
    """
    return pd.read_csv(path)
