"""Issue 18, second cold read of reports/cuatrola-bidding: six findings, each fixed in the code
that writes the report (a small greedy run and synthetic rows; no full-size run)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.cuatrola.bidding import CLASS_VALUES, POSITION_WORDS, trumps_check
from cuarenta_sim.cuatrola.bidding_checks import exact_trumps_distribution
from cuarenta_sim.cuatrola.bidding_sections import (
    CLASSES_CSV,
    bidding_section,
    check_counts,
    check_section,
    difference_cell,
    headline_table,
    runner_up_cell,
    solo_by_position_trumps,
    value_cell,
)
from cuarenta_sim.studies import GeneratedReport, StudySettings, run_study
from cuarenta_sim.studies.claims import check_claims, render_claim, table_rows


@pytest.fixture(scope="module")
def built() -> GeneratedReport:
    return run_study(
        "cuatrola-bidding",
        StudySettings(n=800, seed=2, policies=("greedy",), rules="ro", players=(4,)),
    )


def _section(built: GeneratedReport, heading: str) -> str:
    return dict(built.report.sections)[heading]


# ------------------------------------------------------------- finding 1: which level is which
def test_summary_does_not_call_every_interval_95_percent(built: GeneratedReport) -> None:
    text = _section(built, "Summary")
    assert "cells are `estimate [95% interval]`" not in text
    assert "a 95% interval for a single estimate" in text
    assert "the wider interval at the level Holm tested its row" in text


# ------------------------------------------- finding 2: unresolved best bids and hidden signs
def _bidding_rows() -> pd.DataFrame:
    """Two populated classes: a best bid resolved over its runner-up and one that is not (its
    margin's lower bound is -0.003, which prints as -0.00 at two decimals)."""
    base = {
        "ev": 1.0,
        "ev_lower": 0.8,
        "ev_upper": 1.2,
        "p_make": 0.7,
        "p_make_lower": 0.6,
        "p_make_upper": 0.8,
        "gain": 1.01,
        "gain_lower": 0.47,
        "gain_upper": 1.54,
        "gain_verdict": "resolved",
        "beats_pass": True,
        "margin_n": 300,
    }
    rows = [
        {
            **base,
            "trumps": 2,
            "aces_threes": 4,
            "n": 4045,
            "best": "solo",
            "runner_up": "pass",
            "margin": 0.245,
            "margin_lower": 0.177,
            "margin_upper": 0.313,
            "margin_verdict": "resolved",
        },
        {
            **base,
            "trumps": 2,
            "aces_threes": 5,
            "n": 314,
            "best": "cuatrola",
            "runner_up": "solo",
            "margin": 0.39,
            "margin_lower": -0.003,
            "margin_upper": 0.79,
            "margin_verdict": "not resolved",
        },
    ]
    out = pd.DataFrame(rows)
    for k in ("trumps", "aces_threes"):
        out[k] = pd.Categorical(out[k], categories=list(CLASS_VALUES[k]), ordered=True)
    return out


def test_a_bound_near_zero_shows_its_sign() -> None:
    text = difference_cell(0.39, -0.003, 0.79, True, False)
    assert "-0.00," not in text and "[-0.003, 0.790]" in text
    # A bound that is far from 0 keeps the decimals of the half-width.
    assert difference_cell(0.39, 0.03, 0.79, True, False) == "0.39 [0.03, 0.79]"
    # The summary's claims format with value_cell: same rule (the old summary printed a
    # not-resolved gain as "0.13 [0.00, 0.24]"), percentages too; an exact 0 stays 0.
    assert value_cell(0.13, -0.001, 0.24) == "0.130 [-0.001, 0.240]"
    assert value_cell(0.05, -0.00002, 0.1, percent=True) == "5.000% [-0.002, 10.000]"
    assert value_cell(0.0, 0.0, 0.00008, percent=True) == "0.0000% [0.0000, 0.0080]"


def test_best_bids_with_an_unresolved_margin_are_flagged() -> None:
    bt = _bidding_rows()
    head = headline_table(bt)
    assert "4: solo *;" in head and "4: solo * (not resolved" not in head
    assert "5: cuatrola * (not resolved over solo)" in head
    rows = bt.to_dict("records")
    assert runner_up_cell(rows[0]) == "pass by 0.245 [0.177, 0.313]"
    assert runner_up_cell(rows[1]) == "solo by 0.390 [-0.003, 0.790] (not resolved)"
    assert runner_up_cell({**rows[1], "margin_verdict": "identical"}).endswith("(tie)")
    table = bidding_section(bt, 0.95)
    assert "solo by 0.390 [-0.003, 0.790] (not resolved) |" in table


def test_every_flag_of_a_run_follows_its_margin_verdict(built: GeneratedReport) -> None:
    bt = built.tables["bidding_table"]
    head = headline_table(bt)
    populated = bt[bt["n"] > 0]
    unresolved = populated[~populated["margin_verdict"].astype(str).str.startswith("resolved")]
    assert len(unresolved) > 0  # 800 hands: some classes cannot separate their two best bids
    assert head.count("(not resolved over ") == len(unresolved)


# ------------------------------------------------- finding 3: an EV is not a gain over passing
def test_threshold_sentence_separates_the_ev_from_the_gains(built: GeneratedReport) -> None:
    claim = next(c for c in built.claims if c.id == "bidding.thresholds")
    sentence = render_claim(claim)
    comp = built.tables["threshold_comparison"].set_index("label")
    assert "is worth" not in sentence
    assert "has an expected value of" in sentence
    assert "its gain over never bidding is" in sentence and "over the first guess" in sentence
    rows = {ev.row for ev in claim.evidence}
    assert {"derived", "derived - never bid", "derived - first guess"} <= rows
    never = comp.loc["derived - never bid"]
    assert f"(`paired`, {never['verdict']})" in sentence
    comparison = table_rows(built.tables["threshold_comparison"], ("label",))
    check_claims([claim], tables={"threshold_comparison": comparison})
    assert sentence in _section(built, "Summary")


# ------------------------------------------------------ finding 4: n beside every interval
def test_position_by_trumps_cells_print_their_hands(built: GeneratedReport) -> None:
    table = built.tables["p_make_by_position_trumps"]
    text = solo_by_position_trumps(table)
    solo = table[table["bid"] == "solo"]
    for p in ("mano", "second", "third", "dealer"):
        line = next(ln for ln in text.splitlines() if ln.startswith(f"| {POSITION_WORDS[p]} |"))
        for t in range(1, 5):
            n = int(solo[(solo["position"] == p) & (solo["trumps"] == t)]["n"].iloc[0])
            assert (f"n = {n:,}" in line) if n else ("- (no hands)" in line)


# ------------------------------------------- finding 5: impossible cells are not "inside"
def _dealt(n: int = 4000, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    pos = np.array(["mano", "second", "third", "dealer"] * (n // 4))
    dealer = pos == "dealer"
    trumps = np.where(
        dealer,
        rng.choice(6, size=n, p=[float(p) for p in exact_trumps_distribution(True)]),
        rng.choice(6, size=n, p=[float(p) for p in exact_trumps_distribution(False)]),
    )
    return pd.DataFrame({"position": pos, "trumps": trumps})


def test_the_check_counts_only_cells_that_can_occur() -> None:
    check = trumps_check(_dealt())
    inside, possible, impossible, dealt = check_counts(check)
    assert possible == 10 and impossible == ["dealer with 0 trumps", "non-dealer with 5 trumps"]
    assert dealt == 0 and inside == int(check.loc[check["exact"] > 0, "within"].sum())
    text = check_section(check)
    assert f"{inside} of 10 possible cells" in text and "of 12" not in text
    assert "the 2 impossible cells (dealer with 0 trumps, non-dealer with 5 trumps)" in text
    assert "never dealt, as required" in text and "one in 20" in text


def test_the_check_says_so_when_an_impossible_cell_is_dealt() -> None:
    bad = _dealt()
    bad.loc[bad.index[3], "trumps"] = 0  # a dealer (every fourth hand) without a trump
    text = check_section(trumps_check(bad))
    assert "were dealt 1 times: **the deal is wrong**" in text


# ------------------------------------------------- finding 6: the classes table is shipped
def test_the_classes_table_is_written_as_csv(built: GeneratedReport, tmp_path: Path) -> None:
    text = _section(built, "P(make) and expected value of each bid by hand class")
    classes = built.tables["classes"]
    assert f"written beside this report as `{CLASSES_CSV}` ({len(classes):,} rows" in text
    written = built.write(tmp_path)
    path = tmp_path / CLASSES_CSV
    assert path in written
    back = pd.read_csv(path)
    assert len(back) == len(classes) and list(back.columns) == list(classes.columns)
    np.testing.assert_allclose(back["n"].to_numpy(), classes["n"].to_numpy())


# ---------------------------------------------------------------- second cold read (round 2)
def test_positions_name_their_partner_in_every_table(built: GeneratedReport) -> None:
    """Old: rows "| second |" and "| third |", never defined. C1.1: seats in playing order,
    partners opposite, the mano after the dealer, so second = dealer's partner."""
    assert POSITION_WORDS["second"] == "second (dealer's partner)"
    assert POSITION_WORDS["third"] == "third (mano's partner)"
    text = "\n\n".join(body for _, body in built.report.sections)
    assert "| second |" not in text and "| third |" not in text
    for word in ("second (dealer's partner)", "third (mano's partner)"):
        assert text.count(f"| {word} |") >= 3, word  # EV by class, by position, P(solo)


def test_solo_by_position_says_only_the_trump_count_is_held_fixed(built: GeneratedReport) -> None:
    """Old: "Within each number of trumps held, P(solo) by position ... separates the lead
    from the cards", while only the number of trumps is fixed."""
    text = "\n\n".join(body for _, body in built.report.sections)
    assert "separates the lead from the cards:" not in text
    assert "holds the number of trumps fixed, not the other cards" in text


def test_threshold_ev_names_its_interval_method(built: GeneratedReport) -> None:
    """Old: "has an expected value of 0.0618 [0.0551, 0.0685] game points per hand" with no
    method; the table row says `normal`."""
    claim = next(c for c in built.claims if c.id == "bidding.thresholds")
    sentence = render_claim(claim)
    comp = built.tables["threshold_comparison"].set_index("label")
    method = comp.loc["derived", "method"]
    assert f"game points per hand to the seat's pair (`{method}`; alone in bidding)" in sentence
    first = comp.loc["derived - first guess"]
    assert f"(`{first['method']}`, {first['verdict']})" in sentence
