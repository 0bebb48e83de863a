"""Outside opponents: our policies against OpenSpiel's own bots, in duplicate chicas.

A duplicate match between players ``a`` and ``b`` plays chica ``g`` twice through the OpenSpiel
game ``python_cuarenta`` (:mod:`cuarenta_sim.rl.openspiel`): once with ``a`` on side 0 and
once with ``a`` on side 1. The chance nodes are fed from the project's random streams, keyed
by ``(seed, chica)`` exactly as the reference engine draws them (first dealer from
``STREAM_GAME``, the deck of data ``d`` from ``shuffled_deck_py(root, g, d)``, contract
section 2), so both seatings see the same deals and the luck of the cards cancels. The unit of
every interval is the duplicate pair (:func:`cuarenta_sim.tournament.match_summary`).

Players (tournament-style specs, :func:`parse_player`):

* **Our policies**: any spec of :func:`cuarenta_sim.cuarenta.policies.parse_policy`
  (``greedy``, ``heuristic(...)``, ``pimc(samples=8)``, ...). A seat decides from its own
  observation only: :func:`cuarenta_sim.cuarenta.reference.game.observe` builds what the seat
  may see from the OpenSpiel state, :func:`cuarenta_sim.cuarenta.engine.decide.decide` (the numba
  kernel's decision code, which receives nothing but that observation) picks a play, and
  :data:`cuarenta_sim.cuarenta.actions.ACTION_OF` turns it into the OpenSpiel action.
  ``random`` (which ``decide`` refuses) plays the reference engine's random policy on the
  seat's policy stream. A searching policy gets a fresh search state per decision: the key is
  the next draw of the seat's search stream of the data (``STREAM_SEARCH + seat``, keyed by
  ``(seed, chica, data)``), seeded as every stream is.
* **openspiel-ismcts(...)**: :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` with
  :class:`open_spiel.python.algorithms.mcts.RandomRolloutEvaluator` (settings
  :class:`IsmctsSettings`). Its worlds are the game's own ``resample_from_infostate`` (the
  Cuarenta core's resample: the hidden hands drawn uniformly among the deals consistent with
  the seat's information state: own hand, every play of the data, the rondas announced and
  not announced, R4), given to the bot through :func:`resample_world` so that its draws come
  from the seat's search stream.
* **openspiel-random**: :class:`open_spiel.python.bots.uniform_random.UniformRandomBot`.

The bots' randomness (tree policy, rollouts, resampling, the final choice) comes from
``numpy.random.RandomState`` generators seeded from the seat's search stream of the chica, so
a match is reproducible from its seed.

The module holds the match (:func:`play_chica`, :func:`play_outside_duplicate`,
:func:`tournament_play`); the player specs are :mod:`cuarenta_sim.rl.outside_players`, the
seats :mod:`cuarenta_sim.rl.outside_agents` (both re-exported here).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..rng import STREAM_GAME, PyRng, root_from_seed, shuffled_deck_py
from ..tournament import PAIR_COLUMNS, match_summary
from .outside_agents import make_agent, pyspiel, resample_world
from .outside_players import BOTS, IsmctsSettings, PlayerSpec, parse_player


@dataclass
class ChicaResult:
    """One chica of an outside match.

    Attributes
    ----------
    winner : int
        Winning side, or -1 for a chica stopped without a winner (contract 5).
    scores : tuple of int
        Final scores of sides 0 and 1 (points scored in the chica, R9.2).
    datas : int
        Datas played.
    decisions : list of int
        Decisions taken by each side (one per play, R5).
    seconds : list of float
        Wall time each side spent deciding.
    actions : list of int
        Every play, as OpenSpiel action ids, in order.
    """

    winner: int
    scores: tuple[int, int]
    datas: int
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    actions: list[int] = field(default_factory=list)


def play_chica(
    sides: Sequence[str | PlayerSpec],
    *,
    rules: str = "quito",
    players: int = 2,
    root: int,
    chica: int,
) -> ChicaResult:
    """Play one chica of ``python_cuarenta`` with the given player on each side.

    Parameters
    ----------
    sides : sequence of 2 specs
        The player of side 0 and of side 1 (:func:`parse_player`); with 4 players each seat
        of a side gets its own copy (R2.1: seat ``s`` plays for side ``s % 2``).
    rules : str
        Preset or slug (section S).
    players : int
        2 or 4.
    root : int
        Root of the random streams (``cuarenta_sim.rng.root_from_seed``).
    chica : int
        The chica index: first dealer from ``(root, chica, 0, STREAM_GAME)``, the deck of data
        ``d`` from ``shuffled_deck_py(root, chica, d)``, the seats' streams keyed by it.

    Returns
    -------
    ChicaResult

    Raises
    ------
    ValueError
        Bad spec, rules or players.
    """
    specs = [s if isinstance(s, PlayerSpec) else parse_player(s) for s in sides]
    if len(specs) != 2:
        raise ValueError(f"give one player per side (2), got {len(specs)}")
    params = {"rules": rules, "players": players}
    game = pyspiel.load_game("python_cuarenta", params)
    state = game.new_initial_state()
    agents = [make_agent(specs[s % 2], params, root, chica, s) for s in range(players)]
    result = ChicaResult(winner=-1, scores=(0, 0), datas=0)
    core = state.core
    while not state.is_terminal():
        if state.is_chance_node():
            if core.dealer is None:
                # R3.4, contract 2: the first dealer from the chica's game stream.
                action = PyRng.for_stream(root, chica, 0, STREAM_GAME).randbelow(players)
            else:
                # The deck of this data, dealt by position (contract section 2).
                deck = shuffled_deck_py(root, chica, core.data)
                action = deck[len(core.state.deck)]
        else:
            seat = state.current_player()
            t = time.perf_counter()
            action = agents[seat].act(state)
            result.seconds[seat % 2] += time.perf_counter() - t
            result.decisions[seat % 2] += 1
            result.actions.append(action)
        state.apply_action(action)
        for agent in agents:
            agent.inform(action)
    winner = core.winner
    result.winner = -1 if winner is None else int(winner)
    result.scores = (int(core.board.scores[0]), int(core.board.scores[1]))
    result.datas = core.data + 1
    return result


@dataclass
class OutsideMatch:
    """A duplicate match between two players of :func:`parse_player`.

    Attributes
    ----------
    a, b : str
        Canonical specs.
    pairs : DataFrame
        One row per chica index, columns :data:`cuarenta_sim.tournament.PAIR_COLUMNS`
        (``a_wins`` 0 to 2, a chica without a winner counting half; points over both
        seatings; datas of both).
    decisions : dict
        Decisions taken by ``a`` and by ``b`` (keys ``"a"``, ``"b"``).
    seconds : dict
        Wall time spent deciding by ``a`` and by ``b``.
    wall : float
        Wall time of the match.
    """

    a: str
    b: str
    pairs: pd.DataFrame
    decisions: dict[str, int]
    seconds: dict[str, float]
    wall: float

    def summary(self, confidence: float = 0.95) -> dict[str, Any]:
        """:func:`cuarenta_sim.tournament.match_summary` plus the decision rates.

        Returns
        -------
        dict
            ``a``, ``b``, the match summary (``pairs``, ``games``, ``win_rate`` with the
            clustered Wilson ``lower`` / ``upper``, ``points_per_data`` with ``ppd_lower`` /
            ``ppd_upper``, ...), ``a_decisions_per_s``, ``b_decisions_per_s`` (decisions per
            second of deciding time, float) and ``wall_seconds``.
        """
        out: dict[str, Any] = {"a": self.a, "b": self.b, **match_summary(self.pairs, confidence)}
        for k in ("a", "b"):
            secs = self.seconds[k]
            out[f"{k}_decisions"] = self.decisions[k]
            out[f"{k}_decisions_per_s"] = self.decisions[k] / secs if secs > 0 else math.nan
        out["wall_seconds"] = self.wall
        return out


def play_outside_duplicate(
    a: str,
    b: str,
    *,
    rules: str = "quito",
    players: int = 2,
    n: int = 10,
    seed: int = 0,
    first: int = 0,
    progress: Callable[[str], None] | None = None,
) -> OutsideMatch:
    """Play ``n`` duplicate pairs of chicas between players ``a`` and ``b`` through OpenSpiel.

    Chica ``g`` (``first <= g < first + n``) is played with ``a`` on side 0, then with ``a`` on
    side 1, on the same deals (:func:`play_chica` with the same ``root`` and index). Every
    pairing of a benchmark on the same seed sees the same decks.

    Parameters
    ----------
    a, b : str
        Player specs (:func:`parse_player`).
    rules : str
        Preset or slug.
    players : int
        2 or 4.
    n : int
        Duplicate pairs (chicas per seating), > 0.
    seed : int
        Seed of the random streams.
    first : int
        First chica index (to split a match into chunks).
    progress : callable, optional
        Receives one line per duplicate pair.

    Returns
    -------
    OutsideMatch

    Raises
    ------
    ValueError
        Bad spec, rules, players, ``n`` or ``seed``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number >= 1 (duplicate pairs), got {n!r}")
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise ValueError(f"first must be a non-negative whole number, got {first!r}")
    root, _ = root_from_seed(seed)
    pa, pb = parse_player(a), parse_player(b)
    t0 = time.perf_counter()
    rows = []
    decisions = {"a": 0, "b": 0}
    seconds = {"a": 0.0, "b": 0.0}
    for g in range(first, first + n):
        a_wins = 0.0
        pts = [0, 0]
        datas = 0
        for a_side in (0, 1):
            sides = (pa, pb) if a_side == 0 else (pb, pa)
            r = play_chica(sides, rules=rules, players=players, root=root, chica=g)
            a_wins += 0.5 if r.winner < 0 else float(r.winner == a_side)
            pts[0] += r.scores[a_side]
            pts[1] += r.scores[1 - a_side]
            datas += r.datas
            decisions["a"] += r.decisions[a_side]
            decisions["b"] += r.decisions[1 - a_side]
            seconds["a"] += r.seconds[a_side]
            seconds["b"] += r.seconds[1 - a_side]
        rows.append((g, a_wins, 2, pts[0], pts[1], datas))
        if progress is not None:
            progress(
                f"{pa.canonical} vs {pb.canonical}: chica {g}: {a_wins:g}/2, points "
                f"{pts[0]}-{pts[1]} ({time.perf_counter() - t0:.1f} s)"
            )
    pairs = pd.DataFrame(rows, columns=list(PAIR_COLUMNS)).astype(
        {
            "game": np.int64,
            "a_wins": np.float64,
            "games": np.int64,
            "a_points": np.int64,
            "b_points": np.int64,
            "datas": np.int64,
        }
    )
    return OutsideMatch(
        pa.canonical, pb.canonical, pairs, decisions, seconds, time.perf_counter() - t0
    )


def tournament_play(
    *, rules: str = "quito", players: int = 2, seed: int = 0
) -> Callable[[str, str, str, int], pd.DataFrame]:
    """Return a ``play(a, b, level, n)`` for :func:`cuarenta_sim.tournament.run_tournament`.

    With it a round-robin tournament takes OpenSpiel's bots as players next to our policies
    (``("greedy", "pimc(samples=8)", "openspiel-ismcts(simulations=50)", "openspiel-random")``),
    every match a :func:`play_outside_duplicate` on the same seed (same decks).

    Parameters
    ----------
    rules : str
        Preset or slug.
    players : int
        2 or 4.
    seed : int
        Seed of every match.

    Returns
    -------
    callable
        ``play(a, b, level, n) -> DataFrame`` with :data:`cuarenta_sim.tournament.PAIR_COLUMNS`;
        it raises ``ValueError`` for a level other than ``chica`` (the OpenSpiel game plays
        chicas, not mesas).
    """

    def play(a: str, b: str, level: str, n: int) -> pd.DataFrame:
        if level != "chica":
            raise ValueError(
                f"outside matches are played at level chica only, got {level!r}; set mesas=0"
            )
        return play_outside_duplicate(a, b, rules=rules, players=players, n=n, seed=seed).pairs

    return play


__all__ = [
    "BOTS",
    "ChicaResult",
    "IsmctsSettings",
    "OutsideMatch",
    "PlayerSpec",
    "parse_player",
    "play_chica",
    "play_outside_duplicate",
    "resample_world",
    "tournament_play",
]
