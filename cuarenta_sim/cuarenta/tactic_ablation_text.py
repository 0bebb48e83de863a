"""Text of the folk-tactic ablation (split from :mod:`cuarenta_sim.cuarenta.tactic_ablation`):
the ablation and solver-check table rows and the answer sentence, each built from the
:func:`cuarenta_sim.cuarenta.tactic_ablation.tactic_verdicts` rows it states, so a "mixed"
tactic names the evidence that disagrees (:func:`mixed_sources`) rather than a fixed phrase.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .tactic_ablation import arm_direction, larger_lean_hurts


# --------------------------------------------------------------------------- presentation
def _pp(est: float, lo: float, hi: float) -> str:
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{100 * est:+.2f} (no interval)"
    return f"{100 * est:+.2f} [{100 * lo:+.2f}, {100 * hi:+.2f}]"


#: Headers of :func:`ablation_rows`.
ABLATION_HEADERS = (
    "tactic",
    "own weight (points)",
    "arm",
    "chicas",
    "win rate change (percentage points) [interval at the Holm level]",
    "disc.",
    "verdict (Holm over the table)",
)


def ablation_rows(ablation: pd.DataFrame, labels: dict[str, str]) -> list[list[str]]:
    """Rows of the ablation table: tactic label, own weight, arm, chicas, the ablated player's
    win rate minus 50% in percentage points [interval], discordant pairs, verdict."""
    return [
        [
            labels.get(r["tactic"], r["tactic"]),
            f"{r['own_weight']:+.2f}",
            f"{r['arm']} ({r['factor']:g} x)",
            f"{int(r['games']):,}",
            _pp(r["effect"], r["effect_lower_adj"], r["effect_upper_adj"]),
            f"{int(r['discordant']):,}",
            r["verdict"],
        ]
        for _, r in ablation.iterrows()
    ]


#: Headers of :func:`check_rows`.
CHECK_HEADERS = (
    "tactic",
    "arm",
    "opponent",
    "duplicate pairs",
    "unchanged wins",
    "ablated wins",
    "ablated - unchanged (percentage points)",
    "same arm vs learned",
    "verdict",
)


def check_rows(check: pd.DataFrame, labels: dict[str, str]) -> list[list[str]]:
    """Rows of the :func:`solver_check` table."""
    return [
        [
            labels.get(r["tactic"], r["tactic"]),
            r["arm"],
            f"`{r['opponent']}`",
            f"{int(r['pairs']):,}",
            f"{100 * r['plain']:.1f}%",
            f"{100 * r['ablated']:.1f}%",
            _pp(r["effect"], r["lower"], r["upper"]),
            f"{100 * r['self_effect']:+.2f}",
            r["verdict"],
        ]
        for _, r in check.iterrows()
    ]


def switch_counts(row: pd.Series) -> bool:
    """Whether the tuned heuristic's switch enters a :func:`tactic_verdicts` row's verdict:
    it resolved and says more than its tuning predicts (not ``switch_expected``)."""
    says = row.get("switch_says")
    expected = row.get("switch_expected")
    return (
        isinstance(says, str)
        and says != ""
        and not (isinstance(expected, bool | np.bool_) and bool(expected))
    )


def mixed_sources(row: pd.Series) -> str:
    """The evidence that disagrees on a ``"mixed"`` :func:`tactic_verdicts` row, named from
    the row itself: the resolved arms and the counted switch (:func:`switch_counts`), e.g.
    ``"the reversal arm and the tuned-heuristic switch"`` or ``"the removal and reversal
    arms"``; never "the arms" when only one arm resolved.

    Raises
    ------
    ValueError
        A row with fewer than two resolved sources (it cannot be mixed).
    """
    said = [a for a in ("removal", "reversal") if arm_direction(row, a) is not None]
    names = [f"the {a} arm" for a in said]
    if len(said) == 2:
        names = ["the removal and reversal arms"]
    if switch_counts(row):
        names.append("the tuned-heuristic switch")
    if len(said) + int(switch_counts(row)) < 2:
        raise ValueError(
            f"tactic {row.get('tactic')!r} has fewer than two resolved sources; a mixed "
            "verdict needs two that disagree"
        )
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def headline(verdicts: pd.DataFrame, labels: dict[str, str], players: int) -> str:
    """The answer sentence on the folk tactics, resting on both ablation arms.

    Each group names its tactics with each arm's effect and the arm's own word (resolved, no
    difference, not resolved), so the sentence says which arm shows what; a ``"mixed"``
    tactic first names the evidence that disagrees (:func:`mixed_sources`, from the row),
    then what each resolved arm says of it and the tuned heuristic's switch when it counts
    (:func:`switch_counts`; a mixed tactic is never counted among those that help or hurt);
    a ``"barely weighted"`` tactic gives its own weight and says the ablation cannot tell;
    "never binds" tactics say that no duplicate pair's result changed anywhere; the tuning of
    ``learned`` is stated in the sentence.
    """
    parts = []
    groups = (
        ("helps", "help", "helps"),
        ("hurts", "hurt", "hurts"),
        (
            "mixed",
            "have mixed evidence",
            "has mixed evidence",
        ),
        ("no difference", "make no difference", "makes no difference"),
        (
            "barely weighted",
            "are barely weighted by `learned`, so removing or reversing them cannot tell "
            "what they are worth",
            "is barely weighted by `learned`, so removing or reversing it cannot tell what "
            "it is worth",
        ),
        ("not resolved", "are not resolved", "is not resolved"),
        ("never binds", "never bind", "never binds"),
    )

    def arms(r: pd.Series, mixed: bool) -> str:
        out = []
        for name in ("removal", "reversal"):
            if f"{name}_effect" in r and np.isfinite(r[f"{name}_effect"]):
                pp = _pp(r[f"{name}_effect"], r[f"{name}_lower"], r[f"{name}_upper"])
                text = f"{name} {pp} pp, {r[f'{name}_word']}"
                said = arm_direction(r, name)
                if mixed and said is not None:
                    text += f", so the tactic {said}"
                out.append(text)
        if mixed and switch_counts(r):
            pp = _pp(r["switch_effect"], r["switch_lower"], r["switch_upper"])
            out.append(f"tuned-heuristic switch {pp} pp, the tactic {r['switch_says']}")
        return "; ".join(out)

    def item(r: pd.Series, word: str) -> str:
        name = labels.get(r["tactic"], r["tactic"])
        if word == "never binds":
            return f"{name} (no duplicate pair's result changed, removed, reversed or at any dose)"
        if word == "barely weighted":
            return f"{name} (own weight {r['own_weight']:+.2f} points; {arms(r, False)})"
        if word == "mixed":
            return f"{name} ({mixed_sources(r)} disagree: {arms(r, True)})"
        if word == "helps" and larger_lean_hurts(r):
            pp = _pp(r["dose_hurts_effect"], r["dose_hurts_lower"], r["dose_hurts_upper"])
            return (
                f"{name} ({arms(r, False)}; the dose sweep, which sets no verdict, shows a "
                f"larger lean hurting: adding {r['dose_hurts_label']} to its "
                f"{r['own_weight']:+.2f}-point weight, {pp} pp, resolved)"
            )
        return f"{name} ({arms(r, False)})"

    for word, plural, singular in groups:
        rows = verdicts[verdicts["verdict"] == word]
        if not rows.empty:
            items = [item(r, word) for _, r in rows.iterrows()]
            say = singular if len(items) == 1 else plural
            parts.append(f"{len(items)} {say}: {', '.join(items)}")
    n = int(verdicts["pairs"].iloc[0]) if not verdicts.empty else 0
    return (
        f"Removing each folk tactic's weight from `learned` and reversing it ({players} "
        f"players, {n:,} duplicate pairs per arm against the unchanged player; an arm that "
        "leaves the ablated player losing says the tuned lean is right), of the "
        f"{len(verdicts)} tactics "
        + "; ".join(parts)
        + " (each tactic's verdict reads both arms; Holm over the ablation table; "
        # The definition names a verdict word: stated only where a row carries it.
        + (
            "no difference = the interval within 1 percentage point; "
            if (verdicts["verdict"].isin(("no difference", "barely weighted"))).any()
            else ""
        )
        + "`learned` was tuned against `heuristic` on all its weights, so pushing a weight "
        "further, the dose sweep, is not the test: it sets no verdict, and where it shows a "
        "larger lean hurting the tactic's item says so)."
    )
