"""Cuatrola's :class:`cuarenta_sim.game.Game`: what the shared layer may call.

Built from the game's own modules; the heavy ones (numba engine, reference engine, judge,
summaries) are imported when first called, so registering the game stays cheap.
"""

from __future__ import annotations

from typing import Any

from ..game import Game, GameOption, LazyCall, pipeline_hooks
from ..switches import format_value, presets_table
from .rules import PRESETS, SWITCHES, CuatrolaRules, resolve_rules

#: Version of the Cuatrola engine contract (bump on any change of play or records).
ENGINE_VERSION = 1


def presets_rows() -> tuple[list[str], list[list[str]]]:
    """The presets table: header ``["switch", preset...]``, one row per switch."""
    return presets_table(PRESETS, SWITCHES)


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
    summaries=summaries,
    evaluate=LazyCall("cuarenta_sim.cuatrola.scenario", "evaluate"),
    replay=LazyCall("cuarenta_sim.cuatrola.reference.replay", "replay"),
    warmup=LazyCall("cuarenta_sim.cuatrola.engine.batch", "warmup"),
    **pipeline_hooks(__package__),
    default_n=100_000,
    record_bytes=72,
    core=LazyCall("cuarenta_sim.cuatrola.core", "get_core"),
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
