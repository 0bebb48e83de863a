"""cuarenta_sim: Monte Carlo simulation of the card games Cuarenta and Cuatrola.

Layout: the shared machinery at the top -- the game contract and registry :mod:`.game`, the
one simulation pipeline :mod:`.simulation`, random streams :mod:`.rng`, atomic output
:mod:`.io`, results and provenance :mod:`.results`, mergeable counters :mod:`.aggregates`,
statistics :mod:`.stats`, figures :mod:`.plotting`, report tables :mod:`.reports`, chunked
local or Dask execution :mod:`.distributed`, progress :mod:`.progress`, duplicate tournaments
:mod:`.tournament`, the scenario dispatcher :mod:`.scenario`, rule-set slugs
:mod:`.switches` -- and one subpackage per game, :mod:`.cuarenta` and :mod:`.cuatrola`, each
registering itself in :data:`GAMES`. The shared layer never imports a game: the registry loads
the built-in games on first use.

Public API (see README.md): :func:`simulate` -> :class:`Results`, :func:`aggregate` ->
:class:`Aggregates`, :func:`check_simulation`, :func:`evaluate` (scenarios), :data:`GAMES`,
:func:`get_game`, :class:`Game`, :data:`__version__`. Each game's rules objects live in its
package (``cuarenta_sim.cuarenta.RuleSet``, ``cuarenta_sim.cuatrola.CuatrolaRules``). The rules
specs are ``docs/cuarenta.md`` and ``docs/cuatrola.md``; the choices both engines of a game
share are fixed in ``docs/engine_contract.md`` and ``docs/cuatrola_contract.md``.
"""

from .aggregates import Aggregates
from .game import GAMES, Game, get_game, register
from .results import Results
from .scenario import evaluate
from .simulation import aggregate, check_simulation, simulate
from .version import __version__

__all__ = [
    "GAMES",
    "Aggregates",
    "Game",
    "Results",
    "__version__",
    "aggregate",
    "check_simulation",
    "evaluate",
    "get_game",
    "register",
    "simulate",
]
