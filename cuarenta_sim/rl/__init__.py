"""Reinforcement-learning interfaces: PettingZoo environments and OpenSpiel games.

Both are thin adapters over the step-level core of any registered game
(:class:`cuarenta_sim.core.Core`, the ``core`` field of :class:`cuarenta_sim.game.Game`):
nothing here names a game, so a game registered with a core gets both (the toy game of
``tests/toy_game`` does).

Public API
----------
:func:`make_env`
    ``make_env(game="cuarenta", rules=None, players=None, episode=None, ...)`` returns the
    PettingZoo AEC environment of a registered game
    (:class:`~cuarenta_sim.rl.pettingzoo_env.CardGameEnv`; ``CuarentaEnv`` and
    ``CuatrolaEnv`` are importable from here too).
``import cuarenta_sim.rl.openspiel``
    Registers ``python_<game>`` with pyspiel for every registered game with a core:
    ``pyspiel.load_game("python_cuarenta(rules=quito,players=2)")``.
:class:`cuarenta_sim.rl.batched.BatchedCuarenta`
    N Cuarenta games stepped at once by a numba kernel (pgx-style arrays in and out, the
    same action ids as the AEC environment); ``docs/rl_batched.md``.

The encodings live with each game (:mod:`cuarenta_sim.cuarenta.actions`,
:mod:`cuarenta_sim.cuarenta.observation`, :mod:`cuarenta_sim.cuatrola.observation`) and so do
the step-level states (:mod:`cuarenta_sim.cuarenta.reference.step`,
:mod:`cuarenta_sim.cuatrola.reference.step`).

The RL packages (pettingzoo, gymnasium, open-spiel) come with the ``rl`` extra
(``pip install -e '.[rl]'``). Importing this package does not import them; :func:`make_env`
and :mod:`cuarenta_sim.rl.openspiel` do, and raise ``ModuleNotFoundError`` with that install
hint when they are missing.
"""

from __future__ import annotations

from typing import Any

from ..game import DEFAULT_GAME
from ._extra import INSTALL_HINT

_OPTIONS = ("win_reward", "point_reward", "illegal_action_penalty", "render_mode")


def make_env(
    game: str = DEFAULT_GAME,
    rules: Any = None,
    players: int | None = None,
    episode: str | None = None,
    **options: Any,
) -> Any:
    """Return the PettingZoo AEC environment of a registered game.

    Parameters
    ----------
    game : str
        A registered game with a core: ``"cuarenta"`` (the default,
        :data:`cuarenta_sim.game.DEFAULT_GAME`), ``"cuatrola"``, ...
    rules : rule set, str, dict or None
        A preset or slug; ``None`` takes the game's default (``"quito"``, ``"ro"``).
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
    from ..core import games_with_core

    names = games_with_core()
    if game not in names:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(names)}")
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        accepted = ", ".join(("game", "rules", "players", "episode", *_OPTIONS))
        raise ValueError(f"unknown make_env parameter {', '.join(unknown)}; accepted: {accepted}")
    from .pettingzoo_env import CardGameEnv

    return CardGameEnv(game, rules, players, episode, **options)


def __getattr__(name: str) -> Any:
    """Import the environment classes on first use (they need pettingzoo and gymnasium)."""
    if name == "CardGameEnv" or name.endswith("Env"):
        from . import pettingzoo_env

        return getattr(pettingzoo_env, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["INSTALL_HINT", "CardGameEnv", "CuarentaEnv", "CuatrolaEnv", "make_env"]
