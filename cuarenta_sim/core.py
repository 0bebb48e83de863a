"""The step-level core of a game: the play primitives every adapter and tool plays through.

A game registers a :class:`cuarenta_sim.game.Game` whose ``core`` field returns an object
filling :class:`Core` (OpenSpiel's ``State`` and pgx's ``init / step / observe`` are the
models): a state from a deal, the player to act (or :data:`CHANCE` / :data:`TERMINAL`), the
legal actions in canonical order with stable integer ids and readable labels, ``apply``, what
one seat may know (a JSON-able dict and a flat tensor), returns, clones, a world resampled
from one seat's information, and a stable JSON form of a state and of its history.

Conventions, shared by every game:

* **Seats and sides.** Seats are ``0 .. players - 1``; seat ``s`` plays for side ``s % 2``
  (both registered games are two sides, the toy game of the tests too). Points and the winner
  are per side.
* **Chance is data.** ``new_state(..., chance="streams")`` deals from the project's random
  streams keyed by ``(root, index)`` exactly as the game's reference engine does (so an
  episode is reproducible from its seed and index); ``chance="explicit"`` stops at chance
  nodes (:data:`CHANCE`) and takes every outcome -- the first dealer, then each card dealt by
  position -- through :meth:`Core.apply` (OpenSpiel's chance nodes).
* **apply is in place.** ``apply(state, action)`` changes ``state``; call ``clone`` first for
  a pure step (OpenSpiel does; a search clones once per playout).
* **History.** ``history(state)`` is every action applied, chance outcomes included under
  ``chance="explicit"``; with ``setup(state)`` it rebuilds the state (:func:`to_json`,
  :func:`from_json`).

This module imports no game: it reads the registry (:mod:`cuarenta_sim.game`) only when a
JSON text names its game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

#: ``current_player`` at a chance node (OpenSpiel's ``PlayerId.CHANCE``).
CHANCE = -1
#: ``current_player`` once the episode is over (OpenSpiel's ``PlayerId.TERMINAL``).
TERMINAL = -4
#: Version tag of the JSON form written by :func:`to_json`.
JSON_FORMAT = "cuarenta_sim.core/1"


class StepCore:
    """Base of a core whose states step themselves (the games' reference step states).

    The state type provides ``current`` (a seat, :data:`CHANCE` or :data:`TERMINAL`),
    ``chance_outcomes()``, ``apply_chance(outcome)``, ``apply_action(action)``, ``history``
    (a list of ints), ``clone()`` and the ``new_state`` settings (``rules``, ``players``,
    ``episode``, ``root``, ``game``, ``chance``); these methods of :class:`Core` are written
    once here, each game's core adds its rules, labels, observations and resampling.
    """

    def __deepcopy__(self, memo: dict[int, object]) -> StepCore:
        """The core is stateless: a copy is itself (OpenSpiel deep-copies its states)."""
        return self

    def current_player(self, state: Any) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        return state.current

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """The chance outcomes at a chance node with their probabilities."""
        return state.chance_outcomes()

    def apply(self, state: Any, action: int) -> None:
        """Apply an action, or a chance outcome at a chance node, in place."""
        if state.current == CHANCE:
            state.apply_chance(action)
        else:
            state.apply_action(action)

    def history(self, state: Any) -> list[int]:
        """Every action (and explicit chance outcome) applied, in order."""
        return list(state.history)

    def clone(self, state: Any) -> Any:
        """An independent copy of ``state``."""
        return state.clone()

    def setup(self, state: Any) -> dict[str, Any]:
        """``rules`` (slug), ``players``, ``episode``, ``root``, ``index`` (the game index)
        and ``chance``: the keyword arguments of ``new_state`` that made ``state``."""
        return {
            "rules": state.rules.slug(),
            "players": state.players,
            "episode": state.episode,
            "root": state.root,
            "index": state.game,
            "chance": state.chance,
        }


def episode_over(state: Any, unit: str) -> str:
    """The closing line of a rendered table once the episode is over: ``episode over:
    truncated``, ``... tie`` or ``... {unit} {winner} wins`` (``unit`` ``"side"`` or
    ``"pair"``); ``state`` has ``truncated`` and ``winner``."""
    if state.truncated:
        return "episode over: truncated"
    winner = state.winner
    return "episode over: " + ("tie" if winner is None else f"{unit} {winner} wins")


#: Where a step state's chance comes from: the project's random streams, or the caller.
CHANCES = ("streams", "explicit")


class StepState:
    """Base of the games' reference step states (one episode, one decision at a time).

    Written once here what both games' states do alike: the checks of the episode and chance
    settings, :attr:`terminal`, the chance node's outcomes (the first dealer uniform over the
    seats, then each card not dealt yet), applying a chance outcome or checking an action
    before it is played, :meth:`clear_gained` and a deep copy that is ``clone()``. A game's
    state (a dataclass) provides the fields annotated here, ``n_cards`` (cards in the deck),
    ``dealt_cards()`` (the cards of the current deal unit dealt so far), ``add_card(card)``
    (an explicit chance card at the deck's next position), ``legal_actions()`` (ascending
    ids), ``clone()`` (an independent copy) and ``_advance()`` (run to the next decision,
    chance node or end).
    """

    n_cards: int
    players: int
    episode: str
    chance: str
    current: int
    dealer: int | None
    history: list[int]
    gained: list[int]

    def check_setup(self, episodes: Sequence[str]) -> None:
        """``ValueError`` unless ``episode`` is one of ``episodes`` and ``chance`` one of
        :data:`CHANCES`."""
        if self.episode not in episodes:
            raise ValueError(f"unknown episode {self.episode!r}; accepted: {', '.join(episodes)}")
        if self.chance not in CHANCES:
            raise ValueError(f"unknown chance {self.chance!r}; accepted: {', '.join(CHANCES)}")

    @property
    def terminal(self) -> bool:
        """True once the episode is over."""
        return self.current == TERMINAL

    if TYPE_CHECKING:  # provided by each game's state

        def dealt_cards(self) -> Sequence[int]: ...
        def add_card(self, card: int) -> None: ...
        def legal_actions(self) -> tuple[int, ...]: ...
        def clone(self) -> Any: ...
        def _advance(self) -> None: ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the chance node's outcomes and their probabilities.

        Returns
        -------
        list of (int, float)
            The first dealer's seat (uniform over the seats) when no dealer is known yet,
            else every card id not dealt yet (uniform: a shuffled deck).

        Raises
        ------
        ValueError
            If the state is not at a chance node.
        """
        if self.current != CHANCE:
            raise ValueError("not a chance node: chance_outcomes() is only for chance nodes")
        if self.dealer is None:
            return [(s, 1.0 / self.players) for s in range(self.players)]
        dealt = set(self.dealt_cards())
        left = [c for c in range(self.n_cards) if c not in dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def apply_chance(self, outcome: int) -> None:
        """Apply one chance outcome (``chance="explicit"``): the first dealer, or the next
        card of the deck (dealt by position); then run to the next decision.

        Raises
        ------
        ValueError
            Not at a chance node, or an outcome that is not possible there.
        """
        outcomes = [o for o, _ in self.chance_outcomes()]
        if outcome not in outcomes:
            raise ValueError(
                f"chance outcome {outcome!r} is not possible here; accepted: {outcomes}"
            )
        self.history.append(int(outcome))
        if self.dealer is None:
            self.dealer = int(outcome)
        else:
            self.add_card(int(outcome))
        self._advance()

    def legal_words(self, legal: tuple[int, ...]) -> str:
        """How an illegal-action error lists the legal actions."""
        return f"legal actions: {list(legal)}"

    def check_action(self, action: int) -> int:
        """Return the seat to act once ``action`` is known legal for it.

        Raises
        ------
        ValueError
            No seat may act (a chance node or the end), or ``action`` is not legal (the
            message lists the legal ones, :meth:`legal_words`).
        """
        legal = self.legal_actions()
        seat = self.current
        if seat < 0:
            what = "the episode is over" if self.terminal else "this is a chance node"
            raise ValueError(f"no seat may act: {what}")
        if action not in legal:
            raise ValueError(
                f"action {action!r} is not legal for seat {seat}; {self.legal_words(legal)}"
            )
        return seat

    def clear_gained(self) -> None:
        """Reset ``gained`` (the environments read it once per step)."""
        self.gained[0] = self.gained[1] = 0

    def __deepcopy__(self, memo: dict[int, object]) -> Any:
        """A deep copy is :meth:`clone` (OpenSpiel deep-copies its states)."""
        return self.clone()


@runtime_checkable
class Core(Protocol):
    """What a game's step-level core provides (one object per game, no state of its own).

    Attributes
    ----------
    name : str
        The game's registry name, e.g. ``"cuarenta"``.
    title : str
        Display name, e.g. ``"Cuarenta"``.
    player_counts : tuple of int
        Accepted numbers of players; the first is the default.
    episodes : tuple of str
        Episode units, the default first (``("chica", "data")``; ``("game", "hand")``).
    default_rules : str
        The default preset.
    n_actions : int
        Size of the fixed action space: legal actions are ids in ``0 .. n_actions - 1``.
    max_chance_outcomes : int
        Most outcomes of one chance node (cards of the deck, at least the seat count).
    """

    name: str
    title: str
    player_counts: tuple[int, ...]
    episodes: tuple[str, ...]
    default_rules: str
    n_actions: int
    max_chance_outcomes: int

    def resolve_rules(self, rules: Any) -> Any:
        """A preset name, slug, dict or rule-set object -> the rule set (``ValueError``)."""

    def new_state(
        self,
        rules: Any,
        players: int,
        episode: str,
        *,
        root: int = 0,
        index: int = 0,
        chance: str = "streams",
    ) -> Any:
        """A new episode at its first decision (``"streams"``) or first chance node
        (``"explicit"``); ``root`` from :func:`cuarenta_sim.rng.root_from_seed`, ``index`` the
        game index. ``ValueError`` on bad players, episode or chance."""

    def setup(self, state: Any) -> dict[str, Any]:
        """The keyword arguments of :meth:`new_state` that made ``state`` (``rules`` as a
        slug): JSON-able."""

    def current_player(self, state: Any) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    def legal_actions(self, state: Any) -> tuple[int, ...]:
        """Legal action ids of the seat to act, ascending = the game's canonical order;
        empty at a chance node or the end."""

    def action_label(self, action: int) -> str:
        """A short readable name of an action id (``ValueError`` out of range)."""

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """Outcomes and probabilities of the chance node (``ValueError`` elsewhere)."""

    def chance_label(self, state: Any, outcome: int) -> str:
        """A readable name of a chance outcome at ``state``'s chance node."""

    def apply(self, state: Any, action: int) -> None:
        """Apply a legal action, or a chance outcome at a chance node, in place; run the
        automatic steps to the next decision. ``ValueError`` for an illegal one."""

    def history(self, state: Any) -> list[int]:
        """Every action (and explicit chance outcome) applied so far, in order."""

    def scores(self, state: Any) -> tuple[int, int]:
        """The points of sides 0 and 1 (the quantity ``point_reward`` scales)."""

    def winner(self, state: Any) -> int | None:
        """The winning side once the episode is over; ``None`` on a tie, a truncated
        episode or before the end."""

    def truncated(self, state: Any) -> bool:
        """True when the episode was stopped by the engine's cap without a result."""

    def clone(self, state: Any) -> Any:
        """An independent copy of ``state``."""

    def observation(self, state: Any, seat: int) -> dict[str, Any]:
        """Exactly what ``seat`` may know now, as a JSON-able dict (no hidden card)."""

    def observation_size(self, players: int) -> int:
        """Length of the observation tensor (:meth:`encode`)."""

    def encode(self, state: Any, seat: int, out: np.ndarray) -> np.ndarray:
        """Write ``seat``'s observation tensor (float32 in ``[0, 1]``) into ``out``."""

    def info_pieces(self, players: int) -> list[tuple[str, tuple[int, ...]]]:
        """Names and shapes of the information-state pieces appended to the observation
        (perfect recall within the current deal unit, OpenSpiel's information state)."""

    def encode_info(self, state: Any, seat: int, pieces: dict[str, np.ndarray]) -> None:
        """Fill the :meth:`info_pieces` arrays of ``seat``."""

    def observation_string(self, state: Any, seat: int, perfect_recall: bool) -> str:
        """``seat``'s observation (or information state) as text."""

    def state_string(self, state: Any) -> str:
        """The whole state on one line, every hand shown (for people and logs)."""

    def render(self, state: Any) -> str:
        """A multi-line text view of the table, every hand shown (for people)."""

    def resample(self, state: Any, seat: int, uniform: Callable[[], float]) -> Any:
        """A new state that ``seat`` cannot tell from ``state``: same observation and
        information state, the hidden cards drawn again from what is consistent with
        everything public and ``seat``'s own information; ``uniform()`` draws in ``[0, 1)``."""

    def max_game_length(self, rules: Any, players: int, episode: str) -> int:
        """Most decisions of one episode."""

    def max_points(self, rules: Any, players: int, episode: str) -> int:
        """Most points a side can gain in one episode (bounds the utilities)."""


def side_of(seat: int) -> int:
    """Return the side of a seat, ``seat % 2`` (R2.1, C1.1)."""
    return seat % 2


def returns(
    core: Core, state: Any, win_reward: float = 1.0, point_reward: float = 0.0
) -> list[float]:
    """Return the per-seat returns of an episode so far: zero-sum between the two sides.

    Parameters
    ----------
    core : Core
        The game's core.
    state : object
        A state of ``core``.
    win_reward : float
        Given to the winning side (and taken from the other) once the episode is over.
    point_reward : float
        Times the side's points minus the other side's (from 0-0 at the episode's start).

    Returns
    -------
    list of float
        One value per seat (the seats of a side get the same).
    """
    s0, s1 = core.scores(state)
    side = [point_reward * (s0 - s1), 0.0]
    side[1] = -side[0]
    if core.current_player(state) == TERMINAL:
        winner = core.winner(state)
        if winner is not None:
            side[winner] += win_reward
            side[1 - winner] -= win_reward
    players = int(core.setup(state)["players"])
    return [side[side_of(s)] for s in range(players)]


def history_records(core: Core, state: Any) -> list[dict[str, Any]]:
    """Return the history of ``state`` as JSON-able records, replayed from its setup.

    Parameters
    ----------
    core : Core
        The game's core.
    state : object
        A state of ``core``.

    Returns
    -------
    list of dict
        Per applied action: ``player`` (a seat or :data:`CHANCE`), ``action`` (the id) and
        ``label`` (:meth:`Core.action_label`, or :meth:`Core.chance_label` for chance).
    """
    replay = core.new_state(**_setup_args(core, core.setup(state)))
    out: list[dict[str, Any]] = []
    for action in core.history(state):
        player = core.current_player(replay)
        label = core.chance_label(replay, action) if player == CHANCE else core.action_label(action)
        out.append({"player": player, "action": int(action), "label": label})
        core.apply(replay, action)
    return out


def to_json(core: Core, state: Any) -> str:
    """Return the stable JSON form of a state: its game, setup and history.

    The text is canonical (sorted keys, no spaces) so two equal states give equal texts;
    :func:`from_json` rebuilds the state by replaying the history (chance is data: the setup
    names the streams, or the history holds the explicit chance outcomes).

    Parameters
    ----------
    core : Core
        The game's core.
    state : object
        A state of ``core``.

    Returns
    -------
    str
        ``{"format": ..., "game": ..., "setup": {...}, "history": [...]}``.
    """
    doc = {
        "format": JSON_FORMAT,
        "game": core.name,
        "setup": core.setup(state),
        "history": [int(a) for a in core.history(state)],
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def from_json(text: str | dict[str, Any], core: Core | None = None) -> Any:
    """Rebuild a state from :func:`to_json`'s text (or its parsed dict).

    Parameters
    ----------
    text : str or dict
        The JSON form.
    core : Core, optional
        The game's core; by default the registered game named by the text.

    Returns
    -------
    object
        A state equal to the one serialised (same history, observations and legal actions).

    Raises
    ------
    ValueError
        Not this format, an unknown game, or a history that is not legal from the setup.
    """
    doc = json.loads(text) if isinstance(text, str) else dict(text)
    if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
        raise ValueError(f"not a {JSON_FORMAT} state: format {doc.get('format')!r}")
    if core is None:
        from .game import get_game

        core = game_core(get_game(doc["game"]))
    elif doc["game"] != core.name:
        raise ValueError(f"the state is of game {doc['game']!r}, not {core.name!r}")
    state = core.new_state(**_setup_args(core, doc["setup"]))
    for action in doc["history"]:
        core.apply(state, int(action))
    return state


def _setup_args(core: Core, setup: dict[str, Any]) -> dict[str, Any]:
    """The setup with its rules resolved, as keyword arguments of ``new_state``."""
    return {**setup, "rules": core.resolve_rules(setup["rules"])}


def game_core(game: Any) -> Core:
    """Return the core of a registered game.

    Parameters
    ----------
    game : cuarenta_sim.game.Game
        A registered game.

    Returns
    -------
    Core

    Raises
    ------
    ValueError
        The game registers no core.
    """
    if game.core is None:
        raise ValueError(f"game {game.name!r} registers no step-level core")
    return game.core()


def games_with_core() -> list[str]:
    """Return the names of the registered games that have a core, alphabetically."""
    from .game import GAMES

    return [name for name in GAMES if GAMES[name].core is not None]


def shuffle(items: Sequence[int], uniform: Callable[[], float]) -> list[int]:
    """Return ``items`` in a uniformly random order (Fisher-Yates) drawn with ``uniform``.

    Parameters
    ----------
    items : sequence of int
        What to shuffle (not changed).
    uniform : callable
        ``uniform()`` -> a float in ``[0, 1)`` (OpenSpiel's probability sampler).
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(uniform() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out
