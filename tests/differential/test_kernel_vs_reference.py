"""The numba kernel against the reference engine, play for play (design.md principle 1).

For every preset, 2 and 4 players, random, greedy, heuristic and pimc play: the kernel's trace
(:func:`cuarenta_sim.cuarenta.engine.trace_game`) must equal the reference trace row for row, and
the
records of :func:`cuarenta_sim.simulate` must equal the reference records. A fast
subset runs by default; ``-m slow`` runs >= 5,000 datas per combination.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.engine import trace_game
from cuarenta_sim.cuarenta.engine.layout import TRACE_COLUMNS
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.rules import PRESETS, RuleSet

POLICY_SETS = [("random", "random"), ("greedy", "greedy")]
COMBOS = [(p, n, pol) for p in PRESETS for n in (2, 4) for pol in POLICY_SETS]
SEED = 2024


def _ints(d: dict[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in d.items()}


def first_difference(ref: np.ndarray, ker: np.ndarray) -> str:
    n = min(len(ref), len(ker))
    rows = np.nonzero((ref[:n] != ker[:n]).any(axis=1))[0]
    i = int(rows[0]) if len(rows) else n
    show = {}
    for name, arr in (("reference", ref), ("kernel", ker)):
        row = arr[i].tolist() if i < len(arr) else None
        show[name] = dict(zip(TRACE_COLUMNS, row, strict=True)) if row else None
    return f"{len(ref)} vs {len(ker)} rows; first difference at row {i}: {show}"


def compare(
    rules: Any, players: int, policies: tuple[str, ...], level: str, n: int, seed: int = SEED
) -> None:
    """Traces, per-data records and game records of games 0..n-1 must agree exactly."""
    res = simulate(rules=rules, players=players, policies=policies, n=n, level=level, seed=seed)
    hands = res.hands.to_dict("records")
    games = res.games.to_dict("records") if res.games is not None else None
    row = 0
    for i in range(n):
        log = play_game(rules, players=players, policies=policies, seed=seed, level=level, index=i)
        ker = trace_game(rules, players, policies, seed, level, i)
        assert np.array_equal(log.trace, ker), (
            f"{rules} {players}p {policies} {level} game {i}: " + first_difference(log.trace, ker)
        )
        for record in log.hands:
            assert _ints(hands[row]) == _ints(record), f"{level} game {i} record {row}"
            row += 1
        if games is not None:
            assert _ints(games[i]) == _ints(log.game), f"{level} game {i}"
    assert row == len(hands)


@pytest.mark.parametrize("preset,players,policies", COMBOS)
def test_datas(preset: str, players: int, policies: tuple[str, str]) -> None:
    compare(preset, players, policies, "data", 200)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("level,n", [("chica", 12), ("mesa", 4)])
def test_chicas_and_mesas(preset: str, level: str, n: int) -> None:
    compare(preset, 2, ("random", "greedy"), level, n)
    compare(preset, 4, ("greedy", "random"), level, n // 2)


VARIANTS = [
    RuleSet(capture_compulsory=True),
    RuleSet(caida_across_deals=True, caida_by_sum=True),
    RuleSet(max_sum_cards=3, caida_limpia_cumulative=True),
    RuleSet(ronda_points=4, doble_ronda=6, ronda_blocked_from=20, carton_blocked_from=24),
    RuleSet(caida_en_ronda_points=10, caida_en_ronda_timing="end_of_deal", at_38="none"),
    RuleSet(
        caida_en_ronda_points=6,
        at_38="only_caida",
        leftover_cards="last_capturer",
        falla_points=2,
        tie_points_20=4,
    ),
    RuleSet(
        at_38="no_limpia", target=30, chicas_to_win=3, zapateria_below=14, zapateria_ends_mesa=True
    ),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=[r.slug() for r in VARIANTS])
def test_switch_variants(rules: RuleSet) -> None:
    compare(rules, 2, ("random", "greedy"), "data", 60)
    compare(rules, 4, ("greedy", "random"), "chica", 8)
    compare(rules, 2, ("greedy", "greedy"), "mesa", 3)


@pytest.mark.slow
@pytest.mark.parametrize("preset,players,policies", COMBOS)
def test_datas_slow(preset: str, players: int, policies: tuple[str, str]) -> None:
    compare(preset, players, policies, "data", 5000, seed=SEED + 1)


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_chicas_slow(preset: str, players: int) -> None:
    compare(preset, players, ("random", "greedy"), "chica", 400, seed=SEED + 2)
    compare(preset, players, ("greedy", "random"), "mesa", 100, seed=SEED + 3)


# ---- heuristic and pimc (issue 5): same traces and records, play for play
SEARCH_SETS = [
    ("heuristic", "greedy"),
    ("heuristic(no_ace_trail=400,no_run_start=300,keep_table=200,trail_pair=0)", "random"),
]
PIMC_SETS = [
    ("pimc(samples=2)", "heuristic"),
    ("pimc(samples=2,depth=data,playout=greedy)", "random"),
]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_datas(preset: str, players: int) -> None:
    compare(preset, players, SEARCH_SETS[0], "data", 150)
    compare(preset, players, SEARCH_SETS[1], "chica", 8)


@pytest.mark.parametrize("policies", PIMC_SETS, ids=["pimc-deal-heuristic", "pimc-data-greedy"])
def test_pimc_games(policies: tuple[str, str]) -> None:
    compare("quito", 2, policies, "data", 20)
    compare("pagat", 4, policies, "chica", 2)


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_slow(preset: str, players: int) -> None:
    compare(preset, players, SEARCH_SETS[0], "data", 500, seed=SEED + 4)
    compare(preset, players, SEARCH_SETS[1], "chica", 30, seed=SEED + 5)


@pytest.mark.slow
@pytest.mark.parametrize("policies", PIMC_SETS, ids=["pimc-deal-heuristic", "pimc-data-greedy"])
def test_pimc_slow(policies: tuple[str, str]) -> None:
    compare("quito", 2, policies, "data", 150, seed=SEED + 6)
    compare("quito_torneo", 2, (policies[1], policies[0]), "chica", 12, seed=SEED + 7)
