"""The scenario interface never raises (spec section F): any JSON gives a result or an error."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta_sim.scenario import evaluate, evaluate_lines

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.floats(allow_nan=False)
    | st.sampled_from(["A", "5", "K", "8", "10", "7h", "quito", "pagat", "x"]),
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(
            st.sampled_from(["kind", "rules", "preset", "seat", "trail", "deal", "table", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)
rank = st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K", "8", "1", "12"])
field_values: dict[str, Any] = {
    "kind": st.sampled_from(["play", "deal", "end", "trick"]),
    "rules": st.sampled_from(["quito", "cuenca", "pagat", "quito_torneo", "x"])
    | st.fixed_dictionaries({"preset": st.sampled_from(["quito", "pagat"])}),
    "players": st.sampled_from([2, 4, 3, "2"]),
    "dealer": st.integers(-1, 4),
    "scores": st.lists(st.integers(-2, 42), min_size=0, max_size=3),
    "table": st.lists(rank, max_size=8),
    "seat": st.integers(-1, 4),
    "deal": st.integers(0, 5),
    "previous": st.none()
    | st.fixed_dictionaries(
        {"seat": st.integers(-1, 4), "trail": rank}, optional={"deal": st.integers(0, 5)}
    ),
    "rondas": st.lists(st.lists(rank, max_size=2), max_size=4),
    "card": rank,
    "base": st.lists(rank, max_size=4),
    "hands": st.lists(st.lists(rank, min_size=4, max_size=6), max_size=4),
    "cards": st.lists(st.integers(-1, 41), max_size=3),
    "last_capturer": st.sampled_from([None, 0, 1, 2]),
}
scenarios = st.fixed_dictionaries(
    {"kind": field_values["kind"], "rules": field_values["rules"]},
    optional={k: v for k, v in field_values.items() if k not in ("kind", "rules")},
)


def _valid_result(result: dict[str, Any]) -> None:
    assert isinstance(result, dict)
    json.dumps(result)
    if "error" in result:
        assert set(result) == {"error"} and isinstance(result["error"], str)
    else:
        assert {"points", "scores", "winner", "zapateria"} <= set(result)
        assert all(p % 2 == 0 and p >= 0 for p in result["points"])


@settings(max_examples=300, deadline=None)
@given(obj=json_values)
def test_any_json_value_gives_a_result_or_an_error(obj: object) -> None:
    _valid_result(evaluate(obj))


@settings(max_examples=600, deadline=None)
@given(obj=scenarios)
def test_plausible_scenarios_give_a_result_or_an_error(obj: dict[str, Any]) -> None:
    _valid_result(evaluate(obj))


@settings(max_examples=100, deadline=None)
@given(objs=st.lists(scenarios, min_size=1, max_size=4))
def test_json_lines_one_output_per_line(objs: list[dict[str, Any]]) -> None:
    text = "\n".join(json.dumps(o) for o in objs)
    lines, failed = evaluate_lines(text)
    assert len(lines) == len(objs)
    results = [json.loads(line) for line in lines]
    assert failed == any("error" in r for r in results)
