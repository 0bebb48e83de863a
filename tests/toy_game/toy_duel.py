"""A toy third game that fills only the contract: its rules and its step-level core.

**Duel**: two players, a deck of six cards ``0 .. 5`` (the id is the card's value). Each
player is dealt two cards (seat 0 the deck's positions 0-1, seat 1 positions 2-3); two tricks
follow, seat 0 leading the first and the winner of a trick leading the next. A trick is won by
the higher card (the lower under the ``low_wins`` switch, preset ``low``), for one point. The
side with more points wins; 1-1 is a tie. Hidden information: the other hand and the two cards
never dealt.

Nothing in ``cuarenta_sim`` knows this game: :data:`GAME` is registered by the tests
(``cuarenta_sim.game.register``) and then plays through the generic PettingZoo and OpenSpiel
adapters of :mod:`cuarenta_sim.rl`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cuarenta_sim.core import CHANCE, TERMINAL, shuffle
from cuarenta_sim.game import Game
from cuarenta_sim.rng import shuffled_cards_py

N_CARDS = 6
HAND = 2
PLAYERS = 2


@dataclass(frozen=True)
class DuelRules:
    """The one switch of Duel: ``low_wins`` (the lower card takes the trick)."""

    low_wins: bool = False

    def slug(self) -> str:
        """``"low"`` or ``"high"``: the preset of these rules."""
        return "low" if self.low_wins else "high"


PRESETS = {"high": DuelRules(False), "low": DuelRules(True)}


def resolve_rules(rules: Any) -> DuelRules:
    """A preset name or a DuelRules -> DuelRules.

    Raises
    ------
    ValueError
        An unknown preset.
    """
    if isinstance(rules, DuelRules):
        return rules
    if rules not in PRESETS:
        raise ValueError(f"unknown preset {rules!r}; accepted: {', '.join(PRESETS)}")
    return PRESETS[rules]


@dataclass
class DuelState:
    """One duel: the deck dealt so far, the hands, the trick, the points, the history."""

    rules: DuelRules
    chance: str
    root: int
    index: int
    deck: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    trick: list[tuple[int, int]] = field(default_factory=list)
    played: list[tuple[int, int]] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    leader: int = 0
    current: int = CHANCE
    history: list[int] = field(default_factory=list)


class DuelCore:
    """Duel's step-level core (a :class:`cuarenta_sim.core.Core`)."""

    name = "toy"
    title = "Toy"
    player_counts = (PLAYERS,)
    episodes = ("duel",)
    default_rules = "high"
    n_actions = N_CARDS
    max_chance_outcomes = N_CARDS

    def resolve_rules(self, rules: Any) -> DuelRules:
        return resolve_rules(rules)

    def new_state(
        self,
        rules: Any,
        players: int = PLAYERS,
        episode: str = "duel",
        *,
        root: int = 0,
        index: int = 0,
        chance: str = "streams",
    ) -> DuelState:
        if players != PLAYERS or episode != "duel" or chance not in ("streams", "explicit"):
            raise ValueError("Duel has 2 players, episode 'duel', chance streams or explicit")
        state = DuelState(resolve_rules(rules), chance, root, index)
        if chance == "streams":
            state.deck = shuffled_cards_py(root, index, 0, N_CARDS)[: HAND * PLAYERS]
        self._advance(state)
        return state

    def _advance(self, state: DuelState) -> None:
        if len(state.deck) < HAND * PLAYERS:
            state.current = CHANCE
            return
        if not state.hands[0] and not state.played:
            state.hands = [sorted(state.deck[:HAND]), sorted(state.deck[HAND:])]
        if len(state.played) == HAND * PLAYERS:
            state.current = TERMINAL
        elif state.trick:
            state.current = 1 - state.trick[0][0]
        else:
            state.current = state.leader

    def setup(self, state: DuelState) -> dict[str, Any]:
        return {
            "rules": state.rules.slug(),
            "players": PLAYERS,
            "episode": "duel",
            "root": state.root,
            "index": state.index,
            "chance": state.chance,
        }

    def current_player(self, state: DuelState) -> int:
        return state.current

    def legal_actions(self, state: DuelState) -> tuple[int, ...]:
        return tuple(state.hands[state.current]) if state.current >= 0 else ()

    def action_label(self, action: int) -> str:
        if not 0 <= action < N_CARDS:
            raise ValueError(f"action must be 0 .. {N_CARDS - 1}, got {action!r}")
        return f"card {action}"

    def chance_outcomes(self, state: DuelState) -> list[tuple[int, float]]:
        if state.current != CHANCE:
            raise ValueError("not a chance node")
        left = [c for c in range(N_CARDS) if c not in state.deck]
        return [(c, 1.0 / len(left)) for c in left]

    def chance_label(self, state: DuelState, outcome: int) -> str:
        return f"deal {outcome}"

    def apply(self, state: DuelState, action: int) -> None:
        if state.current == CHANCE:
            if action not in dict(self.chance_outcomes(state)):
                raise ValueError(f"chance outcome {action!r} is not possible here")
            state.deck.append(int(action))
        else:
            seat = state.current
            if action not in self.legal_actions(state):
                raise ValueError(f"action {action!r} is not legal for seat {seat}")
            state.hands[seat].remove(int(action))
            state.trick.append((seat, int(action)))
            state.played.append((seat, int(action)))
            if len(state.trick) == PLAYERS:
                (s0, c0), (s1, c1) = state.trick
                first_wins = (c0 < c1) if state.rules.low_wins else (c0 > c1)
                winner = s0 if first_wins else s1
                state.points[winner] += 1
                state.leader = winner
                state.trick = []
        state.history.append(int(action))
        self._advance(state)

    def history(self, state: DuelState) -> list[int]:
        return list(state.history)

    def scores(self, state: DuelState) -> tuple[int, int]:
        return (state.points[0], state.points[1])

    def winner(self, state: DuelState) -> int | None:
        p = state.points
        if state.current != TERMINAL or p[0] == p[1]:
            return None
        return 0 if p[0] > p[1] else 1

    def truncated(self, state: DuelState) -> bool:
        return False

    def clone(self, state: DuelState) -> DuelState:
        return DuelState(
            state.rules,
            state.chance,
            state.root,
            state.index,
            list(state.deck),
            [list(h) for h in state.hands],
            list(state.trick),
            list(state.played),
            list(state.points),
            state.leader,
            state.current,
            list(state.history),
        )

    def __deepcopy__(self, memo: dict[int, object]) -> DuelCore:
        return self

    def observation(self, state: DuelState, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "hand": list(state.hands[seat]),
            "trick": [list(t) for t in state.trick],
            "played": [list(t) for t in state.played],
            "points": list(state.points),
        }

    def observation_size(self, players: int) -> int:
        return 3 * N_CARDS + 2

    def encode(self, state: DuelState, seat: int, out: np.ndarray) -> np.ndarray:
        out.fill(0.0)
        for c in state.hands[seat]:
            out[c] = 1.0
        for _, c in state.trick:
            out[N_CARDS + c] = 1.0
        for _, c in state.played:
            out[2 * N_CARDS + c] = 1.0
        out[3 * N_CARDS] = state.points[seat] / HAND
        out[3 * N_CARDS + 1] = state.points[1 - seat] / HAND
        return out

    def info_pieces(self, players: int) -> list[tuple[str, tuple[int, ...]]]:
        return [("history", (HAND * PLAYERS, PLAYERS + N_CARDS))]

    def encode_info(self, state: DuelState, seat: int, pieces: dict[str, np.ndarray]) -> None:
        history = pieces["history"]
        history.fill(0.0)
        for k, (s, c) in enumerate(state.played):
            history[k, (s - seat) % PLAYERS] = 1.0
            history[k, PLAYERS + c] = 1.0

    def observation_string(self, state: DuelState, seat: int, perfect_recall: bool) -> str:
        played = " ".join(f"+{(s - seat) % PLAYERS}:{c}" for s, c in state.played)
        return f"p{seat} hand {state.hands[seat]} played {played or '-'} points {state.points}"

    def state_string(self, state: DuelState) -> str:
        return f"hands {state.hands} played {state.played} points {state.points}"

    def render(self, state: DuelState) -> str:
        return f"Duel {state.rules.slug()}\n{self.state_string(state)}"

    def resample(self, state: DuelState, seat: int, uniform: Callable[[], float]) -> DuelState:
        new = self.clone(state)
        if new.current < 0:
            return new
        other = 1 - seat
        seen = set(new.hands[seat]) | {c for _, c in new.played}
        unseen = shuffle([c for c in range(N_CARDS) if c not in seen], uniform)
        old = list(new.hands[other])
        new.hands[other] = sorted(unseen[: len(old)])
        swap = dict(zip(old, new.hands[other], strict=True))
        new.deck = [swap.get(c, c) for c in new.deck]
        return new

    def max_game_length(self, rules: Any, players: int, episode: str) -> int:
        return HAND * PLAYERS

    def max_points(self, rules: Any, players: int, episode: str) -> int:
        return HAND


#: The one Duel core.
CORE = DuelCore()

#: The registration: the rules tables and the core; the simulation pipeline, judge and
#: replay hooks keep their ``Unsupported`` defaults.
GAME = Game(
    name="toy",
    title="Toy",
    spec_doc="tests/toy_game/toy_duel.py",
    engine_version=1,
    player_counts=(PLAYERS,),
    default_players=PLAYERS,
    levels=("duel",),
    default_level="duel",
    units={"duel": ("duel", "duels")},
    default_rules="high",
    presets=PRESETS,
    resolve_rules=resolve_rules,
    rules_rows=lambda rules: [["low_wins", str(rules.low_wins).lower(), "false"]],
    presets_rows=lambda: (["switch", "high", "low"], [["low_wins", "false", "true"]]),
    default_policies="random",
    policy_table=lambda: (["policy"], [["random"]]),
    core=lambda: CORE,
)
