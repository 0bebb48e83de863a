"""The readable reference engine of Cuatrola: one hand, one game, with a trace.

This is the executable form of ``docs/cuatrola.md`` and ``docs/cuatrola_contract.md``; the
numba kernel (:mod:`cuarenta_sim.cuatrola.engine`) must reproduce its trace row for row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...rng import (
    STREAM_GAME,
    STREAM_POLICY,
    STREAM_SEARCH,
    PyRng,
    root_from_seed,
    shuffled_cards_py,
)
from ..cards import N_CARDS, suit_of, to_mask
from ..contracts import NONE
from ..policies import (
    PLAY_PIMC,
    BidPolicy,
    PlayPolicy,
    resolve_bid_policies,
    resolve_play_policies,
)
from ..rules import CuatrolaRules, resolve_rules
from ..trace_format import (
    KIND_BID,
    KIND_CANTE,
    KIND_DEAL,
    KIND_END,
    KIND_PLAY,
    KIND_TRICK,
)
from .pimc import HandState, Knowledge, pimc_play
from .policies import choose_declaration, choose_play
from .scoring import finish_trick, score_hand
from .tricks import legal_plays, seating

#: A game is cut short (``truncated``) after this many hands; it only happens when failed
#: contracts score for nobody and contracts keep failing.
MAX_HANDS = 200


@dataclass
class HandRecord:
    """What one hand did (the columns of the ``hands`` frame, contract section 7).

    Pairs are indexed 0 (seats 0, 2) and 1 (seats 1, 3). ``points`` are card points plus the
    last trick's 10; ``cantes`` the cante points, which count towards the side's points in a
    hand without contract and in a solo (C5.1).
    """

    game: int
    hand: int
    dealer: int
    trump: int
    trump_card: int
    contract: int
    declarer: int
    made: int
    tricks: list[int]
    points: list[int]
    cantes: list[int]
    game_points: list[int]
    scores: list[int]
    last_trick: int
    dealt: list[int]


@dataclass
class GameRecord:
    """One game to ``target`` (C6): first dealer, winner pair (-1 if truncated), hands."""

    game: int
    first_dealer: int
    winner: int
    scores: list[int]
    hands: list[HandRecord] = field(default_factory=list)
    truncated: bool = False


def deal(root: int, game: int, data: int, dealer: int) -> tuple[list[set[int]], int]:
    """Deal one hand (C1.4, contract section 2).

    Returns
    -------
    (list of 4 sets of int, int)
        The cards of each seat, and the trump card (the last card dealt, the dealer's).
    """
    return deal_hands(shuffled_cards_py(root, game, data, N_CARDS), dealer)


def deal_hands(deck: Sequence[int], dealer: int) -> tuple[list[set[int]], int]:
    """Deal a 20-card deck (contract section 2): seat ``dealer + 1 + k`` gets positions
    ``5k .. 5k + 4``; the trump card is the last one, the dealer's (C1.4).

    Parameters
    ----------
    deck : sequence of int
        The 20 card ids in deck order.
    dealer : int
        The dealer seat.

    Returns
    -------
    (list of 4 sets of int, int)
        Each seat's cards and the trump card.
    """
    hands: list[set[int]] = [set() for _ in range(4)]
    for k in range(4):
        hands[(dealer + 1 + k) % 4] = set(deck[5 * k : 5 * k + 5])
    return hands, deck[N_CARDS - 1]


def play_hand(
    rules: CuatrolaRules,
    root: int,
    game: int,
    data: int,
    dealer: int,
    scores: Sequence[int],
    play_policies: Sequence[PlayPolicy],
    bid_policies: Sequence[BidPolicy],
    trace: list[tuple[int, ...]] | None = None,
) -> HandRecord:
    """Play one hand from the deal to its score (C1-C5) and return its record.

    Parameters
    ----------
    rules : CuatrolaRules
        The switches.
    root : int
        Root of the random streams.
    game, data : int
        Identify the hand's streams (contract section 2).
    dealer : int
        Dealer seat; the mano is the next seat.
    scores : sequence of 2 ints
        Game points per pair before the hand (they limit the bids, C2.3).
    play_policies : sequence of 4 PlayPolicy
        Play policy per seat.
    bid_policies : sequence of 4 BidPolicy
        Bidding policy per seat.
    trace : list or None
        Receives the trace rows (contract section 6) when given.
    """
    hands, trump_card = deal(root, game, data, dealer)
    dealt = [to_mask(h) for h in hands]
    trump = suit_of(trump_card)
    mano = (dealer + 1) % 4
    rngs = [PyRng.for_stream(root, game, data, STREAM_POLICY + s) for s in range(4)]
    search_rngs = [PyRng.for_stream(root, game, data, STREAM_SEARCH + s) for s in range(4)]
    knowledge = Knowledge()

    def emit(kind: int, seat: int, card: int, value: int, a: int, b: int, s0: int, s1: int):
        """Append one trace row (contract section 6) when tracing."""
        if trace is not None:
            trace.append((kind, data, seat, card, value, a, b, s0, s1))

    emit(KIND_DEAL, dealer, trump_card, trump, 0, 0, scores[0], scores[1])

    # Bidding (C2.1, C2.3): from the mano round to the dealer.
    contract, declarer = NONE, -1
    for k in range(4):
        seat = (mano + k) % 4
        decl = choose_declaration(
            bid_policies[seat],
            sorted(hands[seat]),
            trump,
            scores[seat % 2],
            contract,
            False,
            rules,
        )
        emit(KIND_BID, seat, -1, decl, 0, 0, scores[0], scores[1])
        if decl > contract:
            contract, declarer = decl, seat
        if decl and rules.bidding == "first_closes":
            break

    plays, leader = seating(contract, declarer, mano, rules.first_lead)  # C2.2, C3.1

    tricks = [0, 0]
    points = [0, 0]
    cantes = [0, 0]
    sung: set[int] = set()
    for t in range(5):
        trick: list[int] = []
        seats: list[int] = []
        seat = leader
        while len(trick) < sum(plays):
            if plays[seat]:
                hand = hands[seat]
                legal = legal_plays(hand, trick, trump)
                policy = play_policies[seat]
                if policy.kind == PLAY_PIMC and len(legal) > 1:
                    state = HandState(
                        rules, trump, trump_card, dealer, -1 if contract == NONE else
                        (declarer + 2) % 4, contract, declarer, mano, t, trick, seats,
                        points, tricks, sung, knowledge,
                    )  # fmt: skip
                    card = pimc_play(seat, hand, legal, state, policy.samples, search_rngs[seat])
                else:
                    card = choose_play(
                        policy.kind, legal, sorted(hand), trick, seats, seat,
                        plays[(seat + 2) % 4], trump, rngs[seat],
                    )  # fmt: skip
                knowledge.observe(seat, card, trick, trump)
                hand.remove(card)
                trick.append(card)
                seats.append(seat)
                emit(KIND_PLAY, seat, card, t, points[0], points[1], scores[0], scores[1])
            seat = (seat + 1) % 4
        winner, value, cante = finish_trick(trick, seats, trump, t, contract, hands, plays, sung)
        tricks[winner % 2] += 1
        points[winner % 2] += value
        emit(KIND_TRICK, winner, -1, value, points[0], points[1], scores[0], scores[1])
        if cante is not None:
            singer, suit, cval = cante
            sung.add(suit)
            points[singer % 2] += cval
            cantes[singer % 2] += cval
            emit(KIND_CANTE, singer, suit, cval, points[0], points[1], scores[0], scores[1])
        leader = winner

    gp, made = score_hand(rules, contract, declarer, mano, tricks, points)
    after = [scores[0] + gp[0], scores[1] + gp[1]]
    emit(KIND_END, declarer, contract, made, gp[0], gp[1], after[0], after[1])
    return HandRecord(
        game=game,
        hand=data,
        dealer=dealer,
        trump=trump,
        trump_card=trump_card,
        contract=contract,
        declarer=declarer,
        made=made,
        tricks=tricks,
        points=[points[0] - cantes[0], points[1] - cantes[1]],
        cantes=cantes,
        game_points=gp,
        scores=after,
        last_trick=leader,
        dealt=dealt,
    )


def first_dealer(root: int, game: int) -> int:
    """The first dealer of a game: ``randbelow(4)`` from the game stream (contract 2)."""
    return PyRng.for_stream(root, game, 0, STREAM_GAME).randbelow(4)


def play_game(
    rules: CuatrolaRules,
    root: int,
    game: int,
    play_policies: Sequence[PlayPolicy],
    bid_policies: Sequence[BidPolicy],
    trace: list[tuple[int, ...]] | None = None,
) -> GameRecord:
    """Play one game to ``rules.target`` game points (C6) and return its record.

    The dealer passes to the next seat, or to the last trick's winner (``dealer_rotation``,
    C1.4). The game stops when a pair reaches the target (C6.1), or is ``truncated`` after
    :data:`MAX_HANDS` hands.
    """
    dealer = first_dealer(root, game)
    rec = GameRecord(game=game, first_dealer=dealer, winner=-1, scores=[0, 0])
    scores = [0, 0]
    for j in range(MAX_HANDS):
        h = play_hand(rules, root, game, j, dealer, scores, play_policies, bid_policies, trace)
        rec.hands.append(h)
        scores = list(h.scores)
        for pair in (0, 1):
            if scores[pair] >= rules.target:
                rec.winner = pair
        if rec.winner >= 0:
            break
        dealer = h.last_trick if rules.dealer_rotation == "last_trick_winner" else (dealer + 1) % 4
    else:
        rec.truncated = True
    rec.scores = scores
    return rec


def reference_trace(
    rules: CuatrolaRules | str | dict,
    play_policies: str | Sequence[str],
    bid_policies: str | Sequence[str],
    seed: int,
    level: str,
    index: int,
) -> list[tuple[int, ...]]:
    """Play hand (level ``"hand"``) or game (level ``"game"``) ``index`` of a simulation and
    return its trace rows (contract section 6), as the kernel's ``trace_game`` does.

    Raises
    ------
    ValueError
        Bad rules, policies, seed or level.
    """
    ruleset = resolve_rules(rules)
    plays = resolve_play_policies(play_policies)
    bids = resolve_bid_policies(bid_policies)
    root, _ = root_from_seed(seed)
    trace: list[tuple[int, ...]] = []
    if level == "hand":
        play_hand(ruleset, root, index, 0, index % 4, [0, 0], plays, bids, trace)
    elif level == "game":
        play_game(ruleset, root, index, plays, bids, trace)
    else:
        raise ValueError(f"unknown level {level!r}; accepted: hand, game")
    return trace
