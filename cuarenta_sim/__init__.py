"""cuarenta_sim: Monte Carlo simulation of the card games Cuarenta and Cuatrola.

Layout: the shared machinery (random streams :mod:`.rng`, atomic output :mod:`.io`, results
and provenance :mod:`.results`, statistics :mod:`.stats`, figures :mod:`.plotting`, report
tables :mod:`.reports`, report framework :mod:`.studies`, chunked local or Dask execution
:mod:`.distributed`, duplicate tournaments and ratings :mod:`.tournament`, the scenario
dispatcher :mod:`.scenario` and :func:`simulate`) at the top; each game's rules, engines,
policies and analyses in its subpackage, :mod:`.cuarenta` and :mod:`.cuatrola`.

Public API (see README.md): :func:`simulate` (``game="cuarenta"`` or ``"cuatrola"``),
:class:`Results`, and Cuarenta's :class:`RuleSet`, :data:`PRESETS`, :func:`from_slug`. The rules
specs are ``docs/cuarenta.md`` and ``docs/cuatrola.md``; the choices both engines of a game
share are fixed in ``docs/engine_contract.md`` and ``docs/cuatrola_contract.md``.
"""

__version__ = "0.1.0"
#: Bumped whenever simulated behaviour changes (docs/engine_contract.md).
ENGINE_VERSION = 1

# Fork-safe numba threading layer (TBB, else workqueue), chosen before any parallel kernel runs.
from .threading_layer import select_threading_layer  # noqa: E402

select_threading_layer()

# The package exports the game-dispatching entry point of cuarenta_sim.simulation.
from .cuarenta.rules import PRESETS, RuleSet, from_slug, resolve_rules  # noqa: E402
from .results import Results  # noqa: E402
from .simulation import simulate  # noqa: E402

__all__ = [
    "ENGINE_VERSION",
    "PRESETS",
    "Results",
    "RuleSet",
    "__version__",
    "from_slug",
    "resolve_rules",
    "simulate",
]
