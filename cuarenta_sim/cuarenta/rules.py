"""Rule variants of Cuarenta: :class:`RuleSet`, the presets and canonical slugs.

This module is the rules page of the package. The full specification is
``docs/cuarenta.md`` (a copy of the project's rules spec); rule numbers such as ``R5.4`` refer
to it.

Glossary
--------
data
    One pass through the 40 cards (a hand): 4 deals with 2 players, 2 with 4 (R2.2).
deal
    Five cards to every player (R2.2, R3.2).
chica
    A game to ``target`` (40) points (R2.2, R9.2).
mesa
    A match won by the first side to win ``chicas_to_win`` chicas (R9.3).
carton / cartones
    The number of cards a side captured in a data (R8.2).
caida
    Capturing, by a match, the card the previous player just trailed (R6).
limpia
    A capture that empties the table (R7).
ronda / doble ronda
    Being dealt three / four cards of one rank (R4).
escalera
    The run taken after a capture's base (R5.4).
zapateria
    Winning a chica while the loser has fewer than ``zapateria_below`` points (R9.3).

Switches (section S of the spec)
--------------------------------
=========================  ==========  ==========  ==========  ==============
switch                     quito       cuenca      pagat       quito_torneo
=========================  ==========  ==========  ==========  ==============
max_sum_cards              None        None        None        2
capture_compulsory         false       false       false       false
caida_limpia_cumulative    false       true        true        false
caida_across_deals         false       false       false       false
caida_by_sum               false       false       false       false
ronda_points               2           2           4           2
doble_ronda                win_chica   win_chica   win_chica   4
caida_en_ronda_points      2           2           10          2
caida_en_ronda_timing      immediate   immediate   end_of_deal immediate
ronda_blocked_from         None        None        30          30
carton_blocked_from        None        None        None        30
at_38                      caida_or_   caida_or_   no_limpia   only_caida
                           carton      carton
leftover_cards             nobody      nobody      nobody      last_capturer
tie_points_20              2           2           6           2
falla_points               0           0           0           2
target                     40          40          40          40
chicas_to_win              2           2           1           2
zapateria_below            10          10          10          10
zapateria_ends_mesa        true        true        false       false
=========================  ==========  ==========  ==========  ==============

Sources: WEN (English Wikipedia), PAG (pagat.com), WES (Spanish Wikipedia), QP (Quito press),
EI (Ecuadorian implementations). ``quito_torneo`` is a low-confidence reconstruction.

Readings this package had to choose (each is documented where it is implemented):

* ``capture_compulsory`` is per card: a card that can capture may not be trailed; another card
  that cannot capture may still be trailed (the scenario interface only knows the played card).
* The 38 rule (R9.1) and the blocks (R4.3, R8.6) look at the side's score **before** the step
  that earns the points: the caida and limpia of one play are judged together.
* With ``caida_limpia_cumulative`` false a play that is both caida and limpia scores the caida's
  value only (2, or ``caida_en_ronda_points`` for a caida en ronda): "todo dos" (R7.2).
* With ``caida_en_ronda_timing = end_of_deal`` the whole caida-en-ronda value is a claim credited
  after the dealer's last card of the deal; a limpia on the same play scores at once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from ..switches import check_choice, nearest_slug, parse_slug

DOBLE_RONDA_WIN = "win_chica"
TIMINGS = ("immediate", "end_of_deal")
AT_38 = ("none", "caida_or_carton", "only_caida", "no_limpia")
LEFTOVERS = ("nobody", "last_capturer")
#: Sentinel for "never" thresholds and "any size" sums inside kernels.
NEVER = 32767
#: Largest value of a points switch: with targets up to 1000 every score and per-data tally
#: stays far inside the engine's int16 columns.
MAX_POINTS = 100


# --------------------------------------------------------------------------- helpers
def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_even_points(rs: RuleSet, name: str) -> None:
    v = getattr(rs, name)
    if not _is_int(v) or not 0 <= v <= MAX_POINTS or v % 2:
        raise ValueError(
            f"switch {name} must be an even number of points from 0 to {MAX_POINTS} (R1.4), "
            f"got {v!r}"
        )


def _check_optional_int(rs: RuleSet, name: str, *, low: int, high: int = 1000) -> None:
    v = getattr(rs, name)
    if v is not None and (not _is_int(v) or not low <= v <= high):
        raise ValueError(
            f"switch {name} must be None or a whole number from {low} to {high}, got {v!r}"
        )


@dataclass(frozen=True)
class RuleSet:
    """One complete, validated set of Cuarenta rule switches (section S of the spec).

    Every field is a switch; the docstring of :mod:`cuarenta_sim.cuarenta.rules` has the table of
    the
    presets. Instances are immutable and hashable; build variants with :meth:`replace`.

    Attributes
    ----------
    max_sum_cards : int or None
        Largest number of table cards in a sum base (R5.2); ``None`` means any; at least 2.
    capture_compulsory : bool
        A card that can capture may not be trailed (R5.5; per card, see the module notes).
    caida_limpia_cumulative : bool
        Caida and limpia on one play score 4 (true) or 2 in total (false, "todo dos") (R7.2).
    caida_across_deals : bool
        The leader of a deal may make a caida on the dealer's last trail of the previous deal
        of the same data (R6.1, example E13).
    caida_by_sum : bool
        A sum base containing a card of the just-trailed rank is a caida (R6.2).
    ronda_points : int
        Points for a ronda (R4.1), even, >= 0.
    doble_ronda : str or int
        ``"win_chica"`` or the even number of points a doble ronda scores (R4.2).
    caida_en_ronda_points : int
        Value of a caida en ronda instead of 2 (R6.4), even, >= 0.
    caida_en_ronda_timing : str
        ``"immediate"`` or ``"end_of_deal"`` (R6.4).
    ronda_blocked_from : int or None
        A side with at least this score scores no ronda / doble ronda points and no
        caida-en-ronda bonus (R4.3, R6.4); ``None`` means never.
    carton_blocked_from : int or None
        A side with at least this score scores no carton points (R8.6); ``None`` means never.
    at_38 : str
        What a side at 38 may still score (R9.1): ``"caida_or_carton"``, ``"only_caida"``,
        ``"no_limpia"`` or ``"none"``.
    leftover_cards : str
        Cards left on the table after a data go to ``"nobody"`` or the ``"last_capturer"``
        (R8.1).
    tie_points_20 : int
        Points of the non-dealer side when both sides have exactly 20 cards (R8.3).
    falla_points : int
        Points a side that captured nothing in a data gives the opponents (R8.5).
    target : int
        Points that win a chica (R9.2), even, > 0.
    chicas_to_win : int
        Chicas that win a mesa (R9.3), >= 1.
    zapateria_below : int
        A chica won while the loser has fewer points than this is a zapateria (R9.3).
    zapateria_ends_mesa : bool
        Winning the first chica of a mesa by zapateria wins the mesa (R9.3).

    Raises
    ------
    ValueError
        From the constructor, when a value is of the wrong type or out of range; the message
        names the switch and what it accepts.
    """

    max_sum_cards: int | None = None
    capture_compulsory: bool = False
    caida_limpia_cumulative: bool = False
    caida_across_deals: bool = False
    caida_by_sum: bool = False
    ronda_points: int = 2
    doble_ronda: str | int = DOBLE_RONDA_WIN
    caida_en_ronda_points: int = 2
    caida_en_ronda_timing: str = "immediate"
    ronda_blocked_from: int | None = None
    carton_blocked_from: int | None = None
    at_38: str = "caida_or_carton"
    leftover_cards: str = "nobody"
    tie_points_20: int = 2
    falla_points: int = 0
    target: int = 40
    chicas_to_win: int = 2
    zapateria_below: int = 10
    zapateria_ends_mesa: bool = True

    def __post_init__(self) -> None:
        _check_optional_int(self, "max_sum_cards", low=2, high=40)
        for name in (
            "capture_compulsory",
            "caida_limpia_cumulative",
            "caida_across_deals",
            "caida_by_sum",
            "zapateria_ends_mesa",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(
                    f"switch {name} must be true or false, got {getattr(self, name)!r}"
                )
        for name in ("ronda_points", "caida_en_ronda_points", "tie_points_20", "falla_points"):
            _check_even_points(self, name)
        if self.doble_ronda != DOBLE_RONDA_WIN and (
            not _is_int(self.doble_ronda)
            or not 0 <= self.doble_ronda <= MAX_POINTS
            or self.doble_ronda % 2
        ):
            raise ValueError(
                f"switch doble_ronda must be 'win_chica' or an even number of points from 0 to "
                f"{MAX_POINTS}, "
                f"got {self.doble_ronda!r}"
            )
        check_choice(self, "caida_en_ronda_timing", TIMINGS)
        check_choice(self, "at_38", AT_38)
        check_choice(self, "leftover_cards", LEFTOVERS)
        if not _is_int(self.target) or self.target <= 0 or self.target % 2:
            raise ValueError(f"switch target must be an even number > 0, got {self.target!r}")
        if self.target > 1000:
            raise ValueError(f"switch target must be at most 1000, got {self.target!r}")
        _check_optional_int(self, "ronda_blocked_from", low=0)
        _check_optional_int(self, "carton_blocked_from", low=0)
        if not _is_int(self.chicas_to_win) or not 1 <= self.chicas_to_win <= 100:
            raise ValueError(
                f"switch chicas_to_win must be a whole number from 1 to 100, "
                f"got {self.chicas_to_win!r}"
            )
        if not _is_int(self.zapateria_below) or not 0 <= self.zapateria_below <= 1000:
            raise ValueError(
                f"switch zapateria_below must be a whole number from 0 to 1000, "
                f"got {self.zapateria_below!r}"
            )

    # ----------------------------------------------------------------- construction helpers
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSet:
        """Return the preset ``name`` (see :data:`PRESETS`) with optional switch overrides.

        Raises
        ------
        ValueError
            Unknown preset or switch name, or a bad value.
        """
        if not isinstance(name, str) or name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; accepted: {', '.join(PRESETS)}")
        return PRESETS[name].replace(**overrides)

    def replace(self, **changes: Any) -> RuleSet:
        """Return a copy with some switches changed (validated).

        Raises
        ------
        ValueError
            Unknown switch name (the message lists the accepted ones) or a bad value.
        """
        unknown = sorted(set(changes) - set(SWITCHES))
        if unknown:
            raise ValueError(
                f"unknown switch {', '.join(unknown)}; accepted: {', '.join(SWITCHES)}"
            )
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the switches as a plain ``{name: value}`` dict (JSON-serialisable)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    # ----------------------------------------------------------------- names
    def slug(self) -> str:
        """Return the canonical name: the nearest preset plus the switches that differ.

        Examples: ``"quito"``, ``"quito(max_sum_cards=2)"``,
        ``"cuenca(at_38=none,falla_points=2)"``. Switches are listed in declaration order;
        the base is the preset with fewest differences (ties: the order of :data:`PRESETS`).
        :func:`from_slug` inverts it.
        """
        return nearest_slug(self, PRESETS, SWITCHES)

    def to_kernel(self) -> KernelRules:
        """Return the switches as a :class:`KernelRules` tuple of ints for the numba engine."""
        return KernelRules(
            max_sum_cards=NEVER if self.max_sum_cards is None else self.max_sum_cards,
            capture_compulsory=int(self.capture_compulsory),
            caida_limpia_cumulative=int(self.caida_limpia_cumulative),
            caida_across_deals=int(self.caida_across_deals),
            caida_by_sum=int(self.caida_by_sum),
            ronda_points=self.ronda_points,
            doble_ronda_points=-1 if self.doble_ronda == DOBLE_RONDA_WIN else int(self.doble_ronda),
            caida_en_ronda_points=self.caida_en_ronda_points,
            caida_en_ronda_end_of_deal=int(self.caida_en_ronda_timing == "end_of_deal"),
            ronda_blocked_from=NEVER
            if self.ronda_blocked_from is None
            else self.ronda_blocked_from,
            carton_blocked_from=(
                NEVER if self.carton_blocked_from is None else self.carton_blocked_from
            ),
            at_38=AT_38.index(self.at_38),
            leftovers_to_last_capturer=int(self.leftover_cards == "last_capturer"),
            tie_points_20=self.tie_points_20,
            falla_points=self.falla_points,
            target=self.target,
            chicas_to_win=self.chicas_to_win,
            zapateria_below=self.zapateria_below,
            zapateria_ends_mesa=int(self.zapateria_ends_mesa),
        )


class KernelRules(NamedTuple):
    """A :class:`RuleSet` as plain ints, the form the numba kernels take.

    ``NEVER`` (32767) stands for ``None`` thresholds and unlimited sums;
    ``doble_ronda_points = -1`` means ``win_chica``; ``at_38`` indexes :data:`AT_38`
    (0 none, 1 caida_or_carton, 2 only_caida, 3 no_limpia).
    """

    max_sum_cards: int
    capture_compulsory: int
    caida_limpia_cumulative: int
    caida_across_deals: int
    caida_by_sum: int
    ronda_points: int
    doble_ronda_points: int
    caida_en_ronda_points: int
    caida_en_ronda_end_of_deal: int
    ronda_blocked_from: int
    carton_blocked_from: int
    at_38: int
    leftovers_to_last_capturer: int
    tie_points_20: int
    falla_points: int
    target: int
    chicas_to_win: int
    zapateria_below: int
    zapateria_ends_mesa: int


SWITCHES: tuple[str, ...] = tuple(f.name for f in fields(RuleSet))

#: The four presets of section S, in canonical order.
PRESETS: dict[str, RuleSet] = {
    "quito": RuleSet(),
    "cuenca": RuleSet(caida_limpia_cumulative=True),
    "pagat": RuleSet(
        caida_limpia_cumulative=True,
        ronda_points=4,
        caida_en_ronda_points=10,
        caida_en_ronda_timing="end_of_deal",
        ronda_blocked_from=30,
        at_38="no_limpia",
        tie_points_20=6,
        chicas_to_win=1,
        zapateria_ends_mesa=False,
    ),
    "quito_torneo": RuleSet(
        max_sum_cards=2,
        doble_ronda=4,
        ronda_blocked_from=30,
        carton_blocked_from=30,
        at_38="only_caida",
        leftover_cards="last_capturer",
        falla_points=2,
        zapateria_ends_mesa=False,
    ),
}


def from_slug(slug: str) -> RuleSet:
    """Parse a slug made by :meth:`RuleSet.slug` (or a bare preset name) back into a RuleSet.

    Raises
    ------
    ValueError
        Malformed slug, unknown preset or switch, or a bad value.
    """
    preset, changes = parse_slug(slug, PRESETS, label="rules")
    return RuleSet.preset(preset, **changes)


def resolve_rules(rules: RuleSet | str | dict[str, Any]) -> RuleSet:
    """Turn a preset name, slug, ``{"preset": ..., switch: value}`` dict or RuleSet into a RuleSet.

    Raises
    ------
    ValueError
        Unknown preset or switch, bad value, or an unsupported type.
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return from_slug(rules)
    if isinstance(rules, dict):
        d = dict(rules)
        bad_keys = [k for k in d if not isinstance(k, str)]
        if bad_keys:
            raise ValueError(f"rules keys must be switch names (strings), got {bad_keys[0]!r}")
        base = d.pop("preset", "quito")
        if not isinstance(base, str):
            raise ValueError(f"rules.preset must be a preset name, got {base!r}")
        return RuleSet.preset(base, **d)
    raise ValueError(
        f"rules must be a preset name ({', '.join(PRESETS)}), a slug, a dict or a RuleSet; "
        f"got {type(rules).__name__}"
    )
