"""The numba engine of Cuatrola: integer-only kernels that play ``docs/cuatrola.md`` exactly as
``docs/cuatrola_contract.md`` fixes it, trace row for trace row like the reference engine
:mod:`cuarenta_sim.cuatrola.reference`.

Modules
-------
layout
    The typed state: the ``params`` and ``state`` record dtypes (named fields, nested scratch
    arrays), scratch offsets, integer codes and the column layouts of the record blocks.
tricks
    Legal plays and trick winners on card masks (C3).
play
    One hand in steps (deal C1, bidding C2, play_trick C3-C4, finish_hand C5) and one game
    (C6); the play and bidding policies, signature ``(state, seat, rng, params)``.
pimc
    The ``pimc`` lookahead (perfect-information Monte Carlo with greedy playouts).
solver
    The exact perfect-information solver of a hand's play (alpha-beta with a transposition
    table; issue 22), behind the judge's ``solve`` kind.
batch
    The parallel batch driver :func:`run_batch`, :func:`trace_game`, :func:`level_code`,
    :func:`kernel_policies` and :func:`warmup`.

Public API: :func:`run_batch`, :func:`trace_game`, :func:`warmup`, :data:`LEVELS`.
"""

from .batch import run_batch, trace_game, warmup
from .layout import LEVELS

__all__ = ["LEVELS", "run_batch", "trace_game", "warmup"]
