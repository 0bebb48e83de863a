"""Cuatrola, the second game of cuarenta_sim (``docs/cuatrola.md``).

Rules (:mod:`.rules`), cards (:mod:`.cards`), the reference engine (:mod:`.reference`), the
judge (:mod:`.scenario`), policies (:mod:`.policies`), the numba kernel (:mod:`.engine`) and
:func:`simulate_cuatrola`. This subpackage imports only game-independent modules of
cuarenta_sim (``rng``, ``io``, ``results``).
"""

from .engine.batch import trace_cuatrola
from .reference.game import reference_trace
from .rules import PRESETS, CuatrolaRules, from_slug, resolve
from .scenario import evaluate
from .simulation import simulate_cuatrola

__all__ = [
    "PRESETS",
    "CuatrolaRules",
    "evaluate",
    "from_slug",
    "reference_trace",
    "resolve",
    "simulate_cuatrola",
    "trace_cuatrola",
]
