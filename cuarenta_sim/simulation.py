"""One entry point for both games: :func:`simulate` dispatches on ``game``.

* ``game="cuarenta"`` (default): :func:`cuarenta_sim.cuarenta.simulation.simulate`
  (``rules, players, policies, n, level, seed, threads, chunk_size, progress, keep_hands,
  backend, client, workers, output, dataset``).
* ``game="cuatrola"``: :func:`cuarenta_sim.cuatrola.simulation.simulate_cuatrola`
  (``rules, play_policies, bid_policies, n, level, seed, threads, chunk_size, progress,
  keep_hands``).

Both derive every random draw from (seed, game or hand index, stream) with
:mod:`cuarenta_sim.rng`, so results are identical whatever the threads or chunk size, and both
return :class:`cuarenta_sim.results.Results` (tidy ``hands`` and ``games`` frames and a
provenance dict naming the game).
"""

from __future__ import annotations

import inspect
from typing import Any

#: Games :func:`simulate` plays.
GAMES = ("cuarenta", "cuatrola")


def simulate(*args: Any, game: str = "cuarenta", **kwargs: Any) -> Any:
    """Simulate ``game``; the other arguments are those of that game's simulator.

    Parameters
    ----------
    *args, **kwargs
        Passed to :func:`cuarenta_sim.cuarenta.simulation.simulate` (Cuarenta) or
        :func:`cuarenta_sim.cuatrola.simulation.simulate_cuatrola` (Cuatrola); see the
        module docstring for their parameters. For Cuatrola ``policies=`` is accepted as
        ``play_policies=`` (as ``--policies`` on the command line).
    game : str
        ``"cuarenta"`` or ``"cuatrola"`` (:data:`GAMES`).

    Returns
    -------
    Results or Aggregates
        What the game's simulator returns: :class:`cuarenta_sim.results.Results` (and, for
        Cuarenta with ``output="aggregates"``, :class:`cuarenta_sim.cuarenta.aggregates.
        Aggregates`).

    Raises
    ------
    ValueError
        An unknown game (the message lists :data:`GAMES`), an argument the game's simulator
        does not take (the message lists those it takes), or any error of the simulator (bad
        rules, policies, counts...).
    """
    if game == "cuarenta":
        from .cuarenta.simulation import simulate as simulator
    elif game == "cuatrola":
        from .cuatrola.simulation import simulate_cuatrola as simulator

        if "policies" in kwargs:
            # The command line's --policies names the play policies of either game.
            if "play_policies" in kwargs:
                raise ValueError("give policies= or play_policies= for Cuatrola, not both")
            kwargs["play_policies"] = kwargs.pop("policies")
    else:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
    try:
        inspect.signature(simulator).bind(*args, **kwargs)
    except TypeError as err:
        accepted = ", ".join(inspect.signature(simulator).parameters)
        raise ValueError(f"simulate(game={game!r}): {err}; accepted arguments: {accepted}") from err
    return simulator(*args, **kwargs)
