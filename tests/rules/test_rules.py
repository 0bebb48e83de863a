"""One test (or more) for every rule R1..R9 of docs/cuarenta.md, citing the rule numbers.

Steps are checked through the scenario interface (section F) where it can express them, and
through the reference engine (``play_deck`` with chosen decks, ``play_game``) for the flow of
deals, datas, chicas and mesas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scripted import Scripted

from cuarenta_sim.cuarenta.cards import parse_rank
from cuarenta_sim.cuarenta.reference import (
    DataState,
    Play,
    carton_points,
    deck_from_deals,
    end_of_data,
    legal_plays,
    play_deck,
    play_game,
)
from cuarenta_sim.cuarenta.reference.events import (
    ChicaEnd,
    ClaimsEvent,
    DealEvent,
    EndEvent,
    PlayEvent,
)
from cuarenta_sim.cuarenta.rules import PRESETS, RuleSet
from cuarenta_sim.rng import STREAM_GAME, PyRng, root_from_seed, shuffled_deck_py
from cuarenta_sim.scenario import evaluate

Run = Callable[..., dict[str, Any]]
PRESET_NAMES = list(PRESETS)


def rk(*names: str) -> list[int]:
    """Rank codes of rank names."""
    return [parse_rank(n) for n in names]


def counts(*names: str) -> list[int]:
    c = [0] * 10
    for r in rk(*names):
        c[r] += 1
    return c


# ------------------------------------------------------------------------------ R1 cards
def test_r1_1_forty_cards_and_suits_never_matter() -> None:
    """R1.1: 40 cards, 4 of each of 10 ranks; plays depend on ranks only."""
    root, _ = root_from_seed(7)
    deck = shuffled_deck_py(root, 0, 0)
    assert sorted(deck) == list(range(40))
    rules = PRESETS["quito"]
    # Two hands that differ only by suit have the same legal plays.
    a = DataState.start(rules, 2, 1, deck)
    a.hands[0] = [4 * 4 + 0, 6 * 4 + 1]
    a.table = [4 * 4 + 2]
    b = DataState.start(rules, 2, 1, deck)
    b.hands[0] = [4 * 4 + 3, 6 * 4 + 0]
    b.table = [4 * 4 + 1]
    assert legal_plays(a.hand_counts(0), a.table_counts(), rules) == legal_plays(
        b.hand_counts(0), b.table_counts(), rules
    )


@pytest.mark.parametrize("face", ["J", "Q", "K"])
def test_r1_2_faces_have_no_sum_value(run: Run, face: str) -> None:
    """R1.2: a played face only matches; faces never take part in a sum."""
    out = run(kind="play", rules="quito", table=[face, "A", "2"], card=face)
    assert out["options"] == [[], [face]]
    out = run(kind="play", rules="quito", table=[face, "A"], card="A")
    assert out["options"] == [[], ["A"]]


def test_r1_3_sequence_ends_at_k_without_wrap(run: Run) -> None:
    """R1.3: J follows 7, K is last: a run from Q takes K and never wraps to A."""
    out = run(kind="play", rules="quito", table=["Q", "K", "A"], card="Q", base=["Q"])
    assert out["captured"] == ["Q", "Q", "K"]
    assert out["table"] == ["A"]
    out = run(kind="play", rules="quito", table=["6", "7", "J"], card="6", base=["6"])
    assert out["captured"] == ["6", "6", "7", "J"]


def test_r1_4_every_switch_of_points_is_even() -> None:
    """R1.4: point switches must be even, so scores stay even."""
    with pytest.raises(ValueError, match="even"):
        RuleSet(ronda_points=3)
    for rules in PRESETS.values():
        for name in ("ronda_points", "caida_en_ronda_points", "tie_points_20", "falla_points"):
            assert getattr(rules, name) % 2 == 0


# ------------------------------------------------------------------------------ R2 players
@pytest.mark.parametrize("players", [2, 4])
def test_r2_1_sides_alternate(players: int) -> None:
    """R2.1: side of seat s is s % 2; every point goes to the acting seat's side."""
    log = play_game("quito", players, "random", seed=3, level="data")
    for e in log.steps():
        if isinstance(e, PlayEvent):
            assert e.points[1 - e.seat % 2] == 0
            assert e.claims[1 - e.seat % 2] == 0


@pytest.mark.parametrize(("players", "deals"), [(2, 4), (4, 2)])
def test_r2_2_a_data_is_four_or_two_deals_of_five(players: int, deals: int) -> None:
    """R2.2: a data passes the 40 cards in 4 deals (2 players) or 2 (4 players)."""
    log = play_game("quito", players, "greedy", seed=1, level="data")
    dealt = [e for e in log.events if isinstance(e, DealEvent)]
    assert len(dealt) == deals
    assert all(len(h) == 5 for e in dealt for h in e.hands)
    assert log.hands[0]["plays"] == 40


# ------------------------------------------------------------------------------ R3 dealing
def test_r3_1_each_data_starts_with_an_empty_table_and_its_own_deck() -> None:
    """R3.1: empty table at every data; the deck is the data's shuffled deck (contract 2)."""
    log = play_game("quito", 2, "greedy", seed=11, level="chica")
    root, _ = root_from_seed(11)
    first_deals = [e for e in log.events if isinstance(e, DealEvent) and e.deal == 0]
    assert all(e.table == () for e in first_deals)
    for data, e in enumerate(first_deals):
        deck = shuffled_deck_py(root, 0, data)
        dealer = log.hands[data]["dealer"]
        for p in range(2):
            seat = (dealer + 1 + p) % 2
            assert e.hands[seat] == tuple(sorted(deck[p * 5 : p * 5 + 5]))


@pytest.mark.parametrize("players", [2, 4])
def test_r3_2_same_dealer_whole_data_and_table_kept_across_deals(players: int) -> None:
    """R3.2: one dealer per data, batches of 5 by deck position; the table stays."""
    log = play_game("cuenca", players, "random", seed=5, level="data", index=3)
    dealer = 3 % players
    assert log.hands[0]["dealer"] == dealer
    root, _ = root_from_seed(5)
    deck = shuffled_deck_py(root, 3, 0)
    last_table: tuple[int, ...] = ()
    for e in log.events:
        if isinstance(e, DealEvent):
            for p in range(players):
                start = (e.deal * players + p) * 5
                assert e.hands[(dealer + 1 + p) % players] == tuple(sorted(deck[start : start + 5]))
            assert sorted(e.table) == sorted(last_table)
        if isinstance(e, PlayEvent):
            last_table = e.table


@pytest.mark.parametrize("players", [2, 4])
def test_r3_3_leader_first_dealer_last(players: int) -> None:
    """R3.3: the seat after the dealer leads every deal; the dealer plays last."""
    log = play_game("quito", players, "greedy", seed=2, level="data", index=1)
    dealer = 1 % players
    plays = [e for e in log.events if isinstance(e, PlayEvent)]
    for i, e in enumerate(plays):
        assert e.seat == (dealer + 1 + i) % players
    for deal in range(40 // (5 * players)):
        seats = [e.seat for e in plays if e.deal == deal]
        assert seats[0] == (dealer + 1) % players
        assert seats[-1] == dealer


@pytest.mark.parametrize("players", [2, 4])
def test_r3_4_first_dealer_drawn_then_rotates_across_chicas(players: int) -> None:
    """R3.4: first dealer drawn at random (contract 2), then the next seat every data."""
    seed, index = 4, 2
    log = play_game("quito", players, "greedy", seed=seed, level="mesa", index=index)
    root, _ = root_from_seed(seed)
    first = PyRng.for_stream(root, index, 0, STREAM_GAME).randbelow(players)
    assert log.first_dealer == first
    assert log.game is not None and log.game["first_dealer"] == first
    for k, rec in enumerate(log.hands):
        assert rec["dealer"] == (first + k) % players
        assert rec["hand"] == k
    assert max(rec["chica"] for rec in log.hands) >= 1  # the rotation crossed a chica


# ------------------------------------------------------------------------------ R4 announcements
def test_r4_1_ronda_points_per_preset(run: Run) -> None:
    """R4.1: three of a rank scores ronda_points (2, pagat 4)."""
    hands = [["5", "5", "5", "K", "2"], ["A", "3", "4", "6", "7"]]
    for preset, points in [("quito", 2), ("cuenca", 2), ("pagat", 4), ("quito_torneo", 2)]:
        out = run(kind="deal", rules=preset, hands=hands)
        assert out["points"] == [points, 0]
        assert out["events"] == [{"seat": 0, "event": "ronda", "rank": "5"}]


def test_r4_1_announcements_in_play_order(run: Run) -> None:
    """R4: announcements go seat by seat from the leader (the seat after the dealer)."""
    hands = [["5", "5", "5", "K", "2"], ["7", "7", "7", "3", "4"]]
    out = run(kind="deal", rules="quito", hands=hands, dealer=0)
    assert [e["seat"] for e in out["events"]] == [1, 0]
    assert out["points"] == [2, 2]


def test_r4_2_doble_ronda_win_or_points(run: Run) -> None:
    """R4.2: doble ronda wins the chica (win_chica) or scores doble_ronda points."""
    hands = [["A", "2", "4", "5", "6"], ["Q", "Q", "Q", "Q", "3"]]
    out = run(kind="deal", rules="quito", hands=hands, scores=[8, 6])
    assert out["winner"] == 1
    assert out["scores"] == [8, 6]
    assert out["zapateria"] is True  # R9.3: the loser has 8 < 10
    assert run(kind="deal", rules="quito", hands=hands, scores=[20, 6])["zapateria"] is False
    out = run(kind="deal", rules={"preset": "quito", "doble_ronda": 6}, hands=hands)
    assert out["winner"] is None and out["points"] == [0, 6]


def test_r4_3_blocked_rondas_and_win_chica_at_any_score(run: Run) -> None:
    """R4.3: no ronda points from ronda_blocked_from; a win_chica doble ronda still wins."""
    ronda = [["5", "5", "5", "K", "2"], ["A", "3", "4", "6", "7"]]
    out = run(kind="deal", rules="pagat", hands=ronda, scores=[30, 0])
    assert out["points"] == [0, 0]
    assert out["events"] == [{"seat": 0, "event": "ronda", "rank": "5"}]  # blocked, listed
    doble = [["Q", "Q", "Q", "Q", "3"], ["A", "2", "4", "5", "6"]]
    assert run(kind="deal", rules="pagat", hands=doble, scores=[34, 0])["winner"] == 0
    out = run(kind="deal", rules="quito_torneo", hands=doble, scores=[30, 0])
    assert out["points"] == [0, 0] and out["winner"] is None


def test_r4_ronda_ends_the_chica_at_once_later_announcements_not_made(run: Run) -> None:
    """R4 with R9.2: a ronda that reaches the target ends the chica before the next one."""
    hands = [["5", "5", "5", "K", "2"], ["7", "7", "7", "3", "4"]]
    rules = {"preset": "pagat", "ronda_blocked_from": None}
    out = run(kind="deal", rules=rules, hands=hands, scores=[36, 36])
    assert out["winner"] == 0
    assert out["events"] == [{"seat": 0, "event": "ronda", "rank": "5"}]
    assert out["points"] == [4, 0]


# ------------------------------------------------------------------------------ R5 a turn
def test_r5_1_match_takes_one_of_two(run: Run) -> None:
    """R5.1: a match takes one table card of the played rank, faces included."""
    out = run(kind="play", rules="quito", table=["4", "4", "K"], card="4", base=["4"])
    assert out["captured"] == ["4", "4"]
    assert out["table"] == ["4", "K"]


def test_r5_2_sum_limits(run: Run) -> None:
    """R5.2: two or more numeric cards; at most max_sum_cards; a lone card is no sum."""
    out = run(kind="play", rules="quito", table=["A", "A", "A", "A"], card="4")
    assert out["options"] == [[], ["A", "A", "A", "A"]]
    out = run(kind="play", rules="quito_torneo", table=["A", "A", "A", "A"], card="4")
    assert out["options"] == [[]]
    out = run(kind="play", rules={"preset": "quito", "max_sum_cards": 3}, table=["A"] * 4, card="4")
    assert out["options"] == [[]]
    out = run(kind="play", rules="quito", table=["6"], card="7")
    assert out["options"] == [[]]


def test_r5_3_one_base_per_play(run: Run) -> None:
    """R5.3: the match and each sum are separate options, never combined."""
    out = run(kind="play", rules="quito", table=["3", "A", "2"], card="3")
    assert out["options"] == [[], ["3"], ["A", "2"]]
    out = run(kind="play", rules="quito", table=["3", "A", "2"], card="3", base=["A", "2", "3"])
    assert out["legal"] is False and out["points"] == [0, 0]
    assert out["table"] == ["A", "2", "3"]


def test_r5_4_run_rules(run: Run) -> None:
    """R5.4: run from the played rank, one card per rank, no sum fills a step, never alone."""
    out = run(kind="play", rules="quito", table=["3", "4", "4", "5"], card="3", base=["3"])
    assert out["captured"] == ["3", "3", "4", "5"] and out["table"] == ["4"]
    out = run(kind="play", rules="quito", table=["2", "A", "2", "4"], card="2", base=["2"])
    assert out["captured"] == ["2", "2"] and out["table"] == ["A", "2", "4"]
    out = run(kind="play", rules="quito", table=["2", "3", "6", "7"], card="5", base=["2", "3"])
    assert out["captured"] == ["2", "3", "5", "6", "7"]
    out = run(kind="play", rules="quito", table=["4"], card="3", base=[])
    assert out["table"] == ["3", "4"] and out["captured"] == []


def test_r5_5_capture_optional_or_compulsory_per_card(run: Run) -> None:
    """R5.5: trailing is legal unless capture_compulsory and this card can capture."""
    assert run(kind="play", rules="quito", table=["5"], card="5")["options"] == [[], ["5"]]
    strict = {"preset": "quito", "capture_compulsory": True}
    assert run(kind="play", rules=strict, table=["5"], card="5")["options"] == [["5"]]
    assert run(kind="play", rules=strict, table=["5"], card="K")["options"] == [[]]
    out = run(kind="play", rules=strict, table=["5"], card="5", base=[])
    assert out["legal"] is False and "capture_compulsory" in out["reason"]
    rules = RuleSet.preset("quito", capture_compulsory=True)
    plays = legal_plays(counts("5", "K"), counts("5"), rules)
    assert plays == [Play(rk("5")[0], (rk("5")[0],)), Play(rk("K")[0], ())]


# ------------------------------------------------------------------------------ R6 caida
def test_r6_1_caida_only_right_after_the_previous_players_trail(run: Run) -> None:
    """R6.1: a match of the card just trailed is a caida; no trail, no caida."""
    base = {"kind": "play", "rules": "quito", "table": ["6", "2"], "card": "6", "base": ["6"]}
    assert run(**base, previous={"seat": 1, "trail": "6"})["caida"] is True
    assert run(**base, previous=None)["caida"] is False
    assert run(**base)["points"] == [0, 0]
    out = run(**base, previous={"seat": 1, "trail": "2"})
    assert out["caida"] is False


def test_r6_1_caida_across_deals_switch(run: Run) -> None:
    """R6.1: the dealer's last trail of the previous deal only counts under the switch."""
    sc = {
        "kind": "play",
        "table": ["3", "Q"],
        "card": "Q",
        "deal": 2,
        "previous": {"seat": 1, "trail": "Q", "deal": 1},
        "base": ["Q"],
    }
    assert run(**sc, rules="quito")["caida"] is False
    out = run(**sc, rules={"preset": "quito", "caida_across_deals": True})
    assert out["caida"] is True and out["points"] == [2, 0]


def test_r6_2_sums_and_runs_are_no_caida(run: Run) -> None:
    """R6.2: a sum with the trailed card is no caida unless caida_by_sum; a run never."""
    sc = {"kind": "play", "table": ["2", "3", "J"], "card": "5", "base": ["2", "3"]}
    prev = {"seat": 1, "trail": "3"}
    assert run(**sc, rules="quito", previous=prev)["caida"] is False
    out = run(**sc, rules={"preset": "quito", "caida_by_sum": True}, previous=prev)
    assert out["caida"] is True and out["points"] == [2, 0]
    out = run(
        kind="play",
        rules="quito",
        table=["4", "5"],
        card="4",
        base=["4"],
        previous={"seat": 1, "trail": "5"},
    )
    assert out["captured"] == ["4", "4", "5"] and out["caida"] is False


def test_r6_3_partner_is_never_the_previous_player(run: Run) -> None:
    """R6.3: with 4 players the previous seat is an opponent; a partner's trail is rejected."""
    sc = {"kind": "play", "rules": "quito", "players": 4, "table": ["6"], "card": "6"}
    out = run(**sc, seat=2, previous={"seat": 1, "trail": "6"}, base=["6"])
    assert out["caida"] is True and out["points"] == [2, 0]
    assert "error" in evaluate({**sc, "seat": 2, "previous": {"seat": 0, "trail": "6"}})


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_r6_4_caida_en_ronda_values(run: Run, preset: str) -> None:
    """R6.4: caida en ronda scores caida_en_ronda_points (pagat 10, claimed at the deal's end)."""
    sc = {
        "kind": "play",
        "rules": preset,
        "table": ["J", "5"],
        "card": "5",
        "base": ["5"],
        "previous": {"seat": 1, "trail": "5"},
        "rondas": [[], ["5"]],
    }
    out = run(**sc)
    assert out["caida"] is True
    if preset == "pagat":
        assert out["points"] == [0, 0] and out["claims"] == [10, 0]
        blocked = run(**sc, scores=[30, 0])  # R6.4: from 30 only the ordinary 2
        assert blocked["points"] == [2, 0] and blocked["claims"] == [0, 0]
    else:
        assert out["points"] == [2, 0] and out["claims"] == [0, 0]
    immediate = run(**{**sc, "rules": {"preset": preset, "caida_en_ronda_timing": "immediate"}})
    assert immediate["points"] == [PRESETS[preset].caida_en_ronda_points, 0]


def _claims_game(rules: Any, scores: tuple[int, int]) -> Any:
    """Deal 1: seat 0 has a ronda of 5, seat 1 a ronda of 7; each catches the other's trail.

    Seat 0 leads (dealer 1): trails 5; seat 1 matches it (caida en ronda, limpia); seat 0
    trails 2; seat 1 trails 7; seat 0 matches it (caida en ronda). Then both only trail.
    """
    five, seven, two = rk("5", "7", "2")
    deck = deck_from_deals(
        [[rk("5", "5", "5", "7", "2"), rk("7", "7", "7", "5", "Q")]], players=2, dealer=1
    )
    policies = [
        Scripted([(five, ()), (two, ()), (seven, (seven,))]),
        Scripted([(five, (five,)), (seven, ())]),
    ]
    return play_deck(rules, 2, deck, dealer=1, policies=policies, scores=scores)


def test_r6_4_end_of_deal_claims_credited_after_dealers_last_card() -> None:
    """R6.4 end_of_deal: the claims are credited as a step after the deal's last play."""
    log = _claims_game("pagat", (0, 0))
    steps = log.steps()
    plays = [e for e in steps if isinstance(e, PlayEvent) and e.deal == 0]
    assert plays[1].outcome.caida_en_ronda and plays[1].claims == (0, 10)
    assert plays[1].points == (0, 2)  # the limpia scores at once (pagat: cumulative)
    assert plays[4].outcome.caida_en_ronda and plays[4].claims == (10, 0)
    claims = [e for e in steps if isinstance(e, ClaimsEvent)]
    assert len(claims) == 1 and claims[0].deal == 0
    assert steps.index(claims[0]) == steps.index(plays[-1]) + 1
    assert claims[0].order == (1, 0) and claims[0].points == (10, 10)
    row = log.trace[steps.index(claims[0])]
    assert list(row[[0, 3, 10, 11]]) == [3, -1, 10, 10]
    assert log.hands[0]["caida_points_0"] >= 10 and log.hands[0]["caidas_en_ronda_1"] == 1


def test_r6_4_first_claimer_credited_first_and_can_end_the_chica() -> None:
    """R6.4 with R9.2: the side that claimed first is credited first; a win stops the rest."""
    rules = {"preset": "pagat", "ronda_blocked_from": None}
    log = _claims_game(rules, (28, 28))
    last = log.steps()[-1]
    assert isinstance(last, ClaimsEvent)
    assert last.points == (0, 10)  # side 1 claimed first and won; side 0's claim is lost
    assert last.scores == (32, 44)
    assert log.hands[0]["ended"] is True


def test_r6_4_immediate_timing_scores_with_the_play() -> None:
    """R6.4 immediate: no claims step."""
    rules = {"preset": "pagat", "caida_en_ronda_timing": "immediate"}
    log = _claims_game(rules, (0, 0))
    assert not any(isinstance(e, ClaimsEvent) for e in log.events)
    plays = [e for e in log.events if isinstance(e, PlayEvent)]
    assert plays[1].points == (0, 12) and plays[4].points == (10, 0)


# ------------------------------------------------------------------------------ R7 limpia
def test_r7_1_limpia_when_the_table_is_emptied(run: Run) -> None:
    """R7.1: a capture that leaves the table empty scores 2."""
    out = run(kind="play", rules="quito", table=["K"], card="K", base=["K"])
    assert out["limpia"] is True and out["points"] == [2, 0]
    out = run(kind="play", rules="quito", table=[], card="K", base=[])
    assert out["limpia"] is False and out["table"] == ["K"]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_r7_2_caida_and_limpia_together(run: Run, preset: str) -> None:
    """R7.2: caida + limpia is 2 in total ("todo dos") or 4 when cumulative."""
    out = run(
        kind="play",
        rules=preset,
        table=["6"],
        card="6",
        base=["6"],
        previous={"seat": 1, "trail": "6"},
    )
    assert out["points"] == [4 if PRESETS[preset].caida_limpia_cumulative else 2, 0]


def test_r7_3_leftovers_are_never_a_limpia() -> None:
    """R7.3: leftovers taken by the last capturer (R8.1) score no limpia."""
    log = play_game("quito_torneo", 2, "greedy", seed=0, level="data")
    end = log.steps()[-1]
    assert isinstance(end, EndEvent)
    assert all(c.source != "limpia" for c in end.count.credits)
    assert log.hands[0]["limpias_0"] + log.hands[0]["limpias_1"] == sum(
        e.outcome.limpia for e in log.events if isinstance(e, PlayEvent)
    )


# ------------------------------------------------------------------------------ R8 end of data
def test_r8_1_leftovers(run: Run) -> None:
    """R8.1: leftovers go to nobody or to the last capturer's side."""
    sc = {"kind": "end", "cards": [20, 17], "table": ["5", "K", "Q"], "last_capturer": 1}
    assert run(**sc, rules="quito")["cards"] == [20, 17]
    out = run(**sc, rules="quito_torneo")
    assert out["cards"] == [20, 20] and out["points"] == [2, 0]  # 20-20: non-dealer side


@pytest.mark.parametrize(
    ("cards", "points"),
    [(20, 6), (21, 8), (22, 8), (23, 10), (24, 10), (30, 16), (40, 26), (19, 0), (0, 0)],
)
def test_r8_2_carton_points(cards: int, points: int) -> None:
    """R8.2: 0 below 20, else n - 14 (even) / n - 13 (odd)."""
    assert carton_points(cards) == points


def test_r8_3_twenty_twenty(run: Run) -> None:
    """R8.3: 20-20: the non-dealer side scores tie_points_20."""
    sc = {"kind": "end", "cards": [20, 20], "table": [], "last_capturer": 0}
    assert run(**sc, rules="quito", dealer=0)["points"] == [0, 2]
    assert run(**sc, rules="pagat", dealer=1)["points"] == [6, 0]


def test_r8_4_both_under_twenty(run: Run) -> None:
    """R8.4: both under 20: more cards +2; equal: the non-dealer side +2."""
    sc = {"kind": "end", "rules": "quito", "last_capturer": 0}
    more = run(**sc, cards=[15, 18], table=["A"] * 4 + ["2"] * 3)
    assert more["points"] == [0, 2]
    equal = run(**sc, cards=[17, 17], table=["A"] * 4 + ["2"] * 2, dealer=0)
    assert equal["points"] == [0, 2]


def test_r8_5_falla(run: Run) -> None:
    """R8.5: a side that captured nothing gives the opponents falla_points."""
    out = run(kind="end", rules="quito_torneo", cards=[40, 0], table=[], last_capturer=0)
    assert out["points"] == [26 + 2, 0]
    assert run(kind="end", rules="quito", cards=[40, 0], table=[], last_capturer=0)["points"] == [
        26,
        0,
    ]


def test_r8_6_carton_blocked(run: Run) -> None:
    """R8.6: no carton points from carton_blocked_from (quito_torneo 30)."""
    sc = {"kind": "end", "cards": [26, 14], "table": [], "last_capturer": 0}
    assert run(**sc, rules="quito_torneo", scores=[30, 0])["points"] == [0, 0]
    assert run(**sc, rules="quito_torneo", scores=[28, 0])["points"] == [12, 0]


# ------------------------------------------------------------------------------ R9 winning
def test_r9_1_caida_or_carton(run: Run) -> None:
    """R9.1 caida_or_carton: at 38 rondas and limpias score nothing; carton and caida do."""
    ronda = [["5", "5", "5", "K", "2"], ["A", "3", "4", "6", "7"]]
    assert run(kind="deal", rules="quito", hands=ronda, scores=[38, 0])["points"] == [0, 0]
    end = run(kind="end", rules="quito", cards=[22, 18], table=[], last_capturer=0, scores=[38, 0])
    assert end["winner"] == 0
    falla = {"preset": "quito", "falla_points": 2}
    count = end_of_data(RuleSet.preset("quito", falla_points=2), [10, 0], 30, 0, 0, [38, 0])
    assert [(c.source, c.points) for c in count.credits] == [("other", 2), ("other", 0)]
    out = run(
        kind="end",
        rules=falla,
        cards=[10, 0],
        table=["A"] * 4
        + ["2"] * 4
        + ["3"] * 4
        + ["4"] * 4
        + ["5"] * 4
        + ["6"] * 4
        + ["7"] * 4
        + ["J", "J"],
        last_capturer=0,
        scores=[36, 0],
    )
    assert out["points"] == [4, 0] and out["winner"] == 0


def test_r9_1_only_caida(run: Run) -> None:
    """R9.1 only_caida (quito_torneo): at 38 only a caida scores."""
    end = {"kind": "end", "cards": [22, 18], "table": [], "last_capturer": 0, "scores": [38, 0]}
    assert run(**end, rules="quito_torneo")["points"] == [0, 0]
    keep = {"preset": "quito_torneo", "at_38": "caida_or_carton", "carton_blocked_from": None}
    assert run(**end, rules=keep)["winner"] == 0


def test_r9_1_no_limpia_and_none(run: Run) -> None:
    """R9.1 no_limpia (pagat) keeps rondas; none keeps limpias too."""
    ronda = [["5", "5", "5", "K", "2"], ["A", "3", "4", "6", "7"]]
    rules = {"preset": "pagat", "ronda_blocked_from": None}
    assert run(kind="deal", rules=rules, hands=ronda, scores=[38, 0])["winner"] == 0
    limpia = {"kind": "play", "table": ["2", "3"], "card": "5", "base": ["2", "3"]}
    assert run(**limpia, rules="pagat", scores=[38, 0])["points"] == [0, 0]
    out = run(**limpia, rules={"preset": "quito", "at_38": "none"}, scores=[38, 0])
    assert out["points"] == [2, 0] and out["winner"] == 0


def test_r9_2_end_of_data_credit_order(run: Run) -> None:
    """R9.2 / contract 5: count of the non-dealer side, of the dealer side, then falla."""
    table = [r for r in ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K") for _ in range(4)]
    sc = {"kind": "end", "cards": [0, 0], "table": table, "last_capturer": None}
    rules = {"preset": "quito_torneo", "at_38": "none"}
    out = run(**sc, rules=rules, scores=[36, 38], dealer=1)
    assert out["points"] == [4, 0] and out["winner"] == 0  # side 1's falla never counted
    out = run(**sc, rules=rules, scores=[36, 38], dealer=0)
    assert out["points"] == [0, 2] and out["winner"] == 1


def test_r9_2_data_level_plays_on_past_the_target() -> None:
    """R9.2 / contract 5: in a chica the data stops at the target; at level data it goes on."""
    deck = shuffled_deck_py(root_from_seed(9)[0], 0, 0)
    chica = play_deck("quito", 2, deck, dealer=1, policies="greedy", scores=(38, 38))
    assert chica.hands[0]["ended"] is True and chica.hands[0]["plays"] < 40
    data = play_deck(
        "quito", 2, deck, dealer=1, policies="greedy", scores=(38, 38), stop_at_target=False
    )
    assert data.hands[0]["plays"] == 40
    assert max(data.trace[-1, 14:16]) > 40


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_r9_3_mesa(preset: str) -> None:
    """R9.3: a mesa ends when a side has chicas_to_win chicas or a first-chica zapateria."""
    rules = PRESETS[preset]
    for seed in range(6):
        log = play_game(preset, 2, "random", seed=seed, level="mesa")
        g = log.game
        assert g is not None and not g["truncated"]
        wins = (g["chicas_0"], g["chicas_1"])
        if g["zapateria"]:
            assert rules.zapateria_ends_mesa and wins[g["winner"]] == 1 and sum(wins) == 1
        else:
            assert wins[g["winner"]] == rules.chicas_to_win
            assert wins[1 - g["winner"]] < rules.chicas_to_win


def test_r9_3_first_chica_zapateria_ends_the_mesa() -> None:
    """R9.3: under quito a first chica won by zapateria wins the mesa at once."""
    found = 0
    for seed in range(60):
        log = play_game("quito", 2, ("greedy", "random"), seed=seed, level="mesa")
        g = log.game
        assert g is not None
        first = next(e for e in log.events if isinstance(e, ChicaEnd))
        assert first.zapateria == (first.scores[1 - first.winner] < 10)
        if first.zapateria:
            found += 1
            assert g["zapateria"] is True and g["chicas_0"] + g["chicas_1"] == 1
        else:
            assert g["zapateria"] is False
    assert found > 0
