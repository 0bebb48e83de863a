"""Reinforcement-learning interfaces: PettingZoo environments and OpenSpiel games.

Public API
----------
:func:`make_env`
    ``make_env(game="cuarenta", rules="quito", players=2, episode=None, ...)`` returns a
    PettingZoo AEC environment: :class:`CuarentaEnv` or :class:`CuatrolaEnv` (both also
    importable from here; :mod:`cuarenta_sim.rl.pettingzoo_env` documents them).
``import cuarenta_sim.rl.openspiel``
    Registers ``python_cuarenta`` and ``python_cuatrola`` with pyspiel:
    ``pyspiel.load_game("python_cuarenta(rules=quito,players=2)")``.
:mod:`cuarenta_sim.rl.cuarenta_actions`, :mod:`cuarenta_sim.rl.cuarenta_obs`,
:mod:`cuarenta_sim.rl.cuatrola_game`, :mod:`cuarenta_sim.rl.cuatrola_obs`
    The action and observation encodings both interfaces share (plain numpy, no RL package).
:class:`.cuarenta_game.CuarentaGame`, :class:`.cuatrola_game.CuatrolaGame`
    One episode on the reference engine, advanced one decision at a time.
:class:`cuarenta_sim.rl.batched.BatchedCuarenta`
    N Cuarenta games stepped at once by a numba kernel (pgx-style arrays in and out, the
    same action ids as the AEC environment); ``docs/rl_batched.md``.

The RL packages (pettingzoo, gymnasium, open-spiel) come with the ``rl`` extra
(``pip install -e '.[rl]'``). Importing this package does not import them; :func:`make_env`
and :mod:`cuarenta_sim.rl.openspiel` do, and raise ``ModuleNotFoundError`` with that install
hint when they are missing.
"""

from __future__ import annotations

from typing import Any

from ._extra import INSTALL_HINT

#: The games, with their default rules and episode unit.
GAMES: dict[str, dict[str, Any]] = {
    "cuarenta": {"rules": "quito", "episode": "chica", "players": (2, 4)},
    "cuatrola": {"rules": "ro", "episode": "game", "players": (4,)},
}
_OPTIONS = ("win_reward", "point_reward", "illegal_action_penalty", "render_mode")


def make_env(
    game: str = "cuarenta",
    rules: Any = None,
    players: int | None = None,
    episode: str | None = None,
    **options: Any,
) -> Any:
    """Return the PettingZoo AEC environment of a game.

    Parameters
    ----------
    game : str
        ``"cuarenta"`` or ``"cuatrola"``.
    rules : str, dict, RuleSet, CuatrolaRules or None
        A preset or slug; ``None`` takes ``"quito"`` (Cuarenta) or ``"ro"`` (Cuatrola).
    players : int or None
        Cuarenta: 2 (default) or 4; Cuatrola: 4 (the default, the only choice).
    episode : str or None
        Cuarenta: ``"chica"`` (default) or ``"data"``; Cuatrola: ``"game"`` (default) or
        ``"hand"``.
    **options
        ``win_reward`` (1.0), ``point_reward`` (0.0), ``illegal_action_penalty`` (None: an
        illegal action raises ValueError) and ``render_mode`` (None, ``"ansi"``,
        ``"human"``); see :mod:`cuarenta_sim.rl.pettingzoo_env`.

    Returns
    -------
    pettingzoo.AECEnv
        The environment; call ``reset(seed=...)`` first.

    Raises
    ------
    ValueError
        Unknown game, option, rules, players or episode; the message lists what is accepted.
    ModuleNotFoundError
        pettingzoo or gymnasium missing (install the ``rl`` extra).
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(GAMES)}")
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        accepted = ", ".join(("game", "rules", "players", "episode", *_OPTIONS))
        raise ValueError(f"unknown make_env parameter {', '.join(unknown)}; accepted: {accepted}")
    spec = GAMES[game]
    if players is None:
        players = spec["players"][0]
    if isinstance(players, bool) or players not in spec["players"]:
        accepted = " or ".join(str(p) for p in spec["players"])
        raise ValueError(f"players must be {accepted} for {game}, got {players!r}")
    from .pettingzoo_env import CuarentaEnv, CuatrolaEnv

    rules = spec["rules"] if rules is None else rules
    episode = spec["episode"] if episode is None else episode
    if game == "cuarenta":
        return CuarentaEnv(rules, players, episode, **options)
    return CuatrolaEnv(rules, episode, **options)


def __getattr__(name: str) -> Any:
    """Import the environment classes on first use (they need pettingzoo and gymnasium)."""
    if name in ("CuarentaEnv", "CuatrolaEnv"):
        from . import pettingzoo_env

        return getattr(pettingzoo_env, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAMES", "INSTALL_HINT", "CuarentaEnv", "CuatrolaEnv", "make_env"]
