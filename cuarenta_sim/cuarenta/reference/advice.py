"""What one seat knows of a data, and the pure-Python twin of the ``advise`` kernel.

:class:`AdvicePosition` is the executable form of an ``advise`` scenario
(:mod:`cuarenta_sim.cuarenta.advise`, ``docs/engine_contract.md`` section 10): everything a
seat may know at its turn (contract section 6) on rank counts -- its hand, the table, the
cards it has not seen, the announced rondas and the ronda cards each seat is known to hold,
the previous trail, scores, piles, the last capturer and the claims of the deal -- and nothing
else. :meth:`AdvicePosition.world` gives the one full deal it leaves possible, when there is
only one (:attr:`AdvicePosition.determinate`).

:func:`advise_samples` is the twin of :func:`cuarenta_sim.cuarenta.engine.advice.advise_samples`
(whose docstring defines the value): the same draws from the same stream
(:func:`.search.ronda_world`), each world solved by the
brute-force :func:`.solver.solve_values` or played on by the reference playout
(:func:`.search.playout`), so the kernel's rows can be checked value for value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...rng import PyRng
from ..cards import N_RANKS, RANK_NAMES, counts_to_ranks
from ..rules import RuleSet
from .plays import Play, legal_plays
from .search import (
    SeatInfo,
    _World,
    playout,
    ronda_world,
    unseen_pool,
)
from .solver import SolverPosition, solve_values
from .state import CARDS_PER_DEAL, deals_per_data


@dataclass(frozen=True)
class AdvicePosition:
    """A decision seen from the seat to move: what it may know, on rank counts.

    Attributes
    ----------
    rules : RuleSet
        The switches.
    players, dealer, seat : int
        2 or 4; the dealer; the seat to move.
    deal, turn : int
        The deal (0-based) and the turns already played in it (R3.3).
    hand, table, unseen : tuple of int
        10 rank counts each: the seat's hand, the table, the cards it has not seen (the
        other hands and the stock still to be dealt).
    trail : int or None
        Rank of the previous seat's trail a caida may be made on (R6.1).
    rondas : tuple of tuple of int
        Per seat, the ranks announced as ronda in this deal (R4).
    known : tuple of tuple of int
        Per seat, 10 rank counts: the cards of its announced rondas it still holds (the
        seat's own entry is its hand's cards of its ronda ranks).
    piles : tuple of int
        Cards captured per side in the data.
    last_capturer : int or None
        Side of the data's last capture (R8.1).
    scores, claims : tuple of int
        Side scores; points claimed per side in this deal, credited at its end (R6.4).
    claim_order : tuple of int
        The sides that claimed, first claimer first.
    """

    rules: RuleSet
    players: int
    dealer: int
    seat: int
    deal: int
    turn: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    unseen: tuple[int, ...]
    trail: int | None
    rondas: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...]
    piles: tuple[int, int]
    last_capturer: int | None
    scores: tuple[int, int]
    claims: tuple[int, int] = (0, 0)
    claim_order: tuple[int, ...] = ()

    @property
    def played(self) -> list[int]:
        """Rank counts of the cards played in the data (captured or on the table)."""
        return [4 - self.hand[q] - self.unseen[q] for q in range(N_RANKS)]

    def plays_made(self, seat: int) -> int:
        """Plays ``seat`` has made in this deal (R3.3: the leader plays first)."""
        position = (seat - self.dealer - 1) % self.players
        return 0 if self.turn <= position else (self.turn - position - 1) // self.players + 1

    @property
    def hand_sizes(self) -> list[int]:
        """Cards in each seat's hand."""
        return [CARDS_PER_DEAL - self.plays_made(s) for s in range(self.players)]

    @property
    def last_deal(self) -> bool:
        """The data's last deal: no card is still to be dealt (R2.2)."""
        return self.deal == deals_per_data(self.players) - 1

    def plays(self) -> list[Play]:
        """The seat's legal plays, canonical order (contract section 3)."""
        return legal_plays(self.hand, self.table, self.rules)

    def pool(self) -> tuple[list[int], list[int]]:
        """The unseen cards not known to be in a hand (ascending ranks) and how many of them
        each other seat holds (:func:`.search.unseen_pool`)."""
        return unseen_pool(
            self.hand, self.played, self.known, self.hand_sizes, self.seat, self.players
        )

    @property
    def determinate(self) -> bool:
        """What the seat knows fixes every hand: the data's last deal (no stock), and the
        cards not known to be anywhere are in one hand or all of one rank."""
        pool, need = self.pool()
        holders = sum(1 for o in range(self.players) if need[o] > 0)
        return self.last_deal and (holders <= 1 or len(set(pool)) <= 1)

    def world(self) -> SolverPosition:
        """The full position when :attr:`determinate` (every hand filled in).

        Raises
        ------
        ValueError
            The position is not determinate.
        """
        if not self.determinate:
            raise ValueError("the seat's information leaves more than one deal possible")
        pool, need = self.pool()
        hands = [list(k) for k in self.known]
        hands[self.seat] = list(self.hand)
        at = 0
        for step in range(1, self.players):
            o = (self.seat + step) % self.players
            for rank in pool[at : at + need[o]]:
                hands[o][rank] += 1
            at += need[o]
        return SolverPosition(
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            deal=self.deal,
            turn=self.turn,
            hands=tuple(tuple(h) for h in hands),
            rondas=self.rondas,
            table=self.table,
            trail=self.trail,
            piles=self.piles,
            last_capturer=self.last_capturer,
            scores=self.scores,
            claims=self.claims,
            claim_order=self.claim_order,
            stop_at_target=True,
        )


def advise_samples(
    position: AdvicePosition,
    samples: int,
    exact_plays: int,
    params: Sequence[int],
    rng: PyRng,
) -> list[list[int]]:
    """Per sampled world, the points value of every legal play (twin of
    :func:`cuarenta_sim.cuarenta.engine.advice.advise_samples`).

    Parameters
    ----------
    position : AdvicePosition
        The decision.
    samples : int
        Worlds drawn (the same worlds for every play).
    exact_plays : int
        In the data's last deal, a world is solved exactly when at most this many plays are
        left in the deal.
    params : sequence of int
        The ``pimc(depth=data)`` parameter row (the playout policy and its weights).
    rng : PyRng
        The search stream (advanced).

    Returns
    -------
    list of list of int
        ``samples`` rows, each the value of every legal play in canonical order.
    """
    p = position
    n, seat, me = p.players, p.seat, p.seat % 2
    plays = p.plays()
    pool, need = p.pool()
    exact = p.last_deal and CARDS_PER_DEAL * n - p.turn <= exact_plays
    pending = p.claims[me] - p.claims[1 - me]
    # What the playout reads of the seat (pimc's twin takes a SeatInfo): the rest of the
    # position is in each sampled world.
    info = SeatInfo(
        params=params,
        rules=p.rules,
        players=n,
        seat=seat,
        dealer=p.dealer,
        deal=p.deal,
        turn=p.turn,
        hand=p.hand,
        table=p.table,
        trail=p.trail,
        trail_seat=None if p.trail is None else (seat - 1) % n,
        played=p.played,
        rondas=p.rondas,
        known=p.known,
        hand_sizes=p.hand_sizes,
        scores=p.scores,
        piles=p.piles,
        last_capturer=p.last_capturer,
        stop_at_target=True,
    )
    rows = []
    for _ in range(samples):
        hands, buf, at = ronda_world(pool, need, info, rng)
        if exact:
            world = SolverPosition(
                p.rules,
                n,
                p.dealer,
                p.deal,
                p.turn,
                tuple(tuple(h) for h in hands),
                p.rondas,
                p.table,
                p.trail,
                p.piles,
                p.last_capturer,
                p.scores,
                p.claims,
                p.claim_order,
                True,
            )
            rows.append([v for _play, v in solve_values(world)])
            continue
        row = []
        for play in plays:
            w = _World(
                hands=[list(h) for h in hands],
                rondas=list(p.rondas),
                known=[list(k) for k in p.known],
                stock=buf[at:],
                table=list(p.table),
                trail=p.trail,
                trail_seat=-1 if p.trail is None else (seat - 1) % n,
                played=p.played,
                scores=list(p.scores),
                gains=[0, 0],
                piles=list(p.piles),
                piles0=list(p.piles),
                last_capturer=p.last_capturer,
            )
            playout(info, play, w)
            v = w.gains[me] - w.gains[1 - me]
            if max(w.scores) < p.rules.target:
                v += pending
            row.append(v)
        rows.append(row)
    return rows


def advise_scenario_json(p: AdvicePosition, **extra: Any) -> dict[str, Any]:
    """The ``advise`` scenario of a position (docs/engine_contract.md section 10).

    Parameters
    ----------
    p : AdvicePosition
        E.g. from :func:`.positions.random_advice_position`.
    **extra
        Further fields (``samples``, ``seed``).

    Returns
    -------
    dict
        JSON-ready: ranks named as in section F, deals 1-based, ``known`` given for every
        other seat with a ronda.
    """
    n, seat = p.players, p.seat

    def names(counts: Sequence[int]) -> list[str]:
        return [RANK_NAMES[r] for r in counts_to_ranks(counts)]

    previous = None
    if p.trail is not None:
        deal = p.deal + 1 if p.turn > 0 else p.deal
        previous = {"seat": (seat - 1) % n, "trail": RANK_NAMES[p.trail], "deal": deal}
    scenario: dict[str, Any] = {
        "kind": "advise",
        "rules": p.rules.slug(),
        "players": n,
        "dealer": p.dealer,
        "scores": list(p.scores),
        "table": names(p.table),
        "seat": seat,
        "deal": p.deal + 1,
        "previous": previous,
        "rondas": [[RANK_NAMES[r] for r in ranks] for ranks in p.rondas],
        "hands": [names(p.hand) if s == seat else None for s in range(n)],
        "unseen": names(p.unseen),
        "known": [None if s == seat or not p.rondas[s] else names(p.known[s]) for s in range(n)],
        "cards": list(p.piles),
        "last_capturer": p.last_capturer,
        "claims": list(p.claims),
        **extra,
    }
    if len(p.claim_order) == 2:
        scenario["first_claim"] = p.claim_order[0]
    return scenario


__all__ = ["AdvicePosition", "advise_samples", "advise_scenario_json"]
