"""Paired comparisons of variants with common random numbers, and rule sensitivity.

Two parts:

* **Generic plumbing** (no Cuarenta in it; a second game reuses it): a :class:`Metric` says
  how to read one per-unit quantity from a tidy frame of one *level* (``"data"``, ``"chica"``,
  ...); :func:`estimate_metrics` estimates metrics with intervals, :func:`paired_differences`
  compares two variants unit by unit, :func:`compare_variants` runs a baseline and variants
  through a caller's ``run`` function and collects both.
* **Cuarenta**: :func:`cuarenta_metrics` (the catalogue: points per data by source, caida and
  limpia rates, the dealer's advantage, chica and mesa figures), :func:`simulate_frames`,
  :func:`compare_rules`, :func:`switch_flips` and :func:`sensitivity`.

Common random numbers
---------------------
``simulate(..., seed=s)`` deals the same deck to data ``i`` (level data), and to data ``d`` of
chica / mesa ``j`` with the same first dealer, whatever the rules (``docs/engine_contract.md``
section 2). Row ``i`` of one rule set's frame and row ``i`` of another's therefore played the
same cards: the paired differences cancel the deal-to-deal noise and get much tighter
intervals than independent runs (a rule set compared with itself differs by exactly 0).

Interval methods: see :mod:`cuarenta_sim.stats` (``wilson``, ``normal``, ``ratio`` for
estimates; ``paired``, ``paired ratio``, ``paired log-ratio`` for differences).

The code is split by job: the generic plumbing in :mod:`.compare_paired`, the Cuarenta metric
catalogue in :mod:`.compare_metrics`, the runs (:func:`simulate_frames` to
:func:`sensitivity`) here; every public name is importable from this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ..switches import format_value
from .compare_metrics import CUARENTA_KEYS as CUARENTA_KEYS
from .compare_metrics import FRAME_LEVELS as FRAME_LEVELS
from .compare_metrics import HANDS_PER_DATA as HANDS_PER_DATA
from .compare_metrics import POINT_SOURCES as POINT_SOURCES
from .compare_metrics import cuarenta_metrics as cuarenta_metrics
from .compare_paired import DIFFERENCE_COLUMNS as DIFFERENCE_COLUMNS
from .compare_paired import ESTIMATE_METRIC_COLUMNS as ESTIMATE_METRIC_COLUMNS
from .compare_paired import KINDS as KINDS
from .compare_paired import ArrayFn as ArrayFn
from .compare_paired import Comparison as Comparison
from .compare_paired import Metric as Metric
from .compare_paired import compare_variants as compare_variants
from .compare_paired import estimate_metrics as estimate_metrics
from .compare_paired import paired_differences as paired_differences
from .rules import AT_38, LEFTOVERS, PRESETS, SWITCHES, TIMINGS, RuleSet


def simulate_frames(
    rules: RuleSet | str,
    *,
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n_datas: int = 0,
    n_chicas: int = 0,
    n_mesas: int = 0,
    seed: int = 0,
    threads: int | None = None,
    chica_hands: bool = False,
    runs: list[dict[str, Any]] | None = None,
) -> dict[str, pd.DataFrame]:
    """Simulate one rule set at the levels a comparison needs.

    Parameters
    ----------
    rules : RuleSet or str
        Rule set, preset name or slug (spec section S).
    players : int
        2 or 4 (R2.1).
    policies : str or sequence of str
        Policy names (one, per side or per seat).
    n_datas, n_chicas, n_mesas : int
        Games per level; 0 skips the level.
    seed : int
        Seed shared by every level and (for pairing) every rule set.
    threads : int or None
        numba threads.
    chica_hands : bool
        Also return the per-data records of the chicas (``"chica_hands"``: scores after every
        data), for the win probability by score state.
    runs : list, optional
        When given, the ``Results.provenance`` of every simulation is appended to it.

    Returns
    -------
    dict of str to DataFrame
        Keys among :data:`FRAME_LEVELS`: ``"data"`` (``Results.hands`` of level data),
        ``"chica"`` (``Results.games`` of level chica), ``"chica_hands"``, ``"mesa"``
        (``Results.games`` of level mesa).

    Raises
    ------
    ValueError
        From :func:`cuarenta_sim.simulate` (bad rules, players, policies, counts, seed).
    """
    from ..simulation import simulate

    common = {
        "rules": rules,
        "players": players,
        "policies": policies,
        "seed": seed,
        "threads": threads,
    }
    out: dict[str, pd.DataFrame] = {}
    if n_datas:
        res = simulate(n=n_datas, level="data", **common)
        assert res.hands is not None
        out["data"] = res.hands
        if runs is not None:
            runs.append(res.provenance)
    if n_chicas:
        res = simulate(n=n_chicas, level="chica", keep_hands=chica_hands, **common)
        assert res.games is not None
        if runs is not None:
            runs.append(res.provenance)
        out["chica"] = res.games
        if chica_hands:
            assert res.hands is not None
            out["chica_hands"] = res.hands
    if n_mesas:
        res = simulate(n=n_mesas, level="mesa", keep_hands=False, **common)
        assert res.games is not None
        if runs is not None:
            runs.append(res.provenance)
        out["mesa"] = res.games
    return out


def compare_rules(
    rules: Mapping[str, RuleSet | str] | Sequence[RuleSet | str],
    *,
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n_datas: int = 100_000,
    n_chicas: int = 20_000,
    n_mesas: int = 10_000,
    seed: int = 0,
    baseline: str | None = None,
    confidence: float = 0.95,
    threads: int | None = None,
    keep: Iterable[str] = (),
    metrics: Sequence[Metric] | None = None,
    on_variant: Callable[[str], None] | None = None,
) -> Comparison:
    """Paired comparison of rule sets: the same seeds and decks under each (common random
    numbers).

    Parameters
    ----------
    rules : mapping of label to rules, or sequence of rules
        Rule sets (RuleSet, preset name or slug); a sequence is labelled by slugs.
    players : int
        2 or 4.
    policies : str or sequence of str
        Policy names, as for :func:`cuarenta_sim.simulate`.
    n_datas, n_chicas, n_mesas : int
        Datas (level data), chicas and mesas per rule set; 0 skips a level.
    seed : int
        Seed of every run.
    baseline : str, optional
        Label of the baseline; default the first rule set.
    confidence : float
        Two-sided confidence level.
    threads : int or None
        numba threads.
    keep : iterable of str
        Frame levels (:data:`FRAME_LEVELS`) to keep in :attr:`Comparison.frames`;
        ``"chica_hands"`` is simulated only when kept.
    metrics : sequence of Metric, optional
        Default :func:`cuarenta_metrics`.
    on_variant : callable, optional
        Called with each label before it is simulated.

    Returns
    -------
    Comparison
        ``meta`` holds ``players``, ``policies``, ``seed``, the counts, ``confidence``, the
        slug of every label (``rules``) and the provenance of every simulation (``runs``).

    Raises
    ------
    ValueError
        Bad rules, duplicate labels, sizes all 0 or beyond ``2**53``, or bad simulation
        arguments.
    """
    from ..limits import check_sizes
    from .rules import resolve_rules

    check_sizes({"n_datas": n_datas, "n_chicas": n_chicas, "n_mesas": n_mesas})
    if isinstance(rules, Mapping):
        named = {str(k): resolve_rules(v) for k, v in rules.items()}
    else:
        resolved = [resolve_rules(r) for r in rules]
        named = {r.slug(): r for r in resolved}
        if len(named) != len(resolved):
            raise ValueError("compare_rules got the same rule set twice; label them with a dict")
    keep = tuple(keep)
    for lv in keep:
        if lv not in FRAME_LEVELS:
            raise ValueError(f"unknown frame level {lv!r}; accepted: {', '.join(FRAME_LEVELS)}")

    runs: list[dict[str, Any]] = []

    def run(rs: RuleSet) -> dict[str, pd.DataFrame]:
        return simulate_frames(
            rs,
            players=players,
            policies=policies,
            n_datas=n_datas,
            n_chicas=n_chicas,
            n_mesas=n_mesas,
            seed=seed,
            threads=threads,
            chica_hands="chica_hands" in keep,
            runs=runs,
        )

    comp = compare_variants(
        named,
        run,
        cuarenta_metrics() if metrics is None else metrics,
        baseline=baseline,
        confidence=confidence,
        keep=keep,
        keys=CUARENTA_KEYS,
        on_variant=on_variant,
    )
    comp.meta = {
        "players": players,
        "policies": list(policies) if not isinstance(policies, str) else [policies],
        "seed": seed,
        "n_datas": n_datas,
        "n_chicas": n_chicas,
        "n_mesas": n_mesas,
        "confidence": confidence,
        "rules": {label: rs.slug() for label, rs in named.items()},
        "runs": runs,
    }
    return comp


#: Alternatives tried for each switch when no other preset supplies one (spec section S).
FALLBACK_FLIPS: dict[str, tuple[Any, ...]] = {
    "max_sum_cards": (2,),
    "ronda_points": (4,),
    "doble_ronda": (4,),
    "caida_en_ronda_points": (10,),
    "ronda_blocked_from": (30,),
    "carton_blocked_from": (30,),
    "tie_points_20": (6,),
    "falla_points": (2,),
    "chicas_to_win": (1,),
    "zapateria_below": (0,),
}
#: Switches :func:`switch_flips` leaves alone by default: ``target`` is the game itself
#: (Cuarenta is played to 40 in every source); changing it changes every metric by design.
NOT_FLIPPED: tuple[str, ...] = ("target",)


def switch_flips(
    base: RuleSet | str = "quito", switches: Iterable[str] | None = None
) -> dict[str, RuleSet]:
    """Rule sets that differ from ``base`` in exactly one switch ("flip each switch alone").

    Alternatives per switch: booleans are negated; a choice switch (``caida_en_ronda_timing``,
    ``at_38``, ``leftover_cards``) takes each other accepted value; other switches take the
    values other presets give it (spec section S), or :data:`FALLBACK_FLIPS` when no preset
    differs, or the base preset's default when the base already has the fallback value.

    Parameters
    ----------
    base : RuleSet or str
        Base rule set (preset or slug).
    switches : iterable of str, optional
        Switches to flip; default every switch of :data:`cuarenta_sim.cuarenta.rules.SWITCHES` but
        :data:`NOT_FLIPPED`.

    Returns
    -------
    dict of str to RuleSet
        ``"switch=value"`` (slug spelling of the value) -> the flipped rule set, in switch
        order.

    Raises
    ------
    ValueError
        For an unknown switch or base.
    """
    from .rules import resolve_rules

    rs = resolve_rules(base)
    names = [s for s in SWITCHES if s not in NOT_FLIPPED] if switches is None else list(switches)
    unknown = [s for s in names if s not in SWITCHES]
    if unknown:
        raise ValueError(f"unknown switch {', '.join(unknown)}; accepted: {', '.join(SWITCHES)}")
    choices: dict[str, tuple[Any, ...]] = {
        "caida_en_ronda_timing": TIMINGS,
        "at_38": AT_38,
        "leftover_cards": LEFTOVERS,
    }
    out: dict[str, RuleSet] = {}
    for name in names:
        current = getattr(rs, name)
        if isinstance(current, bool):
            alts: list[Any] = [not current]
        elif name in choices:
            alts = [v for v in choices[name] if v != current]
        else:
            alts = []
            for preset in PRESETS.values():
                v = getattr(preset, name)
                if v != current and v not in alts:
                    alts.append(v)
            if not alts:
                fallback = [v for v in FALLBACK_FLIPS.get(name, ()) if v != current]
                default = getattr(RuleSet(), name)
                alts = fallback or ([default] if default != current else [])
        for v in alts:
            out[f"{name}={format_value(v)}"] = rs.replace(**{name: v})
    return out


def sensitivity(
    base: RuleSet | str = "quito",
    *,
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n_datas: int = 100_000,
    n_chicas: int = 20_000,
    n_mesas: int = 10_000,
    seed: int = 0,
    switches: Iterable[str] | None = None,
    confidence: float = 0.95,
    threads: int | None = None,
    on_variant: Callable[[str], None] | None = None,
) -> Comparison:
    """Rule sensitivity: flip each switch of ``base`` alone and measure the paired effects.

    Parameters
    ----------
    base : RuleSet or str
        Base rule set (preset or slug); labelled ``"base"`` in the output.
    players, policies, n_datas, n_chicas, n_mesas, seed, confidence, threads, on_variant
        As for :func:`compare_rules`.
    switches : iterable of str, optional
        Switches to flip (:func:`switch_flips`).

    Returns
    -------
    Comparison
        Baseline ``"base"``; one variant per flip, labelled ``"switch=value"``; ``meta`` as
        in :func:`compare_rules` plus ``base`` (slug).

    Raises
    ------
    ValueError
        Bad base, switch or simulation arguments.
    """
    from .rules import resolve_rules

    rs = resolve_rules(base)
    variants: dict[str, RuleSet] = {"base": rs, **switch_flips(rs, switches)}
    comp = compare_rules(
        variants,
        players=players,
        policies=policies,
        n_datas=n_datas,
        n_chicas=n_chicas,
        n_mesas=n_mesas,
        seed=seed,
        baseline="base",
        confidence=confidence,
        threads=threads,
        on_variant=on_variant,
    )
    comp.meta["base"] = rs.slug()
    return comp
