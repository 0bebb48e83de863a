"""Registry of the built-in playing policies (contract section 6).

A policy chooses one entry of the canonical list of legal plays (contract section 3). Each
built-in policy has an integer id, the form the numba kernel dispatches on
(:mod:`cuarenta_sim.policies.kernel`), and metadata describing it. Ids are stable: new policies
(heuristic, lookahead) get new ids, a changed behaviour gets a new versioned name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .kernel import POLICY_GREEDY, POLICY_RANDOM


@dataclass(frozen=True)
class PolicyInfo:
    """Metadata of one built-in policy.

    Attributes
    ----------
    name : str
        Registry name, as accepted by :func:`resolve_policies`.
    id : int
        Integer id dispatched on by the kernel.
    stochastic : bool
        True when the policy draws from its seat's policy stream (contract section 2).
    description : str
        What the policy does.
    source : str
        Where the behaviour is specified.
    """

    name: str
    id: int
    stochastic: bool
    description: str
    source: str


#: Built-in policies by name.
POLICIES: dict[str, PolicyInfo] = {
    "random": PolicyInfo(
        name="random",
        id=POLICY_RANDOM,
        stochastic=True,
        description="uniformly random legal play: plays[randbelow(len(plays))]",
        source="docs/engine_contract.md section 6",
    ),
    "greedy": PolicyInfo(
        name="greedy",
        id=POLICY_GREEDY,
        stochastic=False,
        description=(
            "most points now (immediate points plus claims), then most cards captured; "
            "ties to the first play in canonical order"
        ),
        source="docs/engine_contract.md section 6",
    ),
}

#: Policy names by id.
POLICY_NAMES: dict[int, str] = {info.id: name for name, info in POLICIES.items()}


def resolve_policies(policies: str | Sequence[str], players: int) -> tuple[int, ...]:
    """Return the policy id of every seat.

    Parameters
    ----------
    policies : str or sequence of str
        One name (every seat), two names (per side: seat ``s`` gets ``policies[s % 2]``,
        R2.1) or ``players`` names (per seat).
    players : int
        Number of players, 2 or 4.

    Returns
    -------
    tuple of int
        ``players`` policy ids, seat order.

    Raises
    ------
    ValueError
        Unknown policy name (the message lists the accepted ones), a wrong number of names,
        or ``players`` not 2 or 4.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    if isinstance(policies, str):
        names = [policies]
    elif isinstance(policies, list | tuple) and all(isinstance(p, str) for p in policies):
        names = list(policies)
    else:
        raise ValueError(
            f"policies must be a policy name or a list of names ({', '.join(POLICIES)}), "
            f"got {policies!r}"
        )
    if len(names) not in (1, 2, players):
        raise ValueError(
            "give 1 policy name (all seats), 2 (one per side)"
            + (f" or {players} (one per seat)" if players != 2 else "")
            + f"; got {len(names)}"
        )
    ids = []
    for name in names:
        if not isinstance(name, str) or name not in POLICIES:
            raise ValueError(f"unknown policy {name!r}; accepted: {', '.join(POLICIES)}")
        ids.append(POLICIES[name].id)
    return tuple(ids[seat % len(ids)] for seat in range(players))
