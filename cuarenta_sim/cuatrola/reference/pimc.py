"""The ``pimc`` lookahead play policy, readable reference (``docs/cuatrola_contract.md``
section 4; the numba twin is :mod:`cuarenta_sim.cuatrola.engine.pimc`).

Perfect-information Monte Carlo: the seat samples deals of the cards it has not seen that are
consistent with what it knows (:class:`Knowledge`: the cards played, and the cards each seat
cannot hold because of the obligations of C3.3; the trump card is known to be the dealer's
until played), plays each legal card out to the end of the hand with ``greedy`` at every seat
on every sampled deal, and keeps the card with the best total of
``1000 * (own game points - opponents') + (own points - opponents')``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...rng import PyRng
from ..cards import N_CARDS, rank_of, suit_of
from ..rules import CuatrolaRules
from .policies import greedy_play
from .scoring import cante_allowed, choose_cante, score_hand
from .tricks import legal_plays, trick_points, trick_winner

#: Shuffles tried per sampled deal before dealing without the inferred exclusions.
ATTEMPTS = 16
#: Weight of a game point against a card point in the objective.
GAME_POINT_WEIGHT = 1000


@dataclass
class Knowledge:
    """What every seat knows about the hand so far (public information)."""

    played: set[int] = field(default_factory=set)
    n_played: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    excluded: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])

    def observe(self, seat: int, card: int, trick: Sequence[int], trump: int) -> None:
        """Record that ``seat`` plays ``card`` on ``trick`` (the cards before it) and what the
        play reveals: failing to follow, to trump, to over-trump or to beat (C3.3) shows the
        seat holds no card that would have obliged it."""
        self.played.add(card)
        self.n_played[seat] += 1
        if not trick:
            return
        led = suit_of(trick[0])
        trumps = [rank_of(c) for c in trick if suit_of(c) == trump]
        top_trump = min(trumps, default=5)
        top_led = min((rank_of(c) for c in trick if suit_of(c) == led), default=5)
        s, r = suit_of(card), rank_of(card)
        excl = self.excluded[seat]
        if s == led:
            if not (led != trump and trumps) and r >= top_led:
                excl.update(led * 5 + k for k in range(top_led))
            return
        excl.update(led * 5 + k for k in range(5))
        if trumps:
            if s != trump or r > top_trump:
                excl.update(trump * 5 + k for k in range(top_trump))
        elif s != trump:
            excl.update(trump * 5 + k for k in range(5))


@dataclass
class HandState:
    """The public state of a hand at a decision, plus the deciding seat's own cards."""

    rules: CuatrolaRules
    trump: int
    trump_card: int
    dealer: int
    out: int
    contract: int
    declarer: int
    mano: int
    trick_no: int
    trick: list[int]
    seats: list[int]
    points: list[int]
    tricks: list[int]
    sung: set[int]
    knowledge: Knowledge


def determinize(
    rng: PyRng,
    me: int,
    unseen: list[int],
    need: list[int],
    excluded: Sequence[set[int]],
    known_trump: bool,
    dealer: int,
    trump_card: int,
) -> list[set[int]]:
    """Deal the unseen cards to the other seats (``need[s]`` each): up to :data:`ATTEMPTS`
    shuffles of the order (Fisher-Yates from the top, each continuing the last), each card to
    a uniformly drawn eligible seat (one draw only when two or more are eligible); then the
    last order dealt to the seats in ascending order, exclusions ignored."""
    order = list(unseen)
    for _ in range(ATTEMPTS):
        for i in range(len(order) - 1, 0, -1):
            j = rng.randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        hands: list[set[int]] = [set() for _ in range(4)]
        if known_trump:
            hands[dealer].add(trump_card)
        left = list(need)
        for c in order:
            elig = [s for s in range(4) if s != me and left[s] > 0 and c not in excluded[s]]
            if not elig:
                break
            s = elig[rng.randbelow(len(elig))] if len(elig) > 1 else elig[0]
            hands[s].add(c)
            left[s] -= 1
        else:
            return hands
    hands = [set() for _ in range(4)]
    if known_trump:
        hands[dealer].add(trump_card)
    left = list(need)
    for c in order:
        s = next(s for s in range(4) if s != me and left[s] > 0)
        hands[s].add(c)
        left[s] -= 1
    return hands


def play_out(hands: list[set[int]], st: HandState, trick: list[int], seats: list[int],
             seat: int) -> tuple[list[int], list[int]]:  # fmt: skip
    """Finish the hand from ``trick`` (``seat`` next to act) with ``greedy`` at every seat,
    cantes as in a real hand; return (game points, points) per pair."""
    plays = [s != st.out for s in range(4)]
    n_play = sum(plays)
    points, tricks, sung = list(st.points), list(st.tricks), set(st.sung)
    trick, seats = list(trick), list(seats)
    for t in range(st.trick_no, 5):
        while len(trick) < n_play:
            if plays[seat]:
                legal = legal_plays(hands[seat], trick, st.trump)
                card = greedy_play(legal, trick, seats, seat, plays[(seat + 2) % 4], st.trump)
                hands[seat].remove(card)
                trick.append(card)
                seats.append(seat)
            seat = (seat + 1) % 4
        winner = seats[trick_winner(trick, st.trump)]
        tricks[winner % 2] += 1
        points[winner % 2] += trick_points(trick) + (10 if t == 4 else 0)
        if cante_allowed(st.contract):
            c = choose_cante(hands, winner, plays[(winner + 2) % 4], st.trump, sung)
            if c is not None:
                sung.add(c[1])
                points[c[0] % 2] += c[2]
        trick, seats, seat = [], [], winner
    gp, _ = score_hand(st.rules, st.contract, st.declarer, st.mano, tricks, points)
    return gp, points


def pimc_play(
    me: int, hand: set[int], legal: Sequence[int], st: HandState, samples: int, rng: PyRng
) -> int:
    """The card ``pimc`` plays (two or more legal cards; module docstring)."""
    know = st.knowledge
    known_trump = st.dealer != me and st.trump_card not in know.played
    unseen = [
        c for c in range(N_CARDS)
        if c not in hand and c not in know.played and not (known_trump and c == st.trump_card)
    ]  # fmt: skip
    need = [0 if s == me else 5 - know.n_played[s] for s in range(4)]
    if known_trump:
        need[st.dealer] -= 1
    totals = [0] * len(legal)
    side = me % 2
    for _ in range(samples):
        sample = determinize(rng, me, unseen, need, know.excluded, known_trump, st.dealer,
                             st.trump_card)  # fmt: skip
        for i, card in enumerate(legal):
            hands = [set(hand) if s == me else set(sample[s]) for s in range(4)]
            hands[me].remove(card)
            gp, pts = play_out(hands, st, [*st.trick, card], [*st.seats, me], (me + 1) % 4)
            totals[i] += GAME_POINT_WEIGHT * (gp[side] - gp[1 - side]) + pts[side] - pts[1 - side]
    best = 0
    for i in range(1, len(legal)):
        if totals[i] > totals[best]:
            best = i
    return legal[best]
