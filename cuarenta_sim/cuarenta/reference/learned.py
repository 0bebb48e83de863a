"""Pure-Python twin of the numba ``learned`` policy (:mod:`cuarenta_sim.cuarenta.engine.learned`,
whose docstring defines the features and the score).

The features are built from the heuristic's terms (:func:`.search.play_terms`, the twin of the
kernel's) on rank counts, over the canonical legal plays (:func:`.plays.legal_plays`), from the
seat's observation only; scores are exact integers, so the kernel's choices can be checked play
for play (``tests/policies/test_learned.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.learned import CARTON_NEAR, N_FEATURES, NEAR_TARGET
from .plays import legal_plays
from .search import best_capture, next_chances, play_terms

if TYPE_CHECKING:
    from .policies import Observation


def learned_features(obs: Observation) -> list[list[int]]:
    """The features of every legal play of ``obs`` (twin of
    :func:`cuarenta_sim.cuarenta.engine.learned.decision_features`).

    Parameters
    ----------
    obs : Observation
        The seat's view.

    Returns
    -------
    list of list of int
        One row of :data:`cuarenta_sim.cuarenta.engine.learned.N_FEATURES` integers per play of
        ``obs.plays``, in order.
    """
    rules = obs.rules
    side = obs.side
    nxt = (obs.seat + 1) % obs.players
    score, opp_score = obs.scores[side], obs.scores[1 - side]
    at38 = rules.target - 2
    blocked = (rules.carton_blocked_from is not None and score >= rules.carton_blocked_from) or (
        score == at38 and rules.at_38 == "only_caida"
    )
    drop38 = opp_score == at38 and rules.at_38 != "none"
    last_deal = obs.deal == 8 // obs.players - 1
    pile = obs.piles[side]
    deal = obs.deal
    chance = next_chances(obs.hand, obs.played, obs.hand_sizes[nxt])
    plays = legal_plays(obs.hand, obs.table, rules)
    rows = []
    for play in plays:
        r = play.rank
        points, cards, caida, limpia, opening, pair, ace, run, keep, known, after, left = (
            play_terms(
                rules,
                obs.hand,
                obs.table,
                play,
                obs.trail,
                obs.trail_in_ronda,
                score,
                opp_score,
                obs.rondas[obs.seat],
                obs.known[nxt],
                chance,
            )
        )
        trail = play.is_trail
        own = list(obs.hand)
        own[r] -= 1
        own_next = own_limpia = next_best = 0
        if after > 0:
            for q in range(len(own)):
                nb, rn = best_capture(left, q, rules)
                if nb == 0:
                    continue
                if own[q] > 0:
                    own_next = max(own_next, 1 + nb + rn)
                    if nb + rn == after:
                        own_limpia = 1
                next_best = max(next_best, chance[q] * (1 + nb + rn))
        rows.append(
            [
                points,
                0 if blocked else cards,
                cards if blocked else 0,
                caida,
                0 if drop38 else limpia,
                limpia if drop38 else 0,
                opening,
                pair,
                ace,
                run,
                keep,
                known,
                int(trail),
                r if trail else 0,
                int(trail and r >= 7),
                int(not trail and not play.is_match),
                after,
                obs.hand[r] - 1,
                cards * pile,
                points if score >= rules.target - NEAR_TARGET else 0,
                caida if opp_score >= rules.target - NEAR_TARGET else 0,
                cards * deal,
                after if last_deal else 0,
                opening * deal,
                own_next,
                own_limpia,
                next_best,
                cards if pile >= CARTON_NEAR else 0,
                points if opp_score >= rules.target - NEAR_TARGET else 0,
                4 - obs.hand[r] - obs.played[r] if trail else 0,
                *(int(trail and r == q) for q in range(1, 10)),
                *(int(not trail and r == q) for q in range(1, 10)),
            ]
        )
    assert all(len(row) == N_FEATURES for row in rows)
    return rows


def learned_index(weights: Sequence[int], obs: Observation) -> int:
    """Index into ``obs.plays`` of the first play of largest ``sum_j w[j] * f[j]``.

    Parameters
    ----------
    weights : sequence of int
        The model's fixed-point weights (at least ``N_FEATURES``; the parameter row of a
        ``learned`` seat).
    obs : Observation
        The seat's view.

    Returns
    -------
    int
    """
    if len(obs.plays) == 1:
        return 0
    best, best_value = 0, 0
    for k, row in enumerate(learned_features(obs)):
        value = sum(int(w) * f for w, f in zip(weights[:N_FEATURES], row, strict=True))
        if k == 0 or value > best_value:
            best, best_value = k, value
    return best
