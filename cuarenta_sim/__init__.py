"""cuarenta_sim: Monte Carlo simulation of the Ecuadorian card game Cuarenta.

Public API (see README.md): :class:`RuleSet`, :data:`PRESETS`, :func:`from_slug`,
:func:`simulate` and :class:`Results`. The rules spec is ``docs/cuarenta.md``; the choices both
engines share are fixed in ``docs/engine_contract.md``.
"""

__version__ = "0.1.0"
#: Bumped whenever simulated behaviour changes (docs/engine_contract.md).
ENGINE_VERSION = 1

# The simulator lives in ``cuarenta_sim.simulation``; the package exports its entry point.
from .results import Results  # noqa: E402
from .rules import PRESETS, RuleSet, from_slug, resolve_rules  # noqa: E402
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
