"""cuarenta_sim.cuarenta.compare: generic paired plumbing and the Cuarenta comparisons."""

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.cuarenta import compare
from cuarenta_sim.cuarenta.rules import SWITCHES, RuleSet, resolve_rules


def _frames(seed: int, n: int = 300) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    return {
        "unit": pd.DataFrame(
            {
                "id": np.arange(n),
                "x": rng.integers(0, 10, n),
                "hit": rng.integers(0, 2, n),
                "den": rng.integers(1, 5, n),
                "ok": rng.random(n) < 0.9,
            }
        )
    }


METRICS = [
    compare.Metric("x", "mean of x", "unit", "mean", lambda f: f["x"].to_numpy()),
    compare.Metric(
        "hit",
        "P(hit)",
        "unit",
        "proportion",
        lambda f: f["hit"].to_numpy(),
        mask=lambda f: f["ok"].to_numpy(),
    ),
    compare.Metric(
        "x_per_den",
        "x per den",
        "unit",
        "ratio",
        lambda f: f["x"].to_numpy(),
        denominator=lambda f: f["den"].to_numpy(),
    ),
]


def test_metric_validation() -> None:
    with pytest.raises(ValueError, match="unknown metric kind"):
        compare.Metric("m", "m", "unit", "median", lambda f: f)
    with pytest.raises(ValueError, match="denominator"):
        compare.Metric("m", "m", "unit", "ratio", lambda f: f)
    with pytest.raises(ValueError, match="denominator"):
        compare.Metric("m", "m", "unit", "mean", lambda f: f, denominator=lambda f: f)


def test_estimates_name_their_methods_and_skip_missing_levels() -> None:
    extra = compare.Metric("y", "y", "other", "mean", lambda f: f["x"].to_numpy())
    out = compare.estimate_metrics(_frames(0), [*METRICS, extra])
    assert list(out.columns) == compare.ESTIMATE_METRIC_COLUMNS
    assert list(out["metric"]) == ["x", "hit", "x_per_den"]
    # 300 units: Student t for the mean (stats.T_MAX_N), Wilson, delta-method ratio.
    assert list(out["method"]) == ["t", "wilson", "ratio"]
    f = _frames(0)["unit"]
    assert out.loc[1, "n"] == f["ok"].sum()  # the mask counts
    assert out.loc[2, "estimate"] == pytest.approx(f["x"].sum() / f["den"].sum())


def _no_zero_width(out: pd.DataFrame) -> None:
    """Identical samples: flagged, and bounded (0/1 outcomes) or without interval, never
    [0, 0]."""
    assert out["no_variation"].all()
    bounded = out["defined"]
    assert ((out["lower"] < 0) & (out["upper"] > 0))[bounded].all()
    assert (out["lower"].isna() & out["upper"].isna())[~bounded].all()


def test_paired_difference_of_a_variant_with_itself_is_exactly_zero() -> None:
    a = _frames(3)
    out = compare.paired_differences(a, a, METRICS)
    assert list(out.columns) == compare.DIFFERENCE_COLUMNS
    assert (out[["estimate", "relative"]] == 0.0).all().all()
    _no_zero_width(out)
    assert out.set_index("metric").loc["hit", "defined"]  # 0/1 outcomes: the exact bound
    assert (out["verdict"] == "identical").all() and (out["differing"] == 0).all()
    assert list(out["method"]) == ["paired", "paired", "paired ratio"]


def test_paired_differences_pair_unit_by_unit() -> None:
    a, b = _frames(1), _frames(1)
    b["unit"] = b["unit"].assign(x=b["unit"]["x"] + 1)  # every unit one more
    out = compare.paired_differences(b, a, METRICS).set_index("metric")
    assert out.loc["x", "estimate"] == pytest.approx(1.0)
    # A constant shift: no variation to build an interval from (never [1, 1]); all 300 pairs
    # in one direction resolve it by the exact sign test.
    assert out.loc["x", "no_variation"] and np.isnan(out.loc["x", "lower"])
    assert out.loc["x", "p_value"] == pytest.approx(2.0**-299)
    assert out.loc["x", "verdict"] == "resolved"
    assert out.loc["x", "differing"] == 300 and out.loc["x_per_den", "differing"] == 300
    assert out.loc["hit", "verdict"] == "identical" and out.loc["hit", "differing"] == 0


def test_pairing_errors() -> None:
    a = _frames(1)
    short = {"unit": a["unit"].iloc[:-1]}
    with pytest.raises(ValueError, match="cannot pair"):
        compare.paired_differences(short, a, METRICS)
    shuffled = {"unit": a["unit"].iloc[::-1].reset_index(drop=True)}
    with pytest.raises(ValueError, match="key column 'id'"):
        compare.paired_differences(shuffled, a, METRICS, keys={"unit": "id"})


def test_compare_variants_runs_each_variant_once_with_the_baseline_first() -> None:
    calls = []

    def run(seed: int) -> dict[str, pd.DataFrame]:
        calls.append(seed)
        return _frames(seed)

    comp = compare.compare_variants(
        {"a": 5, "b": 6, "c": 5}, run, METRICS, baseline="b", keep=("unit",)
    )
    assert calls == [6, 5, 5]
    assert comp.baseline == "b" and list(dict.fromkeys(comp.estimates["variant"])) == [
        "b",
        "a",
        "c",
    ]
    assert set(comp.differences["variant"]) == {"a", "c"}
    assert set(comp.frames) == {"a", "b", "c"}
    assert comp.effect("x")["variant"].tolist() == ["a", "c"]
    with pytest.raises(ValueError, match="baseline"):
        compare.compare_variants({"a": 1}, run, METRICS, baseline="z")
    with pytest.raises(KeyError):
        comp.metric("nope")


def test_quito_against_itself_differs_by_exactly_zero_everywhere() -> None:
    """Common random numbers: the same rules on the same seeds give identical frames."""
    for players in (2, 4):
        comp = compare.compare_rules(
            {"a": "quito", "b": "quito"},
            players=players,
            n_datas=3_000,
            n_chicas=600,
            n_mesas=300,
            seed=7,
        )
        d = comp.differences
        assert len(d) == len(compare.cuarenta_metrics())
        assert (d["estimate"] == 0.0).all()
        _no_zero_width(d)
        assert (d["verdict"] == "identical").all()
        assert set(d["level"]) == {"data", "chica", "mesa"}


def test_quito_vs_cuenca_points_differ_only_by_limpia_points() -> None:
    """R7.2: Cuenca's extra points per data are exactly the extra limpia points."""
    comp = compare.compare_rules(["quito", "cuenca"], n_datas=5_000, n_chicas=0, n_mesas=0, seed=2)
    d = comp.differences.set_index("metric")
    assert d.loc["points", "estimate"] == pytest.approx(d.loc["points_limpia", "estimate"])
    assert d.loc["points", "estimate"] > 0 and d.loc["points", "verdict"] == "resolved"
    for src in ("carton", "caida", "ronda", "other"):
        assert d.loc[f"points_{src}", "verdict"] == "identical"
    with pytest.raises(ValueError, match="same rule set twice"):
        compare.compare_rules(["quito", "quito"], n_datas=10)


def test_switch_flips_change_exactly_one_switch() -> None:
    for base in ("quito", "pagat"):
        rs = resolve_rules(base)
        flips = compare.switch_flips(rs)
        flipped = set()
        for label, variant in flips.items():
            diff = [s for s in SWITCHES if getattr(variant, s) != getattr(rs, s)]
            assert len(diff) == 1, (label, diff)
            assert label.split("=")[0] == diff[0]
            flipped.add(diff[0])
        assert flipped == set(SWITCHES) - set(compare.NOT_FLIPPED)
    at38 = compare.switch_flips("quito", ["at_38"])
    assert list(at38) == ["at_38=none", "at_38=only_caida", "at_38=no_limpia"]
    with pytest.raises(ValueError, match="unknown switch"):
        compare.switch_flips("quito", ["nope"])


def test_sensitivity_of_one_switch() -> None:
    comp = compare.sensitivity(
        "quito",
        switches=["caida_limpia_cumulative"],
        n_datas=2_000,
        n_chicas=500,
        n_mesas=0,
        seed=3,
    )
    assert comp.baseline == "base" and comp.meta["base"] == "quito"
    effect = comp.effect("points").iloc[0]
    assert effect["variant"] == "caida_limpia_cumulative=true" and effect["estimate"] > 0
    assert comp.meta["rules"]["caida_limpia_cumulative=true"] == RuleSet.preset("cuenca").slug()
