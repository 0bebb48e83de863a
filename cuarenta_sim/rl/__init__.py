"""Reinforcement-learning interfaces.

:class:`cuarenta_sim.rl.batched.BatchedCuarenta` is the batched numba environment
(``docs/rl_batched.md``).
"""
