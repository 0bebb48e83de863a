"""Cuarenta's :class:`cuarenta_sim.game.Game`: what the shared layer may call.

Built from the game's own modules; the heavy ones (numba engine, reference engine, judge,
summaries) are imported when first called, so registering the game stays cheap (the
``presets`` or ``scenario`` commands never load the kernels).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Game, LazyCall, pipeline_hooks
from ..limits import game_index
from ..switches import presets_table
from .rules import PRESETS, SWITCHES, resolve_rules

#: Bumped whenever simulated behaviour changes (docs/engine_contract.md).
ENGINE_VERSION = 1


def presets_rows() -> tuple[list[str], list[list[str]]]:
    """The presets table: header ``["switch", preset...]``, one row per switch (spec S)."""
    return presets_table(PRESETS, SWITCHES)


def policy_table() -> tuple[list[str], list[list[str]]]:
    """The play policies: name, stochastic, parameters with defaults, description."""
    from .policies import POLICIES

    rows = []
    for name, info in POLICIES.items():
        params = ", ".join(f"{p.name}={p.format(p.default)}" for p in info.params)
        rows.append([name, "yes" if info.stochastic else "no", params or "-", info.description])
    return ["policy", "stochastic", "parameters (defaults)", "description"], rows


def summaries(run: Any, confidence: float = 0.95) -> dict[str, Any]:
    """Headline estimate tables of a run: ``{"Per data (hand)": ..., "Per chica": ...}``.

    Parameters
    ----------
    run : Results or Aggregates
        A Cuarenta run (frames or counters; the tables agree to rounding).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict of str to DataFrame
        :func:`cuarenta_sim.cuarenta.summaries.summarize_hands` when the run kept hands, and at
        levels chica / mesa :func:`~cuarenta_sim.cuarenta.summaries.summarize_games`.
    """
    from .summaries import summarize_games, summarize_hands

    level = run.provenance.get("level", "data")
    out: dict[str, Any] = {}
    counters = not hasattr(run.hands, "columns") and not hasattr(run.games, "columns")
    if run.hands is not None:
        out["Per data (hand)"] = (
            run.summarize_hands(confidence) if counters else summarize_hands(run.hands, confidence)
        )
    if level != "data" and run.games is not None:
        out[f"Per {level}"] = (
            run.summarize_games(confidence)
            if counters
            else summarize_games(run.games, level, confidence)
        )
    return out


def evaluate(obj: object) -> dict[str, Any]:
    """The Cuarenta scenario judge (:func:`cuarenta_sim.cuarenta.scenario.evaluate`), after
    dropping the optional ``"game": "cuarenta"`` field the judge itself does not take."""
    from .scenario import evaluate as judge

    wrapped = isinstance(obj, dict) and "scenario" in obj and "kind" not in obj
    inner = obj["scenario"] if wrapped else obj  # type: ignore[index]
    if isinstance(inner, dict) and "game" in inner:
        inner = {k: v for k, v in inner.items() if k != "game"}
        obj = {**obj, "scenario": inner} if wrapped else inner  # type: ignore[dict-item]
    return judge(obj)


def replay(
    rules: Any,
    players: int,
    policies: str | Sequence[str],
    seed: int,
    level: str,
    index: int,
    record: str | None = None,
) -> str:
    """Play data, chica or mesa ``index`` of a seeded run with the reference engine and return
    its play-by-play text (:func:`cuarenta_sim.cuarenta.reference.replay.format_game`): the
    same cards and plays as record ``index`` of ``simulate`` with the same arguments.

    ``record``, when given, is a path where the game record of this data or chica is written
    atomically (``docs/game_record.md``; :func:`.game_record.record_from_log`).

    Raises
    ------
    ValueError
        Bad rules, players, policies, seed, level or index; a ``record`` of a mesa.
    """
    from .reference import play_game
    from .reference.replay import format_game

    index = game_index(index)
    if isinstance(policies, str):
        from .policies import split_policy_list

        policies = split_policy_list(policies)
    log = play_game(resolve_rules(rules), players, list(policies), seed, level, index)
    if record is not None:
        from .game_record import record_from_log, write_record

        write_record(record_from_log(log), record)
    return format_game(log)


GAME = Game(
    name="cuarenta",
    title="Cuarenta",
    spec_doc="docs/cuarenta.md",
    engine_version=ENGINE_VERSION,
    player_counts=(2, 4),
    default_players=2,
    levels=("data", "chica", "mesa"),
    default_level="data",
    units={"data": ("data", "datas"), "chica": ("chica", "chicas"), "mesa": ("mesa", "mesas")},
    default_rules="quito",
    presets=PRESETS,
    resolve_rules=resolve_rules,
    rules_rows=LazyCall("cuarenta_sim.cuarenta.summaries", "rules_rows"),
    presets_rows=presets_rows,
    default_policies="greedy",
    policy_table=policy_table,
    summaries=summaries,
    evaluate=evaluate,
    replay=replay,
    warmup=LazyCall("cuarenta_sim.cuarenta.engine", "warmup"),
    **pipeline_hooks(__package__),
    default_n=1_000_000,
    record_bytes=64,
    core=LazyCall("cuarenta_sim.cuarenta.core", "get_core"),
    tournament_module="cuarenta_sim.cuarenta.strategy_play",
    studies={
        "quito-vs-cuenca": "cuarenta_sim.cuarenta.studies.quito_vs_cuenca:quito_vs_cuenca",
        "odds": "cuarenta_sim.cuarenta.studies.odds_report:odds_study",
        "sensitivity": "cuarenta_sim.cuarenta.studies.sensitivity:sensitivity_study",
        "strategies": "cuarenta_sim.cuarenta.strategies:strategies_study",
        "players-guide": "cuarenta_sim.cuarenta.guide:players_guide",
    },
)
