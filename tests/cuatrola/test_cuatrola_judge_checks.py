"""The Cuatrola judge rejects impossible hands and answers closed bidding (issue 11 item 9).

Point totals (C1.3, C2.2), cantes (C4.1-C4.3) and ``first_closes`` bidding (C2.1); the bounds
are derived here again from the card values, by brute force, not copied from the judge; and
every hand the reference engine plays must pass the judge with the engine's own score.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from cuarenta_sim.cuatrola.cards import N_CARDS, points_of
from cuarenta_sim.cuatrola.policies import resolve_bid_policies, resolve_play_policies
from cuarenta_sim.cuatrola.reference import play_game
from cuarenta_sim.cuatrola.rules import resolve_rules as resolve
from cuarenta_sim.cuatrola.scenario import CONTRACT_POINTS, TOTAL_POINTS
from cuarenta_sim.rng import root_from_seed
from cuarenta_sim.scenario import evaluate

#: Points of every five-card hand the seat sitting out may hold (C1.4: 5 cards each).
DEAD_HANDS = sorted({sum(points_of(c) for c in hand) for hand in combinations(range(N_CARDS), 5)})


def hand(**fields: Any) -> dict[str, Any]:
    """Evaluate a Cuatrola ``hand`` scenario with ``fields``."""
    return evaluate({"game": "cuatrola", "kind": "hand", **fields})


def error(result: dict[str, Any]) -> str:
    """The one error line of a rejected scenario."""
    assert set(result) == {"error"}, result
    assert "\n" not in result["error"]
    return result["error"]


# --------------------------------------------------------------------------- point totals
def test_bounds_follow_from_the_card_values() -> None:
    """130 = the deck's card points + 10 for the last trick (C1.3); in a contract the dead
    hand holds 11..54 of them, so both pairs take 76..119 together (C2.2)."""
    deck = sum(points_of(c) for c in range(N_CARDS))
    assert deck + 10 == TOTAL_POINTS
    assert (DEAD_HANDS[0], DEAD_HANDS[-1]) == (11, 54)
    assert (TOTAL_POINTS - DEAD_HANDS[-1], TOTAL_POINTS - DEAD_HANDS[0]) == CONTRACT_POINTS


@pytest.mark.parametrize("total_offset", [-1, 1])
def test_contract_total_outside_the_dead_hand_bounds(total_offset: int) -> None:
    low, high = CONTRACT_POINTS
    total = low - 1 if total_offset < 0 else high + 1
    msg = error(
        hand(contract="solo", declarer=1, tricks=[2, 3], points=[total // 2, total - total // 2])
    )
    assert f"add up to {low}..{high} in a contract" in msg
    assert "C2.2" in msg


@pytest.mark.parametrize("total", CONTRACT_POINTS)
def test_contract_total_at_the_bounds_is_accepted(total: int) -> None:
    r = hand(contract="solo", declarer=1, tricks=[2, 3], points=[total // 2, total - total // 2])
    assert "error" not in r, r


def test_a_pair_cannot_take_more_than_its_cards_hold() -> None:
    """One trick of four cards holds at most four aces (44) + the last trick's 10."""
    msg = error(hand(contract="none", tricks=[1, 4], points=[55, 75]))
    assert "pair 0 took 1 trick(s), 4 cards, so its points lie in 8..54" in msg
    assert "error" not in hand(contract="none", tricks=[1, 4], points=[54, 76])


def test_three_card_tricks_in_a_contract() -> None:
    """In a contract a trick has three cards: one trick holds at most 3 aces (33) + 10."""
    top3 = sum(sorted(points_of(c) for c in range(N_CARDS))[-3:])
    msg = error(hand(contract="solo", declarer=0, tricks=[1, 4], points=[top3 + 11, 50]))
    assert f"pair 0 took 1 trick(s), 3 cards, so its points lie in 6..{top3 + 10}" in msg
    assert "error" not in hand(contract="solo", declarer=0, tricks=[1, 4], points=[top3 + 10, 50])


# --------------------------------------------------------------------------- cantes
def test_one_cante_per_trick_won() -> None:
    """One trick won: one cante at most, so 40 at most (C4.3)."""
    msg = error(hand(contract="none", tricks=[1, 4], points=[30, 100], cantes=[60, 0]))
    assert "pair 0 cannot have sung 60 with 1 trick(s) won" in msg
    assert "at most 1 cante(s)" in msg
    assert "C4.2, C4.3" in msg
    ok = hand(contract="none", tricks=[1, 4], points=[30, 100], cantes=[40, 0])
    assert ok["points"] == [70, 100]


def test_cantes_only_after_tricks_one_to_three() -> None:
    """All four suits sung (100) needs four cantes, but only tricks 1 to 3 allow one: both
    cards must still be in hand, and after trick 4 each player holds one card (C4.2)."""
    msg = error(hand(contract="none", tricks=[5, 0], points=[130, 0], cantes=[100, 0]))
    assert "only after tricks 1 to 3, so at most 3 cante(s)" in msg
    ok = hand(contract="none", tricks=[5, 0], points=[130, 0], cantes=[80, 0])
    assert ok["points"] == [210, 0]


@pytest.mark.parametrize(
    ("tricks", "cantes"),
    [
        ([3, 2], [80, 40]),  # 40+20+20 and another 40 (trumps twice) or 20+20 (5 cantes)
        ([2, 3], [40, 60]),  # trumps twice, or four cantes after three tricks
    ],
)
def test_each_suit_once_and_three_cantes_in_all(tricks: list[int], cantes: list[int]) -> None:
    msg = error(hand(contract="none", tricks=tricks, points=[60, 70], cantes=cantes))
    assert f"cantes {cantes} are impossible together" in msg
    assert "each suit is sung at most once" in msg


@pytest.mark.parametrize(
    ("contract", "tricks", "cantes"),
    [
        ("none", [2, 3], [40, 40]),  # pair 0 sings the 40, pair 1 two 20s
        ("none", [1, 4], [20, 60]),  # 20; then 40 + 20
        ("none", [3, 2], [80, 0]),  # 40 + 20 + 20 after tricks 1 to 3
        ("solo", [1, 4], [20, 20]),  # the declarer alone sings once, a defender once
    ],
)
def test_possible_cantes_are_accepted(contract: str, tricks: list[int], cantes: list[int]) -> None:
    # 26 points a trick without contract (130 in all); 30 and 70 in the solo.
    points = [26 * tricks[0], 26 * tricks[1]] if contract == "none" else [30, 70]
    declarer = None if contract == "none" else 0
    r = hand(contract=contract, declarer=declarer, tricks=tricks, points=points, cantes=cantes)
    assert "error" not in r, r
    assert r["points"] == [points[0] + cantes[0], points[1] + cantes[1]]


def test_no_cantes_in_a_cuatrola_nor_without_a_trick() -> None:
    msg = error(
        hand(contract="quintola", declarer=0, tricks=[5, 0], points=[100, 0], cantes=[20, 0])
    )
    assert "never in a cuatrola or quintola" in msg
    msg = error(hand(contract="none", tricks=[5, 0], points=[130, 0], cantes=[0, 20]))
    assert "pair 1 cannot have sung" in msg


# --------------------------------------------------------------------------- every real hand
@pytest.mark.parametrize(
    ("rules", "plays", "bids"),
    [
        ("ro", "random", "threshold"),
        ("ro", "greedy", ["always(solo)", "never"]),
        ("online", ["random", "greedy"], ["threshold(solo=10,cuatrola=14,quintola=18)", "never"]),
        ("ro(failed_contract=nobody)", "random", ["always(quintola)", "always(cuatrola)"]),
    ],
)
def test_every_reference_hand_passes_the_judge(rules: str, plays: Any, bids: Any) -> None:
    """No false rejection: each hand the reference engine plays (cantes sung whenever
    possible) is accepted, and the judge scores it as the engine did."""
    ruleset = resolve(rules)
    root, _ = root_from_seed(17)
    play_p, bid_p = resolve_play_policies(plays), resolve_bid_policies(bids)
    seen_cantes = 0
    for game in range(12):
        rec = play_game(ruleset, root, game, play_p, bid_p)
        before = [0, 0]
        for h in rec.hands:
            contract = ("none", "solo", "cuatrola", "quintola")[h.contract]
            r = hand(
                rules=rules,
                dealer=h.dealer,
                scores=before,
                contract=contract,
                declarer=None if h.contract == 0 else h.declarer,
                tricks=list(h.tricks),
                points=list(h.points),
                cantes=list(h.cantes),
            )
            assert "error" not in r, (r, h)
            assert r["game_points"] == list(h.game_points)
            assert r["scores"] == list(h.scores)
            seen_cantes += sum(1 for c in h.cantes if c)
            before = list(h.scores)
    assert seen_cantes > 0  # the cante checks met real cantes


# --------------------------------------------------------------------------- first_closes
def bids(**fields: Any) -> dict[str, Any]:
    """Evaluate a Cuatrola ``bids`` scenario with ``fields``."""
    return evaluate({"game": "cuatrola", "kind": "bids", **fields})


def test_first_closes_answers_no_declaration_after_a_declaration() -> None:
    r = bids(rules="online", dealer=3, seat=3, bids=["pass", "solo"])
    assert r["seat"] == 3 and r["legal"] == []
    assert r["reason"] == (
        "seat 1's solo ended the bidding (bidding = first_closes, C2.1): seat 3 does not bid"
    )
    # The same under overcall: seat 3 may pass or overcall.
    assert bids(rules="ro", dealer=3, seat=3, bids=["pass", "solo", "pass"]) == {
        "seat": 3,
        "legal": ["pass", "cuatrola", "quintola"],
    }


def test_first_closes_answers_for_the_very_next_seat() -> None:
    r = bids(rules={"preset": "ro", "bidding": "first_closes"}, dealer=0, seat=2, bids=["cuatrola"])
    assert (r["seat"], r["legal"]) == (2, [])
    assert "seat 1's cuatrola ended the bidding" in r["reason"]


def test_first_closes_before_any_declaration_bids_as_usual() -> None:
    assert bids(rules="online", dealer=3, seat=2, bids=["pass", "pass"]) == {
        "seat": 2,
        "legal": ["pass", "solo", "cuatrola", "quintola"],
    }


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        # A seat after the closing declaration cannot have bid.
        (
            {"rules": "online", "seat": 3, "bids": ["solo", "pass", "pass"]},
            "seat 0's solo ended the bidding (bidding = first_closes, C2.1): seat 1 did not bid",
        ),
        # Under overcall the list must be complete.
        ({"rules": "ro", "seat": 3, "bids": ["solo"]}, "bids must list the declarations of the 3"),
        # A short list must end at a declaration.
        ({"rules": "online", "seat": 3, "bids": ["pass"]}, "it may end at the declaration"),
        ({"rules": "online", "seat": 3, "bids": ["pass", "Pass"]}, "it may end at the"),
        # The closing declaration itself must have been open (C2.3).
        (
            {"rules": "online", "scores": [0, 10], "seat": 2, "bids": ["pass", "solo"]},
            "seat 1 could not declare solo",
        ),
    ],
)
def test_bad_bids_under_first_closes(fields: dict[str, Any], fragment: str) -> None:
    assert fragment in error(bids(dealer=3, **fields))
