"""Policy specs with parameters: parsing, errors, canonical forms, provenance, pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.policies import (
    HEURISTIC_PARAMS,
    PIMC_PARAMS,
    POLICIES,
    parse_policy,
    resolve_policies,
    split_policy_list,
)
from cuarenta_sim.cuarenta.policies.kernel import P_NO_ACE_TRAIL, P_SAMPLES, POLICY_ROW
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.switches import split_specs


def test_canonical_specs_list_every_parameter() -> None:
    assert parse_policy("greedy").canonical == "greedy"
    spec = parse_policy(" heuristic( no_ace_trail = 0 ) ")
    assert spec.canonical.startswith("heuristic(cards=")
    assert "no_ace_trail=0" in spec.canonical
    assert len(spec.values) == len(HEURISTIC_PARAMS)
    assert parse_policy(spec.canonical) == spec  # round trip
    pimc = parse_policy("pimc(samples=5,depth=data,playout=greedy)")
    assert pimc.canonical == "pimc(samples=5,depth=data,playout=greedy,leaf_cards=800)"
    assert pimc.row()[P_SAMPLES] == 5
    assert [p.name for p in POLICIES["pimc"].params] == [p.name for p in PIMC_PARAMS]


@pytest.mark.parametrize(
    "spec,match",
    [
        ("smart", "unknown policy 'smart'; accepted: random, greedy, heuristic, pimc"),
        ("greedy(depth=2)", "unknown parameter 'depth' of policy greedy; accepted: none"),
        ("pimc(sample=3)", "accepted: samples, depth, playout, leaf_cards"),
        ("pimc(samples=0)", "accepted: a whole number from 1 to 4096"),
        ("pimc(depth=match)", "accepted: deal, data"),
        ("heuristic(cards=-1)", "bad value '-1' for heuristic parameter cards"),
        ("heuristic(cards=1,cards=2)", "given twice"),
        ("heuristic(cards)", "expected param=value"),
        ("pimc(", "malformed policy spec"),
    ],
)
def test_bad_specs_say_what_is_accepted(spec: str, match: str) -> None:
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
        parse_policy(spec)


def test_seat_policies_are_tuples_of_ids_with_rows_and_pickle() -> None:
    seats = resolve_policies(("heuristic(no_ace_trail=7)", "pimc"), 4)
    assert seats == (2, 3, 2, 3)
    assert seats.specs[0] == seats.specs[2] and seats.specs[1].startswith("pimc(")
    arr = seats.kernel_array()
    assert arr.shape == (4, POLICY_ROW) and arr.dtype == np.int64
    assert arr[0, 1 + P_NO_ACE_TRAIL] == 7
    back = pickle.loads(pickle.dumps(seats))
    assert back == seats and back.specs == seats.specs and back.params == seats.params


def test_split_policy_list_respects_parentheses() -> None:
    assert split_policy_list("random, pimc(samples=8,depth=deal),greedy") == [
        "random",
        "pimc(samples=8,depth=deal)",
        "greedy",
    ]
    # The command line splits --policies with the shared splitter of both games.
    assert split_specs("heuristic(keep_table=1,no_ace_trail=2),pimc") == [
        "heuristic(keep_table=1,no_ace_trail=2)",
        "pimc",
    ]
    with pytest.raises(ValueError, match="unclosed"):
        split_specs("greedy,pimc(samples=8")


def test_provenance_records_canonical_specs_and_runs_reproduce() -> None:
    a = simulate(
        rules="quito",
        players=2,
        policies=("pimc(samples=3)", "heuristic"),
        n=20,
        level="chica",
        seed=4,
    )
    specs = a.provenance["policies"]
    assert specs[0] == parse_policy("pimc(samples=3)").canonical
    assert specs[1] == parse_policy("heuristic").canonical
    b = simulate(
        rules="quito",
        players=2,
        policies=tuple(specs),
        n=20,
        level="chica",
        seed=4,
        threads=1,
        chunk_size=7,
    )
    assert a.hands.equals(b.hands) and a.games.equals(b.games)
    assert simulate(rules="quito", players=2, policies=("greedy", "random"), n=5).provenance[
        "policies"
    ] == [
        "greedy",
        "random",
    ]


def test_a_tactic_switch_changes_play() -> None:
    """The A/B switches are live: turning a tactic up changes some plays."""
    on = simulate(
        rules="quito", players=2, policies=("heuristic(no_ace_trail=5000)", "greedy"), n=300, seed=1
    ).hands
    off = simulate(
        rules="quito", players=2, policies=("heuristic(no_ace_trail=0)", "greedy"), n=300, seed=1
    ).hands
    assert not on.equals(off)


def test_reference_engine_accepts_specs() -> None:
    log = play_game("quito", 2, ("heuristic(trail_pair=0)", "pimc(samples=2)"), seed=1)
    assert log.policies[0] == parse_policy("heuristic(trail_pair=0)").canonical
    assert log.policies[1] == parse_policy("pimc(samples=2)").canonical
