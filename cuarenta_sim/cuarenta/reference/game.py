"""The flow of a data, a chica and a mesa (R3, R4, R8, R9), and :func:`play_game`.

The reference engine plays one data (level ``data``), one chica or one mesa from
``(rules, players, policies, seed, level, index)``, drawing every random number exactly as
``docs/engine_contract.md`` section 2 says, so that the numba kernel reproduces it move for
move. The result is a :class:`GameLog`: the events (for replays), the trace array of contract
section 7 and the records of contract section 8.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...limits import game_index
from ...rng import (
    STREAM_GAME,
    STREAM_POLICY,
    STREAM_SEARCH,
    PyRng,
    root_from_seed,
    shuffled_deck_py,
)
from ..rules import RuleSet, resolve_rules
from .events import (
    KIND_ANNOUNCE,
    KIND_CLAIMS,
    KIND_END,
    KIND_PLAY,
    TRACE_COLUMNS,
    AnnounceEvent,
    ChicaEnd,
    DataStart,
    DealEvent,
    Event,
    PlayEvent,
    Step,
)
from .flow import announce_deal, count_data, credit_claims, play_turn, scores_of
from .plays import caida_trail, legal_plays
from .policies import Observation, Policy, seat_policies
from .scoring import RONDA, SOURCES, ScoreBoard
from .state import CARDS_PER_DEAL, DataState, deals_per_data, side_of

LEVELS = ("data", "chica", "mesa")
#: A game that has not ended after this many datas is stopped and flagged (contract 5).
MAX_DATAS = 10_000

#: Called after every deal and every step with the state, the score board and the event.
StepHook = Callable[[DataState, ScoreBoard, Event], None]


@dataclass
class GameLog:
    """Everything a reference game produced.

    Attributes
    ----------
    rules : RuleSet
        The rules played.
    players : int
        2 or 4.
    policies : tuple of str
        Policy name of each seat.
    seed : int
        The seed used (the drawn entropy when ``seed=None`` was given).
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.
    index : int
        Hand index (level ``data``) or chica / mesa index.
    first_dealer : int
        Dealer of the first data.
    events : list
        Every event in order (see :mod:`cuarenta_sim.cuarenta.reference.events`).
    trace : numpy.ndarray
        ``int64``, shape ``(steps, 17)``: contract section 7.
    hands : list of dict
        One record per data with the columns of contract section 8.
    game : dict or None
        The games record of contract section 8 (levels ``chica`` and ``mesa``), else ``None``.
    """

    rules: RuleSet
    players: int
    policies: tuple[str, ...]
    seed: int
    level: str
    index: int
    first_dealer: int
    events: list[Event] = field(default_factory=list)
    trace: np.ndarray = field(default_factory=lambda: np.zeros((0, 17), dtype=np.int64))
    hands: list[dict[str, Any]] = field(default_factory=list)
    game: dict[str, Any] | None = None

    def steps(self) -> list[Step]:
        """Return the events that are steps, one per trace row, in order."""
        return [e for e in self.events if isinstance(e, Step)]


@dataclass
class _Tally:
    """Per-side counters of one data for its record (contract section 8)."""

    rondas: list[int] = field(default_factory=lambda: [0, 0])
    doble_rondas: list[int] = field(default_factory=lambda: [0, 0])
    caidas: list[int] = field(default_factory=lambda: [0, 0])
    caidas_en_ronda: list[int] = field(default_factory=lambda: [0, 0])
    limpias: list[int] = field(default_factory=lambda: [0, 0])
    caidas_limpias: list[int] = field(default_factory=lambda: [0, 0])
    points: dict[str, list[int]] = field(
        default_factory=lambda: {source: [0, 0] for source in SOURCES}
    )


@dataclass
class _Game:
    """What stays fixed for a whole game: rules, seats, policies, seed root, output buffers."""

    rules: RuleSet
    players: int
    policies: list[Policy]
    root: int
    game: int
    level: str
    hook: StepHook | None
    events: list[Event] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    win_kind: int = 0
    decided_at_38: bool = False

    def emit(self, state: DataState, board: ScoreBoard, event: Event) -> None:
        """Record an event and run the ``on_step`` hook on it."""
        self.events.append(event)
        if self.hook is not None:
            self.hook(state, board, event)


def observe(state: DataState, seat: int, board: ScoreBoard) -> Observation:
    """Build what ``seat`` may see when it must play (contract section 6).

    Parameters
    ----------
    state : DataState
        The data state; other hands and the stock are hidden from the observation.
    seat : int
        The seat to play.
    board : ScoreBoard
        The chica's scores.

    Returns
    -------
    Observation
        Own hand, table, cards played in the data, pile sizes, scores, the caida-able trail
        and whether it is a ronda rank of its trailer (announced, R4), and the canonical
        legal plays (contract section 3).
    """
    trail, in_ronda = caida_trail(state)
    hand = state.hand_counts(seat)
    table = state.table_counts()
    counts = [state.hand_counts(o) for o in range(state.players)]
    # A ronda is announced aloud (R4): its rank's cards are known to stay in that seat's hand
    # until played (a hand holds only the current deal's cards, R3.2), so the count still held
    # is the announced count minus the seat's plays of that rank: public information.
    known = tuple(
        tuple(counts[o][q] if q in state.rondas[o] else 0 for q in range(len(hand)))
        for o in range(state.players)
    )
    prev = state.previous_trail
    return Observation(
        seat=seat,
        players=state.players,
        rules=state.rules,
        dealer=state.dealer,
        deal=state.deal,
        hand=tuple(hand),
        table=tuple(table),
        played=tuple(state.played),
        piles=(len(state.piles[0]), len(state.piles[1])),
        scores=(board.scores[0], board.scores[1]),
        trail=trail,
        trail_in_ronda=in_ronda,
        plays=tuple(legal_plays(hand, table, state.rules)),
        hand_sizes=tuple(len(h) for h in state.hands),
        rondas=tuple(state.rondas),
        known=known,
        trail_seat=None if prev is None or trail is None else prev.seat,
        last_capturer=state.last_capturer,
        turn=state.turns - state.deal * CARDS_PER_DEAL * state.players,
        stop_at_target=board.stop_at_target,
    )


def _note_win(g: _Game, board: ScoreBoard, kind: int, side_scores_before: Sequence[int]) -> None:
    """Remember how the chica was won (games record: ``win_kind``, ``decided_at_38``)."""
    if board.winner is not None and g.win_kind == 0:
        g.win_kind = kind
        g.decided_at_38 = side_scores_before[board.winner] == g.rules.target - 2


def _play_data(
    g: _Game,
    board: ScoreBoard,
    data: int,
    hand: int,
    chica: int,
    dealer: int,
    deck: list[int] | None = None,
) -> dict[str, Any]:
    """Play one data until its end or the chica's end, and return its record.

    Parameters
    ----------
    g : _Game
        The game context; events are appended to it.
    board : ScoreBoard
        The chica's scores; credited in place (R9.2).
    data : int
        Data position in the game (selects the deck and policy streams, contract 2).
    hand : int
        The record's ``hand`` value.
    chica : int
        Chica number in the game.
    dealer : int
        The dealer seat.
    deck : list of int, optional
        A given deck order (:func:`play_deck`); by default the data's shuffled deck.
    """
    rules, n = g.rules, g.players
    if deck is None:
        deck = shuffled_deck_py(g.root, g.game, data)
    state = DataState.start(rules, n, dealer, deck)
    # Contract 2: the policy stream of each seat; a searching policy (pimc) gets its search
    # stream instead.
    rngs = [
        PyRng.for_stream(
            g.root,
            g.game,
            data,
            (STREAM_SEARCH if getattr(p, "search", False) else STREAM_POLICY) + s,
        )
        for s, p in enumerate(g.policies)
    ]
    tally = _Tally()
    g.emit(state, board, DataStart(data, hand, chica, dealer, tuple(deck), _scores(board)))

    def record() -> dict[str, Any]:
        """The record of this data when the chica ends inside it."""
        # A data cut short by the chica's end: its leftover is what lies on the table now.
        return _record(g, state, board, tally, hand, chica, len(state.table))

    order = state.play_order()
    for deal in range(deals_per_data(n)):
        table_before = tuple(state.table)
        dealt = state.deal_next()
        g.emit(state, board, DealEvent(data, deal, tuple(map(tuple, dealt)), table_before))
        # R4: announcements in play order, each one a step with its own target check.
        for ann in announce_deal(state, board, data, dealt):
            side = side_of(ann.seat)
            (tally.rondas if ann.flag == RONDA else tally.doble_rondas)[side] += 1
            tally.points["ronda"][side] += ann.points[side]
            g.emit(state, board, ann)
            _note_win(g, board, KIND_ANNOUNCE, _before(ann))
            if board.ended:
                return record()
        claims = [0, 0]
        claim_order: list[int] = []
        for turn in range(CARDS_PER_DEAL * n):
            seat = order[turn % n]
            side = side_of(seat)
            obs = observe(state, seat, board)
            policy = g.policies[seat]
            choice = policy.choose(obs, rngs[seat])
            if not isinstance(choice, int | np.integer) or not 0 <= choice < len(obs.plays):
                raise ValueError(
                    f"policy {policy.name!r} returned {choice!r}; expected an index into the "
                    f"{len(obs.plays)} legal plays"
                )
            event = play_turn(state, board, data, seat, obs.plays[int(choice)], claims, claim_order)
            out = event.outcome
            # The chica is still on here (it would have returned), so the play is credited whole.
            tally.points["caida"][side] += out.caida_points
            tally.points["limpia"][side] += out.limpia_points
            tally.caidas[side] += out.caida
            tally.caidas_en_ronda[side] += out.caida_en_ronda
            tally.limpias[side] += out.limpia
            tally.caidas_limpias[side] += out.caida and out.limpia
            g.emit(state, board, event)
            _note_win(g, board, KIND_PLAY, _before(event))
            if board.ended:
                return record()
        if claim_order:
            # Contract 5: the side that claimed first is credited first, each with its check.
            before = _scores(board)
            claimed = credit_claims(state, board, data, claims, claim_order)
            for side in claim_order:
                tally.points["caida"][side] += claimed.points[side]
            g.emit(state, board, claimed)
            _note_win(g, board, KIND_CLAIMS, before)
            if board.ended:
                return record()
    # R8: end of data.
    before = _scores(board)
    end, parts = count_data(state, board, data)
    for source, side, pts in parts:
        tally.points[source][side] += pts
    g.emit(state, board, end)
    _note_win(g, board, KIND_END, before)
    return _record(g, state, board, tally, hand, chica, end.count.leftover)


_scores = scores_of


def _before(event: AnnounceEvent | PlayEvent) -> tuple[int, int]:
    """The scores before a step that credited only its own side: after minus credited."""
    return (event.scores[0] - event.points[0], event.scores[1] - event.points[1])


def _record(
    g: _Game,
    state: DataState,
    board: ScoreBoard,
    tally: _Tally,
    hand: int,
    chica: int,
    leftover: int,
) -> dict[str, Any]:
    """The per-data record of contract section 8."""
    rec: dict[str, Any] = {"hand": hand, "dealer": state.dealer}
    per_side = {
        "cards": [len(state.piles[0]), len(state.piles[1])],
        "rondas": tally.rondas,
        "doble_rondas": tally.doble_rondas,
        "caidas": tally.caidas,
        "caidas_en_ronda": tally.caidas_en_ronda,
        "limpias": tally.limpias,
        "caidas_limpias": tally.caidas_limpias,
        "points": [sum(v[k] for v in tally.points.values()) for k in (0, 1)],
        **{f"{source}_points": v for source, v in tally.points.items()},
    }
    for name, values in per_side.items():
        for k in (0, 1):
            rec[f"{name}_{k}"] = int(values[k])
    rec["plays"] = state.turns
    rec["leftover"] = leftover
    rec["last_capturer"] = -1 if state.last_capturer is None else state.last_capturer
    if g.level != "data":
        rec["game"] = g.game
        rec["score_0"], rec["score_1"] = board.scores
        rec["ended"] = board.ended
    if g.level == "mesa":
        rec["chica"] = chica
    return rec


def _play_chica(g: _Game, chica: int, data: int, dealer: int) -> tuple[ScoreBoard, int, int]:
    """Play datas from position ``data`` until a side reaches the target (R9.2) or the cap.

    Returns
    -------
    (ScoreBoard, int, int)
        The final board, the next data position and the next dealer (R3.4: the deal passes
        on after every data, also one cut short).
    """
    board = ScoreBoard(g.rules, [0, 0], stop_at_target=True)
    g.win_kind, g.decided_at_38 = 0, False
    while not board.ended and data < MAX_DATAS:
        g.records.append(_play_data(g, board, data, data, chica, dealer))
        data += 1
        dealer = (dealer + 1) % g.players
    winner = -1 if board.winner is None else board.winner
    end = ChicaEnd(chica, winner, _scores(board), board.zapateria(), g.win_kind)
    g.events.append(end)
    return board, data, dealer


def play_game(
    rules: RuleSet | str | dict[str, Any],
    players: int = 2,
    policies: str | Policy | Sequence[str | Policy] = ("greedy", "greedy"),
    seed: int | None = 0,
    level: str = "data",
    index: int = 0,
    *,
    on_step: StepHook | None = None,
) -> GameLog:
    """Play one data, chica or mesa with the reference engine.

    Parameters
    ----------
    rules : RuleSet, str or dict
        A RuleSet, preset name, slug or ``{"preset": ..., switch: value}``
        (:func:`cuarenta_sim.cuarenta.rules.resolve_rules`).
    players : int
        2 or 4 (R2.1).
    policies : str, policy or sequence
        Names (``"random"``, ``"greedy"``) or policy objects: one for all seats, two (per
        side) or one per seat.
    seed : int or None
        Root seed (``rng.root_from_seed``); ``None`` draws entropy, recorded in the log.
    level : str
        ``"data"``: one data played to its last card, scores from 0-0 growing past the target
        (a ``win_chica`` doble ronda is only recorded); ``"chica"``: datas until a side
        reaches the target (R9.2); ``"mesa"``: chicas until a side wins ``chicas_to_win`` or
        a first-chica zapateria under ``zapateria_ends_mesa`` (R9.3).
    index : int
        Hand index at level ``data`` (dealer ``index % players``, contract section 2), else
        the chica / mesa index (its first dealer is drawn from the ``STREAM_GAME`` stream).
    on_step : callable, optional
        ``on_step(state, board, event)`` after every deal and step; used by tests to check
        invariants such as the 40 cards.

    Returns
    -------
    GameLog
        Events, trace (contract section 7), per-data records and the game record
        (contract section 8).

    Raises
    ------
    ValueError
        Bad rules, players, policies, seed, level or index, or a policy returning an index
        outside its legal plays.
    """
    rule_set = resolve_rules(rules)
    _check_players(players)
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; accepted: {', '.join(LEVELS)}")
    index = game_index(index)
    seats = seat_policies(policies, players)
    root, seed_used = root_from_seed(seed)
    g = _Game(rule_set, players, seats, root, index, level, on_step)
    game_record: dict[str, Any] | None = None
    if level == "data":
        first_dealer = index % players
        board = ScoreBoard(rule_set, [0, 0], stop_at_target=False)
        g.records.append(_play_data(g, board, 0, index, 0, first_dealer))
    else:
        first_dealer = PyRng.for_stream(root, index, 0, STREAM_GAME).randbelow(players)
        game_record = _play_level(g, first_dealer)
    rows = [e.row() for e in g.events if isinstance(e, Step)]
    trace = np.array(rows, dtype=np.int64).reshape(-1, len(TRACE_COLUMNS))
    return GameLog(
        rules=rule_set,
        players=players,
        policies=tuple(p.name for p in seats),
        seed=int(seed_used),  # type: ignore[arg-type]
        level=level,
        index=index,
        first_dealer=first_dealer,
        events=g.events,
        trace=trace,
        hands=g.records,
        game=game_record,
    )


def _play_level(g: _Game, first_dealer: int) -> dict[str, Any]:
    """Play a chica or a mesa and return its games record (contract section 8)."""
    rules = g.rules
    data, dealer = 0, first_dealer
    chicas = [0, 0]
    chica = 0
    mesa_zapateria = False
    while True:
        board, data, dealer = _play_chica(g, chica, data, dealer)
        if board.winner is None or g.level == "chica":
            break
        chicas[board.winner] += 1
        if chica == 0 and board.zapateria() and rules.zapateria_ends_mesa:
            mesa_zapateria = True  # R9.3: a first-chica zapateria wins the mesa
            break
        if chicas[board.winner] >= rules.chicas_to_win:
            break
        chica += 1
    truncated = board.winner is None
    rec: dict[str, Any] = {
        "game": g.game,
        "first_dealer": first_dealer,
        "winner": -1 if board.winner is None else board.winner,
        "score_0": board.scores[0],
        "score_1": board.scores[1],
        "hands": data,
        "zapateria": mesa_zapateria if g.level == "mesa" else board.zapateria(),
        "decided_at_38": g.decided_at_38,
        "win_kind": g.win_kind,
        "truncated": truncated,
    }
    if g.level == "mesa":
        rec["chicas_0"], rec["chicas_1"] = chicas
    return rec


def _check_players(players: object) -> None:
    if isinstance(players, bool) or players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")


def play_deck(
    rules: RuleSet | str | dict[str, Any],
    players: int,
    deck: Sequence[int],
    *,
    dealer: int,
    policies: str | Policy | Sequence[str | Policy] = ("greedy", "greedy"),
    scores: Sequence[int] = (0, 0),
    stop_at_target: bool = True,
    seed: int = 0,
    on_step: StepHook | None = None,
) -> GameLog:
    """Play one data from a given deck order: chance as data (golden traces, rule tests).

    Parameters
    ----------
    rules : RuleSet, str or dict
        As for :func:`play_game`.
    players : int
        2 or 4.
    deck : sequence of int
        A permutation of the card ids ``0..39``, dealt by position (contract section 2; see
        :func:`cuarenta_sim.cuarenta.reference.state.deck_from_deals`).
    dealer : int
        The dealer seat.
    policies : str, policy or sequence
        As for :func:`play_game`.
    scores : sequence of int
        Scores of sides 0 and 1 when the data starts.
    stop_at_target : bool
        True: the data is part of a chica and stops when a side reaches the target (R9.2);
        False: level ``data`` semantics, played to the last card.
    seed : int
        Seeds the policy streams as for data 0 of game 0 (contract section 2).
    on_step : callable, optional
        As for :func:`play_game`.

    Returns
    -------
    GameLog
        ``level`` is ``"chica"`` or ``"data"`` after ``stop_at_target``; ``game`` is ``None``;
        the record is that of one data.

    Raises
    ------
    ValueError
        Bad rules, players, deck, dealer, scores or policies.
    """
    rule_set = resolve_rules(rules)
    _check_players(players)
    if sorted(deck) != list(range(40)):
        raise ValueError("deck must be a permutation of the card ids 0..39")
    if isinstance(dealer, bool) or dealer not in range(players):
        raise ValueError(f"dealer must be a seat 0..{players - 1}, got {dealer!r}")
    if len(scores) != 2 or any(s < 0 or s % 2 for s in scores):
        raise ValueError(f"scores must be two even numbers >= 0 (R1.4), got {scores!r}")
    seats = seat_policies(policies, players)
    root, seed_used = root_from_seed(seed)
    level = "chica" if stop_at_target else "data"
    g = _Game(rule_set, players, seats, root, 0, level, on_step)
    board = ScoreBoard(rule_set, [int(s) for s in scores], stop_at_target=stop_at_target)
    g.records.append(_play_data(g, board, 0, 0, 0, dealer, list(deck)))
    rows = [e.row() for e in g.events if isinstance(e, Step)]
    return GameLog(
        rules=rule_set,
        players=players,
        policies=tuple(p.name for p in seats),
        seed=int(seed_used),  # type: ignore[arg-type]
        level=level,
        index=0,
        first_dealer=dealer,
        events=g.events,
        trace=np.array(rows, dtype=np.int64).reshape(-1, len(TRACE_COLUMNS)),
        hands=g.records,
    )
