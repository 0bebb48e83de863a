"""RuleSet validation, presets (section S) and canonical slugs."""

import dataclasses

import pytest

from cuarenta_sim.cuarenta.rules import (
    NEVER,
    PRESETS,
    SWITCHES,
    RuleSet,
    from_slug,
    resolve_rules,
)


def test_presets_match_section_s() -> None:
    q, c, p, t = (PRESETS[k] for k in ("quito", "cuenca", "pagat", "quito_torneo"))
    # R7.2: the only difference between the two WEN scorings.
    diff = [s for s in SWITCHES if getattr(q, s) != getattr(c, s)]
    assert diff == ["caida_limpia_cumulative"]
    assert not q.caida_limpia_cumulative and c.caida_limpia_cumulative
    assert (p.ronda_points, p.caida_en_ronda_points, p.caida_en_ronda_timing) == (
        4,
        10,
        "end_of_deal",
    )
    assert (p.ronda_blocked_from, p.at_38, p.tie_points_20, p.chicas_to_win) == (
        30,
        "no_limpia",
        6,
        1,
    )
    assert not p.zapateria_ends_mesa
    assert (t.max_sum_cards, t.doble_ronda, t.ronda_blocked_from, t.carton_blocked_from) == (
        2,
        4,
        30,
        30,
    )
    assert (t.at_38, t.leftover_cards, t.falla_points) == ("only_caida", "last_capturer", 2)
    for rs in PRESETS.values():
        assert rs.target == 40 and rs.zapateria_below == 10
        assert not rs.capture_compulsory and not rs.caida_across_deals and not rs.caida_by_sum


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_slug_is_its_name(name: str) -> None:
    assert PRESETS[name].slug() == name
    assert from_slug(name) == PRESETS[name]


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(max_sum_cards=2),
        PRESETS["cuenca"].replace(at_38="none", falla_points=2),
        PRESETS["pagat"].replace(doble_ronda=6, ronda_blocked_from=None),
        PRESETS["quito_torneo"].replace(capture_compulsory=True, caida_by_sum=True),
        RuleSet(
            caida_across_deals=True, target=60, chicas_to_win=3, leftover_cards="last_capturer"
        ),
    ],
)
def test_slug_round_trips(rules: RuleSet) -> None:
    slug = rules.slug()
    assert "(" in slug
    assert from_slug(slug) == rules
    assert resolve_rules(slug) == rules


def test_slug_picks_nearest_preset() -> None:
    assert RuleSet(max_sum_cards=2).slug() == "quito(max_sum_cards=2)"
    assert PRESETS["cuenca"].replace(at_38="none").slug() == "cuenca(at_38=none)"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ronda_points": 3}, "even number"),
        ({"ronda_points": -2}, "even number"),
        ({"max_sum_cards": 1}, "max_sum_cards"),
        ({"doble_ronda": "lose"}, "win_chica"),
        ({"doble_ronda": True}, "win_chica"),
        ({"at_38": "maybe"}, "caida_or_carton"),
        ({"caida_en_ronda_timing": "later"}, "end_of_deal"),
        ({"leftover_cards": "dealer"}, "last_capturer"),
        ({"target": 41}, "target"),
        ({"target": 0}, "target"),
        ({"chicas_to_win": 0}, "chicas_to_win"),
        ({"capture_compulsory": 1}, "true or false"),
        ({"ronda_blocked_from": "30"}, "ronda_blocked_from"),
    ],
)
def test_bad_values_are_rejected_with_what_is_accepted(changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RuleSet().replace(**changes)


def test_unknown_names_list_the_accepted_ones() -> None:
    with pytest.raises(ValueError, match=r"accepted: .*max_sum_cards"):
        RuleSet().replace(sums=2)
    with pytest.raises(ValueError, match="unknown preset 'lima'; accepted: quito, cuenca"):
        RuleSet.preset("lima")
    with pytest.raises(ValueError, match="malformed"):
        from_slug("quito(max_sum_cards)")
    with pytest.raises(ValueError, match="malformed rules slug"):
        from_slug("Quito!")
    with pytest.raises(ValueError, match="rules must be"):
        resolve_rules(42)  # type: ignore[arg-type]


def test_resolve_rules_accepts_dicts() -> None:
    assert resolve_rules({"preset": "cuenca", "max_sum_cards": 2}) == PRESETS["cuenca"].replace(
        max_sum_cards=2
    )
    assert resolve_rules({"max_sum_cards": 2}) == RuleSet(max_sum_cards=2)


def test_ruleset_is_frozen_and_hashable() -> None:
    rs = PRESETS["quito"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.target = 30  # type: ignore[misc]
    assert len({rs, RuleSet()}) == 1


def test_to_kernel_encodes_every_switch() -> None:
    k = PRESETS["quito"].to_kernel()
    assert k.max_sum_cards == NEVER and k.doble_ronda_points == -1 and k.at_38 == 1
    assert k.ronda_blocked_from == NEVER and k.leftovers_to_last_capturer == 0
    t = PRESETS["quito_torneo"].to_kernel()
    assert (t.max_sum_cards, t.doble_ronda_points, t.at_38, t.leftovers_to_last_capturer) == (
        2,
        4,
        2,
        1,
    )
    p = PRESETS["pagat"].to_kernel()
    assert (p.caida_en_ronda_end_of_deal, p.at_38, p.tie_points_20) == (1, 3, 6)
    assert len(k) == len(SWITCHES)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ronda_points": 40000}, "from 0 to 100"),
        ({"doble_ronda": 102}, "from 0 to 100"),
        ({"max_sum_cards": 10**20}, "from 2 to 40"),
        ({"zapateria_below": 10**20}, "from 0 to 1000"),
        ({"ronda_blocked_from": 10**20}, "from 0 to 1000"),
    ],
)
def test_values_beyond_the_engine_range_are_rejected(changes: dict, message: str) -> None:
    """Switches stay in ranges where every score fits the engine's int16 columns."""
    with pytest.raises(ValueError, match=message):
        RuleSet().replace(**changes)


def test_preset_name_must_be_a_string() -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        RuleSet.preset(["quito"])  # type: ignore[arg-type]
