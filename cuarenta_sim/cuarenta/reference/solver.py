"""Brute-force twin of the exact solver: every line of play enumerated with the reference rules.

The executable form of :mod:`cuarenta_sim.cuarenta.engine.solver` (its docstring defines the
value). A :class:`SolverPosition` is a full state of a deal on rank counts; :meth:`step
<SolverPosition.step>` plays one legal play with the reference engine's own functions
(:func:`.plays.legal_plays`, :func:`.plays.resolve_play`, :class:`.scoring.ScoreBoard`,
:func:`.scoring.end_of_data`), crediting in the order of R9.2: the play, at the end of the deal
the claims (first claimer first), at the end of the data the count; nothing after a side
reaches the target when ``stop_at_target``. :func:`solve_values` enumerates every line to the
end of the deal (of the data in its last deal) and returns the value of every legal play: plain
minimax, no pruning; the optional memo only keys results on the whole position.

:func:`cuarenta_sim.cuarenta.reference.positions.random_position` draws test positions (in its
own module: it plays a data with :mod:`.game`, whose policies reach this module through
``search.solver_index``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import RANK_NAMES, counts_to_ranks
from ..rules import RuleSet
from .plays import Play, caida_trail, legal_plays, resolve_play
from .scoring import ScoreBoard, end_of_data
from .state import CARDS_PER_DEAL, DataState, deals_per_data


@dataclass(frozen=True)
class SolverPosition:
    """A full state of one deal, every hand known (rank counts).

    Attributes
    ----------
    rules : RuleSet
        The switches.
    players, dealer : int
        2 or 4; the dealer seat.
    deal, turn : int
        The deal (0-based) and the turns already played in it; the seat to move is
        ``(dealer + 1 + turn) % players`` (R3.3).
    hands : tuple of tuple of int
        Per seat, 10 rank counts.
    rondas : tuple of tuple of int
        Per seat, its ronda ranks of this deal (R4; caida en ronda, R6.4).
    table : tuple of int
        10 rank counts.
    trail : int or None
        Rank of the previous seat's trail a caida may be made on (R6.1).
    piles : tuple of int
        Cards captured per side in the data.
    last_capturer : int or None
        Side of the data's last capture (R8.1).
    scores : tuple of int
        Side scores.
    claims : tuple of int
        Points claimed per side in this deal, credited at its end (R6.4 ``end_of_deal``).
    claim_order : tuple of int
        The sides that claimed, first claimer first.
    stop_at_target : bool
        A side reaching the target wins at once, nothing credited after (R9.2).
    """

    rules: RuleSet
    players: int
    dealer: int
    deal: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    rondas: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]
    trail: int | None
    piles: tuple[int, int]
    last_capturer: int | None
    scores: tuple[int, int]
    claims: tuple[int, int] = (0, 0)
    claim_order: tuple[int, ...] = ()
    stop_at_target: bool = True

    @property
    def seat(self) -> int:
        """The seat to move."""
        return (self.dealer + 1 + self.turn) % self.players

    def kernel_args(self) -> tuple[Any, ...]:
        """The position as the arguments ``players`` to ``first_claim`` of
        :func:`cuarenta_sim.cuarenta.engine.solver.position_array` (and of ``solve_counts``
        after its ``rules``): no trail or last capturer as -1, the first claimer or -1."""
        return (
            self.players,
            self.dealer,
            self.deal,
            self.turn,
            self.hands,
            self.rondas,
            self.table,
            -1 if self.trail is None else self.trail,
            self.scores,
            self.piles,
            -1 if self.last_capturer is None else self.last_capturer,
            self.claims,
            self.claim_order[0] if self.claim_order else -1,
        )

    @property
    def last_deal(self) -> bool:
        """True in the data's last deal: the search goes on to the end-of-data count."""
        return self.deal == deals_per_data(self.players) - 1

    def plays(self) -> list[Play]:
        """The legal plays of the seat to move, canonical order (contract section 3)."""
        return legal_plays(self.hands[self.seat], self.table, self.rules)

    def step(self, play: Play) -> Transition:
        """Play ``play`` (legal for the seat to move) and credit what follows it (R9.2).

        Parameters
        ----------
        play : Play
            One of :meth:`plays`.

        Returns
        -------
        Transition
            The next position (``None`` at the end of the deal or when the chica ended), the
            points credited to each side, the winner, the piles after.
        """
        rules, n = self.rules, self.players
        seat = self.seat
        side = seat % 2
        board = ScoreBoard(rules, list(self.scores), stop_at_target=self.stop_at_target)
        in_ronda = self.trail is not None and self.trail in self.rondas[(seat - 1) % n]
        out = resolve_play(
            rules,
            self.table,
            play,
            trail=self.trail,
            trail_in_ronda=in_ronda,
            score=self.scores[side],
        )
        board.credit(side, out.points)
        hands = list(self.hands)
        hand = list(hands[seat])
        hand[play.rank] -= 1
        hands[seat] = tuple(hand)
        piles = list(self.piles)
        piles[side] += len(out.captured)
        last_capturer = side if out.captured else self.last_capturer
        trail = play.rank if play.is_trail else None
        claims = list(self.claims)
        order = list(self.claim_order)
        if out.claim:
            if side not in order:
                order.append(side)
            claims[side] += out.claim
        if board.ended:
            return Transition(None, self._gains(board), board.winner, (piles[0], piles[1]))
        if self.turn + 1 < CARDS_PER_DEAL * n:
            child = SolverPosition(
                self.rules,
                n,
                self.dealer,
                self.deal,
                self.turn + 1,
                tuple(hands),
                self.rondas,
                out.table_after,
                trail,
                (piles[0], piles[1]),
                last_capturer,
                (board.scores[0], board.scores[1]),
                (claims[0], claims[1]),
                tuple(order),
                self.stop_at_target,
            )
            return Transition(child, self._gains(board), None, child.piles)
        # End of the deal: claims, first claimer first (contract 5), then in the last deal the
        # end-of-data count (R8); ScoreBoard credits nothing once a side has won (R9.2).
        for claimer in order:
            board.credit(claimer, claims[claimer])
        if self.last_deal and not board.ended:
            count = end_of_data(
                rules,
                piles,
                sum(out.table_after),
                last_capturer,
                (self.dealer + 1) % 2,
                (board.scores[0], board.scores[1]),
            )
            piles = list(count.cards)
            for credit in count.credits:
                board.credit(credit.side, credit.points)
        return Transition(None, self._gains(board), board.winner, (piles[0], piles[1]))

    def _gains(self, board: ScoreBoard) -> tuple[int, int]:
        return (board.scores[0] - self.scores[0], board.scores[1] - self.scores[1])


@dataclass(frozen=True)
class Transition:
    """What one play leads to (:meth:`SolverPosition.step`).

    Attributes
    ----------
    child : SolverPosition or None
        The next turn's position; ``None`` when the deal ended or a side won.
    points : tuple of int
        Points credited to each side by the play and, after the deal's last play, by the
        claims and the end-of-data count.
    winner : int or None
        The side that won the chica (``stop_at_target`` only).
    piles : tuple of int
        Cards captured per side after the transition (after leftovers at the data's end).
    """

    child: SolverPosition | None
    points: tuple[int, int]
    winner: int | None
    piles: tuple[int, int]


def solve_values(
    position: SolverPosition,
    *,
    unit: int = 1,
    win_bonus: int = 0,
    leaf_cards: int = 0,
    memo: bool = True,
) -> list[tuple[Play, int]]:
    """Value of every legal play of the seat to move, by enumerating every line.

    Parameters
    ----------
    position : SolverPosition
        The root.
    unit, win_bonus, leaf_cards : int
        As :class:`cuarenta_sim.cuarenta.engine.solver.SolveOptions` (``leaf_cards`` counts
        the cards captured since ``position``).
    memo : bool
        Reuse the value of a position already enumerated (keyed on the whole position).

    Returns
    -------
    list of (Play, int)
        In canonical order; the value is for the side to move.
    """
    root_piles = position.piles
    cache: dict[tuple[object, ...], int] = {}

    def play_value(pos: SolverPosition, play: Play) -> int:
        me = pos.seat % 2
        tr = pos.step(play)
        v = unit * (tr.points[me] - tr.points[1 - me])
        if tr.winner is not None:
            return v + (win_bonus if tr.winner == me else -win_bonus)
        if tr.child is None:
            if not pos.last_deal:
                net = (tr.piles[me] - root_piles[me]) - (tr.piles[1 - me] - root_piles[1 - me])
                v += leaf_cards * net
            return v
        # Seats alternate sides (R2.1): the next player's value is the other side's.
        return v - value(tr.child)

    def value(pos: SolverPosition) -> int:
        # The fields that change during the deal: the rules, seats and deal are the root's.
        key = (
            pos.turn,
            pos.hands,
            pos.table,
            pos.trail,
            pos.piles,
            pos.last_capturer,
            pos.scores,
            pos.claims,
            pos.claim_order,
        )
        if memo and key in cache:
            return cache[key]
        best = max(play_value(pos, play) for play in pos.plays())
        if memo:
            cache[key] = best
        return best

    return [(play, play_value(position, play)) for play in position.plays()]


def from_state(
    state: DataState,
    scores: Sequence[int],
    *,
    claims: Sequence[int] = (0, 0),
    claim_order: Sequence[int] = (),
    stop_at_target: bool = True,
) -> SolverPosition:
    """The :class:`SolverPosition` of a reference game's state before its next play.

    Parameters
    ----------
    state : DataState
        The data state (read, not changed).
    scores : sequence of int
        Side scores to solve at.
    claims, claim_order : sequence of int
        Claims of the deal so far, and the sides that made them in order.
    stop_at_target : bool
        As :class:`SolverPosition`.

    Returns
    -------
    SolverPosition
    """
    trail, _in_ronda = caida_trail(state)
    return SolverPosition(
        rules=state.rules,
        players=state.players,
        dealer=state.dealer,
        deal=state.deal,
        turn=state.turns - state.deal * CARDS_PER_DEAL * state.players,
        hands=tuple(tuple(state.hand_counts(s)) for s in range(state.players)),
        rondas=tuple(tuple(r) for r in state.rondas),
        table=tuple(state.table_counts()),
        trail=trail,
        piles=(len(state.piles[0]), len(state.piles[1])),
        last_capturer=state.last_capturer,
        scores=(int(scores[0]), int(scores[1])),
        claims=(int(claims[0]), int(claims[1])),
        claim_order=tuple(claim_order),
        stop_at_target=stop_at_target,
    )


__all__ = [
    "SolverPosition",
    "Transition",
    "from_state",
    "solve_values",
]


def solve_scenario(p: SolverPosition) -> dict[str, Any]:
    """The ``solve`` scenario of a last-deal position (docs/engine_contract.md section 9).

    Parameters
    ----------
    p : SolverPosition
        A position of the last deal of a data (:func:`.positions.random_position`).

    Returns
    -------
    dict
        The JSON-ready scenario for :func:`cuarenta_sim.scenario.evaluate`: ranks named as
        in section F, seats and deals 1-based where the spec says so.
    """
    n = p.players
    seat = p.seat
    scenario: dict[str, Any] = {
        "kind": "solve",
        "rules": p.rules.slug(),
        "players": n,
        "dealer": p.dealer,
        "scores": list(p.scores),
        "table": [RANK_NAMES[r] for r in counts_to_ranks(p.table)],
        "seat": seat,
        "deal": p.deal + 1,
        "previous": None
        if p.trail is None
        else {"seat": (seat - 1) % n, "trail": RANK_NAMES[p.trail], "deal": p.deal + 1}
        if p.turn > 0
        else {"seat": (seat - 1) % n, "trail": RANK_NAMES[p.trail], "deal": p.deal},
        "rondas": [[RANK_NAMES[r] for r in ranks] for ranks in p.rondas],
        "hands": [[RANK_NAMES[r] for r in counts_to_ranks(h)] for h in p.hands],
        "cards": list(p.piles),
        "last_capturer": p.last_capturer,
        "claims": list(p.claims),
    }
    if len(p.claim_order) == 2:
        scenario["first_claim"] = p.claim_order[0]
    return scenario
