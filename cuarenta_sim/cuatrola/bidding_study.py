"""The Cuatrola bidding study: ``cuarenta-sim report cuatrola-bidding``.

Runs one forced-declarer experiment (:func:`cuarenta_sim.cuatrola.bidding.run_bidding_experiment`)
and writes ``reports/cuatrola-bidding/`` (report.md, figures/*.png, provenance.json): for every
hand class the probability of making solo, cuatrola and quintola and the expected game-point
value of each bid, with intervals; the bidding table; the thresholds of the ``threshold``
bidding policy derived from the simulation; the value of being mano; and an exact check of the
deal (trumps held by the dealer and by the others).

``settings.n`` is the hands per bid (four simulations of ``n`` hands), ``settings.policies`` the
play policy (one name) and ``settings.rules`` the Cuatrola preset or slug. The study registers
itself in :data:`cuarenta_sim.studies.STUDIES` at import; its sentences come from
``templates/cuatrola_bidding.md.j2``.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import shlex
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import plotting
from ..reports import Report, format_number, markdown_table, text_table
from ..studies import (
    GeneratedReport,
    Progress,
    Study,
    StudySettings,
    cell,
    get_study,
    register_study,
    templates,
)
from ..studies.claims import Claim, render_claim
from .bidding import (
    BIDS,
    CLASS_LABELS,
    CONTRACT_BIDS,
    POSITIONS,
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
from .policies import DEFAULT_THRESHOLDS, FIRST_GUESS_THRESHOLDS, OFF

NAME = "cuatrola-bidding"
#: Class columns with a table of EVs in the report, in order.
EV_CLASSES = ("trumps", "aces_threes", "trump_aces_threes", "trump_rc", "position")
#: Templates of the Cuatrola reports (package data).
TEMPLATES = Path(__file__).with_name("templates")
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


def _prose() -> Any:
    """The section macros of ``templates/cuatrola_bidding.md.j2``."""
    return templates.macros("cuatrola_bidding.md.j2", directory=TEMPLATES)


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
    GeneratedReport
        Figures ``p_make_by_trumps``, ``ev_by_class``, ``thresholds``, ``value_of_mano``;
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
        title=_prose().title(),
        provenance=_provenance(exp, settings, derived, wall, held),
        command=get_study(NAME).command(settings),
    )
    claims = bidding_claims(
        tables,
        {
            "derived": tuple(derived),
            "defaults": tuple(DEFAULT_THRESHOLDS),
            "first guess": tuple(FIRST_GUESS_THRESHOLDS),
        },
        _threshold_text,
        _cell,
        policy=exp.play_policy,
        rules=exp.rules,
        held={
            "seed": settings.seed,
            "held_seed": held_out_seed(settings.seed),
            "held_n": held_out_n(settings.n),
        },
    )
    trumps_claim = dealer_trumps_claim(
        tables["trumps_difference"], _cell, policy=exp.play_policy, rules=exp.rules
    )
    report.add("Summary", _summary(exp, tables, claims, settings))
    report.add("Bidding table", _bidding_section(tables["bidding_table"], c))
    report.add("P(make) by trumps held", _p_make_section(tables["by_trumps"]))
    report.add("P(make) and expected value of each bid by hand class", _ev_section(tables))
    report.add(
        "Thresholds of the threshold policy, from simulation",
        _threshold_section(tables, derived, settings),
    )
    report.add("The value of being mano", _mano_section(tables, render_claim(trumps_claim)))
    report.add("Check: trumps held, exact vs simulated", _check_section(tables["trumps_check"]))
    report.add("Methods", _methods(exp, held, settings))
    figures = {
        "p_make_by_trumps": _fig_p_make(tables["by_trumps"]),
        "ev_by_class": _fig_ev(tables),
        "thresholds": _fig_thresholds(tables["strength"], derived),
        "value_of_mano": _fig_mano(tables),
    }
    return GeneratedReport(
        name=NAME,
        report=report,
        figures=figures,
        summary=_console(exp, tables, derived),
        tables=tables,
        claims=[*claims, trumps_claim],
        claim_tables={"trumps_difference": ("hand_of",)},
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


# --------------------------------------------------------------------------- formatting
def _cell(
    est: float,
    lo: float,
    hi: float,
    defined: bool = True,
    *,
    percent: bool = False,
    suffix: str | None = None,
) -> str:
    if not np.isfinite(est):
        return "-"
    return cell(est, lo, hi, defined, percent=percent, suffix=suffix)


def difference_cell(est: float, lo: float, hi: float, tested: bool, identical: bool) -> str:
    """A paired difference between two bids: ``estimate [interval]``, or, when it is the same
    in every hand, ``"+2 in every hand (no variation)"`` (no interval is built from no spread;
    the verdict rests on the exact sign test) and ``"0 in every hand (identical)"``.

    Parameters
    ----------
    est, lo, hi : float
        Estimate and its interval (NaN bounds: no interval).
    tested : bool
        Whether the difference has a test (at least 2 hands).
    identical : bool
        Whether it is exactly 0 in every hand.

    Returns
    -------
    str
        ``"-"`` for an empty class.
    """
    if not np.isfinite(est):
        return "-"
    if identical:
        return f"{format_number(est, 0)} in every hand (identical)"
    if tested and not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{format_number(est, 4)} in every hand (no variation)"
    return _cell(est, lo, hi, tested)


def gain_cell(row: pd.Series | dict[str, Any]) -> str:
    """The gain over passing of a class-table or bidding-table row (its own interval at the
    Holm level, never the EV's: :func:`difference_cell`)."""
    verdict = str(row.get("gain_verdict", "undefined"))
    est, lo, hi = (float(row[k]) for k in ("gain", "gain_lower", "gain_upper"))
    return difference_cell(est, lo, hi, verdict != "undefined", verdict == "identical")


def margin_cell(row: pd.Series | dict[str, Any]) -> str:
    """The margin of a bidding-table row's best bid over the runner-up (:func:`difference_cell`)."""
    est, lo, hi = (float(row[k]) for k in ("margin", "margin_lower", "margin_upper"))
    identical = str(row.get("margin_verdict", "")) == "identical"
    return difference_cell(est, lo, hi, bool(row["margin_n"] >= 2), identical)


def _estimate_cell(
    row: pd.Series | dict[str, Any], *, percent: bool = False, suffix: str | None = None
) -> str:
    """:func:`_cell` of an estimate row's ``estimate``, ``lower``, ``upper`` and ``defined``."""
    return _cell(
        row["estimate"],
        row["lower"],
        row["upper"],
        bool(row["defined"]),
        percent=percent,
        suffix=suffix,
    )


def _get(row: pd.Series | dict[str, Any], name: str, *, percent: bool = False) -> str:
    """``p_make`` or ``ev`` of a class row as a cell (gains: :func:`gain_cell`)."""
    if name not in ("p_make", "ev"):
        raise ValueError(f"_get formats p_make or ev, not {name!r} (use gain_cell)")
    defined = bool(row.get("defined", True)) if name != "p_make" else row["n"] > 0
    return _cell(row[name], row[f"{name}_lower"], row[f"{name}_upper"], defined, percent=percent)


def _label(value: object) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    return str(value)


def _by_bid(table: pd.DataFrame, keys: Sequence[str]) -> dict[tuple, pd.DataFrame]:
    out = {}
    for key, sub in table.groupby(list(keys), observed=False, sort=True):
        out[key if isinstance(key, tuple) else (key,)] = sub.set_index("bid")
    return out


def _threshold_text(t: Sequence[int]) -> str:
    return ", ".join(
        f"{b} {'never' if v == OFF else v}" for b, v in zip(CONTRACT_BIDS, t, strict=True)
    )


# --------------------------------------------------------------------------- sections
def _summary(
    exp: BiddingExperiment, tables: dict[str, pd.DataFrame], claims: list[Claim], s: StudySettings
) -> str:
    table = _summary_table(tables["overall"])
    answers = [render_claim(c) for c in claims]
    return _prose().summary(exp, s, table, _headline(tables["bidding_table"]), answers)


def _summary_table(overall_rows: pd.DataFrame) -> str:
    """The summary's table over all hands: P(make), EV and gain over passing of each bid."""
    overall = overall_rows.set_index("bid")
    return markdown_table(
        ["bid", "P(make)", "EV (game points)", "EV - pass (paired)"],
        [
            [
                b,
                _get(overall.loc[b], "p_make", percent=True),
                _get(overall.loc[b], "ev"),
                "- (pass itself)" if b == "pass" else gain_cell(overall.loc[b]),
            ]
            for b in BIDS
        ],
        right=(1, 2, 3),
    )


def _headline(bt: pd.DataFrame) -> str:
    rows = []
    for t in range(6):
        sub = bt[(bt["trumps"] == t) & (bt["n"] > 0)]
        if sub.empty:
            continue
        bids = [
            f"{_label(r['aces_threes'])}: {r['best']}" + (" *" if r["beats_pass"] else "")
            for _, r in sub.iterrows()
        ]
        share = int(sub["n"].sum())
        rows.append([t, f"{share:,}", "; ".join(bids)])
    return markdown_table(
        [
            "trumps held",
            "hands",
            "best bid by aces and threes held (* = beats passing: gain resolved above 0)",
        ],
        rows,
        right=(0, 1),
    )


def _bidding_section(bt: pd.DataFrame, confidence: float) -> str:
    rows = []
    for _, r in bt.iterrows():
        if r["n"] == 0:
            rows.append(
                [_label(r["trumps"]), _label(r["aces_threes"]), 0, "-", "-", "-", "-", "-", "-"]
            )
            continue
        rows.append(
            [
                _label(r["trumps"]),
                _label(r["aces_threes"]),
                f"{int(r['n']):,}",
                f"**{r['best']}**",
                _get(r, "ev"),
                _get(r, "p_make", percent=True),
                "- (pass is the best bid)" if r["best"] == "pass" else gain_cell(r),
                "yes" if r["beats_pass"] else "no",
                f"{r['runner_up']} by {margin_cell(r)}",
            ]
        )
    return _prose().bidding(
        markdown_table(
            [
                "trumps",
                "aces+threes",
                "hands",
                "best bid",
                "EV",
                "P(make)",
                "EV - pass",
                "beats pass",
                "over the runner-up",
            ],
            rows,
            right=(0, 1, 2, 4, 5, 6),
        )
    )


def _p_make_section(by_trumps: pd.DataFrame) -> str:
    groups = _by_bid(by_trumps, ["trumps"])
    rows = []
    for (t,), sub in groups.items():
        rows.append(
            [
                t,
                f"{int(sub['n'].iloc[0]):,}",
                *(_get(sub.loc[b], "p_make", percent=True) for b in CONTRACT_BIDS),
            ]
        )
    return _prose().p_make(
        markdown_table(
            ["trumps", "hands", *(f"P({b})" for b in CONTRACT_BIDS)], rows, right=(0, 1, 2, 3, 4)
        )
    )


def _ev_table(table: pd.DataFrame, col: str) -> str:
    rows = []
    for (v,), sub in _by_bid(table, [col]).items():
        best = sub["ev"].astype(float)
        top = best.idxmax() if best.notna().any() else None
        rows.append(
            [
                _label(v),
                f"{int(sub['n'].iloc[0]):,}",
                *(_get(sub.loc[b], "p_make", percent=True) for b in CONTRACT_BIDS),
                *(
                    (("**" + _get(sub.loc[b], "ev") + "**") if b == top else _get(sub.loc[b], "ev"))
                    for b in BIDS
                ),
            ]
        )
    return markdown_table(
        [
            CLASS_LABELS[col],
            "hands",
            *(f"P({b})" for b in CONTRACT_BIDS),
            *(f"EV {b}" for b in BIDS),
        ],
        rows,
        right=tuple(range(1, 9)),
    )


def _ev_section(tables: dict[str, pd.DataFrame]) -> str:
    return _prose().ev(
        [(CLASS_LABELS[col], _ev_table(tables[f"by_{col}"], col)) for col in EV_CLASSES]
    )


def strength_table(strength: pd.DataFrame) -> str:
    """The per-strength table of the thresholds section (markdown): hands, EV(pass) and the
    gain of each contract over passing (:func:`gain_cell`), and the best bid.

    Parameters
    ----------
    strength : DataFrame
        ``class_table(outcomes, "strength")``.

    Returns
    -------
    str
    """
    rows = []
    for (st,), sub in _by_bid(strength, ["strength"]).items():
        n = int(sub["n"].iloc[0])
        if n == 0:
            rows.append([st, 0, "-", "-", "-", "-", "-"])
            continue
        ev = sub["ev"].astype(float)
        rows.append(
            [
                st,
                f"{n:,}",
                _get(sub.loc["pass"], "ev"),
                *(gain_cell(sub.loc[b]) for b in CONTRACT_BIDS),
                str(ev.idxmax()),
            ]
        )
    return markdown_table(
        [
            "strength",
            "hands",
            "EV pass",
            "solo - pass",
            "cuatrola - pass",
            "quintola - pass",
            "best",
        ],
        rows,
        right=(0, 1, 2, 3, 4, 5),
    )


def _threshold_section(
    tables: dict[str, pd.DataFrame], derived: Thresholds, s: StudySettings
) -> str:
    strength = strength_table(tables["strength"])
    comp = tables["threshold_comparison"]
    crow = [
        [
            r["label"],
            _estimate_cell(r),
            f"{int(r['n']):,}",
            r["method"],
            r["verdict"],
        ]
        for _, r in comp.iterrows()
    ]
    comparison = markdown_table(
        ["thresholds", "EV per hand [interval]", "hands", "method", "verdict"],
        crow,
        right=(1, 2),
    )
    command = shlex.join(
        [
            "python",
            "benchmarks/cuatrola_thresholds.py",
            "--n",
            str(s.n),
            "--seed",
            str(s.seed),
            "--policy",
            s.policies[0],
            "--rules",
            s.rules,
        ]
    )
    return _prose().thresholds(
        strength,
        comparison,
        _threshold_text(derived),
        derived.spec(),
        Thresholds(*DEFAULT_THRESHOLDS).spec(),
        command,
        {"seed": s.seed, "held_seed": held_out_seed(s.seed), "held_n": held_out_n(s.n)},
    )


def _mano_section(tables: dict[str, pd.DataFrame], trumps: str) -> str:
    mano = tables["mano"]
    head = mano[mano["bid"] == "pass"].head(2)
    passes = [
        (
            r["metric"],
            _estimate_cell(
                r,
                percent=r["method"] == "wilson",
            ),
            r["method"],
            int(r["n"]),
        )
        for _, r in head.iterrows()
    ]
    rows = []
    for (p,), sub in _by_bid(tables["by_position"], ["position"]).items():
        rows.append(
            [
                p,
                f"{int(sub['n'].iloc[0]):,}",
                *(_get(sub.loc[b], "p_make", percent=True) for b in CONTRACT_BIDS),
                *(_get(sub.loc[b], "ev") for b in BIDS),
            ]
        )
    positions = markdown_table(
        ["position", "hands", *(f"P({b})" for b in CONTRACT_BIDS), *(f"EV {b}" for b in BIDS)],
        rows,
        right=tuple(range(1, 9)),
    )
    diffs = mano.iloc[2:]
    drows = [
        [
            r["bid"],
            r["metric"],
            _estimate_cell(
                r,
                percent=r["metric"].startswith("P("),
                suffix=" pp" if r["metric"].startswith("P(") else None,
            ),
            r["method"],
            r["verdict"],
        ]
        for _, r in diffs.iterrows()
    ]
    differences = markdown_table(
        ["bid", "difference", "estimate [interval]", "method", "verdict"], drows, right=(2,)
    )
    return _prose().mano(
        passes,
        positions,
        differences,
        _solo_by_position_trumps(tables["p_make_by_position_trumps"]),
        trumps,
    )


def _solo_by_position_trumps(table: pd.DataFrame) -> str:
    solo = table[table["bid"] == "solo"]
    rows = []
    for p in POSITIONS:
        sub = solo[solo["position"] == p].set_index("trumps")
        rows.append([p, *(_get(sub.loc[t], "p_make", percent=True) for t in range(1, 5))])
    return markdown_table(
        ["position", *(f"P(solo), {t} trump{'s' if t > 1 else ''}" for t in range(1, 5))],
        rows,
        right=(1, 2, 3, 4),
    )


def _check_section(check: pd.DataFrame) -> str:
    rows = [
        [
            r["hand_of"],
            r["trumps"],
            f"{r['exact']:.6f}",
            _estimate_cell(r),
            f"{int(r['count']):,} / {int(r['n']):,}",
            "yes" if r["within"] else "**no**",
        ]
        for _, r in check.iterrows()
    ]
    return _prose().check(
        int(check["within"].sum()),
        len(check),
        markdown_table(
            ["hand of", "trumps", "exact", "simulated [interval]", "count / hands", "exact inside"],
            rows,
            right=(1, 2, 3, 4),
        ),
    )


def _methods(exp: BiddingExperiment, held: BiddingExperiment, s: StudySettings) -> str:
    rows = [
        [
            use,
            str(e.seed),
            r["bid"],
            ", ".join(r["bid_policies"]),
            f"{r['n']:,}",
            f"{r['wall_time_s']:.1f}",
            f"{r['hands_per_s']:,}",
        ]
        for use, e in (("derive thresholds, every table", exp), ("held-out judgement", held))
        for r in e.runs
    ]
    return _prose().methods(
        exp,
        held,
        markdown_table(
            [
                "used for",
                "seed",
                "bid",
                "bidding policies (seats 0..3)",
                "hands",
                "wall (s)",
                "hands/s",
            ],
            rows,
            right=(1, 4, 5, 6),
        ),
    )


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


def _console(exp: BiddingExperiment, tables: dict[str, pd.DataFrame], derived: Thresholds) -> str:
    bt = tables["bidding_table"]
    rows = [
        [
            _label(r["trumps"]),
            _label(r["aces_threes"]),
            f"{int(r['n']):,}",
            r["best"],
            _get(r, "ev"),
            _get(r, "p_make", percent=True),
            "yes" if r["beats_pass"] else "no",
        ]
        for _, r in bt[bt["n"] > 0].iterrows()
    ]
    return _prose().console(
        exp,
        text_table(
            ["trumps", "aces+threes", "hands", "best", "EV", "P(make)", "beats pass"],
            rows,
            right=(0, 1, 2, 4, 5),
        ),
        derived.spec(),
    )


# --------------------------------------------------------------------------- figures
def _figure(rows: int, cols: int, size: tuple[float, float]) -> tuple[Figure, np.ndarray]:
    fig = Figure(figsize=(size[0] * cols, size[1] * rows), layout="constrained")
    return fig, fig.subplots(rows, cols, squeeze=False)


def _fig_p_make(by_trumps: pd.DataFrame) -> Figure:
    fig, axes = _figure(1, 1, (7.0, 4.5))
    sub = by_trumps[by_trumps["bid"].isin(CONTRACT_BIDS)]
    frame = pd.DataFrame(
        {
            "trumps": sub["trumps"].astype(int),
            "contract": sub["bid"].astype(str),
            "estimate": 100 * sub["p_make"],
            "lower": 100 * sub["p_make_lower"],
            "upper": 100 * sub["p_make_upper"],
            "defined": sub["n"] > 0,
        }
    )
    plotting.interval_lines(
        frame,
        "trumps",
        "contract",
        ax=axes[0, 0],
        xlabel="trumps held",
        ylabel="P(make) (%)",
        title="P(make) by trumps held (Wilson)",
    )
    return fig


def _ev_frame(table: pd.DataFrame, col: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            col: table[col].map(_label),
            "bid": table["bid"].astype(str),
            "estimate": table["ev"],
            "lower": table["ev_lower"],
            "upper": table["ev_upper"],
            "defined": table["defined"],
        }
    )


def _fig_ev(tables: dict[str, pd.DataFrame]) -> Figure:
    cols = ("trumps", "aces_threes", "trump_rc", "position")
    fig, axes = _figure(2, 2, (6.5, 4.2))
    for ax, col in zip(axes.ravel(), cols, strict=True):
        frame = _ev_frame(tables[f"by_{col}"], col)
        plotting.grouped_bars(
            frame,
            col,
            "bid",
            ax=ax,
            ylabel="EV (game points)",
            title=f"EV of each bid by {CLASS_LABELS[col]}",
        )
        ax.axhline(0.0, color="black", linewidth=0.8)
    return fig


def threshold_frame(strength: pd.DataFrame) -> pd.DataFrame:
    """Points of the thresholds figure: the gain of each contract over passing by strength.

    Parameters
    ----------
    strength : DataFrame
        ``class_table(outcomes, "strength")``.

    Returns
    -------
    DataFrame
        ``strength``, ``contract``, ``estimate``, ``lower``, ``upper`` (the gain's interval at
        its Holm level) and ``defined`` (the gain has an interval: whiskers are drawn), one row
        per dealt strength and contract.
    """
    sub = strength[strength["bid"].isin(CONTRACT_BIDS) & (strength["n"] > 0)]
    return pd.DataFrame(
        {
            "strength": sub["strength"].astype(int),
            "contract": sub["bid"].astype(str),
            "estimate": sub["gain"],
            "lower": sub["gain_lower"],
            "upper": sub["gain_upper"],
            # The gain's own interval (Holm level), not the EV's: a bid whose EV is the same
            # in every hand (solo failing at strength 0) still gains -1 or -3 over passing.
            "defined": np.isfinite(sub["gain_lower"]) & np.isfinite(sub["gain_upper"]),
        }
    )


def _fig_thresholds(strength: pd.DataFrame, derived: Thresholds) -> Figure:
    fig, axes = _figure(1, 1, (8.0, 4.8))
    frame = threshold_frame(strength)
    marks = {b: t for b, t in zip(CONTRACT_BIDS, derived, strict=True) if t != OFF}
    plotting.interval_lines(
        frame,
        "strength",
        "contract",
        ax=axes[0, 0],
        xlabel="hand_strength",
        ylabel="EV(bid) - EV(pass), game points",
        title="Gain over passing by strength (paired, Holm-level intervals); "
        "dashed: derived thresholds",
        reference=0.0,
        marks=marks,
    )
    return fig


def _fig_mano(tables: dict[str, pd.DataFrame]) -> Figure:
    fig, axes = _figure(1, 2, (6.5, 4.5))
    pos = tables["by_position"]
    sub = pos[pos["bid"].isin(CONTRACT_BIDS)]
    frame = pd.DataFrame(
        {
            "position": sub["position"].astype(str),
            "bid": sub["bid"].astype(str),
            "estimate": 100 * sub["p_make"],
            "lower": 100 * sub["p_make_lower"],
            "upper": 100 * sub["p_make_upper"],
            "defined": sub["n"] > 0,
        }
    )
    plotting.grouped_bars(
        frame,
        "position",
        "bid",
        ax=axes[0, 0],
        ylabel="P(make) (%)",
        title="P(make) by position (Wilson)",
        categories=POSITIONS,
    )
    plotting.grouped_bars(
        _ev_frame(pos, "position"),
        "position",
        "bid",
        ax=axes[0, 1],
        ylabel="EV (game points)",
        title="EV of each bid by position",
        categories=POSITIONS,
    )
    axes[0, 1].axhline(0.0, color="black", linewidth=0.8)
    return fig


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
