"""The atomic steps of a data, written once: :func:`play_game` and the step-level core call them.

Each function applies one step of ``docs/engine_contract.md`` section 5 to a
:class:`~cuarenta_sim.cuarenta.reference.state.DataState` and a
:class:`~cuarenta_sim.cuarenta.reference.scoring.ScoreBoard`, credits its points in order with
the target check (R9.2), and returns the step's event (its trace row, contract section 7):

* :func:`announce_deal` -- the announcements of a deal just dealt (R4), in play order;
* :func:`play_turn` -- one play (R5-R7, R9.1) and its end-of-deal claim (R6.4);
* :func:`credit_claims` -- the deal's claims, first claimer first (contract section 5);
* :func:`count_data` -- the end-of-data count (R8).

The whole-game loop (:mod:`.game`, policies asking at each turn) and the step-level state
(:mod:`.step`, stopping at each decision) differ only in who chooses the plays and in what they
record around the events (per-data tallies, the win kind; the reward of each step).
"""

from __future__ import annotations

from collections.abc import Iterator

from .events import AnnounceEvent, ClaimsEvent, EndEvent, PlayEvent
from .plays import Play, apply_play, outcome_in_state
from .scoring import ScoreBoard, announcement_value, end_of_data, ronda_events
from .state import DataState, rank_counts, side_of


def scores_of(board: ScoreBoard) -> tuple[int, int]:
    """The scores of sides 0 and 1 as a tuple."""
    return (board.scores[0], board.scores[1])


def pair(side: int, points: int) -> tuple[int, int]:
    """``points`` on ``side``'s slot of a (side 0, side 1) pair."""
    return (points, 0) if side == 0 else (0, points)


def announce_deal(
    state: DataState, board: ScoreBoard, data: int, dealt: list[list[int]]
) -> Iterator[AnnounceEvent]:
    """Credit the announcements of the deal just dealt, one at a time (R4.1-R4.3, R9.1).

    Seats announce in play order (R3.3), each ronda or doble ronda of its dealt cards
    (:func:`ronda_events`); a ``win_chica`` doble ronda wins at once (R4.2). The caller stops
    iterating when ``board.ended``.

    Parameters
    ----------
    state : DataState
        The data, just after :meth:`DataState.deal_next`.
    board : ScoreBoard
        Credited in place.
    data : int
        The data's position in the game (the events' ``data``).
    dealt : list of list of int
        The cards just dealt, per seat (``deal_next``'s return).

    Yields
    ------
    AnnounceEvent
        One per announcement, after it is credited.
    """
    for seat in state.play_order():
        side = side_of(seat)
        for flag, rank in ronda_events(rank_counts(dealt[seat])):
            value, wins = announcement_value(state.rules, flag, board.scores[side])
            pts = board.credit(side, value)
            won = wins and board.win(side)
            yield AnnounceEvent(
                data, state.deal, seat, rank, flag, value, won, pair(side, pts), scores_of(board)
            )


def play_turn(
    state: DataState,
    board: ScoreBoard,
    data: int,
    seat: int,
    play: Play,
    claims: list[int],
    claim_order: list[int],
) -> PlayEvent:
    """Play one legal play for ``seat`` and credit it (R5-R7, R9.1, R9.2).

    Parameters
    ----------
    state : DataState
        Changed in place (:func:`apply_play`).
    board : ScoreBoard
        Credited in place.
    data : int
        The data's position in the game.
    seat : int
        The seat to play.
    play : Play
        One of its canonical legal plays (contract section 3).
    claims, claim_order : list of int
        The deal's end-of-deal claims per side and the order the sides first claimed
        (R6.4); updated in place.

    Returns
    -------
    PlayEvent
    """
    side = side_of(seat)
    out = outcome_in_state(state, seat, play, board.scores[side])
    moved = apply_play(state, seat, out)
    pts = board.credit(side, out.points)
    if out.claim:
        if not claims[side]:
            claim_order.append(side)
        claims[side] += out.claim
    return PlayEvent(
        data=data,
        deal=state.deal,
        seat=seat,
        outcome=out,
        moved=moved,
        points=pair(side, pts),
        claims=pair(side, out.claim),
        scores=scores_of(board),
        pile=len(state.piles[side]),
        table=tuple(state.table),
    )


def credit_claims(
    state: DataState, board: ScoreBoard, data: int, claims: list[int], claim_order: list[int]
) -> ClaimsEvent:
    """Credit the deal's claims, the side that claimed first first, each with its target
    check (R6.4, contract section 5).

    Returns
    -------
    ClaimsEvent
        ``points`` holds what was credited per side.
    """
    credited = [0, 0]
    for side in claim_order:
        credited[side] = board.credit(side, claims[side])
    return ClaimsEvent(
        data,
        state.deal,
        (claims[0], claims[1]),
        tuple(claim_order),
        (credited[0], credited[1]),
        scores_of(board),
    )


def count_data(
    state: DataState, board: ScoreBoard, data: int
) -> tuple[EndEvent, list[tuple[str, int, int]]]:
    """The end-of-data count (R8): leftover cards, cartones, credited in order (R9.2).

    Returns
    -------
    (EndEvent, list of (str, int, int))
        The event, and per credit of the count its ``(source, side, points credited)``.
    """
    leftover_cards = tuple(state.table)
    count = end_of_data(
        state.rules,
        (len(state.piles[0]), len(state.piles[1])),
        len(state.table),
        state.last_capturer,
        state.non_dealer_side,
        scores_of(board),
    )
    if count.leftover_to is not None:
        state.piles[count.leftover_to].extend(state.table)
        state.table.clear()
    credited = [0, 0]
    parts: list[tuple[str, int, int]] = []
    for credit in count.credits:
        pts = board.credit(credit.side, credit.points)
        credited[credit.side] += pts
        parts.append((credit.source, credit.side, pts))
    event = EndEvent(
        data, state.deal, count, leftover_cards, (credited[0], credited[1]), scores_of(board)
    )
    return event, parts
