"""Cuarenta, the Ecuadorian fishing game (``docs/cuarenta.md``): one registered game.

Importing this package registers :data:`GAME` (:mod:`.definition`) in
:data:`cuarenta_sim.game.GAMES`; the shared layer reaches Cuarenta only through it.

Public API
----------
:data:`GAME`, :data:`ENGINE_VERSION`; the rules :class:`RuleSet`, :data:`PRESETS`,
:func:`from_slug`, :func:`resolve_rules` (:mod:`.rules`). Modules: :mod:`.rules`, :mod:`.cards`,
:mod:`.tables`, :mod:`.reference` (readable engine, replay), :mod:`.engine` (numba),
:mod:`.policies`, :mod:`.scenario` (judge), :mod:`.simulation` (spec, kernel call, frames),
:mod:`.records`, :mod:`.aggregates`, :mod:`.summaries`, :mod:`.analysis`, :mod:`.compare`,
:mod:`.odds`, :mod:`.strategies`, :mod:`.studies`.
"""

from ..game import register
from .definition import ENGINE_VERSION, GAME
from .rules import PRESETS, RuleSet, from_slug, resolve_rules

register(GAME)

__all__ = ["ENGINE_VERSION", "GAME", "PRESETS", "RuleSet", "from_slug", "resolve_rules"]
