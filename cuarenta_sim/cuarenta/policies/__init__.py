"""Registry of the playing policies and their parameters (contract section 6).

A policy chooses one entry of the canonical list of legal plays (contract section 3). Each
policy has an integer id, the form the numba kernel dispatches on
(:mod:`cuarenta_sim.cuarenta.policies.kernel`), metadata (:class:`PolicyInfo`) and, for
``heuristic`` and ``pimc``, integer parameters; ``learned`` takes a weights file
(``learned(weights=PATH)``, :mod:`cuarenta_sim.cuarenta.policies.learned`) whose model for the
player count fills its parameter row. Ids are stable: a changed behaviour gets a new versioned
name.

Policy specs
------------
Everywhere a policy is named (``simulate(policies=...)``, the command line's ``--policies``,
the reference engine) a **spec** is accepted: a registry name optionally followed by
parameters in the slug style of rule sets, e.g. ``heuristic``, ``heuristic(no_ace_trail=0)``,
``pimc(samples=8,depth=deal,playout=greedy)``. Parameters left out take their defaults
(:data:`POLICIES` ``[name].params``). :func:`parse_policy` returns the :class:`PolicySpec`,
whose :attr:`PolicySpec.canonical` form lists every parameter (``random`` and ``greedy`` have
none and stay bare names): that is what provenance records, so a run is reproducible from it.

Parameters travel into the kernel as one int64 row per seat (:data:`POLICY_ROW` entries:
the id, then :data:`N_PARAMS` parameter slots at the ``P_*`` offsets of
:mod:`cuarenta_sim.cuarenta.policies.kernel`); :func:`resolve_policies` returns them with the ids
in a
picklable :class:`SeatPolicies`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .kernel import (
    AUTO_SAMPLES_2,
    AUTO_SAMPLES_4,
    DEPTH_DATA,
    DEPTH_DEAL,
    N_PARAMS,
    P_CAIDA,
    P_CARDS,
    P_DEPTH,
    P_EXACT,
    P_HOLD_KNOWN,
    P_KEEP_TABLE,
    P_LEAF_CARDS,
    P_LIMPIA,
    P_NO_ACE_TRAIL,
    P_NO_RUN_START,
    P_OPENINGS,
    P_PLAYOUT,
    P_RULES_38_30,
    P_SAMPLES,
    P_STOP,
    P_TRAIL_PAIR,
    PLAYOUT_HEURISTIC,
    POLICY_GREEDY,
    POLICY_HEURISTIC,
    POLICY_LEARNED,
    POLICY_PIMC,
    POLICY_RANDOM,
    POLICY_ROW,
    POLICY_SOLVER,
)

#: Largest weight accepted for a heuristic parameter (milli-points).
MAX_WEIGHT = 1_000_000
#: Largest number of pimc samples.
MAX_SAMPLES = 4096


@dataclass(frozen=True)
class ParamInfo:
    """One parameter of a policy.

    Attributes
    ----------
    name : str
        Name in a spec (``name=value``).
    slot : int
        Index in the kernel's parameter row (``P_*`` of :mod:`.kernel`); -1 for a file
        parameter.
    default : int or str
        Kernel value of the default (for a file parameter, the default text).
    choices : tuple of str
        For an enumerated parameter, the accepted words, whose index is the kernel value
        (empty for an integer parameter).
    low, high : int
        Accepted range of an integer parameter (inclusive).
    description : str
        What it does, with its unit.
    is_file : bool
        True for a parameter naming a file (``learned``'s ``weights``): its value is the text
        itself, checked by loading the file.
    auto : bool
        True when the word ``auto`` is also accepted, as kernel value 0 (outside ``low ..
        high``): the kernel then chooses by the player count (``solver``'s ``samples``,
        :func:`cuarenta_sim.cuarenta.policies.kernel.solver_samples`).
    """

    name: str
    slot: int
    default: int | str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = MAX_WEIGHT
    description: str = ""
    is_file: bool = False
    auto: bool = False

    def parse(self, text: str, policy: str) -> int | str:
        """Return the kernel value of ``text`` (a word of :attr:`choices` or an integer; for
        a file parameter the text, once the file loads).

        Raises
        ------
        ValueError
            A value that is not accepted (the message says what is).
        """
        text = text.strip()
        if self.is_file:
            from .learned import load_weights

            load_weights(text)
            return text
        if self.choices:
            if text not in self.choices:
                raise ValueError(
                    f"bad value {text!r} for {policy} parameter {self.name}; "
                    f"accepted: {', '.join(self.choices)}"
                )
            return self.choices.index(text)
        if self.auto and text == "auto":
            return 0
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not self.low <= value <= self.high:
            auto = "auto or " if self.auto else ""
            raise ValueError(
                f"bad value {text!r} for {policy} parameter {self.name}; accepted: {auto}a "
                f"whole number from {self.low} to {self.high}"
            )
        return value

    def format(self, value: int | str) -> str:
        """Return the spec text of a kernel value."""
        if self.auto and value == 0:
            return "auto"
        return self.choices[value] if self.choices else str(value)  # type: ignore[index]


#: Heuristic parameters (also the weights of pimc's ``heuristic`` playout). Weights are in
#: milli-points: a play's score is ``1000 * points now`` plus the terms below; every
#: probability is in per mille (see :mod:`cuarenta_sim.cuarenta.policies.heuristic`).
HEURISTIC_PARAMS: tuple[ParamInfo, ...] = (
    ParamInfo(
        "cards",
        P_CARDS,
        350,
        description="milli-points per card captured by the play (played card, base and run)",
    ),
    ParamInfo(
        "caida",
        P_CAIDA,
        1000,
        description="per mille of the expected caida the next player makes on a trail: "
        "P(next holds the rank) x caida value",
    ),
    ParamInfo(
        "limpia",
        P_LIMPIA,
        500,
        description="per mille of the expected limpia left to the next player: max over "
        "the ranks that would empty the table of P(next holds it) x 2",
    ),
    ParamInfo(
        "openings",
        P_OPENINGS,
        100,
        description="milli-points per card the next player is expected to capture on "
        "the table left (sum over ranks of P(holds it) x cards it takes)",
    ),
    ParamInfo(
        "trail_pair",
        P_TRAIL_PAIR,
        450,
        description="tactic 'trail one of a pair': bonus (milli-points) for trailing a "
        "rank of which the hand holds two or more",
    ),
    ParamInfo(
        "no_ace_trail",
        P_NO_ACE_TRAIL,
        0,
        description="tactic 'do not trail an ace': penalty (milli-points) for trailing an ace",
    ),
    ParamInfo(
        "no_run_start",
        P_NO_RUN_START,
        0,
        description="tactic 'do not trail the start of a run': penalty (milli-points) "
        "per table card of the run a capture of the trailed card would take (ranks "
        "r+1, r+2, ... on the table)",
    ),
    ParamInfo(
        "keep_table",
        P_KEEP_TABLE,
        0,
        description="tactic 'keep the table from being emptied': penalty (milli-points) "
        "per card short of 3 on a non-empty table left to the next player (1 or 2 "
        "cards left)",
    ),
    ParamInfo(
        "hold_known",
        P_HOLD_KNOWN,
        1000,
        description="tactic 'hold a card the next player is known to hold': penalty "
        "(milli-points) for trailing a rank the next player announced as a ronda in "
        "this deal and still holds",
    ),
    ParamInfo(
        "rules_38_30",
        P_RULES_38_30,
        1,
        choices=("0", "1"),
        description="1: the 38 and 30 rules shape the weights: no card value when the "
        "side's carton is blocked (score >= carton_blocked_from, R8.6, or at 38 under "
        "only_caida), no limpia risk when the next player is at 38 under a 38 rule "
        "that drops limpias (R9.1); 0: ignored",
    ),
)

#: pimc parameters; pimc's heuristic playout uses the heuristic defaults above.
PIMC_PARAMS: tuple[ParamInfo, ...] = (
    ParamInfo(
        "samples",
        P_SAMPLES,
        32,
        low=1,
        high=MAX_SAMPLES,
        description="deals of the unseen cards sampled per decision",
    ),
    ParamInfo(
        "depth",
        P_DEPTH,
        DEPTH_DEAL,
        choices=("deal", "data"),
        description="playouts end at the end of the current deal, or of the data "
        "(with the end-of-data count, R8)",
    ),
    ParamInfo(
        "playout",
        P_PLAYOUT,
        PLAYOUT_HEURISTIC,
        choices=("greedy", "heuristic"),
        description="policy every seat plays in the playouts",
    ),
    ParamInfo(
        "leaf_cards",
        P_LEAF_CARDS,
        800,
        description="milli-points per card captured in a playout that stops before the "
        "end of the data (depth=deal), net of the other side's: the cards' worth "
        "towards the carton (R8.2), which that playout does not count",
    ),
)


#: solver parameters (:mod:`cuarenta_sim.cuarenta.engine.solverplay`); its playouts before the
#: exact part use the heuristic defaults above, to the end of the deal.
SOLVER_PARAMS: tuple[ParamInfo, ...] = (
    ParamInfo(
        "samples",
        P_SAMPLES,
        0,
        low=1,
        high=MAX_SAMPLES,
        description="deals of the unseen cards sampled per decision (at most; see stop); "
        f"auto: {AUTO_SAMPLES_2} with 2 players, {AUTO_SAMPLES_4} with 4 (three hidden hands "
        "need more samples to tell the plays apart)",
        auto=True,
    ),
    ParamInfo(
        "exact",
        P_EXACT,
        6,
        low=1,
        high=20,
        description="solve every sample exactly (to the deal's end; in the last deal to the "
        "data's end) once at most this many plays are left in the deal; before, value "
        "samples by heuristic playouts to the deal's end (the node budget)",
    ),
    ParamInfo(
        "stop",
        P_STOP,
        0,
        low=0,
        high=100,
        description="early stopping: end the decision once the leading play's mean lead over "
        "every other play exceeds this many standard errors (0: never)",
    ),
    ParamInfo(
        "leaf_cards",
        P_LEAF_CARDS,
        800,
        description="milli-points per card captured before the deal's end, net of the other "
        "side's, when the value stops there: the cards' worth towards the carton (R8.2)",
    ),
)


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
    params : tuple of ParamInfo
        Its parameters, in canonical order (empty for ``random`` and ``greedy``).
    """

    name: str
    id: int
    stochastic: bool
    description: str
    source: str
    params: tuple[ParamInfo, ...] = field(default=())


#: ``learned`` parameters: the weights file (:mod:`cuarenta_sim.cuarenta.policies.learned`).
LEARNED_PARAMS: tuple[ParamInfo, ...] = (
    ParamInfo(
        "weights",
        -1,
        "learned_v2",
        is_file=True,
        description="learned_v2 (the default weights shipped with the package), learned_v1 "
        "(the earlier imitation-only weights) or the path of a .npz weights file written by "
        "benchmarks/train_learned.py",
    ),
)

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
    "heuristic": PolicyInfo(
        name="heuristic",
        id=POLICY_HEURISTIC,
        stochastic=False,
        description=(
            "largest weighted score of observable features: points now, cards taken, caida "
            "and limpia exposure to the next player, openings left, folk tactics, 38/30 rules; "
            "ties to the first play in canonical order"
        ),
        source="docs/engine_contract.md section 6; cuarenta_sim/policies/heuristic.py",
        params=HEURISTIC_PARAMS,
    ),
    "pimc": PolicyInfo(
        name="pimc",
        id=POLICY_PIMC,
        stochastic=False,
        description=(
            "perfect-information Monte Carlo: samples deals of the unseen cards from the "
            "seat's search stream, plays every legal play out in every sample, best mean "
            "side point difference; ties to the first play in canonical order"
        ),
        source="docs/engine_contract.md section 6; cuarenta_sim/policies/pimc.py",
        params=PIMC_PARAMS,
    ),
    "solver": PolicyInfo(
        name="solver",
        id=POLICY_SOLVER,
        stochastic=False,
        description=(
            "perfect-information Monte Carlo with exactly solved samples: samples deals of "
            "the unseen cards consistent with the ronda announcements, solves each by "
            "alpha-beta (heuristic playouts early in a deal), stops early when one play is "
            "clearly best; best mean side point difference, ties to the first play"
        ),
        source="cuarenta_sim/cuarenta/engine/solverplay.py; docs/engine_contract.md section 6",
        params=SOLVER_PARAMS,
    ),
    "learned": PolicyInfo(
        name="learned",
        id=POLICY_LEARNED,
        stochastic=False,
        description=(
            "linear scorer of observable per-play features (the heuristic's terms and public "
            "context) trained to imitate a teacher (pimc); one model per player count; ties "
            "to the first play in canonical order"
        ),
        source="cuarenta_sim/cuarenta/engine/learned.py; benchmarks/train_learned.py",
        params=LEARNED_PARAMS,
    ),
}

#: Policy names by id.
POLICY_NAMES: dict[int, str] = {info.id: name for name, info in POLICIES.items()}

_SPEC_RE = re.compile(r"^\s*([a-z_]+)\s*(?:\((.*)\))?\s*$")


def default_params() -> np.ndarray:
    """Return the default parameter row (int64, shape (N_PARAMS,)): every heuristic and pimc
    parameter at its default (pimc's heuristic playout reads the heuristic slots)."""
    row = np.zeros(N_PARAMS, dtype=np.int64)
    for info in HEURISTIC_PARAMS + PIMC_PARAMS:
        row[info.slot] = info.default
    # Slots only the solver reads (samples and leaf_cards are shared with pimc's).
    for info in SOLVER_PARAMS:
        if info.slot in (P_EXACT, P_STOP):
            row[info.slot] = info.default
    return row


@dataclass(frozen=True)
class PolicySpec:
    """A parsed policy spec: the policy and the value of each of its parameters.

    Attributes
    ----------
    name : str
        Registry name.
    values : tuple of (str, int)
        ``(parameter, kernel value)`` for every parameter of the policy, canonical order.
    """

    name: str
    values: tuple[tuple[str, int | str], ...] = ()

    @property
    def info(self) -> PolicyInfo:
        """The registry entry."""
        return POLICIES[self.name]

    @property
    def id(self) -> int:
        """Kernel id of the policy."""
        return POLICIES[self.name].id

    @property
    def canonical(self) -> str:
        """The full spec: ``name`` alone without parameters, else ``name(p=v,...)`` listing
        every parameter in canonical order."""
        if not self.values:
            return self.name
        params = {p.name: p for p in self.info.params}
        body = ",".join(f"{k}={params[k].format(v)}" for k, v in self.values)
        return f"{self.name}({body})"

    def row(self, players: int = 2) -> np.ndarray:
        """The kernel parameter row (int64, (N_PARAMS,)): defaults, then this spec's values;
        for ``learned``, the weights of its model for ``players`` (2 or 4) in the first
        slots."""
        row = default_params()
        params = {p.name: p for p in self.info.params}
        for k, v in self.values:
            if params[k].is_file:
                from .learned import load_weights

                w = load_weights(str(v)).row(players)
                row[: len(w)] = w
            else:
                row[params[k].slot] = v
        return row


def split_policy_list(text: str) -> list[str]:
    """Split a comma-separated list of policy specs, keeping commas inside parentheses.

    ``"random,pimc(samples=8,depth=deal)"`` -> ``["random", "pimc(samples=8,depth=deal)"]``.

    Parameters
    ----------
    text : str
        Policy specs separated by commas.

    Returns
    -------
    list of str
        The specs, stripped.

    Raises
    ------
    ValueError
        On an empty spec or unbalanced parentheses.
    """
    from ...switches import split_specs

    return split_specs(text, label="policy list")


def parse_policy(spec: str) -> PolicySpec:
    """Parse one policy spec such as ``"heuristic(no_ace_trail=0)"``.

    Parameters
    ----------
    spec : str
        A registry name, optionally followed by ``(param=value,...)``.

    Returns
    -------
    PolicySpec
        With every parameter of the policy (defaults filled in).

    Raises
    ------
    ValueError
        Malformed spec, unknown policy, unknown or repeated parameter, or a bad value; the
        message lists what is accepted.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a policy spec must be a string, got {spec!r}")
    m = _SPEC_RE.match(spec)
    if m is None:
        raise ValueError(
            f"malformed policy spec {spec!r}; expected a name ({', '.join(POLICIES)}) "
            "optionally followed by (param=value,...)"
        )
    name = m.group(1)
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; accepted: {', '.join(POLICIES)}")
    info = POLICIES[name]
    params = {p.name: p for p in info.params}
    values = {p.name: p.default for p in info.params}
    body = (m.group(2) or "").strip()
    if body:
        seen: set[str] = set()
        for item in body.split(","):
            if "=" not in item:
                raise ValueError(
                    f"malformed parameter {item.strip()!r} in policy spec {spec!r}; "
                    "expected param=value"
                )
            key, value = (s.strip() for s in item.split("=", 1))
            if key not in params:
                accepted = ", ".join(params) if params else "none"
                raise ValueError(
                    f"unknown parameter {key!r} of policy {name}; accepted: {accepted}"
                )
            if key in seen:
                raise ValueError(f"parameter {key} given twice in policy spec {spec!r}")
            seen.add(key)
            values[key] = params[key].parse(value, name)
    return PolicySpec(name, tuple((p.name, values[p.name]) for p in info.params))


class SeatPolicies(tuple):  # type: ignore[type-arg]
    """The policy of every seat: a tuple of kernel ids, with specs and parameter rows.

    It compares equal to the plain tuple of ids. Extra attributes:

    Attributes
    ----------
    specs : tuple of str
        Canonical spec of each seat's policy (:attr:`PolicySpec.canonical`).
    params : tuple of tuple of int
        Each seat's kernel parameter row (N_PARAMS ints).
    """

    specs: tuple[str, ...]
    params: tuple[tuple[int, ...], ...]

    def __new__(
        cls, ids: Sequence[int], specs: Sequence[str], params: Sequence[Sequence[int]]
    ) -> SeatPolicies:
        obj = super().__new__(cls, tuple(int(i) for i in ids))
        obj.specs = tuple(specs)
        obj.params = tuple(tuple(int(v) for v in row) for row in params)
        return obj

    def __reduce__(self) -> tuple:
        return (SeatPolicies, (tuple(self), self.specs, self.params))

    def kernel_array(self) -> np.ndarray:
        """The int64 array ``(4, POLICY_ROW)`` the kernels take: per seat the id, then its
        parameter row; seats past the number of players are ``random`` with defaults."""
        arr = np.zeros((4, POLICY_ROW), dtype=np.int64)
        arr[:, 1:] = default_params()
        for s, (pid, row) in enumerate(zip(self, self.params, strict=True)):
            arr[s, 0] = pid
            arr[s, 1:] = row
        return arr


def resolve_policies(policies: str | Sequence[str], players: int) -> SeatPolicies:
    """Return the policy of every seat.

    Parameters
    ----------
    policies : str or sequence of str
        One spec (every seat), two (per side: seat ``s`` gets ``policies[s % 2]``, R2.1) or
        ``players`` specs (per seat). A spec is a name with optional parameters
        (:func:`parse_policy`).
    players : int
        Number of players, 2 or 4.

    Returns
    -------
    SeatPolicies
        ``players`` policy ids, seat order (equal to the plain tuple of ids), with the
        canonical specs and the kernel parameter rows.

    Raises
    ------
    ValueError
        Unknown policy or parameter, bad value (the message lists the accepted ones), a wrong
        number of specs, or ``players`` not 2 or 4.
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
    parsed = [parse_policy(name) for name in names]
    seats = [parsed[seat % len(parsed)] for seat in range(players)]
    return SeatPolicies(
        [s.id for s in seats],
        [s.canonical for s in seats],
        [tuple(s.row(players)) for s in seats],
    )


__all__ = [
    "DEPTH_DATA",
    "DEPTH_DEAL",
    "HEURISTIC_PARAMS",
    "LEARNED_PARAMS",
    "PIMC_PARAMS",
    "POLICIES",
    "POLICY_NAMES",
    "SOLVER_PARAMS",
    "ParamInfo",
    "PolicyInfo",
    "PolicySpec",
    "SeatPolicies",
    "default_params",
    "parse_policy",
    "resolve_policies",
    "split_policy_list",
]
