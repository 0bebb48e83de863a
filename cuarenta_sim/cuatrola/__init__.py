"""Cuatrola, the Spanish trick-taking game of ``docs/cuatrola.md``: one registered game.

Importing this package registers :data:`GAME` (:mod:`.definition`) in
:data:`cuarenta_sim.game.GAMES`; the shared layer reaches Cuatrola only through it. The
package imports only game-independent modules of cuarenta_sim, never Cuarenta.

Public API
----------
:data:`GAME`, :data:`ENGINE_VERSION`; the rules :class:`CuatrolaRules`, :data:`PRESETS`,
:func:`from_slug`, :func:`resolve_rules` (:mod:`.rules`). Modules: :mod:`.rules`,
:mod:`.cards`, :mod:`.contracts`, :mod:`.reference` (readable engine, replay),
:mod:`.engine` (numba), :mod:`.policies`, :mod:`.scenario` (judge), :mod:`.simulation` (spec,
kernel call), :mod:`.records` (frames), :mod:`.aggregates`, :mod:`.summaries`, :mod:`.bidding`,
:mod:`.bidding_study`.
"""

from ..game import register
from .definition import ENGINE_VERSION, GAME
from .rules import PRESETS, CuatrolaRules, from_slug, resolve_rules

register(GAME)

__all__ = ["ENGINE_VERSION", "GAME", "PRESETS", "CuatrolaRules", "from_slug", "resolve_rules"]
