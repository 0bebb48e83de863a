"""The ``cuarenta-sim`` command line (also ``python -m cuarenta_sim``), one module per command
group.

Modules
-------
app
    The Typer application, :func:`main` (the console script), exit statuses and signals.
options
    Every option, declared once, and the help panels (Basic, Output, Scale-out).
games
    Each game's extra options (``Game.options``) as command-line options.
output
    Output location checks, the reproduce line, progress of step-wise runs, printing helpers.
simulate
    ``simulate``: a Monte Carlo run of any game, printed, saved and reported.
scenario
    ``scenario``: JSON scenarios of either game.
replay
    ``replay``: one simulated hand or game, play by play.
rules
    ``presets``, ``rules``, ``policies``.
report
    ``report``: a study's report directory.
tournament
    ``tournament``: round-robin duplicate tournaments.

Every command takes ``--game`` and reads the game's rules, levels, policies and defaults from
the registry (:func:`cuarenta_sim.game.get_game`); the library validates (``ValueError``) and
:func:`main` prints one line and exits 2.
"""

from .app import app, main

__all__ = ["app", "main"]
