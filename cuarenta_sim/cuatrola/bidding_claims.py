"""The summary sentences of reports/cuatrola-bidding as claims (issue 18 items 1 and 2).

The value of being mano and the worth of the derived bidding thresholds are
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
) -> list[Claim]:
    """The summary claims: the value of being mano and the derived thresholds' worth.

    Parameters
    ----------
    tables : dict of DataFrame
        The study's tables (``mano``, ``threshold_comparison``).
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

    Returns
    -------
    list of Claim
    """
    scope = Scope(models=(policy,), players=(4,), rules=(rules,))
    mano = tables["mano"].iloc[0]
    comp = tables["threshold_comparison"].set_index("label", drop=False)
    derived = comp.loc["derived"]
    d = comp.loc["derived - first guess"]
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
    out.append(
        Claim(
            id="bidding.thresholds",
            template=(
                "**Thresholds from simulation** (4 players, `{policy}` at every seat, on "
                "`hand_strength`, {lo}..{hi}): {derived} (the package's defaults: {defaults}; "
                "hand-set first guess: {first}). Bidding by the derived thresholds is worth "
                "{worth} game points per hand to the seat's pair (alone in bidding), {gain} "
                "more than the first guess (`paired`, {verdict})."
            ),
            values={
                "policy": policy,
                "lo": STRENGTH_RANGE[0],
                "hi": STRENGTH_RANGE[1],
                "derived": threshold_text(thresholds["derived"]),
                "defaults": threshold_text(thresholds["defaults"]),
                "first": threshold_text(thresholds["first guess"]),
                "worth": cell(derived["estimate"], derived["lower"], derived["upper"]),
                "gain": cell(d["estimate"], d["lower"], d["upper"], bool(d["defined"])),
                "verdict": verdict,
            },
            evidence=(
                _est(derived, "threshold_comparison", "derived", policy, False),
                _est(d, "threshold_comparison", "derived - first guess", policy, False),
                *t_rows,
            ),
            test="paired difference of EV per hand on the same deals",
            verdict=verdict.split(":")[0],
            scope=scope,
            constants={
                "hand_strength minimum": STRENGTH_RANGE[0],
                "hand_strength maximum": STRENGTH_RANGE[1],
            },
            caveats=("thresholds judged on the hands they were derived from",),
        )
    )
    return out
