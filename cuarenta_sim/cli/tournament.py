"""``cuarenta-sim tournament``: a round-robin duplicate tournament between policies."""

from __future__ import annotations

import itertools

import typer

from .games import split_list
from .options import (
    CompetitorsOpt,
    ConfidenceOpt,
    ForceOpt,
    GameOpt,
    PairChicasOpt,
    PairMesasOpt,
    PlayersOpt,
    ProgressOpt,
    RulesOpt,
    SeedOpt,
    ThreadsOpt,
    TournamentOutOpt,
)
from .output import (
    check_directory,
    echo,
    echo_command,
    hold_outputs,
    reproduce_line,
    step_progress,
)

FILES = ("matches.csv", "ratings.csv", "provenance.json")


def tournament(
    ctx: typer.Context,
    game: GameOpt = "cuarenta",
    policies: CompetitorsOpt = "random,greedy,heuristic,pimc",
    rules: RulesOpt = None,
    players: PlayersOpt = None,
    chicas: PairChicasOpt = 20_000,
    mesas: PairMesasOpt = 0,
    seed: SeedOpt = 0,
    confidence: ConfidenceOpt = 0.95,
    threads: ThreadsOpt = None,
    out: TournamentOutOpt = None,
    force: ForceOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Play every pair of ``policies`` in duplicate (:mod:`cuarenta_sim.tournament`).

    Prints the matches (win rates with clustered Wilson intervals, points per hand) and
    Bradley-Terry ratings with bootstrap intervals; with ``--out`` also writes
    ``matches.csv``, ``ratings.csv`` and ``provenance.json`` atomically.

    Parameters
    ----------
    game : str
        A registered game with a ``tournament_module`` (:class:`cuarenta_sim.game.Game`).
    policies : str
        Comma-separated policy specs, commas inside parentheses kept.
    rules : str or None
        Preset or slug; None: the game's default.
    players : int or None
        Number of players; None: the game's default.
    chicas, mesas : int
        Games per pair at each level (even; mesas 0 skips the level).
    seed : int
        Seed of every match.
    confidence : float
        Two-sided confidence level.
    threads : int or None
        numba threads.
    out : Path or None
        Output directory.
    force : bool
        Overwrite existing output files.
    progress : bool
        Progress on stderr, one step per match.

    Raises
    ------
    ValueError
        Any bad option (checked by the library before the first game) or an unwritable
        ``--out``.
    OSError
        When an output file cannot be written (no partial file is left).
    """
    import cuarenta_sim

    from ..game import get_game
    from ..io import write_json_atomic, write_text_atomic
    from ..outputs import staged
    from ..tournament import TournamentSettings, game_tournament

    spec = get_game(game)
    library = game_tournament(spec.name)
    if out is not None:
        check_directory(out, "--out", files=FILES, force=force)
        # One run per output folder for the whole run (a second is refused at start).
        ctx.with_resource(hold_outputs([out / name for name in FILES], None, None))
    settings = TournamentSettings(
        policies=split_list(policies) or (),
        rules=rules or spec.default_rules,
        players=spec.default_players if players is None else players,
        chicas=chicas,
        mesas=mesas,
        seed=seed,
        confidence=confidence,
        threads=threads,
    )
    library.check_tournament(settings)
    matches = len(list(itertools.combinations(settings.policies, 2))) * (2 if mesas else 1)
    say, close = step_progress(matches, "matches", progress, "tournament")
    try:
        result = library.tournament(settings, say)
    finally:
        close()
    typer.echo(library.tournament_text(result))
    command = reproduce_line(
        ctx,
        {"rules": settings.rules, "players": settings.players},
        always=("game", "policies", "rules", "players", "chicas", "mesas", "seed"),
    )
    echo(f"\n{result.seconds:,.1f} s")
    echo_command("reproduce: ", command)
    if out is not None:
        files = [out / name for name in FILES]
        identity = library.tournament_identity(settings)
        # The three files commit as one: all appear, or none (outputs.staged).
        with staged(files) as tmp:
            write_text_atomic(tmp[0], result.matches.to_csv(index=False))
            write_text_atomic(tmp[1], result.ratings.to_csv(index=False))
            write_json_atomic(
                tmp[2],
                {
                    "package_version": cuarenta_sim.__version__,
                    "engine_version": spec.engine_version,
                    "game": spec.name,
                    "command": command,
                    "policies": identity["policies"],
                    "policies_as_given": list(settings.policies),
                    "rules": identity["rules"],
                    "players": settings.players,
                    "chicas_per_pair": chicas,
                    "mesas_per_pair": mesas,
                    "seed": seed,
                    "confidence": confidence,
                    "wall_time_s": round(result.seconds, 2),
                },
            )
        echo(f"wrote {', '.join(str(f) for f in files)}")


COMMANDS = [
    (
        "tournament",
        tournament,
        "Round-robin duplicate tournament between policies (each deck played twice with the "
        "seats swapped), with Bradley-Terry ratings.",
    )
]
