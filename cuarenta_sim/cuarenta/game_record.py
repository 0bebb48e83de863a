"""Cuarenta game records: a JSON file of one data or chica as it was dealt and played.

``docs/game_record.md`` is the format. :func:`record_from_log` writes a record of a reference
game (``cuarenta-sim replay --record``); :func:`read_record` checks one with the rules engine
through the step-level core (:class:`~cuarenta_sim.cuarenta.core.CuarentaCore`, explicit
chance): every deal is dealt card by card (R3.2), every play must be legal for the seat to
move (R5), the game must end where the record ends (R9.2), and the result, when given, must be
the one the rules give. The first thing wrong is one :class:`RecordError` naming the field
(``datas[0].deals[1].plays[3]``) and, for a play, its index in the game.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import CHANCE, TERMINAL
from .actions import ACTION_OF, PLAYS
from .cards import N_CARDS, N_SUITS, RANK_NAMES, SUIT_NAMES, card_name, format_ranks, parse_rank
from .core import CORE
from .reference.events import DataStart, DealEvent, PlayEvent
from .reference.game import GameLog
from .reference.plays import Play
from .reference.state import CARDS_PER_DEAL
from .reference.step import CuarentaGame
from .rules import RuleSet, resolve_rules

#: The ``format`` field of every record.
FORMAT = "cuarenta-sim game record"
#: The ``version`` this module reads and writes.
VERSION = 1
#: Episodes a record may hold (the core's): one ``data`` from 0-0, or a whole ``chica``.
EPISODES = ("data", "chica")
_FIELDS = {"format", "version", "game", "rules", "players", "names", "episode", "datas"}
_OPTIONAL = {"result", "source"}


class RecordError(ValueError):
    """A game record that is malformed or breaks the rules; the message names the field."""


@dataclass
class Decision:
    """One decision of a checked record.

    Attributes
    ----------
    index : int
        Play index in the game (0-based, over every data).
    data, deal : int
        Data (0-based) and deal (0-based) of the play.
    seat : int
        The seat that played.
    play : Play
        The play made (rank and base).
    state : CuarentaGame
        A copy of the game just before the play (every hand known).
    caida : bool
        The play was a caida (R6.1: it captured the card the previous player just trailed).
    caida_given : bool
        The play was a trail and the next player made a caida on it (R6.1).
    """

    index: int
    data: int
    deal: int
    seat: int
    play: Play
    state: CuarentaGame
    caida: bool = False
    caida_given: bool = False


@dataclass
class CheckedRecord:
    """A record the rules accept: its settings, decisions and final state.

    Attributes
    ----------
    rules : RuleSet
    players : int
    names : list of str
        Per seat.
    episode : str
        ``"data"`` or ``"chica"``.
    decisions : list of Decision
    final : CuarentaGame
        The game after the last play (terminal).
    record : dict
        The record as read (JSON-able).
    """

    rules: RuleSet
    players: int
    names: list[str]
    episode: str
    decisions: list[Decision] = field(default_factory=list)
    final: CuarentaGame | None = None
    record: dict[str, Any] = field(default_factory=dict)


def play_json(play: Play) -> dict[str, Any]:
    """``{"card": rank, "base": ranks}`` of a play (the scenario format's names)."""
    return {"card": RANK_NAMES[play.rank], "base": format_ranks(play.base)}


# --------------------------------------------------------------------------- writer
def record_from_log(log: GameLog, names: list[str] | None = None) -> dict[str, Any]:
    """The game record of a reference game (:func:`cuarenta_sim.cuarenta.reference.play_game`).

    Parameters
    ----------
    log : GameLog
        A game at level ``data`` or ``chica`` (a mesa holds several chicas: not a record).
    names : list of str, optional
        Per seat; default the policy names of ``log``.

    Returns
    -------
    dict
        The record (``docs/game_record.md``), JSON-able; ``source`` holds the seed, level and
        index that replay it.

    Raises
    ------
    ValueError
        A mesa, or ``names`` of the wrong length.
    """
    if log.level not in EPISODES:
        raise ValueError(
            f"level {log.level!r} cannot be recorded: a record holds one data or one chica; "
            f"accepted: {', '.join(EPISODES)}"
        )
    n = log.players
    names = list(log.policies) if names is None else list(names)
    if len(names) != n:
        raise ValueError(f"names must list {n} entries (one per seat), got {len(names)}")
    datas: list[dict[str, Any]] = []
    for e in log.events:
        if isinstance(e, DataStart):
            datas.append({"dealer": e.dealer, "deals": []})
        elif isinstance(e, DealEvent):
            hands = [[card_name(c) for c in h] for h in e.hands]
            datas[-1]["deals"].append({"hands": hands, "plays": []})
        elif isinstance(e, PlayEvent):
            datas[-1]["deals"][-1]["plays"].append({"seat": e.seat, **play_json(e.outcome.play)})
    scores = list(log.events[-1].scores) if log.events else [0, 0]  # type: ignore[attr-defined]
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": "cuarenta",
        "rules": log.rules.slug(),
        "players": n,
        "names": names,
        "episode": log.level,
        "datas": datas,
    }
    checked = read_record(out)
    assert checked.final is not None
    final = checked.final
    out["result"] = {"scores": list(final.board.scores), "winner": final.winner}
    if list(final.board.scores) != scores and log.level == "chica":
        raise ValueError("internal: the record does not replay to the game's scores")
    out["source"] = {"seed": log.seed, "level": log.level, "index": log.index}
    return out


def dumps_record(record: dict[str, Any]) -> str:
    """``record`` as JSON text, indented, with each hand and each play on one line."""

    def flat(m: re.Match[str]) -> str:
        # Only the indentation JSON adds is collapsed: a newline inside a string is escaped.
        text = re.sub(r"\n\s*", " ", m.group())
        return text[0] + text[1:-1].strip() + text[-1]

    plain = json.dumps(record, indent=1, ensure_ascii=False)
    text = _PLAY.sub(flat, _LEAF.sub(flat, plain))
    return (text if json.loads(text) == record else plain) + "\n"


#: A JSON list or object holding no list or object (a hand, a play, a base).
_LEAF = re.compile(r"[\[{][^\[\]{}\"]*(?:\"(?:[^\"\\]|\\.)*\"[^\[\]{}\"]*)*[\]}]")

#: A JSON object holding only one-line lists (a play, once its base is on one line).
_PLAY = re.compile(r"\{[^{}\[\]]*(?:\[[^\[\]{}\n]*\][^{}\[\]]*)*\}")


def write_record(record: dict[str, Any], path: str | Path) -> None:
    """Write ``record`` (:func:`dumps_record`) at ``path``, atomically
    (:func:`cuarenta_sim.outputs.staged`)."""
    from ..outputs import staged

    with staged([path]) as (tmp,):
        tmp.write_text(dumps_record(record), encoding="utf-8")


# --------------------------------------------------------------------------- reader
def load_record(path: str | Path) -> CheckedRecord:
    """Read and check the record at ``path`` (:func:`read_record`).

    Raises
    ------
    RecordError
        The file cannot be read, is not JSON, or the record is wrong (naming the field).
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read game record {str(path)!r}: {err}") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"game record {str(path)!r} is not JSON: {err}") from None
    return read_record(obj)


def read_record(obj: object) -> CheckedRecord:
    """Check a game record with the rules engine and return its decisions.

    Parameters
    ----------
    obj : dict
        The parsed JSON (``docs/game_record.md``).

    Returns
    -------
    CheckedRecord
        Every decision with the game state before it.

    Raises
    ------
    RecordError
        One error naming the field: a wrong ``format``/``version``/``game``, an unknown rules
        slug, players not 2 or 4 (R2.1), names of the wrong length, a dealer the deal does not
        pass to (R3.4), a hand that is not 5 distinct cards or a card dealt twice (R1.1,
        R3.2), a play by the wrong seat (R3.3) or not legal (R5; the message lists the legal
        plays and gives the play index), a deal with too few or too many plays, a record that
        ends before or after the game (R9.2), or a ``result`` that disagrees.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"a game record is a JSON object, got {type(obj).__name__}")
    missing = sorted(_FIELDS - set(obj))
    if missing:
        raise RecordError(f"missing field {missing[0]} in the game record (docs/game_record.md)")
    unknown = sorted(set(obj) - _FIELDS - _OPTIONAL)
    if unknown:
        raise RecordError(
            f"unknown field {unknown[0]} in the game record; accepted: "
            f"{', '.join(sorted(_FIELDS | _OPTIONAL))}"
        )
    if obj["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {obj['format']!r}")
    if obj["version"] != VERSION:
        raise RecordError(f"version must be {VERSION} (this reader's), got {obj['version']!r}")
    if obj["game"] != "cuarenta":
        raise RecordError(
            f"game must be 'cuarenta' (Cuatrola records are not supported yet), got {obj['game']!r}"
        )
    try:
        rules = resolve_rules(obj["rules"])
    except (ValueError, TypeError) as err:
        raise RecordError(f"rules: {err}") from None
    n = obj["players"]
    if isinstance(n, bool) or n not in (2, 4):
        raise RecordError(f"players must be 2 or 4 (R2.1), got {n!r}")
    names = obj["names"]
    if not isinstance(names, list) or len(names) != n or not all(isinstance(s, str) for s in names):
        raise RecordError(f"names must list {n} strings (one per seat), got {names!r}")
    episode = obj["episode"]
    if episode not in EPISODES:
        raise RecordError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
    datas = obj["datas"]
    if not isinstance(datas, list) or not datas:
        raise RecordError("datas must be a non-empty list (one entry per data played)")
    if episode == "data" and len(datas) != 1:
        raise RecordError(f"datas: an episode 'data' holds one data, got {len(datas)}")
    state = CORE.new_state(rules, n, episode, chance="explicit")
    out = CheckedRecord(rules, n, list(names), episode, record=obj)
    for d, data in enumerate(datas):
        _read_data(state, data, d, out)
    if state.current != TERMINAL:
        raise RecordError(
            f"datas: the record ends before the game does (scores {state.board.scores[0]}-"
            f"{state.board.scores[1]}; a chica ends when a side reaches {rules.target}, R9.2)"
        )
    _mark_caidas(out.decisions)
    out.final = state
    if "result" in obj:
        _check_result(obj["result"], state)
    return out


def _read_data(state: CuarentaGame, data: object, d: int, out: CheckedRecord) -> None:
    where = f"datas[{d}]"
    n = out.players
    if state.current != CHANCE:
        raise RecordError(f"{where}: the game ended before this data (R9.2); remove it")
    if not isinstance(data, dict) or set(data) != {"dealer", "deals"}:
        raise RecordError(f'{where} must be {{"dealer": seat, "deals": [...]}}, got {data!r}')
    dealer = data["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(f"{where}.dealer must be a seat 0..{n - 1}, got {dealer!r}")
    if state.dealer is None:
        state.apply_chance(dealer)
    elif dealer != state.dealer:
        raise RecordError(
            f"{where}.dealer is {dealer}, but the deal passes to seat {state.dealer} (R3.4)"
        )
    deals = data["deals"]
    if not isinstance(deals, list) or not deals:
        raise RecordError(f"{where}.deals must be a non-empty list")
    for k, deal in enumerate(deals):
        _read_deal(state, deal, d, k, dealer, out)


def _read_deal(
    state: CuarentaGame, deal: object, d: int, k: int, dealer: int, out: CheckedRecord
) -> None:
    where = f"datas[{d}].deals[{k}]"
    n = out.players
    if state.current != CHANCE:
        what = "the game ended" if state.current == TERMINAL else "the data ended"
        raise RecordError(f"{where}: {what} before this deal (R2.2, R9.2); remove it")
    if not isinstance(deal, dict) or set(deal) != {"hands", "plays"}:
        raise RecordError(f'{where} must be {{"hands": [...], "plays": [...]}}, got {deal!r}')
    hands = deal["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise RecordError(f"{where}.hands must list {n} hands (one per seat)")
    cards: list[list[int]] = []
    for s, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != CARDS_PER_DEAL:
            raise RecordError(
                f"{where}.hands[{s}] must list the {CARDS_PER_DEAL} cards dealt to seat {s} "
                f"(R3.2), got {hand!r}"
            )
        cards.append([_card(c, f"{where}.hands[{s}][{j}]") for j, c in enumerate(hand)])
    dealt = set(state.dealt_cards())
    for s in range(n):
        for j, c in enumerate(cards[s]):
            if c in dealt:
                raise RecordError(
                    f"{where}.hands[{s}][{j}]: {card_name(c)} was dealt already in this data "
                    "(R1.1: one pack of 40 cards)"
                )
            dealt.add(c)
    for p in range(n):  # contract section 2: the p-th seat after the dealer, by position
        for c in cards[(dealer + 1 + p) % n]:
            state.apply_chance(c)
    plays = deal["plays"]
    if not isinstance(plays, list):
        raise RecordError(f"{where}.plays must be a list of plays")
    for j, play in enumerate(plays):
        _read_play(state, play, f"{where}.plays[{j}]", d, out)
    if state.current >= 0 and (state.state is None or state.state.deal == k):
        raise RecordError(
            f"{where}.plays: {len(plays)} plays, but the deal goes on: seat {state.current} "
            f"is to play (every seat plays its {CARDS_PER_DEAL} cards, R3.3) unless a side "
            "reaches the target (R9.2)"
        )


def _read_play(state: CuarentaGame, play: object, where: str, d: int, out: CheckedRecord) -> None:
    index = len(out.decisions)
    at = f"{where} (play {index} of the game)"
    if state.current < 0:
        raise RecordError(f"{at}: nobody is to play: the deal or the game is over (R9.2)")
    if not isinstance(play, dict) or set(play) != {"seat", "card", "base"}:
        raise RecordError(f'{at} must be {{"seat": s, "card": rank, "base": [ranks]}}')
    if play["seat"] != state.current:
        raise RecordError(
            f"{at}.seat is {play['seat']!r}, but seat {state.current} is to play (R3.3)"
        )
    try:
        rank = parse_rank(play["card"])
        if not isinstance(play["base"], list):
            raise ValueError(f"base must be a list of ranks, got {play['base']!r}")
        base = tuple(sorted(parse_rank(r) for r in play["base"]))
    except ValueError as err:
        raise RecordError(f"{at}: {err}") from None
    action = ACTION_OF.get(Play(rank, base))
    legal = state.legal_actions()
    if action is None or action not in legal:
        words = "; ".join(
            f"{RANK_NAMES[PLAYS[a].rank]} {format_ranks(PLAYS[a].base)}" for a in legal
        )
        raise RecordError(
            f"{at}: seat {state.current} cannot play {RANK_NAMES[rank]} on base "
            f"{format_ranks(base)} here (R5); legal: {words}"
        )
    st = state.state
    assert st is not None
    decision = Decision(index, d, st.deal, state.current, PLAYS[action], state.clone())
    out.decisions.append(decision)
    state.apply_action(action)
    event = next(e for e in reversed(state.events) if isinstance(e, PlayEvent))
    decision.caida = bool(event.outcome.caida)


def _card(value: object, where: str) -> int:
    """A physical card id from a name such as ``"7h"`` (rank, then suit h d c s)."""
    text = value.strip() if isinstance(value, str) else ""
    suit = text[-1:].lower()
    if len(text) < 2 or suit not in SUIT_NAMES:
        raise RecordError(
            f"{where}: {value!r} is not a card; a card is a rank (A 2 3 4 5 6 7 J Q K) and a "
            f"suit ({' '.join(SUIT_NAMES)}), e.g. '7h'"
        )
    try:
        rank = parse_rank(text[:-1])
    except ValueError as err:
        raise RecordError(f"{where}: {err}") from None
    card = rank * N_SUITS + SUIT_NAMES.index(suit)
    assert 0 <= card < N_CARDS
    return card


def _mark_caidas(decisions: list[Decision]) -> None:
    """Flag each trail the next player (an opponent) made a caida on (R6.1)."""
    for a, b in itertools.pairwise(decisions):
        if a.play.is_trail and b.caida and (b.data, b.deal) == (a.data, a.deal):
            a.caida_given = True


def _check_result(result: object, state: CuarentaGame) -> None:
    if not isinstance(result, dict) or set(result) - {"scores", "winner"}:
        raise RecordError(f'result must be {{"scores": [s0, s1], "winner": side}}, got {result!r}')
    scores = list(state.board.scores)
    if "scores" in result and result["scores"] != scores:
        raise RecordError(
            f"result.scores is {result['scores']!r}, but the plays give {scores} (R9.2)"
        )
    if "winner" in result and result["winner"] != state.winner:
        raise RecordError(
            f"result.winner is {result['winner']!r}, but the plays give {state.winner!r} (R9.2)"
        )


__all__ = [
    "FORMAT",
    "VERSION",
    "CheckedRecord",
    "Decision",
    "RecordError",
    "dumps_record",
    "load_record",
    "play_json",
    "read_record",
    "record_from_log",
    "write_record",
]
