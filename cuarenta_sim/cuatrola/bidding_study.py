"""The Cuatrola bidding study: ``cuarenta-sim report cuatrola-bidding``.

Runs one forced-declarer experiment (:func:`cuarenta_sim.cuatrola.bidding.run_bidding_experiment`)
and writes ``reports/cuatrola-bidding/`` (report.md, figures/*.png, provenance.json): for every
hand class the probability of making solo, cuatrola and quintola and the expected game-point
value of each bid, with intervals; the bidding table; the thresholds of the ``threshold``
bidding policy derived from the simulation; the value of being mano; and an exact check of the
deal (trumps held by the dealer and by the others).

``settings.n`` is the hands per bid (four simulations of ``n`` hands), ``settings.policies`` the
play policy (one name) and ``settings.rules`` the Cuatrola preset or slug. The study registers
itself in :data:`cuarenta_sim.studies.STUDIES` at import. This module runs the study and
records it; the report's text is built by :mod:`.bidding_sections` (sentences from
``templates/cuatrola_bidding.md.j2``) and its figures by :mod:`.bidding_figures`.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..io import atomic_path
from ..reports import Report
from ..studies import (
    GeneratedReport,
    Progress,
    Study,
    StudySettings,
    get_study,
    register_study,
)
from ..studies.claims import render_claim

# bidding_intervals and bidding_verdicts make the numbers of bidding.py's tables; imported here
# so that the report's code hash (studies/codehash.py reads direct imports) covers them.
from . import bidding_intervals as bidding_intervals
from . import bidding_verdicts as bidding_verdicts
from .bidding import (
    BiddingExperiment,
    Thresholds,
    bidding_table,
    class_table,
    derive_thresholds,
    mano_table,
    overall_table,
    run_bidding_experiment,
    threshold_comparison,
    trumps_check,
)
from .bidding_checks import trumps_difference
from .bidding_claims import bidding_claims, dealer_trumps_claim
from .bidding_figures import figures
from .bidding_sections import (
    CLASSES_CSV,
    EV_CLASSES,
    bidding_section,
    check_section,
    console_text,
    ev_section,
    mano_section,
    methods_section,
    p_make_section,
    prose,
    summary_section,
    threshold_section,
    threshold_text,
    value_cell,
)
from .policies import DEFAULT_THRESHOLDS, FIRST_GUESS_THRESHOLDS

NAME = "cuatrola-bidding"
#: Default hands per bid.
DEFAULT_N = 250_000


#: The derived thresholds are judged on ``n // HELD_OUT_DIVISOR`` hands per bid of a held-out
#: seed (:func:`held_out_seed`), never on the hands they were chosen on.
HELD_OUT_DIVISOR = 2


def held_out_seed(seed: int) -> int:
    """The seed on which thresholds derived on ``seed`` are judged: ``seed + 1`` (its decks
    share nothing with ``seed``'s: every deck depends on ``(seed, hand index)``)."""
    return int(seed) + 1


def held_out_n(n: int) -> int:
    """Hands per bid of the held-out run: ``max(100, n // HELD_OUT_DIVISOR)``."""
    return max(100, int(n) // HELD_OUT_DIVISOR)


@dataclass
class BiddingReport(GeneratedReport):
    """The bidding report, which also writes CSV tables beside report.md (``csv``: file
    name -> frame; the full cross of classes as :data:`.bidding_sections.CLASSES_CSV`, so that
    the table the report names can be opened)."""

    csv: dict[str, pd.DataFrame] = field(default_factory=dict)

    def write(self, directory: str | Path) -> list[Path]:
        """Write the report (:meth:`GeneratedReport.write`), then each CSV atomically.

        Returns
        -------
        list of Path
            The files written, the CSV files last.

        Raises
        ------
        ClaimError
            If the claims fail their check (nothing is written).
        OSError
            If a file cannot be written (no partial file is left).
        """
        written = super().write(directory)
        for name, frame in self.csv.items():
            path = Path(directory) / name
            with atomic_path(path) as tmp:
                frame.to_csv(tmp, index=False, float_format="%.17g")
            written.append(path)
        return written


def cuatrola_bidding_study(
    settings: StudySettings, progress: Progress | None = None
) -> GeneratedReport:
    """Run the bidding experiment and build the ``cuatrola-bidding`` report.

    Parameters
    ----------
    settings : StudySettings
        ``n`` hands per bid, ``seed``, ``policies`` (one Cuatrola play policy),
        ``rules`` (Cuatrola preset or slug), ``confidence``, ``threads``.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    BiddingReport
        Written with ``classes.csv`` (the ``classes`` table). Figures ``p_make_by_trumps``,
        ``ev_by_class``, ``thresholds``, ``value_of_mano``;
        tables ``outcomes`` (one row per hand), ``overall``, ``bidding_table``,
        ``classes`` (every class column crossed: position x trumps x aces and threes x trump
        R+C, per bid), one ``by_<class>`` table per class column, ``strength``,
        ``thresholds``, ``threshold_comparison``, ``mano``, ``trumps_check``.

    Raises
    ------
    ValueError
        More than one play policy, an unknown policy or bad rules.
    """
    check_bidding(settings)
    t0 = time.perf_counter()
    exp = run_bidding_experiment(
        settings.n,
        seed=settings.seed,
        play_policy=settings.policies[0],
        rules=settings.rules,
        threads=settings.threads,
        progress=progress,
    )
    if progress is not None:
        progress("estimating")
    c = settings.confidence
    o = exp.outcomes
    tables: dict[str, pd.DataFrame] = {
        "outcomes": o,
        "overall": overall_table(o, c),
        "bidding_table": bidding_table(o, confidence=c),
    }
    for col in (*EV_CLASSES, "strength"):
        tables[f"by_{col}"] = class_table(o, col, c)
    tables["classes"] = class_table(o, ["position", "trumps", "aces_threes", "trump_rc"], c)
    tables["strength"] = tables["by_strength"]
    derived = derive_thresholds(tables["strength"])
    tables["thresholds"] = pd.DataFrame([derived._asdict()])
    # Judged on a held-out seed: the thresholds were chosen on seed s's hands.
    held = run_bidding_experiment(
        held_out_n(settings.n),
        seed=held_out_seed(settings.seed),
        play_policy=settings.policies[0],
        rules=settings.rules,
        threads=settings.threads,
        progress=progress,
    )
    tables["threshold_comparison"] = threshold_comparison(held.outcomes, derived, confidence=c)
    tables["mano"] = mano_table(o, c)
    tables["trumps_check"] = trumps_check(o, c)
    tables["trumps_difference"] = trumps_difference(o, c)
    tables["p_make_by_position_trumps"] = class_table(o, ["position", "trumps"], c)
    wall = time.perf_counter() - t0

    report = Report(
        title=prose().title(),
        provenance=_provenance(exp, settings, derived, wall, held),
        command=get_study(NAME).command(settings),
    )
    held_out = {
        "seed": settings.seed,
        "held_seed": held_out_seed(settings.seed),
        "held_n": held_out_n(settings.n),
    }
    claims = bidding_claims(
        tables,
        {
            "derived": tuple(derived),
            "defaults": tuple(DEFAULT_THRESHOLDS),
            "first guess": tuple(FIRST_GUESS_THRESHOLDS),
        },
        threshold_text,
        value_cell,
        policy=exp.play_policy,
        rules=exp.rules,
        held=held_out,
    )
    trumps_claim = dealer_trumps_claim(
        tables["trumps_difference"], value_cell, policy=exp.play_policy, rules=exp.rules
    )
    report.add("Summary", summary_section(exp, tables, claims, settings))
    report.add("Bidding table", bidding_section(tables["bidding_table"], c))
    report.add("P(make) by trumps held", p_make_section(tables["by_trumps"]))
    report.add("P(make) and expected value of each bid by hand class", ev_section(tables))
    report.add(
        "Thresholds of the threshold policy, from simulation",
        threshold_section(tables, derived, settings, held_out),
    )
    report.add("The value of being mano", mano_section(tables, render_claim(trumps_claim)))
    report.add("Check: trumps held, exact vs simulated", check_section(tables["trumps_check"], c))
    report.add("Methods", methods_section(exp, held, settings))
    return BiddingReport(
        name=NAME,
        report=report,
        figures=figures(tables, derived),
        summary=console_text(exp, tables, derived),
        tables=tables,
        claims=[*claims, trumps_claim],
        claim_tables={"trumps_difference": ("hand_of",)},
        csv={CLASSES_CSV: tables["classes"]},
    )


def parse_options(values: dict[str, Any]) -> dict[str, Any]:
    """The bidding study's parsing of report options: the play policy and the rules.

    Parameters
    ----------
    values : dict
        Option values with the defaults filled (:meth:`cuarenta_sim.studies.Study.settings`):
        ``policies`` a tuple holding the policy as typed, ``rules`` a Cuatrola preset or slug.

    Returns
    -------
    dict
        :class:`~cuarenta_sim.studies.StudySettings` fields with ``policies`` the canonical
        name of the one play policy and ``rules`` the canonical slug.

    Raises
    ------
    ValueError
        Not exactly one Cuatrola play policy, or bad rules (the message says what is accepted).
    """
    from .policies import PLAY_POLICIES, resolve_play_policies
    from .rules import resolve_rules

    out = dict(values)
    text = ",".join(out["policies"])
    try:
        out["policies"] = (resolve_play_policies(text)[0].name(),)
    except ValueError as err:
        raise ValueError(
            f"--policies {text!r}: {NAME} takes one Cuatrola play policy for every seat, "
            f"one of {', '.join(PLAY_POLICIES)}; {err}"
        ) from err
    try:
        out["rules"] = resolve_rules(out["rules"]).slug()
    except ValueError as err:
        raise ValueError(f"--rules {out['rules']!r}: {err}") from err
    return out


def check_bidding(settings: StudySettings) -> None:
    """Checks of the bidding study, before any hand is dealt.

    Parameters
    ----------
    settings : StudySettings
        ``players`` must be ``(4,)`` (C1.1), ``policies`` one Cuatrola play policy, ``rules``
        a Cuatrola preset or slug.

    Raises
    ------
    ValueError
        The first problem found; the message says what is accepted.
    """
    from .policies import PLAY_POLICIES, resolve_play_policies
    from .rules import resolve_rules

    if tuple(settings.players) != (4,):
        raise ValueError(f"{NAME} is played by 4 (C1.1); got players {list(settings.players)}")
    if len(settings.policies) != 1:
        raise ValueError(
            f"--policies: {NAME} takes one Cuatrola play policy for every seat, one of "
            f"{', '.join(PLAY_POLICIES)}; got {list(settings.policies)}"
        )
    resolve_play_policies(settings.policies[0])
    resolve_rules(settings.rules)


def _default_policy() -> str:
    from .bidding import default_play_policy

    return default_play_policy()


def _provenance(
    exp: BiddingExperiment,
    s: StudySettings,
    derived: Thresholds,
    wall: float,
    held: BiddingExperiment,
) -> dict[str, Any]:
    import numba

    import cuarenta_sim

    from .definition import ENGINE_VERSION as CUATROLA_ENGINE_VERSION

    return {
        "report": NAME,
        "game": "cuatrola",
        "package_version": cuarenta_sim.__version__,
        "cuatrola_engine_version": CUATROLA_ENGINE_VERSION,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "matplotlib": importlib.metadata.version("matplotlib"),
        "seed": exp.seed,
        "n_hands_per_bid": exp.n,
        "play_policy": exp.play_policy,
        "rules": exp.rules,
        "seat": exp.seat,
        "confidence": s.confidence,
        "derived_thresholds": derived._asdict(),
        "wall_time_s": round(wall, 2),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "runs": exp.runs,
        # The derived thresholds are judged on these runs (a held-out seed, issue 18).
        "held_out_seed": held.seed,
        "held_out_n_hands_per_bid": held.n,
        "held_out_runs": held.runs,
    }


# --------------------------------------------------------------------------- registration
register_study(
    Study(
        name=NAME,
        game="cuatrola",
        title="Cuatrola bidding",
        description="P(make) and EV of each bid by hand class, bidding table, derived "
        "thresholds, value of being mano",
        defaults={"n": DEFAULT_N, "players": (4,), "policies": _default_policy, "rules": "ro"},
        check=check_bidding,
        build=cuatrola_bidding_study,
        options=("policies", "rules"),
        refused={
            "players": "Cuatrola is played by 4 (C1.1)",
            "chicas": "it plays single hands; --n is the hands per bid",
            "mesas": "it plays single hands; --n is the hands per bid",
        },
        reproduce=("policies", "rules"),
        parse=parse_options,
        n_unit="hands per bid",
        player_rule="C1.1",
    )
)
