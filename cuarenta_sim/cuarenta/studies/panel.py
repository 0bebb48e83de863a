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
    """

    label: str
    policies: tuple[str, ...]
    n: int
    role: str
    n_chicas: int = 1
    n_mesas: int = 1


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


def panel_models(settings: StudySettings) -> list[Model]:
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
        out.append(
            Model(
                f"{settings.confirm} (confirm)",
                tuple(split_policy_list(settings.confirm)),
                n,
                "confirm",
                max(1, n // 4),
                max(1, n // 10),
            )
        )
    return out


def _magnitude_range(values: list[float], unit: str) -> str:
    vals = sorted(values, key=abs)
    k, sfx, dec = {"relative": (100.0, "%", 1), "pp": (100.0, " pp", 2)}.get(unit, (1.0, "", 3))

    def fmt(v: float) -> str:
        return f"{format_number(v * k, dec)}{sfx}"

    if len(vals) == 1:
        return f"size {fmt(vals[0])}"
    return f"size from {fmt(vals[0])} to {fmt(vals[-1])}"


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
        magnitude) over the resolved models of the commonest sign. ``"identical under every
        model"`` and ``"no difference under any model"`` when that is so. Runs labelled
        ``"too small to tell"`` (:data:`cuarenta_sim.studies.claims.TOO_SMALL`) are left out of
        the count, for and against, and listed apart (``"too small to tell in 1 (not
        counted)"``).

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
    # A run labelled too small to tell is never counted for or against agreement (issue 18).
    small = int((rows["verdict"].astype(str) == TOO_SMALL).sum())
    rows = rows[rows["verdict"].astype(str) != TOO_SMALL]
    if rows.empty:
        return f"{TOO_SMALL} in {small}"
    m = len(rows)
    verdict = rows["verdict"].astype(str)
    est = rows["estimate"].to_numpy(dtype=np.float64)
    resolved = verdict.str.startswith("resolved").to_numpy()
    if (verdict == "identical").all():
        return "identical under every model"
    if verdict.isin(["identical", "negligible"]).all():
        return f"no difference under any of the {m} models"
    pos = resolved & (est > 0)
    neg = resolved & (est < 0)
    main = pos if pos.sum() >= neg.sum() else neg
    parts = [f"same sign in {int(main.sum())} of {m} models"]
    other = (neg if main is pos else pos).sum()
    if other:
        parts.append(f"opposite sign in {int(other)}")
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
        rel = rows["relative"].to_numpy(dtype=np.float64)[main]
        use_rel = want_rel and bool(np.isfinite(rel).all())
        values = list(rel) if use_rel else list(est[main])
        line += "; " + _magnitude_range(values, "relative" if use_rel else "pp" if pct else "")
    return line


def _short_form(line: str) -> str:
    """The console form of a :func:`robustness` line: the sign agreement only (the console
    row shows every model's size beside it)."""
    import re

    if line == "identical under every model":
        return "identical in all"
    if line.startswith(TOO_SMALL):
        return "too small in all"
    if line.startswith("no difference under any"):
        return "no diff. in all"
    main = re.match(r"same sign in (\d+) of (\d+) models", line)
    if main is None:
        found = re.match(r"no resolved effect in (\d+) models", line)
        return f"0/{found.group(1) if found else '?'} resolved"
    text = f"{main.group(1)}/{main.group(2)} same sign"
    opposite = re.search(r"opposite sign in (\d+)", line)
    return text + (f", {opposite.group(1)} opposite" if opposite else "")


def agrees(rows: pd.DataFrame) -> bool:
    """Whether every model resolves the effect with one sign (the robust case).

    Parameters
    ----------
    rows : DataFrame
        One difference row per model (``estimate``, ``verdict``).

    Returns
    -------
    bool
    """
    verdict = rows["verdict"].astype(str)
    if not verdict.str.startswith("resolved").all():
        return False
    signs = np.sign(rows["estimate"].to_numpy(dtype=np.float64))
    return bool(len(set(signs.tolist())) == 1)
