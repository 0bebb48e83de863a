"""CuatrolaRules, presets, slugs, cards and policy names."""

from __future__ import annotations

import re

import pytest

from cuarenta_sim.cuatrola.cards import format_card, parse_card, parse_cards
from cuarenta_sim.cuatrola.policies import hand_strength, parse_bid_policy, resolve_play_policies
from cuarenta_sim.cuatrola.rules import PRESETS, CuatrolaRules, from_slug, resolve_rules


def test_presets() -> None:
    assert PRESETS["ro"] == CuatrolaRules()
    assert PRESETS["online"].bidding == "first_closes"
    assert PRESETS["online"].replace(bidding="overcall") == PRESETS["ro"]


@pytest.mark.parametrize(
    "rules",
    [
        CuatrolaRules(),
        CuatrolaRules(bidding="first_closes"),
        CuatrolaRules(failed_contract="nobody", target=21),
        CuatrolaRules(first_lead="declarer", dealer_rotation="last_trick_winner"),
    ],
)
def test_slug_round_trip(rules: CuatrolaRules) -> None:
    assert from_slug(rules.slug()) == rules
    assert resolve_rules(rules.slug()) == rules
    assert resolve_rules({"preset": "ro", **rules.to_dict()}) == rules


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("quito", "accepted: ro, online"),
        ("ro(bidding=loud)", "overcall, first_closes"),
        ("ro(trump=o)", "unknown Cuatrola switch trump"),
        ("ro(target=0)", "from 1 to 100"),
        ("ro(target)", "malformed switch"),
        (3, "got int"),
    ],
)
def test_bad_rules(value: object, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        resolve_rules(value)  # type: ignore[arg-type]
    assert fragment in str(info.value)


def test_cards() -> None:
    assert [format_card(c) for c in range(5)] == ["Ao", "3o", "Ro", "Co", "So"]
    assert parse_card("rC") == parse_card("12c") == 7
    assert parse_cards("Ab Sb") == [15, 19]
    for bad in ("2o", "Ax", "", 5):
        with pytest.raises(ValueError):
            parse_card(bad)


def test_policy_names() -> None:
    assert [p.kind for p in resolve_play_policies(["random", "greedy"])] == [0, 1, 0, 1]
    pimc = resolve_play_policies(["pimc", "pimc(samples=5)"])
    assert [p.name() for p in pimc[:2]] == ["pimc(samples=16)", "pimc(samples=5)"]
    for bad in ("pimc(samples=0)", "pimc(depth=2)", "greedy(1)", "alphabeta"):
        with pytest.raises(ValueError):
            resolve_play_policies(bad)
    p = parse_bid_policy("threshold(solo=10,quintola=30)")
    assert p.name() == "threshold(solo=10,cuatrola=18,quintola=30)"
    assert parse_bid_policy(p.name()) == p
    assert parse_bid_policy("always(cuatrola)").name() == "always(cuatrola)"
    for bad in ("sometimes", "threshold(duo=3)", "always(pass)", "never(1)"):
        with pytest.raises(ValueError):
            parse_bid_policy(bad)
    assert hand_strength(parse_cards("Ao 3o Ro Co So"), 0) == 22


def test_declarations_respect_the_limits() -> None:
    from cuarenta_sim.cuatrola.policies import parse_bid_policy
    from cuarenta_sim.cuatrola.reference.policies import choose_declaration

    ro = CuatrolaRules()
    hand = parse_cards("Ao 3o Ro Co So")  # all five trumps: strength 22
    threshold = parse_bid_policy("threshold")
    # Exactly 11 (C2.3): the wanted quintola is lowered to what the pair may declare.
    assert [choose_declaration(threshold, hand, 0, s, 0, False, ro) for s in (6, 7, 8, 10)] == [
        3,
        2,
        1,
        0,
    ]
    # Overcall (C2.1): only above the highest declaration so far.
    assert choose_declaration(parse_bid_policy("always(solo)"), hand, 0, 0, 1, False, ro) == 0
    assert choose_declaration(parse_bid_policy("never"), hand, 0, 0, 0, False, ro) == 0
    weak = parse_cards("Sc Ce Se Cb Sb")
    assert choose_declaration(threshold, weak, 0, 0, 0, False, ro) == 0


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("threshold(solo=10,solo=12)", "parameter solo given twice"),
        ("threshold(solo=12,,cuatrola=14)", "bad parameter ''"),
        ("threshold(solo=12,)", "bad parameter ''"),
        ("always", "always needs solo, cuatrola or quintola"),
        ("always(pass)", "always needs solo, cuatrola or quintola"),
    ],
)
def test_bid_policy_specs_are_strict(spec: str, needle: str) -> None:
    with pytest.raises(ValueError, match=re.escape(needle)):
        parse_bid_policy(spec)
