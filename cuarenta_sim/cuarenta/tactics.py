"""Folk tactics as forced deviations of the ``learned`` player, with a dose-response sweep.

Each folk tactic of :data:`cuarenta_sim.cuarenta.strategy_play.TACTICS` is one of the integer
features the ``learned`` policy already scores (:mod:`cuarenta_sim.cuarenta.engine.learned`,
features 7-11: ``pair``, ``ace``, ``run_start``, ``keep``, ``known``). A **dose** ``d`` (in
points) of a tactic adds ``d`` times the model's own weight of one point now (feature 0,
``points``) to that feature's weight, in the tactic's direction (+ for "trail one of a pair",
- for the four "do not" tactics), in the model of each player count. The deviated player is
``learned(weights=FILE)`` with the shifted weights written to a ``.npz`` file
(:func:`cuarenta_sim.cuarenta.policies.learned.save_weights`): the same kernel and the same
pure-Python twin as ``learned`` itself, whose play-for-play agreement the differential tests
prove, so the deviation needs no second implementation.

The dose :data:`FORCED` (10,000 points) outweighs every other term of the score, so the
tactic decides whenever it separates two legal plays and the learned score only breaks the
remaining ties: the tactic **forced** on (a lexicographic preference). For the four "do not"
tactics that is the tactic as players state it; for "trail one of a pair" a forced bonus also
prefers a paired trail to a capture, which the folk rule does not ask; the smaller doses are
the fair reading there.

Every comparison is a duplicate match of the deviated player against plain ``learned`` on the
same decks (:func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`). A duplicate pair whose
two games the deviated player both won (or both lost) is a *discordant* pair; a pair split one
game each is concordant (with identical play both games of a deck split). The test is
McNemar's on the discordant pairs (:func:`cuarenta_sim.stats.discordant_test`: exact binomial
below 100 discordant pairs), the effect on the win rate is half the difference ``(n_ab -
n_ba) / n``, and the verdicts of a family (the forced tactics; each tactic's doses) are
Holm-adjusted (:func:`cuarenta_sim.stats.verdict_table`) with a practical margin of
:data:`PRACTICAL_MARGIN_PP` percentage points of win rate.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import stats
from .policies.learned import DEFAULT_WEIGHTS

#: Verdict of a row with no discordant pair (no duplicate pair's result changed in that row:
#: said of the row, not of the tactic, which may bind in another row; issue 18).
NO_PAIR_CHANGED = "no pair's result changed"
#: A dose that outweighs every other term of the learned score (points): the tactic forced.
FORCED = 10_000.0
#: Doses of the dose-response sweep (points), then :data:`FORCED`.
DOSES = (0.25, 0.5, 1.0, 2.0, FORCED)
#: Practical margin: effects on the win rate inside +-this many percentage points read
#: "no difference".
PRACTICAL_MARGIN_PP = 1.0


@dataclass(frozen=True)
class LearnedTactic:
    """A folk tactic as a feature of the ``learned`` model.

    Attributes
    ----------
    tactic : str
        Name of the tactic (the heuristic parameter of the same tactic,
        :data:`cuarenta_sim.cuarenta.strategy_play.TACTICS`).
    feature : str
        The learned feature (:data:`cuarenta_sim.cuarenta.engine.learned.FEATURE_NAMES`).
    sign : int
        +1 when the tactic is a bonus for the feature, -1 when a penalty.
    """

    tactic: str
    feature: str
    sign: int


#: Tactic -> learned feature and direction (engine/learned.py features 7-11).
LEARNED_TACTICS: tuple[LearnedTactic, ...] = (
    LearnedTactic("trail_pair", "pair", +1),
    LearnedTactic("no_ace_trail", "ace", -1),
    LearnedTactic("no_run_start", "run_start", -1),
    LearnedTactic("keep_table", "keep", -1),
    LearnedTactic("hold_known", "known", -1),
)


def dose_label(dose: float) -> str:
    """``"forced"`` for :data:`FORCED`, else the dose in points (``"0.5 pt"``)."""
    return "forced" if dose >= FORCED else f"{dose:g} pt"


def deviated_weights(base: str, tactic: LearnedTactic, dose: float) -> np.ndarray:
    """The learned weights with ``dose`` points of ``tactic`` added.

    Parameters
    ----------
    base : str
        ``weights=`` value of the base model (``learned_v2``, the default, ``learned_v1`` or a
        path).
    tactic : LearnedTactic
    dose : float
        Points (>= 0); the feature's weight moves by ``sign * round(dose * w[points])`` in
        each player count's model.

    Returns
    -------
    ndarray of int64, shape (2, N_FEATURES)

    Raises
    ------
    ValueError
        A negative dose, or weights that do not load.
    """
    from .engine.learned import FEATURE_NAMES
    from .policies.learned import load_weights

    if not dose >= 0:
        raise ValueError(f"a tactic dose must be >= 0 points, got {dose!r}")
    w = load_weights(base).weights.astype(np.int64).copy()
    points = FEATURE_NAMES.index("points")
    j = FEATURE_NAMES.index(tactic.feature)
    for row in range(w.shape[0]):
        w[row, j] += tactic.sign * round(dose * abs(int(w[row, points])))
    return w


def write_deviation(directory: Path, base: str, tactic: LearnedTactic, dose: float) -> str:
    """Write the deviated weights into ``directory`` and return the policy spec
    ``learned(weights=PATH)`` that plays them."""
    from .policies.learned import load_weights, save_weights

    path = directory / f"{tactic.tactic}_{dose:g}.npz"
    record = dict(load_weights(base).provenance)
    record["deviation"] = {
        "base": base,
        "tactic": tactic.tactic,
        "feature": tactic.feature,
        "sign": tactic.sign,
        "dose_points": dose,
    }
    save_weights(path, deviated_weights(base, tactic, dose), record)
    return f"learned(weights={path})"


def check_chicas(chicas: object) -> int:
    """``chicas`` of a duplicate experiment: an even whole number of at least 2.

    Raises
    ------
    ValueError
        Anything else (booleans included).
    """
    if isinstance(chicas, bool) or not isinstance(chicas, int) or chicas < 2 or chicas % 2:
        raise ValueError(f"chicas must be an even whole number >= 2, got {chicas!r}")
    return chicas


def paired_match(
    a: str,
    b: str,
    *,
    rules: str,
    players: int,
    chicas: int,
    seed: int,
    confidence: float,
    threads: int | None,
) -> dict:
    """Play ``a`` against ``b`` in ``chicas // 2`` duplicate pairs of chicas on the same decks
    (:func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`) and summarise it: the
    :func:`cuarenta_sim.tournament.match_summary` columns without its verdict (win rate of
    ``a`` with its clustered Wilson interval, points per data), then the McNemar columns of
    :func:`pair_test`. Shared by the dose sweep, the ablation and the heuristic switches.

    Raises
    ------
    ValueError
        Unknown rules or policies.
    """
    from ..tournament import match_summary
    from .duplicate import play_duplicate

    pairs = play_duplicate(
        a,
        b,
        rules=rules,
        players=players,
        level="chica",
        n=chicas // 2,
        seed=seed,
        threads=threads,
    )
    summary = match_summary(pairs, confidence)
    summary.pop("verdict")
    return {**summary, **pair_test(pairs, confidence)}


def pair_test(pairs: pd.DataFrame, confidence: float = 0.95) -> dict:
    """McNemar-style comparison of one duplicate match (module docstring).

    Parameters
    ----------
    pairs : DataFrame
        :func:`cuarenta_sim.cuarenta.duplicate.play_duplicate` output (``a_wins`` 0 to 2).
    confidence : float
        Two-sided level.

    Returns
    -------
    dict
        ``n_ab`` (pairs ``a`` won twice), ``n_ba`` (lost twice), ``discordant``, ``n``,
        ``p_value``, ``test`` (``"exact binomial"`` below 100 discordant pairs, else
        ``"mcnemar score"``), ``effect`` / ``effect_lower`` / ``effect_upper`` (win rate of
        ``a`` minus 50%, fraction), ``no_variation``.
    """
    a = pairs["a_wins"].to_numpy(np.float64)
    t = stats.discordant_test(
        int((a == 2.0).sum()), int((a == 0.0).sum()), n=len(a), confidence=confidence
    )
    return {
        "n_ab": t["n_ab"],
        "n_ba": t["n_ba"],
        "discordant": t["discordant"],
        "n": t["n"],
        "p_value": t["p_value"],
        "test": t["method"],
        "effect": t["difference"] / 2.0,
        "effect_lower": t["lower"] / 2.0,
        "effect_upper": t["upper"] / 2.0,
        "no_variation": t["no_variation"],
    }


def within_margin(verdict: str, lower: float, upper: float) -> bool:
    """True when a row reads "no difference": :func:`cuarenta_sim.stats.verdict_table` called
    it negligible, or identical (no pair differed) with a no-variation bound inside the
    practical margin (a handful of identical pairs is no evidence of equality).

    Parameters
    ----------
    verdict : str
        The row's :func:`cuarenta_sim.stats.verdict_table` verdict.
    lower, upper : float
        The row's interval (fraction of win rate).
    """
    m = PRACTICAL_MARGIN_PP / 100.0
    if verdict == "negligible":
        return True
    return bool(verdict == "identical" and lower >= -m and upper <= m)


def family_verdicts(
    frame: pd.DataFrame, family: str | None = None, confidence: float = 0.95
) -> pd.DataFrame:
    """Holm-adjusted verdicts of tactic rows (columns of :func:`pair_test`), with the
    intervals that agree with them.

    Parameters
    ----------
    frame : DataFrame
        Rows with ``effect``, ``effect_lower``, ``effect_upper``, ``p_value``,
        ``no_variation``, ``discordant`` and, for the interval at the Holm level, ``n``,
        ``n_ab``, ``n_ba`` and ``test`` (:func:`pair_test`; without them the interval is
        rescaled by the ratio of normal quantiles).
    family : str, optional
        Column splitting the rows into families; None: one family.
    confidence : float
        Two-sided level (alpha = 1 - confidence).

    Returns
    -------
    DataFrame
        ``frame`` with ``p_adjusted`` (Holm), ``family_size``, ``test_level`` (the two-sided
        level Holm tested the row at, :func:`cuarenta_sim.verdict_intervals.step_levels`),
        ``effect_lower_adj`` / ``effect_upper_adj`` (the interval at ``test_level``: exact,
        dual to McNemar's exact test, below 100 discordant pairs, the paired t/normal interval
        rescaled above; a row is resolved exactly when this interval excludes 0; rows where no
        pair differed keep their no-variation bound) and ``verdict``: ``"helps"`` /
        ``"hurts"`` (resolved after Holm), ``"no difference (k discordant pairs)"`` (the
        interval inside +-:data:`PRACTICAL_MARGIN_PP`, :func:`within_margin`), ``"no pair's
        result changed (0 discordant pairs)"`` (the same with no discordant pair in this row:
        a statement about this row's data; the tactic-level "never binds" of
        :func:`cuarenta_sim.cuarenta.tactic_ablation.tactic_verdicts` needs every row of the
        tactic without one), or ``"not resolved (k discordant pairs)"``.
        ``effect_lower`` / ``effect_upper`` stay the marginal intervals.
    """
    n = len(frame)

    def col(name: str) -> np.ndarray:
        return frame[name].to_numpy(np.float64) if name in frame else np.full(n, np.nan)

    flat = frame["no_variation"].to_numpy(bool)
    tests = frame["test"].astype(str).to_numpy() if "test" in frame else np.full(n, "")
    # Rows on the scale of discordant_test's difference P(A) - P(B) = 2 x effect, so that
    # verdict_intervals.interval_at recomputes the exact interval from the pair counts.
    rows = pd.DataFrame(
        {
            "estimate": 2.0 * frame["effect"].to_numpy(np.float64),
            "lower": 2.0 * frame["effect_lower"].to_numpy(np.float64),
            "upper": 2.0 * frame["effect_upper"].to_numpy(np.float64),
            "p_value": frame["p_value"].to_numpy(np.float64),
            "no_variation": flat,
            "defined": True,
            "n": col("n"),
            "n_pos": col("n_ab"),
            "n_neg": col("n_ba"),
            "method": [
                "" if f else ("paired exact" if t == "exact binomial" else "paired")
                for f, t in zip(flat, tests, strict=True)
            ],
        },
        index=frame.index,
    )
    if family is not None:
        rows[family] = frame[family].to_numpy()
    table = stats.verdict_table(
        rows, family=family, margin=2.0 * PRACTICAL_MARGIN_PP / 100.0, confidence=confidence
    )
    lo_adj = np.where(flat, frame["effect_lower"], table["lower_adj"].to_numpy() / 2.0)
    hi_adj = np.where(flat, frame["effect_upper"], table["upper_adj"].to_numpy() / 2.0)
    words = []
    for (_, r), verdict, lo, hi in zip(
        frame.iterrows(), table["verdict"], lo_adj, hi_adj, strict=True
    ):
        k = int(r["discordant"])
        if verdict.startswith("resolved"):  # also "resolved, possibly negligible"
            words.append("helps" if r["effect"] > 0 else "hurts")
        elif within_margin(verdict, lo, hi):
            # No duplicate pair's result changed in this row: said of this row only (the
            # tactic may bind in another arm or dose), and not that it is worth nothing.
            words.append(f"{NO_PAIR_CHANGED} (0 discordant pairs)" if k == 0 else
                         f"no difference ({k:,} discordant pairs)")  # fmt: skip
        else:
            words.append(f"not resolved ({k:,} discordant pairs)")
    out = frame.copy()
    out["p_adjusted"] = table["p_adjusted"].to_numpy()
    out["family_size"] = table["family_size"].to_numpy()
    out["test_level"] = table["test_level"].to_numpy()
    out["effect_lower_adj"] = lo_adj
    out["effect_upper_adj"] = hi_adj
    out["verdict"] = words
    return out


def learned_tactics(
    *,
    rules: str = "quito",
    players: int = 2,
    chicas: int = 10_000,
    seed: int = 0,
    doses: Sequence[float] = DOSES,
    tactics: Sequence[LearnedTactic] = LEARNED_TACTICS,
    base: str = DEFAULT_WEIGHTS,
    confidence: float = 0.95,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Every tactic at every dose, as a deviation of ``learned`` against ``learned``.

    Parameters
    ----------
    rules : str
        Preset or slug (section S).
    players : int
        2 or 4 (R2.1).
    chicas : int
        Chicas per (tactic, dose), even: ``chicas / 2`` duplicate pairs on the same decks
        for every row.
    seed : int
        Seed of every match.
    doses : sequence of float
        Doses in points (> 0); :data:`FORCED` marks the forced row.
    tactics : sequence of LearnedTactic
    base : str
        ``weights=`` value of the base model (default: the shipped weights, the ones plain
        ``learned`` plays).
    confidence : float
        Two-sided level.
    threads : int or None
        numba threads (never changes the numbers).
    progress : callable, optional
        One line per match.

    Returns
    -------
    DataFrame
        One row per (tactic, dose): ``tactic``, ``feature``, ``dose`` (points), ``dose_label``,
        ``forced`` (bool), the :func:`cuarenta_sim.tournament.match_summary` columns
        (``win_rate``, ``lower``, ``upper`` clustered Wilson; ``points_per_data`` with its
        ratio interval; ``pairs``, ``games``), the :func:`pair_test` columns, and the
        verdicts: ``verdict`` / ``p_adjusted`` / ``effect_lower_adj`` / ``effect_upper_adj``
        over the family of forced rows (one test per tactic; NaN on other rows),
        ``dose_verdict`` / ``dose_p_adjusted`` / ``dose_lower_adj`` / ``dose_upper_adj`` over
        each tactic's doses (intervals at the level Holm tested the row,
        :func:`family_verdicts`).

    Raises
    ------
    ValueError
        Odd or non-positive ``chicas``, a non-positive dose, unknown rules or weights.
    """
    check_chicas(chicas)
    if not doses or any(not d > 0 for d in doses):
        raise ValueError(f"doses must be positive numbers of points, got {tuple(doses)!r}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="cuarenta-tactics-") as tmp:
        for tactic in tactics:
            for dose in doses:
                t0 = time.perf_counter()
                spec = write_deviation(Path(tmp), base, tactic, dose)
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
                        "dose": float(dose),
                        "dose_label": dose_label(dose),
                        "forced": bool(dose >= FORCED),
                        **match,
                    }
                )
                if progress is not None:
                    r = rows[-1]
                    progress(
                        f"learned + {tactic.tactic} ({dose_label(dose)}): win rate "
                        f"{100 * r['win_rate']:.2f}% [{100 * r['lower']:.2f}, "
                        f"{100 * r['upper']:.2f}], {r['discordant']:,} discordant pairs "
                        f"({time.perf_counter() - t0:.1f} s)"
                    )
    frame = pd.DataFrame(rows)
    forced = frame["forced"].to_numpy(bool)
    frame["verdict"] = ""
    frame["p_adjusted"] = np.nan
    frame["effect_lower_adj"] = np.nan
    frame["effect_upper_adj"] = np.nan
    if forced.any():
        fam = family_verdicts(frame[forced], confidence=confidence)
        for c in ("verdict", "p_adjusted", "effect_lower_adj", "effect_upper_adj"):
            frame.loc[forced, c] = fam[c]
    doses_fam = family_verdicts(frame, family="tactic", confidence=confidence)
    frame["dose_verdict"] = doses_fam["verdict"]
    frame["dose_p_adjusted"] = doses_fam["p_adjusted"]
    frame["dose_lower_adj"] = doses_fam["effect_lower_adj"]
    frame["dose_upper_adj"] = doses_fam["effect_upper_adj"]
    return frame
