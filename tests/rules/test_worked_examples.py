"""Worked examples E1..E20 of docs/cuarenta.md section E, under the presets each names.

Examples that name no preset hold in every preset (they are parametrized over all four, with
the ``quito_torneo`` two-card sum limit where it matters). "B just trailed X" is
``previous = {"seat": 1, "trail": X}`` (seat 0 plays, seat 1 dealt).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cuarenta_sim.cuarenta.rules import PRESETS

Run = Callable[..., dict[str, Any]]
ALL = list(PRESETS)
B_TRAILED = {"seat": 1}


def play(
    run: Run, preset: str, table: list[str], card: str, base: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    sc: dict[str, Any] = {"kind": "play", "rules": preset, "table": table, "card": card, **extra}
    if base is not None:
        sc["base"] = base
    return run(**sc)


@pytest.mark.parametrize("preset", ALL)
def test_e1_match_without_run(run: Run, preset: str) -> None:
    """E1 (R5.1): table {5, K}, play 5: captures 5 5; table {K}; 0 points."""
    out = play(run, preset, ["5", "K"], "5", ["5"])
    assert (out["captured"], out["table"], out["points"]) == (["5", "5"], ["K"], [0, 0])


@pytest.mark.parametrize("preset", ALL)
def test_e2_run_stops_at_a_gap(run: Run, preset: str) -> None:
    """E2 (R5.4): table {3, 4, 5, 7, J}, play 3: match 3, run 4 5; table {7, J}."""
    out = play(run, preset, ["3", "4", "5", "7", "J"], "3", ["3"])
    assert out["captured"] == ["3", "3", "4", "5"] and out["table"] == ["7", "J"]


@pytest.mark.parametrize("preset", ALL)
def test_e3_sum_of_two(run: Run, preset: str) -> None:
    """E3 (R5.2): table {2, 3, Q}, play 5: sum 2+3, no 6; pile +3; table {Q}."""
    out = play(run, preset, ["2", "3", "Q"], "5", ["2", "3"])
    assert len(out["captured"]) == 3 and out["table"] == ["Q"]


def test_e4_three_card_sum_quito_and_torneo(run: Run) -> None:
    """E4 (R5.2): table {A, 2, 4, K}, play 7: quito sum A+2+4; quito_torneo trail only."""
    out = play(run, "quito", ["A", "2", "4", "K"], "7", ["A", "2", "4"])
    assert out["table"] == ["K"]
    assert play(run, "quito_torneo", ["A", "2", "4", "K"], "7")["options"] == [[]]


@pytest.mark.parametrize("preset", ALL)
def test_e5_sum_run_through_faces_limpia(run: Run, preset: str) -> None:
    """E5 (R5.4, R7.1): table {3, 4, J, Q, K}, play 7: 3+4, run J Q K, limpia +2."""
    out = play(run, preset, ["3", "4", "J", "Q", "K"], "7", ["3", "4"])
    assert len(out["captured"]) == 6 and out["table"] == [] and out["limpia"] is True
    assert out["points"] == [2, 0]


@pytest.mark.parametrize("preset", ALL)
def test_e6_match_run_into_faces(run: Run, preset: str) -> None:
    """E6 (R5.4, R1.3): table {7, J, Q, 2}, play 7: match 7, run J Q; table {2}."""
    out = play(run, preset, ["7", "J", "Q", "2"], "7", ["7"])
    assert out["captured"] == ["7", "7", "J", "Q"] and out["table"] == ["2"]


@pytest.mark.parametrize("preset", ALL)
def test_e7_faces_never_sum(run: Run, preset: str) -> None:
    """E7 (R1.2): table {K, 6}, play 7: trail only; play K: match K, table {6}."""
    assert play(run, preset, ["K", "6"], "7")["options"] == [[]]
    assert play(run, preset, ["K", "6"], "K", ["K"])["table"] == ["6"]


@pytest.mark.parametrize("preset", ALL)
def test_e8_match_or_sum_only_the_match_is_a_caida(run: Run, preset: str) -> None:
    """E8 (R5.3, R6.2): table {5, 2, 3, 6}, play 5: match (+6) or sum 2+3 (+6)."""
    prev = {**B_TRAILED, "trail": "5"}
    match = play(run, preset, ["5", "2", "3", "6"], "5", ["5"], previous=prev)
    assert match["options"] == [[], ["5"], ["2", "3"]]
    assert match["table"] == ["2", "3"] and match["caida"] is True
    summ = play(run, preset, ["5", "2", "3", "6"], "5", ["2", "3"], previous=prev)
    assert summ["table"] == ["5"] and summ["caida"] is False


@pytest.mark.parametrize("preset", ALL)
def test_e9_several_sums(run: Run, preset: str) -> None:
    """E9 (R5.2): table {A, 2, 3, 4, 5}, play 6: A+5, 2+4, A+2+3 (not in quito_torneo)."""
    options = play(run, preset, ["A", "2", "3", "4", "5"], "6")["options"]
    expected = [[], ["A", "5"], ["2", "4"]]
    if preset != "quito_torneo":
        expected.append(["A", "2", "3"])
    assert options == expected


@pytest.mark.parametrize("preset", ALL)
def test_e10_caida(run: Run, preset: str) -> None:
    """E10 (R6.1): table {2}; B just trailed 6; play 6: caida +2; table {2}."""
    out = play(run, preset, ["2", "6"], "6", ["6"], previous={**B_TRAILED, "trail": "6"})
    assert out["caida"] is True and out["points"] == [2, 0] and out["table"] == ["2"]


@pytest.mark.parametrize(("preset", "points"), [("quito", 2), ("cuenca", 4)])
def test_e11_caida_and_limpia(run: Run, preset: str, points: int) -> None:
    """E11 (R7.2): table empty; B just trailed 6; play 6: quito 2, cuenca 4."""
    out = play(run, preset, ["6"], "6", ["6"], previous={**B_TRAILED, "trail": "6"})
    assert out["caida"] and out["limpia"] and out["points"] == [points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_e12_sum_with_the_trailed_card_is_a_limpia_not_a_caida(run: Run, preset: str) -> None:
    """E12 (R6.2, R7.1): table {2}; B just trailed 3; play 5 taking 2+3: limpia +2."""
    out = play(run, preset, ["2", "3"], "5", ["2", "3"], previous={**B_TRAILED, "trail": "3"})
    assert out["caida"] is False and out["limpia"] is True and out["points"] == [2, 0]


@pytest.mark.parametrize("preset", ALL)
def test_e13_no_caida_across_deals(run: Run, preset: str) -> None:
    """E13 (R6.1): deal 2 begins with {3, Q} after the dealer trailed Q: 0 points."""
    out = play(
        run, preset, ["3", "Q"], "Q", ["Q"], deal=2, previous={**B_TRAILED, "trail": "Q", "deal": 1}
    )
    assert out["caida"] is False and out["points"] == [0, 0]


@pytest.mark.parametrize(
    ("preset", "score", "after"), [("quito", 12, 14), ("pagat", 12, 16), ("pagat", 30, 30)]
)
def test_e14_ronda(run: Run, preset: str, score: int, after: int) -> None:
    """E14 (R4.1, R4.3): dealt {5, 5, 5, K, 2} at 12: quito 14, pagat 16; at 30 pagat 30."""
    hands = [["5", "5", "5", "K", "2"], ["A", "3", "4", "6", "7"]]
    out = run(kind="deal", rules=preset, hands=hands, scores=[score, 0])
    assert out["scores"] == [after, 0]


@pytest.mark.parametrize("preset", ALL)
def test_e15_doble_ronda(run: Run, preset: str) -> None:
    """E15 (R4.2): {Q, Q, Q, Q, 3}: quito, cuenca, pagat win the chica; quito_torneo +4."""
    hands = [["Q", "Q", "Q", "Q", "3"], ["A", "2", "4", "5", "6"]]
    out = run(kind="deal", rules=preset, hands=hands)
    if preset == "quito_torneo":
        assert out["winner"] is None and out["points"] == [4, 0]
    else:
        assert out["winner"] == 0 and out["points"] == [0, 0]


@pytest.mark.parametrize("preset", ALL)
def test_e16_limpia_at_38_scores_nothing(run: Run, preset: str) -> None:
    """E16 (R9.1): side at 38; table {2, 3}; play 5: 0 points in every preset."""
    out = play(run, preset, ["2", "3"], "5", ["2", "3"], scores=[38, 0])
    assert out["limpia"] is True and out["points"] == [0, 0] and out["winner"] is None


@pytest.mark.parametrize("preset", ALL)
def test_e17_caida_at_38_wins_at_once(run: Run, preset: str) -> None:
    """E17 (R9.1, R9.2): side at 38; table {J}; B just trailed 4; play 4: 40, chica over."""
    out = play(
        run, preset, ["J", "4"], "4", ["4"], previous={**B_TRAILED, "trail": "4"}, scores=[38, 0]
    )
    assert out["scores"] == [40, 0] and out["winner"] == 0


@pytest.mark.parametrize(
    ("cards", "points"), [((26, 14), 12), ((25, 15), 12), ((23, 17), 10), ((21, 19), 8)]
)
@pytest.mark.parametrize("preset", ALL)
def test_e18_carton(run: Run, preset: str, cards: tuple[int, int], points: int) -> None:
    """E18 (R8.2): 26/14 -> 12/0; 25/15 -> 12/0; 23/17 -> 10/0; 21/19 -> 8/0."""
    out = run(kind="end", rules=preset, cards=list(cards), table=[], last_capturer=0)
    assert out["points"] == [points, 0]


@pytest.mark.parametrize("preset", ALL)
def test_e18_twenty_twenty(run: Run, preset: str) -> None:
    """E18 (R8.3): 20/20 -> the non-dealer side +2 (pagat +6)."""
    out = run(kind="end", rules=preset, cards=[20, 20], table=[], last_capturer=1)
    assert out["points"] == [6 if preset == "pagat" else 2, 0]


@pytest.mark.parametrize(
    ("preset", "points", "cards"), [("quito", 2, [19, 18]), ("quito_torneo", 8, [22, 18])]
)
def test_e19_leftovers(run: Run, preset: str, points: int, cards: list[int]) -> None:
    """E19 (R8.1, R8.4): table {5, K, Q}, last capture N; N 19, D 18: quito +2, torneo +8."""
    out = run(kind="end", rules=preset, cards=[19, 18], table=["5", "K", "Q"], last_capturer=0)
    assert out["points"] == [points, 0] and out["cards"] == cards


@pytest.mark.parametrize(("loser", "zapateria"), [(8, True), (10, False)])
def test_e20_zapateria(run: Run, loser: int, zapateria: bool) -> None:
    """E20 (R9.3): a chica won 40-8 is a zapateria; 40-10 is not."""
    out = play(
        run,
        "quito",
        ["J", "4"],
        "4",
        ["4"],
        previous={**B_TRAILED, "trail": "4"},
        scores=[38, loser],
    )
    assert out["winner"] == 0 and out["zapateria"] is zapateria
