"""Options of the Cuarenta rule studies: defaults, parsing of panels and rules, checks.

Sizes
-----
``--n`` is the number of datas (level data) of **each** model of the panel, all on the same
decks; chicas and mesas are ``n // 4`` and ``n // 10`` unless ``--chicas`` / ``--mesas`` are
given. The confirmatory model (``--confirm``, default ``solver``) plays ``--confirm-n`` datas
(and ``// 4`` chicas, ``// 10`` mesas). The defaults below were sized so that each default
report regenerates in a few minutes on 2 cores (measured wall times in
``benchmarks/README.md``, section *Reports*).
"""

from __future__ import annotations

from typing import Any

from ...studies import StudySettings
from ..rules import resolve_rules
from .panel import parse_models

#: Default panel of each rule study: the headline model first (the strongest player that
#: runs the default sizes in minutes: ``learned``), then the tuned heuristic and greedy.
DEFAULT_PANEL = "learned;heuristic;greedy"
#: Default confirmatory model: the strongest player (PIMC with exactly solved samples).
DEFAULT_CONFIRM = "solver"

#: Default datas of the headline model per rule set and player count (level data).
DEFAULT_N = {"quito-vs-cuenca": 1_000_000, "odds": 1_000_000, "sensitivity": 40_000}
#: Default chicas and mesas of the headline: ``n // divisor`` (``--chicas`` / ``--mesas``
#: override). Quito vs Cuenca needs its million datas for the point sources but far fewer
#: chicas (25,000 give chica length to about half a percent), and a chica costs about 4.5
#: datas, a mesa about 12; the sensitivity report's score-dependent switches act only in
#: chicas, so it keeps a quarter.
CHICA_DIVISORS = {"quito-vs-cuenca": (40, 100), "odds": None, "sensitivity": (4, 20)}
#: Default datas of the confirmatory run: ``n // CONFIRM_RATIO[study]`` (at least 1), so
#: the default sizes give 500 (quito-vs-cuenca), 1,000 (odds) and 100 (sensitivity, four
#: switches only) solver datas per rule set and player count (solver plays about 40 to 300
#: datas per second on 2 cores), and a small ``--n`` a small confirmatory run.
CONFIRM_RATIO = {"quito-vs-cuenca": 2000, "odds": 1000, "sensitivity": 400}


def parse_options(values: dict[str, Any]) -> dict[str, Any]:
    """Cuarenta's parsing of report options without panels: policy lists and rules.

    Used by studies whose ``--policies`` is one list (e.g. the strategies tournament).

    Parameters
    ----------
    values : dict
        Option values with the study's defaults filled; ``policies`` a tuple holding one
        comma-separated string (as typed) or the specs, ``rules`` a preset or slug.

    Returns
    -------
    dict
        ``policies`` split (commas inside a spec's parentheses do not split), ``rules`` the
        canonical slug.

    Raises
    ------
    ValueError
        Malformed policy list, or unknown rules (the message lists what is accepted).
    """
    from ..policies import split_policy_list

    out = dict(values)
    if "policies" in out:
        text = ",".join(out["policies"])
        try:
            out["policies"] = tuple(split_policy_list(text))
        except ValueError as err:
            raise ValueError(f"--policies {text!r}: {err}") from err
    if "rules" in out:
        out["rules"] = resolve_rules(out["rules"]).slug()
    return out


def parse_panel_options(
    values: dict[str, Any],
    *,
    confirm_ratio: int = 2000,
    divisors: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Cuarenta's parsing of rule-study options: player panels, the confirmatory model, rules.

    Parameters
    ----------
    values : dict
        Option values with the study's defaults filled (see
        :meth:`cuarenta_sim.studies.Study.settings`); ``policies`` a tuple holding the panel as
        typed (``"learned;heuristic;greedy"``; a model is a comma-separated policy list) or
        the specs of one model; ``rules`` a preset or slug; ``confirm`` a policy list or None;
        ``confirm_n`` the confirmatory run's datas or None.
    confirm_ratio : int
        Without ``confirm_n``, the confirmatory run plays ``n // confirm_ratio`` datas (at
        least 1).
    divisors : (int, int) or None
        Without ``chicas`` / ``mesas``, the headline plays ``n // divisors[0]`` chicas and
        ``n // divisors[1]`` mesas (at least 1); None: the framework's ``n // 4``, ``n // 10``.

    Returns
    -------
    dict
        :class:`~cuarenta_sim.studies.StudySettings` fields: ``models`` (one text per model,
        :func:`.panel.parse_models`), ``policies`` the headline model's specs, ``confirm``
        canonical, ``confirm_n`` filled, ``rules`` the canonical slug.

    Raises
    ------
    ValueError
        Malformed panel or policy list, or unknown rules (the message lists what is accepted).
    """
    from ..policies import split_policy_list

    out = dict(values)
    if "policies" in out:
        models = parse_models(out["policies"])
        out["models"] = models
        out["policies"] = tuple(split_policy_list(models[0]))
    if out.get("confirm") is not None:
        try:
            out["confirm"] = ",".join(split_policy_list(str(out["confirm"])))
        except ValueError as err:
            raise ValueError(f"--confirm {out['confirm']!r}: {err}") from err
        if out.get("confirm_n") is None:
            out["confirm_n"] = max(1, int(out["n"]) // confirm_ratio)
    if divisors is not None:
        for key, div in zip(("chicas", "mesas"), divisors, strict=True):
            if out.get(key) is None:
                out[key] = max(1, int(out["n"]) // div)
    if "rules" in out:
        out["rules"] = resolve_rules(out["rules"]).slug()
    return out


def check_rule_study(settings: StudySettings) -> None:
    """Checks of the Cuarenta rule studies, before any simulation.

    Every model of the panel and the confirmatory model must seat every player count (R2.1)
    and the rules must resolve.

    Parameters
    ----------
    settings : StudySettings

    Raises
    ------
    ValueError
        Unknown policy or wrong number of policies for a player count; unknown rules.
    """
    from ..policies import resolve_policies, split_policy_list

    models = list(settings.models) or [",".join(settings.policies)]
    if settings.confirm is not None:
        models.append(settings.confirm)
    for model in models:
        for count in settings.players:
            try:
                resolve_policies(tuple(split_policy_list(model)), count)
            except ValueError as err:
                flag = "--confirm" if model == settings.confirm else "--policies"
                raise ValueError(f"{flag} {model!r}: {err}") from err
    resolve_rules(settings.rules)
