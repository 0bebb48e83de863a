"""Exact odds by combinatorics: rondas dealt (R4) and who may hold a rank you trail (R6).

Everything here is counted, not simulated, with exact integer arithmetic; the tests check each
figure against the simulator. A data deals the whole 40-card deck as eight 5-card hands (four
deals to 2 players, two deals to 4 players, R2.2 and R3.2); with a uniformly shuffled deck the
eight hands are an exchangeable random partition, so only *how many* of them belong to a seat
or side matters:

========  =========  =========
who       2 players  4 players
========  =========  =========
seat      4 hands    2 hands
side      4 hands    4 hands
anyone    8 hands    8 hands
========  =========  =========
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb, factorial

import pandas as pd

#: Per-hand events: how many cards of one rank make them (R4.1, R4.2).
EVENTS: dict[str, tuple[int, ...]] = {
    "ronda": (3,),
    "doble_ronda": (4,),
    "ronda_or_better": (3, 4),
}
HAND_SIZE = 5
HANDS_PER_DATA = 8


def _check_event(event: str) -> tuple[int, ...]:
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}; accepted: {', '.join(EVENTS)}")
    return EVENTS[event]


def hand_probability(event: str) -> Fraction:
    """Exact chance that one 5-card hand holds the event (R4).

    ``ronda`` is exactly three of one rank, ``doble_ronda`` four of one rank,
    ``ronda_or_better`` either.

    Returns
    -------
    fractions.Fraction
        E.g. ``ronda``: 10 * C(4,3) * C(36,2) / C(40,5) = 25200 / 658008.

    Raises
    ------
    ValueError
        For an unknown event name.
    """
    return 1 - _none_probability(_check_event(event), 1, HANDS_PER_DATA)


def data_probability(event: str, who: str = "side", players: int = 2) -> Fraction:
    """Exact chance that, in one data, at least one hand of ``who`` holds the event.

    Parameters
    ----------
    event : str
        ``"ronda"``, ``"doble_ronda"`` or ``"ronda_or_better"``.
    who : str
        ``"seat"`` (one player), ``"side"`` (a side: one player or a partnership) or
        ``"anyone"``.
    players : int
        2 or 4 (R2.1).

    Returns
    -------
    fractions.Fraction

    Raises
    ------
    ValueError
        Unknown event or ``who``, or players not 2 or 4.
    """
    counted = _hands_of(who, players)
    return 1 - _none_probability(_check_event(event), counted, HANDS_PER_DATA)


def expected_per_data(event: str, who: str = "anyone", players: int = 2) -> Fraction:
    """Exact expected number of hands of ``who`` with the event in one data (linearity)."""
    return _hands_of(who, players) * hand_probability(event)


def next_player_holds(seen: int, unseen: int, next_hand: int) -> Fraction:
    """Chance that the next player holds at least one card of a rank (caida risk, R6.1).

    Parameters
    ----------
    seen : int
        Cards of that rank you can see (your hand, the table, the cards played and captured),
        counting the card you are about to trail; 1..4.
    unseen : int
        Cards you cannot see (other players' hands and the stock), >= ``next_hand``.
    next_hand : int
        Cards in the next player's hand, 0..5.

    Returns
    -------
    fractions.Fraction
        ``1 - C(unseen - m, h) / C(unseen, h)`` with ``m = 4 - seen`` cards of the rank unseen
        and ``h = next_hand`` (the next hand is a uniform subset of the unseen cards).

    Raises
    ------
    ValueError
        For counts out of range.
    """
    if not 1 <= seen <= 4:
        raise ValueError(f"seen must be 1..4 (cards of the rank you can see), got {seen!r}")
    missing = 4 - seen
    if not 0 <= next_hand <= HAND_SIZE or unseen < max(next_hand, missing) or unseen > 40:
        raise ValueError(
            f"need 0 <= next_hand <= 5 and max(next_hand, 4 - seen) <= unseen <= 40, "
            f"got next_hand={next_hand!r}, unseen={unseen!r}"
        )
    return 1 - Fraction(comb(unseen - missing, next_hand), comb(unseen, next_hand))


def odds_table(players: int = 2) -> pd.DataFrame:
    """All exact dealing odds as a tidy frame.

    Returns
    -------
    DataFrame
        Columns ``event`` (ronda, doble_ronda, ronda_or_better), ``scope`` (hand, seat, side,
        anyone), ``players``, ``probability`` (float64), ``exact`` (the fraction as a string,
        e.g. ``"25200/658008"`` reduced).
    """
    rows = []
    for event in EVENTS:
        p = hand_probability(event)
        rows.append((event, "hand", players, float(p), str(p)))
        for who in ("seat", "side", "anyone"):
            p = data_probability(event, who, players)
            rows.append((event, who, players, float(p), str(p)))
    return pd.DataFrame(rows, columns=["event", "scope", "players", "probability", "exact"])


def _hands_of(who: str, players: int) -> int:
    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    if who == "seat":
        return HANDS_PER_DATA // players
    if who == "side":
        return HANDS_PER_DATA // 2
    if who == "anyone":
        return HANDS_PER_DATA
    raise ValueError(f"unknown who {who!r}; accepted: seat, side, anyone")


@cache
def _none_probability(forbidden: tuple[int, ...], counted: int, hands: int) -> Fraction:
    """P(none of the first ``counted`` of ``hands`` hands holds j of a rank, j in forbidden).

    Dynamic programme over the hands, dealt one after the other from the 40-card deck. The
    state is how many ranks have 4, 3, 2, 1 and 0 cards left; a transition takes 5 cards, j
    cards each from some ranks, weighted by the number of ways to pick the suits.
    """
    start = (10, 0, 0, 0, 0)  # ranks with 4, 3, 2, 1, 0 cards left
    states: dict[tuple[int, ...], int] = {start: 1}
    for h in range(hands):
        limited = h < counted
        nxt: dict[tuple[int, ...], int] = {}
        for state, ways in states.items():
            for new_state, w in _take_hand(state, forbidden if limited else ()):
                nxt[new_state] = nxt.get(new_state, 0) + ways * w
        states = nxt
    favourable = sum(states.values())
    total = factorial(40) // factorial(HAND_SIZE) ** hands // factorial(40 - HAND_SIZE * hands)
    return Fraction(favourable, total)


@cache
def _take_hand(
    state: tuple[int, ...], forbidden: tuple[int, ...]
) -> list[tuple[tuple[int, ...], int]]:
    """Every way to take one 5-card hand from ``state``: (new state, number of card sets)."""
    left = (4, 3, 2, 1)  # cards left per rank in classes 0..3 of the state
    out: list[tuple[tuple[int, ...], int]] = []

    def recurse(cls: int, need: int, state_now: list[int], weight: int) -> None:
        if cls == 4:
            if need == 0:
                out.append((tuple(state_now), weight))
            return
        k = left[cls]
        n_cls = state[cls]  # ranks of this class before the hand (untouched by earlier classes)
        # choose m[j] ranks of this class from which j cards are taken, j = 1..k
        for takes in _splits(n_cls, k, need, forbidden):
            taken_cards = sum(j * m for j, m in takes.items())
            w = weight
            used = 0
            for j, m in takes.items():
                w *= comb(n_cls - used, m) * comb(k, j) ** m
                used += m
            new = state_now.copy()
            new[cls] -= used
            for j, m in takes.items():
                new[cls + j] += m
            recurse(cls + 1, need - taken_cards, new, w)

    recurse(0, HAND_SIZE, list(state), 1)
    return out


def _splits(n: int, k: int, need: int, forbidden: tuple[int, ...]) -> list[dict[int, int]]:
    """Ways to pick, among ``n`` ranks with ``k`` cards left, m_j ranks giving j cards each."""
    results: list[dict[int, int]] = []

    def rec(j: int, ranks_left: int, cards_left: int, cur: dict[int, int]) -> None:
        if j > k:
            results.append(dict(cur))
            return
        max_m = min(ranks_left, cards_left // j)
        if j in forbidden:
            max_m = 0
        for m in range(max_m + 1):
            if m:
                cur[j] = m
            rec(j + 1, ranks_left - m, cards_left - j * m, cur)
            cur.pop(j, None)

    rec(1, n, need, {})
    return results
