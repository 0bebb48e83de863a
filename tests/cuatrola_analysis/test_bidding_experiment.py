"""Forced-declarer experiments: common random numbers, scoring identities, exact deal odds,
zero-count classes, thresholds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import stats
from cuarenta_sim.cuatrola.bidding import (
    BIDS,
    CLASS_VALUES,
    BiddingExperiment,
    Thresholds,
    bidding_table,
    class_table,
    derive_thresholds,
    exact_trumps_distribution,
    mano_table,
    overall_table,
    policy_values,
    run_bidding_experiment,
    threshold_choice,
    threshold_comparison,
    trumps_check,
)
from cuarenta_sim.cuatrola.policies import OFF

N = 40_000


@pytest.fixture(scope="module")
def experiment() -> BiddingExperiment:
    return run_bidding_experiment(N, seed=11, play_policy="greedy")


def test_every_position_a_quarter_and_values_per_bid(experiment: BiddingExperiment) -> None:
    o = experiment.outcomes
    assert len(o) == N and o["hand"].tolist() == list(range(N))
    assert o.groupby("position", observed=False).size().tolist() == [N // 4] * 4
    assert set(o["value_pass"].unique()) == {-1, 1}
    for bid, worth in (("solo", 2), ("cuatrola", 4), ("quintola", 5)):
        value = o[f"value_{bid}"].to_numpy()
        assert set(np.unique(value)) <= {-worth, worth}
        np.testing.assert_array_equal(value == worth, o[f"made_{bid}"].to_numpy() == 1)
    np.testing.assert_array_equal(o["value_pass"] == 1, o["won_pass"] == 1)
    # a quintola made is a cuatrola made (5 tricks >= 4) on the same deal
    assert (o["made_quintola"] <= o["made_cuatrola"]).all()


def test_the_dealer_always_holds_a_trump(experiment: BiddingExperiment) -> None:
    o = experiment.outcomes
    dealer = o["position"] == "dealer"
    assert (o.loc[dealer, "trumps"].astype(int) >= 1).all()
    assert (o.loc[~dealer, "trumps"].astype(int) <= 4).all()


def test_exact_trumps_distribution() -> None:
    for dealer in (True, False):
        dist = exact_trumps_distribution(dealer)
        assert sum(dist) == 1 and len(dist) == 6
    assert exact_trumps_distribution(True)[0] == 0
    assert exact_trumps_distribution(False)[5] == 0
    # a non-dealer holds no trump with probability C(15,5)/C(19,5)
    assert exact_trumps_distribution(False)[0] == pytest.approx(3003 / 11628)


def test_trumps_held_match_the_hypergeometric_odds(experiment: BiddingExperiment) -> None:
    check = trumps_check(experiment.outcomes, confidence=0.999)
    assert len(check) == 12 and check["within"].all(), check
    assert check.groupby("hand_of")["n"].first().to_dict() == {
        "dealer": N // 4,
        "non-dealer": 3 * N // 4,
    }


def test_a_bid_against_itself_differs_by_exactly_zero(experiment: BiddingExperiment) -> None:
    o = experiment.outcomes
    row = stats.diff_paired("solo - solo", o["value_solo"], o["value_solo"])
    # No variation observed: flagged, no interval rather than a zero-width [0, 0].
    assert row["estimate"] == 0.0 and row["no_variation"] and np.isnan(row["lower"])
    table = class_table(o, "trumps")
    passing = table[(table["bid"] == "pass") & (table["n"] >= 2)]
    assert (passing["gain"] == 0).all() and passing["gain_lower"].isna().all()
    assert passing["gain_upper"].isna().all() and (passing["gain_verdict"] == "identical").all()
    assert (table["gain_method"] == "paired").all() and (table["p_make_method"] == "wilson").all()


def test_gain_is_ev_minus_ev_of_passing(experiment: BiddingExperiment) -> None:
    table = class_table(experiment.outcomes, ["position", "trumps"])
    ev_pass = table[table["bid"] == "pass"].set_index(["position", "trumps"])["ev"]
    for bid in BIDS[1:]:
        sub = table[table["bid"] == bid].set_index(["position", "trumps"])
        np.testing.assert_allclose(sub["gain"], sub["ev"] - ev_pass, atol=1e-12)
    overall = overall_table(experiment.outcomes).set_index("bid")
    # under ro a solo is worth +-2: EV = 4 P(make) - 2, exactly
    solo = overall.loc["solo"]
    assert solo["ev"] == pytest.approx(4 * solo["p_make"] - 2, abs=1e-12)
    assert overall["n"].tolist() == [N] * 4


def test_zero_count_classes_are_kept(experiment: BiddingExperiment) -> None:
    table = class_table(experiment.outcomes, ["position", "trumps"])
    assert len(table) == 4 * 6 * 4
    # nobody but the dealer holds 5 trumps, and the dealer never holds none
    empty = table[(table["position"] == "mano") & (table["trumps"] == 5)]
    assert len(empty) == 4 and (empty["n"] == 0).all()
    assert empty["p_make"].isna().all() and empty["ev"].isna().all()
    assert (~empty["defined"]).all() and (empty["gain_verdict"] == "undefined").all()
    assert (table[(table["position"] == "dealer") & (table["trumps"] == 0)]["n"] == 0).all()
    bt = bidding_table(experiment.outcomes)
    assert len(bt) == 36
    assert bt.loc[(bt["trumps"] == 5) & (bt["aces_threes"] == 0), "best"].isna().all()
    assert not bt.loc[bt["n"] == 0, "beats_pass"].any()


def test_bidding_table_best_bid_has_the_highest_ev(experiment: BiddingExperiment) -> None:
    bt = bidding_table(experiment.outcomes, by="trumps")
    for _, row in bt[bt["n"] > 0].iterrows():
        evs = {b: row[f"ev_{b}"] for b in BIDS}
        assert row["best"] == max(evs, key=evs.get)
        assert row["margin"] >= 0
    assert bt.loc[bt["trumps"] == 0, "best"].item() == "pass"
    assert bt.loc[bt["trumps"] == 0, "beats_pass"].item() is False


def test_mano_table(experiment: BiddingExperiment) -> None:
    o = experiment.outcomes
    table = mano_table(o)
    first = table.iloc[0]
    assert first["method"] == "wilson" and first["n"] == N
    assert first["estimate"] == o["mano_won_pass"].mean()
    assert set(table["method"].iloc[2:]) == {"newcombe", "welch"}


def test_same_seed_same_outcomes() -> None:
    a = run_bidding_experiment(2000, seed=3, play_policy="greedy")
    b = run_bidding_experiment(2000, seed=3, play_policy="greedy", threads=1)
    pd.testing.assert_frame_equal(a.outcomes, b.outcomes)
    assert [r["bid"] for r in a.runs] == list(BIDS)


def _synthetic(solo_from: int, cuatrola_from: int, blip: int) -> pd.DataFrame:
    """Outcomes whose best bid by strength is known: pass 1, solo +-2, cuatrola +-4."""
    strength = np.repeat(np.arange(23), 4)
    solo = np.where((strength >= solo_from) | (strength == blip), 2, -2)
    cuatrola = np.where(strength >= cuatrola_from, 4, -4)
    return pd.DataFrame(
        {
            "strength": pd.Categorical(strength, categories=list(CLASS_VALUES["strength"])),
            "value_pass": np.ones_like(strength),
            "value_solo": solo,
            "value_cuatrola": cuatrola,
            "value_quintola": np.full_like(strength, -5),
            "won_pass": np.ones_like(strength),
            "made_solo": (solo > 0).astype(int),
            "made_cuatrola": (cuatrola > 0).astype(int),
            "made_quintola": np.zeros_like(strength),
        }
    )


def test_derive_thresholds_on_known_outcomes() -> None:
    outcomes = _synthetic(solo_from=12, cuatrola_from=18, blip=5)
    derived = derive_thresholds(class_table(outcomes, "strength"))
    assert derived == Thresholds(12, 18, OFF)  # the isolated blip at 5 does not count
    assert derived.spec() == "threshold(solo=12,cuatrola=18,quintola=99)"
    values = policy_values(outcomes, derived)
    np.testing.assert_array_equal(
        values,
        np.where(
            np.repeat(np.arange(23), 4) >= 18, 4, np.where(np.repeat(np.arange(23), 4) >= 12, 2, 1)
        ),
    )
    comp = threshold_comparison(outcomes, derived, {"itself": derived}).set_index("label")
    assert comp.loc["derived - itself", "verdict"] == "identical"
    with pytest.raises(ValueError, match="class_table"):
        derive_thresholds(
            class_table(
                outcomes.assign(
                    trumps=pd.Categorical([0] * len(outcomes), categories=list(range(6)))
                ),
                "trumps",
            )
        )


def test_threshold_choice() -> None:
    assert threshold_choice(np.array([0, 14, 15, 19, 22]), (15, 19, 22)).tolist() == [0, 0, 1, 2, 3]
    assert threshold_choice(np.array([22]), (OFF, OFF, OFF)).tolist() == [0]


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"seat": 4}, "seat must be a whole number from 0 to 3"),
        ({"play_policy": "smart"}, "unknown play policy 'smart'"),
        ({"play_policy": ["greedy"]}, "one Cuatrola play policy name"),
        ({"rules": "bogus"}, "bogus"),
        ({"n": 0}, "n must be a positive whole number"),
    ],
)
def test_bad_experiment_input(kwargs: dict[str, object], needle: str) -> None:
    args: dict[str, object] = {"n": 100, "play_policy": "greedy", **kwargs}
    with pytest.raises(ValueError, match=needle):
        run_bidding_experiment(**args)  # type: ignore[arg-type]


def test_unknown_class_column() -> None:
    with pytest.raises(ValueError, match="hand classes must be among"):
        class_table(pd.DataFrame(), "suits")


# --------------------------------------------------------------------------- issue 18 finding 4
def _one_class(gains: np.ndarray) -> pd.DataFrame:
    """One populated class (2 trumps, 1 ace or three): solo gains ``gains`` over passing."""
    n = gains.size
    return pd.DataFrame(
        {
            "trumps": pd.Categorical([2] * n, categories=list(CLASS_VALUES["trumps"])),
            "aces_threes": pd.Categorical([1] * n, categories=list(CLASS_VALUES["aces_threes"])),
            "value_pass": np.ones(n),
            "value_solo": 1.0 + gains,
            "value_cuatrola": np.full(n, -4.0),
            "value_quintola": np.full(n, -5.0),
            "won_pass": np.ones(n, dtype=int),
            "made_solo": (1.0 + gains > 0).astype(int),
            "made_cuatrola": np.zeros(n, dtype=int),
            "made_quintola": np.zeros(n, dtype=int),
        }
    )


def test_a_bid_that_beats_passing_in_every_hand_beats_pass() -> None:
    """The no-variation case: +1 in each of 12 hands has no spread (no interval) but its exact
    sign test (p = 2^-11) survives Holm; the old rule (defined and gain_lower > 0) said no."""
    bt = bidding_table(_one_class(np.ones(12)))
    row = bt[(bt["trumps"] == 2) & (bt["aces_threes"] == 1)].iloc[0]
    assert row["best"] == "solo" and row["gain"] == 1.0
    assert np.isnan(row["gain_lower"]) and np.isnan(row["gain_upper"])  # never zero-width
    assert row["gain_verdict"].startswith("resolved")
    assert bool(row["beats_pass"])
    # Too few hands for the sign test to survive: +1 in each of 3 hands (p = 0.25).
    few = bidding_table(_one_class(np.ones(3)))
    assert not bool(few[(few["trumps"] == 2) & (few["aces_threes"] == 1)]["beats_pass"].iloc[0])


def test_gain_verdicts_are_holm_over_the_table_with_matching_intervals(
    experiment: BiddingExperiment,
) -> None:
    table = class_table(experiment.outcomes, ["trumps", "aces_threes"])
    tested = table["gain_p_adjusted"].notna()
    assert tested.sum() > 10
    for _, r in table[tested].iterrows():
        if not (np.isfinite(r["gain_lower"]) and np.isfinite(r["gain_upper"])):
            continue
        excl = r["gain_lower"] > 0 or r["gain_upper"] < 0
        assert r["gain_verdict"].startswith("resolved") == excl
        assert r["gain_lower"] <= r["gain_lower_marginal"] + 1e-12
    # Never a zero-width interval.
    finite = table["gain_lower"].notna()
    assert (table.loc[finite, "gain_upper"] > table.loc[finite, "gain_lower"]).all()


def test_thresholds_are_judged_on_a_held_out_seed() -> None:
    from cuarenta_sim.cuatrola import bidding_study

    assert bidding_study.held_out_seed(0) == 1 and bidding_study.held_out_seed(7) == 8
    assert bidding_study.held_out_n(250_000) == 125_000 and bidding_study.held_out_n(10) == 100
