"""Cuatrola's part of the simulation pipeline: the spec, the kernel call, the record frames.

:func:`cuarenta_sim.simulation.simulate` (``game="cuatrola"``) runs Cuatrola through its
:class:`cuarenta_sim.game.Game`: :func:`make_spec` validates the policies and level,
:func:`run_range` plays any absolute range of hands or games with the parallel batch driver,
:func:`range_frames` wraps its blocks as tidy frames.

Every hand's and game's output depends only on ``(rules, policies, seed, level, index)``
(``docs/cuatrola_contract.md`` section 2): results are identical whatever the threads or the
chunk size. A game lasts at most ``2 * target - 1`` hands when failed contracts score for the
opponents (every hand then gives somebody a game point), so each game gets that many record
slots and the slots are compacted in game order; with ``failed_contract = nobody`` it gets
:data:`cuarenta_sim.cuatrola.engine.layout.MAX_HANDS` slots.

Columns of ``Results.hands`` (one row per hand, in game order then hand order; pair ``k`` is
seats ``k`` and ``k + 2``):

======================  =======  =============================================================
column                  dtype    meaning
======================  =======  =============================================================
game                    int64    level game: the game index
hand                    int64    level hand: the hand index; level game (int16): the hand's
                                 position in its game, from 0
dealer                  int8     dealer seat; the mano is ``(dealer + 1) % 4`` (C1.1)
trump                   int8     trump suit, 0..3 = o c e b (C1.4)
trump_card              int8     the card that made trump (id ``suit * 5 + rank``)
contract                int8     0 none (all passed), 1 solo, 2 cuatrola, 3 quintola (C2)
declarer                int8     declaring seat, -1 without contract
made                    int8     1 made, 0 failed, -1 without contract (C5)
tricks_0, tricks_1      int8     tricks taken per pair (5 in all)
points_0, points_1      int16    card points of the pair's tricks + 10 for the last trick
                                 (cantes apart; 130 in all without contract, C5.1)
cantes_0, cantes_1      int16    cante points per pair (C4)
game_points_0/1         int8     game points the hand gave each pair (C5)
score_0, score_1        int16    level game: scores after the hand
last_trick              int8     seat that won the fifth trick
dealt_0 .. dealt_3      int32    20-bit mask of the cards dealt to each seat (bit = card id)
======================  =======  =============================================================

Columns of ``Results.games`` (level game, one row per game): ``game`` (int64),
``first_dealer`` (int8), ``winner`` (int8: pair, -1 if truncated), ``score_0``, ``score_1``
(int16: final scores), ``hands`` (int16: hands played), ``truncated`` (bool: stopped after
``MAX_HANDS`` hands, only possible with ``failed_contract = nobody``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..simulation import parallel_block
from .engine.batch import level_code, run_batch
from .engine.layout import (
    LEVEL_HAND,
    MAX_HANDS,
    N_GAME8,
    N_GAME16,
    N_REC8,
    N_REC16,
    N_REC32,
    KernelOutput,
    kernel_params,
)
from .policies import (
    bid_policy_array,
    play_policy_array,
    resolve_bid_policies,
    resolve_play_policies,
)
from .records import games_frame, hands_frame
from .rules import CuatrolaRules

#: Records kept per chunk (level hand: hands; level game: record slots).
CHUNK_RECORDS = 1 << 18
#: Result bytes per hand record (26 columns, 60 bytes) plus headroom.
RECORD_BYTES = 72


def record_capacity(rules: CuatrolaRules) -> int:
    """Record slots per game: ``2 * target - 1`` (the most hands a game can last when failed
    contracts score for the opponents), else :data:`MAX_HANDS`."""
    return 2 * rules.target - 1 if rules.failed_contract == "to_opponents" else MAX_HANDS


@dataclass(frozen=True)
class CuatrolaSpec:
    """Everything a chunk task needs to play any range of one simulation (picklable).

    Attributes
    ----------
    rules : CuatrolaRules
        The switches.
    play_specs, bid_specs : tuple of str
        Canonical play and bidding policy of each of the 4 seats.
    level : str
        ``"hand"`` or ``"game"``.
    root : int
        Root of the random streams (:func:`cuarenta_sim.rng.root_from_seed`).
    keep_hands : bool
        Produce the per-hand records (always True at level hand).
    """

    rules: CuatrolaRules
    play_specs: tuple[str, ...]
    bid_specs: tuple[str, ...]
    level: str
    root: int
    keep_hands: bool

    @property
    def code(self) -> int:
        """Kernel level code (0 hand, 1 game)."""
        return level_code(self.level)

    def policy_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's play (int64[4, 2]) and bidding (int64[4, 4]) policy arrays."""
        plays = play_policy_array(resolve_play_policies(list(self.play_specs)))
        return plays, bid_policy_array(resolve_bid_policies(list(self.bid_specs)))

    def capacity(self) -> int:
        """Record slots per game (1 at level hand, 0 without hands)."""
        if self.code == LEVEL_HAND:
            return 1
        return record_capacity(self.rules) if self.keep_hands else 0

    def provenance(self) -> dict[str, Any]:
        """Rules slug and switches, players (4) and the seats' play and bidding policies."""
        return {
            "rules": self.rules.slug(),
            "rules_switches": self.rules.to_dict(),
            "policies": list(self.play_specs),
            "bid_policies": list(self.bid_specs),
            "players": 4,
        }

    def default_chunk(self) -> int:
        """:data:`CHUNK_RECORDS` record slots per chunk."""
        return max(1, CHUNK_RECORDS // max(1, self.capacity()))

    def records_per_game(self) -> float:
        """Hands per game at most (its record slots; 1 at level hand)."""
        return 1 if self.code == LEVEL_HAND else record_capacity(self.rules)


def make_spec(
    rules: CuatrolaRules,
    players: int,
    policies: str | Sequence[str],
    level: str,
    root: int,
    keep_hands: bool,
    bid_policies: str | Sequence[str] = "threshold",
) -> CuatrolaSpec:
    """Validate players, policies and level and return the :class:`CuatrolaSpec`.

    Parameters
    ----------
    policies, bid_policies : str or sequence of str
        Play and bidding policies: one spec for all seats, two (pair 0 = seats 0, 2; pair 1 =
        seats 1, 3) or four (per seat); :mod:`cuarenta_sim.cuatrola.policies`.

    Raises
    ------
    ValueError
        ``players`` not 4 (C1.1), unknown policy, unknown level, ``keep_hands=False`` at level
        hand.
    """
    if isinstance(players, bool) or players != 4:
        raise ValueError(f"Cuatrola is played by 4 (C1.1); players must be 4, got {players!r}")
    plays = tuple(p.name() for p in resolve_play_policies(policies))
    bids = tuple(p.name() for p in resolve_bid_policies(bid_policies))
    code = level_code(level)
    if not keep_hands and code == LEVEL_HAND:
        raise ValueError("keep_hands=False keeps no output at level 'hand'; use level 'game'")
    return CuatrolaSpec(rules, plays, bids, level, int(root), keep_hands)


@dataclass
class RangeOutput:
    """Kernel output of the hands or games ``[start, stop)`` of a simulation.

    Attributes
    ----------
    start, stop : int
        Absolute hand (level hand) or game (level game) indices.
    records : (rec8, rec16, rec32, rec64) or None
        Record blocks of the range's hands in game order; None without hands.
    games : (game8, game16) or None
        Game blocks, one column per game (level game).
    """

    start: int
    stop: int
    records: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None
    games: tuple[np.ndarray, np.ndarray] | None


def run_range(spec: CuatrolaSpec, start: int, stop: int) -> RangeOutput:
    """Play the hands or games ``[start, stop)`` of ``spec`` with the current numba threads.

    The output depends only on ``spec`` and the indices (``docs/cuatrola_contract.md``
    section 2): any split into ranges, in any order or process, gives the same records. A
    game never outgrows its slots (:func:`record_capacity`), so no game is re-run.

    Raises
    ------
    ValueError
        If the range is empty or negative.
    """
    if not 0 <= start < stop:
        raise ValueError(f"need 0 <= start < stop, got [{start}, {stop})")
    plays, bids = spec.policy_arrays()
    kr = spec.rules.to_kernel()
    code = spec.code
    size = stop - start
    cap = spec.capacity()
    counts = np.empty(size, dtype=np.int64)
    blocks = _blocks(size * cap)
    if code == LEVEL_HAND:
        game8 = np.empty((N_GAME8, 0), dtype=np.int8)
        game16 = np.empty((N_GAME16, 0), dtype=np.int16)
    else:
        game8 = np.empty((N_GAME8, size), dtype=np.int8)
        game16 = np.empty((N_GAME16, size), dtype=np.int16)
    block = parallel_block(size, numba.get_num_threads())
    params = kernel_params(kr, plays, bids, spec.root)
    out = KernelOutput(*blocks, game8, game16, counts)
    run_batch(params, code, start, size, block, cap, 0, out)
    if code == LEVEL_HAND:
        return RangeOutput(start, stop, blocks, None)
    records = None
    if spec.keep_hands:
        kept = np.minimum(counts, cap)
        game = np.repeat(np.arange(size), kept)
        position = np.arange(len(game)) - np.repeat(np.cumsum(kept) - kept, kept)
        rows = game * cap + position
        records = tuple(b[:, rows] for b in blocks)
    return RangeOutput(start, stop, records, (game8, game16))


def range_frames(
    spec: CuatrolaSpec, out: RangeOutput
) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    """The hands and games frames of one range (columns in the module docstring), with
    absolute indices; either is None when not kept."""
    hands = None if out.records is None else hands_frame(spec.code, *out.records)
    games = None
    if out.games is not None:
        games = games_frame(*out.games)
        games["game"] = np.arange(out.start, out.stop, dtype=np.int64)
    return hands, games


def _blocks(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.empty((N_REC8, rows), dtype=np.int8),
        np.empty((N_REC16, rows), dtype=np.int16),
        np.empty((N_REC32, rows), dtype=np.int32),
        np.empty((1, rows), dtype=np.int64),
    )
