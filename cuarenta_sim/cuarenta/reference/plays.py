"""Legal plays in canonical order, and what a play does and scores (R5, R6, R7, R9.1).

Everything here works on **rank counts** (10-long lists, rank ``0..9`` = ``A..K``), so the
scenario interface, the policies and the game loop share one implementation. The order of the
options and of the legal plays is the canonical order of ``docs/engine_contract.md`` section 3;
the points follow its section 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..cards import N_NUMERIC, N_RANKS
from ..rules import RuleSet
from ..tables import enumerate_sum_bases
from .state import DataState, PreviousTrail, side_of, take_rank

#: Highest rank code (K): a run never wraps past it (R1.3, R5.4).
KING = N_RANKS - 1


@dataclass(frozen=True)
class Play:
    """One legal play: a rank from hand and its base (contract section 3).

    Attributes
    ----------
    rank : int
        The played rank, 0..9.
    base : tuple of int
        ``()`` for a trail, ``(rank,)`` for a match (R5.1), or the sorted ranks of a sum
        (R5.2).
    """

    rank: int
    base: tuple[int, ...]

    @property
    def is_trail(self) -> bool:
        """True for a trail: the card stays on the table (R5)."""
        return not self.base

    @property
    def is_match(self) -> bool:
        """True for a match base (R5.1)."""
        return len(self.base) == 1


@cache
def _sum_bases(rank: int) -> tuple[tuple[int, ...], ...]:
    """Every sum base of a played numeric rank, canonical order (R5.2, ``tables``)."""
    return tuple(enumerate_sum_bases(rank + 1))


def _holds(table: Sequence[int], base: Sequence[int]) -> bool:
    """True when the table holds the multiset ``base``."""
    need = [0] * N_RANKS
    for r in base:
        need[r] += 1
    return all(table[r] >= need[r] for r in range(N_RANKS))


def capture_bases(rank: int, table: Sequence[int], rules: RuleSet) -> list[tuple[int, ...]]:
    """Return the capture bases of a played rank on a table, in canonical order.

    The match first (R5.1: any rank, faces included), then the sums (R5.2: only a numeric
    card, only numeric table cards, two or more of them, at most ``max_sum_cards``), by size
    then lexicographic rank tuple (contract section 3).

    Parameters
    ----------
    rank : int
        Played rank, 0..9.
    table : sequence of int
        Per-rank counts of the table (length 10).
    rules : RuleSet
        Provides ``max_sum_cards``.

    Returns
    -------
    list of tuple of int
        Each base as a sorted rank tuple; empty when the card cannot capture.
    """
    bases: list[tuple[int, ...]] = []
    if table[rank] >= 1:
        bases.append((rank,))
    if rank < N_NUMERIC:
        limit = rules.max_sum_cards
        for base in _sum_bases(rank):
            if (limit is None or len(base) <= limit) and _holds(table, base):
                bases.append(base)
    return bases


def card_options(rank: int, table: Sequence[int], rules: RuleSet) -> list[tuple[int, ...]]:
    """Return every legal base for one played rank: trail ``()`` first when legal (R5, R5.5).

    Trailing is always legal unless ``capture_compulsory`` and this card can capture (the rule
    is per card, contract section 3).

    Parameters
    ----------
    rank : int
        Played rank, 0..9.
    table : sequence of int
        Per-rank counts of the table.
    rules : RuleSet
        The switches (``capture_compulsory``, ``max_sum_cards``).

    Returns
    -------
    list of tuple of int
        ``()`` (trail), then the capture bases of :func:`capture_bases`.
    """
    bases = capture_bases(rank, table, rules)
    if rules.capture_compulsory and bases:
        return bases
    return [(), *bases]


def legal_plays(hand: Sequence[int], table: Sequence[int], rules: RuleSet) -> list[Play]:
    """Return the legal plays of a turn in canonical order (contract section 3).

    For each rank held, ascending, that rank's :func:`card_options` (one entry per distinct
    rank, not per physical card). Policies choose an index into this list.

    Parameters
    ----------
    hand : sequence of int
        Per-rank counts of the hand.
    table : sequence of int
        Per-rank counts of the table.
    rules : RuleSet
        The switches.

    Returns
    -------
    list of Play
        Empty only when the hand is empty.
    """
    return [
        Play(rank, base)
        for rank in range(N_RANKS)
        if hand[rank] > 0
        for base in card_options(rank, table, rules)
    ]


@dataclass(frozen=True)
class PlayOutcome:
    """What one play does and scores for the acting side (R5 to R7, R9.1, contract section 4).

    Attributes
    ----------
    play : Play
        The play.
    run : tuple of int
        Ranks taken by the run (R5.4), ascending; empty for a trail.
    table_after : tuple of int
        Per-rank counts of the table after the play.
    caida : bool
        The base is a match of the card the previous player just trailed (R6.1), or with
        ``caida_by_sum`` a sum containing its rank (R6.2).
    caida_en_ronda : bool
        A caida on a rank the trailing seat was dealt as a ronda in this deal (R6.4).
    bonus : bool
        A caida en ronda worth ``caida_en_ronda_points`` (the side was below
        ``ronda_blocked_from``, R6.4).
    limpia : bool
        A capture that leaves the table empty (R7.1).
    caida_points : int
        Caida points credited now (0 when claimed for the end of the deal).
    limpia_points : int
        Limpia points credited now, after "todo dos" (R7.2) and the 38 rule (R9.1).
    claim : int
        Caida-en-ronda points claimed for the end of the deal (R6.4 ``end_of_deal``).
    """

    play: Play
    run: tuple[int, ...]
    table_after: tuple[int, ...]
    caida: bool
    caida_en_ronda: bool
    bonus: bool
    limpia: bool
    caida_points: int
    limpia_points: int
    claim: int

    @property
    def points(self) -> int:
        """Points credited to the acting side by the play itself (claims excluded)."""
        return self.caida_points + self.limpia_points

    @property
    def captured(self) -> tuple[int, ...]:
        """Ranks that go to the side's pile: played card, base and run, sorted (R5)."""
        if self.play.is_trail:
            return ()
        return tuple(sorted((self.play.rank, *self.play.base, *self.run)))


def resolve_play(
    rules: RuleSet,
    table: Sequence[int],
    play: Play,
    *,
    trail: int | None,
    trail_in_ronda: bool,
    score: int,
) -> PlayOutcome:
    """Work out the effect and the points of a play without changing any state.

    Parameters
    ----------
    rules : RuleSet
        The switches.
    table : sequence of int
        Per-rank counts of the table before the play.
    play : Play
        A play legal on that table (see :func:`card_options`); not re-validated.
    trail : int or None
        Rank of the trail a caida may be made on: the previous seat's trail in this deal, or
        under ``caida_across_deals`` the dealer's last trail of the previous deal (R6.1);
        ``None`` when the previous action was a capture or there is none.
    trail_in_ronda : bool
        The trailing seat was dealt ``trail``'s rank as a ronda or doble ronda in the current
        deal, declared or blocked (R6.4).
    score : int
        The acting side's score before the play; the blocks (R6.4) and the 38 rule (R9.1)
        look at it.

    Returns
    -------
    PlayOutcome
        Run (R5.4), caida (R6.1, R6.2), caida en ronda (R6.4), limpia (R7.1) and points:
        a caida is 2, a bonus caida en ronda ``caida_en_ronda_points``; a limpia 2, or 0 when
        it is also a caida and ``caida_limpia_cumulative`` is false (R7.2) or the side is at
        ``target - 2`` under any ``at_38`` but ``none`` (R9.1); a bonus caida under
        ``end_of_deal`` timing is a claim instead of immediate points.
    """
    after = list(table)
    if play.is_trail:
        after[play.rank] += 1
        return PlayOutcome(play, (), tuple(after), False, False, False, False, 0, 0, 0)
    for r in play.base:
        after[r] -= 1
    # R5.4: the run starts at the rank above the *played* card, whatever the base was.
    run: list[int] = []
    k = play.rank + 1
    while k <= KING and after[k] >= 1:
        after[k] -= 1
        run.append(k)
        k += 1
    caida = trail is not None and (
        play.base == (trail,) or (rules.caida_by_sum and len(play.base) > 1 and trail in play.base)
    )
    caida_en_ronda = caida and trail_in_ronda
    blocked = rules.ronda_blocked_from is not None and score >= rules.ronda_blocked_from
    bonus = caida_en_ronda and not blocked
    caida_val = 0
    if caida:
        caida_val = rules.caida_en_ronda_points if bonus else 2
    limpia = sum(after) == 0
    limpia_val = 2 if limpia else 0
    if caida and not rules.caida_limpia_cumulative:
        limpia_val = 0  # "todo dos" (R7.2): the play scores the caida's value only
    if at_38(rules, score):
        limpia_val = 0  # R9.1: every 38 rule but "none" keeps the caida and drops the limpia
    claim = 0
    if bonus and rules.caida_en_ronda_timing == "end_of_deal":
        claim, caida_val = caida_val, 0
    return PlayOutcome(
        play=play,
        run=tuple(run),
        table_after=tuple(after),
        caida=caida,
        caida_en_ronda=caida_en_ronda,
        bonus=bonus,
        limpia=limpia,
        caida_points=caida_val,
        limpia_points=limpia_val,
        claim=claim,
    )


def at_38(rules: RuleSet, score: int) -> bool:
    """True when the 38 rule (R9.1) restricts a side with this score.

    It applies to a side exactly at ``target - 2`` (38 with the usual target) under any
    ``at_38`` setting but ``"none"`` (contract section 4).

    Parameters
    ----------
    rules : RuleSet
        Provides ``at_38`` and ``target``.
    score : int
        The side's score at the start of the step.

    Returns
    -------
    bool
        Whether the side is restricted by the 38 rule.
    """
    return rules.at_38 != "none" and score == rules.target - 2


def caida_trail(state: DataState) -> tuple[int | None, bool]:
    """Return ``(trail rank or None, trail_in_ronda)`` for the seat about to play.

    The previous trail is always the previous seat's (any capture clears it, every trail
    replaces it), and it survives into a new deal only under ``caida_across_deals`` (R6.1,
    R6.3). Caida en ronda looks at the trailing seat's rondas of the **current** deal
    (contract section 4).

    Parameters
    ----------
    state : DataState
        The data state before the play.

    Returns
    -------
    (int or None, bool)
        The trailed rank a caida may be made on, and whether it is a ronda rank of the
        trailing seat in the current deal (R6.4).
    """
    prev: PreviousTrail | None = state.previous_trail
    if prev is None:
        return None, False
    return prev.rank, prev.rank in state.rondas[prev.seat]


def outcome_in_state(state: DataState, seat: int, play: Play, score: int) -> PlayOutcome:
    """Return :func:`resolve_play` for ``seat`` playing ``play`` in ``state``.

    Parameters
    ----------
    state : DataState
        The data state before the play.
    seat : int
        The acting seat.
    play : Play
        A legal play of that seat.
    score : int
        The acting side's score before the play.
    """
    trail, in_ronda = caida_trail(state)
    return resolve_play(
        state.rules, state.table_counts(), play, trail=trail, trail_in_ronda=in_ronda, score=score
    )


@dataclass(frozen=True)
class MovedCards:
    """The physical cards a play moved, for replays.

    Attributes
    ----------
    played : int
        Card id played from hand (the lowest id of that rank, contract section 1).
    base : tuple of int
        Card ids taken as the base.
    run : tuple of int
        Card ids taken by the run.
    """

    played: int
    base: tuple[int, ...]
    run: tuple[int, ...]


def apply_play(state: DataState, seat: int, outcome: PlayOutcome) -> MovedCards:
    """Move the cards of a resolved play and update the trail and last capturer (R5, R6.1).

    A trail lays the card on the table and becomes the previous trail; a capture takes the
    base then the run from the table (lowest card id of each rank), puts them with the played
    card into the side's pile, makes the side the last capturer (R8.1) and clears the
    previous trail. Scores are not touched here.

    Parameters
    ----------
    state : DataState
        Changed in place.
    seat : int
        The acting seat.
    outcome : PlayOutcome
        From :func:`outcome_in_state` on this state.

    Returns
    -------
    MovedCards
        The physical cards moved.
    """
    play = outcome.play
    card = take_rank(state.hands[seat], play.rank)
    state.played[play.rank] += 1
    state.turns += 1
    if play.is_trail:
        state.table.append(card)
        state.previous_trail = PreviousTrail(seat, play.rank, state.deal)
        return MovedCards(card, (), ())
    base = tuple(take_rank(state.table, r) for r in play.base)
    run = tuple(take_rank(state.table, r) for r in outcome.run)
    side = side_of(seat)
    state.piles[side].extend((card, *base, *run))
    state.last_capturer = side
    state.previous_trail = None
    return MovedCards(card, base, run)
