"""Random test positions for the exact solver: a seeded data of random play, stopped at a random
turn of its last deal, with random scores; and, for ``advise``, the same seen from the seat to
move at a turn of any deal (:func:`random_advice_position`).

Apart from :mod:`.solver` because it plays a data with the reference engine (:mod:`.game`), whose
policies import the solver (``search.solver_index``): kept there it would close an import cycle.
"""

from __future__ import annotations

from ...rng import STREAM_POSITION, PyRng, root_from_seed
from ..rules import RuleSet, resolve_rules
from .advice import AdvicePosition
from .events import PlayEvent
from .game import play_game
from .plays import caida_trail
from .scoring import ScoreBoard
from .solver import SolverPosition, from_state
from .state import CARDS_PER_DEAL, DataState, deals_per_data, rank_counts


def random_position(
    rules: RuleSet | str,
    players: int,
    seed: int,
    index: int,
    *,
    deal: int | None = None,
    max_remaining: int | None = None,
    turn: int | None = None,
) -> SolverPosition:
    """A random position: data ``index`` of random play, stopped at a random turn.

    The data is played by the reference engine (level ``data``, ``random`` at every seat,
    seed ``seed``, hand ``index``); the turn and the scores are drawn from the stream
    ``(seed, index, 0, STREAM_POSITION)``: the turn uniformly among the last ``max_remaining``
    turns of the deal (all by default), each score an even number below the target, half the
    time among its last 7 (the 38 rule, the blocks from 30, the target, R4.3, R8.6, R9).

    Parameters
    ----------
    rules : RuleSet or str
        The rules.
    players : int
        2 or 4.
    seed, index : int
        The data (contract section 2).
    deal : int, optional
        The deal to stop in (0-based); default the data's last.
    max_remaining : int, optional
        At most this many turns left in the deal (bounds the enumeration's size).
    turn : int, optional
        Stop at this turn of the deal (0-based) instead of a random one.

    Returns
    -------
    SolverPosition
        With ``stop_at_target`` and the claims of the deal so far.

    Raises
    ------
    ValueError
        Bad rules, or a ``turn`` outside the deal.
    """
    rule_set = resolve_rules(rules)
    last = deals_per_data(players) - 1 if deal is None else deal
    root, _ = root_from_seed(seed)
    rng = PyRng.for_stream(root, index, 0, STREAM_POSITION)
    turns = CARDS_PER_DEAL * players
    low = 0 if max_remaining is None else max(0, turns - max_remaining)
    drawn = low + rng.randbelow(turns - low)
    if turn is None:
        turn = drawn
    elif not 0 <= turn < turns:
        raise ValueError(f"turn must be 0..{turns - 1} with {players} players, got {turn!r}")
    scores = []
    top = rule_set.target // 2  # scores are even: 2 * (0 .. top - 1)
    for _ in range(2):
        span = top if rng.randbelow(2) == 0 else min(7, top)
        scores.append(2 * (top - 1 - rng.randbelow(span)))
    claims = [0, 0]
    order: list[int] = []
    snapshot: list[SolverPosition] = []

    def hook(state: DataState, _board: ScoreBoard, event: object) -> None:
        if state.deal != last:
            return
        if isinstance(event, PlayEvent) and any(event.claims):
            side = event.seat % 2
            if side not in order:
                order.append(side)
            claims[side] += event.claims[side]
        # The last event of a turn count is the state just before that turn's play.
        if state.turns - last * turns == turn:
            snapshot[:] = [from_state(state, scores, claims=claims, claim_order=order)]

    play_game(rule_set, players, "random", seed, "data", index, on_step=hook)
    position = snapshot[0]
    return position


def random_advice_position(
    rules: RuleSet | str,
    players: int,
    seed: int,
    index: int,
    *,
    deal: int | None = None,
    max_remaining: int | None = None,
) -> AdvicePosition:
    """A random decision seen from the seat to move, in any deal of a data.

    The full position is :func:`random_position`'s (same arguments: a data of random play
    stopped at a random turn of ``deal``, random scores, the claims of the deal); the seat to
    move sees its hand, the table, the cards played, the announced rondas and the ronda cards
    still held by their seats (R4); the other hands and the stock are its ``unseen`` cards.

    Returns
    -------
    AdvicePosition

    Raises
    ------
    ValueError
        Bad rules.
    """
    full = random_position(rules, players, seed, index, deal=deal, max_remaining=max_remaining)
    last = full.deal
    turns = CARDS_PER_DEAL * players
    snapshot: list[AdvicePosition] = []

    def hook(state: DataState, _board: ScoreBoard, _event: object) -> None:
        if state.deal != last or state.turns - last * turns != full.turn or snapshot:
            return
        seat = full.seat
        unseen = rank_counts(state.stock)
        for o in range(players):
            if o != seat:
                unseen = [u + c for u, c in zip(unseen, state.hand_counts(o), strict=True)]
        known = tuple(
            tuple(c if q in state.rondas[o] else 0 for q, c in enumerate(state.hand_counts(o)))
            for o in range(players)
        )
        trail, _ = caida_trail(state)
        snapshot.append(
            AdvicePosition(
                full.rules,
                players,
                full.dealer,
                seat,
                full.deal,
                full.turn,
                full.hands[seat],
                full.table,
                tuple(unseen),
                trail,
                full.rondas,
                known,
                full.piles,
                full.last_capturer,
                full.scores,
                full.claims,
                full.claim_order,
            )
        )

    play_game(full.rules, players, "random", seed, "data", index, on_step=hook)
    return snapshot[0]


__all__ = ["random_advice_position", "random_position"]
