"""Player specs of outside matches (:mod:`cuarenta_sim.rl.outside`): one of our policies or
an OpenSpiel bot, parsed by :func:`parse_player` (``greedy``, ``pimc(samples=8)``,
``openspiel-ismcts(simulations=1000,uct_c=2)``, ``openspiel-random``).

Parsing needs no OpenSpiel: the bots are only named here (:mod:`cuarenta_sim.rl.outside_agents`
plays them).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cuarenta.policies import PolicySpec, parse_policy
from ..cuarenta.policies.kernel import POLICY_RANDOM

#: Prefix of the OpenSpiel bots' player specs.
BOT_PREFIX = "openspiel-"
#: The OpenSpiel bots by spec name.
BOTS = ("ismcts", "random")
#: Final policies of ISMCTS (``ISMCTSFinalPolicyType``), by spec word.
FINAL_POLICIES = ("max_visit_count", "normalized_visit_count", "max_value")
#: OpenSpiel's enum member of each final policy.
FINAL_TYPES = {
    "max_visit_count": "MAX_VISIT_COUNT",
    "normalized_visit_count": "NORMALIZED_VISITED_COUNT",
    "max_value": "MAX_VALUE",
}
#: Child selection policies of ISMCTS (``ChildSelectionPolicy``), by spec word.
SELECTIONS = ("uct", "puct")

_BOT_RE = re.compile(r"^\s*openspiel-([a-z_]+)\s*(?:\((.*)\))?\s*$")


@dataclass(frozen=True)
class IsmctsSettings:
    """Configuration of OpenSpiel's IS-MCTS bot (``openspiel-ismcts(...)``).

    Attributes
    ----------
    simulations : int
        ``max_simulations``: simulations per decision (each from a resampled world).
    uct_c : float
        Exploration constant of the UCT (or PUCT) child selection.
    rollouts : int
        ``n_rollouts`` of the ``RandomRolloutEvaluator``: uniformly random playouts averaged
        at each new leaf.
    rollout_length : int
        ``max_length`` of the evaluator in steps (chance nodes included); 0 plays every
        rollout to the end of the chica. A cut rollout is worth the rewards gathered so far,
        which are zero unless ``point_reward`` is set.
    point_reward : float
        Reward per point of side difference in the bot's own copy of the game
        (``python_cuarenta`` parameter; the chica win is always worth 1). 0: the bot values
        the chica's result only, as the match does.
    final : str
        Final policy: ``max_visit_count`` (ties drawn at random), ``normalized_visit_count``
        (an action drawn in proportion to its visits) or ``max_value``.
    selection : str
        Child selection: ``uct`` or ``puct`` (uniform priors).
    world_samples : int
        ``max_world_samples``: -1 resamples a world for every simulation, ``k > 0`` reuses
        ``k`` sampled worlds.
    """

    simulations: int = 1000
    uct_c: float = 2.0
    rollouts: int = 1
    rollout_length: int = 0
    point_reward: float = 0.0
    final: str = "max_visit_count"
    selection: str = "uct"
    world_samples: int = -1

    @property
    def canonical(self) -> str:
        """The full spec, every parameter in order: ``openspiel-ismcts(simulations=...)``."""
        body = ",".join(f"{k}={_fmt(getattr(self, k))}" for k in _ISMCTS_PARAMS)
        return f"{BOT_PREFIX}ismcts({body})"

    def describe(self) -> dict[str, Any]:
        """The bot's configuration in OpenSpiel's own terms (for reports and provenance)."""
        return {
            "bot": "open_spiel.python.algorithms.ismcts.ISMCTSBot",
            "evaluator": f"RandomRolloutEvaluator(n_rollouts={self.rollouts}, max_length="
            f"{self.rollout_length or None})",
            "uct_c": self.uct_c,
            "max_simulations": self.simulations,
            "max_world_samples": self.world_samples,
            "final_policy_type": f"ISMCTSFinalPolicyType.{FINAL_TYPES[self.final]}",
            "child_selection_policy": f"ChildSelectionPolicy.{self.selection.upper()}",
            "use_observation_string": False,
            "allow_inconsistent_action_sets": False,
            "resampler": "cuarenta_sim.rl.outside_agents.resample_world (the game's "
            "resample_from_infostate, drawn from a numpy RandomState)",
            "game_rewards": f"win_reward=1, point_reward={_fmt(self.point_reward)}",
            "random_state": "numpy RandomState seeded from the seat's search stream "
            "(seed, chica, STREAM_SEARCH + seat)",
        }


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _int_param(low: int, high: int) -> Callable[[str, str], int]:
    def parse(name: str, text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or not low <= v <= high:
            raise ValueError(
                f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: a whole "
                f"number from {low} to {high}"
            )
        return v

    return parse


def _float_param(low: float, high: float) -> Callable[[str, str], float]:
    def parse(name: str, text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        if not low <= v <= high:
            raise ValueError(
                f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: a number "
                f"from {low:g} to {high:g}"
            )
        return v

    return parse


def _choice_param(choices: Sequence[str]) -> Callable[[str, str], str]:
    def parse(name: str, text: str) -> str:
        if text not in choices:
            raise ValueError(
                f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: "
                f"{', '.join(choices)}"
            )
        return text

    return parse


def _world_samples(name: str, text: str) -> int:
    v = _int_param(-1, 1_000_000)(name, text)
    if v == 0:
        raise ValueError(
            f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: -1 "
            "(a new world every simulation) or a whole number from 1 to 1000000"
        )
    return v


_ISMCTS_PARAMS: dict[str, Callable[[str, str], Any]] = {
    "simulations": _int_param(1, 10_000_000),
    "uct_c": _float_param(0.0, 1e6),
    "rollouts": _int_param(1, 100_000),
    "rollout_length": _int_param(0, 10_000_000),
    "point_reward": _float_param(0.0, 1e6),
    "final": _choice_param(FINAL_POLICIES),
    "selection": _choice_param(SELECTIONS),
    "world_samples": _world_samples,
}


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player of an outside match: one of our policies or an OpenSpiel bot.

    Attributes
    ----------
    kind : str
        ``"policy"`` (ours), ``"ismcts"`` or ``"random"`` (OpenSpiel's bots).
    canonical : str
        The full spec (every parameter), as provenance records it.
    policy : PolicySpec or None
        Our policy's parsed spec (``kind == "policy"``).
    ismcts : IsmctsSettings or None
        The IS-MCTS configuration (``kind == "ismcts"``).
    """

    kind: str
    canonical: str
    policy: PolicySpec | None = None
    ismcts: IsmctsSettings | None = None

    def describe(self) -> dict[str, Any]:
        """The player's settings for reports: the spec and, for a bot, its configuration."""
        out: dict[str, Any] = {"spec": self.canonical, "kind": self.kind}
        if self.ismcts is not None:
            out["settings"] = self.ismcts.describe()
        elif self.kind == "random":
            out["settings"] = {
                "bot": "open_spiel.python.bots.uniform_random.UniformRandomBot",
                "rng": "numpy RandomState seeded from the seat's search stream "
                "(seed, chica, STREAM_SEARCH + seat)",
            }
        else:
            out["settings"] = {
                "entry_point": "cuarenta_sim.cuarenta.engine.decide.decide"
                if self.policy is not None and self.policy.id != POLICY_RANDOM
                else "cuarenta_sim.cuarenta.reference.policies.RandomPolicy",
                "observation": "cuarenta_sim.cuarenta.reference.game.observe (the seat's view)",
            }
        return out


def parse_player(spec: str) -> PlayerSpec:
    """Parse a player spec: a policy spec, ``openspiel-ismcts(...)`` or ``openspiel-random``.

    Parameters
    ----------
    spec : str
        ``greedy``, ``pimc(samples=8)``, ... (:func:`cuarenta_sim.cuarenta.policies.parse_policy`);
        ``openspiel-ismcts(simulations=1000,uct_c=2,rollouts=1)`` with any of the parameters
        of :class:`IsmctsSettings` (the others take their defaults); ``openspiel-random``.

    Returns
    -------
    PlayerSpec

    Raises
    ------
    ValueError
        Malformed spec, unknown bot, unknown or repeated parameter, bad value; the message
        lists what is accepted.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a player spec must be a string, got {spec!r}")
    if not spec.strip().startswith(BOT_PREFIX):
        parsed = parse_policy(spec)
        return PlayerSpec("policy", parsed.canonical, policy=parsed)
    m = _BOT_RE.match(spec)
    if m is None:
        raise ValueError(
            f"malformed player spec {spec!r}; expected openspiel-ismcts(param=value,...) or "
            "openspiel-random"
        )
    bot, body = m.group(1), (m.group(2) or "").strip()
    if bot not in BOTS:
        raise ValueError(
            f"unknown OpenSpiel bot {bot!r}; accepted: " + ", ".join(BOT_PREFIX + b for b in BOTS)
        )
    if bot == "random":
        if body:
            raise ValueError(f"openspiel-random takes no parameters, got {body!r}")
        return PlayerSpec("random", f"{BOT_PREFIX}random")
    values: dict[str, Any] = {}
    if body:
        for item in body.split(","):
            if "=" not in item:
                raise ValueError(
                    f"malformed parameter {item.strip()!r} in player spec {spec!r}; "
                    "expected param=value"
                )
            key, text = (s.strip() for s in item.split("=", 1))
            if key not in _ISMCTS_PARAMS:
                raise ValueError(
                    f"unknown parameter {key!r} of openspiel-ismcts; accepted: "
                    + ", ".join(_ISMCTS_PARAMS)
                )
            if key in values:
                raise ValueError(f"parameter {key} given twice in player spec {spec!r}")
            values[key] = _ISMCTS_PARAMS[key](key, text)
    settings = IsmctsSettings(**values)
    return PlayerSpec("ismcts", settings.canonical, ismcts=settings)
