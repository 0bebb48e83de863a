"""Cuarenta's part of the simulation pipeline: the spec, the kernel call, the record frames.

The one pipeline (:func:`cuarenta_sim.simulation.simulate`: validation, chunks, threads,
backends, aggregates, datasets, provenance) calls these through Cuarenta's
:class:`cuarenta_sim.game.Game`: :func:`make_spec` validates players, policies and level and
returns a picklable :class:`SimulationSpec`; :func:`run_range` plays any absolute range of
games with the parallel batch driver (:func:`cuarenta_sim.cuarenta.engine.batch.run_batch`);
:func:`range_frames` wraps a range's blocks as the tidy frames of
:class:`cuarenta_sim.results.Results`. Every game's output depends only on ``(rules, players,
policies, seed, level, game index)``: results are identical whatever the number of threads or
the chunk size.

Output of levels chica and mesa
-------------------------------
A chica (mesa) plays a variable number of datas. Each chunk of games gets a slot buffer of
``cap`` records per game (:func:`record_capacity`, a few times the typical length); the driver
returns every game's true number of datas, the rare game that played more than ``cap`` is
re-run alone into a buffer of its exact size (it replays identically), and the records are
compacted in game order. This costs a re-run of at most a few games per thousand (measured),
against a counting pass that would double the work; the slot buffers of a default chunk take
about 30 MB.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..simulation import parallel_block
from .engine.batch import batch_setup, kernel_args, level_code, output_blocks, run_batch
from .engine.layout import (
    LEVEL_DATA,
    LEVEL_MESA,
    N_GAME8,
    N_GAME16,
    N_REC8,
    N_REC16_DATA,
    N_REC16_GAME,
)
from .policies import SeatPolicies, resolve_policies
from .policies.kernel import POLICY_PIMC, POLICY_SOLVER
from .records import games_frame, hands_frame
from .rules import RuleSet

#: Default games per chunk, per level (bounded memory for the slot buffers of chica / mesa).
DEFAULT_CHUNK = {"data": 1 << 18, "chica": 1 << 15, "mesa": 1 << 13}
#: Record slots per game and chica: a chica lasts 3 (greedy) to 7 (random) datas on average;
#: in 10**5 random chicas of every preset at most 0.08% (quito_torneo) played more than 16.
SLOTS_PER_CHICA = 16
#: Largest slot count per game; longer games are re-run alone.
MAX_SLOTS = 256
#: Result bytes per data record (measured 50, see benchmarks/README.md) plus headroom.
RECORD_BYTES = 64


def record_capacity(level: int, chicas_to_win: int) -> int:
    """Record slots per game in a chunk's buffer: 1 at level data, :data:`SLOTS_PER_CHICA`
    per chica at most played in a chica or mesa (R9.3), at most :data:`MAX_SLOTS`."""
    if level == LEVEL_DATA:
        return 1
    chicas = 2 * chicas_to_win - 1 if level == LEVEL_MESA else 1
    return min(SLOTS_PER_CHICA * chicas, MAX_SLOTS)


@dataclass(frozen=True)
class SimulationSpec:
    """Everything a chunk task needs to play any range of games of one simulation (picklable).

    Attributes
    ----------
    ruleset : RuleSet
        The rules (spec section S).
    players : int
        2 or 4.
    policy_ids : SeatPolicies
        :func:`cuarenta_sim.cuarenta.policies.resolve_policies` output, passed through
        unchanged to :func:`cuarenta_sim.cuarenta.engine.batch.kernel_args`.
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.
    root : int
        Root of the random streams (:func:`cuarenta_sim.rng.root_from_seed`).
    keep_hands : bool
        Produce the per-data records (levels chica / mesa; always True at level data).
    """

    ruleset: RuleSet
    players: int
    policy_ids: SeatPolicies
    level: str
    root: int
    keep_hands: bool

    @property
    def code(self) -> int:
        """Kernel level code (0 data, 1 chica, 2 mesa)."""
        return level_code(self.level)

    def provenance(self) -> dict[str, Any]:
        """Rules slug and switches, players and each seat's canonical policy spec."""
        return {
            "rules": self.ruleset.slug(),
            "rules_switches": self.ruleset.to_dict(),
            "policies": list(self.policy_ids.specs),
            "players": self.players,
        }

    def default_chunk(self) -> int:
        """:data:`DEFAULT_CHUNK` of the level, divided by :data:`SEARCH_CHUNK_DIVISOR` when a
        seat searches (pimc, solver: thousands of times slower than greedy), so that a chunk
        still takes seconds: progress lines and SIGINT / SIGTERM are handled between chunks.
        Never changes the results."""
        chunk = DEFAULT_CHUNK[self.level]
        if any(pid in SEARCH_POLICIES for pid in self.policy_ids):
            chunk = max(1, chunk // SEARCH_CHUNK_DIVISOR)
        return chunk

    def records_per_game(self) -> float:
        """Datas per game for the memory check: 1 at level data, else 8 per chica played
        (a chica lasts about 3 datas with greedy to 7 with random play)."""
        if self.code == LEVEL_DATA:
            return 1
        chicas = 2 * self.ruleset.chicas_to_win - 1 if self.code == LEVEL_MESA else 1
        return 8 * chicas


#: Kernel ids of the searching policies (pimc, solver), whose default chunks are smaller.
SEARCH_POLICIES = frozenset((POLICY_PIMC, POLICY_SOLVER))
#: How much smaller: a chunk of 262,144 datas becomes 64 (about 1 s of pimc, 1.5 s of solver
#: on 2 threads), 32,768 chicas 8 and 8,192 mesas 2, so that a report's confirmatory solver
#: runs report progress every few seconds (issue 20); chunks never change the results.
SEARCH_CHUNK_DIVISOR = 4096


def make_spec(
    rules: RuleSet,
    players: int,
    policies: str | Sequence[str],
    level: str,
    root: int,
    keep_hands: bool,
) -> SimulationSpec:
    """Validate players, policies and level and return the :class:`SimulationSpec`.

    Raises
    ------
    ValueError
        ``players`` not 2 or 4 (R2.1), unknown policy or parameter, unknown level,
        ``keep_hands=False`` at level data.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    policy_ids = resolve_policies(policies, players)
    code = level_code(level)
    if not keep_hands and code == LEVEL_DATA:
        raise ValueError(
            "keep_hands=False keeps no output at level 'data'; use level 'chica' or 'mesa'"
        )
    return SimulationSpec(rules, players, policy_ids, level, int(root), keep_hands)


@dataclass
class RangeOutput:
    """Engine output of the games ``[start, stop)`` of a simulation.

    Attributes
    ----------
    start, stop : int
        Absolute game indices (hand index at level data).
    records : (rec8, rec16, rec64) or None
        Record blocks of the range's datas in game order (layout in
        :mod:`cuarenta_sim.cuarenta.engine.layout`); None when ``keep_hands`` is False.
    games : (game8, game16) or None
        Game blocks, one column per game (levels chica / mesa); None at level data.
    datas : int
        Datas played.
    """

    start: int
    stop: int
    records: tuple[np.ndarray, np.ndarray, np.ndarray] | None
    games: tuple[np.ndarray, np.ndarray] | None
    datas: int


def run_range(spec: SimulationSpec, start: int, stop: int) -> RangeOutput:
    """Play the games ``[start, stop)`` of ``spec`` with the current numba threads.

    The output depends only on ``spec`` and the game indices (contract section 2): running a
    simulation's games in any split into ranges, in any order, in any process, gives the same
    records.

    Raises
    ------
    ValueError
        If the range is empty or negative.
    """
    if not 0 <= start < stop:
        raise ValueError(f"need 0 <= start < stop, got [{start}, {stop})")
    args = kernel_args(spec.ruleset, spec.players, spec.policy_ids)
    uroot = np.uint64(spec.root)
    level = spec.code
    size = stop - start
    counts = np.empty(size, dtype=np.int64)
    block = parallel_block(size, numba.get_num_threads())
    if level == LEVEL_DATA:
        rec8 = np.empty((N_REC8, size), dtype=np.int8)
        rec16 = np.empty((N_REC16_DATA, size), dtype=np.int16)
        rec64 = np.empty((1, size), dtype=np.int64)
        out = output_blocks(
            rec8,
            rec16,
            rec64,
            np.empty((N_GAME8, 0), dtype=np.int8),
            np.empty((N_GAME16, 0), dtype=np.int16),
        )
        run_batch(*batch_setup(args, uroot), level, start, size, block, 1, 0, out, counts)
        return RangeOutput(start, stop, (rec8, rec16, rec64), None, size)
    cap = record_capacity(level, spec.ruleset.chicas_to_win) if spec.keep_hands else 0
    blocks = _record_blocks(size * cap)
    g8 = np.empty((N_GAME8, size), dtype=np.int8)
    g16 = np.empty((N_GAME16, size), dtype=np.int16)
    out = output_blocks(*blocks, g8, g16)
    run_batch(*batch_setup(args, uroot), level, start, size, block, cap, 0, out, counts)
    records = None
    if spec.keep_hands:
        records = _compact(args, uroot, level, start, cap, counts, blocks)
    return RangeOutput(start, stop, records, (g8, g16), int(counts.sum()))


def range_frames(
    spec: SimulationSpec, out: RangeOutput
) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    """The hands and games frames of one range's output, with absolute game indices
    (columns in :class:`cuarenta_sim.results.Results`); either is None when not kept."""
    hands = None if out.records is None else hands_frame(spec.code, *out.records)
    games = None
    if out.games is not None:
        games = games_frame(spec.code, *out.games)
        games["game"] = np.arange(out.start, out.stop, dtype=np.int64)
    return hands, games


def _record_blocks(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.empty((N_REC8, rows), dtype=np.int8),
        np.empty((N_REC16_GAME, rows), dtype=np.int16),
        np.empty((1, rows), dtype=np.int64),
    )


def _compact(
    args: tuple,
    root: np.uint64,
    level: int,
    start: int,
    cap: int,
    counts: np.ndarray,
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gather the records of a chunk's games from their slots, in game order, re-running the
    games longer than ``cap`` alone into buffers of their exact size."""
    kept = np.minimum(counts, cap)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    game = np.repeat(np.arange(len(counts)), kept)
    position = np.arange(len(game)) - np.repeat(np.cumsum(kept) - kept, kept)
    slot_rows = game * cap + position
    dest = offsets[game] + position
    total = int(offsets[-1])
    out = tuple(np.empty((b.shape[0], total), dtype=b.dtype) for b in blocks)
    for o, b in zip(out, blocks, strict=True):
        o[:, dest] = b[:, slot_rows]
    for i in np.nonzero(counts > cap)[0]:
        c = int(counts[i])
        full = _record_blocks(c)
        alone = output_blocks(
            *full, np.empty((N_GAME8, 1), dtype=np.int8), np.empty((N_GAME16, 1), dtype=np.int16)
        )
        one = np.empty(1, dtype=np.int64)
        run_batch(*batch_setup(args, root), level, start + int(i), 1, 1, c, 0, alone, one)
        for o, f in zip(out, full, strict=True):
            o[:, offsets[i] : offsets[i] + c] = f
    return out
