"""Kind ``solve`` of the Cuatrola judge: the exact value of every legal play, every hand known.

``{"game": "cuatrola", "kind": "solve", ...}`` (``docs/cuatrola_contract.md`` section 8).
Fields:

``trump``
    The trump suit (``o c e b``), required.
``contract``, ``declarer``
    ``none`` (default, ``declarer`` null or absent), ``solo``, ``cuatrola`` or ``quintola``
    with the declaring seat; the declarer's partner sits out (C2.2).
``hands``
    Per seat 0..3 the cards it holds now (lists like ``["Rc", "Co"]`` or strings); the seat
    sitting out gives ``[]`` (its cards are dead). The seat to move holds 1 to 5 cards; the
    seats that already played to the current trick one fewer, the others as many.
``trick``
    The cards of the current trick in playing order (default ``[]``); each must have been
    legal (C3.3) from its player's hand now plus that card.
``seat``
    The seat to move, required; it must play in the hand.
``sung``
    Suits sung earlier in the hand (default ``[]``): each at most once, none in a cuatrola or
    quintola, at most one per trick completed and only after tricks 1 to 3 (C4.2, C4.3).

Output: ``seat``; ``values`` (each legal card of ``seat`` in canonical order with its value:
the card points, last trick's 10 and cantes ``seat``'s pair takes from the position to the end
of the hand minus the other side's, every seat then playing perfectly; cantes as the built-in
behaviour makes them, contract section 5); ``best`` (the largest value); the **principal
line** (every seat playing its first card of largest value): ``line`` (``[seat, card]`` per
play), ``points`` and ``tricks`` (per pair, taken on the line from the position) and
``cantes`` (``[singer, suit, value]``). The values come from the numba solver
(:mod:`cuarenta_sim.cuatrola.engine.solver`), the line's steps from the reference engine
(:mod:`cuarenta_sim.cuatrola.reference.solver`). Errors raise ``ValueError`` naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .cards import SUITS, format_card, format_cards, parse_cards, parse_suit
from .contracts import CONTRACTS, NONE, SOLO, parse_contract
from .engine.solver import solve_values
from .reference.solver import TRICKS, SolvePosition, play
from .reference.tricks import legal_plays

#: Fields of the kind (besides ``game``, ``kind`` and ``rules``).
SOLVE_FIELDS = ("trump", "contract", "declarer", "hands", "trick", "seat", "sung")


def _seat(value: object, what: str) -> int:
    if (
        not isinstance(value, int | np.integer)
        or isinstance(value, bool | np.bool_)
        or not 0 <= int(value) <= 3
    ):
        raise ValueError(f"{what} must be a seat 0..3, got {value!r}")
    return int(value)


def parse_position(obj: dict[str, Any]) -> SolvePosition:
    """Check the fields of a ``solve`` scenario (module docstring) and build its position.

    Raises
    ------
    ValueError
        A field missing, malformed or impossible; the message names the field and says
        what is accepted.
    """
    for name in ("trump", "hands", "seat"):
        if name not in obj:
            raise ValueError(f"missing field {name} in a Cuatrola solve scenario")
    trump = parse_suit(obj["trump"], "trump")
    contract = parse_contract(obj.get("contract", "none"))
    declarer = obj.get("declarer")
    if contract == NONE:
        if declarer is not None:
            raise ValueError("declarer must be null (or absent) with contract none")
        declarer, out = -1, -1
    else:
        if declarer is None:
            raise ValueError(f"contract {CONTRACTS[contract]} needs a declarer seat")
        declarer = _seat(declarer, "declarer")
        out = (declarer + 2) % 4
    seat = _seat(obj["seat"], "seat")
    if seat == out:
        raise ValueError(
            f"seat {seat} sits out the {CONTRACTS[contract]} of seat {declarer} (the declarer's "
            f"partner, C2.2): give a playing seat"
        )
    raw = obj["hands"]
    if not isinstance(raw, list) or len(raw) != 4:
        raise ValueError(f"hands must be a list of 4 card lists (seats 0..3), got {raw!r}")
    hands = [parse_cards(h, f"hands[{s}]") for s, h in enumerate(raw)]
    trick = parse_cards(obj.get("trick", []), "trick")
    players = 3 if out >= 0 else 4
    if len(trick) >= players:
        raise ValueError(
            f"trick must be incomplete: at most {players - 1} cards with {players} players "
            f"(a complete trick is closed before the next play), got {len(trick)}"
        )
    if out >= 0 and hands[out]:
        raise ValueError(f"hands[{out}] must be []: seat {out} sits out (C2.2), its cards are dead")
    # The seats that played to the trick, from its leader, end just before `seat`.
    playing = [s for s in range(4) if s != out]
    seats: list[int] = []
    s = seat
    for _ in trick:
        s = (s - 1) % 4
        if s == out:
            s = (s - 1) % 4
        seats.insert(0, s)
    n = len(hands[seat])
    if not 1 <= n <= TRICKS:
        raise ValueError(f"hands[{seat}] (the seat to move) must hold 1 to 5 cards, got {n}")
    for p in playing:
        want = n - 1 if p in seats else n
        if len(hands[p]) != want:
            raise ValueError(
                f"hands[{p}] must hold {want} card(s): the seat to move holds {n}, and a seat "
                f"that already played to the current trick one fewer, got {len(hands[p])}"
            )
    seen: dict[int, str] = {}
    for where, cards in [*((f"hands[{s}]", h) for s, h in enumerate(hands)), ("trick", trick)]:
        for c in cards:
            if c in seen:
                raise ValueError(
                    f"{format_card(c)} is both in {seen[c]} and in {where}; each card is unique"
                )
            seen[c] = where
    for i, (c, s) in enumerate(zip(trick, seats, strict=True)):
        legal = legal_plays([*hands[s], c], trick[:i], trump)
        if c not in legal:
            raise ValueError(
                f"trick: seat {s}'s {format_card(c)} was not legal holding "
                f"{' '.join(format_cards([*hands[s], c]))} (legal {' '.join(format_cards(legal))}, "
                f"C3.3)"
            )
    sung_raw = obj.get("sung", [])
    if not isinstance(sung_raw, list):
        raise ValueError(f"sung must be a list of suit letters (o c e b), got {sung_raw!r}")
    sung = [parse_suit(x, "a suit of sung") for x in sung_raw]
    trick_no = TRICKS - n
    if len(set(sung)) != len(sung):
        raise ValueError(
            f"sung lists a suit twice; each suit is sung at most once (C4.3): {sung_raw}"
        )
    if sung and contract not in (NONE, SOLO):
        raise ValueError(f"sung must be [] in a {CONTRACTS[contract]}: no cantes in it (C4.3)")
    if len(sung) > min(trick_no, TRICKS - 2):
        raise ValueError(
            f"sung holds {len(sung)} suits but only {trick_no} trick(s) are complete: at most "
            f"one cante per trick, only after tricks 1 to 3 (C4.2, C4.3)"
        )
    return SolvePosition(
        trump, contract, declarer, tuple(frozenset(h) for h in hands), tuple(trick),
        tuple(seats), seat, frozenset(sung),
    )  # fmt: skip


def solve(obj: dict[str, Any]) -> dict[str, Any]:
    """Evaluate a ``solve`` scenario (module docstring): values, ``best`` and the principal
    line.

    Raises
    ------
    ValueError
        Bad fields (:func:`parse_position`).
    """
    p = parse_position(obj)
    values = solve_values(p)
    best = max(v for _c, v in values)
    line: list[list[Any]] = []
    points, tricks, cantes = [0, 0], [0, 0], []
    here: SolvePosition | None = p
    first = values
    while here is not None:
        vals = first if here is p else solve_values(here)
        card = next(c for c, v in vals if v == max(x for _c, x in vals))
        line.append([here.seat, format_card(card)])
        step = play(here, card)
        if step.winner >= 0:
            tricks[step.winner % 2] += 1
            points[step.winner % 2] += step.points
            if step.cante is not None:
                singer, suit, value = step.cante
                points[singer % 2] += value
                cantes.append([singer, SUITS[suit], value])
        here = step.after
    return {
        "seat": p.seat,
        "values": [{"card": format_card(c), "value": v} for c, v in values],
        "best": best,
        "line": line,
        "points": points,
        "tricks": tricks,
        "cantes": cantes,
    }


def solve_scenario(p: SolvePosition, rules: str = "ro") -> dict[str, Any]:
    """The ``solve`` scenario of a position (the inverse of :func:`parse_position`)."""
    out: dict[str, Any] = {
        "game": "cuatrola",
        "kind": "solve",
        "rules": rules,
        "trump": SUITS[p.trump],
        "contract": CONTRACTS[p.contract],
        "hands": [format_cards(h) for h in p.hands],
        "trick": [format_card(c) for c in p.trick],
        "seat": p.seat,
        "sung": [SUITS[s] for s in sorted(p.sung)],
    }
    if p.contract != NONE:
        out["declarer"] = p.declarer
    return out


__all__ = ["SOLVE_FIELDS", "parse_position", "solve", "solve_scenario"]
