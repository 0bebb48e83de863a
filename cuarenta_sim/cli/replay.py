"""``cuarenta-sim replay``: one simulated hand or game, play by play, from the reference engine.

The same seed, index and settings deal the same cards as record ``index`` of ``simulate``.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from .games import game_options, split_list, with_game_options
from .options import (
    OUTPUT,
    GameOpt,
    IndexOpt,
    LevelOpt,
    PlayersOpt,
    PoliciesOpt,
    RulesOpt,
    SeedOpt,
)


@with_game_options
def replay(
    game: GameOpt = "cuarenta",
    rules: RulesOpt = None,
    players: PlayersOpt = None,
    policies: PoliciesOpt = None,
    seed: SeedOpt = 0,
    level: LevelOpt = None,
    index: IndexOpt = 0,
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            help="Also write the game record (JSON, docs/game_record.md) of the data or chica "
            "replayed to this file; 'cuarenta-sim analyse FILE' reviews it.",
            rich_help_panel=OUTPUT,
        ),
    ] = None,
    **options: Any,
) -> None:
    """Print ``Game.replay`` of one hand or game of a seeded run.

    Parameters
    ----------
    game : str
        A registered game.
    rules, players, policies, level : optional
        As for ``simulate``; None takes the game's default.
    seed : int
        Non-negative seed, as given to ``simulate``.
    index : int
        Hand (hand level) or game index within the run, 0 to ``2**63 - 1``
        (:mod:`cuarenta_sim.limits`).
    record : str, optional
        Path of the game record to write (games whose replay takes ``record``; levels data
        and chica).
    **options
        The game's extra options (e.g. Cuatrola's ``bid_policies``).

    Raises
    ------
    ValueError
        Any bad option (the game's replay validates them).
    """
    from ..game import get_game
    from ..limits import game_index

    spec = get_game(game)
    index = game_index(index, "--index")
    extra = game_options(spec, options)
    if record is not None:
        if "record" not in inspect.signature(spec.replay).parameters:
            raise ValueError(f"--record: {spec.title} replays cannot be written as game records")
        extra["record"] = record
    if seed < 0:
        # The reference engines take any integer; a negative seed would replay nothing
        # simulate can produce.
        raise ValueError(f"seed must be a non-negative whole number, got {seed}")
    text = spec.replay(
        spec.resolve_rules(rules or spec.default_rules),
        spec.default_players if players is None else players,
        split_list(policies or spec.default_policies),
        seed,
        level or spec.default_level,
        index,
        **extra,
    )
    typer.echo(text)


COMMANDS = [
    (
        "replay",
        replay,
        "Print one simulated hand or game play by play with the reference engine (same seed "
        "and index => same cards as simulate).",
    )
]
