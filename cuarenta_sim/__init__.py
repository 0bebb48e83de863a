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

# Fork-safe numba threading layer (TBB, else workqueue), chosen before any parallel kernel runs
# (cuarenta_sim.threading_layer; issue 11 item 8).
from .threading_layer import select_threading_layer

select_threading_layer()

# Cached kernels are stamped with a hash of the whole package, so a change in any module
# recompiles them (numba stamps only the defining file; cuarenta_sim.numba_cache).
from .numba_cache import install as _install_numba_stamps  # noqa: E402

_install_numba_stamps()

from .advice import advise  # noqa: E402
from .aggregates import Aggregates  # noqa: E402
from .game import GAMES, Game, get_game, register  # noqa: E402
from .results import Results  # noqa: E402
from .scenario import evaluate  # noqa: E402
from .simulation import aggregate, check_simulation, simulate  # noqa: E402
from .version import __version__  # noqa: E402

__all__ = [
    "GAMES",
    "Aggregates",
    "Game",
    "Results",
    "__version__",
    "advise",
    "aggregate",
    "check_simulation",
    "evaluate",
    "get_game",
    "register",
    "simulate",
]
