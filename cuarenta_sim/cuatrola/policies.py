"""Policy names and parameters of Cuatrola, shared by both engines.

Play policies (who plays which legal card, ``docs/cuatrola_contract.md`` section 4):

``random``
    Uniform over the canonical legal plays, one draw from the seat's policy stream per
    decision with two or more legal cards (none when only one card is legal).
``greedy``
    A deterministic rule of thumb. Leading: the first non-trump ace held, else the cheapest
    card, non-trumps first (smallest ``(is_trump, points, strength)``). Following, with the
    partner (when it plays) winning the trick so far: the legal non-trump with the most points
    (the weakest among equals), else the weakest legal card. Otherwise: the cheapest legal
    card that would win the trick as it stands, else the cheapest legal card, non-trumps
    first. Ties go to the canonical (ascending id) order.
``pimc`` or ``pimc(samples=16)``
    Perfect-information Monte Carlo lookahead (:mod:`cuarenta_sim.cuatrola.reference.pimc`):
    ``samples`` deals of the unseen cards consistent with what the seat knows (the trump card
    is the dealer's; a player who failed to follow, to trump, to over-trump or to beat holds
    no card that would have obliged it), each legal card played out to the end of the hand
    with ``greedy`` play at every seat; the card with the best total of
    ``1000 * (own game points - opponents' game points) + (own points - opponents' points)``
    wins (first in canonical order on ties).

Bidding policies (what a seat declares, C2.1):

``never``
    Always passes.
``threshold(solo=15,cuatrola=18,quintola=22)``
    Declares the highest contract whose threshold the hand's :func:`hand_strength` reaches;
    when that is not open to the seat (C2.1 overcall, C2.3 exactly 11) the highest open
    contract below it, else passes. Omitted thresholds take the defaults
    (:data:`DEFAULT_THRESHOLDS`, derived from simulation); ``99`` disables a contract.
``always(solo)`` (or ``cuatrola``, ``quintola``)
    Declares that contract whenever it is open, else the highest open contract below it, else
    passes: a forced declarer for analysis.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from .cards import rank_of, suit_of
from .contracts import DECLARATIONS, parse_contract

PLAY_POLICIES = ("random", "greedy", "pimc")
PLAY_RANDOM = 0
PLAY_GREEDY = 1
PLAY_PIMC = 2
#: Default and largest number of sampled deals of ``pimc``.
DEFAULT_SAMPLES = 16
MAX_SAMPLES = 1000
BID_NEVER = 0
BID_THRESHOLD = 1
BID_ALWAYS = 2
BID_KINDS = ("never", "threshold", "always")
#: Thresholds of ``threshold`` (solo, cuatrola, quintola) on :func:`hand_strength`, derived
#: from simulation (:func:`cuarenta_sim.cuatrola.bidding.derive_thresholds`): the lowest
#: strength from which on a contract's expected game points beat passing and every lower
#: contract, in 250,000 forced-declarer deals per bid under ``pimc(samples=16)`` play, rules
#: ``ro``, seed 0 (``python benchmarks/cuatrola_thresholds.py --n 250000 --seed 0 --policy
#: 'pimc(samples=16)' --rules ro``; reports/cuatrola-bidding). They replace the first guess
#: :data:`FIRST_GUESS_THRESHOLDS`, which they beat by 0.040 [0.037, 0.043] game points per
#: hand (paired, same deals).
DEFAULT_THRESHOLDS = (15, 18, 22)
#: The hand-set first guess (from 6,000 forced mano declarations, seed 11), kept as the
#: baseline the derived thresholds are compared with.
FIRST_GUESS_THRESHOLDS = (13, 17, 20)
#: A threshold that no hand reaches (the strength is at most 22).
OFF = 99
#: Weights of :func:`hand_strength` by rank index (A 3 R C S): trumps, other suits.
TRUMP_WEIGHTS = (6, 5, 4, 4, 3)
PLAIN_WEIGHTS = (3, 2, 0, 0, 0)

_SPEC_RE = re.compile(r"^\s*([a-z_]+)\s*(?:\((.*)\))?\s*$")


class PlayPolicy(NamedTuple):
    """A parsed play policy: ``kind`` (index in :data:`PLAY_POLICIES`) and ``samples``
    (``pimc`` only, else 0)."""

    kind: int
    samples: int

    def name(self) -> str:
        """Canonical spelling, e.g. ``"greedy"`` or ``"pimc(samples=16)"``."""
        if self.kind == PLAY_PIMC:
            return f"pimc(samples={self.samples})"
        return PLAY_POLICIES[self.kind]


class BidPolicy(NamedTuple):
    """A parsed bidding policy: ``kind`` (index in :data:`BID_KINDS`) and three ints.

    For ``threshold`` the ints are the solo, cuatrola and quintola thresholds; for ``always``
    the first is the contract code (1..3) and the others 0; for ``never`` all 0.
    """

    kind: int
    a: int
    b: int
    c: int

    def name(self) -> str:
        """Canonical spelling, e.g. ``"threshold(solo=13,cuatrola=17,quintola=20)"``."""
        if self.kind == BID_NEVER:
            return "never"
        if self.kind == BID_ALWAYS:
            return f"always({DECLARATIONS[self.a]})"
        return f"threshold(solo={self.a},cuatrola={self.b},quintola={self.c})"


def hand_strength(hand: Iterable[int], trump: int) -> int:
    """Return the bidding strength of a 5-card hand: the sum of :data:`TRUMP_WEIGHTS` over its
    trumps and :data:`PLAIN_WEIGHTS` over its other cards (0..22; all five trumps give 22)."""
    return sum(
        TRUMP_WEIGHTS[rank_of(c)] if suit_of(c) == trump else PLAIN_WEIGHTS[rank_of(c)]
        for c in hand
    )


def parse_bid_policy(spec: object) -> BidPolicy:
    """Parse a bidding policy name (see the module docstring).

    Raises
    ------
    ValueError
        Unknown policy or parameter, or a bad value; the message lists the accepted ones.
    """
    accepted = "never, threshold(solo=n,cuatrola=n,quintola=n), always(solo|cuatrola|quintola)"
    if isinstance(spec, BidPolicy):
        return spec
    m = _SPEC_RE.match(spec) if isinstance(spec, str) else None
    if m is None or m.group(1) not in BID_KINDS:
        raise ValueError(f"unknown bidding policy {spec!r}; accepted: {accepted}")
    name, body = m.group(1), (m.group(2) or "").strip()
    if name == "never":
        if body:
            raise ValueError(f"bidding policy never takes no parameters, got {spec!r}")
        return BidPolicy(BID_NEVER, 0, 0, 0)
    if name == "always":
        if body not in ("solo", "cuatrola", "quintola"):
            raise ValueError(f"always needs solo, cuatrola or quintola, got {spec!r}")
        code = parse_contract(body, f"the contract of {spec!r}")
        return BidPolicy(BID_ALWAYS, code, 0, 0)
    values = dict(zip(("solo", "cuatrola", "quintola"), DEFAULT_THRESHOLDS, strict=True))
    seen: set[str] = set()
    for item in (s.strip() for s in body.split(",")) if body else ():
        key, _, value = (s.strip() for s in item.partition("="))
        if key in seen:
            raise ValueError(f"parameter {key} given twice in {spec!r}")
        seen.add(key)
        if key not in values or not re.fullmatch(r"\d+", value):
            raise ValueError(
                f"bad parameter {item!r} in {spec!r}; threshold takes solo=, cuatrola=, "
                f"quintola= whole numbers from 0 to {OFF}"
            )
        if int(value) > OFF:
            raise ValueError(f"threshold {key}={value} is above {OFF} (= never) in {spec!r}")
        values[key] = int(value)
    return BidPolicy(BID_THRESHOLD, values["solo"], values["cuatrola"], values["quintola"])


def parse_play_policy(spec: object) -> PlayPolicy:
    """Parse a play policy name (``random``, ``greedy``, ``pimc``, ``pimc(samples=n)``).

    Raises
    ------
    ValueError
        Unknown policy or parameter, or a bad value; the message lists the accepted ones.
    """
    if isinstance(spec, PlayPolicy):
        return spec
    m = _SPEC_RE.match(spec) if isinstance(spec, str) else None
    if m is None or m.group(1) not in PLAY_POLICIES:
        raise ValueError(
            f"unknown play policy {spec!r}; accepted: random, greedy, pimc, pimc(samples=n)"
        )
    name, body = m.group(1), (m.group(2) or "").strip()
    if name != "pimc":
        if body:
            raise ValueError(f"play policy {name} takes no parameters, got {spec!r}")
        return PlayPolicy(PLAY_POLICIES.index(name), 0)
    samples = DEFAULT_SAMPLES
    if body:
        key, _, value = (x.strip() for x in body.partition("="))
        if (
            key != "samples"
            or not re.fullmatch(r"\d+", value)
            or not 1 <= int(value) <= MAX_SAMPLES
        ):
            raise ValueError(
                f"bad parameter {body!r} in {spec!r}; pimc takes samples= a whole number from "
                f"1 to {MAX_SAMPLES}"
            )
        samples = int(value)
    return PlayPolicy(PLAY_PIMC, samples)


def _per_seat(specs: object, what: str) -> list[object]:
    if isinstance(specs, str | BidPolicy | PlayPolicy):
        return [specs] * 4
    if isinstance(specs, Sequence) and len(specs) in (1, 2, 4):
        items = list(specs)
        if len(items) == 1:
            return items * 4
        if len(items) == 2:
            return [items[0], items[1], items[0], items[1]]
        return items
    raise ValueError(
        f"{what} must be one name, or a list of 1, 2 (per pair: seats 0 and 2, seats 1 and 3) "
        f"or 4 (per seat) names; got {specs!r}"
    )


def resolve_play_policies(specs: str | Sequence[str]) -> tuple[PlayPolicy, ...]:
    """Return the parsed play policy of each of the 4 seats (one name, 2 per pair, or 4).

    Raises
    ------
    ValueError
        Wrong shape or unknown policy.
    """
    return tuple(parse_play_policy(s) for s in _per_seat(specs, "play_policies"))


def resolve_bid_policies(specs: str | Sequence[str]) -> tuple[BidPolicy, ...]:
    """Return the parsed bidding policy of each of the 4 seats (one name, 2 per pair, or 4).

    Raises
    ------
    ValueError
        Wrong shape or unknown policy.
    """
    return tuple(parse_bid_policy(s) for s in _per_seat(specs, "bid_policies"))


def play_policy_array(policies: Sequence[PlayPolicy]) -> np.ndarray:
    """Return the play policies as the int64 (4, 2) array the kernel takes."""
    return np.array([list(p) for p in policies], dtype=np.int64)


def bid_policy_array(policies: Sequence[BidPolicy]) -> np.ndarray:
    """Return the bidding policies as the int64 (4, 4) array the kernel takes."""
    return np.array([list(p) for p in policies], dtype=np.int64)


def desired_contract(policy: BidPolicy, strength: int) -> int:
    """Return the contract (0..3) a bidding policy wants before the limits of C2.1 / C2.3."""
    if policy.kind == BID_NEVER:
        return 0
    if policy.kind == BID_ALWAYS:
        return policy.a
    want = 0
    for code, threshold in ((1, policy.a), (2, policy.b), (3, policy.c)):
        if strength >= threshold:
            want = code
    return want
