"""Tables and table sentences of the strategies report: the head-to-head matrices, the pair
tables with their Holm-level intervals (:func:`pair_verdicts`), the ratings and their fit, the
folk-tactic rows; markdown for the report, fixed-width text for the console.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..bradley_terry import BradleyTerryFit
from ..reports import CONSOLE_WIDTH, text_table
from ..tournament import TOURNAMENT_LEVELS, TournamentResult, head_to_head_matrix
from .tactics import NO_PAIR_CHANGED


# --------------------------------------------------------------------------- tables
def pct_text(est: float, lo: float, hi: float, decimals: int = 2) -> str:
    return f"{100 * est:.{decimals}f}% [{100 * lo:.{decimals}f}, {100 * hi:.{decimals}f}]"


def _num(est: float, lo: float, hi: float, decimals: int = 2) -> str:
    return f"{est:+.{decimals}f} [{lo:+.{decimals}f}, {hi:+.{decimals}f}]"


def short_name(spec: str) -> str:
    """A policy spec for narrow tables: the spec itself when it has no parameters or is short,
    else its name with an ellipsis (``heuristic(...)``)."""
    return spec if "(" not in spec or len(spec) <= 20 else spec.split("(")[0] + "(...)"


def pair_verdicts(matches: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Holm-adjusted verdicts of a tournament's matches, each with the interval its test used.

    Parameters
    ----------
    matches : DataFrame
        :attr:`cuarenta_sim.tournament.TournamentResult.matches` plus, per row, the McNemar
        comparison of :func:`cuarenta_sim.cuarenta.tactics.pair_test` on the discordant pairs
        (``n_ab`` pairs ``a`` won twice, ``n_ba`` lost twice, ``discordant``, ``n``,
        ``p_value``, ``test``, ``effect`` / ``effect_lower`` / ``effect_upper``: win rate of
        ``a`` minus 50%, ``no_variation``).

    Returns
    -------
    DataFrame
        ``matches`` with ``p_adjusted`` (Holm over the rows of each level), ``test_level``
        (the two-sided level Holm tested the row at,
        :func:`cuarenta_sim.verdict_intervals.step_levels`), ``verdict_lower`` /
        ``verdict_upper`` (``a``'s win rate minus 50% at that level: exact, dual to
        McNemar's exact test, below 100 discordant pairs, else the score interval rescaled;
        it excludes 0 exactly when the row is resolved) and ``pair_verdict``: ``"a better"``
        / ``"b better"`` (resolved), ``"no difference"`` (that interval within
        +-``PRACTICAL_MARGIN_PP`` percentage points of 0), ``"not resolved"``. ``lower`` /
        ``upper`` stay the marginal clustered Wilson interval of the win rate.

    Raises
    ------
    KeyError
        ``matches`` without the McNemar columns.
    """
    from .tactics import family_verdicts

    fam = family_verdicts(matches.reset_index(drop=True), family="level", confidence=confidence)
    words = []
    for verdict in fam["verdict"]:
        if verdict == "helps":
            words.append("a better")
        elif verdict == "hurts":
            words.append("b better")
        elif verdict.startswith(("no difference", NO_PAIR_CHANGED)):
            words.append("no difference")
        else:
            words.append("not resolved")
    out = matches.copy()
    out["p_adjusted"] = fam["p_adjusted"].to_numpy()
    out["test_level"] = fam["test_level"].to_numpy()
    out["verdict_lower"] = fam["effect_lower_adj"].to_numpy()
    out["verdict_upper"] = fam["effect_upper_adj"].to_numpy()
    out["pair_verdict"] = words
    return out


def with_discordant(result: TournamentResult) -> pd.DataFrame:
    """The tournament's matches with McNemar counts and Holm verdicts (:func:`pair_verdicts`)."""
    from .tactics import pair_test

    m = result.matches.copy()
    tests = [pair_test(result.pairs[(r["a"], r["b"], r["level"])]) for _, r in m.iterrows()]
    for key in ("discordant", "n_ab", "n_ba", "n", "p_value", "test", "effect", "effect_lower",
                "effect_upper", "no_variation"):  # fmt: skip
        m[key] = [t[key] for t in tests]
    return pair_verdicts(m, result.settings.confidence)


def matrix_rows(table: pd.DataFrame, value: str, fmt: Callable[[float], str]) -> list[list[str]]:
    """Rows of a head-to-head matrix (row policy against column policy; "-" on the diagonal
    and for pairs that did not play)."""
    matrix = head_to_head_matrix(table, value)
    return [
        [short_name(a)]
        + [
            "-" if a == b or not np.isfinite(matrix.loc[a, b]) else fmt(matrix.loc[a, b])
            for b in matrix.columns
        ]
        for a in matrix.index
    ]


def matrix_headers(table: pd.DataFrame, corner: str) -> list[str]:
    """Headers of :func:`matrix_rows`: the corner label, then the column policies."""
    return [corner] + [short_name(p) for p in dict.fromkeys(table["a"])]


def match_rows(matches: pd.DataFrame) -> list[list[str]]:
    """Rows of the pair table: ``a``, ``b``, duplicate pairs, ``a``'s win rate [marginal 95%
    clustered Wilson], points per data ``a - b`` [ratio], discordant pairs, ``a``'s win rate
    minus 50% with the interval at the level Holm tested the row (it excludes 0 exactly when
    the verdict is resolved), verdict (Holm, margin).

    Parameters
    ----------
    matches : DataFrame
        :func:`pair_verdicts` output (one level).
    """
    return [
        [
            short_name(r["a"]),
            short_name(r["b"]),
            f"{int(r['pairs']):,}",
            pct_text(r["win_rate"], r["lower"], r["upper"], 1),
            _ppd(r),
            f"{int(r['discordant']):,}",
            _signed_pp(r["effect"], r["verdict_lower"], r["verdict_upper"]),
            r["pair_verdict"],
        ]
        for _, r in matches.iterrows()
    ]


MATCH_HEADERS = (
    "a",
    "b",
    "pairs",
    "a wins [95%, clustered Wilson]",
    "points/data a - b [95%]",
    "disc.",
    "a wins - 50%, pp [interval at the Holm level]",
    "verdict (Holm)",
)


#: Headers of :func:`match_text_rows` (the console table: within 100 columns).
MATCH_TEXT_HEADERS = (
    "a",
    "b",
    "pairs",
    "a wins [Holm level]",
    "points/data a - b",
    "disc.",
    "verdict",
)


def match_text_rows(matches: pd.DataFrame) -> list[list[str]]:
    """Console rows of the pair table: as :func:`match_rows`, with one win-rate column whose
    interval is the one the verdict used (at the level Holm tested the row, shifted to the
    win-rate scale), so the console fits 100 columns."""
    return [
        [
            short_name(r["a"]),
            short_name(r["b"]),
            f"{int(r['pairs']):,}",
            pct_text(r["win_rate"], 0.5 + r["verdict_lower"], 0.5 + r["verdict_upper"], 1),
            _ppd(r),
            f"{int(r['discordant']):,}",
            r["pair_verdict"],
        ]
        for _, r in matches.iterrows()
    ]


def _signed_pp(est: float, lo: float, hi: float) -> str:
    """A win-rate difference (fraction) in signed percentage points with its interval."""
    return f"{100 * est:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def rating_rows(rating: pd.DataFrame) -> list[list[str]]:
    """Table rows of :func:`cuarenta_sim.bradley_terry.ratings` (rank, policy, Elo [interval],
    games)."""
    return [
        [
            str(i + 1),
            short_name(r["policy"]),
            f"{r['rating']:+.0f} [{r['lower']:+.0f}, {r['upper']:+.0f}]",
            f"{int(r['n']):,}",
        ]
        for i, r in rating.iterrows()
    ]


RATING_HEADERS = ("rank", "policy", "Elo (mean 0) [95% shared-deal bootstrap]", "games")


def fit_rows(fit: BradleyTerryFit) -> list[list[str]]:
    """Rows of the Bradley-Terry check: observed and predicted chica win rates per pair, the
    Pearson residual, and the Elo gap each implies."""
    return [
        [
            short_name(r["a"]),
            short_name(r["b"]),
            f"{100 * r['observed']:.1f}%",
            f"{100 * r['predicted']:.1f}%",
            f"{r['residual']:+.1f}",
            f"{r['observed_gap']:+.0f}",
            f"{r['elo_gap']:+.0f}",
        ]
        for _, r in fit.pairs.iterrows()
    ]


FIT_HEADERS = ("a", "b", "observed", "Bradley-Terry", "residual", "gap seen", "gap rated")


def _df(df: int) -> str:
    return f"{df} degree{'' if df == 1 else 's'} of freedom"


def _p(p: float) -> str:
    """A p-value for prose; one that underflows to 0 is reported as below the smallest
    double."""
    return "p < 1e-300" if p == 0.0 else f"p = {p:.2g}"


def fit_sentence(fit: BradleyTerryFit) -> str:
    """One sentence: the goodness of fit, and whether the ratings can be read."""
    if fit.df == 0:
        return (
            f"Bradley-Terry is saturated (0 degrees of freedom: deviance {fit.deviance:.1f}); "
            "the ratings restate the head-to-head table."
        )
    head = (
        f"Bradley-Terry goodness of fit: deviance {fit.deviance:,.1f} on {_df(fit.df)}, "
        f"dispersion {fit.dispersion:.2f}, {_p(fit.p_value)}"
    )
    if fit.misfit:
        return (
            head + ": the model misfits, a single rating per policy does not reproduce the "
            "head-to-head results; read the head-to-head table instead."
        )
    return head + ": no evidence of misfit; the ratings summarise the head-to-head table."


def tournament_text(result: TournamentResult) -> str:
    """Plain-text tables of a tournament for the terminal: the head-to-head matrix (chica win
    rate of the row against the column, %), every pair with its intervals, discordant pairs
    and verdict, then the Bradley-Terry check and ratings."""
    table = result.head_to_head
    m = with_discordant(result)
    parts = [
        "chica win rate of the row against the column (%; pair intervals below at the Holm level)",
        text_table(
            matrix_headers(table, "row vs column"),
            matrix_rows(table, "win_rate", lambda v: f"{100 * v:.1f}"),
            right=tuple(range(1, 1 + len(set(table["a"])))),
        ),
    ]
    for level in TOURNAMENT_LEVELS:
        rows = m[m["level"] == level]
        if rows.empty:
            continue
        parts.append(f"{level}s, duplicate pairs")
        parts.append(text_table(MATCH_TEXT_HEADERS, match_text_rows(rows), right=(2, 5)))
    if result.fit is not None:
        warning = "WARNING: " if result.fit.misfit else ""
        parts.append(textwrap.fill(warning + fit_sentence(result.fit), CONSOLE_WIDTH))
    parts.append(text_table(RATING_HEADERS, rating_rows(result.ratings), right=(0, 3)))
    return "\n\n".join(parts)


def tactic_effect(
    r: pd.Series, lower: str = "effect_lower_adj", upper: str = "effect_upper_adj"
) -> str:
    """Effect [interval] in percentage points; by default the interval at the level Holm
    tested the row (:func:`cuarenta_sim.cuarenta.tactics.family_verdicts`), which excludes 0
    exactly when the row is resolved."""
    return _num(100 * r["effect"], 100 * r[lower], 100 * r[upper])


def _ppd(r: pd.Series) -> str:
    """Points per data with its interval; a single pair, or a sample where no pair's points
    differed, has no ratio interval and says so."""
    lo, hi = float(r["ppd_lower"]), float(r["ppd_upper"])
    if not (np.isfinite(lo) and np.isfinite(hi)):
        why = "one pair" if int(r["pairs"]) < 2 else "no variation"
        return f"{r['points_per_data']:+.2f} ({why})"
    if lo == hi:
        return f"{r['points_per_data']:+.2f} (no variation)"
    est = float(r["points_per_data"])
    return _num(est, lo, hi, _decimals(lo, hi, est))


#: Most decimals :func:`_decimals` prints before giving up on separating an interval's ends.
MAX_DECIMALS = 6


def _decimals(lo: float, hi: float, *others: float, least: int = 2) -> int:
    """Decimals that print an interval with ``lo < hi`` as two different numbers, and every
    non-zero value among ``lo``, ``hi`` and ``others`` as non-zero (at least ``least``, at most
    :data:`MAX_DECIMALS`), so a narrow interval never prints as the zero-width
    ``[+0.00, +0.00]`` nor an end as ``-0.00``."""

    def blurred(d: int) -> bool:
        vals = (lo, hi, *others)
        return round(lo, d) == round(hi, d) or any(x != 0 and round(x, d) == 0 for x in vals)

    d = least
    while d < MAX_DECIMALS and blurred(d):
        d += 1
    return d


def learned_tactic_rows(frame: pd.DataFrame, *, forced_only: bool) -> list[list[str]]:
    """Rows of the learned-tactic table: tactic, dose, learned's own weight (points), chicas,
    effect on the win rate (percentage points) [interval], points per data gained, discordant
    pairs and test, verdict (Holm over the forced family, or over the tactic's doses)."""
    rows = []
    for _, r in frame.iterrows():
        if forced_only and not r["forced"]:
            continue
        rows.append(
            [
                r["label"],
                r["dose_label"],
                f"{r['own_weight']:+.2f}",
                f"{int(r['games']):,}",
                tactic_effect(r)
                if forced_only
                else tactic_effect(r, "dose_lower_adj", "dose_upper_adj"),
                _ppd(r),
                r["verdict"] if forced_only else r["dose_verdict"],
            ]
        )
    return rows


LEARNED_TACTIC_HEADERS = (
    "tactic",
    "dose",
    "own weight",
    "chicas",
    "win rate change (percentage points)",
    "points/data",
    "verdict",
)


def tactic_rows(tactics: pd.DataFrame) -> list[list[str]]:
    """Table rows of :func:`tactic_experiments` with verdicts (tuned heuristic): tactic, with
    vs without, chicas, effect in percentage points, points per data gained, verdict."""
    return [
        [
            r["label"],
            f"{r['with_weight']} vs 0",
            f"{int(r['games']):,}",
            tactic_effect(r),
            _ppd(r),
            r["verdict"],
        ]
        for _, r in tactics.iterrows()
    ]


TACTIC_HEADERS = (
    "tactic",
    "weight on vs off",
    "chicas",
    "win rate change (percentage points)",
    "points/data",
    "verdict",
)


def own_weight_column(frame: pd.DataFrame, players: int) -> np.ndarray:
    """The base learned model's weight of each row's feature, in points (signed towards the
    tactic: positive = the base already follows it)."""
    from .engine.learned import FEATURE_NAMES
    from .policies.learned import DEFAULT_WEIGHTS, load_weights
    from .tactics import LEARNED_TACTICS

    w = load_weights(DEFAULT_WEIGHTS).row(players)
    points = abs(int(w[FEATURE_NAMES.index("points")]))
    sign = {t.tactic: t.sign for t in LEARNED_TACTICS}
    return np.array(
        [
            sign[t] * w[FEATURE_NAMES.index(f)] / points
            for t, f in zip(frame["tactic"], frame["feature"], strict=True)
        ]
    )
