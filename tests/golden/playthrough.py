"""OpenSpiel-style golden playthroughs of the project's OpenSpiel games (one per game and preset).

A playthrough plays one episode of a registered game (``cuarenta_sim.rl.openspiel``) with
uniformly random actions, chance included, drawn from ``numpy.random.RandomState(seed)`` as
OpenSpiel's ``generate_playthrough`` does, and writes every state: the state text, whether it
is terminal or chance, the current player, every seat's observation string, the
information-state string of the seat to act (of every seat at the end), the sha256 of every
seat's two tensors (first 16 hex digits), the rewards and returns, the
legal actions (ids and names; at a chance node the outcomes with their probabilities) and the
action applied.

Why not ``open_spiel.python.algorithms.generate_playthrough`` itself: it also builds
public-only and private-only (factored) observers, which these games refuse (they observe one
seat's view only), it prints the full detail of only a few states (so most states lose their
observations), and it prints every tensor in full (thousands of values per seat and state).
This module keeps its layout (``game:`` line, ``# State k`` blocks, ``# Apply action`` /
``action:`` lines) and its value formats (floats to 6 significant digits, escaped strings), so
the files read like OpenSpiel's playthroughs; the formatters are copied here (a few lines)
rather than imported, since they are private to OpenSpiel and may change with its version.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import cuarenta_sim.rl.openspiel  # noqa: F401  (registers python_cuarenta, python_cuatrola)

DIRECTORY = Path(__file__).resolve().parent / "playthroughs"

#: File stem -> (game string, seed): one per game and preset; Cuarenta alternates 2 and 4
#: players; one data (Cuarenta) or hand (Cuatrola) per episode keeps the files short.
PLAYTHROUGHS: dict[str, tuple[str, int]] = {
    "cuarenta_quito": ("python_cuarenta(rules=quito,players=2,episode=data)", 1),
    "cuarenta_cuenca": ("python_cuarenta(rules=cuenca,players=4,episode=data)", 2),
    "cuarenta_pagat": ("python_cuarenta(rules=pagat,players=2,episode=data)", 3),
    "cuarenta_quito_torneo": ("python_cuarenta(rules=quito_torneo,players=4,episode=data)", 4),
    "cuatrola_ro": ("python_cuatrola(rules=ro,episode=hand)", 5),
    "cuatrola_online": ("python_cuatrola(rules=online,episode=hand)", 6),
}


def _escape(text: str) -> str:
    """The text on one line, backslashes and newlines escaped (OpenSpiel's format)."""
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _float(x: float) -> str:
    return f"{x:.6g}"


def _floats(values: list[float]) -> str:
    return "[" + ", ".join(_float(x) for x in values) + "]"


def _outcomes(outcomes: list[tuple[int, float]]) -> str:
    return "[" + ", ".join(f"({o},{_float(p)})" for o, p in outcomes) + "]"


def _params(params: dict[str, object]) -> str:
    return "{" + ",".join(f"{k}={_escape(str(v))}" for k, v in sorted(params.items())) + "}"


def _shapes(d: dict[str, np.ndarray]) -> str:
    if len(d) == 1:
        return str(list(d[min(d)].shape))
    return ", ".join(f"{k}: {list(v.shape)}" for k, v in d.items())


def _digest(tensor: np.ndarray) -> str:
    a = np.ascontiguousarray(tensor, dtype="<f4")
    return hashlib.sha256(a.tobytes()).hexdigest()[:16]


def _header(game: pyspiel.Game, info: object, obs: object) -> list[str]:
    t = game.get_type()
    lines = [
        "",
        f"GameType.chance_mode = {t.chance_mode}",
        f"GameType.dynamics = {t.dynamics}",
        f"GameType.information = {t.information}",
        f'GameType.long_name = "{t.long_name}"',
        f"GameType.max_num_players = {t.max_num_players}",
        f"GameType.min_num_players = {t.min_num_players}",
        "GameType.parameter_specification = ["
        + ", ".join(f'"{p}"' for p in sorted(t.parameter_specification))
        + "]",
        f"GameType.reward_model = {t.reward_model}",
        f'GameType.short_name = "{t.short_name}"',
        f"GameType.utility = {t.utility}",
        "",
        f"NumDistinctActions() = {game.num_distinct_actions()}",
        f"MaxChanceOutcomes() = {game.max_chance_outcomes()}",
        f"GetParameters() = {_params(game.get_parameters())}",
        f"NumPlayers() = {game.num_players()}",
        f"MinUtility() = {game.min_utility():.5}",
        f"MaxUtility() = {game.max_utility():.5}",
        f"UtilitySum() = {game.utility_sum()}",
        f"InformationStateTensorShape() = {_shapes(info.dict)}",  # type: ignore[attr-defined]
        f"InformationStateTensorSize() = {len(info.tensor)}",  # type: ignore[attr-defined]
        f"ObservationTensorShape() = {_shapes(obs.dict)}",  # type: ignore[attr-defined]
        f"ObservationTensorSize() = {len(obs.tensor)}",  # type: ignore[attr-defined]
        f"MaxGameLength() = {game.max_game_length()}",
        f'ToString() = "{game}"',
    ]
    return lines


def playthrough(game_string: str, seed: int) -> str:
    """Return the playthrough text of one random episode of ``game_string`` (module doc).

    Raises
    ------
    pyspiel.SpielError, ValueError
        Unknown game or bad parameters.
    """
    game = pyspiel.load_game(game_string)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs = make_observation(game)
    lines = [f"game: {game_string}", f"seed: {seed}", *_header(game, info, obs)]
    players = range(game.num_players())
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    k = 0
    while True:
        lines += ["", f"# State {k}"]
        lines += [f"# {line}".rstrip() for line in str(state).splitlines()]
        lines.append(f"IsTerminal() = {state.is_terminal()}")
        lines.append(f"IsChanceNode() = {state.is_chance_node()}")
        lines.append(f"CurrentPlayer() = {state.current_player()}")
        # The information state (perfect recall: the whole data's history) of the seat to act,
        # of every seat at the end; its tensor's digest below for every seat at every state.
        for p in players if state.is_terminal() else [state.current_player()]:
            if p >= 0:
                text = _escape(info.string_from(state, p))
                lines.append(f'InformationStateString({p}) = "{text}"')
        for p in players:
            lines.append(f'ObservationString({p}) = "{_escape(obs.string_from(state, p))}"')
        for p in players:
            info.set_from(state, p)
            obs.set_from(state, p)
            lines.append(f"InformationStateTensor({p}) sha256 = {_digest(info.tensor)}")
            lines.append(f"ObservationTensor({p}) sha256 = {_digest(obs.tensor)}")
        if not state.is_chance_node():
            lines.append(f"Rewards() = {_floats(state.rewards())}")
            lines.append(f"Returns() = {_floats(state.returns())}")
        if state.is_terminal():
            break
        legal = state.legal_actions()
        player = state.current_player()
        if state.is_chance_node():  # the outcomes are the legal actions, with probabilities
            lines.append(f"ChanceOutcomes() = {_outcomes(state.chance_outcomes())}")
        else:
            lines.append(f"LegalActions() = [{', '.join(str(a) for a in legal)}]")
            names = ", ".join(f'"{state.action_to_string(player, a)}"' for a in legal)
            lines.append(f"StringLegalActions() = [{names}]")
        action = int(rng.choice(legal))
        lines += ["", f'# Apply action "{state.action_to_string(player, action)}"']
        lines.append(f"action: {action}")
        state.apply_action(action)
        k += 1
    return "\n".join(lines) + "\n"


def path_of(stem: str) -> Path:
    """The committed file of playthrough ``stem``."""
    return DIRECTORY / f"{stem}.txt"
