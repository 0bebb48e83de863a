"""Golden hashes: the records and traces of every policy, preset, level and player count of
both games, on fixed seeds, are bit-identical to the digests committed in ``hashes.json``.

This is the safety net of the step-level core refactor (issue 19, item 3): both engines --
the numba pipeline (``cuarenta_sim.simulate`` frames and the kernels' ``trace_game``) and the
reference engine (its trace rows, per-hand and per-game records and replay text) -- must keep
producing the same bytes. The cases and the canonical digests are in ``golden_cases.py``
(frames hashed per column as name, dtype and numpy bytes, never as Parquet bytes, which change
with pyarrow versions).

Regenerating (from the repository root, the checkout on ``PYTHONPATH``)::

    python tests/golden/regenerate.py          # rewrites tests/golden/hashes.json
    python tests/golden/regenerate.py --check  # lists the digests that differ

**Rule: a digest may change only with a documented, reviewed ``ENGINE_VERSION`` bump** of its
game (``cuarenta_sim/cuarenta/definition.py``, ``cuarenta_sim/cuatrola/definition.py``) whose
commit message says why the records changed; :func:`test_engine_versions_match` fails until
``hashes.json`` is regenerated after such a bump, and a digest that changes without one fails
here. A digest that differs between two runs of the same code is a determinism bug: report it,
never regenerate it away.

Cost: the default tier is a few seconds once the kernels are compiled; the reference games
of ``pimc`` and ``solver`` (pure-Python search) are marked ``slow``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest
from golden_cases import (
    CASES,
    CUARENTA_POLICIES,
    CUATROLA_BIDS,
    CUATROLA_PLAY,
    Case,
    array_digest,
    frame_digest,
    frames_digests,
    json_digest,
    kernel_digests,
    reference_digests,
    simulate_case,
)

from cuarenta_sim import GAMES

HASHES = json.loads((Path(__file__).with_name("hashes.json")).read_text())
STORED: dict[str, dict[str, str]] = HASHES["cases"]


def _stored(case: Case, prefix: str | None = None) -> dict[str, str]:
    comps = STORED[case.id]
    if prefix is None:
        return {k: v for k, v in comps.items() if not k.startswith("reference_")}
    return {k: v for k, v in comps.items() if k.startswith(prefix)}


def test_every_case_is_stored_and_nothing_else() -> None:
    assert set(STORED) == {c.id for c in CASES}, "run tests/golden/regenerate.py"


def test_engine_versions_match() -> None:
    """The digests belong to the current engine versions: a bump needs a regeneration."""
    assert HASHES["engine_version"] == {n: g.engine_version for n, g in GAMES.items()}


def test_cases_cover_every_policy_preset_level_and_player_count() -> None:
    """A policy, preset, level or player count added to a game needs its golden case."""
    from cuarenta_sim.cuarenta.policies import POLICIES
    from cuarenta_sim.cuarenta.policies.learned import DEFAULT_WEIGHTS, SHIPPED_WEIGHTS
    from cuarenta_sim.cuatrola.policies import BID_KINDS, PLAY_POLICIES

    assert set(GAMES) == {"cuarenta", "cuatrola"}
    names = {p.split("(")[0] for p in CUARENTA_POLICIES}
    assert names == set(POLICIES)
    for weights in SHIPPED_WEIGHTS:  # the default through plain "learned"
        spec = "learned" if weights == DEFAULT_WEIGHTS else f"learned(weights={weights})"
        assert spec in CUARENTA_POLICIES, weights
    assert set(CUATROLA_PLAY) == set(PLAY_POLICIES)
    assert {b.split("(")[0] for b in CUATROLA_BIDS} == set(BID_KINDS)
    for name, game in GAMES.items():
        mine = [c for c in CASES if c.game == name]
        assert {c.kwargs["rules"] for c in mine} >= set(game.presets)
        assert {c.kwargs["level"] for c in mine} == set(game.levels)
        assert {c.kwargs.get("players", 4) for c in mine} == set(game.player_counts)
        for preset in game.presets:
            for level in game.levels:
                assert any(
                    c.kwargs["rules"] == preset and c.kwargs["level"] == level for c in mine
                ), (name, preset, level)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_numba_pipeline_digests(case: Case) -> None:
    """``simulate`` frames and kernel traces are bit-identical to the golden digests."""
    assert kernel_digests(case) == _stored(case)


REFERENCE_CASES = [
    pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow_reference else [])
    for c in CASES
    if c.reference
]


@pytest.mark.parametrize("case", REFERENCE_CASES)
def test_reference_engine_digests(case: Case) -> None:
    """The reference engine's trace, records and replay text are bit-identical."""
    got = reference_digests(case)
    assert got == _stored(case, "reference_")
    for i in case.reference:  # the two engines play the same game (contract)
        assert got[f"reference_trace[{i}]"] == STORED[case.id].get(f"kernel_trace[{i}]")


#: A few cases of every game and level kind run again with other threads and chunk sizes.
SCALE_CASES = [
    "cuarenta/policy=random/players=2",
    "cuarenta/rules=cuenca/level=chica/players=4",
    "cuarenta/rules=quito_torneo/level=mesa/players=2",
    "cuatrola/policy=random/bid=threshold",
    "cuatrola/rules=online/level=game",
]


@pytest.mark.parametrize("case_id", SCALE_CASES)
def test_threads_and_chunk_sizes_keep_the_digests(case_id: str) -> None:
    case = next(c for c in CASES if c.id == case_id)
    want = {k: STORED[case_id][k] for k in ("hands", "games")}
    runs = [{"threads": 1}, {"chunk_size": 1}, {"chunk_size": 3, "threads": 1}]
    if numba.config.NUMBA_NUM_THREADS >= 2:
        runs += [{"threads": 2}, {"threads": 2, "chunk_size": 2}]
    for extra in runs:
        assert frames_digests(simulate_case(case, **extra)) == want, extra


# ---------------------------------------------------------------- the digests themselves
def test_frame_digest_sees_names_order_dtypes_and_values() -> None:
    a = pd.DataFrame({"x": np.arange(5, dtype=np.int8), "y": np.ones(5, dtype=np.int16)})
    base = frame_digest(a)
    assert frame_digest(a.copy()) == base
    assert frame_digest(a[["y", "x"]]) != base
    assert frame_digest(a.rename(columns={"x": "z"})) != base
    assert frame_digest(a.astype({"x": np.int16})) != base
    b = a.copy()
    b.loc[4, "y"] = 2
    assert frame_digest(b) != base
    assert frame_digest(a.iloc[1:]) != frame_digest(a.iloc[1:].reset_index(drop=True))
    assert frame_digest(None) != frame_digest(a.iloc[:0])


def test_frame_digest_survives_a_parquet_round_trip(tmp_path: Path) -> None:
    """The digest is of the values, not of the storage (pyarrow's bytes may change)."""
    case = next(c for c in CASES if c.id == "cuatrola/rules=ro/level=game")
    res = simulate_case(case)
    res.hands.to_parquet(tmp_path / "h.parquet")
    back = pd.read_parquet(tmp_path / "h.parquet")
    assert frame_digest(back) == frame_digest(res.hands) == STORED[case.id]["hands"]


def test_array_and_json_digests() -> None:
    a = np.arange(6, dtype=np.int64)
    assert array_digest(a) == array_digest(a.astype(">i8"))
    assert array_digest(a) != array_digest(a.reshape(2, 3))
    assert array_digest(a) != array_digest(a.astype(np.int32))
    assert json_digest({"a": np.int64(1), "b": (1, 2)}) == json_digest({"b": [1, 2], "a": 1})
    assert json_digest({"a": 1}) != json_digest({"a": 2})
