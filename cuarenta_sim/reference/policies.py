"""Policies: what a seat may see (:class:`Observation`) and the built-in ``random`` and ``greedy``.

A policy is any object with ``name: str``, ``stochastic: bool`` and
``choose(obs: Observation, rng: PyRng) -> int`` returning an index into ``obs.plays`` (the
canonical legal-play list, ``docs/engine_contract.md`` section 3). ``rng`` is the seat's own
policy stream of the data (contract section 2); a deterministic policy must not draw from it.
The built-ins follow contract section 6 exactly, so the numba kernel's twins make the same
choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..rng import PyRng
from ..rules import RuleSet
from .plays import Play, PlayOutcome, resolve_play
from .state import side_of


@dataclass(frozen=True)
class Observation:
    """What one seat may see when it must play (contract section 6).

    Attributes
    ----------
    seat : int
        The seat to play.
    players : int
        2 or 4.
    rules : RuleSet
        The switches in force.
    dealer : int
        The dealer's seat (public).
    deal : int
        Deal number in the data, 0-based.
    hand : tuple of int
        Per-rank counts of the seat's own hand.
    table : tuple of int
        Per-rank counts of the table.
    played : tuple of int
        Per-rank counts of the cards already played in this data, by everyone.
    piles : tuple of int
        Pile sizes of sides 0 and 1.
    scores : tuple of int
        Scores of sides 0 and 1.
    trail : int or None
        Rank the previous player just trailed, if a caida on it is possible (R6.1).
    trail_in_ronda : bool
        That rank was announced as the trailing seat's ronda in this deal (R6.4); rondas are
        announced aloud (R4), so this is public.
    plays : tuple of Play
        The legal plays, canonical order; the policy returns an index into it.
    """

    seat: int
    players: int
    rules: RuleSet
    dealer: int
    deal: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    played: tuple[int, ...]
    piles: tuple[int, int]
    scores: tuple[int, int]
    trail: int | None
    trail_in_ronda: bool
    plays: tuple[Play, ...]

    @property
    def side(self) -> int:
        """The seat's side, ``seat % 2`` (R2.1)."""
        return side_of(self.seat)

    def outcome(self, play: Play) -> PlayOutcome:
        """Return what ``play`` would do and score for this seat (contract section 4).

        Parameters
        ----------
        play : Play
            One of :attr:`plays`.

        Returns
        -------
        PlayOutcome
            Run, caida, limpia, immediate points and claim, after blocks and the 38 rule.
        """
        return resolve_play(
            self.rules,
            self.table,
            play,
            trail=self.trail,
            trail_in_ronda=self.trail_in_ronda,
            score=self.scores[self.side],
        )


@runtime_checkable
class Policy(Protocol):
    """The policy interface: ``name``, ``stochastic`` and ``choose``."""

    name: str
    stochastic: bool

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """Return an index into ``obs.plays``.

        Parameters
        ----------
        obs : Observation
            What the seat may see.
        rng : PyRng
            The seat's policy stream of the data; only stochastic policies draw from it.

        Returns
        -------
        int
            Index into ``obs.plays``.
        """
        ...


@dataclass(frozen=True)
class RandomPolicy:
    """Uniform choice among the legal plays: ``plays[randbelow(len(plays))]`` (contract 6).

    It draws once per turn from the seat's policy stream, even when only one play is legal,
    so that both engines consume the stream identically.
    """

    name: str = "random"
    stochastic: bool = True
    description: str = "uniform over the canonical legal plays"

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """Return ``rng.randbelow(len(obs.plays))``.

        Parameters
        ----------
        obs : Observation
            The seat's view.
        rng : PyRng
            The seat's policy stream of the data.

        Returns
        -------
        int
            Index into ``obs.plays``.
        """
        return rng.randbelow(len(obs.plays))


@dataclass(frozen=True)
class GreedyPolicy:
    """Most points now, then most cards, first in canonical order on ties (contract 6).

    ``points`` of a play = its immediate points plus the claim it earns (after blocks and the
    38 rule); ``cards`` = cards it captures (played card, base and run; 0 for a trail).
    Among trails that score nothing the lowest rank is trailed.
    """

    name: str = "greedy"
    stochastic: bool = False
    description: str = "largest points (claims included), then most cards; first on ties"

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """Return the index of the greedy play; ``rng`` is not used.

        Parameters
        ----------
        obs : Observation
            The seat's view.
        rng : PyRng
            Unused (the policy is deterministic).

        Returns
        -------
        int
            Index into ``obs.plays``.
        """
        best, best_key = 0, (-1, -1)
        for i, play in enumerate(obs.plays):
            out = obs.outcome(play)
            key = (out.points + out.claim, len(out.captured))
            if key > best_key:  # strict: ties keep the first in canonical order
                best, best_key = i, key
        return best


#: Built-in policies by name.
POLICIES: dict[str, Policy] = {"random": RandomPolicy(), "greedy": GreedyPolicy()}


def resolve_policy(policy: str | Policy) -> Policy:
    """Return the policy object for a name or a policy object.

    Parameters
    ----------
    policy : str or Policy
        A name of :data:`POLICIES` or an object with ``name``, ``stochastic`` and ``choose``.

    Returns
    -------
    Policy
        The policy object.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the accepted ones) or an object that is not a
        policy.
    """
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; accepted: {', '.join(POLICIES)}")
        return POLICIES[policy]
    if isinstance(policy, Policy):
        return policy
    raise ValueError(
        f"a policy must be a name ({', '.join(POLICIES)}) or an object with name, stochastic "
        f"and choose(obs, rng); got {policy!r}"
    )


def seat_policies(policies: str | Policy | Sequence[str | Policy], players: int) -> list[Policy]:
    """Return one policy per seat.

    Parameters
    ----------
    policies : str, Policy or sequence of them
        One (all seats), two (per side: seat ``s`` uses ``policies[s % 2]``) or ``players``
        (per seat).
    players : int
        2 or 4.

    Raises
    ------
    ValueError
        Wrong length or an unknown policy.
    """
    if isinstance(policies, str | Policy):
        policies = [policies]
    items = [resolve_policy(p) for p in policies]
    if len(items) == 1:
        return items * players
    if len(items) == 2:
        return [items[s % 2] for s in range(players)]
    if len(items) == players:
        return items
    raise ValueError(
        f"give 1 policy (all seats), 2 (per side) or {players} (per seat); got {len(items)}"
    )
