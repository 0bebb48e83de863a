"""Studies: the registry of reports and the framework that builds them.

``cuarenta-sim report NAME`` runs a registered :class:`Study` and writes ``reports/NAME/``
(``report.md``, ``figures/*.png``, ``provenance.json``, ``claims.json``). The package is
game-independent:

* :mod:`.registry` -- :class:`Study` (name, game, defaults, option checks, builder),
  :data:`STUDIES`, :func:`register_study`, :func:`get_study`, :func:`run_study`; game
  packages register their studies, and the registry imports the study modules each
  registered game names (``Game.studies`` of :mod:`cuarenta_sim.game`) lazily by module
  name, never statically.
* :mod:`.framework` -- :class:`StudySettings`, :class:`GeneratedReport`, cell formatting,
  provenance, figures.
* :mod:`.templates` -- the Jinja2 environment that writes report prose from
  ``<game>/templates/*.md.j2`` (shared templates in ``studies/templates/``).
* :mod:`.claims` -- answer sentences as claims with their evidence rows, and the checker that
  refuses a report whose words outrun its tables.
* :mod:`.codehash` -- the hash of a study's code recorded in ``provenance.json``.

The studies themselves: :mod:`cuarenta_sim.cuarenta.studies` (quito-vs-cuenca, odds,
sensitivity), :mod:`cuarenta_sim.cuarenta.strategies` (strategies),
:mod:`cuarenta_sim.cuatrola.bidding_study` (cuatrola-bidding).
"""

from .framework import (
    GeneratedReport,
    Progress,
    StudySettings,
    cell,
    diff_cell,
    rel_cell,
    row_cell,
)
from .registry import (
    STUDIES,
    Study,
    get_study,
    load_builtin_studies,
    register_study,
    run_study,
    study_names,
)

__all__ = [
    "STUDIES",
    "GeneratedReport",
    "Progress",
    "Study",
    "StudySettings",
    "cell",
    "diff_cell",
    "get_study",
    "load_builtin_studies",
    "register_study",
    "rel_cell",
    "row_cell",
    "run_study",
    "study_names",
]
