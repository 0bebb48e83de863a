"""Field checks of the Cuarenta judge (:mod:`cuarenta_sim.cuarenta.scenario`).

Each function reads one field of a scenario and raises :class:`ScenarioError` naming the field
and what is accepted. Besides the shapes and ranges of section F, the ``solve`` kind's
positions must be possible (``docs/engine_contract.md`` section 9): :func:`check_rondas_held`
ties ``rondas`` to the hands (R4.1) and :func:`claims_field` refuses claims the rules cannot
produce (R6.4). Numbers may be Python or numpy integers; results hold Python ints.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..scenario import ScenarioError
from .cards import RANK_NAMES, format_ranks, parse_rank, parse_ranks
from .reference.state import CARDS_PER_DEAL
from .rules import PRESETS, RuleSet, resolve_rules


def rules_field(value: object) -> RuleSet:
    """The ``rules`` field: a preset name or slug, ``{"preset": name, switch: value, ...}``
    (the preset named: ``{}`` is refused rather than read as quito) or, from Python, a
    :class:`RuleSet`."""
    accepted = (
        f'a preset name ({", ".join(PRESETS)}), a slug, or {{"preset": name, switch: value, ...}}'
    )
    if isinstance(value, RuleSet):
        return value
    if not isinstance(value, str | dict):
        raise ScenarioError(f"rules must be {accepted}; got {value!r}")
    if isinstance(value, dict) and "preset" not in value:
        raise ScenarioError(
            f"rules {value!r} names no preset: a rules object needs its preset (no preset is "
            f"assumed); give {accepted}"
        )
    return resolve_rules(value)


def is_int(value: object) -> bool:
    """A whole number: a Python or numpy integer, not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def int_field(obj: dict[str, Any], name: str, default: int, *, where: str = "") -> int:
    value = obj.get(name, default)
    if not is_int(value):
        raise ScenarioError(f"{where or name} must be a whole number, got {value!r}")
    return int(value)


def check_seat(seat: int, players: int, what: str) -> None:
    if not 0 <= seat < players:
        raise ScenarioError(f"{what} must be a seat 0..{players - 1}, got {seat}")


def list_field(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list, got {value!r}")
    return value


def ranks_field(value: list[Any], *, what: str) -> list[int]:
    """Parse a list of ranks (a multiset, at most 4 of a rank: R1.1), naming the field."""
    try:
        return parse_ranks(value, what=what)
    except ValueError as exc:
        message = str(exc)
        raise ScenarioError(message if message.startswith(what) else f"{what}: {message}") from None


def rank_field(value: object, what: str) -> int:
    try:
        return parse_rank(value)
    except ValueError as exc:
        raise ScenarioError(f"{what}: {exc}") from None


def scores_field(value: object, rules: RuleSet) -> list[int]:
    if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) for v in value):
        raise ScenarioError(f"scores must be [side 0, side 1] whole numbers, got {value!r}")
    for v in value:
        if v < 0 or v % 2 or v >= rules.target:
            raise ScenarioError(
                f"scores must be even (R1.4), >= 0 and below the target {rules.target} "
                f"(the chica would be over); got {value!r}"
            )
    return [int(v) for v in value]


def rondas_field(value: object, players: int) -> list[list[int]]:
    if value is None:
        return [[] for _ in range(players)]
    items = list_field(value, "rondas")
    if len(items) != players:
        raise ScenarioError(
            f"rondas must list, per seat ({players} seats), the ranks dealt as ronda; "
            f"got {len(items)} entries"
        )
    rondas = []
    for seat, item in enumerate(items):
        where = f"rondas[{seat}]"
        ranks = sorted(set(ranks_field(list_field(item, where), what=where)))
        if len(ranks) > 1:
            raise ScenarioError(
                f"rondas[{seat}]: five cards hold at most one ronda (R4), got {format_ranks(ranks)}"
            )
        rondas.append(ranks)
    held = [r for ranks in rondas for r in ranks]
    for r in set(held):
        if held.count(r) > 1:
            raise ScenarioError(
                f"rondas: two seats cannot both be dealt three of rank {RANK_NAMES[r]} (R1.1: "
                f"four cards of a rank)"
            )
    return rondas


def check_rondas_held(rondas: list[list[int]], hands: list[list[int]]) -> None:
    """Refuse ``rondas`` the ``solve`` position's hands cannot go with (R4.1, R1.1).

    A ronda is three (or four) cards of one rank dealt to a seat in this deal, and every card
    a seat holds in the last deal was dealt in it. So a seat that holds ``h`` cards of rank
    ``r`` and has played ``p`` cards of the deal was dealt a ronda of ``r`` only if ``h + p
    >= 3``; with three of ``r`` dealt to it, the other hands hold at most one ``r``; and a
    seat holding three of a rank was dealt a ronda of it, which ``rondas`` must list.

    Parameters
    ----------
    rondas : list of list of int
        Per seat, the ronda ranks given (at most one).
    hands : list of list of int
        Per seat, rank counts held now.

    Raises
    ------
    ScenarioError
        Naming the seat, the rank and the rule.
    """
    for seat, ranks in enumerate(rondas):
        played = CARDS_PER_DEAL - sum(hands[seat])
        for r in ranks:
            name, held = RANK_NAMES[r], hands[seat][r]
            if held + played < 3:
                raise ScenarioError(
                    f"rondas[{seat}] names {name}, but seat {seat} holds {held} {name} and has "
                    f"played {played} card(s) of this deal: it cannot have been dealt three "
                    f"(R4.1: a ronda is three cards of one rank dealt in this deal); accepted: a "
                    f"rank it holds with the cards it played making three or more"
                )
            others = sum(h[r] for s, h in enumerate(hands) if s != seat)
            if others > 1:
                raise ScenarioError(
                    f"rondas[{seat}] names {name}, dealt three times to seat {seat} in this "
                    f"deal (R4.1), but the other hands hold {others} {name}: a rank has four "
                    f"cards (R1.1)"
                )
    for seat, hand in enumerate(hands):
        for r, held in enumerate(hand):
            if held >= 3 and r not in rondas[seat]:
                raise ScenarioError(
                    f"hands[{seat}] holds {held} {RANK_NAMES[r]}: seat {seat} was dealt a ronda "
                    f"of {RANK_NAMES[r]} in this deal (R4.1; every card held in the last deal "
                    f"was dealt in it); list it in rondas[{seat}]"
                )


def claims_field(
    value: object,
    first: object,
    rules: RuleSet,
    rondas: list[list[int]],
    hands: list[list[int]],
) -> tuple[tuple[int, int], tuple[int, ...]]:
    """``(claims, claim order)`` of a ``solve`` scenario, refusing claims the rules and the
    position cannot produce (R6.4).

    A claim is a caida en ronda's value credited at the end of the deal: only under
    ``caida_en_ronda_timing = end_of_deal``, in multiples of ``caida_en_ronda_points``, by a
    side whose opponent holds a ronda of this deal, at most one a play the side made on a card
    of that ronda the opponent played.

    Parameters
    ----------
    value, first
        The ``claims`` and ``first_claim`` fields (None when absent).
    rules : RuleSet
    rondas, hands : list of list of int
        Per seat, ronda ranks and rank counts held (already checked).

    Raises
    ------
    ScenarioError
        Naming the field, the rule and what is accepted.
    """
    if value is None:
        value = [0, 0]
    claims = list_field(value, "claims")
    if len(claims) != 2 or not all(is_int(x) and x >= 0 and x % 2 == 0 for x in claims):
        raise ScenarioError(
            f"claims must be [side 0, side 1] even points >= 0 claimed in this deal (R6.4), "
            f"got {claims!r}"
        )
    claims = [int(x) for x in claims]
    claimed = [side for side in (0, 1) if claims[side] > 0]
    if claimed and rules.caida_en_ronda_timing != "end_of_deal":
        raise ScenarioError(
            f"claims {claims} under caida_en_ronda_timing {rules.caida_en_ronda_timing}: these "
            "rules credit a caida en ronda at once (R6.4), so nothing is claimed for the end of "
            "the deal; accepted: [0, 0] or no claims field"
        )
    value_each = rules.caida_en_ronda_points
    players = len(hands)
    for side in claimed:
        if value_each == 0 or claims[side] % value_each:
            raise ScenarioError(
                f"claims[{side}] {claims[side]} is not a multiple of caida_en_ronda_points "
                f"{value_each} (each caida en ronda claims that value, R6.4)"
            )
        made = sum(CARDS_PER_DEAL - sum(hands[s]) for s in range(side, players, 2))
        given = sum(
            min(CARDS_PER_DEAL - sum(hands[s]), 4 - hands[s][r])
            for s in range(1 - side, players, 2)
            for r in rondas[s]
        )
        if claims[side] // value_each > min(made, given):
            raise ScenarioError(
                f"claims[{side}] {claims[side]} needs {claims[side] // value_each} caidas en "
                f"ronda (R6.4: each a capture by side {side} of a card an opponent trailed "
                f"from a ronda dealt in this deal), but side {side} has made {made} play(s) "
                f"and its opponents' rondas (rondas) allow {given}"
            )
    if first is None:
        if len(claimed) == 2:
            raise ScenarioError("first_claim is needed (0 or 1): both sides hold claims")
        order = tuple(claimed)
    else:
        if not is_int(first) or first not in claimed:
            raise ScenarioError(
                f"first_claim must be a side holding claims ({', '.join(map(str, claimed))}), "
                f"got {first!r}"
            )
        order = (int(first), *(s for s in claimed if s != first))  # type: ignore[call-overload]
    return (claims[0], claims[1]), order
