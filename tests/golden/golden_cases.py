"""The golden cases and their canonical digests (the test and the regenerator share them).

Each :class:`Case` is one ``simulate`` call on a fixed seed and small ``n`` plus, for a few
indices of that run, the numba kernel's trace (``trace_game``) and the reference engine's game
(trace rows, per-hand and per-game records, replay text). :func:`digests` maps a case to
``{component: sha256 hex}``; ``hashes.json`` stores them (``python tests/golden/regenerate.py``).

Canonical forms (stable across pandas / pyarrow versions, unlike Parquet bytes):

* a frame: its index, then per column (in order) the name, the dtype and the values' bytes
  (little-endian, C order); an ``object`` column hashes the JSON of its values;
* an array: dtype, shape and bytes;
* records (lists of dicts, dataclasses): JSON with sorted keys and plain ints;
* a text: its UTF-8 bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

import cuarenta_sim
from cuarenta_sim import GAMES

#: Seed of the policy cases; the preset cases use :data:`PRESET_SEEDS` (a few seeds, one
#: past 2**32, so that the seed-to-root derivation is pinned too).
SEED = 2026
PRESET_SEEDS = (7, 2**40 + 3)

CUARENTA_POLICIES = (
    "random",
    "greedy",
    "heuristic",
    "learned",
    "learned(weights=learned_v1)",
    "pimc",
    "solver",
)
CUATROLA_PLAY = ("random", "greedy", "pimc")
CUATROLA_BIDS = ("never", "threshold", "always(solo)", "always(cuatrola)", "always(quintola)")
#: Reference-engine games slower than a second or so (pimc / solver search in pure Python):
#: in the ``slow`` tier. The reference ``solver`` with 4 players takes over a minute a data,
#: so its reference game is not recorded (its kernel trace is, and tests/differential checks
#: the two engines agree move for move).
SLOW_REFERENCE = ("pimc", "solver")


@dataclass(frozen=True)
class Case:
    """One golden run.

    Attributes
    ----------
    id : str
        Key in ``hashes.json``.
    game : str
        Registered game name.
    kwargs : dict
        ``simulate`` keyword arguments besides ``n``, ``seed`` (rules, players, policies,
        level, bid_policies).
    n : int
        Units simulated.
    traces : tuple of int
        Indices whose kernel trace is hashed.
    reference : tuple of int
        Indices played again by the reference engine (trace, records, replay text).
    slow_reference : bool
        The reference part belongs to the ``slow`` tier.
    seed : int
        Seed of the run.
    """

    id: str
    game: str
    kwargs: dict[str, Any] = field(hash=False)
    n: int
    traces: tuple[int, ...] = (0, 1)
    reference: tuple[int, ...] = (0,)
    slow_reference: bool = False
    seed: int = SEED


def _cuarenta_cases() -> list[Case]:
    out = []
    for pol in CUARENTA_POLICIES:
        slow = pol in SLOW_REFERENCE
        n = 4 if pol == "solver" else 8 if pol == "pimc" else 40
        for players in (2, 4):
            reference: tuple[int, ...] = (0,)
            if pol == "solver" and players == 4:
                reference = ()
            out.append(
                Case(
                    f"cuarenta/policy={pol}/players={players}",
                    "cuarenta",
                    {"rules": "quito", "players": players, "policies": (pol,), "level": "data"},
                    n,
                    reference=reference,
                    slow_reference=slow,
                )
            )
    sizes = {"data": 60, "chica": 10, "mesa": 4}
    for preset in GAMES["cuarenta"].presets:
        for level in GAMES["cuarenta"].levels:
            for players in (2, 4):
                out.append(
                    Case(
                        f"cuarenta/rules={preset}/level={level}/players={players}",
                        "cuarenta",
                        {
                            "rules": preset,
                            "players": players,
                            "policies": ("greedy", "random"),
                            "level": level,
                        },
                        sizes[level],
                        seed=PRESET_SEEDS[players == 4],
                    )
                )
    return out


def _cuatrola_cases() -> list[Case]:
    out = []
    for pol in CUATROLA_PLAY:
        out.append(
            Case(
                f"cuatrola/policy={pol}/bid=threshold",
                "cuatrola",
                {
                    "rules": "ro",
                    "policies": (pol,),
                    "bid_policies": ("threshold",),
                    "level": "hand",
                },
                10 if pol == "pimc" else 40,
                reference=(0, 1),
                slow_reference=pol in SLOW_REFERENCE,
            )
        )
    for bid in CUATROLA_BIDS:
        if bid == "threshold":  # greedy with threshold is the play-policy case above
            continue
        out.append(
            Case(
                f"cuatrola/policy=greedy/bid={bid}",
                "cuatrola",
                {
                    "rules": "ro",
                    "policies": ("greedy",),
                    "bid_policies": (bid, "threshold"),
                    "level": "hand",
                },
                40,
                reference=(0, 1),
            )
        )
    sizes = {"hand": 60, "game": 6}
    for preset in GAMES["cuatrola"].presets:
        for level in GAMES["cuatrola"].levels:
            out.append(
                Case(
                    f"cuatrola/rules={preset}/level={level}",
                    "cuatrola",
                    {"rules": preset, "policies": ("greedy", "random"), "level": level},
                    sizes[level],
                    seed=PRESET_SEEDS[level == "game"],
                )
            )
    return out


CASES: list[Case] = _cuarenta_cases() + _cuatrola_cases()
BY_ID: dict[str, Case] = {c.id: c for c in CASES}
if len(BY_ID) != len(CASES):
    raise RuntimeError("duplicate golden case ids")


# ---------------------------------------------------------------- canonical digests
def _plain(obj: Any) -> Any:
    """``obj`` with numpy scalars / arrays, tuples and dataclasses turned into JSON types."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _plain(obj.tolist())
    if isinstance(obj, np.bool_ | bool):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    return obj


def _update(h: Any, label: str, payload: bytes) -> None:
    """Feed a labelled, length-prefixed chunk (no two different inputs give one stream)."""
    for part in (label.encode(), payload):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)


def _array_bytes(a: np.ndarray) -> tuple[str, bytes]:
    a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return a.dtype.str, a.tobytes()


def array_digest(a: np.ndarray) -> str:
    """sha256 of an array's dtype, shape and little-endian C-order bytes."""
    a = np.asarray(a)
    h = hashlib.sha256()
    dtype, data = _array_bytes(a)
    _update(h, "dtype", dtype.encode())
    _update(h, "shape", json.dumps(list(a.shape)).encode())
    _update(h, "data", data)
    return h.hexdigest()


def json_digest(obj: Any) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces) of ``obj``."""
    text = json.dumps(_plain(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def text_digest(text: str) -> str:
    """sha256 of a text's UTF-8 bytes."""
    return hashlib.sha256(text.encode()).hexdigest()


def frame_digest(frame: pd.DataFrame | None) -> str:
    """sha256 of a frame's index, column names, dtypes and values (in column order); the
    digest of ``"None"`` for a missing frame.

    Object columns hash the JSON of their values; every other column its numpy bytes.
    """
    if frame is None:
        return text_digest("None")
    h = hashlib.sha256()
    index = frame.index
    if isinstance(index, pd.RangeIndex):
        _update(h, "index", f"range({index.start},{index.stop},{index.step})".encode())
    else:
        _update(h, "index", json.dumps(_plain(index.tolist())).encode())
    for name, col in frame.items():
        values = col.to_numpy()
        _update(h, "column", str(name).encode())
        if values.dtype == object:
            _update(h, "object", json.dumps(_plain(values.tolist())).encode())
        else:
            dtype, data = _array_bytes(values)
            _update(h, dtype, data)
    return h.hexdigest()


# ---------------------------------------------------------------- the runs
def simulate_case(case: Case, **extra: Any) -> cuarenta_sim.Results:
    """``simulate`` of ``case`` (``extra``: threads, chunk_size)."""
    return cuarenta_sim.simulate(case.game, **case.kwargs, n=case.n, seed=case.seed, **extra)


def frames_digests(results: cuarenta_sim.Results) -> dict[str, str]:
    """Digests of a run's ``hands`` and ``games`` frames."""
    return {"hands": frame_digest(results.hands), "games": frame_digest(results.games)}


def _cuarenta_kernel_trace(case: Case, index: int) -> np.ndarray:
    from cuarenta_sim.cuarenta.engine import trace_game

    k = case.kwargs
    return trace_game(k["rules"], k["players"], k["policies"], case.seed, k["level"], index)


def _cuatrola_kernel_trace(case: Case, index: int) -> np.ndarray:
    from cuarenta_sim.cuatrola.engine import trace_game

    k = case.kwargs
    bids = k.get("bid_policies", "threshold")
    return trace_game(k["rules"], k["policies"], bids, case.seed, k["level"], index)


def _cuarenta_reference(case: Case, index: int) -> dict[str, str]:
    from cuarenta_sim.cuarenta.reference import format_game, play_game

    k = case.kwargs
    log = play_game(k["rules"], k["players"], k["policies"], case.seed, k["level"], index)
    return {
        "trace": array_digest(log.trace),
        "records": json_digest({"hands": log.hands, "game": log.game}),
        "replay": text_digest(format_game(log)),
    }


def _cuatrola_reference(case: Case, index: int) -> dict[str, str]:
    from cuarenta_sim.cuatrola.policies import resolve_bid_policies, resolve_play_policies
    from cuarenta_sim.cuatrola.reference.game import play_game, play_hand
    from cuarenta_sim.cuatrola.reference.replay import replay
    from cuarenta_sim.cuatrola.rules import resolve_rules
    from cuarenta_sim.rng import root_from_seed

    k = case.kwargs
    bids = k.get("bid_policies", "threshold")
    rules = resolve_rules(k["rules"])
    plays, bid_pols = resolve_play_policies(k["policies"]), resolve_bid_policies(bids)
    root, _ = root_from_seed(case.seed)
    trace: list[tuple[int, ...]] = []
    record: Any
    if k["level"] == "hand":
        record = play_hand(rules, root, index, 0, index % 4, [0, 0], plays, bid_pols, trace)
    else:
        record = play_game(rules, root, index, plays, bid_pols, trace)
    text = replay(k["rules"], 4, k["policies"], case.seed, k["level"], index, bid_policies=bids)
    return {
        "trace": array_digest(np.array(trace, dtype=np.int64).reshape(len(trace), -1)),
        "records": json_digest(record),
        "replay": text_digest(text),
    }


KERNEL_TRACE: dict[str, Callable[[Case, int], np.ndarray]] = {
    "cuarenta": _cuarenta_kernel_trace,
    "cuatrola": _cuatrola_kernel_trace,
}
REFERENCE: dict[str, Callable[[Case, int], dict[str, str]]] = {
    "cuarenta": _cuarenta_reference,
    "cuatrola": _cuatrola_reference,
}


def kernel_digests(case: Case) -> dict[str, str]:
    """The numba pipeline's digests: the frames of ``simulate`` and the kernel traces."""
    out = frames_digests(simulate_case(case))
    for i in case.traces:
        out[f"kernel_trace[{i}]"] = array_digest(KERNEL_TRACE[case.game](case, i))
    return out


def reference_digests(case: Case) -> dict[str, str]:
    """The reference engine's digests (trace, records, replay text) of ``case.reference``."""
    out = {}
    for i in case.reference:
        for name, digest in REFERENCE[case.game](case, i).items():
            out[f"reference_{name}[{i}]"] = digest
    return out


def digests(case: Case) -> dict[str, str]:
    """Every digest of ``case``, keys sorted."""
    return dict(sorted({**kernel_digests(case), **reference_digests(case)}.items()))
