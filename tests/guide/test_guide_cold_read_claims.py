"""Cold-read findings on the player's guide (issue 18, branch i18-fix-sg): the scope line
names the other players and graders, the value intervals are clustered by chica, the caida
explanation is offered as a likely reason, the zero with all four seen is said to be certain
by rule (R6.1), and the dealer's-edge source "other" is defined. Small synthetic inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import stats
from cuarenta_sim.cuarenta import guide, guide_analysis, guide_estimates
from cuarenta_sim.cuarenta.guide_claims import guide_claims
from cuarenta_sim.studies.claims import check_claims, render_claim


def _edge_args() -> tuple:
    return ("T", "D", "S", guide._rule_sentences(), "learned", "P", 2)


def test_scope_line_names_the_other_players_and_graders() -> None:
    """Cold read: "Every number below is an estimate from simulated play by the `learned`
    player" was false for the other players' self-play, pimc's playout values and what greedy
    or heuristic would play."""
    text = str(guide._prose().summary(["A."], "learned"))
    assert "by the `learned` player (rules `quito`) unless its row or sentence names another" in (
        text
    )
    for needle in ("other players' self-play", "`pimc` playouts", "`greedy` or `heuristic`"):
        assert needle in text, needle


def test_caida_explanation_is_a_likely_reason_not_a_finding() -> None:
    """Cold read: the tables show "next really held" above the uniform-draw odds late in a
    deal; why is never tested, so the cause is offered as a likely reason."""
    text = str(guide._prose().caida("A", "B", 10, 2, guide._rule_sentences(), "learned", 2))
    assert "a likely reason, not tested here, is that the cards an opponent still holds" in text


def test_other_source_is_defined_with_its_rules() -> None:
    """Cold read: the dealer's-edge row "other" was never defined."""
    text = str(guide._prose().edge(*_edge_args(), guide_estimates.source_legend()))
    assert "`other` = every other end-of-data point" in text
    for rule in ("R8.3", "R8.4", "R8.5", "R8.2", "R4", "R7"):
        assert rule in text, rule
    assert set(guide_estimates.SOURCE_DEFINITIONS) == set(guide_estimates.SOURCES)


def _clustered_log() -> pd.DataFrame:
    """40 chicas, 10 departures each; the values vary between chicas, not within one."""
    rng = np.random.default_rng(3)
    chica_value = rng.normal(1.0, 1.0, 40)
    rows = []
    for g in range(40):
        for _ in range(10):
            rows.append(
                {
                    "game": g,
                    "deal": 0,
                    "legal": 3,
                    "greedy_differs": True,
                    "heuristic_differs": False,
                    "greedy_trail": False,
                    "heuristic_trail": False,
                    "trail": True,
                    "value_chosen": chica_value[g],
                    "value_greedy": 0.0,
                    "value_heuristic": chica_value[g],
                }
            )
    return pd.DataFrame(rows)


def test_departure_values_are_clustered_by_chica() -> None:
    """Cold read: the value of a departure had a t / normal interval over decisions, which
    treats the decisions of one chica as independent. With values that vary only between
    chicas, the clustered interval is about sqrt(10) wider than the one over decisions."""
    log = _clustered_log()
    dep = guide_analysis.departures(log, ("deal",))
    g = dep[dep["versus"] == "greedy"].iloc[0]
    gains = (log["value_chosen"] - log["value_greedy"]).to_numpy()
    iid = stats.mean("gain", gains, 0.95)
    assert g["gain"] == pytest.approx(iid["estimate"])
    assert g["gain_chicas"] == 40 and g["gain_method"] == "ratio"
    ratio = (g["gain_upper"] - g["gain_lower"]) / (iid["upper"] - iid["lower"])
    assert ratio > 2.5
    kinds = guide_analysis.departure_kinds(log, "greedy")
    trail = kinds[kinds["kind"] == guide_analysis.DEPARTURE_KINDS[0]].iloc[0]
    assert (trail["gain_upper"] - trail["gain_lower"]) > 2.5 * (iid["upper"] - iid["lower"])
    assert "`ratio` interval clustered by chica" in str(guide._prose().trail("T", 10, "pimc", 2))
    departs = str(guide._prose().departs("T", "K", "G", "learned", "h", 2, 2, "t"))
    assert "`t` / `normal` over decisions" not in departs


def _risk() -> pd.DataFrame:
    def row(seen: int, est: float, half: float, n: int, hits: int) -> dict:
        return {
            "seen": seen,
            "estimate": est,
            "lower": max(0.0, est - half),
            "upper": est + half,
            "n": n,
            "successes": hits,
            "method": "ratio",
            "defined": True,
        }

    return pd.DataFrame([row(1, 0.281, 0.013, 3917, 1101), row(4, 0.0, 0.034, 4047, 0)])


def test_zero_with_all_four_seen_is_certain_by_rule_not_an_interval() -> None:
    """Cold read: "against 0.0% [0.0, 3.4] with all four seen" printed an estimated interval
    for a zero the same sentence says R6.1 makes certain."""
    log = _clustered_log()
    dep = guide_analysis.departures(log.assign(all="all"), ("all",))
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
    claims = guide_claims(wp, _risk(), dep, pd.DataFrame(), edge, "learned", players=2)
    check_claims(claims)
    text = {c.id: render_claim(c) for c in claims}
    risk = text["guide.caida_risk"]
    assert "against none with all four seen: 0 caidas in 4,047 trails, certain by rule (R6.1)" in (
        risk
    )
    assert "3.4]" not in risk and "0.0%" not in risk
    worth = text["guide.departures"]
    assert "departures in 40 chicas, interval clustered by chica)" in worth
