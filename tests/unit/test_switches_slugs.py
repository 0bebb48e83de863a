"""The slug parser shared by both games (cuarenta_sim.switches): a switch given twice is refused."""

from __future__ import annotations

import pytest

from cuarenta_sim.cuarenta.rules import resolve_rules
from cuarenta_sim.cuatrola.rules import from_slug as cuatrola_from_slug
from cuarenta_sim.switches import parse_slug


@pytest.mark.parametrize(
    ("resolve", "slug"),
    [
        (resolve_rules, "quito(max_sum_cards=2,max_sum_cards=3)"),
        (resolve_rules, "cuenca(falla_points=2, falla_points=2)"),
        (cuatrola_from_slug, "ro(target=21,target=11)"),
        (cuatrola_from_slug, "online(failed_contract=nobody,failed_contract=nobody)"),
    ],
)
def test_a_switch_given_twice_is_a_value_error(resolve, slug: str) -> None:
    with pytest.raises(ValueError, match=r"given twice .* give each switch once") as err:
        resolve(slug)
    assert "\n" not in str(err.value)


def test_each_switch_once_parses() -> None:
    assert parse_slug("quito(a=1,b=true)", {"quito": None}) == ("quito", {"a": 1, "b": True})
    assert cuatrola_from_slug("ro(target=21)").target == 21
    assert resolve_rules("quito(max_sum_cards=2)").max_sum_cards == 2
