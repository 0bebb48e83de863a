"""The numba engine of Cuarenta: rank-count state, integer-only kernels (design.md).

It plays the game of ``docs/cuarenta.md`` exactly as ``docs/engine_contract.md`` fixes it, move
for move like the reference engine :mod:`cuarenta_sim.cuarenta.reference`.

Modules
-------
layout
    Integer codes, flat scratch layouts and the column layouts of the output blocks.
moves
    Legal plays in canonical order (counted, indexed, best for a policy) and the outcome of a
    play (R5-R7), on packed rank counts; the one play step (``apply_play``), the one order of
    end-of-deal claims (``claim_credit``) and the one end-of-data count
    (``end_of_data_points``, ``end_credit``) of every kernel.
play
    One data (R3-R9.2), one chica or mesa (R9.2, R9.3).
pimc
    The ``pimc`` policy: sampled deals played out (``pimc_totals``: every play's value).
learned
    The ``learned`` policy: a linear scorer of observable per-play features (the heuristic's
    terms, :func:`.heuristic.play_terms`, and public context), trained on a teacher's play.
solver
    The exact perfect-information solver of a deal's end (``solve_position``; the ``solve``
    scenario).
solverplay
    The ``solver`` policy: pimc's samples solved exactly near the end of a deal.
batch
    The parallel batch driver :func:`run_batch`, :func:`trace_game` and :func:`warmup`.

Compile cost: a cold :func:`warmup` compiles every kernel in about 15 s (2-core machine) and
writes numba's on-disk cache (``__pycache__``); later processes load it in well under a second.
numba's cache does not notice edits to a kernel's callees in other modules: after editing the
engine, delete the ``*.nbi``/``*.nbc`` files of ``cuarenta_sim`` (or set ``NUMBA_CACHE_DIR``).
"""

from .batch import run_batch, trace_game, warmup
from .layout import LEVELS, TRACE_COLUMNS

__all__ = ["LEVELS", "TRACE_COLUMNS", "run_batch", "trace_game", "warmup"]
