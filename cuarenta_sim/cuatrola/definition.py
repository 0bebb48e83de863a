"""Cuatrola's :class:`cuarenta_sim.game.Game`: what the shared layer may call.

Built from the game's own modules; the heavy ones (numba engine, reference engine, judge,
summaries) are imported when first called, so registering the game stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game import Game, GameOption
from ..switches import format_value
from .rules import PRESETS, SWITCHES, CuatrolaRules, resolve_rules

#: Version of the Cuatrola engine contract (bump on any change of play or records).
ENGINE_VERSION = 1


def presets_rows() -> tuple[list[str], list[list[str]]]:
    """The presets table: header ``["switch", preset...]``, one row per switch."""
    names = list(PRESETS)
    rows = [[sw] + [format_value(getattr(PRESETS[p], sw)) for p in names] for sw in SWITCHES]
    return ["switch", *names], rows


def rules_rows(rules: CuatrolaRules) -> list[list[str]]:
    """Rows ``[switch, value, base preset value]`` for every switch of a rule set.

    The base preset is the one named by ``rules.slug()``; a ``*`` marks a switch where
    ``rules`` differs from it.
    """
    rules = resolve_rules(rules)
    base = PRESETS[rules.slug().split("(", 1)[0]]
    rows = []
    for name in SWITCHES:
        value, default = getattr(rules, name), getattr(base, name)
        mark = "" if value == default else " *"
        rows.append([name, format_value(value), format_value(default) + mark])
    return rows


def policy_table() -> tuple[list[str], list[list[str]]]:
    """The play and bidding policies: kind (play / bidding), name, parameters, description."""
    from .policies import DEFAULT_SAMPLES, DEFAULT_THRESHOLDS

    solo, cuatrola, quintola = DEFAULT_THRESHOLDS
    rows = [
        ["play", "random", "yes", "-", "uniform over the legal cards"],
        ["play", "greedy", "no", "-", "rule of thumb: lead aces, win cheaply, feed the partner"],
        ["play", "pimc", "yes", f"samples={DEFAULT_SAMPLES}",
         "perfect-information Monte Carlo lookahead with greedy playouts"],
        ["bidding", "never", "no", "-", "always passes"],
        ["bidding", "threshold", "no", f"solo={solo}, cuatrola={cuatrola}, quintola={quintola}",
         "highest open contract whose hand-strength threshold is reached"],
        ["bidding", "always", "no", "solo|cuatrola|quintola",
         "declares that contract whenever open (forced declarer)"],
    ]  # fmt: skip
    return ["kind", "policy", "stochastic", "parameters (defaults)", "description"], rows


def summaries(run: Any, confidence: float = 0.95) -> dict[str, Any]:
    """Headline estimate tables of a run: ``{"Per hand": ..., "Per game": ...}``.

    Parameters
    ----------
    run : Results or Aggregates
        A Cuatrola run (frames or counters; the tables agree to rounding).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict of str to DataFrame
        :func:`cuarenta_sim.cuatrola.summaries.summarize_hands` when the run kept hands, and
        at level game :func:`~cuarenta_sim.cuatrola.summaries.summarize_games`.
    """
    from .summaries import summarize_games, summarize_hands

    counters = not hasattr(run.hands, "columns") and not hasattr(run.games, "columns")
    out: dict[str, Any] = {}
    if run.hands is not None:
        out["Per hand"] = (
            run.summarize_hands(confidence) if counters else summarize_hands(run.hands, confidence)
        )
    if run.games is not None:
        out["Per game"] = (
            run.summarize_games(confidence) if counters else summarize_games(run.games, confidence)
        )
    return out


def evaluate(obj: object) -> dict[str, Any]:
    """The Cuatrola scenario judge (:func:`cuarenta_sim.cuatrola.scenario.evaluate`)."""
    from .scenario import evaluate as judge

    return judge(obj)


def replay(
    rules: Any,
    players: int,
    policies: str | Sequence[str],
    seed: int,
    level: str,
    index: int,
    bid_policies: str | Sequence[str] = "threshold",
) -> str:
    """:func:`cuarenta_sim.cuatrola.reference.replay.replay`."""
    from .reference.replay import replay as run

    return run(rules, players, policies, seed, level, index, bid_policies=bid_policies)


def make_spec(*args: Any, **kwargs: Any) -> Any:
    """:func:`cuarenta_sim.cuatrola.simulation.make_spec`."""
    from .simulation import make_spec as make

    return make(*args, **kwargs)


def run_range(spec: Any, start: int, stop: int) -> Any:
    """:func:`cuarenta_sim.cuatrola.simulation.run_range`."""
    from .simulation import run_range as run

    return run(spec, start, stop)


def frames(spec: Any, output: Any) -> tuple[Any, Any]:
    """:func:`cuarenta_sim.cuatrola.simulation.range_frames`."""
    from .simulation import range_frames

    return range_frames(spec, output)


def aggregate_frames(level: str, hands: Any, games: Any) -> Any:
    """:func:`cuarenta_sim.cuatrola.aggregates.aggregate_frames`."""
    from .aggregates import aggregate_frames as agg

    return agg(level, hands, games)


def aggregates_from_dict(data: Mapping[str, Any]) -> Any:
    """:meth:`cuarenta_sim.cuatrola.aggregates.Aggregates.from_dict`."""
    from .aggregates import Aggregates

    return Aggregates.from_dict(data)


def warmup() -> None:
    """Compile or load the kernels (:func:`cuarenta_sim.cuatrola.engine.batch.warmup`)."""
    from .engine.batch import warmup as warm

    warm()


GAME = Game(
    name="cuatrola",
    title="Cuatrola",
    spec_doc="docs/cuatrola.md",
    engine_version=ENGINE_VERSION,
    player_counts=(4,),
    default_players=4,
    levels=("hand", "game"),
    default_level="hand",
    units={"hand": ("hand", "hands"), "game": ("game", "games")},
    default_rules="ro",
    presets=PRESETS,
    resolve_rules=resolve_rules,
    rules_rows=rules_rows,
    presets_rows=presets_rows,
    default_policies="greedy",
    policy_table=policy_table,
    make_spec=make_spec,
    run_range=run_range,
    frames=frames,
    aggregates_from_dict=aggregates_from_dict,
    aggregate_frames=aggregate_frames,
    summaries=summaries,
    evaluate=evaluate,
    replay=replay,
    warmup=warmup,
    default_n=100_000,
    record_bytes=72,
    studies={"cuatrola-bidding": "cuarenta_sim.cuatrola.bidding_study:cuatrola_bidding_study"},
    options={
        "bid_policies": GameOption(
            name="bid_policies",
            default="threshold",
            flag="--bid-policies",
            help="Bidding policies: one, two (per pair) or four (per seat): never, "
            "threshold(solo=15,cuatrola=18,quintola=22), always(solo|cuatrola|quintola).",
        )
    },
)
