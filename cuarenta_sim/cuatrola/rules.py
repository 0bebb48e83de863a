"""Rule variants of Cuatrola: :class:`CuatrolaRules`, the presets and canonical slugs.

The full specification is ``docs/cuatrola.md`` (rule numbers ``C2.3``...); the choices an
implementation has to make are fixed in ``docs/cuatrola_contract.md``.

Glossary
--------
mano
    The seat after the dealer; it bids first and leads the first trick (C1.1, C3.1).
solo, cuatrola, quintola
    Contracts: play alone and take more points than both defenders together (solo, worth 2),
    at least 4 of the 5 tricks (cuatrola, 4), all 5 tricks (quintola, 5) (C2, C5).
arrastre
    A trump lead (C3.2).
cante
    Holding the rey and caballo of a suit: 20 points, 40 in trumps (C4).

Switches
--------
=================  ==============  ==============
switch             ro              online
=================  ==============  ==============
bidding            overcall        first_closes
first_lead         next_active     next_active
failed_contract    to_opponents    to_opponents
dealer_rotation    next            next
target             11              11
=================  ==============  ==============
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from ..switches import check_choice, nearest_slug, parse_slug

BIDDINGS = ("overcall", "first_closes")
FIRST_LEADS = ("next_active", "declarer")
FAILED_CONTRACTS = ("to_opponents", "nobody")
DEALER_ROTATIONS = ("next", "last_trick_winner")
#: Largest target: scores (at most target - 1 + 5) stay small integers.
MAX_TARGET = 100


@dataclass(frozen=True)
class CuatrolaRules:
    """One complete, validated set of Cuatrola rule switches (``docs/cuatrola.md``).

    Instances are immutable and hashable; build variants with :meth:`replace`.

    Attributes
    ----------
    bidding : str
        ``"overcall"``: one round from the mano to the dealer, each declaration higher than the
        highest so far, the highest stands; ``"first_closes"``: the first declaration ends the
        bidding (C2.1).
    first_lead : str
        Who leads the first trick when the mano sits out (is the declarer's partner):
        ``"next_active"`` (the next playing seat after the mano) or ``"declarer"`` (C3.1).
    failed_contract : str
        A failed contract's value goes ``"to_opponents"`` or to ``"nobody"`` (C5.5).
    dealer_rotation : str
        The next hand's dealer: the ``"next"`` seat, or the ``"last_trick_winner"`` (C1.4).
    target : int
        Game points that win a game (C6.1), 1..100; also the "exactly 11" bidding limit: a
        pair may declare only if its score plus the contract's value is at most ``target``
        (C2.3).

    Raises
    ------
    ValueError
        From the constructor, when a value is of the wrong type or out of range; the message
        names the switch and what it accepts.
    """

    bidding: str = "overcall"
    first_lead: str = "next_active"
    failed_contract: str = "to_opponents"
    dealer_rotation: str = "next"
    target: int = 11

    def __post_init__(self) -> None:
        check_choice(self, "bidding", BIDDINGS)
        check_choice(self, "first_lead", FIRST_LEADS)
        check_choice(self, "failed_contract", FAILED_CONTRACTS)
        check_choice(self, "dealer_rotation", DEALER_ROTATIONS)
        t = self.target
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= MAX_TARGET:
            raise ValueError(
                f"switch target must be a whole number of game points from 1 to {MAX_TARGET}, "
                f"got {t!r}"
            )

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> CuatrolaRules:
        """Return the preset ``name`` (see :data:`PRESETS`) with optional switch overrides.

        Raises
        ------
        ValueError
            Unknown preset or switch name, or a bad value.
        """
        if not isinstance(name, str) or name not in PRESETS:
            raise ValueError(f"unknown Cuatrola preset {name!r}; accepted: {', '.join(PRESETS)}")
        return PRESETS[name].replace(**overrides)

    def replace(self, **changes: Any) -> CuatrolaRules:
        """Return a copy with some switches changed (validated).

        Raises
        ------
        ValueError
            Unknown switch name (the message lists the accepted ones) or a bad value.
        """
        unknown = sorted(set(changes) - set(SWITCHES))
        if unknown:
            raise ValueError(
                f"unknown Cuatrola switch {', '.join(unknown)}; accepted: {', '.join(SWITCHES)}"
            )
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the switches as a plain ``{name: value}`` dict (JSON-serialisable)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def slug(self) -> str:
        """Return the canonical name: the nearest preset plus the switches that differ.

        Examples: ``"ro"``, ``"online"``, ``"ro(failed_contract=nobody,target=21)"``. The base
        is the preset with fewest differences (ties: the order of :data:`PRESETS`);
        :func:`from_slug` inverts it.
        """
        return nearest_slug(self, PRESETS, SWITCHES)

    def to_kernel(self) -> CuatrolaKernelRules:
        """Return the switches as a :class:`CuatrolaKernelRules` tuple of ints for numba."""
        return CuatrolaKernelRules(
            first_closes=int(self.bidding == "first_closes"),
            lead_declarer=int(self.first_lead == "declarer"),
            failed_to_nobody=int(self.failed_contract == "nobody"),
            rotate_last_trick=int(self.dealer_rotation == "last_trick_winner"),
            target=self.target,
        )


class CuatrolaKernelRules(NamedTuple):
    """A :class:`CuatrolaRules` as plain ints (0/1 flags and the target), for the kernel."""

    first_closes: int
    lead_declarer: int
    failed_to_nobody: int
    rotate_last_trick: int
    target: int


SWITCHES: tuple[str, ...] = tuple(f.name for f in fields(CuatrolaRules))

#: The presets of ``docs/cuatrola.md``, in canonical order.
PRESETS: dict[str, CuatrolaRules] = {
    "ro": CuatrolaRules(),
    "online": CuatrolaRules(bidding="first_closes"),
}


def from_slug(slug: str) -> CuatrolaRules:
    """Parse a slug made by :meth:`CuatrolaRules.slug` (or a bare preset name).

    Raises
    ------
    ValueError
        Malformed slug, unknown preset or switch, or a bad value.
    """
    preset, changes = parse_slug(slug, PRESETS, label="Cuatrola rules")
    return CuatrolaRules.preset(preset, **changes)


def resolve_rules(rules: CuatrolaRules | str | dict[str, Any]) -> CuatrolaRules:
    """Turn a preset name, slug, ``{"preset": ..., switch: value}`` dict or rules object into
    a :class:`CuatrolaRules`.

    Raises
    ------
    ValueError
        Unknown preset or switch, bad value, or an unsupported type.
    """
    if isinstance(rules, CuatrolaRules):
        return rules
    if isinstance(rules, str):
        return from_slug(rules)
    if isinstance(rules, dict):
        d = dict(rules)
        bad = [k for k in d if not isinstance(k, str)]
        if bad:
            raise ValueError(f"rules keys must be switch names (strings), got {bad[0]!r}")
        base = d.pop("preset", "ro")
        if not isinstance(base, str):
            raise ValueError(f"rules.preset must be a preset name, got {base!r}")
        return CuatrolaRules.preset(base, **d)
    raise ValueError(
        f"Cuatrola rules must be a preset name ({', '.join(PRESETS)}), a slug, a dict or a "
        f"CuatrolaRules; got {type(rules).__name__}"
    )
