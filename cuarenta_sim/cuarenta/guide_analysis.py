"""Analyses of the player's guide: decisions of a strong player, caida risk, the dealer's edge.

Every number comes from the engines, never from new rules code:

* :func:`decision_log` plays chicas with the reference engine
  (:func:`cuarenta_sim.cuarenta.reference.play_game`, the executable spec) and records every
  decision of the policy: the observation it saw (contract section 6), its play, what
  ``greedy`` and ``heuristic`` would have played there (the numba kernels' decision code,
  :func:`cuarenta_sim.cuarenta.engine.decide.decide`), whether the next play was a caida on a
  trail (the engine's :class:`~cuarenta_sim.cuarenta.reference.events.PlayEvent`), and the
  value of every legal play by pimc playouts to the end of the data
  (:func:`cuarenta_sim.cuarenta.engine.decide.pimc_values`).
* :func:`caida_risk`, :func:`trail_value`, :func:`departures` summarise the log by situation
  with intervals over chicas (``ratio``: the decisions of one chica are not independent),
  shares and mean values alike (:func:`.clustered_means`).
* :func:`dealer_edge_by_source` (records of a level-data run), :func:`edge_by_deal_and_seat`
  (kernel traces of level-data runs, contract section 7) and :func:`policy_gains` (duplicate
  chicas, :func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import stats
from ..rng import STREAM_SEARCH, PyRng, root_from_seed
from .guide_estimates import SOURCES, clustered_means, ratio_by
from .trace_format import KIND_ANNOUNCE, KIND_CLAIMS, KIND_END, KIND_PLAY, TRACE_COLUMNS

#: Default pimc spec that values the legal plays (playouts to the end of the data).
VALUE_POLICY = "pimc(samples=16,depth=data)"


# --------------------------------------------------------------------------- decisions
@dataclasses.dataclass
class _Recorder:
    """A reference policy that remembers every observation and choice (Policy protocol)."""

    inner: Any
    sink: list
    name: str = ""
    stochastic: bool = False

    def choose(self, obs: Any, rng: Any) -> int:
        choice = int(self.inner.choose(obs, rng))
        self.sink.append((obs, choice))
        return choice


def _keep_plays(sink: list, kind: type, state: Any, board: Any, event: Any) -> None:
    """``on_step`` hook of the reference engine: keep the play events, in order, each with
    whether the next seat holds a card of the played rank right after the play (hidden from
    the players; read here from the engine's state for the analysis only)."""
    if isinstance(event, kind):
        nxt = (event.seat + 1) % state.players
        sink.append((event, state.hand_counts(nxt)[event.outcome.play.rank] > 0))


def decision_log(
    rules: str = "quito",
    players: int = 2,
    policy: str = "learned",
    n_chicas: int = 100,
    seed: int = 0,
    value_policy: str | None = VALUE_POLICY,
    value_samples: int = 16,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Every decision of ``policy`` in ``n_chicas`` reference chicas, with alternatives and values.

    Parameters
    ----------
    rules : str
        Preset or slug.
    players : int
        2 or 4; every seat plays ``policy``.
    policy : str
        A deterministic policy spec (the strong player).
    n_chicas : int
        Chicas (indices ``0 .. n_chicas - 1`` of ``seed``: the same games as
        ``simulate(..., level="chica")``), > 0.
    seed : int
        Seed.
    value_policy : str or None
        pimc spec whose playout totals value the legal plays (depth ``data`` values a play by
        the points of the rest of the data, own side minus the other, with the win bonus
        switched off); None skips the values.
    value_samples : int
        The spec's ``samples`` (values are totals / samples / 1000: points).
    progress : callable, optional
        Called with the number of chicas played so far, every 10.

    Returns
    -------
    DataFrame
        One row per decision: ``game``, ``players`` (the run's player count), ``data``,
        ``deal``, ``turn`` (turns already played
        in the deal), ``seat``, ``own_deals``, ``own_score``, ``opponent_score``,
        ``table_cards``, ``legal``, ``trail`` (the play was a trail), ``can_trail``,
        ``can_capture``, ``answer`` (the previous player just trailed, R6.1), ``rank``,
        ``seen`` (cards of the played rank the seat can see, the played card included:
        hand, table and cards played in the data), ``unseen``, ``next_hand``,
        ``next_holds`` (exact chance the next player holds the rank if its hand were a
        uniform draw from the unseen cards, :func:`cuarenta_sim.cuarenta.odds.next_player_holds`),
        ``has_next`` (another play follows in the deal), ``next_held`` (the next player did
        hold the rank, read from the engine's state), ``next_caida`` (it was a caida),
        ``greedy_differs``,
        ``heuristic_differs``, ``greedy_trail``, ``heuristic_trail`` (what the other policy
        would have played is a trail); with values: ``value_chosen``,
        ``value_greedy``, ``value_heuristic``, ``value_best_trail``, ``value_best_capture``
        (points; NaN when only one play was legal or none of the kind).

    Raises
    ------
    ValueError
        Bad rules, players, policy or size.
    """
    from .engine.decide import decide, pimc_values
    from .odds import next_player_holds
    from .reference import play_game
    from .reference.events import PlayEvent
    from .reference.policies import resolve_policy

    if isinstance(n_chicas, bool) or not isinstance(n_chicas, int) or n_chicas <= 0:
        raise ValueError(f"n_chicas must be a positive whole number, got {n_chicas!r}")
    root, _ = root_from_seed(seed)
    rows: list[dict[str, Any]] = []
    scale = 1000.0 * value_samples
    for g in range(n_chicas):
        if progress is not None and g % 10 == 0 and g:
            progress(g)
        seen_obs: list = []
        events: list = []
        seat = _Recorder(resolve_policy(policy), seen_obs)
        seat.name = seat.inner.name
        play_game(
            rules,
            players,
            [seat] * players,
            seed=seed,
            level="chica",
            index=g,
            on_step=functools.partial(_keep_plays, events, PlayEvent),
        )
        per_deal = 5 * players
        for k, ((obs, choice), (event, held)) in enumerate(zip(seen_obs, events, strict=True)):
            play = obs.plays[choice]
            side = obs.seat % 2
            nxt = (obs.seat + 1) % players
            trail = len(play.base) == 0
            kinds = [len(p.base) == 0 for p in obs.plays]
            seen = obs.hand[play.rank] + obs.played[play.rank]
            unseen = 40 - sum(obs.hand) - sum(obs.played)
            has_next = obs.turn < per_deal - 1
            row: dict[str, Any] = {
                "game": g,
                "players": players,
                "data": event.data,
                "deal": obs.deal,
                "turn": obs.turn,
                "seat": obs.seat,
                "own_deals": obs.dealer % 2 == side,
                "own_score": obs.scores[side],
                "opponent_score": obs.scores[1 - side],
                "table_cards": sum(obs.table),
                "legal": len(obs.plays),
                "trail": trail,
                "can_trail": any(kinds),
                "can_capture": not all(kinds),
                "answer": obs.trail is not None,
                "rank": play.rank,
                "seen": seen,
                "unseen": unseen,
                "next_hand": obs.hand_sizes[nxt] if obs.hand_sizes else 5,
                "next_holds": float(next_player_holds(seen, unseen, obs.hand_sizes[nxt]))
                if trail and has_next
                else np.nan,
                "has_next": has_next,
                "next_held": bool(trail and has_next and held),
                "next_caida": bool(
                    trail
                    and has_next
                    and k + 1 < len(events)
                    and events[k + 1][0].outcome.caida
                    and events[k + 1][0].deal == obs.deal
                    and events[k + 1][0].data == event.data
                ),
            }
            if len(obs.plays) > 1:
                g_choice = decide("greedy", obs)
                h_choice = decide("heuristic", obs)
            else:
                g_choice = h_choice = choice
            row["greedy_differs"] = g_choice != choice
            row["heuristic_differs"] = h_choice != choice
            row["greedy_trail"] = len(obs.plays[g_choice].base) == 0
            row["heuristic_trail"] = len(obs.plays[h_choice].base) == 0
            if value_policy is not None:
                vals = np.full(len(obs.plays), np.nan)
                if len(obs.plays) > 1:
                    state = PyRng.for_stream(root, g, k, STREAM_SEARCH + obs.seat).s
                    totals, _ = pimc_values(
                        value_policy, dataclasses.replace(obs, stop_at_target=False), state
                    )
                    vals = np.asarray(totals, dtype=np.float64) / scale
                kinds_a = np.asarray(kinds)
                row["value_chosen"] = vals[choice]
                row["value_greedy"] = vals[g_choice]
                row["value_heuristic"] = vals[h_choice]
                row["value_best_trail"] = vals[kinds_a].max() if kinds_a.any() else np.nan
                row["value_best_capture"] = vals[~kinds_a].max() if (~kinds_a).any() else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def caida_risk(
    log: pd.DataFrame, by: Sequence[str] = ("seen",), confidence: float = 0.95
) -> pd.DataFrame:
    """P(the next player answers a trail with a caida, R6.1) by situation.

    Parameters
    ----------
    log : DataFrame
        :func:`decision_log` output.
    by : sequence of str
        Grouping columns, e.g. ``("seen",)``, ``("seen", "turn")``, ``("rank",)``.
    confidence : float

    Returns
    -------
    DataFrame
        The ``by`` columns, ``successes`` (caidas), ``n`` (trails followed by a play in the
        same deal), ``chicas``, ``estimate``, ``lower``, ``upper`` (``ratio`` over chicas),
        ``method``, ``defined``, ``next_holds`` (mean exact chance that the next player held
        the rank under a uniform draw), ``held`` (share of the trails where it really held
        it) and ``taken`` (share of those where it made the caida).
    """
    trails = log[log["trail"] & log["has_next"]]
    out = ratio_by(trails, by, "next_caida", confidence, "caida risk")
    shares = (
        trails.assign(taken=trails["next_caida"].astype(float).where(trails["next_held"]))
        .groupby(list(by), sort=True)
        .agg(next_holds=("next_holds", "mean"), held=("next_held", "mean"), taken=("taken", "mean"))
        .reset_index()
    )
    return out.merge(shares, on=list(by), how="left")


def trail_value(
    log: pd.DataFrame, by: Sequence[str] = ("table_cards",), confidence: float = 0.95
) -> pd.DataFrame:
    """Value of the best trail minus the best capture (points to the end of the data).

    Only decisions where both a trail and a capture were legal. Means with ``ratio``
    intervals clustered by chica (:func:`.clustered_means`: the decisions of one chica are not
    independent), and the share where trailing was worth more.

    Returns
    -------
    DataFrame
        The ``by`` columns, ``n``, ``estimate``, ``lower``, ``upper``, ``method``,
        ``defined``, ``no_variation``, ``trail_better`` (share), ``trail_chosen`` (share the
        strong player trailed).
    """
    both = log[log["can_trail"] & log["can_capture"]].copy()
    both["delta"] = both["value_best_trail"] - both["value_best_capture"]
    both = both[np.isfinite(both["delta"])]
    means = clustered_means(both, list(by), "delta", confidence, "best trail - best capture")
    means = means[means["n"] > 0]
    share = (
        both.assign(better=both["delta"] > 0)
        .groupby(list(by), sort=True)
        .agg(trail_better=("better", "mean"), trail_chosen=("trail", "mean"))
        .reset_index()
    )
    return means.merge(share, on=list(by), how="left")


def departures(
    log: pd.DataFrame, by: Sequence[str] = ("deal",), confidence: float = 0.95
) -> pd.DataFrame:
    """Where the strong player departs from greedy and heuristic play, and what it gains.

    Returns
    -------
    DataFrame
        One row per (``by`` group, ``versus`` in greedy/heuristic): ``successes``, ``n``
        (decisions with more than one legal play), ``estimate`` / ``lower`` / ``upper``
        (share of those that differ, ``ratio`` over chicas), ``decisions_all`` (every
        decision of the group, single legal plays included) and ``share_all`` (``successes``
        / ``decisions_all``: a single legal play never differs), and ``gain``, ``gain_lower``,
        ``gain_upper``, ``gain_n`` (mean value of the strong play minus the other's at the
        departures, points, ``ratio`` interval clustered by chica, :func:`.clustered_means`)
        and ``gain_chicas`` (the chicas those departures fall in).
    """
    choice = log[log["legal"] > 1]
    out = []
    for versus in ("greedy", "heuristic"):
        rates = ratio_by(choice, by, f"{versus}_differs", confidence, f"differs from {versus}")
        dep = choice[choice[f"{versus}_differs"]].copy()
        dep["gain"] = dep["value_chosen"] - dep[f"value_{versus}"]
        gains = clustered_means(dep, list(by), "gain", confidence, f"gain over {versus}")
        gains = gains.rename(
            columns={
                "estimate": "gain",
                "lower": "gain_lower",
                "upper": "gain_upper",
                "n": "gain_n",
                "chicas": "gain_chicas",
                "method": "gain_method",
            }
        )
        merged = rates.merge(
            gains[
                [*by, "gain", "gain_lower", "gain_upper", "gain_n", "gain_chicas", "gain_method"]
            ],
            on=list(by),
            how="left",
        )
        every = log.groupby(list(by), sort=True, observed=True).size().rename("decisions_all")
        merged = merged.merge(every.reset_index(), on=list(by), how="left")
        merged["share_all"] = merged["successes"] / merged["decisions_all"]
        out.append(merged.assign(versus=versus))
    return pd.concat(out, ignore_index=True)


#: Kinds of departure of :func:`departure_kinds`, in order.
DEPARTURE_KINDS = (
    "trails where it captures",
    "captures where it trails",
    "another capture",
    "another trail",
)


def departure_kinds(
    log: pd.DataFrame, versus: str = "greedy", confidence: float = 0.95
) -> pd.DataFrame:
    """What kind of play the strong player makes where it departs from ``versus``.

    Parameters
    ----------
    log : DataFrame
        :func:`decision_log` output.
    versus : {"greedy", "heuristic"}
    confidence : float

    Returns
    -------
    DataFrame
        One row per kind of :data:`DEPARTURE_KINDS` (the strong play vs the other's: a trail
        where the other captures, a capture where it trails, a different capture, a
        different trail): ``kind``, ``successes``, ``n`` (departures), ``estimate`` /
        ``lower`` / ``upper`` (share of the departures, ``ratio`` over chicas), and the mean
        value gained ``gain`` / ``gain_lower`` / ``gain_upper`` (points, ``ratio`` interval
        clustered by chica, :func:`.clustered_means`), ``gain_n``.

    Raises
    ------
    ValueError
        Unknown ``versus``.
    """
    if versus not in ("greedy", "heuristic"):
        raise ValueError(f"versus must be 'greedy' or 'heuristic', got {versus!r}")
    dep = log[log[f"{versus}_differs"]].copy()
    other_trail = dep[f"{versus}_trail"].to_numpy(bool)
    own_trail = dep["trail"].to_numpy(bool)
    kind = np.select(
        [own_trail & ~other_trail, ~own_trail & other_trail, ~own_trail & ~other_trail],
        list(DEPARTURE_KINDS[:3]),
        DEPARTURE_KINDS[3],
    )
    rows = []
    for name in DEPARTURE_KINDS:
        dep["hit"] = kind == name
        share = ratio_by(dep.assign(all=0), ("all",), "hit", confidence, name)
        hits = dep.loc[dep["hit"]].assign(all=0)
        hits["gain"] = hits["value_chosen"] - hits[f"value_{versus}"]
        found = clustered_means(hits, ("all",), "gain", confidence, name)
        g = (
            found.iloc[0]
            if len(found)
            else {"estimate": np.nan, "lower": np.nan, "upper": np.nan, "n": 0, "method": ""}
        )
        r = share.iloc[0] if len(share) else None
        rows.append(
            {
                "versus": versus,
                "kind": name,
                "successes": int(r["successes"]) if r is not None else 0,
                "n": int(r["n"]) if r is not None else 0,
                "estimate": r["estimate"] if r is not None else np.nan,
                "lower": r["lower"] if r is not None else np.nan,
                "upper": r["upper"] if r is not None else np.nan,
                "method": "ratio",
                "defined": bool(r["defined"]) if r is not None else False,
                "gain": g["estimate"],
                "gain_lower": g["lower"],
                "gain_upper": g["upper"],
                "gain_n": g["n"],
                "gain_method": g["method"],
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- dealer's edge
def dealer_edge_by_source(
    hands: pd.DataFrame, players: int, confidence: float = 0.95
) -> pd.DataFrame:
    """Points per data of the dealer's side minus the mano's side, by source (R3.3).

    Parameters
    ----------
    hands : DataFrame
        ``Results.hands`` of a level-data run (columns ``dealer``, ``<source>_points_k``,
        ``points_k``, ``leftover``).
    players : int
        2 or 4 (dealer's side ``dealer % 2``; the mano, the seat after the dealer, is on the
        other side, R2.1).
    confidence : float

    Returns
    -------
    DataFrame
        One row per source of :data:`SOURCES` and ``total``: ``source``, ``dealer``,
        ``mano`` (mean points per data of each side), ``estimate``, ``lower``, ``upper``
        (mean of the per-data difference, ``t`` / ``normal``), ``n``, ``method``,
        ``defined``; and a row ``leftover cards`` (mean cards left on the table at the end of
        a data, R8.1: under ``leftover_cards = nobody`` nobody's carton).
    """
    dealer_side = hands["dealer"].to_numpy(np.int64) % 2
    rows = []
    for source in (*SOURCES, "total"):
        col = "points" if source == "total" else f"{source}_points"
        p0 = hands[f"{col}_0"].to_numpy(np.float64)
        p1 = hands[f"{col}_1"].to_numpy(np.float64)
        dealer = np.where(dealer_side == 0, p0, p1)
        mano = np.where(dealer_side == 0, p1, p0)
        row = stats.mean(source, dealer - mano, confidence)
        rows.append(
            {
                "source": source,
                "dealer": dealer.mean(),
                "mano": mano.mean(),
                **{c: row[c] for c in ("estimate", "lower", "upper", "n", "method", "defined")},
            }
        )
    left = stats.mean("leftover cards", hands["leftover"].to_numpy(np.float64), confidence)
    rows.append(
        {
            "source": "leftover cards",
            "dealer": np.nan,
            "mano": np.nan,
            **{c: left[c] for c in ("estimate", "lower", "upper", "n", "method", "defined")},
        }
    )
    out = pd.DataFrame(rows)
    out.insert(0, "players", players)
    return out


#: Other players of the guide's dealer's-edge range and the share of ``--n`` each plays
#: (datas = n // divisor): the fast ones a quarter, the solver (about 120 datas/s) 1/400.
EDGE_PANEL: tuple[tuple[str, int], ...] = (("heuristic", 4), ("greedy", 4), ("solver", 400))


def panel_dealer_edge(
    rules: str,
    n: int,
    *,
    players: int = 2,
    panel: tuple[tuple[str, int], ...] = EDGE_PANEL,
    seed: int = 0,
    threads: int | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The dealer's total edge (points per data, R3.3) under other players' self-play.

    The guide's headline edge is one player's self-play; this is its range across players.

    Parameters
    ----------
    rules : str
        Preset or slug.
    n : int
        The guide's ``--n``; player ``p`` plays ``max(10, n // divisor)`` datas.
    players : int
        2 or 4 (R2.1).
    panel : tuple of (policy spec, divisor)
    seed, threads, confidence
        As :func:`cuarenta_sim.simulation.simulate`.

    Returns
    -------
    DataFrame
        One row per policy: ``policy``, ``estimate``, ``lower``, ``upper`` (the ``total`` row
        of :func:`dealer_edge_by_source`), ``players``, ``n`` (datas), ``method``, ``defined``.
    """
    from ..simulation import simulate

    rows = []
    for policy, divisor in panel:
        res = simulate(
            "cuarenta",
            rules=rules,
            players=players,
            policies=policy,
            n=max(10, n // divisor),
            seed=seed,
            threads=threads,
        )
        edge = dealer_edge_by_source(res.hands, players, confidence)
        total = edge[edge["source"] == "total"].iloc[0]
        rows.append(
            {
                "policy": policy,
                "players": players,
                **{c: total[c] for c in ("estimate", "lower", "upper", "n", "method", "defined")},
            }
        )
    return pd.DataFrame(rows)


def _trace_source(kind: np.ndarray, caida: np.ndarray, limpia: np.ndarray) -> np.ndarray:
    """Source index of each trace row's points: ronda, caida, limpia, count (carton/other)."""
    src = np.full(kind.size, -1, dtype=np.int64)
    src[kind == KIND_ANNOUNCE] = 0
    src[(kind == KIND_PLAY) & (caida == 1)] = 1
    src[(kind == KIND_PLAY) & (caida == 0) & (limpia == 1)] = 2
    src[kind == KIND_CLAIMS] = 1  # caida en ronda claims (R6.4)
    src[kind == KIND_END] = 3
    return src


#: Sources of :func:`edge_by_deal_and_seat` (trace rows; ``count`` is R8's end-of-data count).
TRACE_SOURCES = ("ronda", "caida", "limpia", "count")


def edge_by_deal_and_seat(
    rules: str = "quito",
    players: int = 2,
    policies: str | Sequence[str] = "learned",
    n_datas: int = 1_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The dealer's edge by deal and source, and points by seat, from kernel traces.

    Data ``i`` of level data is dealt by seat ``i % players`` (contract section 2); its trace
    (:func:`cuarenta_sim.cuarenta.engine.batch.trace_game`) credits each step's points.

    Parameters
    ----------
    rules, players, policies, seed
        As for :func:`cuarenta_sim.simulate`.
    n_datas : int
        Datas traced, > 0.
    confidence : float

    Returns
    -------
    (DataFrame, DataFrame)
        ``by_deal``: ``deal``, ``source`` (:data:`TRACE_SOURCES` and ``all``), ``estimate``
        / ``lower`` / ``upper`` (mean per data of the dealer's side's points in that deal
        minus the other side's), ``n`` (datas), ``method``, ``defined``. ``by_seat``:
        ``position`` (1 = mano, the seat after the dealer ... ``players`` = the dealer),
        ``source`` (ronda, caida, limpia: the points a seat's own announcements and plays
        earn), mean points per data with interval.
    """
    from .engine.batch import trace_game

    cols = {
        c: TRACE_COLUMNS.index(c)
        for c in ("kind", "deal", "seat", "caida", "limpia", "pts0", "pts1")
    }
    deals = 40 // (5 * players)
    by_deal = np.zeros((n_datas, deals, len(TRACE_SOURCES)))
    by_seat = np.zeros((n_datas, players, 3))
    for i in range(n_datas):
        t = trace_game(rules, players, policies, seed, "data", i)
        dealer = i % players
        src = _trace_source(t[:, cols["kind"]], t[:, cols["caida"]], t[:, cols["limpia"]])
        sign = 1 if dealer % 2 == 0 else -1
        net = sign * (t[:, cols["pts0"]] - t[:, cols["pts1"]])
        np.add.at(by_deal[i], (t[:, cols["deal"]], src), net)
        seat = t[:, cols["seat"]]
        own = np.where(seat % 2 == 0, t[:, cols["pts0"]], t[:, cols["pts1"]])
        keep = (seat >= 0) & (src < 3)
        pos = (seat[keep] - dealer - 1) % players
        np.add.at(by_seat[i], (pos, src[keep]), own[keep])
    rows = []
    for d in range(deals):
        for j, source in enumerate((*TRACE_SOURCES, "all")):
            x = by_deal[:, d, :].sum(axis=1) if source == "all" else by_deal[:, d, j]
            r = stats.mean(source, x, confidence)
            rows.append(
                {
                    "deal": d,
                    "source": source,
                    **{c: r[c] for c in ("estimate", "lower", "upper", "n", "method", "defined")},
                }
            )
    seat_rows = []
    for p in range(players):
        for j, source in enumerate(TRACE_SOURCES[:3]):
            r = stats.mean(source, by_seat[:, p, j], confidence)
            seat_rows.append(
                {
                    "position": p + 1,
                    "source": source,
                    **{c: r[c] for c in ("estimate", "lower", "upper", "n", "method", "defined")},
                }
            )
    return pd.DataFrame(rows), pd.DataFrame(seat_rows)


def policy_gains(
    strong: str,
    others: Sequence[str],
    *,
    rules: str = "quito",
    players: int = 2,
    n: int = 1_000,
    seed: int = 0,
    threads: int | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """What the strong player gains over each other policy: duplicate chicas, same decks.

    Returns
    -------
    DataFrame
        One row per other policy: ``versus``, ``players`` (the matches' player count), and the
        keys of
        :func:`cuarenta_sim.tournament.match_summary` (``win_rate`` with its ``clustered
        wilson`` interval over duplicate pairs, ``points_per_data`` with its ``ratio``
        interval, ``pairs``, ``games``, ``datas``).
    """
    from ..tournament import match_summary
    from .duplicate import play_duplicate

    rows = []
    for other in others:
        pairs = play_duplicate(
            strong,
            other,
            rules=rules,
            players=players,
            level="chica",
            n=n,
            seed=seed,
            threads=threads,
        )
        rows.append({"versus": other, "players": players, **match_summary(pairs, confidence)})
    return pd.DataFrame(rows)
