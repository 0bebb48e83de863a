"""What a Cuarenta seat may know, as a flat vector (PettingZoo observation, OpenSpiel tensor).

The vector holds the information of the reference engine's
:class:`~cuarenta_sim.cuarenta.reference.Observation` (``docs/engine_contract.md`` section 6,
what the built-in policies may use): the seat's own hand, the table, every card played in the
data, the ronda ranks announced aloud in this deal and the cards of them still known to be held
(R4), the trail a caida may be made on (R6.1) and whether it was a ronda rank of its trailer
(R6.4), dealer, deal, hand sizes, pile sizes, scores and the last capturer (R8.1). It adds the
cards in each side's pile, which are public too: every capture is made face up, so they follow
from the plays everybody saw. Nothing hidden is in it: other hands and the stock appear only
through those public facts. Suits are left out: they never matter in play (R1.1).

Seats are **relative**: slot 0 is the observing seat, slot ``k`` the seat ``k`` places after
it in turn order; "own" and "other" side are the observing seat's side and the opponents'.
So one policy can play any seat. Rank counts use a thermometer code: 4 cells per rank, cell
``k`` is 1 when the count is greater than ``k`` (ranks ``A 2 3 4 5 6 7 J Q K``). Every value
lies in ``[0, 1]``.

=================  =================  ==================================================
segment            size               content
=================  =================  ==================================================
hand               40                 own hand, thermometer rank counts
table              40                 the table
played             40                 cards played in this data, by everyone
captured_own       40                 cards in the own side's pile (R2.2)
captured_other     40                 cards in the opponents' pile
known              40 * (n - 1)       per other seat, announced ronda cards still held
rondas             10 * n             per seat, ranks announced as ronda in this deal (R4)
trail              10                 rank a caida may be made on now (R6.1), one-hot
trail_in_ronda     1                  that rank is a ronda of its trailer (R6.4)
dealer             n                  the dealer's slot, one-hot
deal               40 / (5 n)         the deal of the data, one-hot (R2.2)
hand_sizes         n                  cards in each seat's hand / 5
piles              2                  own, other side pile size / 40
scores             2                  own, other side score / target (at most 1)
last_capturer      2                  own / other side made the last capture (R8.1)
=================  =================  ==================================================
"""

from __future__ import annotations

import numpy as np

from .cards import N_RANKS, N_SUITS
from .reference.plays import caida_trail
from .reference.state import CARDS_PER_DEAL, deals_per_data, rank_counts
from .reference.step import CuarentaGame


def segments(players: int) -> list[tuple[str, int]]:
    """Return the ``(name, size)`` segments of the observation vector, in order.

    Parameters
    ----------
    players : int
        2 or 4.

    Returns
    -------
    list of (str, int)
        The table of the module docstring.
    """
    n = players
    thermo = N_RANKS * N_SUITS
    return [
        ("hand", thermo),
        ("table", thermo),
        ("played", thermo),
        ("captured_own", thermo),
        ("captured_other", thermo),
        ("known", thermo * (n - 1)),
        ("rondas", N_RANKS * n),
        ("trail", N_RANKS),
        ("trail_in_ronda", 1),
        ("dealer", n),
        ("deal", deals_per_data(n)),
        ("hand_sizes", n),
        ("piles", 2),
        ("scores", 2),
        ("last_capturer", 2),
    ]


def observation_size(players: int) -> int:
    """Return the length of the observation vector (285 with 2 players, 387 with 4).

    Parameters
    ----------
    players : int
        2 or 4.

    Returns
    -------
    int
        Sum of the segment sizes of :func:`segments`.
    """
    return sum(size for _, size in segments(players))


def _offsets(players: int) -> dict[str, int]:
    out, at = {}, 0
    for name, size in segments(players):
        out[name] = at
        at += size
    return out


_OFFSETS = {n: _offsets(n) for n in (2, 4)}


def _thermo(on: list[int], at: int, counts: list[int]) -> None:
    """Append the thermometer cells of ``counts`` starting at ``at`` to ``on``."""
    for rank, count in enumerate(counts):
        if count:
            base = at + N_SUITS * rank
            on.extend(range(base, base + count))


def _thermo_cards(on: list[int], at: int, cards: list[int]) -> None:
    """Append the thermometer cells of the rank counts of physical ``cards`` to ``on``."""
    seen = [0] * N_RANKS
    for card in cards:
        rank = card // N_SUITS
        on.append(at + N_SUITS * rank + seen[rank])
        seen[rank] += 1


def encode(game: CuarentaGame, seat: int, out: np.ndarray) -> np.ndarray:
    """Write what ``seat`` may know of ``game`` into ``out`` (see the module docstring).

    Parameters
    ----------
    game : CuarentaGame
        The episode.
    seat : int
        The observing seat, ``0 .. players - 1``.
    out : numpy.ndarray
        ``float32``, shape ``(observation_size(players),)``; overwritten.

    Returns
    -------
    numpy.ndarray
        ``out``.
    """
    n = game.players
    o = _OFFSETS[n]
    out.fill(0.0)
    board = game.board
    side = seat % 2
    target = game.rules.target
    scores = board.scores
    out[o["scores"]] = min(scores[side], target) / target
    out[o["scores"] + 1] = min(scores[1 - side], target) / target
    st = game.state
    if st is None:  # before the first deal (a chance node): only the scores are known
        return out
    on: list[int] = []
    _thermo_cards(on, o["hand"], st.hands[seat])
    _thermo_cards(on, o["table"], st.table)
    _thermo(on, o["played"], st.played)
    _thermo_cards(on, o["captured_own"], st.piles[side])
    _thermo_cards(on, o["captured_other"], st.piles[1 - side])
    known, rondas = o["known"], o["rondas"]
    for k in range(n):
        other = (seat + k) % n
        ranks = st.rondas[other]
        if not ranks:
            continue
        on.extend(rondas + N_RANKS * k + r for r in ranks)
        if k:
            # R4: an announced ronda's cards stay in that hand until played: public.
            counts = rank_counts(st.hands[other])
            _thermo(
                on,
                known + N_RANKS * N_SUITS * (k - 1),
                [counts[r] if r in ranks else 0 for r in range(N_RANKS)],
            )
    trail, in_ronda = caida_trail(st)
    if trail is not None:
        on.append(o["trail"] + trail)
        if in_ronda:
            on.append(o["trail_in_ronda"])
    on.append(o["dealer"] + (st.dealer - seat) % n)
    if st.deal >= 0:
        on.append(o["deal"] + st.deal)
    if st.last_capturer is not None:
        on.append(o["last_capturer"] + (0 if st.last_capturer == side else 1))
    # An index array assigns faster than a list (numpy converts lists element by element).
    out[np.fromiter(on, np.intp, len(on))] = 1.0
    sizes = o["hand_sizes"]
    for k in range(n):
        out[sizes + k] = len(st.hands[(seat + k) % n]) / CARDS_PER_DEAL
    out[o["piles"]] = len(st.piles[side]) / 40.0
    out[o["piles"] + 1] = len(st.piles[1 - side]) / 40.0
    return out
