"""Cuarenta's step-level core (:class:`cuarenta_sim.core.Core`) on the reference engine.

The state is a :class:`~cuarenta_sim.cuarenta.reference.step.CuarentaGame`, the reference
engine's flow one decision at a time (deal R3.2, announcements R4, plays R5-R7, claims R6.4,
the end-of-data count R8, the target R9.2); every rule runs in the reference modules, none is
restated here. This module adds what the adapters need around it: the action space
(:mod:`cuarenta_sim.cuarenta.actions`, 53 ``(rank, base)`` plays), the observation tensor
(:mod:`cuarenta_sim.cuarenta.observation`), the information state (perfect recall within the
data), text views, the JSON-able observation, and :meth:`CuarentaCore.resample`: the other
seats' cards drawn again from what a seat cannot see, conditioned on every ronda announced
(and every one not announced) in the deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import CHANCE, TERMINAL, StepCore, episode_over, shuffle
from . import actions, observation
from .cards import N_CARDS, N_RANKS, N_SUITS, card_name
from .reference.events import AnnounceEvent, ClaimsEvent, EndEvent, PlayEvent
from .reference.plays import caida_trail
from .reference.scoring import ronda_events
from .reference.state import deals_per_data, rank_counts
from .reference.step import EPISODES, MAX_DATAS, CuarentaGame
from .rules import MAX_POINTS, RuleSet, resolve_rules

#: Resampling tries this many uniform draws of the hidden cards before giving up (the state
#: itself is returned then: it is consistent too).
RESAMPLE_TRIES = 2000


class CuarentaCore(StepCore):
    """The step-level core of Cuarenta (module docstring), a :class:`cuarenta_sim.core.Core`.

    Attributes
    ----------
    name, title, player_counts, episodes, default_rules, n_actions, max_chance_outcomes
        See :class:`cuarenta_sim.core.Core`: ``"cuarenta"``, 2 or 4 players, episodes
        ``chica`` / ``data``, preset ``quito``, 53 actions, 40 chance outcomes (a card).
    """

    name = "cuarenta"
    title = "Cuarenta"
    player_counts = (2, 4)
    episodes = EPISODES
    default_rules = "quito"
    n_actions = actions.N_ACTIONS
    max_chance_outcomes = N_CARDS

    # ------------------------------------------------------------ setup and flow
    def resolve_rules(self, rules: Any) -> RuleSet:
        """A preset, slug, dict or RuleSet -> RuleSet (``ValueError`` on bad input)."""
        return resolve_rules(rules)

    def new_state(
        self,
        rules: Any,
        players: int,
        episode: str,
        *,
        root: int = 0,
        index: int = 0,
        chance: str = "streams",
    ) -> CuarentaGame:
        """A new data or chica (``CuarentaGame``); see :meth:`cuarenta_sim.core.Core.new_state`.

        Raises
        ------
        ValueError
            Bad rules, players (2 or 4, R2.1), episode or chance.
        """
        return CuarentaGame(resolve_rules(rules), players, episode, chance, root, index)

    def legal_actions(self, state: CuarentaGame) -> tuple[int, ...]:
        """Legal action ids, ascending = the canonical legal plays (contract section 3)."""
        return state.legal_actions()

    def action_label(self, action: int) -> str:
        """E.g. ``"7 sum A+6"`` (:func:`cuarenta_sim.cuarenta.actions.action_name`)."""
        return actions.action_name(action)

    def chance_label(self, state: CuarentaGame, outcome: int) -> str:
        """``"dealer player 1"`` or ``"deal 7c"``."""
        if state.dealer is None:
            return f"dealer player {outcome}"
        return f"deal {card_name(outcome)}"

    def scores(self, state: CuarentaGame) -> tuple[int, int]:
        """The chica's scores of sides 0 and 1 (R9.2)."""
        return (state.board.scores[0], state.board.scores[1])

    def winner(self, state: CuarentaGame) -> int | None:
        """The side that won the chica (R9.2); at episode ``data`` the side with more points."""
        return state.winner

    def truncated(self, state: CuarentaGame) -> bool:
        """A chica stopped after ``MAX_DATAS`` datas (contract section 5)."""
        return state.truncated

    def max_game_length(self, rules: RuleSet, players: int, episode: str) -> int:
        """One play per card of a data, times the datas of the episode (at most MAX_DATAS)."""
        return N_CARDS * (1 if episode == "data" else MAX_DATAS)

    def max_points(self, rules: RuleSet, players: int, episode: str) -> int:
        """Points a side can gain: a chica stops at the target, and no single step credits
        more than the largest rule value plus a full carton; a data is bounded by its 40
        turns and announcements."""
        step_max = 2 * MAX_POINTS + 26
        if episode == "chica":
            return rules.target + step_max
        return (N_CARDS + 8) * step_max

    # ------------------------------------------------------------ observations
    def observation(self, state: CuarentaGame, seat: int) -> dict[str, Any]:
        """What ``seat`` may know (contract section 6), JSON-able.

        Returns
        -------
        dict
            ``seat``, ``side``, ``scores`` (sides 0, 1), ``data``; once dealt also
            ``dealer``, ``deal``, ``hand`` / ``table`` (card ids), ``played`` (rank counts of
            the data), ``piles`` (card ids per side: captures are made face up), ``rondas``
            (ranks announced per seat this deal), ``hand_sizes``, ``trail`` (rank a caida
            may be made on, or None), ``last_capturer`` and, for the seat to act,
            ``legal`` (``[[id, label], ...]``).
        """
        out: dict[str, Any] = {
            "seat": seat,
            "side": seat % 2,
            "scores": list(self.scores(state)),
            "data": state.data,
        }
        st = state.state
        if st is None:
            return out
        trail, _ = caida_trail(st)
        out.update(
            dealer=st.dealer,
            deal=st.deal,
            hand=sorted(st.hands[seat]),
            table=list(st.table),
            played=list(st.played),
            piles=[sorted(st.piles[0]), sorted(st.piles[1])],
            rondas=[list(r) for r in st.rondas],
            hand_sizes=[len(h) for h in st.hands],
            trail=trail,
            last_capturer=st.last_capturer,
        )
        if state.current == seat:
            out["legal"] = [[a, actions.action_name(a)] for a in state.legal_actions()]
        return out

    def observation_size(self, players: int) -> int:
        """285 values with 2 players, 387 with 4 (:mod:`cuarenta_sim.cuarenta.observation`)."""
        return observation.observation_size(players)

    def encode(self, state: CuarentaGame, seat: int, out: np.ndarray) -> np.ndarray:
        """The observation tensor (:func:`cuarenta_sim.cuarenta.observation.encode`)."""
        return observation.encode(state, seat, out)

    def info_pieces(self, players: int) -> list[tuple[str, tuple[int, ...]]]:
        """``history`` (per play of the data, in order: the relative seat and the action,
        ``40 x (players + 53)``) and ``announced`` (per deal and relative seat, the ronda
        ranks, ``deals x players x 10``)."""
        return [
            ("history", (N_CARDS, players + actions.N_ACTIONS)),
            ("announced", (deals_per_data(players), players, N_RANKS)),
        ]

    def encode_info(self, state: CuarentaGame, seat: int, pieces: dict[str, np.ndarray]) -> None:
        """Fill ``history`` and ``announced`` of :meth:`info_pieces` for ``seat``."""
        history, announced = pieces["history"], pieces["announced"]
        history.fill(0.0)
        announced.fill(0.0)
        n, turn = state.players, 0
        for e in _data_events(state):
            rel = (e.seat - seat) % n
            if isinstance(e, PlayEvent):
                history[turn, rel] = 1.0
                history[turn, n + actions.ACTION_OF[e.outcome.play]] = 1.0
                turn += 1
            else:
                announced[e.deal, rel, e.rank] = 1.0

    def observation_string(self, state: CuarentaGame, seat: int, perfect_recall: bool) -> str:
        """``seat``'s observation (or information state) as text: same content as the
        tensors."""
        g, player = state, seat
        st = g.state
        side = player % 2
        s = g.board.scores
        parts = [f"p{player}", f"scores {s[side]}-{s[1 - side]}"]
        if st is None:
            return " ".join(parts)
        parts.append(f"data {g.data} deal {st.deal} dealer +{(st.dealer - player) % g.players}")
        parts.append("hand " + _ranks(st.hands[player]))
        if perfect_recall:
            for e in _data_events(g):
                rel = (e.seat - player) % g.players
                if isinstance(e, PlayEvent):
                    name = actions.action_name(actions.ACTION_OF[e.outcome.play])
                    parts.append(f"+{rel}:{name}")
                else:
                    parts.append(f"+{rel}:ronda {card_name(4 * e.rank)[:-1]}")
            return " | ".join(parts)
        parts.append("table " + _ranks(st.table))
        parts.append("played " + ",".join(str(c) for c in st.played))
        parts.append("piles " + _ranks(st.piles[side]) + " / " + _ranks(st.piles[1 - side]))
        parts.append(
            "rondas "
            + " ".join(
                f"+{k}:"
                + "".join(card_name(4 * r)[:-1] for r in st.rondas[(player + k) % g.players])
                for k in range(g.players)
            )
        )
        parts.append(
            "hand sizes "
            + ",".join(str(len(st.hands[(player + k) % g.players])) for k in range(g.players))
        )
        prev = st.previous_trail
        parts.append("trail " + ("-" if prev is None else card_name(4 * prev.rank)[:-1]))
        last = st.last_capturer
        parts.append(
            "last capture " + ("-" if last is None else ("own" if last == side else "other"))
        )
        return " | ".join(parts)

    def state_string(self, state: CuarentaGame) -> str:
        """Scores, data, dealer, deal, table and every hand, on one line."""
        g = state
        st = g.state
        parts = [f"scores {g.board.scores[0]}-{g.board.scores[1]}", f"data {g.data}"]
        if st is not None:
            parts.append(f"dealer {st.dealer} deal {st.deal}")
            parts.append("table " + (" ".join(card_name(c) for c in st.table) or "-"))
            for s in range(g.players):
                parts.append(f"p{s} " + (" ".join(card_name(c) for c in st.hands[s]) or "-"))
        return "; ".join(parts)

    def render(self, state: CuarentaGame) -> str:
        """The table for people: header, every hand, piles, the last three steps."""
        g = state
        st = g.state
        lines = [
            f"Cuarenta {g.rules.slug()}, {g.players} players, episode {g.episode} "
            f"(game {g.game}); scores {g.board.scores[0]}-{g.board.scores[1]}"
        ]
        if st is not None:
            lines.append(f"data {g.data}, deal {st.deal + 1}, dealer player_{st.dealer}")
            lines.append("table: " + (" ".join(card_name(c) for c in st.table) or "-"))
            for s in range(g.players):
                hand = " ".join(card_name(c) for c in st.hands[s]) or "-"
                mark = " <- to play" if g.current == s else ""
                lines.append(f"player_{s} (side {s % 2}): {hand}{mark}")
            lines.append(f"piles: {len(st.piles[0])}-{len(st.piles[1])}")
        for e in g.events[-3:]:
            lines.append("  " + _describe(e))
        if g.terminal:
            lines.append(episode_over(g, "side"))
        return "\n".join(lines)

    # ------------------------------------------------------------ resampling
    def resample(
        self, state: CuarentaGame, seat: int, uniform: Callable[[], float]
    ) -> CuarentaGame:
        """A world ``seat`` cannot tell from ``state``: the other hands drawn again.

        What ``seat`` knows stays: its hand, the table, every card played and captured, the
        scores, and the rondas of the deal -- the announced ronda cards still held stay in
        their hands (R4), and a drawn hand must announce exactly what its seat announced
        (a seat that announced nothing was dealt no three of a rank). The cards ``seat``
        cannot see (the other hands, and under ``chance="streams"`` the undealt stock of the
        data) are shuffled uniformly with ``uniform`` and dealt back into the same hand sizes;
        a draw that breaks an announcement is drawn again (rejection: uniform over the
        consistent worlds, :data:`RESAMPLE_TRIES` at most, then ``state``'s own world).
        Later datas of a ``"streams"`` chica stay as its seed deals them.

        Parameters
        ----------
        state : CuarentaGame
            The state (not changed).
        seat : int
            The seat whose information is kept.
        uniform : callable
            ``uniform()`` -> float in ``[0, 1)``.

        Returns
        -------
        CuarentaGame
            A new state, with the same history.
        """
        new = state.clone()
        st = new.state
        if st is None or st.deal < 0 or new.current < 0:
            return new
        n = st.players
        others = [o for o in range(n) if o != seat]
        announced: dict[int, list[tuple[int, int]]] = {o: [] for o in range(n)}
        played = {o: [0] * N_RANKS for o in range(n)}
        for e in reversed(new.events):
            if e.data != new.data or e.deal != st.deal:
                break
            if isinstance(e, AnnounceEvent):
                announced[e.seat].insert(0, (e.flag, e.rank))
            elif isinstance(e, PlayEvent):
                played[e.seat][e.outcome.play.rank] += 1
        fixed = {o: [c for c in st.hands[o] if c // N_SUITS in st.rondas[o]] for o in others}
        hidden = {o: sorted(c for c in st.hands[o] if c not in fixed[o]) for o in others}
        dealt = (st.deal + 1) * 5 * n
        undealt = st.deck[dealt:] if new.chance == "streams" else []
        if new.chance == "explicit":
            seen = set(st.deck)
            undealt = [c for c in range(N_CARDS) if c not in seen]
        pool = [c for o in others for c in hidden[o]] + list(undealt)
        for _ in range(RESAMPLE_TRIES):
            drawn = shuffle(pool, uniform)
            at, hands = 0, {}
            for o in others:
                hands[o] = drawn[at : at + len(hidden[o])]
                at += len(hidden[o])
            if all(_announces(hands[o] + fixed[o], played[o]) == announced[o] for o in others):
                break
        else:
            return new
        swap = {
            old: new_card for o in others for old, new_card in zip(hidden[o], hands[o], strict=True)
        }
        rest = drawn[at:]
        deck = [swap.get(c, c) for c in st.deck[:dealt]]
        if new.chance == "streams":
            deck += rest
            st.stock = list(rest)
        st.deck = deck
        for o in others:
            st.hands[o] = sorted(hands[o] + fixed[o])
        new._legal = None
        return new


def _announces(hand: list[int], played: list[int]) -> list[tuple[int, int]]:
    """The announcements of the deal a hand implies: its cards plus the ranks its seat
    played this deal (R4.1, R4.2, :func:`~cuarenta_sim.cuarenta.reference.scoring.ronda_events`)."""
    counts = rank_counts(hand)
    return ronda_events([c + p for c, p in zip(counts, played, strict=True)])


def _data_events(state: CuarentaGame) -> list[Any]:
    """The plays and announcements of the current data, in order."""
    return [
        e for e in state.events if isinstance(e, PlayEvent | AnnounceEvent) and e.data == state.data
    ]


def _ranks(cards: list[int]) -> str:
    return "".join(card_name(c)[:-1] for c in sorted(cards)) or "-"


def _describe(e: object) -> str:
    """One line of a step event, for :meth:`CuarentaCore.render`."""
    if isinstance(e, PlayEvent):
        name = actions.action_name(actions.ACTION_OF[e.outcome.play])
        extra = [k for k, v in (("caida", e.outcome.caida), ("limpia", e.outcome.limpia)) if v]
        pts = f", +{sum(e.points)}" if sum(e.points) else ""
        return f"player_{e.seat} played {name}" + (f" ({', '.join(extra)})" if extra else "") + pts
    if isinstance(e, AnnounceEvent):
        kind = "doble ronda" if e.flag == 2 else "ronda"
        return f"player_{e.seat} announced {kind} of {card_name(4 * e.rank)[:-1]}"
    if isinstance(e, ClaimsEvent):
        return f"claims credited {e.points[0]}-{e.points[1]}"
    if isinstance(e, EndEvent):
        c0, c1 = e.count.cards
        return f"end of data: cards {c0}-{c1}, points {e.points[0]}-{e.points[1]}"
    return str(e)


#: The one Cuarenta core (stateless).
CORE = CuarentaCore()


def get_core() -> CuarentaCore:
    """Return :data:`CORE` (the ``core`` hook of Cuarenta's :class:`~cuarenta_sim.game.Game`)."""
    return CORE


__all__ = ["CHANCE", "CORE", "TERMINAL", "CuarentaCore", "get_core"]
