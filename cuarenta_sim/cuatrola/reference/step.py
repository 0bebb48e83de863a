"""A step-by-step Cuatrola hand or game on the reference engine: the state of the game's
step-level core (:mod:`cuarenta_sim.cuatrola.core`), which the RL adapters play through.

:func:`cuarenta_sim.cuatrola.reference.play_hand` plays a whole hand, asking policy objects
for every bid and card. :class:`CuatrolaGame` walks the same flow one decision at a time
(``docs/cuatrola.md`` C1-C6, ``docs/cuatrola_contract.md``): bidding from the mano round to the
dealer (C2.1, closed by the first declaration under ``first_closes``), who plays and who leads
(C2.2, C3.1), five tricks, the cantes after each trick (C4), the hand's score (C5) and the
next hand until a pair reaches the target (C6). Every rule is the reference engine's, the
same functions :func:`~cuarenta_sim.cuatrola.reference.play_hand` calls: ``deal_hands``
(C1.4), ``legal_declarations`` (C2.1, C2.3), ``seating`` (C2.2, C3.1), ``legal_plays``
(C3.3), ``finish_trick`` (C3.5, C1.3, C4) and ``score_hand`` (C5). It writes
the reference trace rows (contract section 6), so a differential test compares it with
:func:`cuarenta_sim.cuatrola.reference.reference_trace` row for row.

Actions (a fixed ``Discrete(24)`` space): ``0 .. 19`` play that card id (``suit * 5 + rank``,
suits ``o c e b``, ranks ``A 3 R C S``), ``20 .. 23`` declare ``pass``, ``solo``,
``cuatrola``, ``quintola``. Sorted ids are the reference engine's canonical order.

Chance: ``chance="streams"`` deals from ``cuarenta_sim.rng`` keyed by ``(root, game)`` as the
reference engine does (same decks, same first dealer); ``chance="explicit"`` takes the first
dealer and every card from the caller (OpenSpiel's chance nodes).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ...core import CHANCE, TERMINAL, StepState
from ...rng import shuffled_cards_py
from ..cards import N_CARDS, format_card, suit_of
from ..contracts import DECLARATIONS, NONE, legal_declarations
from ..rules import CuatrolaRules
from ..trace_format import (
    KIND_BID,
    KIND_CANTE,
    KIND_DEAL,
    KIND_END,
    KIND_PLAY,
    KIND_TRICK,
)
from .game import MAX_HANDS, deal_hands, first_dealer
from .scoring import finish_trick, score_hand
from .tricks import legal_plays, seating

#: First bid action: ``BID0 + declaration`` (0 pass, 1 solo, 2 cuatrola, 3 quintola).
BID0 = N_CARDS
#: Size of the Discrete action space: 20 cards and 4 declarations.
N_ACTIONS = N_CARDS + len(DECLARATIONS)
#: Episode units: one hand from 0-0 (dealer ``index % 4``), or one game to the target (C6).
EPISODES = ("game", "hand")
PLAYERS = 4
#: Cards per hand (C1.4).
HAND_CARDS = 5


def action_name(action: int) -> str:
    """Return a short name of an action: a card such as ``"Rc"`` or a declaration.

    Parameters
    ----------
    action : int
        An id in ``0 .. 23``.

    Returns
    -------
    str
        The card (rank then suit letter) or ``pass`` / ``solo`` / ``cuatrola`` / ``quintola``.

    Raises
    ------
    ValueError
        If ``action`` is out of range.
    """
    if isinstance(action, bool) or int(action) != action or not 0 <= int(action) < N_ACTIONS:
        raise ValueError(f"action must be a whole number from 0 to {N_ACTIONS - 1}, got {action!r}")
    a = int(action)
    return format_card(a) if a < BID0 else DECLARATIONS[a - BID0]


@dataclass
class CuatrolaGame(StepState):
    """One Cuatrola episode (a hand or a game), advanced one decision at a time.

    Parameters
    ----------
    rules : CuatrolaRules
        The rule switches.
    episode : str
        ``"game"`` (to the target, C6) or ``"hand"`` (one hand from 0-0).
    chance : str
        ``"streams"`` or ``"explicit"`` (module docstring).
    root : int
        Root of the random streams; used with ``"streams"``.
    game : int
        Game index: with ``"hand"`` the hand index (dealer ``game % 4``, deck ``(game, 0)``);
        with ``"game"`` the game index (first dealer from its ``STREAM_GAME`` stream, deck of
        hand ``j`` from ``(game, j)``), as the reference engine.

    Attributes
    ----------
    current : int
        Seat to act, :data:`CHANCE` or :data:`TERMINAL`.
    scores : list of int
        Game points of pairs 0 (seats 0, 2) and 1 (seats 1, 3).
    hands : list of set of int
        Cards held by each seat.
    bids : list of int
        Declaration of each seat in this hand, ``-1`` before it bids (or when it never bids
        after a ``first_closes`` declaration).
    trick, trick_seats : list of int
        Cards of the current trick and their seats, in playing order.
    played : list of list of int
        Per seat, the cards it played in earlier tricks of this hand.
    cantes : list of (int, int)
        ``(singer, suit)`` of each cante of this hand (C4), in order.
    trace : list of tuple
        Reference trace rows (``docs/cuatrola_contract.md`` section 6).
    gained : list of int
        Game points credited to each pair since the last :meth:`clear_gained`.
    history : list of int
        Every chance outcome (``chance="explicit"`` only) and action applied, in order.
    """

    #: Cards in the deck (C1.2), for :meth:`chance_outcomes`.
    n_cards = N_CARDS

    rules: CuatrolaRules
    episode: str = "game"
    chance: str = "streams"
    root: int = 0
    game: int = 0
    players: int = PLAYERS
    current: int = CHANCE
    scores: list[int] = field(default_factory=lambda: [0, 0])
    hand_index: int = 0
    dealer: int | None = None
    deck: list[int] = field(default_factory=list)
    hands: list[set[int]] = field(default_factory=list)
    trump_card: int = -1
    trump: int = -1
    mano: int = -1
    bids: list[int] = field(default_factory=list)
    bidder: int = 0
    contract: int = NONE
    declarer: int = -1
    plays: list[bool] = field(default_factory=list)
    leader: int = -1
    bidding: bool = True
    trick_no: int = 0
    trick: list[int] = field(default_factory=list)
    trick_seats: list[int] = field(default_factory=list)
    played: list[list[int]] = field(default_factory=list)
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    sung: set[int] = field(default_factory=set)
    cantes: list[tuple[int, int]] = field(default_factory=list)
    trace: list[tuple[int, ...]] = field(default_factory=list)
    gained: list[int] = field(default_factory=lambda: [0, 0])
    last_hand: list[int] = field(default_factory=lambda: [0, 0])
    truncated: bool = False
    decisions: int = 0
    history: list[int] = field(default_factory=list)
    _dealt: bool = False
    _legal: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        self.check_setup(EPISODES)
        if self.chance == "streams":
            self.dealer = (
                self.game % PLAYERS
                if self.episode == "hand"
                else first_dealer(self.root, self.game)
            )
        self._advance()

    # ----------------------------------------------------------------- queries
    @property
    def winner(self) -> int | None:
        """The pair that reached the target (C6.1); at episode ``hand`` the pair that scored
        more game points in it (``None`` on a tie or before the end)."""
        if not self.terminal or self.scores[0] == self.scores[1]:
            return None
        if self.episode == "game" and max(self.scores) < self.rules.target:
            return None  # truncated
        return 0 if self.scores[0] > self.scores[1] else 1

    def legal_actions(self) -> tuple[int, ...]:
        """Return the legal action ids of the seat to act, ascending (canonical order).

        Returns
        -------
        tuple of int
            Declarations (``20 + code``, C2.1, C2.3) while bidding, cards (C3.3) in play;
            empty at a chance node or the end.
        """
        if self._legal is None:
            seat = self.current
            if seat < 0:
                self._legal = ()
            elif self.bidding:
                open_ = legal_declarations(self.scores[seat % 2], self.contract, False, self.rules)
                self._legal = tuple(BID0 + d for d in open_)
            else:
                self._legal = tuple(legal_plays(self.hands[seat], self.trick, self.trump))
        return self._legal

    def dealt_cards(self) -> list[int]:
        """The cards of the hand dealt so far (its deck, by position, C1.4)."""
        return self.deck

    # ----------------------------------------------------------------- moves
    def add_card(self, card: int) -> None:
        """An explicit chance card (``chance="explicit"``): the deck's next position."""
        self.deck.append(card)

    def legal_words(self, legal: tuple[int, ...]) -> str:
        """The legal actions with their names, for an illegal-action error."""
        return "legal: " + ", ".join(f"{a} ({action_name(a)})" for a in legal)

    def apply_action(self, action: int) -> None:
        """Apply a legal bid or card of the seat to act, then run to the next decision.

        Raises
        ------
        ValueError
            No seat may act, or the action is not legal (the message lists the legal ones).
        """
        seat = self.check_action(action)
        a = int(action)
        self.history.append(a)
        self.decisions += 1
        self._legal = None
        if self.bidding:
            self._bid(seat, a - BID0)
        else:
            self._play(seat, a)
        self._advance()

    def clone(self) -> CuatrolaGame:
        """Return an independent copy (the rules and the trace rows, immutable, are shared)."""
        new = copy.copy(self)
        new.scores = list(self.scores)
        new.deck = list(self.deck)
        new.hands = [set(h) for h in self.hands]
        new.bids = list(self.bids)
        new.plays = list(self.plays)
        new.trick = list(self.trick)
        new.trick_seats = list(self.trick_seats)
        new.played = [list(p) for p in self.played]
        new.tricks = list(self.tricks)
        new.points = list(self.points)
        new.sung = set(self.sung)
        new.cantes = list(self.cantes)
        new.trace = list(self.trace)
        new.gained = list(self.gained)
        new.last_hand = list(self.last_hand)
        new.history = list(self.history)
        return new

    # ----------------------------------------------------------------- flow
    def _emit(self, kind: int, seat: int, card: int, value: int, a: int, b: int) -> None:
        s = self.scores
        self.trace.append((kind, self.hand_index, seat, card, value, a, b, s[0], s[1]))

    def _start_hand(self) -> None:
        """Deal the hand (C1.4) and open the bidding at the mano (C2.1)."""
        dealer = self.dealer
        assert dealer is not None
        self.hands, self.trump_card = deal_hands(self.deck, dealer)
        self.trump = suit_of(self.trump_card)
        self.mano = (dealer + 1) % PLAYERS
        self.bids = [-1] * PLAYERS
        self.bidder = 0
        self.contract, self.declarer = NONE, -1
        self.bidding = True
        self.trick_no = 0
        self.trick, self.trick_seats = [], []
        self.played = [[] for _ in range(PLAYERS)]
        self.tricks, self.points = [0, 0], [0, 0]
        self.sung = set()
        self.cantes = []
        self._dealt = True
        self._emit(KIND_DEAL, dealer, self.trump_card, self.trump, 0, 0)

    def _bid(self, seat: int, decl: int) -> None:
        self.bids[seat] = decl
        self._emit(KIND_BID, seat, -1, decl, 0, 0)
        if decl > self.contract:
            self.contract, self.declarer = decl, seat
        self.bidder += 1
        if (decl and self.rules.bidding == "first_closes") or self.bidder == PLAYERS:
            self._close_bidding()

    def _close_bidding(self) -> None:
        """Who plays (C2.2) and who leads the first trick (C3.1)."""
        self.bidding = False
        self.plays, self.leader = seating(
            self.contract, self.declarer, self.mano, self.rules.first_lead
        )

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.trick_seats.append(seat)
        self._emit(KIND_PLAY, seat, card, self.trick_no, self.points[0], self.points[1])
        if len(self.trick) < sum(self.plays):
            return
        # The trick is complete: winner (C3.5), points (C1.3), cante (C4).
        trick, seats = self.trick, self.trick_seats
        no, contract = self.trick_no, self.contract
        winner, value, cante = finish_trick(
            trick, seats, self.trump, no, contract, self.hands, self.plays, self.sung
        )
        self.tricks[winner % 2] += 1
        self.points[winner % 2] += value
        self._emit(KIND_TRICK, winner, -1, value, self.points[0], self.points[1])
        if cante is not None:
            singer, suit, cval = cante
            self.sung.add(suit)
            self.cantes.append((singer, suit))
            self.points[singer % 2] += cval
            self._emit(KIND_CANTE, singer, suit, cval, self.points[0], self.points[1])
        for c, s in zip(trick, seats, strict=True):
            self.played[s].append(c)
        self.trick, self.trick_seats = [], []
        self.leader = winner
        self.trick_no += 1
        if self.trick_no == 5:
            self._end_hand()

    def _end_hand(self) -> None:
        """Score the hand (C5) and move on to the next one, or end the episode (C6)."""
        gp, made = score_hand(
            self.rules, self.contract, self.declarer, self.mano, self.tricks, self.points
        )
        self.scores = [self.scores[0] + gp[0], self.scores[1] + gp[1]]
        self.gained[0] += gp[0]
        self.gained[1] += gp[1]
        self.last_hand = gp
        self._emit(KIND_END, self.declarer, self.contract, made, gp[0], gp[1])
        self._dealt = False
        if self.episode == "hand" or max(self.scores) >= self.rules.target:
            self.current = TERMINAL
            return
        self.hand_index += 1
        if self.hand_index >= MAX_HANDS:
            self.truncated = True
            self.current = TERMINAL
            return
        assert self.dealer is not None
        # C1.4: the deal passes to the next seat, or to the last trick's winner.
        self.dealer = (
            self.leader
            if self.rules.dealer_rotation == "last_trick_winner"
            else (self.dealer + 1) % PLAYERS
        )
        self.deck = []

    def _advance(self) -> None:
        """Run to the next decision, chance node or end."""
        self._legal = None
        if self.current == TERMINAL:
            return
        if not self._dealt:
            if self.dealer is None:
                self.current = CHANCE
                return
            if self.chance == "streams":
                self.deck = shuffled_cards_py(self.root, self.game, self.hand_index, N_CARDS)
            elif len(self.deck) < N_CARDS:
                self.current = CHANCE
                return
            self._start_hand()
        if self.bidding:
            self.current = (self.mano + self.bidder) % PLAYERS
            return
        seat = self.trick_seats[-1] + 1 if self.trick_seats else self.leader
        while not self.plays[seat % PLAYERS]:
            seat += 1
        self.current = seat % PLAYERS
