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
    "POLICY_SPEED",
    "SUMMARY_METRICS",
    "TORNADO_METRICS",
    "check_rule_study",
    "odds_study",
    "panel_steps",
    "parse_models",
    "parse_options",
    "parse_panel_options",
    "quito_vs_cuenca",
    "register_cuarenta_studies",
    "robustness",
    "sensitivity_study",
]

#: Options every Cuarenta rule study takes besides the common ones.
PANEL_OPTIONS = ("players", "policies", "confirm", "confirm_n", "precision")


#: Datas per second of each built-in policy on 2 threads (benchmarks/README.md: throughput,
#: policies and players' guide runs), for the relative cost of a report's steps.
POLICY_SPEED = {
    "random": 1.7e6,
    "greedy": 1.4e6,
    "heuristic": 1.4e5,
    "learned": 1.2e5,
    "pimc": 77.0,
    "solver": 45.0,
}
#: Datas of a chica and of a mesa, about (``options.CHICA_DIVISORS``).
DATAS_PER_CHICA, DATAS_PER_MESA = 4.5, 12.0


def _model_seconds(model: Any, games: bool) -> float:
    """Estimated seconds of one rule set under ``model``: its datas (plus its chicas and
    mesas when ``games``) at the speed of its slowest seat (:data:`POLICY_SPEED`)."""
    names = {spec.split("(")[0].strip() for spec in model.policies}
    speed = min(POLICY_SPEED.get(name, POLICY_SPEED["learned"]) for name in names)
    datas = model.n
    if games:
        datas += model.n_chicas * DATAS_PER_CHICA + model.n_mesas * DATAS_PER_MESA
    return datas / speed


def panel_steps(name: str, settings: StudySettings) -> list[float]:
    """The progress steps of rule study ``name`` under ``settings``, as their estimated
    relative cost: one step per simulated rule set, player count and model (its datas,
    chicas and mesas at its slowest seat's speed: the confirmatory solver's steps dominate),
    then the closing steps (convergence; odds: caida risk), each counted like one of the
    headline model's steps (a rough figure)."""
    models = panel_models(settings)
    players = len(settings.players)
    games = name != "odds"
    if name == "quito-vs-cuenca":
        variants = [2] * len(models)
        closing = 1
    elif name == "odds":
        variants = [1] * len(models)
        closing = 2
    else:
        from ..compare import switch_flips
        from ..rules import resolve_rules
        from .switch_notes import CONFIRM_SWITCHES

        base = resolve_rules(settings.rules)
        from .presets_played import preset_variants

        variants = [
            1 + len(switch_flips(base, CONFIRM_SWITCHES if m.role == "confirm" else None))
            for m in models
        ]
        # Presets as played (headline model): one announcement, then base and each other
        # preset per player count; then the convergence step.
        closing = 1 + 1 + players * (1 + len(preset_variants(base)))
    steps = [
        _model_seconds(m, games) for m, k in zip(models, variants, strict=True)
        for _ in range(players * k)
    ]  # fmt: skip
    return steps + [_model_seconds(models[0], games)] * closing


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
