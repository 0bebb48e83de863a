"""Cuarenta analyses behind the reports and notebooks: score states, chica lengths, odds checks.

Every function takes tidy frames (``Results.hands`` / ``Results.games``, contract section 8)
or plain parameters and returns a tidy frame whose columns its docstring lists, with
intervals (method named in a ``method`` column: ``wilson``, ``normal``, ``ratio``).

* :func:`win_probability_by_score`: P(win the chica | score state after a data), seen from
  the side that deals next, from level-chica runs (R9.2);
* :func:`length_distribution`: share of chicas (or mesas) of each length, zero counts kept;
* :func:`odds_check`: exact dealing odds (:mod:`cuarenta_sim.cuarenta.odds`, R4) against simulated
  rondas and doble rondas;
* :func:`caida_risk_table` and :func:`caida_risk_check`: the exact chance that the next player
  holds a rank you trail (R6.1), and the same counted on the simulator's decks.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from .. import stats
from . import odds

#: Seat scope of the odds exists per seat only with 2 players (one seat per side); the records
#: hold per-side counts (contract section 8).
ODDS_EVENTS = {
    "ronda": ("rondas",),
    "doble_ronda": ("doble_rondas",),
    "ronda_or_better": ("rondas", "doble_rondas"),
}


# --------------------------------------------------------------------------- score states
def win_probability_by_score(
    hands: pd.DataFrame,
    games: pd.DataFrame,
    target: int = 40,
    players: int = 2,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """P(win the chica | score state after a data), seen from the side that deals next.

    Every data that did not end its chica gives one observation: the scores after it, from
    the point of view of the side whose seat deals the next data (the deal passes to the next
    seat, R3.4), and whether that side won the chica. The other side's chance in the same
    state is one minus it (no draws), so this one grid holds all the information, including
    the dealer's edge (R3.3: the dealer plays last). States that never occur are kept with
    ``n = 0`` and NaN estimate.

    Parameters
    ----------
    hands : DataFrame
        ``Results.hands`` of a level-chica run: columns ``game``, ``dealer`` (seat),
        ``score_0``, ``score_1`` (after the data), ``ended``.
    games : DataFrame
        ``Results.games`` of the same run: ``game``, ``winner`` (side; -1 truncated),
        ``truncated``. Truncated chicas are left out.
    target : int
        Points that win a chica (R9.2); scores ``0, 2, ..., target - 2`` form the grid
        (scores are even, R1.4).
    players : int
        2 or 4: the seat after ``dealer`` is ``(dealer + 1) % players`` (R2.1).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per state, ``(target / 2) ** 2`` rows: ``own_score`` (the next dealer's
        side), ``opponent_score`` (categorical), ``successes`` (chicas that side won), ``n``
        (observations), ``estimate``, ``lower``, ``upper``, ``method`` (``"wilson"``),
        ``defined``.

    Raises
    ------
    KeyError
        If a required column is missing.
    ValueError
        If ``players`` is not 2 or 4.
    """
    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    by_game = games.set_index("game")
    live = hands.loc[~hands["ended"].to_numpy(bool)]
    finished = ~by_game["truncated"].astype(bool).reindex(live["game"]).to_numpy(bool)
    live = live.loc[finished]
    w = by_game["winner"].reindex(live["game"]).to_numpy(np.int64)
    side = ((live["dealer"].to_numpy(np.int64) + 1) % players) % 2
    s0 = live["score_0"].to_numpy(np.int64)
    s1 = live["score_1"].to_numpy(np.int64)
    scores = list(range(0, target, 2))
    frame = pd.DataFrame(
        {
            "own_score": pd.Categorical(np.where(side == 0, s0, s1), categories=scores),
            "opponent_score": pd.Categorical(np.where(side == 0, s1, s0), categories=scores),
            "won": (w == side).astype(np.int64),
        }
    )
    return stats.grouped_proportions(frame, ["own_score", "opponent_score"], "won", confidence)


# --------------------------------------------------------------------------- lengths
def length_distribution(
    lengths: pd.Series | np.ndarray,
    confidence: float = 0.95,
    max_length: int | None = None,
) -> pd.DataFrame:
    """Share of games of each length, with Wilson intervals, zero counts kept.

    Parameters
    ----------
    lengths : Series or array of int, shape (games,)
        Length of every game (e.g. ``Results.games["hands"]``, datas per chica).
    confidence : float
        Two-sided confidence level.
    max_length : int, optional
        Longest length listed; default the longest observed. Longer games are counted in
        ``n`` but have no row.

    Returns
    -------
    DataFrame
        One row per length ``1 .. max_length``: ``length``, ``successes`` (games of that
        length), ``n`` (all games), ``estimate``, ``lower``, ``upper``, ``method``
        (``"wilson"``), ``defined`` (False when there are no games).
    """
    x = np.asarray(lengths, dtype=np.int64)
    top = int(x.max()) if max_length is None and x.size else int(max_length or 0)
    counts = np.bincount(x, minlength=top + 1)[1 : top + 1] if x.size else np.zeros(top, int)
    frame = pd.DataFrame(
        {
            "length": np.arange(1, top + 1, dtype=np.int64),
            "successes": counts[:top].astype(np.int64),
            "n": np.full(top, x.size, dtype=np.int64),
        }
    )
    return stats.proportions(frame, confidence=confidence)


# --------------------------------------------------------------------------- odds
#: ``win_kind`` of a chica won by an announcement (R4; engine layout ``EV_ANNOUNCE``): its last
#: data ended at the start of a deal, after that deal's hands were dealt and before any play.
WIN_BY_ANNOUNCEMENT = 1


def hands_dealt(
    hands: pd.DataFrame, players: int = 2, games: pd.DataFrame | None = None
) -> np.ndarray:
    """Five-card hands actually dealt in each data (R2.2, R3.2).

    A data deals ``8 // players`` times, ``players`` hands each (8 hands, 40 cards). At level
    data every data is dealt in full; inside chicas the chica can end mid-data (11.7% of
    2-player datas): after a play (the deal in progress was dealt: ``ceil(plays / (5
    players))`` deals) or on an announcement at the start of a deal (R4: that deal was dealt
    too, ``plays / (5 players) + 1`` deals), which only the chica's ``win_kind`` tells apart
    from a chica ending on the last play of the deal before.

    Parameters
    ----------
    hands : DataFrame
        ``Results.hands`` of a level-data or level-chica run (columns ``plays``; ``ended``,
        ``game`` inside chicas).
    players : int
        2 or 4.
    games : DataFrame, optional
        ``Results.games`` of the same chica run (``win_kind``), needed when a chica ends on an
        announcement.

    Returns
    -------
    ndarray of int64, shape (len(hands),)

    Raises
    ------
    ValueError
        If ``players`` is not 2 or 4, or a chica run's frame comes without ``games`` while a
        data ended at a deal boundary before its last deal (ambiguous without ``win_kind``).
    """
    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    full = np.full(len(hands), odds.HANDS_PER_DATA, dtype=np.int64)
    if "ended" not in hands:
        return full
    per_deal = 5 * players
    plays = hands["plays"].to_numpy(np.int64)
    ended = hands["ended"].to_numpy(bool)
    deals = -(-plays // per_deal)
    boundary = ended & (plays % per_deal == 0) & (plays < 40)
    if boundary.any():
        if games is None:
            raise ValueError(
                "hands_dealt: a chica ended at a deal boundary; pass the run's games frame "
                "(win_kind tells an announcement at the next deal from the last play)"
            )
        kind = games["win_kind"].to_numpy(np.int64)[hands["game"].to_numpy(np.int64)]
        deals = np.where(boundary & (kind == WIN_BY_ANNOUNCEMENT), plays // per_deal + 1, deals)
    deals = np.where(ended, deals, 8 // players)
    return np.minimum(deals * players, full)


def odds_check(
    hands: pd.DataFrame,
    players: int = 2,
    confidence: float = 0.95,
    games: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Exact dealing odds (R4.1, R4.2) against the rondas and doble rondas of a simulation.

    Parameters
    ----------
    hands : DataFrame
        ``Results.hands`` of a level-data run (every data dealt in full; columns
        ``rondas_k``, ``doble_rondas_k``) or of a level-chica run (then ``games`` too). Rule
        switches do not change the deal.
    players : int
        2 or 4 (R2.1): who holds which of the 8 hands of a data.
    confidence : float
        Two-sided confidence level.
    games : DataFrame, optional
        ``Results.games`` of a level-chica run (:func:`hands_dealt`).

    Returns
    -------
    DataFrame
        One row per (event, scope): ``event`` (ronda, doble_ronda, ronda_or_better),
        ``scope`` (``hand``: one dealt 5-card hand; ``seat`` (2 players only: a seat is a
        side); ``side 0``, ``side 1``: at least one of the side's 4 hands in a data;
        ``anyone``: at least one of 8; ``per data``: expected number of the 8 hands),
        ``players``, ``exact`` (float), ``exact_fraction`` (str), ``estimate``, ``lower``,
        ``upper``, ``n`` (hands dealt for scope hand, else datas), ``method``, ``defined``,
        ``comparable`` (whether the exact value applies: every row at level data; inside
        chicas only scope ``hand``, counted over the hands actually dealt
        (:func:`hands_dealt`), since a data cut short by the end of its chica deals fewer
        than 8 hands and the per-data odds assume 8) and ``within`` (comparable and the exact
        value lies inside the interval; NaN where not comparable).

        Methods: the data scopes are Wilson intervals over independent datas; ``hand`` and
        ``per data`` count several hands of one data, which are dealt from one deck and are
        not independent, so they use the ratio (cluster-robust, delta-method) and normal
        intervals over datas instead of a Wilson interval over hands.

    Raises
    ------
    ValueError
        If ``players`` is not 2 or 4.
    """
    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    n = len(hands)
    dealt = hands_dealt(hands, players, games)
    rows = []
    for event, stems in ODDS_EVENTS.items():
        side = [sum(hands[f"{s}_{k}"].to_numpy(np.int64) for s in stems) for k in (0, 1)]
        total = side[0] + side[1]
        checks: list[tuple[str, Fraction, dict]] = [
            ("hand", odds.hand_probability(event), stats.ratio(event, total, dealt, confidence)),
        ]
        if players == 2:
            checks.append(
                (
                    "seat",
                    odds.data_probability(event, "seat", 2),
                    stats.proportion(event, int((side[0] > 0).sum()), n, confidence),
                )
            )
        for k in (0, 1):
            checks.append(
                (
                    f"side {k}",
                    odds.data_probability(event, "side", players),
                    stats.proportion(event, int((side[k] > 0).sum()), n, confidence),
                )
            )
        checks.append(
            (
                "anyone",
                odds.data_probability(event, "anyone", players),
                stats.proportion(event, int((total > 0).sum()), n, confidence),
            )
        )
        checks.append(
            (
                "per data",
                odds.expected_per_data(event, "anyone", players),
                stats.mean(event, total, confidence),
            )
        )
        for scope, exact, row in checks:
            rows.append(
                {
                    "event": event,
                    "scope": scope,
                    "players": players,
                    "exact": float(exact),
                    "exact_fraction": str(exact),
                    **{k: row[k] for k in ("estimate", "lower", "upper", "n", "method", "defined")},
                }
            )
    out = pd.DataFrame(rows)
    out.loc[out["scope"] == "hand", "n"] = int(dealt.sum())
    full = bool((dealt == odds.HANDS_PER_DATA).all())
    out["comparable"] = full | (out["scope"] == "hand")
    inside = out["defined"] & (out["lower"] <= out["exact"]) & (out["exact"] <= out["upper"])
    # Bool where every row is comparable (level data), else object with NaN where not.
    out["within"] = inside if full else inside.astype(object).where(out["comparable"], np.nan)
    return out


def caida_risk_table(
    unseen: tuple[int, ...] = (35, 30, 25, 20, 15, 10), next_hand: int = 5
) -> pd.DataFrame:
    """Exact chance that the next player holds a rank you trail (caida risk, R6.1).

    Parameters
    ----------
    unseen : tuple of int
        Numbers of cards you cannot see (35 at your first play of a data: the 40 cards but
        your 5).
    next_hand : int
        Cards in the next player's hand (5 before anyone played in the deal, then fewer).

    Returns
    -------
    DataFrame
        One row per ``seen`` (1..4: cards of the rank you can see, the trailed card
        included): ``seen``, then one float column per ``unseen`` value named ``"unseen=U"``,
        the probability from :func:`cuarenta_sim.cuarenta.odds.next_player_holds`.
    """
    rows = []
    for seen in range(1, 5):
        row: dict[str, float | int] = {"seen": seen}
        for u in unseen:
            row[f"unseen={u}"] = float(odds.next_player_holds(seen, u, next_hand))
        rows.append(row)
    return pd.DataFrame(rows)


def caida_risk_states(players: int) -> pd.DataFrame:
    """Every state in which a player trails and the next player still holds cards (R6.1).

    With 2 players a data is 4 deals of 5 cards each (R2.2, R3.2) and the two players alternate;
    with 4 players it is 2 deals and four players take turns. Before a trail the trailer sees
    its own 5 cards of the deal and every card played before (earlier deals included), so
    ``unseen = 35 - (cards per deal) (deal - 1) - (cards the others played in this deal)``,
    and the next player holds 5 cards minus the ones it has played in this deal.

    Parameters
    ----------
    players : int
        2 or 4 (R2.1).

    Returns
    -------
    DataFrame
        One row per (``deal``, ``round``, ``position``): ``position`` 1 is the deal's first
        player, ``round`` the trailer's ``round``-th card of the deal; ``unseen`` and
        ``next_hand`` (1..5; states where the next player holds no card are left out: no caida
        is possible there).

    Raises
    ------
    ValueError
        If ``players`` is not 2 or 4.
    """
    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4 (R2.1), got {players!r}")
    deals, per_deal = (4, 10) if players == 2 else (2, 20)
    rows = []
    for deal in range(1, deals + 1):
        for rnd in range(1, 6):
            for pos in range(1, players + 1):
                others = (players - 1) * (rnd - 1) + (pos - 1)
                next_hand = 5 - (rnd - 1) - (1 if pos == players else 0)
                if next_hand < 1:
                    continue
                unseen = 35 - per_deal * (deal - 1) - others
                rows.append(
                    {
                        "deal": deal,
                        "round": rnd,
                        "position": pos,
                        "unseen": unseen,
                        "next_hand": next_hand,
                    }
                )
    return pd.DataFrame(rows)


def caida_risk_when_next_holds_five(players: int) -> pd.DataFrame:
    """Exact caida risk (R6.1) in the states where the next player still holds all 5 cards.

    These are the only states where :func:`caida_risk_table`'s ``next_hand = 5`` applies:
    with 2 players the deal's first trail (``unseen`` 35, 25, 15, 5); with 4 players the
    first three trails of a deal (35, 34, 33 and 15, 14, 13). Later in a deal the next player
    holds fewer cards (:func:`caida_risk_states`).

    Parameters
    ----------
    players : int
        2 or 4.

    Returns
    -------
    DataFrame
        ``seen`` (1..4), then one float column ``"unseen=U"`` per such state, the probability
        of :func:`cuarenta_sim.cuarenta.odds.next_player_holds` with a hand of 5.
    """
    states = caida_risk_states(players)
    five = states[states["next_hand"] == 5]["unseen"].drop_duplicates()
    return caida_risk_table(tuple(int(u) for u in five), 5)


def caida_risk_check(n: int = 100_000, seed: int = 0, confidence: float = 0.95) -> pd.DataFrame:
    """Count the caida risk on the simulator's decks at the first play of a data (R6.1).

    For data ``i`` (level data, seed ``seed``) the deck is the simulator's
    (:func:`cuarenta_sim.rng.nb_shuffled_ranks`, contract section 2): the leader receives
    deck positions 0-4, the next seat positions 5-9. For every rank the leader holds ``c``
    times (``seen = c``, nothing else visible, ``unseen = 35``), the event is "the next seat
    holds at least one card of that rank" (the chance that trailing it invites a caida).

    Parameters
    ----------
    n : int
        Datas (decks) examined, > 0.
    seed : int
        Seed, as given to :func:`cuarenta_sim.simulate`.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per ``seen`` in 1..4: ``seen``, ``unseen`` (35), ``next_hand`` (5),
        ``exact`` (float, :func:`cuarenta_sim.cuarenta.odds.next_player_holds`), ``estimate``,
        ``lower``, ``upper`` (ratio of sums over datas, delta-method interval: the ranks of
        one hand are not independent), ``n`` (datas with such a rank), ``trials`` (ranks
        counted), ``method``, ``defined``, ``within``.

    Raises
    ------
    ValueError
        If ``n`` is not positive.
    """
    from ..rng import nb_shuffled_ranks, root_from_seed

    if n <= 0:
        raise ValueError(f"n must be positive, got {n!r}")
    root, _ = root_from_seed(seed)
    uroot = np.uint64(root)
    decks = np.empty((n, 40), dtype=np.uint8)
    state = np.empty(4, dtype=np.uint64)
    for i in range(n):
        nb_shuffled_ranks(decks[i], state, uroot, i, 0)
    lead = np.stack([(decks[:, 0:5] == r).sum(axis=1) for r in range(10)], axis=1)
    nxt = np.stack([(decks[:, 5:10] == r).sum(axis=1) for r in range(10)], axis=1)
    rows = []
    for seen in range(1, 5):
        has = lead == seen
        trials = has.sum(axis=1)
        hits = (has & (nxt > 0)).sum(axis=1)
        keep = trials > 0
        # hits <= trials: a per-deck ratio lies in [0, 1] (bounds a sample without variation).
        row = stats.ratio(f"seen={seen}", hits[keep], trials[keep], confidence, (0.0, 1.0))
        exact = float(odds.next_player_holds(seen, 35, 5))
        rows.append(
            {
                "seen": seen,
                "unseen": 35,
                "next_hand": 5,
                "exact": exact,
                **{k: row[k] for k in ("estimate", "lower", "upper", "n", "method", "defined")},
                "trials": int(trials.sum()),
            }
        )
    out = pd.DataFrame(rows)
    out["within"] = out["defined"] & (out["lower"] <= out["exact"]) & (out["exact"] <= out["upper"])
    return out
