"""Issue 18, cold read of cuatrola-bidding: every gain gets its own interval, and every EV
interval stays within what a bid can score (synthetic outcomes, no simulation)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.cuatrola.bidding import (
    CLASS_VALUES,
    bidding_table,
    class_table,
    overall_table,
    threshold_comparison,
)
from cuarenta_sim.cuatrola.bidding_checks import mano_table
from cuarenta_sim.cuatrola.bidding_figures import threshold_frame
from cuarenta_sim.cuatrola.bidding_intervals import difference_range, outcome_values
from cuarenta_sim.cuatrola.bidding_sections import (
    all_pass_lines,
    bidding_section,
    gain_cell,
    margin_cell,
    strength_table,
    summary_table,
)


def _outcomes(strength: np.ndarray, won_pass: np.ndarray, made_solo: np.ndarray) -> pd.DataFrame:
    """Two-valued outcomes as the engine scores them (C5.2-C5.5, ``to_opponents``): pass
    +-1, solo +-2, cuatrola and quintola always failed (-4, -5)."""
    n = strength.size
    cats = {k: list(v) for k, v in CLASS_VALUES.items()}
    return pd.DataFrame(
        {
            "strength": pd.Categorical(strength, categories=cats["strength"]),
            "trumps": pd.Categorical(np.full(n, 2), categories=cats["trumps"]),
            "aces_threes": pd.Categorical(np.full(n, 1), categories=cats["aces_threes"]),
            "position": pd.Categorical(
                np.array(["mano", "second", "third", "dealer"])[np.arange(n) % 4],
                categories=cats["position"],
            ),
            "value_pass": np.where(won_pass == 1, 1, -1).astype(np.int8),
            "value_solo": np.where(made_solo == 1, 2, -2).astype(np.int8),
            "value_cuatrola": np.full(n, -4, dtype=np.int8),
            "value_quintola": np.full(n, -5, dtype=np.int8),
            "won_pass": won_pass.astype(np.int8),
            "made_solo": made_solo.astype(np.int8),
            "made_cuatrola": np.zeros(n, dtype=np.int8),
            "made_quintola": np.zeros(n, dtype=np.int8),
            "mano_won_pass": won_pass.astype(np.int8),
        }
    )


def _weak_hands(n: int = 400) -> pd.DataFrame:
    """Strength 0: solo always fails (its EV is -2 in every hand) while the pass varies, so the
    gain solo - pass is -1 or -3: it varies and has an interval."""
    won = (np.arange(n) % 3 == 0).astype(np.int64)
    return _outcomes(np.zeros(n, dtype=np.int64), won, np.zeros(n, dtype=np.int64))


def test_constant_ev_still_gives_the_gain_an_interval() -> None:
    table = class_table(_weak_hands(), "strength")
    solo = table[(table["strength"] == 0) & (table["bid"] == "solo")].iloc[0]
    assert np.isfinite(solo["gain_lower"]) and solo["gain_lower"] < solo["gain_upper"]
    cell = gain_cell(solo)
    assert "[" in cell and "no interval" not in cell and "no variation" not in cell
    text = strength_table(table)
    row = next(line for line in text.splitlines() if line.startswith("| 0 |"))
    assert "no interval" not in row and row.count("[") == 4  # EV pass and the three gains
    frame = threshold_frame(table)
    assert frame["defined"].all()  # the figure draws every whisker
    # The gain's interval never depends on whether the bid's EV has one (the old tables and
    # figure used the EV's flag: a solo failing in every hand printed "(no interval)").
    no_ev = table.assign(defined=table["defined"] & (table["bid"] != "solo"))
    assert "no interval" not in strength_table(no_ev).splitlines()[2]
    assert threshold_frame(no_ev)["defined"].all()


def test_a_gain_that_never_varies_says_so_instead_of_no_interval() -> None:
    n = 40
    strong = _outcomes(np.full(n, 22), np.ones(n, dtype=np.int64), np.ones(n, dtype=np.int64))
    table = class_table(strong, "strength")
    solo = table[(table["strength"] == 22) & (table["bid"] == "solo")].iloc[0]
    assert gain_cell(solo) == "1.0000 in every hand (no variation)"
    bt = bidding_table(strong, by="strength")
    best = bt[bt["n"] > 0].iloc[0]
    assert best["best"] == "solo" and best["runner_up"] == "pass"
    assert margin_cell(best) == "1.0000 in every hand (no variation)"
    line = next(x for x in bidding_section(bt.assign(trumps=2, aces_threes=1), 0.95).split("\n")
                if "**solo**" in x)  # fmt: skip
    assert "pass by 1.0000 in every hand (no variation)" in line and "no interval" not in line


def test_ev_intervals_stay_within_the_values_a_bid_can_score() -> None:
    n = 547
    won = np.ones(n, dtype=np.int64)
    won[:2] = 0  # EV(pass) = 0.9927: a normal interval reaches past 1
    table = class_table(_outcomes(np.full(n, 20), won, won), "strength")
    row = table[(table["strength"] == 20) & (table["bid"] == "pass")].iloc[0]
    assert row["ev"] == pytest.approx(1 - 4 / n)
    assert -1.0 <= row["ev_lower"] < row["ev"] < row["ev_upper"] <= 1.0
    assert row["ev_method"] == "wilson"
    # Every hand won: still an interval, never zero-width, below the maximum.
    table = class_table(_outcomes(np.full(n, 20), np.ones(n, int), np.ones(n, int)), "strength")
    for bid, top in (("pass", 1.0), ("solo", 2.0)):
        row = table[(table["strength"] == 20) & (table["bid"] == bid)].iloc[0]
        assert row["defined"] and row["ev_lower"] < row["ev"] == row["ev_upper"] == top


def test_every_ev_and_gain_interval_of_a_random_table_is_within_bounds() -> None:
    rng = np.random.default_rng(5)
    n = 3000
    strength = rng.integers(0, 23, n)
    won = (rng.random(n) < np.clip(strength / 20, 0.02, 0.999)).astype(np.int64)
    made = (rng.random(n) < np.clip((strength - 10) / 8, 0.0, 1.0)).astype(np.int64)
    o = _outcomes(strength, won, made)
    values = {b: outcome_values(o, b) for b in ("pass", "solo", "cuatrola", "quintola")}
    assert values["pass"] == (-1.0, 1.0) and values["solo"] == (-2.0, 2.0)
    assert values["quintola"] == (-5.0, 5.0)  # never made: the made value comes from C5.4
    for table in (class_table(o, "strength"), overall_table(o)):
        for _, r in table[table["n"] > 0].iterrows():
            lo, hi = values[str(r["bid"])]
            assert lo <= r["ev_lower"] <= r["ev"] <= r["ev_upper"] <= hi
            g_lo, g_hi = difference_range(values[str(r["bid"])], values["pass"])
            if np.isfinite(r["gain_lower"]):
                assert g_lo <= r["gain_lower"] <= r["gain_upper"] <= g_hi


def test_not_two_valued_outcomes_keep_the_normal_interval() -> None:
    o = _weak_hands()
    o["value_solo"] = np.where(np.arange(len(o)) % 2 == 0, -2, 0).astype(np.int8)
    assert outcome_values(o, "solo") is None
    row = class_table(o, "strength").query("bid == 'solo' and n > 0").iloc[0]
    assert row["ev_method"] in ("t", "normal")


def test_mano_points_are_the_wilson_interval_mapped_to_plus_minus_one() -> None:
    n = 400
    won = np.ones(n, dtype=np.int64)
    won[0] = 0
    table = mano_table(_outcomes(np.full(n, 20), won, won))
    p, points = table.iloc[0], table.iloc[1]
    assert points["method"] == "wilson" and points["upper"] <= 1.0
    assert points["lower"] == pytest.approx(2 * p["lower"] - 1)
    assert points["estimate"] == pytest.approx(2 * won.mean() - 1)
    (_, share, _, _), (_, cell, method, hands) = all_pass_lines(table)
    assert share.endswith("]") and "%" in share
    assert "%" not in cell and cell.startswith("0.99") and method == "wilson, 2 P - 1"
    assert hands == n


def test_overall_table_does_not_print_a_gain_of_pass_over_itself() -> None:
    o = _weak_hands()
    text = summary_table(overall_table(o))
    pass_row = next(line for line in text.splitlines() if line.startswith("| pass |"))
    assert "- (pass itself)" in pass_row and "no interval" not in pass_row


def test_margins_differences_and_threshold_values_stay_within_possible_values() -> None:
    """Three hands: a t interval of the margin pass - solo (per hand 3, -1, 1) is about
    [-4.0, 6.0], past the +-3 two such bids can differ by; it is clipped to them."""
    o = _outcomes(np.full(3, 20), np.array([1, 1, 0]), np.array([0, 1, 0]))
    bt = bidding_table(o, by="strength")
    row = bt[bt["n"] > 0].iloc[0]
    assert row["best"] == "pass" and row["runner_up"] == "solo"
    assert -3.0 <= row["margin_lower"] < row["margin"] < row["margin_upper"] <= 3.0
    assert row["margin_upper"] == 3.0  # the clip acted
    comp = threshold_comparison(o, (20, 99, 99), {"never": (99, 99, 99)})
    assert (comp["lower"] >= -10.0).all() and (comp["upper"] <= 10.0).all()
    assert (comp.loc[comp["method"] != "paired", "upper"] <= 5.0).all()
    k = np.arange(12)
    mano = mano_table(_outcomes(np.full(12, 20), (k % 5 < 2).astype(int), (k % 3 == 0)))
    welch = mano[(mano["method"] == "welch") & np.isfinite(mano["lower"])]
    assert len(welch) >= 4
    for _, r in welch.iterrows():
        v = {"pass": 1, "solo": 2, "cuatrola": 4, "quintola": 5}[r["bid"]]
        assert -2 * v <= r["lower"] and r["upper"] <= 2 * v
