"""The answers of reports/strategies as claims (issue 18 items 1 and 2, finding 6).

Each answer sentence is a :class:`~cuarenta_sim.studies.claims.Claim` whose evidence rows are
rows of the report's tables: ``head_to_head_<p>p`` (row ``a|b``), ``ratings_<p>p`` (row
``fit``), ``tactics`` (row ``tactic|dose``) and ``strength_vs_cost`` (row ``policy|samples``).
The strength-against-cost sentence says that its decision rates are CPU-adjusted and from one
timing repeat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..studies.claim_checks import SEVERAL_VERDICTS
from ..studies.claims import Claim, Evidence, Scope

RULES = ("quito",)


def _pct(est: float, lo: float, hi: float, decimals: int = 1) -> str:
    return f"{100 * est:.{decimals}f}% [{100 * lo:.{decimals}f}, {100 * hi:.{decimals}f}]"


def _short(spec: str) -> str:
    return spec if "(" not in spec or len(spec) <= 20 else spec.split("(")[0] + "(...)"


def _h2h(r: pd.Series, players: int) -> Evidence:
    return Evidence(
        table=f"head_to_head_{players}p",
        row=f"{r['a']}|{r['b']}",
        values={k: float(r[k]) for k in ("win_rate", "lower", "upper", "games")},
        verdict="",
        model=_short(str(r["a"])),
        scale={"win_rate": 100.0, "lower": 100.0, "upper": 100.0},
    )


def _p_text(p: float) -> str:
    return "p < 1e-300" if p == 0.0 else f"p = {p:.2g}"


def strategy_claims(
    results: dict[int, tuple[Any, pd.DataFrame]],
    verdicts: pd.DataFrame | None,
    sweep: dict[str, Any] | None,
    speeds: pd.DataFrame | None,
    policy_name: Any,
    labels: dict[str, str] | None = None,
) -> list[Claim]:
    """The answer claims of the strategies report (at most five).

    Parameters
    ----------
    results : dict
        Player count -> (TournamentResult, matches); the first player count is answered.
    verdicts : DataFrame or None
        The tactic verdicts of the ablation
        (:func:`cuarenta_sim.cuarenta.tactic_ablation.tactic_verdicts`): the tactic answer
        rests on both ablation arms (removing and reversing each weight), not on pushing a
        tuned weight further.
    sweep : dict or None
        Strength-against-cost results (``sweep``: list of points with ``policy``,
        ``samples``, ``win_rate``, ``lower``, ``upper``).
    speeds : DataFrame or None
        Decision speeds measured by the report
        (:func:`cuarenta_sim.cuarenta.strength.measure_speeds`).
    policy_name : callable
        Policy spec -> its name (``parse_policy(spec).name``).
    labels : dict, optional
        Tactic name -> its label.

    Returns
    -------
    list of Claim
    """
    players, (result, _) = next(iter(results.items()))
    table = result.head_to_head
    policies = tuple(_short(p) for p in result.settings.policies)
    scope = Scope(models=policies, players=(players,), rules=RULES)
    claims: list[Claim] = []
    worst = table.loc[table.groupby("a")["win_rate"].idxmin()]
    best = worst.sort_values("win_rate", ascending=False).iloc[0]
    values = {
        "p": players,
        "a": _short(str(best["a"])),
        "b": _short(str(best["b"])),
        "cell": _pct(best["win_rate"], best["lower"], best["upper"]),
        "games": int(best["games"]),
    }
    template = (
        "With {p} players, `{a}` beats every other player: its closest match is {cell} of "
        "{games:,} chicas against `{b}`."
        if best["lower"] > 0.5
        else "With {p} players no policy beats every other: the best worst case, `{a}`, wins "
        "{cell} of {games:,} chicas against `{b}`."
    )
    claims.append(
        Claim(
            id=f"strategies.best.{players}p",
            template=template,
            values=values,
            evidence=tuple(_h2h(r, players) for _, r in worst.iterrows()),
            test="duplicate chicas, clustered Wilson interval per pair",
            scope=scope,
            constants={"fair win rate, %": 50},
        )
    )
    names = {policy_name(p): p for p in result.settings.policies}
    if "learned" in names and "heuristic" in names:
        row = table[(table["a"] == names["learned"]) & (table["b"] == names["heuristic"])]
        if not row.empty:
            r = row.iloc[0]
            word = (
                "beats"
                if r["lower"] > 0.5
                else "loses to"
                if r["upper"] < 0.5
                else "is not separated from"
            )
            claims.append(
                Claim(
                    id=f"strategies.learned_heuristic.{players}p",
                    template="With {p} players, of the fast players `learned` {word} "
                    "`heuristic`: {cell} of {games:,} chicas; `heuristic` is the opponent "
                    "`learned` was tuned against (its weights `learned_v2` by evolution "
                    "strategies on this duplicate win rate, Quito), so this is its tuning "
                    "target, not an outside test.",
                    values={
                        "p": players,
                        "word": word,
                        "cell": _pct(r["win_rate"], r["lower"], r["upper"]),
                        "games": int(r["games"]),
                    },
                    evidence=(_h2h(r, players),),
                    test="duplicate chicas, clustered Wilson interval",
                    scope=Scope(models=("learned", "heuristic"), players=(players,), rules=RULES),
                    caveats=(
                        "learned_v2 was tuned by evolution strategies on its duplicate win rate "
                        "against heuristic (Quito): the result is on its tuning opponent",
                    ),
                )
            )
    fit = result.fit
    if fit is not None and fit.df > 0:
        text = (
            "With {p} players one rating per player does not fit these results (deviance "
            "{dev:,.1f} on {df} degree{s} of freedom, {pv}): read the head-to-head table, not "
            "the ratings."
            if fit.misfit
            else "With {p} players one rating per player fits these results (deviance "
            "{dev:,.1f} on {df} degree{s} of freedom, {pv})."
        )
        claims.append(
            Claim(
                id=f"strategies.fit.{players}p",
                template=text,
                values={
                    "p": players,
                    "dev": fit.deviance,
                    "df": fit.df,
                    "s": "" if fit.df == 1 else "s",
                    "pv": _p_text(fit.p_value),
                },
                evidence=(
                    Evidence(
                        table=f"ratings_{players}p",
                        row="fit",
                        values={
                            "deviance": float(fit.deviance),
                            "df": float(fit.df),
                            "p_value": float(fit.p_value),
                        },
                    ),
                ),
                test="Bradley-Terry deviance against chi-square",
                scope=scope,
                constants={"smallest double shown": 1e-300} if fit.p_value == 0.0 else {},
            )
        )
    if verdicts is not None and not verdicts.empty:
        claims.append(_ablation_claim(verdicts, labels or {}, players))
    if sweep is not None and speeds is not None:
        cost = _cost_claim(sweep, speeds, players)
        if cost is not None:
            claims.append(cost)
    return claims[:5]


def _ablation_claim(verdicts: pd.DataFrame, labels: dict[str, str], players: int) -> Claim:
    """The tactic answer from the ablation: each tactic's removal and reversal effects, each
    arm's word and the tactic's verdict from both."""
    from .tactic_ablation import arm_direction, larger_lean_hurts
    from .tactic_ablation_text import headline
    from .tactics import PRACTICAL_MARGIN_PP

    text = headline(verdicts, labels, players)
    counts = {
        word: float((verdicts["verdict"] == word).sum())
        for word in (
            "helps",
            "hurts",
            "mixed",
            "no difference",
            "barely weighted",
            "not resolved",
            "never binds",
        )
    }
    pct = {"effect": 100.0, "lower": 100.0, "upper": 100.0}
    return Claim(
        id=f"strategies.tactics.{players}p",
        template="{text}",
        values={"text": text},
        evidence=(
            Evidence(
                table="tactic_verdicts",
                row="counts",
                values={"tactics": float(len(verdicts)), **counts},
            ),
            *(
                Evidence(
                    table="tactic_verdicts",
                    row=str(r["tactic"]),
                    values={
                        "pairs": float(r["pairs"]),
                        "discordant": float(r["discordant"]),
                        "own_weight": float(r["own_weight"]),
                    },
                    verdict=str(r["verdict"]),
                    model="learned",
                )
                for _, r in verdicts.iterrows()
            ),
            # Each arm's row (removal, reversal) with the word the sentence gives it; the
            # interval is at the level Holm tested the row, so it excludes 0 exactly when
            # the row is resolved, and the checker enforces it.
            *(
                Evidence(
                    table="tactics_ablation",
                    row=f"{r['tactic']}|{'removed' if arm == 'removal' else 'reversed'}",
                    values={
                        "effect": float(r[f"{arm}_effect"]),
                        "lower": float(r[f"{arm}_lower"]),
                        "upper": float(r[f"{arm}_upper"]),
                    },
                    # A resolved arm carries what it says of the tactic (helps / hurts).
                    verdict=arm_direction(r, arm) or str(r[f"{arm}_word"]),
                    model="learned",
                    interval_matches_verdict=True,
                    scale=pct,
                )
                for _, r in verdicts.iterrows()
                for arm in ("removal", "reversal")
                if f"{arm}_effect" in r and np.isfinite(r[f"{arm}_effect"])
            ),
            # The smallest dose of the tuned lean that resolves as hurting, named (as a note, not
            # a verdict) for every tactic that helps; its interval is at the doses' Holm level.
            *(
                Evidence(
                    table="tactics_learned",
                    row=f"{r['tactic']}|{r['dose_hurts_label']}",
                    values={
                        "effect": float(r["dose_hurts_effect"]),
                        "lower": float(r["dose_hurts_lower"]),
                        "upper": float(r["dose_hurts_upper"]),
                    },
                    verdict="hurts",
                    model="learned",
                    interval_matches_verdict=True,
                    scale=pct,
                )
                for _, r in verdicts.iterrows()
                if larger_lean_hurts(r)
            ),
            # The tuned heuristic's switch of each tactic (on against off), which can make a
            # tactic's evidence mixed; its interval is at the level Holm tested the row.
            *(
                Evidence(
                    table="tactics_heuristic",
                    row=str(r["tactic"]),
                    values={
                        "effect": float(r["switch_effect"]),
                        "lower": float(r["switch_lower"]),
                        "upper": float(r["switch_upper"]),
                    },
                    verdict=str(r["switch_verdict"]).split(" (")[0],
                    model="heuristic",
                    interval_matches_verdict=True,
                    scale=pct,
                )
                for _, r in verdicts.iterrows()
                if "switch_effect" in r and np.isfinite(r["switch_effect"])
            ),
        ),
        test="McNemar on the discordant duplicate pairs (exact below 100), Holm over the "
        "ablation table",
        verdict=SEVERAL_VERDICTS,
        scope=Scope(models=("learned", "heuristic"), players=(players,), rules=RULES),
        constants={"practical margin, percentage points": PRACTICAL_MARGIN_PP},
        caveats=(
            "learned_v2 was tuned against heuristic on all its weights, tactic weights "
            "included; one opponent-free check against solver is in the report",
        ),
    )


def _cost_claim(sweep: dict[str, Any], speeds: pd.DataFrame, players: int) -> Claim | None:
    """Strength against cost: the sweep's win rates, the speeds measured by the report."""
    pts = [p for p in sweep["sweep"] if p["policy"] == "solver"]
    if not pts:
        return None
    sp = speeds.set_index(["policy", "samples"])
    conf = sweep.get("sweep_settings", {})
    sweep_players = int(conf.get("players", players))
    lo_p = min(pts, key=lambda p: p["samples"])
    hi_p = max(pts, key=lambda p: p["samples"])
    lo_s, hi_s = sp.loc[("solver", lo_p["samples"])], sp.loc[("solver", hi_p["samples"])]
    reps = int(hi_s["repeats"])
    return Claim(
        id="strategies.cost",
        template=(
            "More samples buy strength at a price: with {p} players against the heuristic, "
            "`solver` wins {lo} of {lo_n:,} chicas at {lo_s} samples ({lo_r:,.0f} decisions/s, "
            "range {lo_min:,.0f} to {lo_max:,.0f}) and {hi} of {hi_n:,} chicas at {hi_s} "
            "({hi_r:,.0f} decisions/s, range "
            "{hi_min:,.0f} to {hi_max:,.0f}); win rates from the shipped sweep, speeds measured "
            "by this report over {reps} timed runs each (wall clock, shared machine); win-rate "
            "intervals clustered Wilson over duplicate pairs."
        ),
        values={
            "p": sweep_players,
            "reps": reps,
            "lo": _pct(lo_p["win_rate"], lo_p["lower"], lo_p["upper"]),
            "hi": _pct(hi_p["win_rate"], hi_p["lower"], hi_p["upper"]),
            "lo_n": int(lo_p["chicas"]),
            "hi_n": int(hi_p["chicas"]),
            "lo_s": lo_p["samples"],
            "hi_s": hi_p["samples"],
            "lo_r": lo_s["wall_mean"],
            "lo_min": lo_s["wall_min"],
            "lo_max": lo_s["wall_max"],
            "hi_r": hi_s["wall_mean"],
            "hi_min": hi_s["wall_min"],
            "hi_max": hi_s["wall_max"],
        },
        evidence=(
            *(
                Evidence(
                    table="strength_vs_cost",
                    row=f"{q['policy']}|{q['samples']}",
                    values={
                        k: float(q[k]) for k in ("win_rate", "lower", "upper", "samples", "chicas")
                    },
                    model="solver",
                    scale={"win_rate": 100.0, "lower": 100.0, "upper": 100.0},
                )
                for q in (lo_p, hi_p)
            ),
            *(
                Evidence(
                    table="speeds",
                    row=f"solver|{int(s.name[1])}",
                    values={
                        k: float(s[k]) for k in ("wall_mean", "wall_min", "wall_max", "repeats")
                    },
                    model="solver",
                )
                for s in (lo_s, hi_s)
            ),
            Evidence(table="strength_vs_cost", row="settings", values={"players": sweep_players}),
        ),
        test="duplicate chicas against heuristic, clustered Wilson interval; speeds: mean and "
        "range of timed runs",
        scope=Scope(models=("solver", "heuristic"), players=(sweep_players,), rules=RULES),
        caveats=("wall-clock speeds on a shared machine",),
    )


def ratings_without_claim(check: dict[str, Any] | None, players: int) -> Claim | None:
    """The "without the random player" paragraph's numbers as a claim.

    Evidence: the share of the full fit's deviance in the pairs of ``random`` (table
    ``rating_shares_<p>p``, row ``random``), the refit's goodness of fit (table
    ``ratings_without_random_<p>p``, row ``fit``: ``deviance``, ``df``, ``dispersion``,
    ``p_value``, ``kept``) and its interval inflation factor.

    Parameters
    ----------
    check : dict or None
        :func:`cuarenta_sim.cuarenta.strength.ratings_check` output.
    players : int
        Player count of the tournament.

    Returns
    -------
    Claim or None
        None when there is no refit without ``random``.
    """
    if check is None or "without" not in check:
        return None
    fw = check["fit_without"]
    kept = [_short(str(k)) for k in check["kept"]]
    inflation = float(check["without"]["inflation"].iloc[0])
    misfit = bool(fw.misfit)
    template = (
        "With {p} players, {share:.0f}% of the Bradley-Terry deviance above comes from the "
        "pairs of `random` (a pair counts for both its players): it wins almost no game, and "
        "the few it wins likely follow the deal rather than a strength (not tested here). "
        "Refitted on the other {k} policies ({kept}), their matches unchanged: deviance "
        "{dev:,.1f} on {df} degree{s} of freedom, dispersion {disp:.2f}, {pv}"
    )
    template += (
        ": these ratings too misfit, so read the head-to-head table; their intervals are "
        "widened by a factor {inf:.2f}."
        if misfit
        else ": no evidence of misfit; the ratings summarise the head-to-head table."
    )
    return Claim(
        id=f"strategies.ratings_without_random.{players}p",
        template=template,
        values={
            "p": players,
            "share": 100 * float(check["random_share"]),
            "k": len(kept),
            "kept": ", ".join(f"`{k}`" for k in kept),
            "dev": float(fw.deviance),
            "df": int(fw.df),
            "s": "" if fw.df == 1 else "s",
            "disp": float(fw.dispersion),
            "pv": _p_text(float(fw.p_value)),
            "inf": inflation,
        },
        evidence=(
            Evidence(
                table=f"rating_shares_{players}p",
                row="random",
                values={"share": float(check["random_share"])},
                scale={"share": 100.0},
            ),
            Evidence(
                table=f"ratings_without_random_{players}p",
                row="fit",
                values={
                    "deviance": float(fw.deviance),
                    "df": float(fw.df),
                    "dispersion": float(fw.dispersion),
                    "p_value": float(fw.p_value),
                    "kept": float(len(kept)),
                    "inflation": inflation,
                },
            ),
        ),
        test="Bradley-Terry deviance against chi-square (quasi-likelihood dispersion); "
        "intervals widened by sqrt(deviance / (dispersion x degrees of freedom))",
        verdict="",
        scope=Scope(models=("random", *kept), players=(players,), rules=RULES),
        constants={"smallest double shown": 1e-300} if fw.p_value == 0.0 else {},
        caveats=("a pair's deviance counts for both its players",),
    )


def solver_check_claim(
    check: pd.DataFrame | None, labels: dict[str, str], players: int
) -> Claim | None:
    """The tactic check against an opponent ``learned`` was not tuned on, as a claim.

    Evidence: every row of the check table (table ``tactic_check``, row ``tactic|arm``:
    ``effect`` / ``lower`` / ``upper`` / ``self_effect`` / ``plain`` / ``ablated``, printed in
    percentage points, and ``pairs``), each with its verdict (agrees, disagrees, too small to
    tell, no effect seen).

    Parameters
    ----------
    check : DataFrame or None
        :func:`cuarenta_sim.cuarenta.tactic_ablation.solver_check` output.
    labels : dict
        Tactic name -> label.
    players : int
        Player count of the check.

    Returns
    -------
    Claim or None
        None without a check.
    """
    if check is None or check.empty:
        return None
    first = check.iloc[0]
    opponent = str(first["opponent"])
    tactic = labels.get(str(first["tactic"]), str(first["tactic"]))

    def interval(r: Any) -> str:
        if not (np.isfinite(r["lower"]) and np.isfinite(r["upper"])):
            return "(no interval: no pair's share differed)"
        return f"[{100 * r['lower']:+.2f}, {100 * r['upper']:+.2f}]"

    arms = "; ".join(
        f"{r['arm']}, {100 * r['effect']:+.2f} {interval(r)} percentage points of win share "
        f"(against {100 * r['self_effect']:+.2f} against the unchanged `learned`): "
        f"{r['verdict']}"
        for _, r in check.iterrows()
    )
    pct = {k: 100.0 for k in ("effect", "lower", "upper", "self_effect", "plain", "ablated")}
    return Claim(
        id=f"strategies.tactic_check.{players}p",
        template=(
            "Against `{opponent}`, an opponent `learned` was not tuned on ({p} players, "
            "{pairs:,} duplicate pairs per match, 95% intervals, not adjusted), ablating "
            '"{tactic}" in `learned`: {arms}.'
        ),
        values={
            "opponent": opponent,
            "p": players,
            "pairs": int(first["pairs"]),
            "tactic": tactic,
            "arms": arms,
        },
        evidence=tuple(
            Evidence(
                table="tactic_check",
                row=f"{r['tactic']}|{r['arm']}",
                values={
                    k: float(r[k])
                    for k in (
                        "effect",
                        "lower",
                        "upper",
                        "self_effect",
                        "plain",
                        "ablated",
                        "pairs",
                    )
                },
                verdict=str(r["verdict"]),
                model="learned",
                scale=pct,
            )
            for _, r in check.iterrows()
        ),
        test="paired difference of per-pair win shares against the opponent, ablated minus "
        "unchanged (t or normal interval, 95%, not adjusted); verdict against the same arm's "
        "self-play effect",
        verdict=SEVERAL_VERDICTS,
        scope=Scope(models=("learned", opponent), players=(players,), rules=RULES),
        constants={"confidence level, %": 95},
        caveats=(
            "one tactic checked (the one whose removal moved the win rate most); a small run "
            "kept within the report's time budget",
        ),
    )
