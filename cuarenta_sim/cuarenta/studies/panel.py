"""Player panels: one rule study run under several player models, side by side.

A *model* is a policy list for the seats (``"learned"``: learned at every seat;
``"heuristic,greedy"``: one per side); a *panel* is several models separated by ``;``
(``--policies 'learned;heuristic;greedy'``), the first being the headline. Every model plays
the same decks (same seed), so each model's rule effect is a paired difference on those decks,
and the panel asks whether the effect's sign and size hold across players
(:func:`robustness`). A *confirmatory* model (``--confirm solver --confirm-n N``) is a smaller
run of a slow, strong player beside the panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...reports import format_number
from ...studies import StudySettings
from ...studies.claims import TOO_SMALL
from .common import PERCENT_METRICS

#: Panel models other than the headline play ``n // PANEL_DIVISOR`` datas (and chicas and
#: mesas scaled alike): they answer "does the effect keep its sign and size?", which needs
#: far fewer datas than the headline's estimate, and keeps a panel's wall time near the
#: headline's own.
PANEL_DIVISOR = 4

#: Stated detectable difference of the sized confirmatory run, per player count: the half-width
#: (fraction, 0.015 = 1.5 percentage points) of its 95% interval of the Cuenca - Quito relative
#: change of chica length, the headline effect (:func:`confirm_plan`).
CONFIRM_DETECTABLE = {2: 0.015, 4: 0.0175}

#: Per-chica standard deviation of that relative change's delta-method influence under the
#: solver (design values): 2 players from ``python benchmarks/run.py learned-proxy`` (20,000
#: paired chicas, half-width 0.31 pp), 4 players from the 125-chica confirmatory run of the
#: committed report (half-width 4.15 pp).
SOLVER_CHICA_SD = {2: 0.224, 4: 0.237}

#: The 4-player confirmation's solver setting when ``--confirm solver`` is the default: 128
#: samples instead of ``samples=auto``'s 256, half the cost per decision and still stronger
#: than the heuristic (57.95% [56.41, 59.47] of 4,000 duplicate chicas against it,
#: benchmarks/README.md); disclosed in the report's Methods.
CONFIRM_SOLVER_4P = "solver(samples=128)"


@dataclass(frozen=True)
class Model:
    """One player model of a panel.

    Attributes
    ----------
    label : str
        Column heading: the policy list as typed (``"learned"``), ``" (confirm)"`` appended
        for the confirmatory model.
    policies : tuple of str
        Policy specs for :func:`cuarenta_sim.simulate` (one for every seat, per side or per
        seat).
    n : int
        Datas at level data.
    role : str
        ``"headline"``, ``"panel"`` or ``"confirm"``.
    n_chicas, n_mesas : int
        Chicas and mesas (see :func:`panel_models`).
    plan : tuple of (players, policies, datas, chicas, mesas)
        Per-player-count sizes of a sized confirmatory model (:func:`confirm_plan`); empty:
        the same sizes for every player count.
    """

    label: str
    policies: tuple[str, ...]
    n: int
    role: str
    n_chicas: int = 1
    n_mesas: int = 1
    plan: tuple[tuple[int, tuple[str, ...], int, int, int], ...] = ()

    def run(self, players: int) -> tuple[tuple[str, ...], int, int, int]:
        """``(policies, datas, chicas, mesas)`` this model plays with ``players`` (0 skips a
        level); a sized confirmatory model has its own per player count (:attr:`plan`)."""
        for p, pol, n, c, m in self.plan:
            if p == players:
                return pol, n, c, m
        return self.policies, self.n, self.n_chicas, self.n_mesas


def parse_models(text: str | Sequence[str]) -> tuple[str, ...]:
    """Split a panel ``'learned;heuristic;greedy'`` into model texts, each checked.

    Parameters
    ----------
    text : str or sequence of str
        Models separated by ``;``; each a comma-separated policy list (commas inside a
        spec's parentheses do not split). A sequence is joined with ``,`` first (one model
        given as separate specs).

    Returns
    -------
    tuple of str
        The models, stripped, in order, each in canonical spacing (specs joined by ``,``).

    Raises
    ------
    ValueError
        An empty model (``'greedy;;learned'``, a trailing ``;``), a malformed policy list, or
        the same model twice; one line saying what is accepted.
    """
    from ..policies import split_policy_list

    joined = text if isinstance(text, str) else ",".join(text)
    parts = [p.strip() for p in joined.split(";")]
    accepted = "models separated by ';', each a policy list, e.g. 'learned;heuristic;greedy'"
    if not parts or any(not p for p in parts):
        raise ValueError(f"--policies {joined!r}: empty model; accepted: {accepted}")
    models = []
    for p in parts:
        try:
            models.append(",".join(split_policy_list(p)))
        except ValueError as err:
            raise ValueError(f"--policies {joined!r}: {err}; accepted: {accepted}") from err
    if len(set(models)) != len(models):
        raise ValueError(f"--policies {joined!r}: a model is listed twice; accepted: {accepted}")
    return tuple(models)


def confirm_plan(
    settings: StudySettings, confirm_n: int
) -> tuple[tuple[int, tuple[str, ...], int, int, int], ...]:
    """Sizes of the confirmatory run, per player count, from a stated detectable difference.

    The confirmation asks whether the solver, the strongest player, finds the headline effect
    (the Cuenca - Quito change of chica length) of the size the panel finds. Each player
    count plays the chicas :func:`cuarenta_sim.sizing.required_n` gives for a 95% half-width
    of :data:`CONFIRM_DETECTABLE` (1.5 pp with 2 players: 857 chicas; 1.75 pp with 4:
    705) with the per-chica spread :data:`SOLVER_CHICA_SD`, capped at the headline's chicas.
    With 2 players it also plays ``confirm_n`` datas at level data (points, sources); with 4
    players only chicas, and with ``--confirm solver`` the cheaper
    :data:`CONFIRM_SOLVER_4P` (the 4-player solver costs about ten times the 2-player one
    per chica: confirming every metric there is what made the old 500-data run 70% of the
    report's time). No mesas: the few a confirmation could afford tell nothing about chicas
    per mesa.

    Parameters
    ----------
    settings : StudySettings
        ``confirm``, ``players``, ``n_chicas``, ``confidence``.
    confirm_n : int
        Datas at level data with 2 players.

    Returns
    -------
    tuple of (players, policies, datas, chicas, mesas)
    """
    from ...sizing import required_n
    from ..policies import split_policy_list

    assert settings.confirm is not None
    out = []
    for players in settings.players:
        spec = settings.confirm
        if players == 4 and spec.strip() == "solver":
            spec = CONFIRM_SOLVER_4P
        need = required_n(
            "mean",
            CONFIRM_DETECTABLE.get(players, 0.015),
            sd=SOLVER_CHICA_SD.get(players, 0.24),
            confidence=settings.confidence,
        )
        chicas = max(1, min(need, settings.n_chicas))
        datas = confirm_n if players == 2 else 0
        out.append((players, tuple(split_policy_list(spec)), datas, chicas, 0))
    return tuple(out)


def panel_models(settings: StudySettings, *, sized_confirm: bool = False) -> list[Model]:
    """The models a study runs: the panel (headline first), then the confirmatory model.

    Sizes: the headline plays ``settings.n`` datas, ``n_chicas`` chicas and ``n_mesas``
    mesas; every other panel model plays ``n // PANEL_DIVISOR`` datas and the chicas and
    mesas scaled alike (``settings.model_n`` overrides the datas of each model); the
    confirmatory model plays ``confirm_n`` datas, ``confirm_n // 4`` chicas and
    ``confirm_n // 10`` mesas. All use the same seed: a smaller run plays the first decks of
    a larger one.

    Parameters
    ----------
    settings : StudySettings
        ``models`` (empty: one model, ``policies``), ``model_n``, ``n``, ``n_chicas``,
        ``n_mesas``, ``confirm``, ``confirm_n``.
    sized_confirm : bool
        Size the confirmatory model per player count to its stated detectable difference
        (:func:`confirm_plan`; the quito-vs-cuenca design) instead of ``confirm_n`` datas,
        ``confirm_n // 4`` chicas and ``confirm_n // 10`` mesas for every player count.

    Returns
    -------
    list of Model
    """
    from ..policies import split_policy_list

    texts = list(settings.models) or [",".join(settings.policies)]
    if settings.model_n:
        sizes = list(settings.model_n)
    else:
        sizes = [settings.n] + [max(1, settings.n // PANEL_DIVISOR)] * (len(texts) - 1)

    def scaled(count: int, n: int) -> int:
        return max(1, count * n // settings.n)

    out = [
        Model(
            t,
            tuple(split_policy_list(t)),
            int(n),
            "headline" if i == 0 else "panel",
            scaled(settings.n_chicas, n),
            scaled(settings.n_mesas, n),
        )
        for i, (t, n) in enumerate(zip(texts, sizes, strict=True))
    ]
    if settings.confirm is not None:
        n = settings.confirm_n or max(1, settings.n // 500)
        plan = confirm_plan(settings, n) if sized_confirm else ()
        out.append(
            Model(
                f"{settings.confirm} (confirm)",
                tuple(split_policy_list(settings.confirm)),
                n,
                "confirm",
                max(1, n // 4),
                max(1, n // 10),
                plan,
            )
        )
    return out


def _decimals(x: float, dec: int) -> int:
    """At least ``dec`` decimals, more when ``x`` would round to 0 or keep under two
    significant digits (0.0045 pp prints as such, not as "0.00 pp")."""
    if not np.isfinite(x) or x == 0.0:
        return dec
    return max(dec, 1 - int(np.floor(np.log10(abs(x)))))


def _magnitude_range(values: list[float], unit: str, opposite: list[float] | None = None) -> str:
    """``"size from -5.8% to -8.8%"`` over ``values`` (smallest to largest magnitude); with
    ``opposite`` (the resolved sizes of the other sign) signed sizes and the opposite range:
    ``"size +0.0045 pp; opposite sign -0.0025 pp"``."""
    k, sfx, dec = {"relative": (100.0, "%", 1), "pp": (100.0, " pp", 2)}.get(unit, (1.0, "", 3))
    signed = bool(opposite)

    def fmt(v: float) -> str:
        text = format_number(v * k, _decimals(v * k, dec))
        return f"{'+' if signed and v > 0 else ''}{text}{sfx}"

    def span(vals: list[float]) -> str:
        vals = sorted(vals, key=abs)
        if len(vals) == 1:
            return fmt(vals[0])
        return f"from {fmt(vals[0])} to {fmt(vals[-1])}"

    line = f"size {span(values)}"
    if opposite:
        line += f"; opposite sign {span(opposite)}"
    return line


def robustness(rows: pd.DataFrame, *, relative: bool | None = None, short: bool = False) -> str:
    """Do the models agree on an effect's sign and size? One line.

    Parameters
    ----------
    rows : DataFrame
        One difference row per model (columns ``estimate``, ``verdict``, ``relative``; any
        order), e.g. the rows of one metric and player count.
    relative : bool or None
        Give the size as the relative difference (``relative``, in %) when every model has
        one; else as the absolute ``estimate`` (in percentage points, "pp", when the metric
        is a percentage). None: relative except for percentage metrics (column ``metric``,
        :data:`.common.PERCENT_METRICS`), whose size is their difference in points.

    Returns
    -------
    str
        ``"same sign in 3 of 3 models; size from -5.9% to -8.9%"``: the count of models
        whose effect is resolved with the commonest sign, out of all models, then the models
        that are not resolved, negligible ("no difference") or identical, or whose resolved
        sign is the other one (``"opposite sign in 1"``); the size range (smallest to largest
        magnitude) over the resolved models of the commonest sign; when both signs are
        resolved, the signs are named (``"same sign in 1 of 3 models (positive); opposite
        sign in 1 (negative)"``) and both sizes are given, signed, with enough decimals to
        show two significant digits. ``"identical under the 3 models run"`` (counted from
        ``rows``: a model not run at this level is not said to be identical) and ``"no
        difference under any of the 3 models"`` when that is so. Runs labelled
        ``"too small to tell"`` (:data:`cuarenta_sim.studies.claims.TOO_SMALL`), and identical
        runs too small to have seen a change (:func:`blind_identical`), are left out of the
        count, for and against, and listed apart (``"too small to tell in 1 (not
        counted)"``); then the all-agree forms name the models that can tell (``"no
        difference under any of the 3 models that can tell (learned, heuristic, greedy);
        too small to tell in 1 (not counted)"``).

        With ``short``, the console form: ``"3/3 same sign"`` (``", 1 opposite"`` when a
        resolved model disagrees; ``"0/3 resolved"``, ``"identical in all"``, ``"no diff.
        in all"``).

    Raises
    ------
    ValueError
        On an empty frame.
    """
    if rows.empty:
        raise ValueError("robustness needs at least one model's row")
    if short:
        return _short_form(robustness(rows, relative=relative))
    # A run labelled too small to tell is never counted for or against agreement (issue 18),
    # nor is an identical run too small to have seen a change (:func:`blind_identical`).
    cannot = (rows["verdict"].astype(str) == TOO_SMALL).to_numpy() | blind_identical(rows)
    small = int(cannot.sum())
    rows = rows[~cannot]
    if rows.empty:
        return f"{TOO_SMALL} in {small} of {small} models"
    m = len(rows)
    verdict = rows["verdict"].astype(str)
    est = rows["estimate"].to_numpy(dtype=np.float64)
    resolved = verdict.str.startswith("resolved").to_numpy()
    not_counted = f"; {TOO_SMALL} in {small} (not counted)" if small else ""
    if (verdict == "identical").all():
        # counted from the rows given: a model not run at this level is not among them
        who = f"the {m} models" if m > 1 else "the one model"
        if not small:
            return f"identical under {who} run"
        return f"identical under {who} that can tell ({_names(rows)}){not_counted}"
    if verdict.isin(["identical", "negligible"]).all():
        if not small:
            return f"no difference under any of the {m} models"
        who = f"any of the {m} models" if m > 1 else "the one model"
        return f"no difference under {who} that can tell ({_names(rows)}){not_counted}"
    pos = resolved & (est > 0)
    neg = resolved & (est < 0)
    main = pos if pos.sum() >= neg.sum() else neg
    parts = [f"same sign in {int(main.sum())} of {m} models"]
    other_mask = neg if main is pos else pos
    other = other_mask.sum()
    if other:
        # both signs resolved: name which sign is the reference one
        words = ("positive", "negative") if main is pos else ("negative", "positive")
        parts[0] += f" ({words[0]})"
        parts.append(f"opposite sign in {int(other)} ({words[1]})")
    for word, label in (
        ("not resolved", "not resolved"),
        ("undefined", "undefined"),
        ("negligible", "no difference"),
        ("identical", "identical"),
    ):
        count = int((verdict == word).sum())
        if count:
            parts.append(f"{label} in {count}")
    if not main.any():
        parts[0] = f"no resolved effect in {m} models"
    if small:
        parts.append(f"{TOO_SMALL} in {small} (not counted)")
    line = "; ".join(parts)
    if main.any():
        pct = "metric" in rows and bool(rows["metric"].isin(list(PERCENT_METRICS)).all())
        want_rel = (not pct) if relative is None else relative
        rel_all = rows["relative"].to_numpy(dtype=np.float64)
        rel = rel_all[main | other_mask]
        use_rel = want_rel and bool(np.isfinite(rel).all())
        src = rel_all if use_rel else est
        values = list(src[main])
        opposite = list(src[other_mask]) if other else None
        unit = "relative" if use_rel else "pp" if pct else ""
        line += "; " + _magnitude_range(values, unit, opposite)
    return line


#: An identical run tells "no change" only if, at the share of pairs that differ under the
#: other models' runs of the same row, it would expect at least this many differing pairs
#: (rule of three: seeing 0 is then unlikely were the change there).
BLIND_PAIRS = 3.0


def blind_identical(rows: pd.DataFrame) -> np.ndarray:
    """Which identical runs are too small to have seen a change the other runs see.

    A run in which no pair differed says "no change" only when it was large enough to see one:
    at the highest share of differing pairs among the other models' runs of the same row,
    it would expect ``BLIND_PAIRS`` (3) or more differing pairs. The sensitivity report's
    25-chica solver run of ``at_38=no_limpia`` is identical while larger runs see a change in
    a few pairs per hundred or thousand: it cannot tell, so it is not counted as agreeing.

    Parameters
    ----------
    rows : DataFrame
        One difference row per model (``verdict``; ``differing`` and ``n`` when known).

    Returns
    -------
    ndarray of bool
        True for an identical row that is blind by that rule; all False without the
        ``differing`` and ``n`` columns, or when no other run saw a differing pair.
    """
    verdict = rows["verdict"].astype(str).to_numpy()
    out = np.zeros(len(rows), dtype=bool)
    if "differing" not in rows or "n" not in rows:
        return out
    n = rows["n"].to_numpy(dtype=np.float64)
    differing = rows["differing"].to_numpy(dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(n > 0, differing / n, np.nan)
    for i in np.flatnonzero(verdict == "identical"):
        others = np.delete(share, i)
        others = others[np.isfinite(others)]
        top = float(others.max()) if others.size else 0.0
        out[i] = top > 0.0 and n[i] * top < BLIND_PAIRS
    return out


def _names(rows: pd.DataFrame) -> str:
    if "model" not in rows:
        return f"{len(rows)} models"
    return ", ".join(str(m).replace(" (confirm)", "") for m in rows["model"])


def _short_form(line: str) -> str:
    """The console form of a :func:`robustness` line: the sign agreement only (the console
    row shows every model's size beside it)."""
    import re

    if line.startswith("identical under"):
        return "identical in all" + (" that can tell" if "can tell" in line else "")
    if line.startswith(TOO_SMALL):
        return "too small in all"
    if line.startswith("no difference under"):
        return "no diff. in all" + (" that can tell" if "can tell" in line else "")
    main = re.match(r"same sign in (\d+) of (\d+) models", line)
    if main is None:
        found = re.match(r"no resolved effect in (\d+) models", line)
        return f"0/{found.group(1) if found else '?'} resolved"
    text = f"{main.group(1)}/{main.group(2)} same sign"
    opposite = re.search(r"opposite sign in (\d+)", line)
    return text + (f", {opposite.group(1)} opposite" if opposite else "")


def agrees(rows: pd.DataFrame) -> bool:
    """Whether every model that could tell resolves the effect with one sign (the robust case;
    "too small to tell" rows count neither way).

    Parameters
    ----------
    rows : DataFrame
        One difference row per model (``estimate``, ``verdict``).

    Returns
    -------
    bool
    """
    verdict = rows["verdict"].astype(str)
    told = (verdict != "too small to tell").to_numpy()
    if not told.any() or not verdict[told].str.startswith("resolved").all():
        return False
    signs = np.sign(rows["estimate"].to_numpy(dtype=np.float64)[told])
    return bool(len(set(signs.tolist())) == 1)
