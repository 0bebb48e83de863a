"""Smaller edges of the library (issue 20, failure 9): each with what used to go wrong.

* ``--precision`` sized only the datas: ``report quito-vs-cuenca --precision 5`` played 385
  datas but 9 chicas (``n // 40``); the chicas and mesas now get the same count.
* ``Comparison.effect("nope")`` and ``plotting.tornado(empty)`` raised ``KeyError``; now a
  ``ValueError`` naming what is accepted.
* ``compare_rules`` with every size 0 returned an empty comparison; now refused.
* A dataset resumed with other rules dumped both whole switch dicts (about 1,000 characters);
  the message now names the switch that differs.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import aggregate
from cuarenta_sim.cuarenta import compare
from cuarenta_sim.plotting import tornado
from cuarenta_sim.studies import STUDIES

matplotlib.use("Agg")


@pytest.mark.parametrize("name", ["quito-vs-cuenca", "sensitivity"])
def test_precision_sizes_the_chicas_and_mesas_too(name: str) -> None:
    settings = STUDIES[name].settings(precision=5)
    assert settings.n == 385  # 1.96**2 / 4 / 0.05**2, rounded up
    assert settings.n_chicas == settings.n_mesas == 385  # was 9 and 3 (quito-vs-cuenca)
    given = STUDIES[name].settings(precision=5, chicas=12, mesas=4)
    assert (given.n_chicas, given.n_mesas) == (12, 4)  # explicit sizes are kept
    assert STUDIES[name].settings(n=400).n_chicas < 400  # the default share is unchanged


def _frames(seed: int) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    return {"unit": pd.DataFrame({"x": rng.integers(0, 5, 50)})}


def test_effect_of_an_unknown_metric() -> None:
    metric = compare.Metric("x", "x", "unit", "mean", lambda f: f["x"].to_numpy())
    comp = compare.compare_variants({"a": 1, "b": 2}, _frames, [metric])
    assert comp.effect("x")["variant"].tolist() == ["b"]
    with pytest.raises(ValueError, match=r"no differences of metric 'nope'; accepted: x$"):
        comp.effect("nope")


def test_tornado_of_an_empty_frame() -> None:
    empty = pd.DataFrame(columns=["variant", "estimate", "lower", "upper"])
    with pytest.raises(ValueError, match="tornado: the frame has no rows; give one row"):
        tornado(empty)
    with pytest.raises(ValueError, match="lacks column"):
        tornado(pd.DataFrame({"variant": ["a"], "estimate": [1.0]}))


def test_compare_rules_with_nothing_to_simulate() -> None:
    with pytest.raises(ValueError, match="n_datas, n_chicas, n_mesas are all 0"):
        compare.compare_rules(["quito", "cuenca"], n_datas=0, n_chicas=0, n_mesas=0)
    with pytest.raises(ValueError, match="n_chicas must be a non-negative whole number"):
        compare.compare_rules(["quito", "cuenca"], n_datas=5, n_chicas=-1, n_mesas=0)


def test_dataset_message_names_the_switch_that_differs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    aggregate(n=50, seed=1, dataset=tmp_path / "d")
    with pytest.raises(ValueError) as err:
        aggregate(n=50, seed=1, dataset=tmp_path / "d", rules="quito(max_sum_cards=2)")
    msg = str(err.value)
    assert "max_sum_cards: None there, 2 now" in msg, msg
    assert "capture_compulsory" not in msg and len(msg) < 300, msg
