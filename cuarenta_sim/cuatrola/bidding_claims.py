"""The summary sentences of reports/cuatrola-bidding as claims (issue 18 items 1 and 2).

The value of being mano and the expected value of the derived bidding thresholds (with their
paired gains over never bidding and over the first guess) are
:class:`~cuarenta_sim.studies.claims.Claim` objects whose evidence rows are rows of the
report's tables (``mano``: ``bid``; ``thresholds``: ``derived`` / ``defaults`` /
``first guess``; ``threshold_comparison``: ``label``). Each names the play policy and the
player count it was measured with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ..studies.claims import Claim, Evidence, Scope

#: The range of ``hand_strength`` printed beside the thresholds.
STRENGTH_RANGE = (0, 22)


def _est(row: pd.Series, table: str, rid: str, model: str, pct: bool) -> Evidence:
    values = {
        c: float(row[c])
        for c in ("estimate", "lower", "upper", "n", "p_value")
        if c in row and np.isfinite(float(row[c]))
    }
    k = 100.0 if pct else 1.0
    verdict = str(row["verdict"]) if "verdict" in row and str(row["verdict"]) != "-" else ""
    return Evidence(
        table=table,
        row=rid,
        values=values,
        verdict=verdict,
        model=model,
        scale={c: k for c in ("estimate", "lower", "upper")},
    )


def bidding_claims(
    tables: dict[str, pd.DataFrame],
    thresholds: dict[str, Sequence[int]],
    threshold_text: Callable[[Sequence[int]], str],
    cell: Callable[..., str],
    *,
    policy: str,
    rules: str,
    held: dict[str, int] | None = None,
) -> list[Claim]:
    """The summary claims: the value of being mano and the derived thresholds' expected value
    per hand, with its paired gains over never bidding and over the first guess (an EV is not
    a gain over passing: the sentence says which number is which).

    Parameters
    ----------
    tables : dict of DataFrame
        The study's tables (``mano``, ``threshold_comparison`` with rows ``derived``,
        ``derived - first guess`` and ``derived - never bid``).
    thresholds : dict
        ``derived``, ``defaults``, ``first guess`` -> (solo, cuatrola, quintola).
    threshold_text : callable
        Thresholds -> their text (``"solo 15, cuatrola 18, quintola 22"``).
    cell : callable
        ``cell(estimate, lower, upper, defined, percent=...)`` formatting.
    policy : str
        Play policy of every seat.
    rules : str
        Rules slug.
    held : dict, optional
        ``seed`` (where the thresholds were derived), ``held_seed`` and ``held_n`` (the
        held-out hands per bid they are judged on; methods branch, issue 18 finding 4).

    Returns
    -------
    list of Claim
    """
    scope = Scope(models=(policy,), players=(4,), rules=(rules,))
    mano = tables["mano"].iloc[0]
    comp = tables["threshold_comparison"].set_index("label", drop=False)
    derived = comp.loc["derived"]
    d = comp.loc["derived - first guess"]
    never = comp.loc["derived - never bid"]
    out = [
        Claim(
            id="bidding.mano",
            template=(
                "**Value of being mano** (4 players, `{policy}` at every seat): the mano's pair "
                "wins {cell} of the hands everybody passes (`wilson`); the dealer's pair, which "
                "holds the trump card, wins the rest."
            ),
            values={
                "policy": policy,
                "cell": cell(mano["estimate"], mano["lower"], mano["upper"], percent=True),
            },
            evidence=(_est(mano, "mano", str(mano.get("bid", "pass")), policy, True),),
            test="Wilson interval over hands",
            scope=scope,
        )
    ]
    t_rows = tuple(
        Evidence(
            table="thresholds",
            row=name,
            values={b: float(v) for b, v in zip(("solo", "cuatrola", "quintola"), t, strict=True)},
        )
        for name, t in thresholds.items()
    )
    verdict = str(d["verdict"])
    never_verdict = str(never["verdict"])
    both = {verdict.split(":")[0], never_verdict.split(":")[0]}
    out.append(
        Claim(
            id="bidding.thresholds",
            template=(
                "**Thresholds from simulation** (4 players, `{policy}` at every seat, on "
                "`hand_strength`, {lo}..{hi}): {derived} (the package's defaults: {defaults}; "
                "hand-set first guess: {first}). "
                + (
                    "Judged on {held_n} held-out hands per bid of seed {held_seed} (they were "
                    "derived on seed {seed}), bidding by the derived thresholds has an expected "
                    "value of "
                    if held
                    else "Bidding by the derived thresholds has an expected value of "
                )
                # The EV is not a gain: the gains are the paired differences (cold read).
                # Every number names its interval method, from its row (cold read, round 2).
                + "{worth} game points per hand to the seat's pair (`{worth_method}`; alone in "
                "bidding); its gain over never bidding is {never} (`{never_method}`, "
                "{never_verdict}) and over the first guess {gain} (`{gain_method}`, {verdict})."
            ),
            values={
                "policy": policy,
                "lo": STRENGTH_RANGE[0],
                "hi": STRENGTH_RANGE[1],
                "derived": threshold_text(thresholds["derived"]),
                "defaults": threshold_text(thresholds["defaults"]),
                "first": threshold_text(thresholds["first guess"]),
                "worth": cell(derived["estimate"], derived["lower"], derived["upper"]),
                "worth_method": str(derived["method"]),
                "never_method": str(never["method"]),
                "gain_method": str(d["method"]),
                "gain": cell(d["estimate"], d["lower"], d["upper"], bool(d["defined"])),
                "verdict": verdict,
                "never": cell(
                    never["estimate"], never["lower"], never["upper"], bool(never["defined"])
                ),
                "never_verdict": never_verdict,
                **(
                    {
                        "held_n": f"{int(held['held_n']):,}",
                        "held_seed": int(held["held_seed"]),
                        "seed": int(held["seed"]),
                    }
                    if held
                    else {}
                ),
            },
            evidence=(
                _est(derived, "threshold_comparison", "derived", policy, False),
                _est(d, "threshold_comparison", "derived - first guess", policy, False),
                _est(never, "threshold_comparison", "derived - never bid", policy, False),
                *t_rows,
            ),
            test="paired differences of EV per hand on the same deals, Holm over the table",
            verdict=both.pop() if len(both) == 1 else "mixed",
            scope=scope,
            constants={
                "hand_strength minimum": STRENGTH_RANGE[0],
                "hand_strength maximum": STRENGTH_RANGE[1],
                **(
                    {
                        "seed the thresholds were derived on": int(held["seed"]),
                        "held-out seed they are judged on": int(held["held_seed"]),
                        "held-out hands per bid": int(held["held_n"]),
                    }
                    if held
                    else {}
                ),
            },
            caveats=(
                ("thresholds judged on a held-out seed, not the hands they were derived from",)
                if held
                else ("thresholds judged on the hands they were derived from",)
            ),
        )
    )
    return out


def dealer_trumps_claim(
    diff: pd.DataFrame, cell: Callable[..., str], *, policy: str, rules: str
) -> Claim:
    """How many more trumps the dealer holds than another seat, every number from a row of
    :func:`cuarenta_sim.cuatrola.bidding_checks.trumps_difference` (table
    ``trumps_difference``, row ``hand_of``); the sentence of the value-of-mano section.

    Parameters
    ----------
    diff : DataFrame
        The ``trumps_difference`` table.
    cell : callable
        ``cell(estimate, lower, upper, defined)`` formatting.
    policy, rules : str
        The study's play policy and rules (the deal does not depend on the play, but the
        hands were dealt in its runs).

    Returns
    -------
    Claim
    """
    rows = diff.set_index("hand_of", drop=False)

    def ev(key: str) -> Evidence:
        r = rows.loc[key]
        values = {
            c: float(r[c])
            for c in ("estimate", "lower", "upper", "n", "exact")
            if np.isfinite(float(r[c]))
        }
        return Evidence(table="trumps_difference", row=key, values=values, model=policy)

    d, dl, nd = rows.loc["dealer - non-dealer"], rows.loc["dealer"], rows.loc["non-dealer"]
    return Claim(
        id="bidding.dealer_trumps",
        template=(
            "Part of a position's value is its cards (4 players): the dealer keeps the trump card "
            "(C1.4), which is one of the trumps the other seats no longer share, so it holds "
            "{d} trumps more on average than another seat (`welch` over {n:,} and {m:,} hands "
            "dealt in the `{policy}` runs: {dm} against {om} trumps per hand; exact "
            "{exact:.3f})."
        ),
        values={
            "d": cell(d["estimate"], d["lower"], d["upper"], True),
            "n": int(dl["n"]),
            "m": int(nd["n"]),
            "policy": policy,
            "dm": f"{float(dl['estimate']):.3f}",
            "om": f"{float(nd['estimate']):.3f}",
            "exact": float(d["exact"]),
        },
        evidence=(ev("dealer - non-dealer"), ev("dealer"), ev("non-dealer")),
        test="Welch interval of the difference of means over hands (different hands, unpaired)",
        scope=Scope(models=(policy,), players=(4,), rules=(rules,)),
        caveats=("the deal alone decides the trumps held; the play policy does not enter",),
    )
