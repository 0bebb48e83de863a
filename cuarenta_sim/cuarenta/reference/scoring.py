"""Announcements, end-of-data counts, crediting and the chica's end (R4, R8, R9).

The functions here are pure: they say what a step is worth given the scores before it.
:class:`ScoreBoard` credits those points in the order of R9.2 and stops a chica at once when a
side reaches the target (contract section 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules import DOBLE_RONDA_WIN, RuleSet
from .plays import at_38

#: Announcement flags (trace column ``flag``, contract section 7).
RONDA = 1
DOBLE_RONDA = 2

#: Sources of points, as used in the per-data records (contract section 8).
SOURCES = ("ronda", "caida", "limpia", "carton", "other")


def ronda_events(hand: Sequence[int]) -> list[tuple[int, int]]:
    """Return the announcements of a 5-card deal: ``[(flag, rank)]`` (R4.1, R4.2).

    Parameters
    ----------
    hand : sequence of int
        Per-rank counts of the 5 cards just dealt to one seat.

    Returns
    -------
    list of (int, int)
        ``(RONDA, rank)`` for three of a rank, ``(DOBLE_RONDA, rank)`` for four; with 5 cards
        there is at most one.
    """
    return [(DOBLE_RONDA if c == 4 else RONDA, r) for r, c in enumerate(hand) if c >= 3]


def announcement_value(rules: RuleSet, flag: int, score: int) -> tuple[int, bool]:
    """Return ``(points, wins_chica)`` of an announcement for a side with ``score`` (R4, R9.1).

    A ronda scores ``ronda_points`` (R4.1); a doble ronda ``doble_ronda`` points, or with
    ``win_chica`` wins the chica at any score (R4.2, R4.3). Points are zeroed when
    ``score >= ronda_blocked_from`` (R4.3) or when the 38 rule is ``caida_or_carton`` or
    ``only_caida`` and the side is at ``target - 2`` (R9.1; ``no_limpia`` keeps them).

    Parameters
    ----------
    rules : RuleSet
        The switches.
    flag : int
        :data:`RONDA` or :data:`DOBLE_RONDA`.
    score : int
        The announcing side's score before the announcement.

    Returns
    -------
    (int, bool)
        Points to credit, and whether the side wins the chica at once.
    """
    if flag == DOBLE_RONDA and rules.doble_ronda == DOBLE_RONDA_WIN:
        return 0, True
    points = rules.ronda_points if flag == RONDA else int(rules.doble_ronda)
    if rules.ronda_blocked_from is not None and score >= rules.ronda_blocked_from:
        points = 0
    if at_38(rules, score) and rules.at_38 in ("caida_or_carton", "only_caida"):
        points = 0
    return points, False


def carton_points(cards: int) -> int:
    """Return the carton points of a side with ``cards`` captured cards (R8.2).

    0 below 20, else 6 + (cards - 20) rounded up to even: ``cards - 14`` for even counts,
    ``cards - 13`` for odd (20 -> 6, 21 -> 8, 30 -> 16, 40 -> 26).

    Parameters
    ----------
    cards : int
        Cards in the side's pile after leftovers (R8.1).

    Returns
    -------
    int
        The carton points, before the R8.6 block.
    """
    if cards < 20:
        return 0
    return cards - 14 if cards % 2 == 0 else cards - 13


@dataclass(frozen=True)
class Credit:
    """Points for one side from one source (contract section 8 record sources).

    Attributes
    ----------
    side : int
        Receiving side.
    points : int
        Points (may be 0 after a block; such credits are kept for the replay).
    source : str
        One of :data:`SOURCES`.
    what : str
        Short description for replays, e.g. ``"carton 22"``.
    """

    side: int
    points: int
    source: str
    what: str


@dataclass(frozen=True)
class EndOfData:
    """The end-of-data count of R8, before crediting.

    Attributes
    ----------
    cards_before : tuple of int
        Pile sizes of sides 0 and 1 before leftovers.
    leftover : int
        Cards left on the table after the last play (R8.1).
    leftover_to : int or None
        Side that took the leftovers (``last_capturer`` rule), else ``None``.
    cards : tuple of int
        Pile sizes after leftovers; the counts use these.
    credits : list of Credit
        In credit order (contract section 5): count points of the non-dealer side, of the
        dealer side, falla received by the non-dealer side, by the dealer side.
    """

    cards_before: tuple[int, int]
    leftover: int
    leftover_to: int | None
    cards: tuple[int, int]
    credits: list[Credit]


def end_of_data(
    rules: RuleSet,
    cards_before: Sequence[int],
    leftover: int,
    last_capturer: int | None,
    non_dealer_side: int,
    scores: Sequence[int],
) -> EndOfData:
    """Count a data that was played to its last card (R8, R9.1).

    Parameters
    ----------
    rules : RuleSet
        The switches.
    cards_before : sequence of int
        Pile sizes ``[side 0, side 1]`` after the last play.
    leftover : int
        Cards left on the table.
    last_capturer : int or None
        Side of the last capture of the data, ``None`` if nobody captured.
    non_dealer_side : int
        ``(dealer + 1) % 2``: it wins ties (R8.3, R8.4).
    scores : sequence of int
        Scores before the count; blocks (R8.6) and the 38 rule (R9.1) look at them.

    Returns
    -------
    EndOfData
        Leftovers (R8.1, never a limpia: R7.3), carton (R8.2, zero from
        ``carton_blocked_from``: R8.6), 20-20 tie (R8.3), both under 20 (R8.4) and falla
        (R8.5), in credit order, with the 38 rule applied: ``caida_or_carton`` keeps count
        points but not falla, ``only_caida`` keeps nothing, ``no_limpia`` keeps all.
    """
    cards = [int(cards_before[0]), int(cards_before[1])]
    leftover_to = None
    if rules.leftover_cards == "last_capturer" and last_capturer is not None and leftover:
        leftover_to = last_capturer
        cards[last_capturer] += leftover
    count = [0, 0]
    what = ["", ""]
    source = ["carton", "carton"]
    a, b = cards
    if a == b == 20:
        count[non_dealer_side] = rules.tie_points_20
        what[non_dealer_side] = "20-20, non-dealer side"
        source[non_dealer_side] = "other"
    elif a < 20 and b < 20:
        top = non_dealer_side if a == b else (0 if a > b else 1)
        count[top] = 2
        what[top] = "both under 20, " + ("non-dealer side" if a == b else "more cards")
        source[top] = "other"
    else:
        top = 0 if a > b else 1
        blocked = rules.carton_blocked_from is not None and scores[top] >= rules.carton_blocked_from
        count[top] = 0 if blocked else carton_points(cards[top])
        what[top] = f"carton {cards[top]}" + (" (blocked)" if blocked else "")
    falla = [0, 0]
    for side in (0, 1):
        if cards_before[side] == 0:
            falla[1 - side] = rules.falla_points
    for side in (0, 1):
        if at_38(rules, scores[side]):
            if rules.at_38 == "only_caida":
                count[side] = 0
                falla[side] = 0
            elif rules.at_38 == "caida_or_carton":
                falla[side] = 0
    credits: list[Credit] = []
    order = (non_dealer_side, 1 - non_dealer_side)
    for side in order:
        if what[side]:
            credits.append(Credit(side, count[side], source[side], what[side]))
    for side in order:
        if cards_before[1 - side] == 0 and rules.falla_points:
            credits.append(Credit(side, falla[side], "other", "falla of the opponents"))
    return EndOfData(
        cards_before=(int(cards_before[0]), int(cards_before[1])),
        leftover=leftover,
        leftover_to=leftover_to,
        cards=(cards[0], cards[1]),
        credits=credits,
    )


def is_zapateria(rules: RuleSet, loser_score: int) -> bool:
    """True when a chica's loser has fewer than ``zapateria_below`` points (R9.3).

    Parameters
    ----------
    rules : RuleSet
        Provides ``zapateria_below``.
    loser_score : int
        The losing side's score when the chica ends.

    Returns
    -------
    bool
        Whether the win is a zapateria.
    """
    return loser_score < rules.zapateria_below


@dataclass
class ScoreBoard:
    """Running scores of a chica, crediting points in order with the target check (R9.2).

    Parameters
    ----------
    rules : RuleSet
        Provides ``target``.
    scores : list of int
        Scores of sides 0 and 1; changed in place.
    stop_at_target : bool
        True at levels ``chica`` and ``mesa`` (and in scenarios): the first side to reach the
        target wins at once and no later points are credited. False at level ``data``: scores
        keep growing and a ``win_chica`` doble ronda is only recorded (contract section 5).

    Attributes
    ----------
    winner : int or None
        Side that won the chica, once it has ended.
    """

    rules: RuleSet
    scores: list[int] = field(default_factory=lambda: [0, 0])
    stop_at_target: bool = True
    winner: int | None = None

    @property
    def ended(self) -> bool:
        """True once a side has won the chica."""
        return self.winner is not None

    def credit(self, side: int, points: int) -> int:
        """Credit ``points`` to ``side`` unless the chica has ended, then check the target.

        Parameters
        ----------
        side : int
            Receiving side.
        points : int
            Points to credit (>= 0).

        Returns
        -------
        int
            The points actually credited (0 after the chica's end).
        """
        if self.ended:
            return 0
        self.scores[side] += points
        if self.stop_at_target and points and self.scores[side] >= self.rules.target:
            self.winner = side
        return points

    def win(self, side: int) -> bool:
        """Make ``side`` win the chica at once (``win_chica`` doble ronda, R4.2).

        Parameters
        ----------
        side : int
            The side of the seat dealt the doble ronda.

        Returns
        -------
        bool
            True when the win took effect (not at level ``data``, not after the end).
        """
        if self.ended or not self.stop_at_target:
            return False
        self.winner = side
        return True

    def zapateria(self) -> bool:
        """True when the chica has ended and the loser is below ``zapateria_below`` (R9.3)."""
        return self.winner is not None and is_zapateria(self.rules, self.scores[1 - self.winner])
