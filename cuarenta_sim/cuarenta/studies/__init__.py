"""Cuarenta's generated rule studies: Quito vs Cuenca, ronda and caida odds, rule sensitivity.

Registered at import in :data:`cuarenta_sim.studies.STUDIES` (``cuarenta-sim report NAME``;
:func:`register_cuarenta_studies`). One module per job:

* :mod:`.quito_vs_cuenca` (with :mod:`.qc_sections`), :mod:`.odds_report`,
  :mod:`.sensitivity` -- the builders; each
  returns a :class:`cuarenta_sim.studies.GeneratedReport` whose sentences come from its
  template in ``cuarenta_sim/cuarenta/templates/``;
* :mod:`.panel` -- player panels (``--policies 'learned;heuristic;greedy'``), the
  confirmatory model, the robustness line;
* :mod:`.options` -- defaults, parsing and checks of the options;
* :mod:`.common` -- units, practical margins, Holm-adjusted verdicts, cells;
* :mod:`.switch_notes` -- what a design can and cannot show about each switch.
"""

from __future__ import annotations

import functools
from typing import Any

from ...studies import Study, StudySettings, register_study
from .common import PERCENT_METRICS
from .odds_report import odds_study
from .options import (
    CHICA_DIVISORS,
    CONFIRM_RATIO,
    DEFAULT_CONFIRM,
    DEFAULT_N,
    DEFAULT_PANEL,
    check_rule_study,
    parse_options,
    parse_panel_options,
)
from .panel import panel_models, parse_models, robustness
from .quito_vs_cuenca import SUMMARY_METRICS, quito_vs_cuenca
from .sensitivity import TORNADO_METRICS, sensitivity_study

__all__ = [
    "CHICA_DIVISORS",
    "CONFIRM_RATIO",
    "DEFAULT_CONFIRM",
    "DEFAULT_N",
    "DEFAULT_PANEL",
    "PERCENT_METRICS",
    "SUMMARY_METRICS",
    "TORNADO_METRICS",
    "check_rule_study",
    "odds_study",
    "parse_models",
    "parse_options",
    "panel_steps",
    "parse_panel_options",
    "quito_vs_cuenca",
    "register_cuarenta_studies",
    "robustness",
    "sensitivity_study",
]

#: Options every Cuarenta rule study takes besides the common ones.
PANEL_OPTIONS = ("players", "policies", "confirm", "confirm_n", "precision")


def panel_steps(name: str, settings: StudySettings) -> int:
    """Progress messages of rule study ``name`` under ``settings``: one per simulated rule
    set, player count and model, plus its closing steps (convergence; odds: caida risk)."""
    models = panel_models(settings)
    players = len(settings.players)
    if name == "quito-vs-cuenca":
        return len(models) * players * 2 + 1
    if name == "odds":
        return len(models) * players + 2
    from ..compare import switch_flips
    from ..rules import resolve_rules
    from .switch_notes import CONFIRM_SWITCHES

    base = resolve_rules(settings.rules)
    return 1 + sum(
        players * (1 + len(switch_flips(base, CONFIRM_SWITCHES if m.role == "confirm" else None)))
        for m in models
    )


def register_cuarenta_studies() -> None:
    """Register quito-vs-cuenca, odds and sensitivity in :data:`cuarenta_sim.studies.STUDIES`
    (runs at import of this package)."""
    common: dict[str, Any] = {
        "game": "cuarenta",
        "check": check_rule_study,
        "player_rule": "R2.1",
    }
    for name, title, description, build, extra, refused in (
        (
            "quito-vs-cuenca",
            "Quito vs Cuenca scoring",
            "paired comparison of the two scorings (R7.2) under a player panel, 2 and 4 players",
            quito_vs_cuenca,
            ("chicas", "mesas"),
            {"rules": "it compares quito and cuenca; use --rules with odds or sensitivity"},
        ),
        (
            "odds",
            "Ronda and caida odds",
            "exact dealing odds vs simulated; caida rate per player model; caida risk",
            odds_study,
            ("rules",),
            {"chicas": "it plays level-data runs only", "mesas": "it plays level-data runs only"},
        ),
        (
            "sensitivity",
            "Rule sensitivity",
            "every switch flipped alone from a base preset, under a player panel (tornado charts)",
            sensitivity_study,
            ("chicas", "mesas", "rules"),
            {},
        ),
    ):
        defaults: dict[str, Any] = {
            "n": DEFAULT_N[name],
            "players": (2, 4),
            "policies": (DEFAULT_PANEL,),
            "confirm": DEFAULT_CONFIRM,
        }
        if "rules" in extra:
            defaults["rules"] = "quito"
        options = (*PANEL_OPTIONS, *extra)
        register_study(
            Study(
                name=name,
                title=title,
                description=description,
                defaults=defaults,
                build=build,
                options=options,
                refused=refused,
                parse=functools.partial(
                    parse_panel_options,
                    confirm_ratio=CONFIRM_RATIO[name],
                    divisors=CHICA_DIVISORS[name],
                ),
                reproduce=(
                    "players",
                    "policies",
                    *(o for o in extra if o != "rules"),
                    *(("rules",) if "rules" in extra else ()),
                    "confirm",
                    "confirm_n",
                ),
                steps=functools.partial(panel_steps, name),
                **common,
            )
        )


register_cuarenta_studies()
