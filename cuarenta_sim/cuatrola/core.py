"""Cuatrola's step-level core (:class:`cuarenta_sim.core.Core`) on the reference engine.

The state is a :class:`~cuarenta_sim.cuatrola.reference.step.CuatrolaGame`, the reference
engine's flow one decision at a time (deal C1.4, bidding C2, tricks C3, cantes C4, the hand's
score C5, the game C6); every rule runs in the reference modules. This module adds the action
space (20 cards and 4 declarations), the observation tensor
(:mod:`cuarenta_sim.cuatrola.observation`), the information state (perfect recall within the
hand), text views, the JSON-able observation and :meth:`CuatrolaCore.resample`: the other
hands drawn again, conditioned on the trump card the dealer holds (C1.4), the cantes shown
(C4) and every play and cante (or none) of the hand so far -- so the voids a seat showed (C3.3)
hold in the drawn world.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import TERMINAL, StepCore, episode_over, shuffle
from . import observation
from .cards import CABALLO, N_CARDS, REY, card_of, format_card
from .contracts import CONTRACTS, DECLARATIONS
from .reference.game import MAX_HANDS
from .reference.scoring import finish_trick
from .reference.step import BID0, EPISODES, N_ACTIONS, PLAYERS, CuatrolaGame, action_name
from .reference.tricks import legal_plays
from .rules import CuatrolaRules, resolve_rules
from .trace_format import KIND_CANTE, KIND_PLAY, KIND_TRICK

#: Uniform draws of the hidden cards tried by :meth:`CuatrolaCore.resample` before it gives up
#: (the state's own world is returned then: it is consistent too).
RESAMPLE_TRIES = 5000


class CuatrolaCore(StepCore):
    """The step-level core of Cuatrola (module docstring), a :class:`cuarenta_sim.core.Core`.

    Attributes
    ----------
    name, title, player_counts, episodes, default_rules, n_actions, max_chance_outcomes
        ``"cuatrola"``, 4 players, episodes ``game`` / ``hand``, preset ``ro``, 24 actions
        (``0..19`` a card, ``20..23`` pass / solo / cuatrola / quintola), 20 chance outcomes.
    """

    name = "cuatrola"
    title = "Cuatrola"
    player_counts = (PLAYERS,)
    episodes = EPISODES
    default_rules = "ro"
    n_actions = N_ACTIONS
    max_chance_outcomes = N_CARDS

    # ------------------------------------------------------------ setup and flow
    def resolve_rules(self, rules: Any) -> CuatrolaRules:
        """A preset, slug, dict or CuatrolaRules -> CuatrolaRules (``ValueError``)."""
        return resolve_rules(rules)

    def new_state(
        self,
        rules: Any,
        players: int = PLAYERS,
        episode: str = "game",
        *,
        root: int = 0,
        index: int = 0,
        chance: str = "streams",
    ) -> CuatrolaGame:
        """A new hand or game (``CuatrolaGame``); see :meth:`cuarenta_sim.core.Core.new_state`.

        Raises
        ------
        ValueError
            Bad rules, players (4 only, C1.1), episode or chance.
        """
        if isinstance(players, bool) or players != PLAYERS:
            raise ValueError(f"players must be 4 for Cuatrola, got {players!r}")
        return CuatrolaGame(resolve_rules(rules), episode, chance, root, index)

    def legal_actions(self, state: CuatrolaGame) -> tuple[int, ...]:
        """Declarations while bidding (C2.1, C2.3), cards in play (C3.3), ascending."""
        return state.legal_actions()

    def action_label(self, action: int) -> str:
        """A card such as ``"Rc"`` or a declaration (``pass`` .. ``quintola``)."""
        return action_name(action)

    def chance_label(self, state: CuatrolaGame, outcome: int) -> str:
        """``"dealer player 1"`` or ``"deal Rc"``."""
        if state.dealer is None:
            return f"dealer player {outcome}"
        return f"deal {format_card(outcome)}"

    def scores(self, state: CuatrolaGame) -> tuple[int, int]:
        """Game points of pairs 0 and 1 (C5, C6)."""
        return (state.scores[0], state.scores[1])

    def winner(self, state: CuatrolaGame) -> int | None:
        """The pair that reached the target (C6.1); at episode ``hand`` the pair that scored
        more game points."""
        return state.winner

    def truncated(self, state: CuatrolaGame) -> bool:
        """A game stopped after ``MAX_HANDS`` hands."""
        return state.truncated

    def max_game_length(self, rules: CuatrolaRules, players: int, episode: str) -> int:
        """Four bids and twenty cards per hand, times the hands of the episode."""
        return (1 if episode == "hand" else MAX_HANDS) * (PLAYERS + N_CARDS)

    def max_points(self, rules: CuatrolaRules, players: int, episode: str) -> int:
        """A hand gives at most 5 game points (quintola, C5); a game stops at the target."""
        return 5 if episode == "hand" else rules.target + 5

    # ------------------------------------------------------------ observations
    def observation(self, state: CuatrolaGame, seat: int) -> dict[str, Any]:
        """What ``seat`` may know (``docs/cuatrola_contract.md`` section 4), JSON-able.

        Returns
        -------
        dict
            ``seat``, ``pair``, ``scores`` (pairs 0, 1), ``hand_index``; once dealt also
            ``dealer``, ``trump_card``, ``cards`` (own), ``bids`` (per seat, -1 before it
            bids), ``bidding``, ``contract``, ``declarer``, ``trick`` (``[[seat, card],
            ...]``), ``played`` (per seat), ``tricks``, ``points`` (per pair), ``cantes``
            (``[[singer, suit], ...]``) and, for the seat to act, ``legal``.
        """
        g = state
        out: dict[str, Any] = {
            "seat": seat,
            "pair": seat % 2,
            "scores": list(self.scores(g)),
            "hand_index": g.hand_index,
        }
        if g.trump_card < 0:
            return out
        out.update(
            dealer=g.dealer,
            trump_card=g.trump_card,
            cards=sorted(g.hands[seat]),
            bids=list(g.bids),
            bidding=g.bidding,
            contract=None if g.bidding else g.contract,
            declarer=None if g.bidding else g.declarer,
            trick=[[s, c] for c, s in zip(g.trick, g.trick_seats, strict=True)],
            played=[list(p) for p in g.played],
            tricks=list(g.tricks),
            points=list(g.points),
            cantes=[list(c) for c in g.cantes],
        )
        if g.current == seat:
            out["legal"] = [[a, action_name(a)] for a in g.legal_actions()]
        return out

    def observation_size(self, players: int) -> int:
        """268 values (:mod:`cuarenta_sim.cuatrola.observation`)."""
        return observation.OBSERVATION_SIZE

    def encode(self, state: CuatrolaGame, seat: int, out: np.ndarray) -> np.ndarray:
        """The observation tensor (:func:`cuarenta_sim.cuatrola.observation.encode`)."""
        return observation.encode(state, seat, out)

    def info_pieces(self, players: int) -> list[tuple[str, tuple[int, ...]]]:
        """``history``: per card played in the hand, in order, its relative seat and the
        card (``20 x 24``)."""
        return [("history", (N_CARDS, PLAYERS + N_CARDS))]

    def encode_info(self, state: CuatrolaGame, seat: int, pieces: dict[str, np.ndarray]) -> None:
        """Fill ``history`` of :meth:`info_pieces` for ``seat``."""
        history = pieces["history"]
        history.fill(0.0)
        for k, (s, card) in enumerate(_plays(state)):
            history[k, (s - seat) % PLAYERS] = 1.0
            history[k, PLAYERS + card] = 1.0

    def observation_string(self, state: CuatrolaGame, seat: int, perfect_recall: bool) -> str:
        """``seat``'s observation (or information state) as text: same content as the
        tensors."""
        g, player = state, seat
        pair = player % 2
        parts = [f"p{player}", f"scores {g.scores[pair]}-{g.scores[1 - pair]}"]
        if g.trump_card < 0:
            return " ".join(parts)
        assert g.dealer is not None
        parts.append(
            f"hand {g.hand_index} dealer +{(g.dealer - player) % 4} "
            f"trump {format_card(g.trump_card)}"
        )
        parts.append("cards " + (" ".join(format_card(c) for c in sorted(g.hands[player])) or "-"))
        parts.append(
            "bids "
            + " ".join(
                f"+{k}:{DECLARATIONS[b] if (b := g.bids[(player + k) % 4]) >= 0 else '-'}"
                for k in range(4)
            )
        )
        if perfect_recall:
            parts.append(
                "plays " + " ".join(f"+{(s - player) % 4}:{format_card(c)}" for s, c in _plays(g))
            )
            return " | ".join(parts)
        if not g.bidding:
            parts.append(f"contract {CONTRACTS[g.contract]}")
            if g.declarer >= 0:
                parts.append(f"declarer +{(g.declarer - player) % 4}")
        parts.append(
            "trick "
            + " ".join(
                f"+{(s - player) % 4}:{format_card(c)}"
                for c, s in zip(g.trick, g.trick_seats, strict=True)
            )
        )
        parts.append(
            "played "
            + " ".join(
                f"+{k}:" + "".join(format_card(c) for c in sorted(g.played[(player + k) % 4]))
                for k in range(4)
            )
        )
        parts.append(f"tricks {g.tricks[pair]}-{g.tricks[1 - pair]}")
        parts.append(f"points {g.points[pair]}-{g.points[1 - pair]}")
        parts.append(
            "sung " + " ".join(f"+{(p - player) % 4}:{format_card(5 * s)[1]}" for p, s in g.cantes)
        )
        return " | ".join(parts)

    def state_string(self, state: CuatrolaGame) -> str:
        """Scores, hand, dealer, trump, contract, every hand and the trick, on one line."""
        g = state
        parts = [f"scores {g.scores[0]}-{g.scores[1]}", f"hand {g.hand_index}"]
        if g.trump_card >= 0:
            parts.append(f"dealer {g.dealer} trump {format_card(g.trump_card)}")
            parts.append("contract " + ("bidding" if g.bidding else CONTRACTS[g.contract]))
            for s in range(4):
                parts.append(
                    f"p{s} " + (" ".join(format_card(c) for c in sorted(g.hands[s])) or "-")
                )
            parts.append("trick " + (" ".join(format_card(c) for c in g.trick) or "-"))
        return "; ".join(parts)

    def render(self, state: CuatrolaGame) -> str:
        """The table for people: header, bidding or contract and trick, every hand."""
        g = state
        lines = [
            f"Cuatrola {g.rules.slug()}, episode {g.episode} (game {g.game}); "
            f"scores {g.scores[0]}-{g.scores[1]}"
        ]
        if g.trump_card >= 0:
            lines.append(
                f"hand {g.hand_index}, dealer player_{g.dealer}, trump card "
                f"{format_card(g.trump_card)}"
            )
            if g.bidding:
                bids = ", ".join(
                    f"player_{s} {DECLARATIONS[b]}" for s, b in enumerate(g.bids) if b >= 0
                )
                lines.append("bidding: " + (bids or "-"))
            else:
                who = f" by player_{g.declarer}" if g.declarer >= 0 else ""
                lines.append(
                    f"contract {CONTRACTS[g.contract]}{who}; trick {min(g.trick_no, 4) + 1}; "
                    f"tricks {g.tricks[0]}-{g.tricks[1]}, points {g.points[0]}-{g.points[1]}"
                )
                trick = " ".join(
                    f"{format_card(c)}(player_{s})"
                    for c, s in zip(g.trick, g.trick_seats, strict=True)
                )
                lines.append("trick: " + (trick or "-"))
            for s in range(4):
                hand = " ".join(format_card(c) for c in sorted(g.hands[s])) or "-"
                mark = " <- to act" if g.current == s else ""
                lines.append(f"player_{s} (pair {s % 2}): {hand}{mark}")
        if g.terminal:
            lines.append(episode_over(g, "pair"))
        return "\n".join(lines)

    # ------------------------------------------------------------ resampling
    def resample(
        self, state: CuatrolaGame, seat: int, uniform: Callable[[], float]
    ) -> CuatrolaGame:
        """A world ``seat`` cannot tell from ``state``: the other three hands drawn again.

        Kept: ``seat``'s cards, the trump card while the dealer holds it (C1.4), the rey and
        caballo of every cante while their singer holds them (C4), every bid, play and score.
        The other cards are shuffled uniformly with ``uniform`` and dealt back into the same
        hand sizes; a draw is kept only if the hand replays exactly: every card played was
        legal from the drawn hands (C3.3: so the voids shown hold) and every trick was
        followed by the same cante or none (C4.3, :func:`choose_cante`). At most
        :data:`RESAMPLE_TRIES` draws, then ``state``'s own world (consistent too).

        Parameters
        ----------
        state : CuatrolaGame
            The state (not changed).
        seat : int
            The seat whose information is kept.
        uniform : callable
            ``uniform()`` -> float in ``[0, 1)``.

        Returns
        -------
        CuatrolaGame
            A new state with the same history.
        """
        new = state.clone()
        if new.trump_card < 0 or new.current < 0 or new.dealer is None:
            return new
        others = [o for o in range(PLAYERS) if o != seat]
        shown = {o: set() for o in others}
        if new.dealer != seat:
            shown[new.dealer].add(new.trump_card)
        for singer, suit in new.cantes:
            if singer != seat:
                shown[singer].update((card_of(suit, REY), card_of(suit, CABALLO)))
        fixed = {o: [c for c in new.hands[o] if c in shown[o]] for o in others}
        hidden = {o: sorted(c for c in new.hands[o] if c not in shown[o]) for o in others}
        pool = [c for o in others for c in hidden[o]]
        plays, cantes = _hand_record(new)
        for _ in range(RESAMPLE_TRIES):
            drawn = shuffle(pool, uniform)
            at, hands = 0, [set(h) for h in new.hands]
            for o in others:
                hands[o] = set(fixed[o]) | set(drawn[at : at + len(hidden[o])])
                at += len(hidden[o])
            if _replays(new, hands, plays, cantes):
                break
        else:
            return new
        swap = {}
        for o in others:
            for old, card in zip(hidden[o], sorted(hands[o] - set(fixed[o])), strict=True):
                swap[old] = card
        new.deck = [swap.get(c, c) for c in new.deck]
        new.hands = hands
        new._legal = None
        return new


def _plays(state: CuatrolaGame) -> list[tuple[int, int]]:
    """``(seat, card)`` of every card played in the current hand, in order."""
    g = state
    return [(r[2], r[3]) for r in g.trace if r[0] == KIND_PLAY and r[1] == g.hand_index]


def _hand_record(state: CuatrolaGame) -> tuple[list[tuple[int, int]], list[tuple[int, int] | None]]:
    """The plays of the current hand and, per trick completed, its cante ``(singer, suit)``
    or ``None`` (from the trace, ``docs/cuatrola_contract.md`` section 6)."""
    plays: list[tuple[int, int]] = []
    cantes: list[tuple[int, int] | None] = []
    for r in state.trace:
        if r[1] != state.hand_index:
            continue
        if r[0] == KIND_PLAY:
            plays.append((r[2], r[3]))
        elif r[0] == KIND_TRICK:
            cantes.append(None)
        elif r[0] == KIND_CANTE:
            cantes[-1] = (r[2], r[3])
    return plays, cantes


def _replays(
    state: CuatrolaGame,
    hands: list[set[int]],
    plays: list[tuple[int, int]],
    cantes: list[tuple[int, int] | None],
) -> bool:
    """True when the hand's plays and cantes follow from ``hands`` (the cards held now) by
    the reference rules: each play legal (C3.3), each trick's cante the same (C4)."""
    held = [set(h) for h in hands]
    for s, card in plays:
        held[s].add(card)
    trick: list[int] = []
    seats: list[int] = []
    sung: set[int] = set()
    done = 0
    active = sum(state.plays)
    for s, card in plays:
        if card not in legal_plays(held[s], trick, state.trump):
            return False
        held[s].remove(card)
        trick.append(card)
        seats.append(s)
        if len(trick) < active:
            continue
        _, _, found = finish_trick(
            trick, seats, state.trump, done, state.contract, held, state.plays, sung
        )
        cante = None if found is None else (found[0], found[1])
        if cante != cantes[done]:
            return False
        if cante is not None:
            sung.add(cante[1])
        done += 1
        trick, seats = [], []
    return True


#: The one Cuatrola core (stateless).
CORE = CuatrolaCore()


def get_core() -> CuatrolaCore:
    """Return :data:`CORE` (the ``core`` hook of Cuatrola's :class:`~cuarenta_sim.game.Game`)."""
    return CORE


__all__ = ["BID0", "CORE", "TERMINAL", "CuatrolaCore", "get_core"]
