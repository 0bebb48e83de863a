"""Bradley-Terry checks (issue 18 item 8): the deviance share of each player's pairs, the
refit without the random player, and intervals widened by the misfit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuarenta_sim.bradley_terry import bradley_terry_fit, ratings
from cuarenta_sim.rating_checks import (
    deviance_shares,
    inflate,
    inflation,
    is_excluded,
    pair_deviance,
    ratings_without,
)


def _wins(rate: float, n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).binomial(2, rate, n).astype(np.float64)


def _tournament():
    # random loses to everyone by a luck-driven margin that no rating reproduces; a, b, c are
    # transitive among themselves.
    pols = ["random", "a", "b(x=1)", "c"]
    rates = {(0, 1): 0.02, (0, 2): 0.2, (0, 3): 0.001, (1, 2): 0.4, (1, 3): 0.3, (2, 3): 0.4}
    matches = [(i, j, _wins(p, 2000, 7 * i + j)) for (i, j), p in rates.items()]
    return pols, matches


def test_deviance_shares_add_up_and_point_at_random() -> None:
    pols, matches = _tournament()
    fit = bradley_terry_fit(pols, matches)
    dev = pair_deviance(fit)
    assert dev.sum() == pytest.approx(fit.deviance, rel=1e-9)
    shares = deviance_shares(fit).set_index("policy")
    assert shares["share"].sum() == pytest.approx(2.0)
    assert shares.loc["random", "share"] > 0.5
    assert fit.misfit


def test_refit_without_random_and_widened_intervals() -> None:
    pols, matches = _tournament()
    pairs = {(pols[i], pols[j]): w for i, j, w in matches}
    out = ratings_without(pols, pairs, bootstrap=50)
    assert out is not None
    rating, fit, kept = out
    assert kept == ["a", "b(x=1)", "c"] and fit.df == 1
    assert set(rating["policy"]) == set(kept)
    c = inflation(fit)
    assert c >= 1.0 and (rating["inflation"] == c).all()
    width = rating["upper"] - rating["lower"]
    wide = rating["upper_inflated"] - rating["lower_inflated"]
    assert np.allclose(wide, c * width)
    # Nothing to exclude, or fewer than 3 left: no refit.
    assert ratings_without(["a", "b", "c"], pairs) is None
    assert is_excluded("random", ("random",)) and not is_excluded("randomish", ("random",))


def test_inflation_is_sqrt_of_deviance_per_df_when_misfit() -> None:
    pols, matches = _tournament()
    fit = bradley_terry_fit(pols, matches)
    want = math.sqrt(fit.deviance / (fit.dispersion * fit.df))
    assert inflation(fit) == pytest.approx(max(1.0, want))
    r = inflate(ratings(pols, matches, bootstrap=20), fit)
    assert (r["lower_inflated"] <= r["lower"]).all() and (r["upper_inflated"] >= r["upper"]).all()


def test_strength_sweep_is_package_data_equal_to_the_benchmark_file() -> None:
    """The report reads the sweep from the package, never from benchmarks/ (issue 18 item 8);
    the package copy is the committed benchmark result."""
    from pathlib import Path

    from cuarenta_sim.cuarenta import strength

    pkg = Path(strength.__file__).resolve().parent
    assert strength.SWEEP_DATA.resolve().is_relative_to(pkg)
    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "policies_sweep.json"
    assert strength.SWEEP_DATA.read_bytes() == bench.read_bytes()
    sweep = strength.load_sweep()
    assert sweep is not None and "benchmarks" not in sweep["path"]
    source = Path(strength.__file__).read_text() + (pkg / "strategies.py").read_text()
    assert '"benchmarks"' not in source
