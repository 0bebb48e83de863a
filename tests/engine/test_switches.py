"""Every switch of section S exercised through the kernel's traces and records.

Each test plays seeded games with the kernel and checks, on the trace (contract 7) and the
records (contract 8), what the switch must do, with a control run where the switch is off.
"""

from __future__ import annotations

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.engine import trace_game
from cuarenta_sim.cuarenta.engine.layout import TRACE_COLUMNS
from cuarenta_sim.cuarenta.rules import RuleSet
from cuarenta_sim.cuarenta.tables import SUM_PACKED, SUM_START, holds_packed

C = {name: i for i, name in enumerate(TRACE_COLUMNS)}
KIND_ANNOUNCE, KIND_PLAY, KIND_CLAIMS, KIND_END = 1, 2, 3, 4


def traces(
    rules: RuleSet,
    n: int,
    *,
    players: int = 2,
    policies=("random", "greedy"),
    level: str = "data",
    seed: int = 5,
) -> list[np.ndarray]:
    return [trace_game(rules, players, policies, seed, level, i) for i in range(n)]


def plays_with_table(trace: np.ndarray):
    """Yield (row, packed table before the row) for every play row, replaying the table."""
    table = 0
    data = -1
    for row in trace:
        if row[C["data"]] != data:
            data, table = row[C["data"]], 0
        if row[C["kind"]] != KIND_PLAY:
            continue
        yield row, table
        r = int(row[C["rank"]])
        if row[C["base"]] == 0:
            table += 1 << (4 * r)
        else:
            table -= int(row[C["base"]])
            for k in range(r + 1, r + 1 + int(row[C["run"]])):
                table -= 1 << (4 * k)


def numeric_sum_bases(rank: int) -> list[int]:
    return [int(b) for b in SUM_PACKED[SUM_START[rank] : SUM_START[rank + 1]]]


def test_trace_bookkeeping() -> None:
    """Scores are the running sums of the credited points; the end row conserves the 40 cards
    (R8.1 nobody); 40 plays per data; all points even (R1.4)."""
    for players in (2, 4):
        for trace in traces(RuleSet(), 40, players=players):
            score = np.cumsum(trace[:, [C["pts0"], C["pts1"]]], axis=0)
            assert (score == trace[:, [C["score0"], C["score1"]]]).all()
            assert (trace[:, C["pts0"] : C["claim1"] + 1] % 2 == 0).all()
            assert (trace[:, C["kind"]] == KIND_PLAY).sum() == 40
            end = trace[-1]
            assert end[C["kind"]] == KIND_END
            cards0, cards1 = divmod(int(end[C["cards"]]), 64)
            table_left = 40 - cards0 - cards1
            assert 0 <= table_left <= 40


def test_records_add_up() -> None:
    """points_k is the sum of its sources; piles and leftovers hold the 40 cards (R8)."""
    for rules in (RuleSet(), RuleSet.preset("quito_torneo")):
        hands = simulate(rules=rules, n=3000, policies=("random", "greedy"), seed=3).hands
        for k in (0, 1):
            sources = sum(
                hands[f"{s}_points_{k}"].astype(int)
                for s in ("ronda", "caida", "limpia", "carton", "other")
            )
            assert (sources == hands[f"points_{k}"]).all()
        total = hands["cards_0"].astype(int) + hands["cards_1"]
        if rules.leftover_cards == "nobody":
            assert (total + hands["leftover"] == 40).all()
        else:
            assert ((total == 40) | (hands["last_capturer"] == -1)).all()
        assert (hands["plays"] == 40).all()


@pytest.mark.parametrize("max_sum", [None, 2])
def test_max_sum_cards(max_sum: int | None) -> None:
    """R5.2: no sum base larger than max_sum_cards; with None, 3-card sums occur."""
    sizes = []
    for trace in traces(RuleSet(max_sum_cards=max_sum), 60, policies=("greedy", "random")):
        for row, _ in plays_with_table(trace):
            base = int(row[C["base"]])
            if base and base != 1 << (4 * int(row[C["rank"]])):
                sizes.append(sum((base >> (4 * k)) & 15 for k in range(10)))
    assert sizes
    assert max(sizes) <= (max_sum or 99)
    assert (max(sizes) > 2) == (max_sum is None)


@pytest.mark.parametrize("compulsory", [False, True])
def test_capture_compulsory(compulsory: bool) -> None:
    """R5.5: under capture_compulsory a card that can capture is never trailed."""
    trails_with_capture = 0
    for trace in traces(RuleSet(capture_compulsory=compulsory), 60, policies="random"):
        for row, table in plays_with_table(trace):
            r = int(row[C["rank"]])
            if row[C["base"]] != 0:
                continue
            can = (table >> (4 * r)) & 15 > 0 or any(
                holds_packed(table, b) for b in (numeric_sum_bases(r) if r <= 6 else [])
            )
            trails_with_capture += can
    assert (trails_with_capture == 0) == compulsory


@pytest.mark.parametrize("cumulative", [False, True])
def test_caida_limpia_cumulative(cumulative: bool) -> None:
    """R7.2: a caida that is also a limpia scores 2 ("todo dos") or 4."""
    seen = set()
    rules = RuleSet(caida_limpia_cumulative=cumulative)
    for trace in traces(rules, 150, policies="greedy"):
        for row, _ in plays_with_table(trace):
            if row[C["caida"]] and row[C["limpia"]] and not row[C["flag"]]:
                seen.add(int(row[C["pts0"]] + row[C["pts1"]]))
    assert seen == ({4} if cumulative else {2})


@pytest.mark.parametrize("across", [False, True])
def test_caida_across_deals(across: bool) -> None:
    """R6.1: a caida on the first play of a deal only under caida_across_deals (E13)."""
    first_play_caidas = 0
    for trace in traces(RuleSet(caida_across_deals=across), 200, policies="greedy"):
        deal = -1
        for row in trace:
            if row[C["kind"]] == KIND_PLAY and row[C["deal"]] != deal:
                deal = row[C["deal"]]
                first_play_caidas += int(row[C["caida"]])
    assert (first_play_caidas > 0) == across


@pytest.mark.parametrize("by_sum", [False, True])
def test_caida_by_sum(by_sum: bool) -> None:
    """R6.2: a sum base containing the just-trailed rank is a caida only under caida_by_sum."""
    sum_caidas = 0
    for trace in traces(RuleSet(caida_by_sum=by_sum), 150, policies="greedy"):
        for row, _ in plays_with_table(trace):
            if row[C["caida"]] and row[C["base"]] != 1 << (4 * int(row[C["rank"]])):
                sum_caidas += 1
    assert (sum_caidas > 0) == by_sum


def announce_points(rules: RuleSet, n: int = 400, level: str = "data") -> dict[int, set]:
    out: dict[int, set] = {1: set(), 2: set()}
    for trace in traces(rules, n, policies="greedy", level=level):
        for row in trace[trace[:, C["kind"]] == KIND_ANNOUNCE]:
            out[int(row[C["flag"]])].add(int(row[C["pts0"]] + row[C["pts1"]]))
    return out


def test_ronda_points_and_doble_ronda_points() -> None:
    """R4.1, R4.2: ronda_points per ronda; a numeric doble_ronda scores its points; win_chica
    credits nothing at level data."""
    assert announce_points(RuleSet(ronda_points=4, doble_ronda=6), 1500) == {1: {4}, 2: {6}}
    pts = announce_points(RuleSet(), 1500)
    assert pts[1] == {2} and pts[2] <= {0}


def test_doble_ronda_wins_chica() -> None:
    """R4.2 win_chica: the side wins the chica at once, on the announcement."""
    games = simulate(rules=RuleSet(), n=3000, level="chica", policies="greedy", seed=1).games
    won = games[games["win_kind"] == 1]
    assert len(won) and (won[["score_0", "score_1"]].max(axis=1) < 40).any()
    games = simulate(
        rules=RuleSet(doble_ronda=4), n=3000, level="chica", policies="greedy", seed=1
    ).games
    assert (games.loc[games["win_kind"] == 1, ["score_0", "score_1"]].max(axis=1) >= 40).all()


@pytest.mark.parametrize("timing", ["immediate", "end_of_deal"])
def test_caida_en_ronda_points_and_timing(timing: str) -> None:
    """R6.4: a caida en ronda is worth caida_en_ronda_points, now or as an end-of-deal claim."""
    rules = RuleSet(caida_en_ronda_points=10, caida_en_ronda_timing=timing)
    values, claims = set(), 0
    for trace in traces(rules, 800, policies="greedy"):
        for row in trace:
            if row[C["kind"]] == KIND_PLAY and row[C["flag"]]:
                values.add(
                    int(row[C["pts0"]] + row[C["pts1"]] + row[C["claim0"]] + row[C["claim1"]])
                    - 2 * int(row[C["limpia"]])
                )
            claims += row[C["kind"]] == KIND_CLAIMS
    assert 10 in values
    assert (claims > 0) == (timing == "end_of_deal")


def test_ronda_blocked_from() -> None:
    """R4.3: no ronda points from ronda_blocked_from (level chica, scores carry over)."""
    for blocked in (None, 10):
        rules = RuleSet(ronda_blocked_from=blocked)
        late = []
        for trace in traces(rules, 150, level="chica", policies="greedy"):
            for row in trace[trace[:, C["kind"]] == KIND_ANNOUNCE]:
                side = int(row[C["seat"]]) % 2
                before = row[C["score0"] + side] - row[C["pts0"] + side]
                if before >= 10 and row[C["flag"]] == 1:
                    late.append(int(row[C["pts0"] + side]))
        assert late and (set(late) == {0}) == (blocked == 10)


def test_carton_blocked_from() -> None:
    """R8.6: no carton points for a side with a score >= carton_blocked_from."""
    for blocked in (None, 20):
        hands = simulate(
            rules=RuleSet(carton_blocked_from=blocked),
            n=400,
            level="chica",
            policies="greedy",
            seed=2,
        ).hands
        before = hands["score_0"].astype(int) - hands["points_0"]
        late = hands.loc[(before >= 20) & (hands["cards_0"] > 20) & ~hands["ended"]]
        assert len(late) and ((late["carton_points_0"] == 0).all() == (blocked == 20))


@pytest.mark.parametrize("at_38", ["none", "caida_or_carton", "only_caida", "no_limpia"])
def test_at_38(at_38: str) -> None:
    """R9.1: what a side at 38 may still score."""
    rules = RuleSet(at_38=at_38)
    limpia_pts, count_pts = set(), set()
    for trace in traces(rules, 300, level="chica", policies="greedy"):
        for row in trace:
            kind = row[C["kind"]]
            if kind == KIND_PLAY and row[C["limpia"]] and not row[C["caida"]]:
                side = int(row[C["seat"]]) % 2
                if row[C["score0"] + side] - row[C["pts0"] + side] == 38:
                    limpia_pts.add(int(row[C["pts0"] + side]))
            if kind == KIND_END:
                for side in (0, 1):
                    if row[C["score0"] + side] - row[C["pts0"] + side] == 38:
                        count_pts.add(int(row[C["pts0"] + side]))
    assert limpia_pts == ({2} if at_38 == "none" else {0})
    if at_38 == "only_caida":
        assert count_pts == {0}
    else:
        assert count_pts - {0}


@pytest.mark.parametrize("leftovers", ["nobody", "last_capturer"])
def test_leftover_cards(leftovers: str) -> None:
    """R8.1: the table goes to the last capturer or to nobody."""
    hands = simulate(rules=RuleSet(leftover_cards=leftovers), n=2000, policies="greedy").hands
    total = hands["cards_0"].astype(int) + hands["cards_1"]
    assert ((total == 40).all()) == (leftovers == "last_capturer")


def test_tie_points_20_and_falla() -> None:
    """R8.3: 20-20 gives the non-dealer side tie_points_20; R8.5: falla points received."""
    hands = simulate(
        rules=RuleSet(tie_points_20=6, falla_points=4),
        n=20000,
        policies=("random", "random"),
        seed=4,
    ).hands
    tie = hands[(hands["cards_0"] == 20) & (hands["cards_1"] == 20)]
    assert len(tie)
    non_dealer = (tie["dealer"] + 1) % 2
    got = np.where(non_dealer == 0, tie["other_points_0"], tie["other_points_1"])
    assert (got == 6).all()
    bare = hands[hands["cards_1"] == 0]
    assert len(bare) == 0 or (bare["other_points_0"] >= 4).all()


def test_target_chicas_to_win_and_zapateria() -> None:
    """R9.2, R9.3: target, chicas_to_win, zapateria_below, zapateria_ends_mesa."""
    games = simulate(rules=RuleSet(target=20), n=500, level="chica", policies="greedy").games
    by_points = games["win_kind"] != 1  # a doble ronda wins at any score (R4.2)
    assert (games.loc[by_points, ["score_0", "score_1"]].max(axis=1) >= 20).all()
    assert (games[["score_0", "score_1"]].max(axis=1) < 40).all()
    loser = games[["score_0", "score_1"]].min(axis=1)
    assert (games["zapateria"] == (loser < 10)).all()
    games = simulate(
        rules=RuleSet(zapateria_below=40), n=300, level="chica", policies="greedy"
    ).games
    assert games["zapateria"].all()
    for ends in (True, False):
        rules = RuleSet(chicas_to_win=3, zapateria_ends_mesa=ends)
        mesas = simulate(rules=rules, n=300, level="mesa", policies="greedy").games
        chicas = mesas["chicas_0"] + mesas["chicas_1"]
        assert (mesas[["chicas_0", "chicas_1"]].max(axis=1) <= 3).all()
        assert mesas["zapateria"].any() == ends
        assert ((chicas == 1) == mesas["zapateria"]).all()


def test_four_players_partners_share_sides() -> None:
    """R2.1: with 4 players the side of seat s is s % 2 (its points and pile); 2 deals."""
    for trace in traces(RuleSet(), 40, players=4):
        plays = trace[trace[:, C["kind"]] == KIND_PLAY]
        assert sorted(set(plays[:, C["deal"]].tolist())) == [0, 1]
        assert len(plays) == 40
        pile = [0, 0]
        for row in plays:
            side = int(row[C["seat"]]) % 2
            assert row[C["pts0"] + 1 - side] == 0 and row[C["claim0"] + 1 - side] == 0
            assert row[C["cards"]] >= pile[side]
            pile[side] = int(row[C["cards"]])
