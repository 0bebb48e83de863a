"""One web game of Cuarenta, human against a bot: the server-side state and its moves.

The state is the step-level core's (:class:`~cuarenta_sim.cuarenta.core.CuarentaCore`, decks
from the random streams of a secret root): every rule runs there, none is restated here. This
module adds what the web app needs around it:

* :func:`new_game` and :func:`restore` (from the core's JSON form,
  :func:`cuarenta_sim.core.to_json`);
* :meth:`WebGame.view`: what the human's seat may see (its hand, the table, the scores, the
  bot's hand *size*, the public events of the data) and, on its turn, every legal play with
  what it would score now (caida R6.1, limpia R7, the run R5.4, a caida-en-ronda claim R6.4),
  from the engine's :meth:`~cuarenta_sim.cuarenta.reference.policies.Observation.outcome`;
* :meth:`WebGame.play`: the human's play, checked by the engine (:class:`PlayError` when not
  legal), then the bot plays through its policy until it is the human's turn again;
* :meth:`WebGame.hint`: ``advise`` from the human's seat (bounded samples);
* the game record (``docs/game_record.md``) written play by play and checked by
  :func:`~cuarenta_sim.cuarenta.game_record.read_record` once the game is over.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from ..core import TERMINAL, from_json, to_json
from ..cuarenta.actions import ACTION_OF, PLAYS
from ..cuarenta.cards import RANK_NAMES, card_name, format_ranks, parse_rank
from ..cuarenta.core import CORE
from ..cuarenta.game_record import FORMAT, VERSION, Decision, play_json, read_record
from ..cuarenta.policies import parse_policy
from ..cuarenta.policies.kernel import POLICY_RANDOM
from ..cuarenta.reference.events import AnnounceEvent, ClaimsEvent, EndEvent, PlayEvent
from ..cuarenta.reference.game import observe
from ..cuarenta.reference.policies import RandomPolicy
from ..cuarenta.reference.step import CuarentaGame
from ..cuarenta.rules import resolve_rules
from ..rng import STREAM_SEARCH, PyRng, root_from_seed

#: Bots offered on the start page (any policy spec is accepted by the API).
BOTS = ("learned", "heuristic", "solver", "pimc", "greedy", "random")
#: Largest ``samples`` a search bot may be given: bounds its think time per play.
MAX_BOT_SAMPLES = 64
#: Worlds the hint samples (``advise``'s ``samples``).
HINT_SAMPLES = 64
#: Episodes a web game may be: one data or a whole chica.
EPISODES = ("data", "chica")


class PlayError(ValueError):
    """A play the rules refuse, or a malformed play request; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 422, key: str = "err_illegal") -> None:
        super().__init__(message)
        self.status = status
        self.key = key


def bot_spec(spec: str) -> str:
    """The canonical form of a bot's policy spec, its search bounded.

    Raises
    ------
    ValueError
        An unknown policy or parameter (the message lists the accepted ones), or ``samples``
        above :data:`MAX_BOT_SAMPLES`.
    """
    parsed = parse_policy(spec)
    for name, value in parsed.values:
        if name == "samples" and isinstance(value, int) and value > MAX_BOT_SAMPLES:
            raise ValueError(
                f"bot {spec!r}: samples must be at most {MAX_BOT_SAMPLES} here (the bot's "
                f"think time is bounded), got {value}"
            )
    return parsed.canonical


@dataclass
class WebGame:
    """A game between the human (seat :attr:`human`) and a bot (the other seat).

    Attributes
    ----------
    id : str
        16 hex digits.
    settings : dict
        ``rules`` (slug), ``bot`` (canonical spec), ``human`` (0 or 1), ``episode``.
    state : CuarentaGame
        The server's state (every hand: never sent as is).
    record : dict
        The game record so far (``docs/game_record.md``).
    """

    id: str
    settings: dict[str, Any]
    state: CuarentaGame
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def human(self) -> int:
        """The human's seat."""
        return int(self.settings["human"])

    @property
    def bot(self) -> int:
        """The bot's seat."""
        return 1 - self.human

    @property
    def over(self) -> bool:
        """True once the episode is over."""
        return self.state.current == TERMINAL

    def state_json(self) -> str:
        """The core's JSON form of the state (setup and history)."""
        return to_json(CORE, self.state)

    # ------------------------------------------------------------ moves
    def play(self, body: dict[str, Any]) -> None:
        """Play the human's move, then let the bot play until the human's turn or the end.

        Parameters
        ----------
        body : dict
            ``{"action": id}`` (an id of the view's ``legal`` list) or ``{"card": "7h"}``
            (a card of the human's hand; ``"base": ["A", "6"]`` picks a sum or a match when
            the card's rank has several legal plays).

        Raises
        ------
        PlayError
            The game is over (409), it is not the human's turn (409), a malformed field
            (422), or a play the rules refuse (422, the legal plays listed: R5).
        """
        if self.over:
            raise PlayError("the game is over", 409, "err_over")
        if self.state.current != self.human:
            raise PlayError(f"seat {self.state.current} is to play", 409, "err_not_your_turn")
        action = self._parse_play(body)
        self._apply(action)
        self.run_bot()

    def _parse_play(self, body: dict[str, Any]) -> int:
        accepted = {"action", "card", "base"}
        unknown = sorted(set(body) - accepted)
        if unknown:
            raise PlayError(
                f"unknown field {unknown[0]}; accepted: action, or card with an optional base",
                422,
                "err_field",
            )
        legal = self.state.legal_actions()
        if "action" in body:
            action = body["action"]
            if isinstance(action, bool) or not isinstance(action, int):
                raise PlayError(f"action must be a play id, got {action!r}", 422, "err_field")
            if action not in legal:
                raise PlayError(f"play id {action} is not legal here; {self._legal_words()}")
            return action
        if "card" not in body:
            raise PlayError('send {"action": id} or {"card": "7h"}', 422, "err_field")
        card = body["card"]
        text = card.strip() if isinstance(card, str) else ""
        try:
            rank = parse_rank(text[:-1] if len(text) >= 2 and text[-1] in "hdcs" else text)
        except ValueError as err:
            raise PlayError(f"card: {err}", 422, "err_field") from None
        st = self.state.state
        assert st is not None
        hand = st.hands[self.human]
        if len(text) >= 2 and text[-1] in "hdcs" and text not in {card_name(c) for c in hand}:
            raise PlayError(f"{text} is not in your hand; {self._legal_words()}")
        options = [a for a in legal if PLAYS[a].rank == rank]
        if "base" in body:
            base = body["base"]
            if not isinstance(base, list):
                raise PlayError(f"base must be a list of ranks, got {base!r}", 422, "err_field")
            try:
                ranks = tuple(sorted(parse_rank(r) for r in base))
            except ValueError as err:
                raise PlayError(f"base: {err}", 422, "err_field") from None
            options = [a for a in options if PLAYS[a].base == ranks]
        if len(options) != 1:
            what = "no legal play" if not options else "several legal plays (give base)"
            raise PlayError(f"{RANK_NAMES[rank]}: {what}; {self._legal_words()}")
        return options[0]

    def _legal_words(self) -> str:
        words = "; ".join(
            f"{RANK_NAMES[PLAYS[a].rank]} {'+'.join(format_ranks(PLAYS[a].base)) or 'trail'}"
            for a in self.state.legal_actions()
        )
        return f"legal: {words}"

    def _apply(self, action: int) -> None:
        """Record the play (the record's format) and apply it through the core."""
        g = self.state
        st = g.state
        assert st is not None
        plays = self.record["datas"][g.data]["deals"][st.deal]["plays"]
        plays.append({"seat": g.current, **play_json(PLAYS[action])})
        CORE.apply(g, action)
        self._sync_record()

    def run_bot(self) -> None:
        """Let the bot play (its policy, from its own observation) until the human's turn or
        the end."""
        while self.state.current == self.bot:
            self._apply(self._bot_action())

    def _bot_action(self) -> int:
        g = self.state
        st = g.state
        assert st is not None
        seat = g.current
        obs = observe(st, seat, g.board)
        # One search stream per decision, keyed by the decision count: a restart replays it.
        stream = PyRng.for_stream(g.root, g.decisions, g.data, STREAM_SEARCH + seat)
        spec = parse_policy(self.settings["bot"])
        if spec.id == POLICY_RANDOM:
            k = RandomPolicy().choose(obs, stream)
        else:
            from ..cuarenta.engine.decide import decide

            k = decide(spec.canonical, obs, PyRng(stream.next64()).s)
        return ACTION_OF[obs.plays[k]]

    def _sync_record(self) -> None:
        """Add the data and the deal just dealt to the record (hands as dealt, R3.2)."""
        g = self.state
        st = g.state
        if st is None or st.deal < 0:
            return
        datas = self.record["datas"]
        if len(datas) <= g.data:
            datas.append({"dealer": st.dealer, "deals": []})
        deals = datas[g.data]["deals"]
        if len(deals) <= st.deal:
            deals.append({"hands": [[card_name(c) for c in h] for h in st.hands], "plays": []})
        if self.over:
            self.record["result"] = {"scores": list(g.board.scores), "winner": g.winner}

    # ------------------------------------------------------------ what the human sees
    def view(self) -> dict[str, Any]:
        """What the human's seat may see, JSON-able (never a card of the bot's hand).

        Returns
        -------
        dict
            ``id``, ``settings``, ``status`` (``playing``/``over``), ``you`` (seat),
            ``scores`` (sides 0, 1), ``target``, ``data``, ``deal`` (1-based), ``dealer``,
            ``hand`` and ``table`` (card names such as ``"7h"``), ``bot_cards`` (how many),
            ``piles`` (cards captured per side), ``to_play`` (``you``, ``bot`` or None),
            ``legal`` (on the human's turn: ``action``, ``card``, ``base``, ``kind``,
            ``run``, ``caida``, ``caida_en_ronda``, ``limpia``, ``points``, ``claim``),
            ``events`` (the public events of the current data) and ``winner``.
        """
        g, me = self.state, self.human
        st = g.state
        out: dict[str, Any] = {
            "id": self.id,
            "settings": dict(self.settings),
            "status": "over" if self.over else "playing",
            "you": me,
            "scores": list(g.board.scores),
            "target": g.rules.target,
            "data": g.data + 1,
            "deal": None,
            "dealer": None,
            "hand": [],
            "table": [],
            "bot_cards": 0,
            "piles": [0, 0],
            "to_play": None,
            "legal": [],
            "events": self._events(),
            "winner": g.winner if self.over else None,
        }
        if st is not None:
            out.update(
                deal=st.deal + 1,
                dealer=st.dealer,
                hand=[card_name(c) for c in sorted(st.hands[me])],
                table=[card_name(c) for c in st.table],
                bot_cards=len(st.hands[self.bot]),
                piles=[len(st.piles[0]), len(st.piles[1])],
            )
        if not self.over:
            out["to_play"] = "you" if g.current == me else "bot"
        if g.current == me and st is not None:
            out["legal"] = self._previews()
        return out

    def _previews(self) -> list[dict[str, Any]]:
        """Every legal play of the human with what it scores now (the engine's outcome)."""
        g = self.state
        st = g.state
        assert st is not None
        obs = observe(st, self.human, g.board)
        rows = []
        for play in obs.plays:
            out = obs.outcome(play)
            kind = "trail" if play.is_trail else ("match" if len(play.base) == 1 else "sum")
            if kind == "match" and play.base[0] != play.rank:
                kind = "sum"
            rows.append(
                {
                    "action": ACTION_OF[play],
                    "card": RANK_NAMES[play.rank],
                    "base": format_ranks(play.base),
                    "kind": kind,
                    "run": format_ranks(out.run),
                    "caida": bool(out.caida),
                    "caida_en_ronda": bool(out.caida_en_ronda),
                    "limpia": bool(out.limpia),
                    "points": int(out.points),
                    "claim": int(out.claim),
                }
            )
        return sorted(rows, key=lambda r: r["action"])

    def _events(self) -> list[dict[str, Any]]:
        """The public events of the current data (plays, announcements, claims, counts) and
        the end-of-data count of the one before."""
        g = self.state
        out: list[dict[str, Any]] = []
        for e in g.events:
            data = getattr(e, "data", -1)
            # The data so far, and the count that ended the one before (a chica).
            if data != g.data and not (isinstance(e, EndEvent) and data == g.data - 1):
                continue
            who = "you" if getattr(e, "seat", -1) == self.human else "bot"
            if isinstance(e, PlayEvent):
                p = e.outcome.play
                out.append(
                    {
                        "kind": "play",
                        "who": who,
                        "card": card_name(e.moved.played),
                        "base": format_ranks(p.base),
                        "run": format_ranks(e.outcome.run),
                        "caida": bool(e.outcome.caida),
                        "limpia": bool(e.outcome.limpia),
                        "points": list(e.points),
                    }
                )
            elif isinstance(e, AnnounceEvent):
                out.append(
                    {
                        "kind": "doble" if e.flag == 2 else "ronda",
                        "who": who,
                        "rank": RANK_NAMES[e.rank],
                        "points": list(e.points),
                    }
                )
            elif isinstance(e, ClaimsEvent):
                out.append({"kind": "claims", "points": list(e.points)})
            elif isinstance(e, EndEvent):
                out.append({"kind": "end", "cards": list(e.count.cards), "points": list(e.points)})
        return out

    # ------------------------------------------------------------ advice and record
    def hint(self, samples: int = HINT_SAMPLES) -> dict[str, Any]:
        """``advise`` from the human's seat (its information only): per legal play its
        value (the side's points minus the other's to the end of the data, expected over the
        unseen cards), and the best.

        Raises
        ------
        PlayError
            It is not the human's turn (409).
        """
        if self.state.current != self.human:
            raise PlayError("hints are for your turn", 409, "err_not_your_turn")
        from ..cuarenta.review import advise_fields
        from ..scenario import evaluate

        g = self.state
        st = g.state
        assert st is not None
        # advise_fields reads the state and the seat of a decision, not its play.
        first = PLAYS[g.legal_actions()[0]]
        decision = Decision(g.decisions, g.data, st.deal, self.human, first, g.clone())
        result = evaluate(advise_fields(decision, samples, g.decisions))
        if "error" in result:
            raise RuntimeError(f"advise refused the position: {result['error']}")
        values = [
            {
                "action": ACTION_OF[_play_of(v)],
                "card": v["card"],
                "base": v["base"],
                "value": v["value"],
            }
            for v in result["values"]
        ]
        return {
            "values": values,
            "best": result["best"],
            "advised": ACTION_OF[_play_of(result["play"])],
            "exact": result["exact"],
            "samples": samples,
        }

    def checked_record(self) -> Any:
        """The record of a finished game, checked by the rules engine (``CheckedRecord``).

        Raises
        ------
        PlayError
            The game is not over (409).
        """
        if not self.over:
            raise PlayError("the game is not over", 409, "err_not_over")
        return read_record(self.record)


def _play_of(v: dict[str, Any]) -> Any:
    from ..cuarenta.reference.plays import Play

    return Play(parse_rank(v["card"]), tuple(sorted(parse_rank(r) for r in v["base"])))


def new_game(
    rules: str, bot: str, episode: str = "data", human: int = 0, seed: int | None = None
) -> WebGame:
    """A new game at a secret random deal; the bot plays first when it is to.

    Parameters
    ----------
    rules : str
        A preset or slug (``docs/presets.md``).
    bot : str
        A policy spec (:data:`BOTS`, with parameters; ``samples`` at most
        :data:`MAX_BOT_SAMPLES`).
    episode : str
        ``"data"`` or ``"chica"``.
    human : int
        The human's seat, 0 or 1 (2 players, R2.1).
    seed : int, optional
        Seed of the deal (0..2**62); default a secret random one. Tests pass one to get
        the same deals every run.

    Raises
    ------
    ValueError
        Bad rules, bot, episode or seat (the message says what is accepted).
    """
    try:
        rule_set = resolve_rules(rules)
    except (TypeError, ValueError) as err:
        raise ValueError(f"rules: {err}") from None
    try:
        spec = bot_spec(bot)
    except ValueError as err:
        raise ValueError(f"bot: {err}") from None
    if episode not in EPISODES:
        raise ValueError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
    if isinstance(human, bool) or human not in (0, 1):
        raise ValueError(f"seat must be 0 or 1 (2 players, R2.1), got {human!r}")
    root, _ = root_from_seed(secrets.randbits(62) if seed is None else seed)
    state = CORE.new_state(rule_set, 2, episode, root=root, index=0)
    settings = {"rules": rule_set.slug(), "bot": spec, "human": human, "episode": episode}
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": "cuarenta",
        "rules": rule_set.slug(),
        "players": 2,
        "names": ["human" if s == human else f"bot {spec}" for s in range(2)],
        "episode": episode,
        "datas": [],
    }
    game = WebGame(secrets.token_hex(8), settings, state, record)
    game._sync_record()
    game.run_bot()
    return game


def restore(game_id: str, settings: dict[str, Any], state: str, record: dict[str, Any]) -> WebGame:
    """A stored game rebuilt from the core's JSON form (the history replayed, R3-R9)."""
    return WebGame(game_id, dict(settings), from_json(state, CORE), record)


__all__ = [
    "BOTS",
    "EPISODES",
    "HINT_SAMPLES",
    "MAX_BOT_SAMPLES",
    "PlayError",
    "WebGame",
    "bot_spec",
    "new_game",
    "restore",
]
