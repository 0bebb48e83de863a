"""The Cuatrola bidding study: ``cuarenta-sim report cuatrola-bidding``.

Runs one forced-declarer experiment (:func:`cuarenta_sim.cuatrola.bidding.run_bidding_experiment`)
and writes ``reports/cuatrola-bidding/`` (report.md, figures/*.png, provenance.json): for every
hand class the probability of making solo, cuatrola and quintola and the expected game-point
value of each bid, with intervals; the bidding table; the thresholds of the ``threshold``
bidding policy derived from the simulation; the value of being mano; and an exact check of the
deal (trumps held by the dealer and by the others).

``settings.n`` is the hands per bid (four simulations of ``n`` hands), ``settings.policies`` the
play policy (one name) and ``settings.rules`` the Cuatrola preset or slug.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import shlex
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import plotting
from ..reports import Report, interval_header, markdown_table, text_table
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
from .policies import DEFAULT_THRESHOLDS, FIRST_GUESS_THRESHOLDS, OFF

if TYPE_CHECKING:
    from ..studies import GeneratedReport, Progress, StudySettings

NAME = "cuatrola-bidding"
#: Class columns with a table of EVs in the report, in order.
EV_CLASSES = ("trumps", "aces_threes", "trump_aces_threes", "trump_rc", "position")
METHODS_TEXT = (
    "Interval methods: `wilson` = Wilson score interval of a proportion (P(make)); `normal` "
    "= mean of independent hands +- z s/sqrt(n) (EV of a bid); `paired` = mean of the "
    "per-hand differences between two bids of the same seat on the same deal (common random "
    "numbers: the deal of hand i depends only on the seed and i), e.g. EV(bid) - EV(pass); "
    "`welch` and `newcombe` = differences between positions, which are different deals "
    "(unpaired). A difference is *resolved* when its interval excludes 0, *identical* when it "
    "is exactly 0 in every hand."
)


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
    from ..studies import GeneratedReport

    if len(settings.policies) != 1:
        raise ValueError(
            f"the cuatrola-bidding report takes one play policy, got {list(settings.policies)}"
        )
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
    tables["threshold_comparison"] = threshold_comparison(o, derived, confidence=c)
    tables["mano"] = mano_table(o, c)
    tables["trumps_check"] = trumps_check(o, c)
    tables["p_make_by_position_trumps"] = class_table(o, ["position", "trumps"], c)
    wall = time.perf_counter() - t0

    report = Report(
        title="Cuatrola bidding: what a hand is worth as solo, cuatrola or quintola",
        provenance=_provenance(exp, settings, derived, wall),
        command=settings.command(NAME),
    )
    report.add("Summary", _summary(exp, tables, derived, settings))
    report.add("Bidding table", _bidding_section(tables["bidding_table"], c))
    report.add("P(make) by trumps held", _p_make_section(tables["by_trumps"]))
    report.add("P(make) and expected value of each bid by hand class", _ev_section(tables))
    report.add(
        "Thresholds of the threshold policy, from simulation",
        _threshold_section(tables, derived, settings),
    )
    report.add("The value of being mano", _mano_section(tables))
    report.add("Check: trumps held, exact vs simulated", _check_section(tables["trumps_check"]))
    report.add("Methods", _methods(exp, settings))
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
    )


def report_settings(
    *,
    n: int | None,
    seed: int,
    policies: str | None,
    rules: str | None,
    confidence: float,
    threads: int | None,
    players: str = "2,4",
    chicas: int | None = None,
    mesas: int | None = None,
) -> StudySettings:
    """Check the ``cuarenta-sim report cuatrola-bidding`` options and build the settings.

    Parameters
    ----------
    n : int or None
        Hands per bid (> 0); None: :data:`cuarenta_sim.studies.DEFAULT_N`.
    seed : int
        Non-negative seed.
    policies : str or None
        One Cuatrola play policy for every seat; None: the lookahead (``pimc``) if the engine
        has it, else ``greedy`` (:func:`cuarenta_sim.cuatrola.bidding.default_play_policy`).
    rules : str or None
        Cuatrola preset or slug; None: ``ro``.
    confidence : float
        Two-sided confidence level, in (0, 1).
    threads : int or None
        numba threads, 1 to ``NUMBA_NUM_THREADS``.
    players, chicas, mesas
        Options of the Cuarenta reports; they do not apply (Cuatrola has 4 players and the
        study plays single hands) and must keep their defaults (``"2,4"``, None, None).

    Returns
    -------
    StudySettings

    Raises
    ------
    ValueError
        Any bad or inapplicable option; the message names it and says what is accepted.
    """
    import numba

    from ..stats import z_value
    from ..studies import DEFAULT_N, StudySettings
    from .bidding import default_play_policy
    from .policies import PLAY_POLICIES, resolve_play_policies
    from .rules import resolve_rules

    if players != "2,4":
        raise ValueError(
            f"--players does not apply to {NAME} (Cuatrola is played by 4, C1.1); got {players!r}"
        )
    for option, value in (("--chicas", chicas), ("--mesas", mesas)):
        if value is not None:
            raise ValueError(
                f"{option} does not apply to {NAME}: it plays single hands; --n is the hands "
                f"per bid"
            )
    policy = default_play_policy() if policies is None else policies
    try:
        policy = resolve_play_policies(policy)[0].name()
    except ValueError as err:
        raise ValueError(
            f"--policies {policies!r}: {NAME} takes one Cuatrola play policy for every seat, "
            f"one of {', '.join(PLAY_POLICIES)}; {err}"
        ) from err
    try:
        rule_set = resolve_rules(rules if rules is not None else "ro")
    except ValueError as err:
        raise ValueError(f"--rules {rules!r}: {err}") from err
    if n is not None and (isinstance(n, bool) or n <= 0):
        raise ValueError(f"--n must be a positive whole number of hands per bid, got {n}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(
            f"--threads must be a whole number from 1 to {numba.config.NUMBA_NUM_THREADS} "
            f"(NUMBA_NUM_THREADS), got {threads}"
        )
    z_value(confidence)
    return StudySettings(
        n=DEFAULT_N[NAME] if n is None else n,
        seed=seed,
        players=(4,),
        policies=(policy,),
        rules=rule_set.slug(),
        confidence=confidence,
        threads=threads,
    )


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
    from ..studies import cell

    if not np.isfinite(est):
        return "-"
    return cell(est, lo, hi, defined, percent=percent, suffix=suffix)


def _get(row: pd.Series | dict[str, Any], name: str, *, percent: bool = False) -> str:
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
    exp: BiddingExperiment, tables: dict[str, pd.DataFrame], derived: Thresholds, s: StudySettings
) -> str:
    overall = tables["overall"].set_index("bid")
    bt = tables["bidding_table"]
    lines = [
        f"Seat {exp.seat} bid each of pass, solo, cuatrola and quintola on the same "
        f"{exp.n:,} deals (seed {exp.seed}; level hand, 0-0, dealer of hand i = seat i % 4, so "
        f"a quarter of the hands in each position), the other seats passing; rules "
        f"`{exp.rules}`, every seat playing `{exp.play_policy}`"
        + (
            " (the lookahead player)."
            if exp.play_policy.startswith("pimc")
            else " (the greedy rule of thumb: the lookahead `pimc` player was not available in the "
            "Cuatrola engine when this report was made)."
        )
        + f" Value of a bid = game points of the seat's pair minus the opponents' (C5); "
        f"cells are `estimate [{interval_header(s.confidence)}]`.",
        "",
        "**Over all hands** (a bid made blind):",
        "",
        markdown_table(
            ["bid", "P(make)", "EV (game points)", "EV - pass (paired)"],
            [
                [
                    b,
                    _get(overall.loc[b], "p_make", percent=True),
                    _get(overall.loc[b], "ev"),
                    _get(overall.loc[b], "gain"),
                ]
                for b in BIDS
            ],
            right=(1, 2, 3),
        ),
        "",
        "(For pass, P(make) is the chance that the seat's pair wins the hand.)",
        "",
        "**Headline of the bidding table** (trumps held x aces and threes held; the best bid "
        "by EV and its gain over passing):",
        "",
    ]
    lines.append(_headline(bt))
    mano = tables["mano"].iloc[0]
    lines += [
        "",
        f"**Value of being mano**: the mano's pair wins "
        f"{_cell(mano['estimate'], mano['lower'], mano['upper'], percent=True)} of the hands "
        f"everybody passes (`wilson`); the dealer's pair, which holds the trump card, wins the "
        f"rest. See *The value of being mano* for each bid by position.",
    ]
    comp = tables["threshold_comparison"].set_index("label")
    d = comp.loc["derived - first guess"]
    lines += [
        "",
        f"**Thresholds from simulation** (on `hand_strength`, 0..22): {_threshold_text(derived)}"
        f" (the package's defaults: {_threshold_text(DEFAULT_THRESHOLDS)}; hand-set first "
        f"guess: {_threshold_text(FIRST_GUESS_THRESHOLDS)}). Bidding by the derived "
        f"thresholds is worth {_cell(comp.loc['derived', 'estimate'], comp.loc['derived', 'lower'], comp.loc['derived', 'upper'])} "  # noqa: E501
        f"game points per hand to the seat's pair (alone in bidding), "
        f"{_cell(d['estimate'], d['lower'], d['upper'], bool(d['defined']))} more than the "
        f"first guess (`paired`, {d['verdict']}).",
    ]
    return "\n".join(lines)


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
            "best bid by aces and threes held (* = beats passing, interval above 0)",
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
        margin = _cell(r["margin"], r["margin_lower"], r["margin_upper"], bool(r["margin_defined"]))
        rows.append(
            [
                _label(r["trumps"]),
                _label(r["aces_threes"]),
                f"{int(r['n']):,}",
                f"**{r['best']}**",
                _get(r, "ev"),
                _get(r, "p_make", percent=True),
                _cell(
                    r["gain"], r["gain_lower"], r["gain_upper"], r["gain_verdict"] != "undefined"
                ),
                "yes" if r["beats_pass"] else "no",
                f"{r['runner_up']} by {margin}",
            ]
        )
    return (
        "For each class of hand (trumps held x aces and threes held, of any suit) the bid "
        "with the highest estimated EV; its EV (`normal`) and make-probability (`wilson`; for "
        "pass the chance the pair wins the hand); its gain over passing on the same deals "
        "(`paired`); *beats pass* = that interval lies above 0; and its margin over the "
        "second-best bid (`paired`). Classes that cannot be or were not dealt stay in the "
        "table with 0 hands.\n\n"
        + markdown_table(
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
    return (
        "Chance that the forced declarer makes its contract, by trumps held (`wilson`). A "
        "non-dealer holds at most 4 trumps: the dealer keeps the trump card (C1.4).\n\n"
        + markdown_table(
            ["trumps", "hands", *(f"P({b})" for b in CONTRACT_BIDS)], rows, right=(0, 1, 2, 3, 4)
        )
        + "\n\n![P(make) by trumps held](figures/p_make_by_trumps.png)"
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
    parts = [
        "Make-probability of each contract (`wilson`) and expected game points of each bid "
        "(seat's pair minus opponents', `normal`), one class column at a time; the best bid "
        "of each class in bold. The full cross of position x "
        "trumps x aces and threes x trump R+C, with P(make), EV and the `paired` gain over "
        "passing for every bid, is the `classes` table of the study "
        "(`cuarenta_sim.cuatrola.bidding.class_table`).",
    ]
    for col in EV_CLASSES:
        parts += [f"**By {CLASS_LABELS[col]}**", _ev_table(tables[f"by_{col}"], col)]
    parts.append("![EV by class](figures/ev_by_class.png)")
    return "\n\n".join(parts)


def _threshold_section(
    tables: dict[str, pd.DataFrame], derived: Thresholds, s: StudySettings
) -> str:
    rows = []
    for (st,), sub in _by_bid(tables["strength"], ["strength"]).items():
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
                *(_get(sub.loc[b], "gain") for b in CONTRACT_BIDS),
                str(ev.idxmax()),
            ]
        )
    comp = tables["threshold_comparison"]
    crow = [
        [
            r["label"],
            _cell(r["estimate"], r["lower"], r["upper"], bool(r["defined"])),
            f"{int(r['n']):,}",
            r["method"],
            r["verdict"],
        ]
        for _, r in comp.iterrows()
    ]
    return (
        "The `threshold` bidding policy declares the highest contract whose threshold the "
        "hand's `hand_strength` reaches (trumps A 6, 3 5, R 4, C 4, S 3; other suits A 3, 3 "
        "2; 0..22). For each strength, EV(pass) (`normal`) and the gain of each contract over "
        "passing (`paired`):\n\n"
        + markdown_table(
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
        + "\n\n**Rule.** The threshold of a contract is the lowest strength from which on (at "
        "it and at every higher strength dealt) the contract's estimated EV beats passing and "
        "every lower contract (`cuarenta_sim.cuatrola.bidding.derive_thresholds`). "
        f"**Derived: {_threshold_text(derived)}**, i.e. `{derived.spec()}`; the package's "
        f"defaults are `{Thresholds(*DEFAULT_THRESHOLDS).spec()}`.\n\n"
        "Value per hand of bidding by each set of thresholds when the other seats pass, "
        "read from the same forced-declarer hands (the derived thresholds were chosen on these "
        "hands, so their own EV is slightly optimistic):\n\n"
        + markdown_table(
            ["thresholds", "EV per hand [interval]", "hands", "method", "verdict"],
            crow,
            right=(1, 2),
        )
        + "\n\nTo print the derived thresholds alone: `"
        + shlex.join(
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
        + "`."
        + "\n\n![gain over passing by strength](figures/thresholds.png)"
    )


def _mano_section(tables: dict[str, pd.DataFrame]) -> str:
    mano = tables["mano"]
    head = mano[mano["bid"] == "pass"].head(2)
    parts = [
        "The mano leads the first trick (C3.1) and wins ties (C5.2, C5.3); the dealer keeps "
        "the trump card (C1.4). In hands where everybody passes:",
        "",
        "\n".join(
            f"- {r['metric']}: {_cell(r['estimate'], r['lower'], r['upper'], bool(r['defined']), percent=r['method'] == 'wilson')} "  # noqa: E501
            f"(`{r['method']}`, {int(r['n']):,} hands)"
            for _, r in head.iterrows()
        ),
        "",
        "By the forced declarer's position (P(make) `wilson`, EV `normal`):",
        "",
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
    parts.append(
        markdown_table(
            ["position", "hands", *(f"P({b})" for b in CONTRACT_BIDS), *(f"EV {b}" for b in BIDS)],
            rows,
            right=tuple(range(1, 9)),
        )
    )
    diffs = mano.iloc[2:]
    drows = [
        [
            r["bid"],
            r["metric"],
            _cell(
                r["estimate"],
                r["lower"],
                r["upper"],
                bool(r["defined"]),
                percent=r["metric"].startswith("P("),
                suffix=" pp" if r["metric"].startswith("P(") else None,
            ),
            r["method"],
            r["verdict"],
        ]
        for _, r in diffs.iterrows()
    ]
    parts += [
        "",
        "Differences between positions (different deals, so unpaired; differences of P(make) "
        "in percentage points, pp; for pass, P(make) is the chance that the seat's pair wins "
        "the hand):",
        "",
        markdown_table(
            ["bid", "difference", "estimate [interval]", "method", "verdict"], drows, right=(2,)
        ),
        "",
        "Part of a position's value is its cards: the dealer holds the trump card, so one "
        "trump more on average. Within each number of trumps held, P(solo) by position "
        "(`wilson`) separates the lead from the cards:",
        "",
        _solo_by_position_trumps(tables["p_make_by_position_trumps"]),
        "",
        "![value of being mano](figures/value_of_mano.png)",
    ]
    return "\n".join(parts)


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
            _cell(r["estimate"], r["lower"], r["upper"], bool(r["defined"])),
            f"{int(r['count']):,} / {int(r['n']):,}",
            "yes" if r["within"] else "**no**",
        ]
        for _, r in check.iterrows()
    ]
    inside = int(check["within"].sum())
    return (
        "The dealer keeps the trump card, so it always holds at least one trump; the other 4 "
        "trumps lie among the 19 other cards (hypergeometric: `cuarenta_sim.cuatrola.bidding."
        f"exact_trumps_distribution`). {inside} of {len(check)} exact values lie inside the "
        "`wilson` interval of the simulated share (about one in twenty may fall outside by "
        "chance at 95%).\n\n"
        + markdown_table(
            ["hand of", "trumps", "exact", "simulated [interval]", "count / hands", "exact inside"],
            rows,
            right=(1, 2, 3, 4),
        )
    )


def _methods(exp: BiddingExperiment, s: StudySettings) -> str:
    rows = [
        [
            r["bid"],
            ", ".join(r["bid_policies"]),
            f"{r['n']:,}",
            f"{r['wall_time_s']:.1f}",
            f"{r['hands_per_s']:,}",
        ]
        for r in exp.runs
    ]
    return (
        "Four simulations (`simulate_cuatrola`, level hand) deal the same hands; in each the "
        f"studied seat {exp.seat} makes one bid (`always(X)` or `never`) and the others pass. "
        "A failed contract scores its value for the opponents (C5.5, `ro`). The declarer's "
        "partner sits out (C2.2). Hands are independent (own random streams), so EVs use "
        "`normal`; bids compared on the same hands use `paired`.\n\n"
        + markdown_table(
            ["bid", "bidding policies (seats 0..3)", "hands", "wall (s)", "hands/s"],
            rows,
            right=(2, 3, 4),
        )
        + "\n\n"
        + METHODS_TEXT
    )


def _provenance(
    exp: BiddingExperiment, s: StudySettings, derived: Thresholds, wall: float
) -> dict[str, Any]:
    import numba

    import cuarenta_sim

    from .simulation import CUATROLA_ENGINE_VERSION

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
    return (
        f"Cuatrola bidding ({exp.n:,} hands per bid, seed {exp.seed}, {exp.play_policy} play, "
        f"rules {exp.rules})\n"
        + text_table(
            ["trumps", "aces+threes", "hands", "best", "EV", "P(make)", "beats pass"],
            rows,
            right=(0, 1, 2, 4, 5),
        )
        + f"\n\nderived thresholds: {derived.spec()}"
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


def _fig_thresholds(strength: pd.DataFrame, derived: Thresholds) -> Figure:
    fig, axes = _figure(1, 1, (8.0, 4.8))
    sub = strength[strength["bid"].isin(CONTRACT_BIDS) & (strength["n"] > 0)]
    frame = pd.DataFrame(
        {
            "strength": sub["strength"].astype(int),
            "contract": sub["bid"].astype(str),
            "estimate": sub["gain"],
            "lower": sub["gain_lower"],
            "upper": sub["gain_upper"],
            "defined": sub["defined"],
        }
    )
    marks = {b: t for b, t in zip(CONTRACT_BIDS, derived, strict=True) if t != OFF}
    plotting.interval_lines(
        frame,
        "strength",
        "contract",
        ax=axes[0, 0],
        xlabel="hand_strength",
        ylabel="EV(bid) - EV(pass), game points",
        title="Gain over passing by strength (paired); dashed: derived thresholds",
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
