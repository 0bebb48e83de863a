"""Strength in the strategies report: ratings without the random player, strength against
cost with speeds measured here, and the non-transitivity of the search players (issue 18
item 8).

* :func:`ratings_check` refits Bradley-Terry without ``random`` (its pairs carry most of the
  misfit) and widens every rating interval by the misfit
  (:mod:`cuarenta_sim.rating_checks`).
* The strength-against-cost sweep (win rates of ``pimc`` and ``solver`` at 4 to 128 samples
  against ``heuristic``) is package data, :data:`SWEEP_DATA`, a copy of the committed
  ``benchmarks/results/policies_sweep.json`` (the package never reads ``benchmarks/`` at run
  time); the report measures the decision speeds itself with repeats
  (:func:`measure_speeds`), so the rates it prints are this run's, with their spread.
* :func:`non_transitivity` sets the head-to-head result of ``solver`` against ``pimc`` beside
  their results against ``heuristic``.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..rating_checks import deviance_shares, inflate, ratings_without
from ..studies.claims import Claim, Evidence, Scope, render_claim
from ..tournament import TournamentResult

#: The strength-against-cost sweep, package data (copied from the repository's
#: ``benchmarks/results/policies_sweep.json``, written by ``python benchmarks/run.py
#: policies-sweep``).
SWEEP_DATA = Path(__file__).with_name("data") / "policies_sweep.json"
#: Speed runs of :func:`measure_speeds`: datas per timed run and timed runs per point.
SPEED_DATAS = 10
SPEED_REPEATS = 3
#: Where the outside-opponents (OpenSpiel) page lives, relative to the strategies report.
OPENSPIEL_PAGE = "openspiel.md"
#: The results that page was written from, package data (a copy of the committed
#: ``benchmarks/results/openspiel_opponents.json``, written by
#: ``python benchmarks/run.py openspiel-opponents``): the report's sentence on the page names
#: exactly its rows.
OPENSPIEL_DATA = Path(__file__).with_name("data") / "openspiel_results.json"
#: Names of OpenSpiel's bots in the results' ``bots`` (kind -> how the sentence names it).
OPENSPIEL_BOTS = {"ismcts": "IS-MCTS bot", "random": "uniform-random bot"}


# --------------------------------------------------------------------------- ratings
def ratings_check(result: TournamentResult) -> dict[str, Any] | None:
    """Deviance shares of the full fit, and the ratings refitted without ``random``.

    Returns
    -------
    dict or None
        ``shares`` (:func:`cuarenta_sim.rating_checks.deviance_shares`), ``random_share``
        (share of the deviance in the pairs of ``random``, NaN without it), ``ratings``
        (the full ratings, :func:`cuarenta_sim.rating_checks.inflate`-d) and, when
        ``random`` played and 3 players remain, ``without`` / ``fit_without`` / ``kept``;
        None without a fit.
    """
    fit = result.fit
    if fit is None:
        return None
    shares = deviance_shares(fit)
    rand = shares[shares["policy"].str.split("(").str[0] == "random"]
    pairs = {
        (a, b): frame["a_wins"].to_numpy(np.float64)
        for (a, b, level), frame in result.pairs.items()
        if level == "chica"
    }
    s = result.settings
    out: dict[str, Any] = {
        "shares": shares,
        "random_share": float(rand["share"].iloc[0]) if len(rand) else float("nan"),
        "ratings": inflate(result.ratings, fit),
    }
    refit = ratings_without(
        s.policies, pairs, confidence=s.confidence, bootstrap=s.bootstrap, seed=s.seed
    )
    if refit is not None:
        out["without"], out["fit_without"], out["kept"] = refit
    return out


#: Headers of :func:`inflated_rows`.
INFLATED_HEADERS = (
    "rank",
    "policy",
    "Elo (mean 0)",
    "95% shared-deal bootstrap",
    "widened by the misfit",
    "games",
)


def inflated_rows(rating: pd.DataFrame, short: Any) -> list[list[str]]:
    """Rows of an :func:`cuarenta_sim.rating_checks.inflate`-d ratings table."""
    return [
        [
            str(i + 1),
            short(r["policy"]),
            f"{r['rating']:+.0f}",
            f"[{r['lower']:+.0f}, {r['upper']:+.0f}]",
            f"[{r['lower_inflated']:+.0f}, {r['upper_inflated']:+.0f}] (x{r['inflation']:.2f})",
            f"{int(r['n']):,}",
        ]
        for i, r in rating.reset_index(drop=True).iterrows()
    ]


# --------------------------------------------------------------------------- outside opponents
def load_openspiel(path: Path = OPENSPIEL_DATA) -> dict[str, Any] | None:
    """The OpenSpiel results behind ``openspiel.md``, or None when the file is absent.

    Raises
    ------
    ValueError
        A file without a ``results`` list or ``bots`` mapping.
    """
    if not path.is_file():
        return None
    data = json.loads(path.read_bytes())
    if not isinstance(data.get("results"), list) or not isinstance(data.get("bots"), dict):
        raise ValueError(f"{path} is no openspiel-opponents results file")
    return data


def _bot_kind(spec: str) -> str:
    return spec.split("(", 1)[0].removeprefix("openspiel-")


def openspiel_sentence(data: dict[str, Any] | None, page: str = OPENSPIEL_PAGE) -> str:
    """The sentence linking the outside-opponents page, naming exactly the pairings it holds
    (our policy, the bot and its budget, duplicate pairs) and the bots that played no row."""
    link = f"[`{page}`]({page})"
    where = (
        "written by `python benchmarks/run.py openspiel-opponents`, not regenerated by this report"
    )
    if not data or not data["results"]:
        return (
            f"**Outside opponents.** Our policies against OpenSpiel's own bots: {link} ({where})."
        )
    rows = []
    for r in data["results"]:
        kind = _bot_kind(str(r["b"]))
        settings = data["bots"].get(kind, {}).get("settings", {})
        budget = (
            f", {int(settings['max_simulations']):,} simulations per decision"
            if "max_simulations" in settings
            else ""
        )
        rows.append(
            f"`{r['a_label']}` against OpenSpiel's {OPENSPIEL_BOTS.get(kind, kind)} "
            f"(`{r['b_label']}`{budget}) in {int(r['pairs']):,} duplicate pairs "
            f"({int(r['games']):,} chicas)"
        )
    played = {_bot_kind(str(r["b"])) for r in data["results"]}
    idle = [OPENSPIEL_BOTS.get(k, k) for k in data["bots"] if k not in played]
    text = (
        f"**Outside opponents.** {link} ({where}, from the committed records) holds "
        f"{len(rows)} pairing{'s' if len(rows) > 1 else ''}: " + "; ".join(rows) + "."
    )
    if idle:
        text += f" No row was played against OpenSpiel's {' or '.join(idle)}."
    return text + " The page gives each row's win rate with its interval and the bots' settings."


# --------------------------------------------------------------------------- strength vs cost
def load_sweep(path: Path = SWEEP_DATA) -> dict[str, Any] | None:
    """The strength-against-cost sweep and its provenance, or None when the file is absent.

    Returns
    -------
    dict or None
        The JSON with ``sha256`` (of the file) and ``path`` (package-relative) added.

    Raises
    ------
    ValueError
        A file that is not the sweep's JSON (no ``sweep`` list).
    """
    if not path.is_file():
        return None
    raw = path.read_bytes()
    data = json.loads(raw)
    if not isinstance(data.get("sweep"), list):
        raise ValueError(
            f"{path} has no 'sweep' list; write it with python benchmarks/run.py policies-sweep"
        )
    data["sha256"] = hashlib.sha256(raw).hexdigest()
    try:
        data["path"] = str(path.relative_to(Path(__file__).resolve().parents[2]))
    except ValueError:
        data["path"] = str(path)
    return data


def measure_speeds(
    points: list[dict[str, Any]],
    *,
    datas: int = SPEED_DATAS,
    repeats: int = SPEED_REPEATS,
    threads: int | None = None,
) -> pd.DataFrame:
    """Decisions per second of each sweep point, measured here with repeats.

    Each point's ``spec`` plays seat 0 against ``greedy`` (level data, 2 players, Quito; 20
    decisions of the policy per data) after one untimed warm-up run; ``repeats`` timed runs of
    ``datas`` datas each give a wall rate and a rate per CPU-second of this process.

    Returns
    -------
    DataFrame
        One row per point: ``policy``, ``samples``, ``spec``, ``repeats``, ``datas``,
        ``wall_mean`` / ``wall_min`` / ``wall_max`` (decisions per wall second),
        ``cpu_mean`` / ``cpu_min`` / ``cpu_max`` (per CPU-second, all threads), ``seconds``.

    Raises
    ------
    ValueError
        ``datas`` or ``repeats`` below 1.
    """
    from ..simulation import simulate

    if datas < 1 or repeats < 1:
        raise ValueError(f"datas and repeats must be >= 1, got {datas!r}, {repeats!r}")
    rows = []
    for p in points:
        kw = {"rules": "quito", "players": 2, "policies": (p["spec"], "greedy")}
        t_all = time.perf_counter()
        simulate("cuarenta", **kw, n=1, seed=1, threads=threads)
        wall, cpu = [], []
        for r in range(repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            simulate("cuarenta", **kw, n=datas, seed=2 + r, threads=threads)
            w, c = time.perf_counter() - t0, time.process_time() - c0
            wall.append(20 * datas / max(w, 1e-9))
            cpu.append(20 * datas / max(c, 1e-9))
        rows.append(
            {
                "policy": p["policy"],
                "samples": p["samples"],
                "spec": p["spec"],
                "repeats": repeats,
                "datas": datas,
                "wall_mean": float(np.mean(wall)),
                "wall_min": float(np.min(wall)),
                "wall_max": float(np.max(wall)),
                "cpu_mean": float(np.mean(cpu)),
                "cpu_min": float(np.min(cpu)),
                "cpu_max": float(np.max(cpu)),
                "seconds": time.perf_counter() - t_all,
            }
        )
    return pd.DataFrame(rows)


#: Headers of :func:`strength_rows`.
STRENGTH_HEADERS = (
    "policy",
    "samples",
    "decisions/s, wall (mean [min, max])",
    "per CPU-second (mean [min, max])",
    "win rate vs heuristic [95%]",
    "chicas",
)


def strength_rows(sweep: dict[str, Any], speeds: pd.DataFrame) -> list[list[str]]:
    """Rows: policy, samples, measured rates with their spread, the sweep's win rate."""
    sp = speeds.set_index(["policy", "samples"])
    rows = []
    for p in sweep["sweep"]:
        s = sp.loc[(p["policy"], p["samples"])]
        rows.append(
            [
                p["policy"],
                str(p["samples"]),
                f"{s['wall_mean']:,.0f} [{s['wall_min']:,.0f}, {s['wall_max']:,.0f}]",
                f"{s['cpu_mean']:,.0f} [{s['cpu_min']:,.0f}, {s['cpu_max']:,.0f}]",
                f"{100 * p['win_rate']:.1f}% [{100 * p['lower']:.1f}, {100 * p['upper']:.1f}]",
                f"{p['chicas']:,}",
            ]
        )
    return rows


def strength_sentence(sweep: dict[str, Any], speeds: pd.DataFrame) -> str:
    """The answer sentence on strength against cost (solver's lowest and highest samples)."""
    pts = [p for p in sweep["sweep"] if p["policy"] == "solver"]
    if not pts:
        return ""
    sp = speeds.set_index(["policy", "samples"])
    lo, hi = min(pts, key=lambda p: p["samples"]), max(pts, key=lambda p: p["samples"])

    def one(p: dict[str, Any]) -> str:
        s = sp.loc[(p["policy"], p["samples"])]
        return (
            f"{100 * p['win_rate']:.1f}% [{100 * p['lower']:.1f}, {100 * p['upper']:.1f}] of "
            f"{p['chicas']:,} chicas at {p['samples']} samples ({s['wall_mean']:,.0f} "
            f"decisions/s [{s['wall_min']:,.0f}, {s['wall_max']:,.0f}] over {int(s['repeats'])} "
            "timed runs here)"
        )

    return (
        f"More samples buy strength at a price: against the heuristic, `solver` wins {one(lo)} "
        f"and {one(hi)}."
    )


def non_transitivity(result: TournamentResult, sweep: dict[str, Any] | None) -> str:
    """The rendered :func:`non_transitivity_claim` (empty when the tournament lacks either
    player)."""
    claim = non_transitivity_claim(result, sweep)
    return "" if claim is None else render_claim(claim)


def _name(spec: str) -> str:
    return str(spec).split("(", 1)[0]


def _pct(r: Any) -> str:
    return f"{100 * r['win_rate']:.1f}% [{100 * r['lower']:.1f}, {100 * r['upper']:.1f}]"


_PCT = {"win_rate": 100.0, "lower": 100.0, "upper": 100.0}


def separated(a: Any, b: Any) -> bool:
    """Two sweep points' 95% intervals do not overlap (``lower`` / ``upper``): a conservative
    test of their difference (non-overlap implies a difference test at least at that level)."""
    return bool(a["lower"] > b["upper"] or b["lower"] > a["upper"])


def _samples(spec: str) -> str:
    """The ``samples`` parameter of a search policy's canonical spec (``"32"``, ``"auto"``),
    or ``""`` when it has none."""
    from .policies import parse_policy

    found = re.search(r"samples=([^,)]+)", parse_policy(str(spec)).canonical)
    return found.group(1) if found else ""


def _pair_verdict(matches: pd.DataFrame | None, a: str, b: str) -> str | None:
    """The Holm-adjusted verdict of the tournament's ``a`` against ``b`` match
    (:func:`cuarenta_sim.cuarenta.strategy_tables.pair_verdicts` column ``pair_verdict``) as
    ``"resolved"`` (a better / b better), ``"no difference"`` or ``"not resolved"``."""
    if matches is None or "pair_verdict" not in matches:
        return None
    pair = ((matches["a"] == a) & (matches["b"] == b)) | ((matches["a"] == b) & (matches["b"] == a))
    m = matches[pair & (matches["level"] == "chica")]
    if m.empty:
        return None
    word = str(m["pair_verdict"].iloc[0])
    return "resolved" if word.endswith("better") else word


def non_transitivity_claim(
    result: TournamentResult,
    sweep: dict[str, Any] | None,
    matches: pd.DataFrame | None = None,
) -> Claim | None:
    """``solver`` against ``pimc`` head to head beside both against ``heuristic``, as a claim.

    The head-to-head part names the settings that met (each player's ``samples``) and, with
    ``matches``, the match's tested verdict (McNemar on the discordant pairs, Holm over the
    pair table). The sweep part compares the two players across sample counts through their
    **marginal** 95% intervals against ``heuristic``: the sweep never plays them against each
    other, so the sentence says where the intervals overlap and where they do not, and that
    this is no test of their difference (it never calls an overlap "not resolved"); it gives
    the sweep's points at the head-to-head's ``pimc`` sample count when the sweep has it.

    Evidence: the head-to-head rows (table ``head_to_head_<p>p``, row ``a|b``: ``win_rate``,
    ``lower``, ``upper``, ``games``), the match's verdict (table ``matches_<p>p``), the sweep
    points of both players at the sample counts both were swept at (table
    ``strength_vs_cost``, row ``policy|samples``) and a derived count of the counts where
    their intervals do not overlap (:func:`separated`). The head-to-head word ("beats",
    "loses to", "is not separated from") follows the interval against 50%; the sentence
    says that strength against one opponent does not order these players against another only
    when ``solver`` beats ``pimc`` and, at the settings that met, ``pimc``'s tournament interval
    against ``heuristic`` lies above ``solver``'s; when the intervals separate only at sweep
    sample counts that never met head to head, it says the data neither show nor rule out a
    change of order.

    Parameters
    ----------
    result : TournamentResult
        The tournament (``head_to_head``, ``settings.policies``, ``settings.players``).
    sweep : dict or None
        :func:`load_sweep` output.
    matches : DataFrame, optional
        The tournament's matches with Holm verdicts (``pair_verdict``).

    Returns
    -------
    Claim or None
        None when the tournament lacks ``solver`` or ``pimc`` or their match.
    """
    table = result.head_to_head
    names = {_name(p): p for p in result.settings.policies}
    if table is None or "solver" not in names or "pimc" not in names:
        return None
    row = table[(table["a"] == names["solver"]) & (table["b"] == names["pimc"])]
    if row.empty:
        return None
    players = int(result.settings.players)
    h2h = f"head_to_head_{players}p"

    def ev(r: Any) -> Evidence:
        return Evidence(
            table=h2h,
            row=f"{r['a']}|{r['b']}",
            values={k: float(r[k]) for k in ("win_rate", "lower", "upper", "games")},
            model=_name(r["a"]),
            scale=_PCT,
        )

    r = row.iloc[0]
    word = (
        "beats" if r["lower"] > 0.5 else "loses to" if r["upper"] < 0.5 else "is not separated from"
    )
    met = {k: _samples(names[k]) for k in ("solver", "pimc")}
    values: dict[str, Any] = {
        "p": players,
        "word": word,
        "h2h": _pct(r),
        "games": int(r["games"]),
        "s_set": met["solver"],
        "p_set": met["pimc"],
    }
    template = (
        "With {p} players `solver` (samples={s_set}) {word} `pimc` (samples={p_set}) head to "
        "head here: {h2h} of {games:,} chicas"
    )
    evidence = [ev(r)]
    evidence += [
        Evidence(
            table="tournament_policies",
            row=names[k],
            values={"samples": float(met[k])},
            model=k,
        )
        for k in ("solver", "pimc")
        if met[k].isdigit()
    ]
    tested = _pair_verdict(matches, r["a"], r["b"])
    if tested is not None:
        template += (
            ", {tested} by the McNemar test on the discordant duplicate pairs (Holm over the "
            "pair table)"
        )
        values["tested"] = tested
        evidence.append(
            Evidence(
                table=f"matches_{players}p",
                row=f"{r['a']}|{r['b']}|chica",
                values={"games": float(r["games"])},
                verdict=tested,
                model="solver",
            )
        )
    # A change of order is shown only at the settings that met: both tournament rows against
    # heuristic separated, pimc's above (the sweep's other sample counts never met).
    met_reversed = False
    if "heuristic" in names:
        vs = {}
        for k in ("solver", "pimc"):
            h = table[(table["a"] == names[k]) & (table["b"] == names["heuristic"])]
            if not h.empty:
                vs[k] = h.iloc[0]
        if len(vs) == 2:
            template += (
                "; at these settings they win {vs_s} and {vs_p} against `heuristic` in this "
                "tournament"
            )
            values |= {
                "vs_s": f"{100 * vs['solver']['win_rate']:.1f}%",
                "vs_p": f"{100 * vs['pimc']['win_rate']:.1f}%",
            }
            evidence += [ev(vs["solver"]), ev(vs["pimc"])]
            met_reversed = bool(vs["pimc"]["lower"] > vs["solver"]["upper"])
    sweep_players: tuple[int, ...] = ()
    by = {(p["policy"], p["samples"]): p for p in (sweep or {}).get("sweep", [])}
    counts = sorted({s for pol, s in by if pol == "solver"} & {s for pol, s in by if pol == "pimc"})
    if counts:
        sp = int((sweep or {}).get("sweep_settings", {}).get("players", 2))
        sweep_players = (sp,)
        apart = [s for s in counts if separated(by[("pimc", s)], by[("solver", s)])]
        overlap = [s for s in counts if s not in apart]
        pimc_apart = [
            s for s in apart if by[("pimc", s)]["win_rate"] > by[("solver", s)]["win_rate"]
        ]
        values |= {
            "sp": sp,
            "nc": len(counts),
            "no": len(overlap),
            "chicas": int(by[("pimc", counts[-1])]["chicas"]),
        }
        template += (
            ". The strength-against-cost sweep ({sp} players, {chicas:,} chicas per point, each "
            "player against `heuristic` at equal sample counts) never plays them against each "
            "other, so it compares them only through their marginal 95% intervals, which is no "
            "test of their difference"
        )
        if apart:
            details = "; ".join(
                f"at {s} samples `pimc` {_pct(by[('pimc', s)])} against `solver` "
                f"{_pct(by[('solver', s)])}"
                for s in apart
            )
            template += (
                ": the intervals do not overlap at {apart} of {nc} sample counts ({details})"
            )
            values |= {"apart": len(apart), "details": details}
            if overlap:
                template += " and overlap at the other {no} ({listed})"
        else:
            template += ": the intervals overlap at every one of the {nc} sample counts ({listed})"
        values["listed"] = ", ".join(map(str, overlap))
        p_at = int(met["pimc"]) if met["pimc"].isdigit() else None
        if p_at in counts and p_at not in apart:
            template += (
                "; at {p_at} samples, `pimc`'s head-to-head setting, `pimc` {p_at_p} against "
                "`solver` {p_at_s}"
            )
            values |= {
                "p_at": p_at,
                "p_at_p": _pct(by[("pimc", p_at)]),
                "p_at_s": _pct(by[("solver", p_at)]),
            }
        evidence.append(
            Evidence(
                table="derived",
                row="sample counts where the intervals of pimc and solver do not overlap",
                values={
                    "apart": float(len(apart)),
                    "overlap": float(len(overlap)),
                    "counts": float(len(counts)),
                },
            )
        )
        evidence += [
            Evidence(
                table="strength_vs_cost",
                row=f"{pol}|{s}",
                values={
                    k: float(by[(pol, s)][k])
                    for k in ("win_rate", "lower", "upper", "samples", "chicas")
                },
                model=pol,
                scale=_PCT,
            )
            for s in counts
            for pol in ("solver", "pimc")
        ]
        if word == "beats" and (pimc_apart or met_reversed):
            if met_reversed:
                # At the very settings that met, pimc's interval against heuristic lies above
                # solver's while solver beats pimc head to head: a change of order is shown.
                template += (
                    "; at the settings that met head to head, `pimc`'s interval against "
                    "`heuristic` lies above `solver`'s while `solver` beats `pimc`, so strength "
                    "against one opponent does not order these players against another"
                )
            else:
                template += (
                    "; at the settings that met head to head their rates against `heuristic` "
                    "overlap, and the sweep's intervals separate only at {apart_at} samples, "
                    "never played head to head, so the data neither show nor rule out that "
                    "strength against one opponent orders these players differently against "
                    "another"
                )
                values["apart_at"] = ", ".join(map(str, pimc_apart))
    models = tuple(n for n in ("solver", "pimc", "heuristic") if n in names)
    return Claim(
        id=f"strategies.non_transitivity.{players}p",
        template=template + ".",
        values=values,
        evidence=tuple(evidence),
        test="duplicate chicas, clustered Wilson interval per pair (95%, not adjusted); the "
        "sweep is package data, one repeat per point",
        verdict="",
        scope=Scope(
            models=models,
            players=tuple(sorted({players, *sweep_players})),
            rules=("quito",),
        ),
        constants={"confidence of the sweep's intervals, %": 95} if counts else {},
        caveats=(
            "the head-to-head word follows the pair's interval against 50%; its verdict is "
            "McNemar's, Holm over the pair table",
            "the sweep's points are one repeat each, each player against heuristic; the two "
            "players are compared only by the overlap of their marginal 95% intervals, no test",
        ),
    )
