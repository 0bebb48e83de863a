"""The state of one data (hand) in the reference engine, with physical cards.

Suits never matter in play (R1.1), but the reference engine keeps the physical card ids
``0..39`` (``rank = id // 4``, ``suit = id % 4``) so that replays read like a real game. Every
rule decision is taken on rank counts (:meth:`DataState.table_counts`), exactly as the numba
kernel does (``docs/engine_contract.md`` section 1); the physical card moved for a rank is
always the lowest card id of that rank in the hand or on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import N_CARDS, N_RANKS, N_SUITS
from ..rules import RuleSet

#: Cards dealt to each player per deal (R2.2).
CARDS_PER_DEAL = 5


def deals_per_data(players: int) -> int:
    """Return the number of deals in a data: 4 with 2 players, 2 with 4 (R2.2).

    Parameters
    ----------
    players : int
        2 or 4.

    Returns
    -------
    int
        ``40 // (5 * players)``.
    """
    return N_CARDS // (CARDS_PER_DEAL * players)


def side_of(seat: int) -> int:
    """Return the side (0 or 1) of a seat: ``seat % 2`` (R2.1).

    Parameters
    ----------
    seat : int
        Seat ``0..players-1``.

    Returns
    -------
    int
        The side.
    """
    return seat % 2


def rank_counts(cards: list[int]) -> list[int]:
    """Return the 10 per-rank counts of a list of physical card ids.

    Parameters
    ----------
    cards : list of int
        Card ids ``0..39`` (``rank = id // 4``).

    Returns
    -------
    list of int
        Count of each rank ``0..9``.
    """
    counts = [0] * N_RANKS
    for card in cards:
        counts[card // N_SUITS] += 1
    return counts


def take_rank(cards: list[int], rank: int) -> int:
    """Remove and return the lowest card id of ``rank`` from ``cards`` (contract section 1).

    Parameters
    ----------
    cards : list of int
        Card ids; changed in place.
    rank : int
        The rank wanted, 0..9.

    Returns
    -------
    int
        The card id removed.

    Raises
    ------
    ValueError
        If ``cards`` holds no card of that rank.
    """
    matching = [c for c in cards if c // N_SUITS == rank]
    if not matching:
        raise ValueError(f"no card of rank {rank} to take")
    card = min(matching)
    cards.remove(card)
    return card


@dataclass(frozen=True)
class PreviousTrail:
    """The trail that the next player may make a caida on (R6.1).

    Attributes
    ----------
    seat : int
        The seat that trailed.
    rank : int
        The rank trailed (0..9).
    deal : int
        The deal (0-based) in which it was trailed.
    """

    seat: int
    rank: int
    deal: int


@dataclass
class DataState:
    """Everything on the table during one data (R2.2, R3).

    Attributes
    ----------
    rules : RuleSet
        The rule switches in force.
    players : int
        2 or 4 (R2.1).
    dealer : int
        The dealer's seat for the whole data (R3.2).
    deck : list of int
        The shuffled deck of the data (card ids), dealt by position (contract section 2).
    hands : list of list of int
        Card ids in each seat's hand.
    table : list of int
        Card ids on the table, in the order they were laid.
    piles : list of list of int
        Card ids captured by each side (R2.2); its length is the side's carton.
    stock : list of int
        Card ids not dealt yet.
    deal : int
        Current deal, 0-based; -1 before the first deal.
    previous_trail : PreviousTrail or None
        The last action if it was a trail (R6.1); cleared by a capture and, unless
        ``caida_across_deals``, at the start of each deal.
    rondas : list of tuple of int
        Per seat, the ranks dealt three or four times to it in the current deal (R4, R6.4).
    last_capturer : int or None
        Side that made the last capture of the data (R8.1).
    played : list of int
        Per-rank counts of the cards played so far in this data (public, contract section 6).
    turns : int
        Turns played so far in this data.
    """

    rules: RuleSet
    players: int
    dealer: int
    deck: list[int]
    hands: list[list[int]] = field(default_factory=list)
    table: list[int] = field(default_factory=list)
    piles: list[list[int]] = field(default_factory=lambda: [[], []])
    stock: list[int] = field(default_factory=list)
    deal: int = -1
    previous_trail: PreviousTrail | None = None
    rondas: list[tuple[int, ...]] = field(default_factory=list)
    last_capturer: int | None = None
    played: list[int] = field(default_factory=lambda: [0] * N_RANKS)
    turns: int = 0

    @classmethod
    def start(cls, rules: RuleSet, players: int, dealer: int, deck: list[int]) -> DataState:
        """Return the state before the first deal of a data: empty table and piles (R3.1).

        Parameters
        ----------
        rules : RuleSet
            The rule switches.
        players : int
            2 or 4.
        dealer : int
            Dealer seat for the data.
        deck : list of int
            The shuffled 40 card ids (``rng.shuffled_deck_py``).
        """
        return cls(
            rules=rules,
            players=players,
            dealer=dealer,
            deck=list(deck),
            hands=[[] for _ in range(players)],
            stock=list(deck),
            rondas=[() for _ in range(players)],
        )

    # ----------------------------------------------------------------- seats
    @property
    def leader(self) -> int:
        """Seat after the dealer: it leads every deal (R3.3)."""
        return (self.dealer + 1) % self.players

    @property
    def non_dealer_side(self) -> int:
        """Side of the seat after the dealer, ``(dealer + 1) % 2`` (R8.3, R8.4)."""
        return side_of(self.leader)

    def play_order(self) -> list[int]:
        """Seats in play order for one round, leader first, dealer last (R3.3)."""
        return [(self.dealer + 1 + p) % self.players for p in range(self.players)]

    # ----------------------------------------------------------------- counts
    def table_counts(self) -> list[int]:
        """Per-rank counts of the table."""
        return rank_counts(self.table)

    def hand_counts(self, seat: int) -> list[int]:
        """Per-rank counts of a seat's hand.

        Parameters
        ----------
        seat : int
            The seat.

        Returns
        -------
        list of int
            Count of each rank ``0..9`` in its hand.
        """
        return rank_counts(self.hands[seat])

    def total_cards(self) -> int:
        """Cards in hands, on the table, in the piles and in the stock: always 40 (R1.1)."""
        return (
            sum(len(h) for h in self.hands)
            + len(self.table)
            + sum(len(p) for p in self.piles)
            + len(self.stock)
        )

    # ----------------------------------------------------------------- dealing
    def deal_next(self) -> list[list[int]]:
        """Deal the next deal: 5 cards to every seat from the deck (R3.2, contract section 2).

        In deal ``d`` the ``p``-th seat after the dealer gets deck positions
        ``(d*n + p)*5 .. (d*n + p)*5 + 4``. The previous trail is cleared unless
        ``caida_across_deals`` (R6.1), and the rondas of the new deal replace the old ones.

        Returns
        -------
        list of list of int
            The cards dealt, indexed by seat.

        Raises
        ------
        ValueError
            If every deal of the data has been dealt already.
        """
        if self.deal + 1 >= deals_per_data(self.players):
            raise ValueError("every deal of this data has been dealt")
        self.deal += 1
        dealt: list[list[int]] = [[] for _ in range(self.players)]
        for p, seat in enumerate(self.play_order()):
            start = (self.deal * self.players + p) * CARDS_PER_DEAL
            cards = self.deck[start : start + CARDS_PER_DEAL]
            dealt[seat] = sorted(cards)
            self.hands[seat].extend(cards)
            self.hands[seat].sort()
            for card in cards:
                self.stock.remove(card)
        if not self.rules.caida_across_deals:
            self.previous_trail = None
        self.rondas = [
            tuple(r for r, c in enumerate(rank_counts(dealt[seat])) if c >= 3)
            for seat in range(self.players)
        ]
        return dealt


def deck_from_deals(deals: list[list[list[int]]], players: int, dealer: int) -> list[int]:
    """Build a deck order that deals the given ranks (contract section 2 positions).

    Parameters
    ----------
    deals : list of list of list of int
        ``deals[d][seat]``: the 5 ranks dealt to ``seat`` in deal ``d`` (0-based); later
        deals may be left out: they get the remaining cards in ascending card id.
    players : int
        2 or 4.
    dealer : int
        The dealer seat (seat ``(dealer + 1 + p) % players`` receives the ``p``-th batch).

    Returns
    -------
    list of int
        The 40 card ids; each rank gets its lowest free suit.

    Raises
    ------
    ValueError
        More than 4 cards of a rank, a hand that is not 5 cards, or too many deals.
    """
    if len(deals) > deals_per_data(players):
        raise ValueError(f"a data has {deals_per_data(players)} deals with {players} players")
    free = {r: [r * N_SUITS + s for s in range(N_SUITS)] for r in range(N_RANKS)}
    deck: list[int] = []
    for d, hands in enumerate(deals):
        if len(hands) != players:
            raise ValueError(f"deal {d} must give {players} hands, got {len(hands)}")
        for p in range(players):
            ranks = hands[(dealer + 1 + p) % players]
            if len(ranks) != CARDS_PER_DEAL:
                raise ValueError(f"every hand is {CARDS_PER_DEAL} cards, got {ranks!r}")
            for r in ranks:
                if not free[r]:
                    raise ValueError(f"more than 4 cards of rank {r} (R1.1)")
                deck.append(free[r].pop(0))
    rest = sorted(c for cards in free.values() for c in cards)
    return deck + rest
