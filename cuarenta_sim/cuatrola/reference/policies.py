"""Reference implementations of the Cuatrola play and bidding policies.

The rules of each policy are documented in :mod:`cuarenta_sim.cuatrola.policies`; the numba
kernel implements the same rules (``docs/cuatrola_contract.md`` section 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...rng import PyRng
from ..cards import points_of, rank_of, suit_of
from ..contracts import legal_declarations
from ..policies import PLAY_RANDOM, BidPolicy, desired_contract, hand_strength
from ..rules import CuatrolaRules
from .tricks import trick_winner


def choose_play(
    policy: int,
    legal: Sequence[int],
    hand: Sequence[int],
    trick: Sequence[int],
    trick_seats: Sequence[int],
    seat: int,
    partner_plays: bool,
    trump: int,
    rng: PyRng,
) -> int:
    """Return the card a play policy plays.

    Parameters
    ----------
    policy : int
        Play policy id: ``random`` or ``greedy`` (``pimc`` is
        :func:`cuarenta_sim.cuatrola.reference.pimc.pimc_play`).
    legal : sequence of int
        Legal cards in canonical order (non-empty).
    hand : sequence of int
        The cards held.
    trick, trick_seats : sequence of int
        Cards in the trick so far and the seats that played them.
    seat : int
        The seat to play.
    partner_plays : bool
        The seat's partner plays this hand (false for the declarer, whose partner sits out).
    trump : int
        Trump suit.
    rng : PyRng
        The seat's policy stream (drawn only by ``random`` with two or more legal cards).
    """
    if policy == PLAY_RANDOM:
        return legal[rng.randbelow(len(legal))] if len(legal) > 1 else legal[0]
    return greedy_play(legal, trick, trick_seats, seat, partner_plays, trump)


def _cheap_key(card: int, trump: int) -> tuple[int, int, int]:
    """Smaller is cheaper: non-trumps first, then fewer points, then weaker."""
    return (int(suit_of(card) == trump), points_of(card), -rank_of(card))


def greedy_play(
    legal: Sequence[int],
    trick: Sequence[int],
    trick_seats: Sequence[int],
    seat: int,
    partner_plays: bool,
    trump: int,
) -> int:
    """The ``greedy`` rule (module docstring of :mod:`cuarenta_sim.cuatrola.policies`)."""
    if not trick:
        for c in legal:
            if rank_of(c) == 0 and suit_of(c) != trump:
                return c
        return min(legal, key=lambda c: _cheap_key(c, trump))
    winner_seat = trick_seats[trick_winner(trick, trump)]
    if partner_plays and winner_seat == (seat + 2) % 4:
        plain = [c for c in legal if suit_of(c) != trump]
        if plain:
            return min(plain, key=lambda c: (-points_of(c), -rank_of(c)))
        return min(legal, key=lambda c: _cheap_key(c, trump))
    winning = [c for c in legal if trick_winner([*trick, c], trump) == len(trick)]
    pool = winning or legal
    return min(pool, key=lambda c: _cheap_key(c, trump))


def choose_declaration(
    policy: BidPolicy,
    hand: Sequence[int],
    trump: int,
    pair_score: int,
    highest: int,
    closed: bool,
    rules: CuatrolaRules,
) -> int:
    """Return the declaration (0 pass .. 3 quintola) of a bidding policy.

    The policy's wanted contract (:func:`cuarenta_sim.cuatrola.policies.desired_contract`) is
    lowered to the highest open declaration not above it (C2.1, C2.3); pass if none.
    """
    want = desired_contract(policy, hand_strength(hand, trump))
    open_ = legal_declarations(pair_score, highest, closed, rules)
    return max(d for d in open_ if d <= want)
