"""Policies: what a seat may see (:class:`Observation`) and the built-in policies.

A policy is any object with ``name: str``, ``stochastic: bool`` and
``choose(obs: Observation, rng: PyRng) -> int`` returning an index into ``obs.plays`` (the
canonical legal-play list, ``docs/engine_contract.md`` section 3). ``rng`` is the seat's own
policy stream of the data (contract section 2); a deterministic policy must not draw from it.
A policy with a true ``search`` attribute (``pimc``) gets the seat's search stream
``STREAM_SEARCH + seat`` of the data instead. The built-ins (``random``, ``greedy``,
``heuristic``, ``learned``, ``pimc``) follow contract section 6 exactly, so the numba kernel's
twins make the same choices; :func:`resolve_policy` accepts policy specs with parameters
(:func:`cuarenta_sim.cuarenta.policies.parse_policy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from ...rng import PyRng
from ..policies import PolicySpec, parse_policy
from ..policies.kernel import POLICY_HEURISTIC, POLICY_LEARNED, POLICY_PIMC, POLICY_SOLVER
from ..rules import RuleSet
from .learned import learned_index
from .plays import Play, PlayOutcome, resolve_play
from .search import heuristic_index, pimc_index, solver_index
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
    hand_sizes : tuple of int
        Cards in each seat's hand (public: every seat plays one card per turn).
    rondas : tuple of tuple of int
        Per seat, its ronda ranks of the current deal (announced aloud, R4).
    known : tuple of tuple of int
        Per seat, the per-rank counts it is known to hold: its announced ronda (3 cards, 4
        for a doble ronda) minus the cards of that rank it has played since.
    trail_seat : int or None
        The seat that made :attr:`trail`.
    last_capturer : int or None
        Side of the last capture in the data (R8.1).
    turn : int
        Turns already played in the current deal.
    stop_at_target : bool
        True at levels chica and mesa: reaching the target wins (R9.2).
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
    hand_sizes: tuple[int, ...] = ()
    rondas: tuple[tuple[int, ...], ...] = ()
    known: tuple[tuple[int, ...], ...] = ()
    trail_seat: int | None = None
    last_capturer: int | None = None
    turn: int = 0
    stop_at_target: bool = False

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


@dataclass(frozen=True)
class HeuristicPolicy:
    """The ``heuristic`` policy: twin of :mod:`cuarenta_sim.cuarenta.engine.heuristic` (scores
    there).

    Attributes
    ----------
    params : tuple of int
        The kernel parameter row (:meth:`cuarenta_sim.cuarenta.policies.PolicySpec.row`).
    name : str
        Canonical spec.
    """

    params: tuple[int, ...]
    name: str = "heuristic"
    stochastic: bool = False

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """Return the index of the heuristic's play; ``rng`` is not used.

        Parameters
        ----------
        obs : Observation
            The seat's view (hand sizes, rondas and known cards included).
        rng : PyRng
            Unused (the policy is deterministic).

        Returns
        -------
        int
            Index into ``obs.plays``.
        """
        side = obs.side
        nxt = (obs.seat + 1) % obs.players
        return heuristic_index(
            self.params,
            obs.rules,
            obs.hand,
            obs.table,
            obs.trail,
            obs.trail_in_ronda,
            obs.scores[side],
            obs.scores[1 - side],
            obs.played,
            obs.rondas[obs.seat],
            obs.known[nxt],
            obs.hand_sizes[nxt],
        )


@dataclass(frozen=True)
class LearnedPolicy:
    """The ``learned`` policy: twin of :mod:`cuarenta_sim.cuarenta.engine.learned` (features and
    score there).

    Attributes
    ----------
    weights : dict of int to tuple of int
        The kernel parameter row of each player count (2 and 4): the model's fixed-point
        weights (:meth:`cuarenta_sim.cuarenta.policies.PolicySpec.row`).
    name : str
        Canonical spec.
    """

    weights: dict[int, tuple[int, ...]]
    name: str = "learned"
    stochastic: bool = False

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """Return the index of the learned play; ``rng`` is not used.

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
        return learned_index(self.weights[obs.players], obs)


@dataclass(frozen=True)
class SearchPolicy:
    """A search policy: samples deals of the cards the seat cannot see, values every legal
    play on each (:attr:`valuation`: greedy playouts for ``pimc``, exact solves for
    ``solver``) and plays the best total. It draws from the seat's search stream (``search``
    is true). :class:`PimcPolicy` and :class:`SolverPolicy` only name the valuation.

    Attributes
    ----------
    params : tuple of int
        The kernel parameter row (:meth:`cuarenta_sim.cuarenta.policies.PolicySpec.row`).
    name : str
        Canonical spec.
    """

    params: tuple[int, ...]
    name: str = "search"
    stochastic: bool = False
    search: bool = True
    #: The sample loop and its valuation, called with the observation's fields
    #: (:func:`.search.pimc_index` or :func:`.search.solver_index`).
    valuation: ClassVar[Callable[..., int]]

    def choose(self, obs: Observation, rng: PyRng) -> int:
        """Return the index of the play the search chooses.

        Parameters
        ----------
        obs : Observation
            The seat's view.
        rng : PyRng
            The seat's search stream of the data (``STREAM_SEARCH + seat``).

        Returns
        -------
        int
            Index into ``obs.plays``.
        """
        return type(self).valuation(
            self.params,
            obs.rules,
            obs.players,
            obs.seat,
            obs.dealer,
            obs.deal,
            obs.turn,
            obs.hand,
            obs.table,
            obs.trail,
            obs.trail_seat,
            obs.played,
            obs.rondas,
            obs.known,
            obs.hand_sizes,
            obs.scores,
            obs.piles,
            obs.last_capturer,
            obs.stop_at_target,
            rng,
        )


@dataclass(frozen=True)
class PimcPolicy(SearchPolicy):
    """The ``pimc`` policy: twin of :mod:`cuarenta_sim.cuarenta.engine.pimc` (sampling and
    playouts there)."""

    name: str = "pimc"
    valuation = staticmethod(pimc_index)


@dataclass(frozen=True)
class SolverPolicy(SearchPolicy):
    """The ``solver`` policy: twin of :mod:`cuarenta_sim.cuarenta.engine.solverplay` (sampled
    deals solved exactly by :func:`.solver.solve_values`)."""

    name: str = "solver"
    valuation = staticmethod(solver_index)


#: Built-in policies by name, with default parameters.
POLICIES: dict[str, Policy] = {
    "random": RandomPolicy(),
    "greedy": GreedyPolicy(),
    "heuristic": HeuristicPolicy(tuple(parse_policy("heuristic").row().tolist())),
    "pimc": PimcPolicy(tuple(parse_policy("pimc").row().tolist())),
    "solver": SolverPolicy(tuple(parse_policy("solver").row().tolist())),
}


def policy_from_spec(spec: PolicySpec) -> Policy:
    """Return the reference policy object of a parsed spec (named by its canonical form)."""
    params = tuple(int(v) for v in spec.row().tolist())
    if spec.id == POLICY_HEURISTIC:
        return HeuristicPolicy(params, name=spec.canonical)
    if spec.id == POLICY_PIMC:
        return PimcPolicy(params, name=spec.canonical)
    if spec.id == POLICY_SOLVER:
        return SolverPolicy(params, name=spec.canonical)
    if spec.id == POLICY_LEARNED:
        rows = {n: tuple(int(v) for v in spec.row(n).tolist()) for n in (2, 4)}
        return LearnedPolicy(rows, name=spec.canonical)
    return POLICIES[spec.name]


def resolve_policy(policy: str | Policy) -> Policy:
    """Return the policy object for a name or a policy object.

    Parameters
    ----------
    policy : str or Policy
        A policy spec (a name of :data:`POLICIES`, optionally with parameters, e.g.
        ``"pimc(samples=4)"``) or an object with ``name``, ``stochastic`` and ``choose``.

    Returns
    -------
    Policy
        The policy object.

    Raises
    ------
    ValueError
        For an unknown name, parameter or value (the message lists the accepted ones) or an
        object that is not a policy.
    """
    if isinstance(policy, str):
        return policy_from_spec(parse_policy(policy))
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
