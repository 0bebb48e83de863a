"""Second cold read of the player's guide (issue 18, branch i18-fix2-sg): the scope line says
which columns carry no interval, the all-four-seen zero is printed as certain by rule (R6.1)
with no bound, greedy's "captures where it trails" zero is printed as by construction, and the
summary names the method of every interval. Small synthetic inputs."""

from __future__ import annotations

import pandas as pd
from test_guide_cold_read_claims import _clustered_log, _risk

from cuarenta_sim.cuarenta import guide, guide_analysis, guide_tables
from cuarenta_sim.cuarenta.guide_claims import guide_claims
from cuarenta_sim.studies.claims import check_claims, render_claim


def test_scope_line_names_the_columns_without_interval() -> None:
    """Cold read: "Every number below is an estimate ... with its interval" was false for the
    exact uniform-draw odds and for the plain-share columns."""
    text = str(guide._prose().summary(["A."], "learned"))
    assert "Every number below is an estimate" not in text
    assert "Every estimate printed with an interval" in text
    assert "`uniform-draw odds` is an exact hypergeometric value, not an estimate" in text
    for col in (
        "`next really held`",
        "`caida when held`",
        "`trail better`",
        "`strong player trailed`",
        "the share of all decisions that differ",
        "`dealer / mano side`",
    ):
        assert col in text, col


def _risk_rows() -> pd.DataFrame:
    return _risk().assign(chicas=200, next_holds=[0.208, 0.0], held=[0.283, 0.0])


def test_all_four_seen_cell_is_by_rule_without_bound() -> None:
    """Cold read: the row "| 4 | 0.0% [0.0, 3.4] | ... | clopper-pearson bound |" gave an upper
    bound for a zero the summary calls certain by rule (R6.1)."""
    table = guide_tables.risk_table(_risk_rows().assign(taken=[0.99, float("nan")]))
    four = next(line for line in table.splitlines() if line.startswith("| 4 |"))
    assert "0 (by rule, R6.1)" in four and "none: certain by rule" in four
    assert "3.4]" not in four and "clopper" not in four
    one = next(line for line in table.splitlines() if line.startswith("| 1 |"))
    assert "28.1% [26.8, 29.4]" in one and "| ratio |" in one


def test_greedy_captures_where_it_trails_is_zero_by_construction() -> None:
    """Cold read: "| greedy | captures where it trails | 0.0% [0.0, 3.0] | 0 of 7,651 |" printed
    a bound for a zero that holds by construction (greedy trails only when it cannot capture)."""
    kinds = guide_analysis.departure_kinds(_clustered_log(), "greedy")
    row = kinds[kinds["kind"] == "captures where it trails"].iloc[0]
    assert int(row["successes"]) == 0
    table = guide_tables.kinds_table(kinds)
    line = next(x for x in table.splitlines() if "captures where it trails" in x)
    assert "0 by construction" in line and "[" not in line


def test_summary_names_the_methods() -> None:
    """Cold read: the departures share and the other players' edges had no method."""
    log = _clustered_log().assign(all="all")
    log["greedy_differs"] = log.index % 3 != 0
    dep = guide_analysis.departures(log, ("all",))
    wp = pd.DataFrame(
        [
            {"own_score": 0, "opponent_score": 0, "deal": 0, "own_deals": True, "players": 2,
             "estimate": 0.545, "lower": 0.539, "upper": 0.551, "n": 23_678, "method": "wilson",
             "defined": True}
        ]
    )  # fmt: skip
    edge = pd.DataFrame(
        [
            {"source": s, "players": 2, "estimate": e, "lower": e - 0.05, "upper": e + 0.05,
             "n": 200_000, "method": "normal", "defined": True}
            for s, e in (("total", 6.024), ("caida", 3.953))
        ]
    )  # fmt: skip
    panel = pd.DataFrame(
        [{"policy": "solver", "estimate": 5.1, "lower": 4.0, "upper": 6.1, "n": 500,
          "method": "t", "defined": True}]
    )  # fmt: skip
    claims = guide_claims(wp, _risk(), dep, pd.DataFrame(), edge, "learned", players=2,
                          edge_panel=panel)  # fmt: skip
    check_claims(claims)
    text = {c.id: render_claim(c) for c in claims}
    assert "(n = 400, `ratio` over 40 chicas), 66.5% of all its 400 " in text["guide.departures"]
    assert "under `solver` self-play 5.1 [4.0, 6.1] (n = 500, `t`)" in text["guide.dealer_edge"]


def test_ronda_rows_of_2_and_4_players_agree_because_the_decks_do() -> None:
    """Cold read: the `ronda` rows of 2 and 4 players were identical to every digit,
    unexplained. Same seed, same decks, and a ronda depends on the cards dealt only: the rows
    agree whatever the players play, and differ on another seed; the note says so."""
    from cuarenta_sim.cuarenta.guide_estimates import SOURCES
    from cuarenta_sim.simulation import simulate

    def edge(players: int, policy: str, seed: int) -> pd.DataFrame:
        res = simulate("cuarenta", rules="quito", players=players, policies=policy, n=40,
                       seed=seed, threads=1)  # fmt: skip
        return guide_analysis.dealer_edge_by_source(res.hands, players, 0.95)

    two, four = edge(2, "greedy", 0), edge(4, "random", 0)
    both = pd.concat([two, four], ignore_index=True)
    note = guide_tables.same_ronda_note(both)
    assert "agree to every digit" in note and "same seed" in note and "R4" in note
    cols = ["estimate", "lower", "upper", "n"]
    caida = both[both["source"] == "caida"].set_index("players")
    assert not caida.loc[2, cols].equals(caida.loc[4, cols])
    assert "ronda" in SOURCES
    other_seed = pd.concat([two, edge(4, "greedy", 1)], ignore_index=True)
    assert guide_tables.same_ronda_note(other_seed) == ""
