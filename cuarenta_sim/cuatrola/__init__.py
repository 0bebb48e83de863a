"""Cuatrola, the second game of cuarenta_sim (``docs/cuatrola.md``).

Rules (:mod:`.rules`), cards (:mod:`.cards`), the reference engine (:mod:`.reference`), the
judge (:mod:`.scenario`), policies (:mod:`.policies`), the numba kernel (:mod:`.engine`) and
:func:`simulate_cuatrola`. This subpackage imports only game-independent modules of
cuarenta_sim (``rng``, ``io``, ``results``).
"""
