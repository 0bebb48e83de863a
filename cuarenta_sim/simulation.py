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
        module docstring for their parameters.
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
        An unknown game (the message lists :data:`GAMES`), or any error of the game's
        simulator (bad rules, policies, counts...).
    """
    if game == "cuarenta":
        from .cuarenta.simulation import simulate as simulate_cuarenta

        return simulate_cuarenta(*args, **kwargs)
    if game == "cuatrola":
        from .cuatrola.simulation import simulate_cuatrola

        return simulate_cuatrola(*args, **kwargs)
    raise ValueError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
