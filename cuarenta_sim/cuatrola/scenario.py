"""The Cuatrola judge: the scenario interface for ``"game": "cuatrola"``.

A scenario is a JSON object with ``"game": "cuatrola"``, a ``kind`` and its fields;
:func:`evaluate` checks it, runs it through the reference engine's own functions (the same
obligations, trick winner, bidding limits and hand scoring as a full game) and returns a
JSON-ready dict. Malformed input never raises: the result is ``{"error": ...}`` saying what was
wrong and what is accepted. Kinds (``docs/cuatrola_contract.md`` section 8):

``trick``
    ``trump`` (suit letter), ``trick`` (cards played so far, in order, like ``["Rc", "Co"]``
    or ``"Rc Co"``), ``hand`` (the cards of the player to act), optional ``leader`` (seat that
    led, default 0), ``sits_out`` (the seat sitting out in a contract, default ``null``: four
    players), ``last`` (the fifth trick, default false). An incomplete trick gives ``legal``
    (canonical order) and ``obligation`` (``lead``, ``beat``, ``follow``, ``trump``,
    ``overtrump``, ``any``: C3.3); a complete trick (4 cards, 3 with a seat sitting out) gives
    ``winner`` (seat), ``position`` (0-based in the trick) and ``points`` (card points, +10
    when ``last``).
``bids``
    ``scores`` ([pair 0, pair 1], default ``[0, 0]``), ``dealer`` (default 3), ``seat``
    (default the mano), ``bids`` (declarations of the seats before ``seat``, from the mano;
    default all ``pass``) -> ``seat`` and ``legal`` (declarations open to it, C2.1, C2.3).
``hand``
    ``dealer`` (default 3), ``scores`` (before), ``contract`` (``none``, ``solo``,
    ``cuatrola``, ``quintola``), ``declarer`` (seat; ``null`` with ``none``), ``tricks``
    ([pair 0, pair 1], 5 in all), ``points`` (card points with the last trick's 10 per pair:
    130 in all without contract, less with a seat sitting out), ``cantes`` (points sung per
    pair, default ``[0, 0]``) -> ``points`` (with cantes), ``made`` (``null`` without
    contract), ``game_points``, ``scores`` (after) and ``winner`` (pair that reached the
    target, else ``null``).

Every kind also takes ``rules`` (a preset name or slug, or ``{"preset": ..., switch: ...}``,
default ``"ro"``). A scenario file (``{"name", "rule", "scenario", "expected", "note"}``) is
accepted too: its ``scenario`` is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import format_card, format_cards, parse_cards, parse_suit
from .contracts import (
    CONTRACTS,
    CUATROLA,
    DECLARATIONS,
    NONE,
    QUINTOLA,
    legal_declarations,
    may_declare,
    parse_contract,
)
from .reference.scoring import score_hand
from .reference.tricks import legal_plays, obligation, trick_points, trick_winner
from .rules import CuatrolaRules, resolve_rules

KINDS = ("trick", "bids", "hand")
_COMMON = ("game", "kind", "rules")
FIELDS: dict[str, tuple[str, ...]] = {
    "trick": (*_COMMON, "trump", "trick", "hand", "leader", "sits_out", "last"),
    "bids": (*_COMMON, "scores", "dealer", "seat", "bids"),
    "hand": (*_COMMON, "scores", "dealer", "contract", "declarer", "tricks", "points", "cantes"),
}
_FILE_FIELDS = ("name", "rule", "scenario", "expected", "note")
#: Card points in the deck plus the last trick (C1.3).
TOTAL_POINTS = 130


class ScenarioError(ValueError):
    """A malformed Cuatrola scenario; the message says what was wrong and what is accepted."""


def evaluate(obj: object) -> dict[str, Any]:
    """Evaluate one Cuatrola scenario (see the module docstring) and return its result.

    Parameters
    ----------
    obj : dict
        The scenario, or a scenario file object with a ``scenario`` key.

    Returns
    -------
    dict
        The result fields of the scenario's kind, or ``{"error": message}`` on malformed
        input; this function never raises.
    """
    try:
        return _evaluate(obj)
    except (ValueError, TypeError) as exc:
        return {"error": str(exc)}


def _evaluate(obj: object) -> dict[str, Any]:
    if isinstance(obj, dict) and "scenario" in obj and "kind" not in obj:
        _check_fields(obj, _FILE_FIELDS, "a scenario file")
        obj = obj["scenario"]
    if not isinstance(obj, dict):
        raise ScenarioError(
            f"a scenario must be a JSON object with a kind ({', '.join(KINDS)}), got "
            f"{type(obj).__name__}"
        )
    if obj.get("game") != "cuatrola":
        raise ScenarioError(
            f'a Cuatrola scenario needs "game": "cuatrola", got {obj.get("game")!r}'
        )
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ScenarioError(f"kind must be one of {', '.join(KINDS)} for Cuatrola; got {kind!r}")
    _check_fields(obj, FIELDS[kind], f"a Cuatrola {kind} scenario")
    rules = resolve_rules(obj.get("rules", "ro"))
    if kind == "trick":
        return _trick(obj)
    if kind == "bids":
        return _bids(obj, rules)
    return _hand(obj, rules)


# --------------------------------------------------------------------------- kind: trick
def _trick(obj: dict[str, Any]) -> dict[str, Any]:
    if "trump" not in obj or "trick" not in obj:
        raise ScenarioError("a trick scenario needs trump (o, c, e or b) and trick (cards)")
    trump = parse_suit(obj["trump"], "trump")
    trick = parse_cards(obj["trick"], "trick")
    sits_out = obj.get("sits_out")
    if sits_out is not None:
        _check_seat(sits_out, "sits_out")
    players = 4 if sits_out is None else 3
    leader = _int(obj, "leader", 0)
    _check_seat(leader, "leader")
    if leader == sits_out:
        raise ScenarioError(f"leader {leader} sits out this hand; a playing seat leads (C3.1)")
    seats = [s % 4 for s in range(leader, leader + 4) if s % 4 != sits_out]
    if len(trick) > players:
        raise ScenarioError(
            f"trick has {len(trick)} cards but {players} players play (a trick has one card "
            f"per playing seat, C2.2)"
        )
    last = obj.get("last", False)
    if not isinstance(last, bool):
        raise ScenarioError(f"last must be true or false, got {last!r}")
    if len(trick) == players:
        if "hand" in obj:
            raise ScenarioError("the trick is complete: give no hand (the result is its winner)")
        pos = trick_winner(trick, trump)
        return {
            "winner": seats[pos],
            "position": pos,
            "points": trick_points(trick) + (10 if last else 0),
        }
    if "hand" not in obj:
        raise ScenarioError("an incomplete trick needs the hand of the player to act")
    hand = parse_cards(obj["hand"], "hand")
    if not 1 <= len(hand) <= 5:
        raise ScenarioError(f"hand must hold 1 to 5 cards, got {len(hand)}")
    both = sorted(set(hand) & set(trick))
    if both:
        raise ScenarioError(
            f"{format_card(both[0])} is both in the trick and in the hand; each card is unique"
        )
    return {
        "legal": format_cards(legal_plays(hand, trick, trump)),
        "obligation": obligation(hand, trick, trump),
    }


# --------------------------------------------------------------------------- kind: bids
def _bids(obj: dict[str, Any], rules: CuatrolaRules) -> dict[str, Any]:
    scores = _scores(obj.get("scores", [0, 0]), rules)
    dealer = _int(obj, "dealer", 3)
    _check_seat(dealer, "dealer")
    mano = (dealer + 1) % 4
    seat = _int(obj, "seat", mano)
    _check_seat(seat, "seat")
    before = (seat - mano) % 4
    bids = obj.get("bids", ["pass"] * before)
    if not isinstance(bids, list) or len(bids) != before:
        raise ScenarioError(
            f"bids must list the declarations of the {before} seat(s) that bid before seat "
            f"{seat} (from the mano, seat {mano}), got {bids!r}"
        )
    highest = 0
    for k, b in enumerate(bids):
        s = (mano + k) % 4
        d = parse_contract(b, f"bid of seat {s}")
        open_ = legal_declarations(scores[s % 2], highest, False, rules)
        if d not in open_:
            raise ScenarioError(
                f"seat {s} could not declare {DECLARATIONS[d]}: open to it were "
                f"{', '.join(DECLARATIONS[x] for x in open_)} (C2.1, C2.3)"
            )
        if d and rules.bidding == "first_closes":
            raise ScenarioError(
                f"seat {s}'s {DECLARATIONS[d]} ended the bidding (bidding = first_closes): "
                f"seat {seat} does not bid"
            )
        highest = max(highest, d)
    open_ = legal_declarations(scores[seat % 2], highest, False, rules)
    return {"seat": seat, "legal": [DECLARATIONS[d] for d in open_]}


# --------------------------------------------------------------------------- kind: hand
def _hand(obj: dict[str, Any], rules: CuatrolaRules) -> dict[str, Any]:
    for name in ("contract", "tricks", "points"):
        if name not in obj:
            raise ScenarioError(f"missing field {name} in a Cuatrola hand scenario")
    scores = _scores(obj.get("scores", [0, 0]), rules)
    dealer = _int(obj, "dealer", 3)
    _check_seat(dealer, "dealer")
    contract = parse_contract(obj["contract"])
    declarer = obj.get("declarer")
    if contract == NONE:
        if declarer is not None:
            raise ScenarioError("declarer must be null (or absent) with contract none")
        declarer = -1
    else:
        if declarer is None:
            raise ScenarioError(f"contract {CONTRACTS[contract]} needs a declarer seat")
        _check_seat(declarer, "declarer")
        if not may_declare(contract, scores[declarer % 2], rules):
            raise ScenarioError(
                f"pair {declarer % 2} at {scores[declarer % 2]} may not declare "
                f"{CONTRACTS[contract]}: its score plus the contract's value must be at most "
                f"{rules.target} (C2.3)"
            )
    tricks = _pair(obj["tricks"], "tricks", 5)
    if sum(tricks) != 5:
        raise ScenarioError(f"tricks must add up to 5 (a hand has 5 tricks), got {tricks}")
    points = _pair(obj["points"], "points", TOTAL_POINTS)
    total = sum(points)
    if contract == NONE and total != TOTAL_POINTS:
        raise ScenarioError(
            f"points must add up to {TOTAL_POINTS} (120 card points + 10 for the last trick) "
            f"when all four play, got {points}"
        )
    if contract != NONE and total >= TOTAL_POINTS:
        raise ScenarioError(
            f"points must add up to less than {TOTAL_POINTS} in a contract (the declarer's "
            f"partner's cards are dead, C2.2), got {points}"
        )
    cantes = _pair(obj.get("cantes", [0, 0]), "cantes", 80)
    for pair in (0, 1):
        if tricks[pair] == 0 and points[pair]:
            raise ScenarioError(f"pair {pair} took no trick, so it has no points, got {points}")
        if cantes[pair] % 20:
            raise ScenarioError(f"cantes are worth 20 or 40 each (C4.1), got {cantes}")
        if cantes[pair] and (tricks[pair] == 0 or contract in (CUATROLA, QUINTOLA)):
            raise ScenarioError(
                f"pair {pair} cannot have sung: cantes are made after winning a trick, never "
                f"in a cuatrola or quintola (C4.2, C4.3), got {cantes}"
            )
    with_cantes = [points[0] + cantes[0], points[1] + cantes[1]]
    gp, made = score_hand(rules, contract, declarer, (dealer + 1) % 4, tricks, with_cantes)
    after = [scores[0] + gp[0], scores[1] + gp[1]]
    winner = next((p for p in (0, 1) if after[p] >= rules.target), None)
    return {
        "points": with_cantes,
        "made": None if made < 0 else bool(made),
        "game_points": gp,
        "scores": after,
        "winner": winner,
    }


# --------------------------------------------------------------------------- helpers
def _check_fields(obj: dict[str, Any], accepted: Sequence[str], what: str) -> None:
    unknown = [k for k in obj if k not in accepted]
    if unknown:
        raise ScenarioError(
            f"unknown field {', '.join(map(str, unknown))} in {what}; accepted: "
            f"{', '.join(accepted)}"
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(obj: dict[str, Any], name: str, default: int) -> int:
    value = obj.get(name, default)
    if not _is_int(value):
        raise ScenarioError(f"{name} must be a whole number, got {value!r}")
    return value


def _check_seat(seat: object, what: str) -> None:
    if not _is_int(seat) or not 0 <= seat <= 3:  # type: ignore[operator]
        raise ScenarioError(f"{what} must be a seat 0..3, got {seat!r}")


def _pair(value: object, what: str, high: int) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(_is_int(v) and 0 <= v <= high for v in value)
    ):
        raise ScenarioError(
            f"{what} must be [pair 0, pair 1], whole numbers from 0 to {high}, got {value!r}"
        )
    return list(value)


def _scores(value: object, rules: CuatrolaRules) -> list[int]:
    return _pair(
        value, f"scores (game points before, below the target {rules.target})", rules.target - 1
    )
