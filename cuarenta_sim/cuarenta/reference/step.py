"""A step-by-step Cuarenta data or chica on the reference engine: the state of the game's
step-level core (:mod:`cuarenta_sim.cuarenta.core`), which the RL adapters play through.

The reference engine (:mod:`cuarenta_sim.cuarenta.reference`) plays a whole game in one call,
asking a policy object at each turn. An RL environment needs the opposite: the game stops at
each decision and waits for an action. :class:`CuarentaGame` is that inversion: it keeps a
reference :class:`~cuarenta_sim.cuarenta.reference.DataState` and
:class:`~cuarenta_sim.cuarenta.reference.ScoreBoard` and walks the flow of
``docs/engine_contract.md`` section 5 (deal, announcements, turns, end-of-deal claims, end of
data, next data) one decision at a time. Every step is the one :func:`play_game` takes
(:mod:`.flow`: ``announce_deal`` R4, ``play_turn`` R5-R7 and R9.1, ``credit_claims`` R6.4,
``count_data`` R8), after ``DataState.deal_next`` (R3.2), with the legal plays of
``card_options`` (R5, canonical order); so its events, and their trace rows, are
:func:`cuarenta_sim.cuarenta.reference.play_game`'s, row for row.

Chance (the first dealer and the deck) comes either from the project's random streams, keyed
by ``(seed, game index)`` exactly as the reference engine draws them (``chance="streams"``:
same decks, same first dealer as ``play_game(..., level, index)``), or from outside, one
outcome at a time (``chance="explicit"``: OpenSpiel's chance nodes deal card by card).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ...core import CHANCE, TERMINAL, StepState
from ...rng import STREAM_GAME, PyRng, shuffled_deck_py
from ..actions import ACTION_OF, PLAYS
from ..cards import N_CARDS, N_NUMERIC
from ..rules import RuleSet
from .events import Event
from .flow import announce_deal, count_data, credit_claims, play_turn
from .game import MAX_DATAS
from .plays import card_options
from .scoring import ScoreBoard
from .state import (
    CARDS_PER_DEAL,
    DataState,
    deals_per_data,
    rank_counts,
)

#: Episode units: one data (scores from 0-0, played to its last card, contract section 5) or
#: one chica (datas until a side reaches the target, R9.2).
EPISODES = ("chica", "data")


def _rank_actions(
    cache: dict[tuple[object, ...], tuple[int, ...]],
    rules: RuleSet,
    rank: int,
    table: tuple[int, ...],
) -> tuple[int, ...]:
    """Action ids of one held rank's options on a table (reference ``card_options``, R5).

    The options of rank ``r`` depend only on the table counts of ranks ``0..r`` (the match
    looks at ``r``, a sum base of value ``r + 1`` only holds lower numeric ranks, R5.2), so
    the cache key (in ``cache``, one per rule set) keeps just those: the reference function
    is the hot spot of random play and the cache turns it into a dictionary look-up.
    """
    key = (rank, table[: rank + 1] if rank < N_NUMERIC else table[rank] > 0)
    found = cache.get(key)
    if found is None:
        found = tuple(
            ACTION_OF[PLAYS_BY_KEY[(rank, base)]] for base in card_options(rank, table, rules)
        )
        if len(cache) < _OPTIONS_MAX:
            cache[key] = found
    return found


#: One options cache per rule set.
_OPTIONS: dict[RuleSet, dict[tuple[object, ...], tuple[int, ...]]] = {}
#: Bound of each options cache (a few MB at most).
_OPTIONS_MAX = 1 << 18
PLAYS_BY_KEY = {(p.rank, p.base): p for p in PLAYS}


@dataclass
class CuarentaGame(StepState):
    """One Cuarenta episode (a data or a chica), advanced one decision at a time.

    Parameters
    ----------
    rules : RuleSet
        The rule switches.
    players : int
        2 or 4 (R2.1); seat ``s`` plays for side ``s % 2``.
    episode : str
        ``"chica"`` (default in the environments) or ``"data"`` (see :data:`EPISODES`).
    chance : str
        ``"streams"``: decks and first dealer from ``cuarenta_sim.rng`` keyed by
        ``(root, game)``, as :func:`cuarenta_sim.cuarenta.reference.play_game` draws them;
        ``"explicit"``: the caller supplies every chance outcome (:meth:`apply_chance`).
    root : int
        Root of the random streams (``rng.root_from_seed``); used with ``"streams"``.
    game : int
        The game index: the hand index at episode ``data`` (dealer ``game % players``, deck
        of data ``(game, 0)``), the chica index at episode ``chica`` (first dealer from the
        ``STREAM_GAME`` stream, deck of data ``d`` from ``(game, d)``).

    Attributes
    ----------
    current : int
        The seat to act, :data:`CHANCE` or :data:`TERMINAL`.
    board : ScoreBoard
        The scores of sides 0 and 1 (R9.2).
    state : DataState or None
        The current data (reference engine state with physical cards).
    events : list
        Every step event (reference ``AnnounceEvent``, ``PlayEvent``, ``ClaimsEvent``,
        ``EndEvent``) in order; ``row()`` of each is a trace row (contract section 7).
    gained : list of int
        Points credited to sides 0 and 1 since the last :meth:`clear_gained`.
    truncated : bool
        The chica was stopped after :data:`MAX_DATAS` datas without a winner (contract 5).
    history : list of int
        Every chance outcome (``chance="explicit"`` only) and action applied, in order: with
        the constructor arguments it rebuilds the episode (the core's JSON form).
    """

    #: Cards in the deck (R1.1), for :meth:`chance_outcomes`.
    n_cards = N_CARDS

    rules: RuleSet
    players: int
    episode: str = "chica"
    chance: str = "streams"
    root: int = 0
    game: int = 0
    current: int = CHANCE
    board: ScoreBoard = field(init=False)
    state: DataState | None = None
    dealer: int | None = None
    data: int = 0
    turn: int = -1
    events: list[Event] = field(default_factory=list)
    gained: list[int] = field(default_factory=lambda: [0, 0])
    truncated: bool = False
    decisions: int = 0
    history: list[int] = field(default_factory=list)
    _claims: list[int] = field(default_factory=lambda: [0, 0])
    _claim_order: list[int] = field(default_factory=list)
    _legal: tuple[int, ...] | None = None
    _options: dict[tuple[object, ...], tuple[int, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.check_setup(EPISODES)
        if isinstance(self.players, bool) or self.players not in (2, 4):
            raise ValueError(f"players must be 2 or 4, got {self.players!r}")
        self._options = _OPTIONS.setdefault(self.rules, {})
        # Contract 5: a data episode keeps scoring past the target; a chica stops there.
        self.board = ScoreBoard(self.rules, [0, 0], stop_at_target=self.episode == "chica")
        if self.episode == "data":
            self.dealer = None if self.chance == "explicit" else self.game % self.players
        self._advance()

    # ----------------------------------------------------------------- queries
    @property
    def winner(self) -> int | None:
        """Winning side of a chica (R9.2); at episode ``data`` the side with more points."""
        if self.episode == "chica":
            return self.board.winner
        if not self.terminal or self.board.scores[0] == self.board.scores[1]:
            return None
        return 0 if self.board.scores[0] > self.board.scores[1] else 1

    def legal_actions(self) -> tuple[int, ...]:
        """Return the legal action ids of the seat to act, ascending (= canonical order).

        Returns
        -------
        tuple of int
            Empty at a chance node or at the end.
        """
        if self._legal is None:
            if self.current < 0:
                self._legal = ()
            else:
                st = self.state
                assert st is not None
                hand = rank_counts(st.hands[self.current])
                table = tuple(rank_counts(st.table))
                rules, cache = self.rules, self._options
                out: list[int] = []
                for rank, count in enumerate(hand):
                    if count:
                        out.extend(_rank_actions(cache, rules, rank, table))
                self._legal = tuple(out)
        return self._legal

    def dealt_cards(self) -> list[int]:
        """The cards of the data dealt so far (its deck, by position)."""
        assert self.state is not None
        return self.state.deck

    # ----------------------------------------------------------------- moves
    def add_card(self, card: int) -> None:
        """An explicit chance card (``chance="explicit"``): the deck is dealt by position
        (contract section 2), so the card joins the deck and the stock, and ``deal_next``
        hands it out once the deal's ``5 * n`` cards are drawn (R3.2)."""
        assert self.state is not None
        self.state.deck.append(card)
        self.state.stock.append(card)

    def apply_action(self, action: int) -> None:
        """Play a legal action for the seat to act, then run the game to the next decision.

        Parameters
        ----------
        action : int
            One of :meth:`legal_actions`.

        Raises
        ------
        ValueError
            At a chance node or the end, or an action that is not legal; the message lists
            the legal ones.
        """
        seat = self.check_action(action)
        st = self.state
        assert st is not None
        self.history.append(int(action))
        event = play_turn(
            st, self.board, self.data, seat, PLAYS[int(action)], self._claims, self._claim_order
        )
        self._gain(event.points)
        self.events.append(event)
        self.decisions += 1
        self.turn += 1
        self._legal = None
        if self.board.ended:
            self.current = TERMINAL
            return
        self._advance()

    def clone(self) -> CuarentaGame:
        """Return an independent copy (OpenSpiel clones states at every node of a search).

        Only the mutable parts are copied: the rules, the event objects (frozen) and the
        options cache are shared.
        """
        new = copy.copy(self)
        b = self.board
        new.board = ScoreBoard(b.rules, list(b.scores), b.stop_at_target, b.winner)
        st = self.state
        if st is not None:
            new.state = copy.copy(st)
            new.state.deck = list(st.deck)
            new.state.hands = [list(h) for h in st.hands]
            new.state.table = list(st.table)
            new.state.piles = [list(p) for p in st.piles]
            new.state.stock = list(st.stock)
            new.state.rondas = list(st.rondas)
            new.state.played = list(st.played)
        new.events = list(self.events)
        new.history = list(self.history)
        new.gained = list(self.gained)
        new._claims = list(self._claims)
        new._claim_order = list(self._claim_order)
        return new

    # ----------------------------------------------------------------- flow
    def _gain(self, points: tuple[int, int]) -> None:
        """Add a step's credited points (sides 0, 1) to :attr:`gained`."""
        self.gained[0] += points[0]
        self.gained[1] += points[1]

    def _advance(self) -> None:
        """Run the automatic steps (deal, announcements, claims, counts) to the next decision,
        chance node or end (contract section 5)."""
        self._legal = None
        n, rules, board = self.players, self.rules, self.board
        while True:
            st = self.state
            if st is None:
                if self.dealer is None:
                    if self.chance == "explicit":
                        self.current = CHANCE
                        return
                    # R3.4, contract 2: the chica's first dealer from its game stream.
                    self.dealer = PyRng.for_stream(self.root, self.game, 0, STREAM_GAME).randbelow(
                        n
                    )
                if self.chance == "streams":
                    deck = shuffled_deck_py(self.root, self.game, self.data)
                    st = DataState.start(rules, n, self.dealer, deck)
                else:
                    st = DataState.start(rules, n, self.dealer, [])
                self.state = st
                self.turn = -1
            if self.turn < 0:
                if len(st.deck) < (st.deal + 2) * CARDS_PER_DEAL * n:
                    self.current = CHANCE
                    return
                if self._deal(st):
                    self.current = TERMINAL
                    return
                self.turn = 0
            if self.turn < CARDS_PER_DEAL * n:
                self.current = (st.dealer + 1 + self.turn) % n
                return
            if self._claim_order and self._credit_claims(st):
                self.current = TERMINAL
                return
            if st.deal + 1 < deals_per_data(n):
                self.turn = -1
                continue
            self._end_of_data(st)
            if board.ended or self.episode == "data":
                self.current = TERMINAL
                return
            self.data += 1
            self.dealer = (st.dealer + 1) % n  # R3.4: the deal passes on
            self.state = None
            if self.data >= MAX_DATAS:
                self.truncated = True
                self.current = TERMINAL
                return

    def _deal(self, st: DataState) -> bool:
        """Deal the next deal and credit its announcements (R3.2, R4); True if the chica ended."""
        dealt = st.deal_next()
        self._claims = [0, 0]
        self._claim_order = []
        for event in announce_deal(st, self.board, self.data, dealt):
            self._gain(event.points)
            self.events.append(event)
            if self.board.ended:
                return True
        return False

    def _credit_claims(self, st: DataState) -> bool:
        """Credit the end-of-deal claims, first claimer first (R6.4); True if the chica ended."""
        event = credit_claims(st, self.board, self.data, self._claims, self._claim_order)
        self._gain(event.points)
        self.events.append(event)
        self._claim_order = []
        return self.board.ended

    def _end_of_data(self, st: DataState) -> None:
        """The end-of-data count (R8), credited in order with the target check (R9.2)."""
        event, _ = count_data(st, self.board, self.data)
        self._gain(event.points)
        self.events.append(event)
