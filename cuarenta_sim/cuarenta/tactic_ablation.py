"""Folk tactics by ablation, both ways: the ``learned`` player without each tactic's weight.

The dose sweep of :mod:`cuarenta_sim.cuarenta.tactics` pushes a tactic's weight *further* from
the value ``learned`` was tuned to; since ``learned_v2`` was tuned on all its weights, the
tactic weights included (:data:`TUNING`), pushing any weight away from a tuned optimum is
expected to hurt, whatever the tactic is worth. Ablation asks the question the other way:

* **removed**: the tactic's feature weight set to 0 in the model of every player count;
* **reversed**: the weight with the opposite sign (the same size, the other direction);

each played against the unchanged ``learned`` on the same decks (duplicate chicas,
:func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`), tested like the dose rows
(:func:`cuarenta_sim.cuarenta.tactics.pair_test`: McNemar on the discordant pairs) and
Holm-adjusted over the family of every (tactic, arm) row
(:func:`cuarenta_sim.cuarenta.tactics.family_verdicts`).

The **tactic's verdict** (:func:`tactic_verdicts`) reads **both** arms: removing or reversing
a weight that leans towards the tactic (``own_weight > 0``) moves the player away from it, so
an arm that resolves as hurting says the tactic **helps**, and as helping says it **hurts**;
for a weight that leans against the tactic (``own_weight < 0``) the reading flips. The
resolved arms decide (and the sentence says which arm resolved); with none resolved the
tactic makes **no difference** only when both arms lie within the practical margin. A tactic whose
rows (removed, reversed and every dose) have 0 discordant pairs changed no result:
**never binds** (no duplicate pair's result changed), which is not the same statement as
"makes no difference". Two more verdicts keep the sentence from outrunning its rows:

* **mixed**: the resolved evidence disagrees on the tactic's direction: the two arms, or an
  arm and the tuned heuristic's switch of the same tactic (on against off,
  :func:`cuarenta_sim.cuarenta.strategy_play.tactic_experiments`; passed as ``switches``). The
  switch never decides a verdict alone (the tuner chose the heuristic's weights, so it partly
  restates its tuning), but it keeps a one-arm "helps" from being counted as such. The dose
  sweep does not enter: it pushes past the tuned weight, which hurts by construction.
* **barely weighted**: both arms within the margin, but ``learned`` gives the tactic less than
  :data:`BARELY_WEIGHTED_POINTS` points, so removing or reversing it changes almost nothing
  and the ablation cannot tell what the tactic is worth (not "no difference").
:func:`solver_check` replays one verdict against ``solver``, an opponent ``learned`` was not
tuned on.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .. import stats
from .policies.learned import DEFAULT_WEIGHTS
from .tactics import (
    LEARNED_TACTICS,
    NO_PAIR_CHANGED,
    LearnedTactic,
    check_chicas,
    family_verdicts,
    paired_match,
)

#: Ablation arms: name and the factor the tactic's feature weight is multiplied by.
ABLATIONS: tuple[tuple[str, float], ...] = (("removed", 0.0), ("reversed", -1.0))


#: What the shipped ``learned_v2`` was tuned on (from its weights' provenance and
#: ``benchmarks/tune_learned.py``), disclosed wherever its results appear.
def tuning_seeds(base: str = DEFAULT_WEIGHTS, players: int = 2) -> str:
    """The seeds of every evolution-strategies run behind ``base``'s ``players`` model, oldest
    first, read from the weights' provenance (each run's ``start`` chain), e.g. ``"2 runs:
    iteration seeds 12..181 (170 iterations, run seed 11), then 501..530 (30 iterations, run
    seed 500)"``: explicit inclusive ranges, never a bare pair of numbers.

    Raises
    ------
    ValueError
        Weights that do not load, or no tuning run recorded for ``players`` (R2.1: 2 or 4).
    """
    from .policies.learned import load_weights

    runs = []
    record: object = load_weights(base).provenance
    while isinstance(record, dict):
        tuning = record.get("models", {}).get(str(players), {}).get("tuning")
        if isinstance(tuning, dict) and "iteration_seeds" in tuning:
            lo, hi = (int(x) for x in tuning["iteration_seeds"])
            run = (
                f"{lo}..{hi} ({int(tuning['iterations'])} iterations, run seed "
                f"{int(tuning['seed'])})"
            )
            if run not in runs:  # a later run that kept this model copies its record
                runs.append(run)
        start = record.get("start")
        record = start.get("provenance") if isinstance(start, dict) else None
    if not runs:
        raise ValueError(f"weights {base!r} record no tuning run for {players} players (R2.1)")
    runs.reverse()
    head = f"{len(runs)} runs: iteration seeds " if len(runs) > 1 else "iteration seeds "
    return head + ", then ".join(runs)


TUNING = (
    "`learned` (weights `learned_v2`) was fitted by imitation of `pimc`, then tuned by "
    "evolution strategies on its duplicate chica win rate against `heuristic` (Quito, 2 "
    f"players; {tuning_seeds()}; the tuning run picked on seeds 555, 777 and 999), on all "
    "its weights, the tactic weights included"
)
#: What the tuned ``heuristic`` was tuned on (``benchmarks/tune_heuristic.py``).
HEURISTIC_TUNING = (
    "the `heuristic` defaults were tuned by coordinate search, one weight at a time, each "
    "candidate against the current best in duplicate chicas (Quito, 2 players), kept when its "
    "win rate's 95% Wilson lower bound was above 50% (`benchmarks/tune_heuristic.py`)"
)
#: Below this own weight (points, either sign) the player barely weights a tactic: removing
#: it moves the weight by under 0.05 points, a fifth of the smallest dose of the sweep, so an
#: ablation within the margin says nothing of the tactic (verdict "barely weighted").
BARELY_WEIGHTED_POINTS = 0.05
#: Opponent of :func:`solver_check` and its default size (duplicate pairs per arm).
CHECK_OPPONENT = "solver"
CHECK_PAIRS = 500


def own_weights(base: str, players: int) -> dict[str, float]:
    """Each tactic's weight in the ``players`` model of ``base``, in points and in the
    tactic's direction (positive: the model already leans towards the tactic).

    Raises
    ------
    ValueError
        Weights that do not load, or a player count without a model (R2.1: 2 or 4).
    """
    from .engine.learned import FEATURE_NAMES
    from .policies.learned import load_weights

    if players not in (2, 4):
        raise ValueError(f"players must be 2 or 4 (R2.1), got {players!r}")
    w = load_weights(base).weights
    row = 0 if players == 2 else 1
    pts = abs(float(w[row, FEATURE_NAMES.index("points")]))
    return {
        t.tactic: t.sign * float(w[row, FEATURE_NAMES.index(t.feature)]) / pts
        for t in LEARNED_TACTICS
    }


def ablated_weights(base: str, tactic: LearnedTactic, factor: float) -> np.ndarray:
    """The weights of ``base`` with ``tactic``'s feature weight multiplied by ``factor``.

    Parameters
    ----------
    base : str
        ``weights=`` value (``learned_v2``, ``learned_v1`` or a path).
    tactic : LearnedTactic
    factor : float
        0 removes the weight, -1 reverses it (every player count's model).

    Returns
    -------
    ndarray of int64, shape (2, N_FEATURES)
    """
    from .engine.learned import FEATURE_NAMES
    from .policies.learned import load_weights

    w = load_weights(base).weights.astype(np.int64).copy()
    j = FEATURE_NAMES.index(tactic.feature)
    w[:, j] = np.round(w[:, j] * factor).astype(np.int64)
    return w


def write_ablation(directory: Path, base: str, tactic: LearnedTactic, arm: str) -> str:
    """Write the ``arm`` (:data:`ABLATIONS`) weights of ``tactic`` and return the spec
    ``learned(weights=PATH)`` that plays them.

    Raises
    ------
    ValueError
        An unknown arm.
    """
    from .policies.learned import load_weights, save_weights

    factors = dict(ABLATIONS)
    if arm not in factors:
        raise ValueError(f"unknown ablation arm {arm!r}; known: {', '.join(factors)}")
    path = directory / f"{tactic.tactic}_{arm}.npz"
    record = dict(load_weights(base).provenance)
    record["deviation"] = {
        "base": base,
        "tactic": tactic.tactic,
        "feature": tactic.feature,
        "ablation": arm,
        "factor": factors[arm],
    }
    save_weights(path, ablated_weights(base, tactic, factors[arm]), record)
    return f"learned(weights={path})"


def learned_ablations(
    *,
    rules: str = "quito",
    players: int = 2,
    chicas: int = 10_000,
    seed: int = 0,
    tactics: Sequence[LearnedTactic] = LEARNED_TACTICS,
    base: str = DEFAULT_WEIGHTS,
    confidence: float = 0.95,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Every tactic removed and reversed, each against the unchanged ``learned``.

    Parameters
    ----------
    rules, players, seed, confidence, threads
        As :func:`cuarenta_sim.cuarenta.tactics.learned_tactics` (same decks for every row).
    chicas : int
        Chicas per row, even (``chicas / 2`` duplicate pairs).
    tactics : sequence of LearnedTactic
    base : str
        ``weights=`` value of the unchanged player.
    progress : callable, optional
        One line per match.

    Returns
    -------
    DataFrame
        One row per (tactic, arm): ``tactic``, ``feature``, ``arm``, ``factor``,
        ``own_weight`` (points, the tactic's direction, :func:`own_weights`), the
        :func:`cuarenta_sim.tournament.match_summary` and
        :func:`cuarenta_sim.cuarenta.tactics.pair_test` columns (``effect``: win rate of the
        ablated player minus 50%, fraction; ``effect_lower`` / ``effect_upper`` marginal) and
        ``verdict`` / ``p_adjusted`` / ``test_level`` (Holm over every row) with
        ``effect_lower_adj`` / ``effect_upper_adj``, the interval at the level Holm tested the
        row (it excludes 0 exactly when the row is resolved).

    Raises
    ------
    ValueError
        Odd or too small ``chicas``, unknown rules or weights.
    """
    check_chicas(chicas)
    own = own_weights(base, players)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cuarenta-ablation-") as tmp:
        for tactic in tactics:
            for arm, factor in ABLATIONS:
                t0 = time.perf_counter()
                spec = write_ablation(Path(tmp), base, tactic, arm)
                match = paired_match(
                    spec,
                    f"learned(weights={base})",
                    rules=rules,
                    players=players,
                    chicas=chicas,
                    seed=seed,
                    confidence=confidence,
                    threads=threads,
                )
                rows.append(
                    {
                        "tactic": tactic.tactic,
                        "feature": tactic.feature,
                        "arm": arm,
                        "factor": factor,
                        "own_weight": own[tactic.tactic],
                        **match,
                    }
                )
                if progress is not None:
                    r = rows[-1]
                    progress(
                        f"learned, {tactic.tactic} {arm}: win rate {100 * r['win_rate']:.2f}% "
                        f"[{100 * r['lower']:.2f}, {100 * r['upper']:.2f}], "
                        f"{r['discordant']:,} discordant pairs "
                        f"({time.perf_counter() - t0:.1f} s)"
                    )
    frame = pd.DataFrame(rows)
    fam = family_verdicts(frame, confidence=confidence)
    for c in ("verdict", "p_adjusted", "test_level", "effect_lower_adj", "effect_upper_adj"):
        frame[c] = fam[c]
    return frame


def arm_word(verdict: str) -> str:
    """The verdict word of one ablation or dose row, without its discordant-pair count:
    ``"resolved"`` (the row's ``helps`` / ``hurts``: the ablated player wins or loses),
    ``"no difference"``, ``"not resolved"`` or :data:`NO_PAIR_CHANGED`."""
    v = str(verdict).split(" (")[0]
    return "resolved" if v in ("helps", "hurts") else v


def _direction(row: pd.Series, own: float) -> str | None:
    """What a resolved arm says of the tactic: both arms move the weight away from ``own``'s
    sign (removal by ``-own``, reversal by ``-2 own``), so an arm whose ablated player loses
    (effect < 0) says leaning the tuned way is right: the tactic helps when ``own > 0``."""
    if str(row["verdict"]) not in ("helps", "hurts") or own == 0.0:
        return None
    return "helps" if (row["effect"] < 0) == (own > 0) else "hurts"


def arm_direction(row: pd.Series, arm: str) -> str | None:
    """What one arm (``"removal"`` or ``"reversal"``) of a :func:`tactic_verdicts` row says of
    the tactic: ``"helps"`` / ``"hurts"`` when the arm resolved (:func:`_direction`), else
    None."""
    if f"{arm}_verdict" not in row or not isinstance(row[f"{arm}_verdict"], str):
        return None
    probe = pd.Series(
        {"verdict": row[f"{arm}_verdict"].split(" (")[0], "effect": row[f"{arm}_effect"]}
    )
    return _direction(probe, float(row["own_weight"]))


def _tuned_side(switch: pd.Series) -> str:
    """What the tuned heuristic's switch row is expected to say **by construction**: the
    tuner chose the heuristic's default weight, so the arm at the tuned value is expected to
    win. A tactic the tuner switched off (``tuned_weight`` 0) is expected to "hurt" when
    switched on; one it kept on is expected to "help". ``""`` when the row does not say
    which weight the tuner chose (no ``tuned_weight`` column)."""
    tuned = switch.get("tuned_weight") if hasattr(switch, "get") else None
    if tuned is None or not np.isfinite(float(tuned)):
        return ""
    return "hurts" if float(tuned) == 0.0 else "helps"


def _first_hurting_dose(doses: pd.DataFrame | None, tactic: str) -> dict[str, object]:
    """The smallest dose of ``tactic`` whose row resolves as hurting the dosed player (Holm
    over the tactic's doses): ``dose_hurts_label``, ``dose_hurts_effect`` / ``_lower`` /
    ``_upper`` (fraction); ``{}`` when no dose row hurts or no dose table has the columns."""
    need = {"tactic", "dose", "dose_label", "dose_verdict", "dose_lower_adj", "dose_upper_adj"}
    if doses is None or doses.empty or not need <= set(doses.columns):
        return {}
    rows = doses[(doses["tactic"] == tactic) & doses["dose_verdict"].astype(str).eq("hurts")]
    if rows.empty:
        return {}
    r = rows.sort_values("dose").iloc[0]
    return {
        "dose_hurts_label": str(r["dose_label"]),
        "dose_hurts_effect": float(r["effect"]),
        "dose_hurts_lower": float(r["dose_lower_adj"]),
        "dose_hurts_upper": float(r["dose_upper_adj"]),
    }


def larger_lean_hurts(row: pd.Series) -> bool:
    """Whether a ``"helps"`` tactic's dose sweep shows a larger dose of the same lean resolving
    as hurting (``dose_hurts_label``). The dose sweep never sets a verdict (module docstring);
    this only adds the note, to every such tactic alike, so that "helps" does not read as
    "the more the better"."""
    label = row.get("dose_hurts_label")
    return str(row.get("verdict")) == "helps" and isinstance(label, str) and label != ""


def tactic_verdicts(
    ablation: pd.DataFrame,
    doses: pd.DataFrame | None = None,
    switches: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One verdict per tactic from **both** arms, removed and reversed (module docstring).

    A tactic with 0 discordant pairs in every row (both arms and every dose) ``"never
    binds"``. Otherwise each resolved arm says ``"helps"`` or ``"hurts"`` (:func:`_direction`);
    when the resolved arms agree, and the tuned heuristic's switch of the tactic (if given)
    did not resolve the other way, that is the verdict, whichever arm resolved (the table
    says which); when they disagree it is ``"mixed"``. With no arm resolved: ``"barely
    weighted"`` when both arms lie within the practical margin and the own weight is below
    :data:`BARELY_WEIGHTED_POINTS`, ``"no difference"`` when they lie within it otherwise,
    else ``"not resolved"``.

    Parameters
    ----------
    ablation : DataFrame
        :func:`learned_ablations` output.
    doses : DataFrame, optional
        :func:`cuarenta_sim.cuarenta.tactics.learned_tactics` output; its rows count towards
        "never binds" (a tactic binds when any of its rows has a discordant pair).
    switches : DataFrame, optional
        :func:`cuarenta_sim.cuarenta.strategy_play.tactic_experiments` output (the tuned
        heuristic with the tactic on against off: ``tactic``, ``effect``,
        ``effect_lower_adj``, ``effect_upper_adj``, ``verdict``, ``tuned_weight``); a resolved
        switch that says the other way from the resolved arms makes the verdict ``"mixed"``,
        unless it only says what the tuner's choice predicts by construction
        (:func:`_tuned_side`: a weight tuned to 0 "hurts" when switched on, a weight tuned
        on "helps"), which is recorded as ``switch_expected`` and never counts.

    Returns
    -------
    DataFrame
        One row per tactic: ``tactic``, ``own_weight``, for each arm ``removal_*`` /
        ``reversal_*``: ``effect``, ``lower``, ``upper`` (the ablated player's win rate minus
        50%, the interval at the level Holm tested the row: it excludes 0 exactly when
        resolved), ``verdict`` (the row's Holm verdict), ``word`` (:func:`arm_word`),
        ``discordant``; ``pairs``, ``discordant`` (over every row of the tactic),
        ``shown_by`` (the arms that resolved, ``"removal"``, ``"reversal"``, ``"both"`` or
        ``""``), with ``switches`` the switch's ``switch_effect`` / ``switch_lower`` /
        ``switch_upper`` / ``switch_verdict`` / ``switch_says`` (``"helps"``, ``"hurts"`` or
        ``""``) / ``switch_expected`` (True when ``switch_says`` is what the tuning predicts,
        so it does not count), and ``verdict``: ``"helps"``, ``"hurts"``, ``"mixed"``,
        ``"never binds"``, ``"barely weighted"``, ``"no difference"`` or ``"not resolved"``.
    """
    out = []
    for tactic, rows in ablation.groupby("tactic", sort=False):
        arms = {str(r["arm"]): r for _, r in rows.iterrows()}
        removed, reversed_ = arms["removed"], arms.get("reversed")
        discordant = int(rows["discordant"].sum())
        if doses is not None and not doses.empty:
            discordant += int(doses.loc[doses["tactic"] == tactic, "discordant"].sum())
        own = float(removed["own_weight"])
        named = (("removal", removed), ("reversal", reversed_))
        said = {name: _direction(r, own) for name, r in named if r is not None}
        resolved = {k: v for k, v in said.items() if v is not None}
        words = [arm_word(r["verdict"]) for _, r in named if r is not None]
        switch = None
        if switches is not None and not switches.empty:
            hit = switches[switches["tactic"] == tactic]
            switch = hit.iloc[0] if not hit.empty else None
        switch_says = ""
        switch_expected = False
        if switch is not None:
            base = str(switch["verdict"]).split(" (")[0]
            switch_says = base if base in ("helps", "hurts") else ""
            switch_expected = switch_says != "" and switch_says == _tuned_side(switch)
        within = all(w in ("no difference", NO_PAIR_CHANGED) for w in words)
        if discordant == 0:
            verdict = "never binds"
        elif (
            resolved
            and len(
                {
                    *resolved.values(),
                    *([switch_says] if switch_says and not switch_expected else []),
                }
            )
            > 1
        ):
            verdict = "mixed"
        elif resolved:
            verdict = next(iter(resolved.values()))
        elif within and abs(own) < BARELY_WEIGHTED_POINTS:
            verdict = "barely weighted"
        elif within:
            verdict = "no difference"
        else:
            verdict = "not resolved"
        row: dict[str, object] = {"tactic": tactic, "own_weight": own}
        for name, r in named:
            if r is None:
                continue
            row |= {
                f"{name}_effect": float(r["effect"]),
                f"{name}_lower": float(r["effect_lower_adj"]),
                f"{name}_upper": float(r["effect_upper_adj"]),
                f"{name}_verdict": str(r["verdict"]),
                f"{name}_word": arm_word(r["verdict"]),
                f"{name}_discordant": int(r["discordant"]),
            }
        if switch is not None:
            row |= {
                "switch_effect": float(switch["effect"]),
                "switch_lower": float(switch["effect_lower_adj"]),
                "switch_upper": float(switch["effect_upper_adj"]),
                "switch_verdict": str(switch["verdict"]),
                "switch_says": switch_says,
                "switch_expected": switch_expected,
            }
        row |= _first_hurting_dose(doses, str(tactic))
        row |= {
            "pairs": int(removed["pairs"]),
            "discordant": discordant,
            "shown_by": "both" if len(resolved) == 2 else next(iter(resolved), ""),
            "verdict": verdict,
        }
        out.append(row)
    return pd.DataFrame(out)


def check_verdict(estimate: float, lower: float, upper: float, self_effect: float) -> str:
    """Verdict of one :func:`solver_check` arm against the same arm's self-play effect.

    ``"agrees"`` / ``"disagrees"``: the interval excludes 0, same / other sign as
    ``self_effect``; ``"too small to tell"``: it holds both 0 and ``self_effect`` (it cannot
    tell them apart); ``"no effect seen"``: it holds 0 but excludes ``self_effect``. An
    undefined interval (NaN: no pair's share differed on a handful of pairs) is ``"too small
    to tell"``, never "no effect seen".
    """
    if not (np.isfinite(lower) and np.isfinite(upper)):
        return "too small to tell"
    if lower > 0 or upper < 0:
        return "agrees" if (estimate > 0) == (self_effect > 0) else "disagrees"
    if lower <= self_effect <= upper:
        return "too small to tell"
    return "no effect seen"


def solver_check(
    ablation: pd.DataFrame,
    verdicts: pd.DataFrame,
    *,
    rules: str = "quito",
    players: int = 2,
    pairs: int = CHECK_PAIRS,
    seed: int = 0,
    base: str = DEFAULT_WEIGHTS,
    opponent: str = CHECK_OPPONENT,
    confidence: float = 0.95,
    threads: int | None = None,
) -> pd.DataFrame:
    """Replay one tactic's ablation against an opponent ``learned`` was not tuned on.

    The tactic checked is the one whose removal moved the win rate most (among ``helps`` /
    ``hurts`` verdicts; else the largest removal effect). The unchanged player and each
    ablated one (removed, reversed) play ``opponent`` on the same ``pairs`` duplicate pairs
    (same seed, same decks); an arm's effect is the paired difference of the per-pair win
    shares, ablated minus unchanged (:func:`cuarenta_sim.stats.diff_paired`, t or normal
    interval). Each arm's verdict compares it with the same arm against ``learned``
    (``self_effect``): ``"agrees"`` (resolved, same sign), ``"disagrees"`` (resolved, other
    sign), ``"too small to tell"`` (the interval contains both 0 and the self-play effect) or
    ``"no effect seen"`` (it contains 0 but excludes the self-play effect).

    Parameters
    ----------
    ablation : DataFrame
        :func:`learned_ablations` output (the self-play effects).
    verdicts : DataFrame
        :func:`tactic_verdicts` output (which tactic to check).
    pairs : int
        Duplicate pairs per match (>= 2); three matches are played.
    rules, players, seed, base, opponent, confidence, threads
        As :func:`learned_ablations`; ``opponent`` is a policy spec.

    Returns
    -------
    DataFrame
        One row per arm: ``tactic``, ``arm``, ``opponent``, ``pairs``, ``plain`` / ``ablated``
        (win rates against the opponent), ``effect`` / ``lower`` / ``upper`` / ``p_value``
        (fraction), ``self_effect``, ``self_verdict``, ``verdict``, ``seconds`` (all three
        matches).

    Raises
    ------
    ValueError
        No tactic to check, ``pairs`` < 2.
    """
    from .duplicate import play_duplicate

    if pairs < 2:
        raise ValueError(f"pairs must be >= 2, got {pairs!r}")
    if verdicts.empty:
        raise ValueError("no tactic verdicts to check")
    strong = verdicts[verdicts["verdict"].isin(("helps", "hurts"))]
    pool = strong if not strong.empty else verdicts
    chosen = pool.loc[pool["removal_effect"].abs().idxmax(), "tactic"]
    tactic = next(t for t in LEARNED_TACTICS if t.tactic == chosen)
    t0 = time.perf_counter()

    def share(a: str) -> np.ndarray:
        m = play_duplicate(
            a,
            opponent,
            rules=rules,
            players=players,
            level="chica",
            n=pairs,
            seed=seed,
            threads=threads,
        )
        return m["a_wins"].to_numpy(np.float64) / m["games"].to_numpy(np.float64)

    plain = share(f"learned(weights={base})")
    rows = []
    with tempfile.TemporaryDirectory(prefix="cuarenta-check-") as tmp:
        for arm, _ in ABLATIONS:
            ablated = share(write_ablation(Path(tmp), base, tactic, arm))
            d = stats.diff_paired(f"{arm} - plain", ablated, plain, confidence, binary=False)
            own = ablation[(ablation["tactic"] == tactic.tactic) & (ablation["arm"] == arm)]
            self_effect = float(own["effect"].iloc[0])
            verdict = check_verdict(d["estimate"], d["lower"], d["upper"], self_effect)
            rows.append(
                {
                    "tactic": tactic.tactic,
                    "arm": arm,
                    "opponent": opponent,
                    "pairs": pairs,
                    "plain": float(plain.mean()),
                    "ablated": float(ablated.mean()),
                    "effect": float(d["estimate"]),
                    "lower": float(d["lower"]),
                    "upper": float(d["upper"]),
                    "p_value": float(d["p_value"]),
                    "self_effect": self_effect,
                    "self_verdict": str(own["verdict"].iloc[0]),
                    "verdict": verdict,
                }
            )
    out = pd.DataFrame(rows)
    out["seconds"] = time.perf_counter() - t0
    return out
