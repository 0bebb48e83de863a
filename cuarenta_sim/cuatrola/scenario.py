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
    With ``bidding = first_closes`` the list may end at the declaration that closed the
    bidding; a seat after it gets ``legal: []`` and a ``reason`` (it does not bid), not an
    error.
``hand``
    ``dealer`` (default 3), ``scores`` (before), ``contract`` (``none``, ``solo``,
    ``cuatrola``, ``quintola``), ``declarer`` (seat; ``null`` with ``none``), ``tricks``
    ([pair 0, pair 1], 5 in all), ``points`` (card points with the last trick's 10 per pair:
    130 in all without contract, less with a seat sitting out), ``cantes`` (points sung per
    pair, default ``[0, 0]``) -> ``points`` (with cantes), ``made`` (``null`` without
    contract), ``game_points``, ``scores`` (after) and ``winner`` (pair that reached the
    target, else ``null``). Impossible hands are errors: points adding up to other than 130
    without contract or outside :data:`CONTRACT_POINTS` (76..119) in one, a pair's points
    outside what its tricks' cards can hold, cantes that the tricks won cannot give (C4.2,
    C4.3; see :func:`_check_points`, :func:`_check_cantes`).
``solve``
    Every hand known (``trump``, ``contract``, ``declarer``, ``hands``, ``trick``, ``seat``,
    ``sung``) -> the exact value of each legal play of ``seat`` in card points for its pair
    (``values``), ``best`` and the principal line; see
    :mod:`cuarenta_sim.cuatrola.scenario_solve`.

Every kind also takes ``rules`` (a preset name or slug, or ``{"preset": ..., switch: ...}``,
default ``"ro"``). A scenario file (``{"name", "rule", "scenario", "expected", "note"}``) is
accepted too: its ``scenario`` is evaluated.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..scenario import ScenarioError, scenario_object
from ..scenario import check_fields as _check_fields
from .cards import N_CARDS, N_SUITS, format_card, format_cards, parse_cards, parse_suit, points_of
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
from .reference.scoring import CANTE_PLAIN, CANTE_TRUMP, score_hand
from .reference.tricks import LAST_TRICK, legal_plays, obligation, trick_points, trick_winner
from .rules import PRESETS, CuatrolaRules, resolve_rules
from .scenario_solve import SOLVE_FIELDS, solve

KINDS = ("trick", "bids", "hand", "solve")
_COMMON = ("game", "kind", "rules")
FIELDS: dict[str, tuple[str, ...]] = {
    "trick": (*_COMMON, "trump", "trick", "hand", "leader", "sits_out", "last"),
    "bids": (*_COMMON, "scores", "dealer", "seat", "bids"),
    "hand": (*_COMMON, "scores", "dealer", "contract", "declarer", "tricks", "points", "cantes"),
    "solve": (*_COMMON, *SOLVE_FIELDS),
}
#: Tricks in a hand = cards per player (C1.4: all 20 cards dealt, 5 each).
TRICKS = N_CARDS // 4
#: Every card's points, ascending (C1.3); the bounds below are sums of its two ends.
DECK_POINTS = tuple(sorted(points_of(card) for card in range(N_CARDS)))
#: Card points in the deck plus the last trick (C1.3): 130.
TOTAL_POINTS = sum(DECK_POINTS) + LAST_TRICK
#: Tricks after which a cante can be made (C4.2): both its cards must still be in the singer's
#: hand, and after trick t a player holds 5 - t cards, so t <= 3.
CANTE_TRICKS = TRICKS - 2
#: Cante points of every suit sung once (C4.1, C4.3): the range a pair's cantes are read in;
#: :func:`_check_cantes` then rejects what the tricks won cannot give (at most 80 a pair).
ALL_CANTES = CANTE_TRUMP + (N_SUITS - 1) * CANTE_PLAIN


def lowest_points(cards: int) -> int:
    """Fewest card points ``cards`` cards of the deck can hold (the lowest ones, C1.3)."""
    return sum(DECK_POINTS[:cards])


def highest_points(cards: int) -> int:
    """Most card points ``cards`` cards of the deck can hold (the highest ones, C1.3)."""
    return sum(DECK_POINTS[N_CARDS - cards :]) if cards else 0


#: Points both pairs take together in a contract: 130 less the 5 dead cards of the seat that
#: sits out (C2.2), which hold 11 (four sotas and a caballo) to 54 (four aces and a 3): 76..119.
CONTRACT_POINTS = (TOTAL_POINTS - highest_points(TRICKS), TOTAL_POINTS - lowest_points(TRICKS))


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
    obj = scenario_object(obj, KINDS)
    if obj.get("game") != "cuatrola":
        raise ScenarioError(
            f'a Cuatrola scenario needs "game": "cuatrola", got {obj.get("game")!r}'
        )
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ScenarioError(f"kind must be one of {', '.join(KINDS)} for Cuatrola; got {kind!r}")
    _check_fields(obj, FIELDS[kind], f"a Cuatrola {kind} scenario")
    rules = _rules(obj.get("rules", "ro"))
    if kind == "trick":
        return _trick(obj)
    if kind == "bids":
        return _bids(obj, rules)
    if kind == "solve":
        return solve(obj)
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
    closes = rules.bidding == "first_closes"
    # Under first_closes the list may stop at the declaration that ended the bidding: the
    # seats after it do not bid (C2.1).
    bad_list = ScenarioError(
        f"bids must list the declarations of the {before} seat(s) that bid before seat "
        f"{seat} (from the mano, seat {mano}; with bidding = first_closes it may end at the "
        f"declaration that closed the bidding), got {bids!r}"
    )
    if not isinstance(bids, list) or not (
        len(bids) == before or (closes and 0 < len(bids) < before)
    ):
        raise bad_list
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
        if d and closes:
            if k + 1 < len(bids):
                raise ScenarioError(
                    f"seat {s}'s {DECLARATIONS[d]} ended the bidding (bidding = first_closes, "
                    f"C2.1): seat {(s + 1) % 4} did not bid; end bids at that declaration"
                )
            return {
                "seat": seat,
                "legal": [],
                "reason": (
                    f"seat {s}'s {DECLARATIONS[d]} ended the bidding (bidding = first_closes, "
                    f"C2.1): seat {seat} does not bid"
                ),
            }
        highest = max(highest, d)
    if len(bids) != before:  # a short list that did not end at a declaration
        raise bad_list
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
    _check_points(points, tricks, contract)
    cantes = _pair(obj.get("cantes", [0, 0]), "cantes", ALL_CANTES)
    _check_cantes(cantes, tricks, contract)
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


def _check_points(points: list[int], tricks: list[int], contract: int) -> None:
    """Reject card points no deal can give (C1.3, C2.2); ``points`` exclude the cantes.

    Both pairs together take 130 with all four playing, and 130 less the 5 dead cards of the
    seat sitting out in a contract (:data:`CONTRACT_POINTS`); a pair that took ``k`` tricks
    holds ``k`` times 4 (3 in a contract) cards, so between the lowest and the highest that
    many cards of the deck, plus the last trick's 10 when it may have won it (one trick or
    more; certainly with all five).
    """
    total = sum(points)
    if contract == NONE and total != TOTAL_POINTS:
        raise ScenarioError(
            f"points must add up to {TOTAL_POINTS} (120 card points + 10 for the last trick) "
            f"when all four play, got {points}"
        )
    low, high = CONTRACT_POINTS
    if contract != NONE and not low <= total <= high:
        raise ScenarioError(
            f"points must add up to {low}..{high} in a contract: {TOTAL_POINTS} less the "
            f"{TRICKS} dead cards of the seat sitting out, which hold "
            f"{TOTAL_POINTS - high}..{TOTAL_POINTS - low} (C1.3, C2.2), got {points} = {total}"
        )
    per_trick = 4 if contract == NONE else 3
    for pair in (0, 1):
        k = tricks[pair]
        if k == 0:
            if points[pair]:
                raise ScenarioError(f"pair {pair} took no trick, so it has no points, got {points}")
            continue
        cards = k * per_trick
        low = lowest_points(cards) + (LAST_TRICK if k == TRICKS else 0)
        high = highest_points(cards) + LAST_TRICK
        if not low <= points[pair] <= high:
            raise ScenarioError(
                f"pair {pair} took {k} trick(s), {cards} cards, so its points lie in "
                f"{low}..{high} (card points, +10 for the last trick, C1.3), got {points}"
            )


def _check_cantes(cantes: list[int], tricks: list[int], contract: int) -> None:
    """Reject cantes no hand can give (C4.1-C4.3).

    A cante is 20, or 40 in trumps; none in a cuatrola or quintola; a pair sings at most once
    per trick it won, and only after tricks 1 to 3 (:data:`CANTE_TRICKS`), so at most
    ``min(tricks won, 3)`` times, and both pairs together at most 3 times; each suit is sung
    at most once, so one 40 in all. The check looks for the fewest cantes making each pair's
    total, giving the one 40 to either pair or to neither.
    """
    for pair in (0, 1):
        if cantes[pair] % CANTE_PLAIN:
            raise ScenarioError(
                f"cantes are worth {CANTE_PLAIN} or {CANTE_TRUMP} each (C4.1), got {cantes}"
            )
        if cantes[pair] and (tricks[pair] == 0 or contract in (CUATROLA, QUINTOLA)):
            raise ScenarioError(
                f"pair {pair} cannot have sung: cantes are made after winning a trick, never "
                f"in a cuatrola or quintola (C4.2, C4.3), got {cantes}"
            )
    limits = [min(tricks[pair], CANTE_TRICKS) for pair in (0, 1)]

    def count(pair: int, with_trumps: bool) -> int:
        """Cantes making ``cantes[pair]``, the 40 among them or not (the 40 needs >= 40)."""
        if with_trumps:
            return 1 + (cantes[pair] - CANTE_TRUMP) // CANTE_PLAIN
        return cantes[pair] // CANTE_PLAIN

    for pair in (0, 1):
        fewest = count(pair, cantes[pair] >= CANTE_TRUMP)
        if fewest > limits[pair]:
            raise ScenarioError(
                f"pair {pair} cannot have sung {cantes[pair]} with {tricks[pair]} trick(s) won: "
                f"a pair sings at most once per trick won, only after tricks 1 to "
                f"{CANTE_TRICKS}, so at most {limits[pair]} cante(s) of {CANTE_PLAIN} "
                f"({CANTE_TRUMP} in trumps) (C4.2, C4.3), got {cantes}"
            )
    # The one 40 (trumps are one suit, sung once) goes to pair 0, pair 1 or nobody.
    for trump_pair in (None, 0, 1):
        if trump_pair is not None and cantes[trump_pair] < CANTE_TRUMP:
            continue
        counts = [count(pair, pair == trump_pair) for pair in (0, 1)]
        plain = sum(counts) - (trump_pair is not None)
        if (
            all(n <= lim for n, lim in zip(counts, limits, strict=True))
            and sum(counts) <= CANTE_TRICKS
            and plain <= N_SUITS - 1
        ):
            return
    raise ScenarioError(
        f"cantes {cantes} are impossible together: each suit is sung at most once per hand (one "
        f"{CANTE_TRUMP} in trumps, {CANTE_PLAIN} in each other suit) and at most once per "
        f"trick won, only after tricks 1 to {CANTE_TRICKS}, so at most {CANTE_TRICKS} cantes "
        f"in all (C4.2, C4.3)"
    )


# --------------------------------------------------------------------------- helpers
def _rules(value: object) -> CuatrolaRules:
    """The ``rules`` field; a rules object must name its preset (``{}`` is refused rather
    than read as ``ro``)."""
    if isinstance(value, dict) and "preset" not in value:
        raise ScenarioError(
            f"rules {value!r} names no preset: a rules object needs its preset (no preset is "
            f"assumed); give a preset name ({', '.join(PRESETS)}), a slug, or "
            '{"preset": name, switch: value, ...}'
        )
    return resolve_rules(value)  # type: ignore[arg-type]


def _is_int(value: object) -> bool:
    """A whole number: a Python or numpy integer, not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _int(obj: dict[str, Any], name: str, default: int) -> int:
    value = obj.get(name, default)
    if not _is_int(value):
        raise ScenarioError(f"{name} must be a whole number, got {value!r}")
    return int(value)  # type: ignore[call-overload]


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
    return [int(v) for v in value]


def _scores(value: object, rules: CuatrolaRules) -> list[int]:
    return _pair(
        value, f"scores (game points before, below the target {rules.target})", rules.target - 1
    )
