"""Tricks: play obligations (C3.3, C3.4), the winner (C3.5) and the points of a trick.

A trick is the list of cards played to it, in playing order (the first card is the lead).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import points_of, rank_of, suit_of
from ..contracts import NONE

#: Obligation names returned by :func:`obligation`.
OBLIGATIONS = ("lead", "beat", "follow", "overtrump", "trump", "any")
#: Bonus of the last trick (C1.3).
LAST_TRICK = 10


def seating(contract: int, declarer: int, mano: int, first_lead: str) -> tuple[list[bool], int]:
    """Who plays the hand (C2.2) and who leads its first trick (C3.1).

    Parameters
    ----------
    contract : int
        The contract declared (``NONE`` when every seat passed).
    declarer : int
        The declarer's seat (ignored without a contract).
    mano : int
        The seat after the dealer.
    first_lead : str
        The ``first_lead`` switch: ``"next_active"`` or ``"declarer"``.

    Returns
    -------
    (list of 4 bool, int)
        Per seat whether it plays (the declarer's partner sits out a contract), and the
        first leader: the mano if it plays, else the declarer or the next seat.
    """
    plays = [True] * 4
    if contract != NONE:
        plays[(declarer + 2) % 4] = False
    if plays[mano]:
        return plays, mano
    return plays, declarer if first_lead == "declarer" else (mano + 1) % 4


def _best(cards: Iterable[int]) -> int:
    """The strongest of cards of one suit (lowest rank index); -1 if none."""
    best = -1
    for c in cards:
        if best < 0 or rank_of(c) < rank_of(best):
            best = c
    return best


def legal_plays(hand: Iterable[int], trick: Sequence[int], trump: int) -> list[int]:
    """Return the cards of ``hand`` that may be played to ``trick``, in canonical order.

    Parameters
    ----------
    hand : iterable of int
        Card ids held by the player to act.
    trick : sequence of int
        Cards already in the trick, in playing order (empty: the player leads).
    trump : int
        Trump suit (0..3).

    Returns
    -------
    list of int
        The legal cards, ascending id (the order policies index, contract section 3).
    """
    return sorted(_legal_and_obligation(list(hand), list(trick), trump)[0])


def obligation(hand: Iterable[int], trick: Sequence[int], trump: int) -> str:
    """Return which obligation of C3.3 decides the play: one of :data:`OBLIGATIONS`."""
    return _legal_and_obligation(list(hand), list(trick), trump)[1]


def _legal_and_obligation(hand: list[int], trick: list[int], trump: int) -> tuple[list[int], str]:
    if not trick:
        return hand, "lead"
    led = suit_of(trick[0])
    trumps_played = [c for c in trick if suit_of(c) == trump]
    of_led = [c for c in hand if suit_of(c) == led]
    if of_led:
        if led != trump and trumps_played:
            # The trick has been trumped: follow suit, no need to beat (C3.3, K6).
            return of_led, "follow"
        # Beat the highest card of the suit led if able (also on an arrastre), else follow.
        top = _best(c for c in trick if suit_of(c) == led)
        beaters = [c for c in of_led if rank_of(c) < rank_of(top)]
        return (beaters, "beat") if beaters else (of_led, "follow")
    my_trumps = [c for c in hand if suit_of(c) == trump]
    if not my_trumps:
        return hand, "any"
    if trumps_played:
        top = _best(trumps_played)
        over = [c for c in my_trumps if rank_of(c) < rank_of(top)]
        # Must over-trump if able; unable to over-trump: any card (C3.3, K5).
        return (over, "overtrump") if over else (hand, "any")
    return my_trumps, "trump"


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Return the position (0-based, in playing order) of the card that wins ``trick``:
    the highest trump, else the highest card of the suit led (C3.5)."""
    led = suit_of(trick[0])
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        cs, bs = suit_of(c), suit_of(b)
        if cs == bs:
            if rank_of(c) < rank_of(b):
                best = i
        elif cs == trump or (cs == led and bs != trump):
            best = i
    return best


def trick_points(trick: Iterable[int]) -> int:
    """Return the card points of a trick (C1.3), without the last-trick 10."""
    return sum(points_of(c) for c in trick)
