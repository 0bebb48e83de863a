"""What a sensitivity design can and cannot show about each switch (spec section S).

A switch that acts only near the target (``at_38``, ``*_blocked_from``) or only at the end of a
chica or mesa (``zapateria_below``, ``chicas_to_win``, ``zapateria_ends_mesa``) never acts in
a level-data run, where every data starts at 0-0: there its data-level effect is zero *by
design*, not because the rule does nothing. Those switches are measured at chica and mesa
level, where the scores are the ones real play reaches. A switch a policy never meets (a
player that always captures when it can never tests ``capture_compulsory``) reads zero for that
policy only.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rules import PRESETS, RuleSet

#: Switch -> (where it acts, what the design can show, what it cannot show).
SWITCH_SCOPE: dict[str, tuple[str, str, str]] = {
    "at_38": (
        "chica, at 38 points (R9.1)",
        "chica metrics: datas per chica, P(chica decided at 38), P(first dealer wins)",
        "any level-data metric: datas start at 0-0 and (almost) never reach 38",
    ),
    "ronda_blocked_from": (
        "chica, from 30 points (R4.3)",
        "chica metrics (rondas no longer score near the end of a chica)",
        "level-data metrics, except in the rare data where a side reaches 30 from 0-0",
    ),
    "carton_blocked_from": (
        "chica, from 30 points (R8.6)",
        "chica metrics (the carton stops scoring near the end of a chica)",
        "level-data metrics, except in the rare data where a side reaches 30 from 0-0",
    ),
    "doble_ronda": (
        "chica (win_chica ends it at once)",
        "chica metrics; at level data only the 4-point reading scores",
        "the win_chica reading at level data (a data does not end a chica there)",
    ),
    "zapateria_below": (
        "end of a chica",
        "P(zapateria) and the mesa metrics that count zapaterias",
        "chica lengths and points: the rule only names a result",
    ),
    "chicas_to_win": (
        "mesa",
        "mesa metrics (chicas per mesa)",
        "every data and chica metric: a chica is played the same way",
    ),
    "zapateria_ends_mesa": (
        "mesa, after a first-chica zapateria",
        "mesa metrics",
        "every data and chica metric",
    ),
    "capture_compulsory": (
        "every play with a capture available (R5.5)",
        "its effect on players that sometimes trail when they could capture",
        "anything for a player that never trails when it can capture (a zero effect says "
        "the policy never met the choice)",
    ),
}

#: Switches whose effect a level-data run cannot see (they act only from realistic scores).
SCORE_SWITCHES = frozenset(
    {
        "at_38",
        "ronda_blocked_from",
        "carton_blocked_from",
        "zapateria_below",
        "chicas_to_win",
        "zapateria_ends_mesa",
    }
)

#: Switches of the confirmatory run of the sensitivity report (readings where sources
#: disagree that the issue names, and the Quito vs Cuenca switch).
CONFIRM_SWITCHES = ("caida_limpia_cumulative", "leftover_cards", "tie_points_20", "at_38")


def confirm_words() -> str:
    """The switches the confirmatory model flips, in words: ``"`a`, `b` and `c`"``."""
    names = [f"`{c}`" for c in CONFIRM_SWITCHES]
    return ", ".join(names[:-1]) + " and " + names[-1]


def switch_of(flip: str) -> str:
    """The switch of a flip label ``"switch=value"``."""
    return flip.split("=", 1)[0]


def disputed(flip: str, rules: RuleSet) -> bool:
    """Whether a flip is a reading some source plays: another preset has that value.

    Parameters
    ----------
    flip : str
        ``"switch=value"`` label of :func:`cuarenta_sim.cuarenta.compare.switch_flips`.
    rules : RuleSet
        The flipped rule set.

    Returns
    -------
    bool
        True when some preset (spec section S: quito, cuenca, pagat, quito_torneo) gives the
        switch the flipped value; False for flips no source describes (fallbacks).
    """
    name = switch_of(flip)
    value = getattr(rules, name)
    return any(getattr(p, name) == value for p in PRESETS.values())


def level_blind(flip: str, level: str) -> bool:
    """Whether a metric of ``level`` cannot see the flip's switch (acts only from scores)."""
    return level == "data" and switch_of(flip) in SCORE_SWITCHES


def cannot_show(flip: str, points_row: Mapping[str, object]) -> str:
    """The *it cannot show* cell of a flip, with the evidence of its level-data run.

    A score switch (:data:`SCORE_SWITCHES`) is blind at level data by design; the cell says so
    and then what the run measured: ``"no pair differed in 40,000 datas"`` or ``"k of n
    datas differed"``, from the flip's ``points`` differences row, so "(almost) never" is never
    left as a bare "never".

    Parameters
    ----------
    flip : str
        ``"switch=value"``; its switch must be a key of :data:`SWITCH_SCOPE`.
    points_row : mapping
        The flip's level-data ``points`` differences row (``differing``, ``n``).

    Returns
    -------
    str

    Raises
    ------
    KeyError
        When the flip's switch has no entry in :data:`SWITCH_SCOPE`.
    """
    name = switch_of(flip)
    text = SWITCH_SCOPE[name][2]
    if name not in SCORE_SWITCHES:
        return text
    k, n = int(points_row["differing"]), int(points_row["n"])
    seen = f"no pair differed in {n:,} datas" if k == 0 else f"{k:,} of {n:,} datas differed"
    return f"{text}; {seen}"
