"""The text of the ``cuatrola-bidding`` report: its cells, tables and sections.

Split from :mod:`cuarenta_sim.cuatrola.bidding_study` (issue 19): this module turns the study's
tables into markdown (one function per section; the sentences come from
``templates/cuatrola_bidding.md.j2`` through :func:`prose`). Cells are ``estimate [interval]``
(:func:`value_cell`); a paired difference between two bids that is the same in every hand reads
"in every hand (no variation)" (:func:`difference_cell`), never a zero-width interval, and a
gain always shows its own interval, never the EV's (:func:`gain_cell`, issue 18).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..reports import MAX_DECIMALS, estimate_decimals, format_number, markdown_table, text_table
from ..studies import StudySettings, cell, templates
from ..studies.claims import Claim, render_claim
from ..studies.framework import excluding_decimals
from .bidding import (
    BIDS,
    CLASS_LABELS,
    CONTRACT_BIDS,
    POSITION_WORDS,
    POSITIONS,
    BiddingExperiment,
    Thresholds,
)
from .policies import DEFAULT_THRESHOLDS, OFF

#: Class columns with a table of EVs in the report, in order.
EV_CLASSES = ("trumps", "aces_threes", "trump_aces_threes", "trump_rc", "position")
#: Templates of the Cuatrola reports (package data).
TEMPLATES = Path(__file__).with_name("templates")
#: File beside report.md holding the full cross of classes (the study's ``classes`` table).
CLASSES_CSV = "classes.csv"


def prose() -> Any:
    """The section macros of ``templates/cuatrola_bidding.md.j2``."""
    return templates.macros("cuatrola_bidding.md.j2", directory=TEMPLATES)


# --------------------------------------------------------------------------- formatting
def value_cell(
    est: float,
    lo: float,
    hi: float,
    defined: bool = True,
    *,
    percent: bool = False,
    suffix: str | None = None,
) -> str:
    """``estimate [interval]`` (:func:`cuarenta_sim.studies.cell`); ``"-"`` for an empty
    class (NaN estimate). A non-zero bound never prints as ``0.00`` or ``-0.00``: decimals are
    added until its sign shows (:func:`signed_decimals`; ``[-0.003, 0.790]``, not
    ``[-0.00, 0.79]``), also when the interval contains 0."""
    if not np.isfinite(est):
        return "-"
    text = cell(est, lo, hi, defined, percent=percent, suffix=suffix)
    if not (defined and np.isfinite(lo) and np.isfinite(hi)):
        return text
    k, sfx = (100.0, "%") if percent else (1.0, "")
    sfx = sfx if suffix is None else suffix
    # The decimals cell() chose, then as many more as the signs of the bounds need.
    dec = estimate_decimals(lo * k, hi * k)
    if lo == hi == est:
        dec = 0 if est == 0 else dec
    dec = excluding_decimals(lo * k, hi * k, dec)
    more = signed_decimals(lo * k, hi * k, dec)
    if more == dec:
        return text
    return (
        f"{format_number(est * k, more)}{sfx} [{format_number(lo * k, more)}, "
        f"{format_number(hi * k, more)}]"
    )


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
    return value_cell(est, lo, hi, tested)


def signed_decimals(lo: float, hi: float, dec: int) -> int:
    """Decimals at which no non-zero bound of ``[lo, hi]`` prints as ``0.00`` or ``-0.00``.

    A margin of ``[-0.003, 0.79]`` printed with the decimals of its half-width reads
    ``[-0.00, 0.79]``, which hides on which side of 0 the bound lies (issue 18, cold read of
    cuatrola-bidding); decimals are added until every non-zero bound shows a non-zero digit,
    up to :data:`cuarenta_sim.reports.MAX_DECIMALS`. A bound that is exactly 0 prints as 0.

    Parameters
    ----------
    lo, hi : float
        Bounds in printed units (finite).
    dec : int
        Decimals chosen from the half-width (:func:`cuarenta_sim.reports.estimate_decimals`).

    Returns
    -------
    int
        The smallest ``d >= dec`` (at most ``MAX_DECIMALS``) at which neither non-zero bound
        prints as zero.
    """
    nonzero = [abs(b) for b in (lo, hi) if np.isfinite(b) and b != 0.0]
    while dec < MAX_DECIMALS and any(float(format_number(b, dec)) == 0.0 for b in nonzero):
        dec += 1
    return dec


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


def margin_resolved(row: pd.Series | dict[str, Any]) -> bool:
    """Whether a bidding-table row's best bid is resolved above its runner-up: its margin's
    Holm verdict (``margin_verdict``) is resolved (interval above 0, or, with no variation, the
    exact sign test survives Holm). An empty class, an identical pair of bids or a margin that
    is not resolved (or too small to tell) is not."""
    return str(row.get("margin_verdict", "")).startswith("resolved")


def runner_up_cell(row: pd.Series | dict[str, Any]) -> str:
    """``"solo by 0.39 [-0.003, 0.79] (not resolved)"``: the best bid's margin over the
    runner-up (:func:`margin_cell`), flagged when the margin is not resolved
    (:func:`margin_resolved`): ``"(not tested: 1 hand)"`` below 2 hands, ``"(tie)"`` when the
    two bids score the same in every hand, else ``"(not resolved)"``."""
    text = f"{row['runner_up']} by {margin_cell(row)}"
    if margin_resolved(row):
        return text
    verdict = str(row.get("margin_verdict", ""))
    if verdict == "identical":
        return f"{text} (tie)"
    if int(row.get("margin_n", 0)) < 2:
        return f"{text} (not tested: 1 hand)"
    return f"{text} (not resolved)"


def estimate_cell(
    row: pd.Series | dict[str, Any], *, percent: bool = False, suffix: str | None = None
) -> str:
    """:func:`value_cell` of an estimate row (``estimate``, ``lower``, ``upper``, ``defined``)."""
    return value_cell(
        row["estimate"],
        row["lower"],
        row["upper"],
        bool(row["defined"]),
        percent=percent,
        suffix=suffix,
    )


def class_cell(row: pd.Series | dict[str, Any], name: str, *, percent: bool = False) -> str:
    """``p_make`` or ``ev`` of a class row as a cell (gains: :func:`gain_cell`)."""
    if name not in ("p_make", "ev"):
        raise ValueError(f"class_cell formats p_make or ev, not {name!r} (use gain_cell)")
    defined = bool(row.get("defined", True)) if name != "p_make" else row["n"] > 0
    return value_cell(
        row[name], row[f"{name}_lower"], row[f"{name}_upper"], defined, percent=percent
    )


def label(value: object) -> str:
    """A class value as printed: ``yes`` / ``no`` for booleans, a position with its partner
    (:data:`~.bidding.POSITION_WORDS`: ``"second (dealer's partner)"``), else its text."""
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    return POSITION_WORDS.get(value, str(value)) if isinstance(value, str) else str(value)


def by_bid(table: pd.DataFrame, keys: Sequence[str]) -> dict[tuple, pd.DataFrame]:
    """Rows of a class table grouped by ``keys``, each group indexed by bid."""
    out = {}
    for key, sub in table.groupby(list(keys), observed=False, sort=True):
        out[key if isinstance(key, tuple) else (key,)] = sub.set_index("bid")
    return out


def threshold_text(t: Sequence[int]) -> str:
    """Thresholds as text, e.g. ``"solo 15, cuatrola 18, quintola never"``."""
    return ", ".join(
        f"{b} {'never' if v == OFF else v}" for b, v in zip(CONTRACT_BIDS, t, strict=True)
    )


# --------------------------------------------------------------------------- sections
def summary_section(
    exp: BiddingExperiment, tables: dict[str, pd.DataFrame], claims: list[Claim], s: StudySettings
) -> str:
    """The Summary: the table over all hands, the bidding-table headline and the claims."""
    table = summary_table(tables["overall"])
    answers = [render_claim(c) for c in claims]
    return prose().summary(exp, s, table, headline_table(tables["bidding_table"]), answers)


def summary_table(overall_rows: pd.DataFrame) -> str:
    """The summary's table over all hands: P(make), EV and gain over passing of each bid."""
    overall = overall_rows.set_index("bid")
    return markdown_table(
        ["bid", "P(make)", "EV (game points)", "EV - pass (paired)"],
        [
            [
                b,
                class_cell(overall.loc[b], "p_make", percent=True),
                class_cell(overall.loc[b], "ev"),
                "- (pass itself)" if b == "pass" else gain_cell(overall.loc[b]),
            ]
            for b in BIDS
        ],
        right=(1, 2, 3),
    )


def headline_table(bt: pd.DataFrame) -> str:
    """The summary's headline: the best bid by trumps held x aces and threes held."""
    rows = []
    for t in range(6):
        sub = bt[(bt["trumps"] == t) & (bt["n"] > 0)]
        if sub.empty:
            continue
        bids = [
            f"{label(r['aces_threes'])}: {r['best']}"
            + (" *" if r["beats_pass"] else "")
            + ("" if margin_resolved(r) else f" (not resolved over {r['runner_up']})")
            for _, r in sub.iterrows()
        ]
        share = int(sub["n"].sum())
        rows.append([t, f"{share:,}", "; ".join(bids)])
    return markdown_table(
        [
            "trumps held",
            "hands",
            "best bid by aces and threes held (* = beats passing: gain resolved above 0; "
            "not resolved over X = its margin over the runner-up X is not resolved)",
        ],
        rows,
        right=(0, 1),
    )


def bidding_section(bt: pd.DataFrame, confidence: float) -> str:
    """The Bidding table section: best bid of each class, its gain and margin."""
    rows = []
    for _, r in bt.iterrows():
        if r["n"] == 0:
            rows.append(
                [label(r["trumps"]), label(r["aces_threes"]), 0, "-", "-", "-", "-", "-", "-"]
            )
            continue
        rows.append(
            [
                label(r["trumps"]),
                label(r["aces_threes"]),
                f"{int(r['n']):,}",
                f"**{r['best']}**",
                class_cell(r, "ev"),
                class_cell(r, "p_make", percent=True),
                "- (pass is the best bid)" if r["best"] == "pass" else gain_cell(r),
                "yes" if r["beats_pass"] else "no",
                runner_up_cell(r),
            ]
        )
    return prose().bidding(
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


def p_make_section(by_trumps: pd.DataFrame) -> str:
    """The P(make) by trumps held section."""
    groups = by_bid(by_trumps, ["trumps"])
    rows = []
    for (t,), sub in groups.items():
        rows.append(
            [
                t,
                f"{int(sub['n'].iloc[0]):,}",
                *(class_cell(sub.loc[b], "p_make", percent=True) for b in CONTRACT_BIDS),
            ]
        )
    return prose().p_make(
        markdown_table(
            ["trumps", "hands", *(f"P({b})" for b in CONTRACT_BIDS)], rows, right=(0, 1, 2, 3, 4)
        )
    )


def ev_table(table: pd.DataFrame, col: str) -> str:
    """P(make) and EV of each bid by the class column ``col`` (markdown)."""
    rows = []
    for (v,), sub in by_bid(table, [col]).items():
        best = sub["ev"].astype(float)
        top = best.idxmax() if best.notna().any() else None
        rows.append(
            [
                label(v),
                f"{int(sub['n'].iloc[0]):,}",
                *(class_cell(sub.loc[b], "p_make", percent=True) for b in CONTRACT_BIDS),
                *(
                    (
                        ("**" + class_cell(sub.loc[b], "ev") + "**")
                        if b == top
                        else class_cell(sub.loc[b], "ev")
                    )
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


def ev_section(tables: dict[str, pd.DataFrame]) -> str:
    """The P(make) and EV by hand class section (one table per :data:`EV_CLASSES`); the
    full cross of classes (``tables["classes"]``) is named as :data:`CLASSES_CSV`, the file
    the study writes beside report.md."""
    return prose().ev(
        [(CLASS_LABELS[col], ev_table(tables[f"by_{col}"], col)) for col in EV_CLASSES],
        CLASSES_CSV,
        len(tables["classes"]),
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
    for (st,), sub in by_bid(strength, ["strength"]).items():
        n = int(sub["n"].iloc[0])
        if n == 0:
            rows.append([st, 0, "-", "-", "-", "-", "-"])
            continue
        ev = sub["ev"].astype(float)
        rows.append(
            [
                st,
                f"{n:,}",
                class_cell(sub.loc["pass"], "ev"),
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


def threshold_section(
    tables: dict[str, pd.DataFrame],
    derived: Thresholds,
    s: StudySettings,
    held: dict[str, int],
) -> str:
    """The thresholds section; ``held``: ``seed``, ``held_seed``, ``held_n`` (held-out run)."""
    strength = strength_table(tables["strength"])
    comp = tables["threshold_comparison"]
    crow = [
        [
            r["label"],
            estimate_cell(r),
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
    return prose().thresholds(
        strength,
        comparison,
        threshold_text(derived),
        derived.spec(),
        Thresholds(*DEFAULT_THRESHOLDS).spec(),
        command,
        held,
    )


def all_pass_lines(mano: pd.DataFrame) -> list[tuple[str, str, str, int]]:
    """``(metric, cell, method, hands)`` of the first two rows of :func:`.bidding.mano_table`:
    P(the mano's pair wins an all-pass hand) in % and its game points per hand (+-1 each,
    C5.2: ``2 P - 1``, the Wilson bounds mapped alike), which is not a percentage."""
    out = []
    for _, r in mano[mano["bid"] == "pass"].head(2).iterrows():
        share = str(r["metric"]).startswith("P(")
        method = str(r["method"]) if share else f"{r['method']}, 2 P - 1"
        out.append((str(r["metric"]), estimate_cell(r, percent=share), method, int(r["n"])))
    return out


def mano_section(tables: dict[str, pd.DataFrame], trumps: str) -> str:
    """The value of being mano section; ``trumps`` is the rendered dealer-trumps claim."""
    mano = tables["mano"]
    passes = all_pass_lines(mano)
    rows = []
    for (p,), sub in by_bid(tables["by_position"], ["position"]).items():
        rows.append(
            [
                label(p),
                f"{int(sub['n'].iloc[0]):,}",
                *(class_cell(sub.loc[b], "p_make", percent=True) for b in CONTRACT_BIDS),
                *(class_cell(sub.loc[b], "ev") for b in BIDS),
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
            estimate_cell(
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
    return prose().mano(
        passes,
        positions,
        differences,
        solo_by_position_trumps(tables["p_make_by_position_trumps"]),
        trumps,
    )


def solo_by_position_trumps(table: pd.DataFrame) -> str:
    """P(solo) by position within each number of trumps held (markdown); every cell prints
    its hands (``"9.96% [9.62, 10.31], n = 27,573"``), since the cells' sizes differ by two
    orders of magnitude (a non-dealer rarely holds 4 trumps)."""
    solo = table[table["bid"] == "solo"]
    rows = []
    for p in POSITIONS:
        sub = solo[solo["position"] == p].set_index("trumps")
        rows.append(
            [
                label(p),
                *(
                    (
                        f"{class_cell(sub.loc[t], 'p_make', percent=True)}, "
                        f"n = {int(sub.loc[t, 'n']):,}"
                        if int(sub.loc[t, "n"]) > 0
                        else "- (no hands)"
                    )
                    for t in range(1, 5)
                ),
            ]
        )
    return markdown_table(
        ["position", *(f"P(solo), {t} trump{'s' if t > 1 else ''}" for t in range(1, 5))],
        rows,
        right=(1, 2, 3, 4),
    )


def check_counts(check: pd.DataFrame) -> tuple[int, int, list[str], int]:
    """What the check's sentence counts, from the rows of :func:`.bidding.trumps_check`.

    A cell of exact probability 0 (the dealer with 0 trumps, another seat with 5: C1.4) tests
    nothing beyond "never dealt", so it is not counted among the cells whose exact value lies in
    the interval.

    Returns
    -------
    tuple
        ``(inside, possible, impossible, dealt)``: possible cells (exact > 0) with the exact
        value inside the interval, possible cells, names of the impossible cells
        (``"dealer with 0 trumps"``) and hands dealt into them (0 when the deal is right).
    """
    possible = check["exact"].to_numpy(np.float64) > 0.0
    inside = int(check.loc[possible, "within"].astype(bool).sum())
    zero = check[~possible]
    names = [
        f"{r['hand_of']} with {int(r['trumps'])} trump{'' if int(r['trumps']) == 1 else 's'}"
        for _, r in zero.iterrows()
    ]
    return inside, int(possible.sum()), names, int(zero["count"].sum())


def check_section(check: pd.DataFrame, confidence: float = 0.95) -> str:
    """The exact check of trumps held (counts: :func:`check_counts`); ``confidence`` is the
    level of the table's ``wilson`` intervals."""
    rows = [
        [
            r["hand_of"],
            r["trumps"],
            f"{r['exact']:.6f}",
            estimate_cell(r),
            f"{int(r['count']):,} / {int(r['n']):,}",
            "yes" if r["within"] else "**no**",
        ]
        for _, r in check.iterrows()
    ]
    inside, possible, impossible, dealt = check_counts(check)
    return prose().check(
        inside,
        possible,
        impossible,
        dealt,
        confidence,
        markdown_table(
            ["hand of", "trumps", "exact", "simulated [interval]", "count / hands", "exact inside"],
            rows,
            right=(1, 2, 3, 4),
        ),
    )


def methods_section(exp: BiddingExperiment, held: BiddingExperiment, s: StudySettings) -> str:
    """The Methods section: every run (derivation and held-out) and the interval methods."""
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
    return prose().methods(
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


def console_text(
    exp: BiddingExperiment, tables: dict[str, pd.DataFrame], derived: Thresholds
) -> str:
    """The console summary of a run: the bidding table and the derived thresholds."""
    bt = tables["bidding_table"]
    rows = [
        [
            label(r["trumps"]),
            label(r["aces_threes"]),
            f"{int(r['n']):,}",
            r["best"],
            class_cell(r, "ev"),
            class_cell(r, "p_make", percent=True),
            "yes" if r["beats_pass"] else "no",
        ]
        for _, r in bt[bt["n"] > 0].iterrows()
    ]
    return prose().console(
        exp,
        text_table(
            ["trumps", "aces+threes", "hands", "best", "EV", "P(make)", "beats pass"],
            rows,
            right=(0, 1, 2, 4, 5),
        ),
        derived.spec(),
    )
