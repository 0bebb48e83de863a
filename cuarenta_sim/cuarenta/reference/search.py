"""Pure-Python twins of the numba ``heuristic``, ``pimc`` and ``solver`` policies, on rank counts.

The executable form of :mod:`cuarenta_sim.cuarenta.engine.heuristic` and
:mod:`cuarenta_sim.cuarenta.engine.pimc`
(their docstrings define the scores, the sampling and the playouts): the same integer
arithmetic, the same canonical legal plays (:func:`.plays.legal_plays`), outcomes from
:func:`.plays.resolve_play`, and the same draws from the seat's search stream, so that the
kernel's choices can be checked play for play (``tests/differential``). Everything is computed
from what the seat observes (:class:`.policies.Observation`, here :class:`SeatInfo`); sampled
full states exist only inside the one sample loop of ``pimc`` and ``solver``
(:func:`sample_loop`: draw a deal of the unseen cards, value every play on it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...rng import PyRng
from ..cards import N_RANKS
from ..policies.kernel import (
    AUTO_SAMPLES_2,
    AUTO_SAMPLES_4,
    DEPTH_DEAL,
    P_CAIDA,
    P_CARDS,
    P_DEPTH,
    P_EXACT,
    P_HOLD_KNOWN,
    P_KEEP_TABLE,
    P_LEAF_CARDS,
    P_LIMPIA,
    P_NO_ACE_TRAIL,
    P_NO_RUN_START,
    P_OPENINGS,
    P_PLAYOUT,
    P_RULES_38_30,
    P_SAMPLES,
    P_STOP,
    P_TRAIL_PAIR,
    PLAYOUT_GREEDY,
)
from ..rules import RuleSet
from .plays import Play, capture_bases, legal_plays, resolve_play
from .scoring import end_of_data

#: Value of winning the chica inside a playout (twin of ``engine.pimc.WIN_POINTS``).
WIN_POINTS = 100


def hold_chance(unseen_q: int, unseen: int, h: int) -> int:
    """Per mille chance that ``h`` cards drawn from ``unseen`` hold one of ``unseen_q``
    (twin of :func:`cuarenta_sim.cuarenta.engine.heuristic.hold_chance`)."""
    if h <= 0 or unseen_q <= 0 or unseen <= 0:
        return 0
    num = den = 1
    for i in range(h):
        num *= max(unseen - unseen_q - i, 0)
        den *= unseen - i
    return 1000 * (den - num) // den


def run_length(table: Sequence[int], rank: int) -> int:
    """Cards the run (R5.4) takes after a capture with ``rank`` on ``table``."""
    k = rank + 1
    while k < N_RANKS and table[k] >= 1:
        k += 1
    return k - rank - 1


def best_capture(table: Sequence[int], q: int, rules: RuleSet) -> tuple[int, int]:
    """``(base cards, run cards)`` of the largest capture of rank ``q``; ``(0, 0)`` if none."""
    bases = capture_bases(q, table, rules)
    if not bases:
        return 0, 0
    return max(len(b) for b in bases), run_length(table, q)


def next_chances(hand: Sequence[int], played: Sequence[int], next_hand: int) -> list[int]:
    """Per mille chance that the next player (``next_hand`` cards) holds each rank (twin of
    :func:`cuarenta_sim.cuarenta.engine.heuristic.next_chances`)."""
    unseen = [4 - hand[q] - played[q] for q in range(N_RANKS)]
    total = sum(unseen)
    return [hold_chance(unseen[q], total, next_hand) for q in range(N_RANKS)]


def play_terms(
    rules: RuleSet,
    hand: Sequence[int],
    table: Sequence[int],
    play: Play,
    trail: int | None,
    trail_in_ronda: bool,
    score: int,
    opp_score: int,
    my_ronda: Sequence[int],
    next_known: Sequence[int],
    chance: Sequence[int],
) -> tuple[int, int, int, int, int, int, int, int, int, int, int, list[int]]:
    """The unweighted terms of one legal play (twin of
    :func:`cuarenta_sim.cuarenta.engine.heuristic.play_terms`, which defines them):
    ``(points, cards, caida, limpia, openings, pair, ace, run_start, keep, known,
    after_cards, after)`` (``after``: per-rank counts of the table left)."""
    r = play.rank
    points = cards = caida = pair = ace = run_start = known = 0
    if play.is_trail:
        after = list(table)
        after[r] += 1
        ronda_blocked = (
            rules.ronda_blocked_from is not None and opp_score >= rules.ronda_blocked_from
        )
        cv = rules.caida_en_ronda_points if r in my_ronda and not ronda_blocked else 2
        caida = chance[r] * cv
        pair = int(hand[r] >= 2)
        ace = int(r == 0)
        run_start = run_length(after, r)
        known = int(next_known[r] > 0)
    else:
        out = resolve_play(
            rules, table, play, trail=trail, trail_in_ronda=trail_in_ronda, score=score
        )
        points = out.points + out.claim
        cards = len(out.captured)
        after = list(out.table_after)
    after_cards = sum(after)
    risk = opening = keep = 0
    if after_cards > 0:
        for q in range(N_RANKS):
            if chance[q] == 0:
                continue
            nb, rn = best_capture(after, q, rules)
            if nb == 0:
                continue
            opening += chance[q] * (1 + nb + rn)
            todo_dos = play.is_trail and q == r and not rules.caida_limpia_cumulative
            if nb + rn == after_cards and chance[q] > risk and not todo_dos:
                risk = chance[q]
        if after_cards <= 2:
            keep = 3 - after_cards
    return (
        points,
        cards,
        caida,
        risk * 2,
        opening,
        pair,
        ace,
        run_start,
        keep,
        known,
        after_cards,
        after,
    )


def heuristic_index(
    params: Sequence[int],
    rules: RuleSet,
    hand: Sequence[int],
    table: Sequence[int],
    trail: int | None,
    trail_in_ronda: bool,
    score: int,
    opp_score: int,
    played: Sequence[int],
    my_ronda: Sequence[int],
    next_known: Sequence[int],
    next_hand: int,
) -> int:
    """Index of the heuristic's play among ``legal_plays(hand, table, rules)``.

    ``params`` is the kernel parameter row; ``my_ronda`` the seat's ronda ranks of the deal;
    ``next_known`` the per-rank counts the next player is known to hold; ``next_hand`` its hand
    size after the play. Score terms: :mod:`cuarenta_sim.cuarenta.engine.heuristic`.
    """
    plays = legal_plays(hand, table, rules)
    if len(plays) == 1:
        return 0
    w_cards = params[P_CARDS]
    w_limpia = params[P_LIMPIA]
    if params[P_RULES_38_30]:
        at38 = rules.target - 2
        blocked = rules.carton_blocked_from is not None and score >= rules.carton_blocked_from
        if blocked or (score == at38 and rules.at_38 == "only_caida"):
            w_cards = 0
        if opp_score == at38 and rules.at_38 != "none":
            w_limpia = 0
    chance = next_chances(hand, played, next_hand)
    best, best_value = -1, 0
    for k, play in enumerate(plays):
        points, cards, caida, limpia, opening, pair, ace, run, keep, known, _c, _t = play_terms(
            rules,
            hand,
            table,
            play,
            trail,
            trail_in_ronda,
            score,
            opp_score,
            my_ronda,
            next_known,
            chance,
        )
        value = (
            1000 * points
            + w_cards * cards
            - params[P_CAIDA] * caida // 1000
            + params[P_TRAIL_PAIR] * pair
            - params[P_NO_ACE_TRAIL] * ace
            - params[P_NO_RUN_START] * run
            - params[P_HOLD_KNOWN] * known
            - w_limpia * limpia // 1000
            - params[P_OPENINGS] * opening // 1000
            - params[P_KEEP_TABLE] * keep
        )
        if best < 0 or value > best_value:
            best, best_value = k, value
    return best


def greedy_index(
    rules: RuleSet,
    plays: Sequence[Play],
    table: Sequence[int],
    trail: int | None,
    in_ronda: bool,
    score: int,
) -> int:
    """Index of the greedy play (contract section 6)."""
    best, best_key = 0, (-1, -1)
    for i, play in enumerate(plays):
        out = resolve_play(rules, table, play, trail=trail, trail_in_ronda=in_ronda, score=score)
        key = (out.points + out.claim, len(out.captured))
        if key > best_key:
            best, best_key = i, key
    return best


@dataclass(frozen=True)
class SeatInfo:
    """What a searching seat knows at its decision (its :class:`.policies.Observation`'s
    fields; see :func:`pimc_index`): the sample loop determinises from this alone."""

    params: Sequence[int]
    rules: RuleSet
    players: int
    seat: int
    dealer: int
    deal: int
    turn: int
    hand: Sequence[int]
    table: Sequence[int]
    trail: int | None
    trail_seat: int | None
    played: Sequence[int]
    rondas: Sequence[tuple[int, ...]]
    known: Sequence[Sequence[int]]
    hand_sizes: Sequence[int]
    scores: Sequence[int]
    piles: Sequence[int]
    last_capturer: int | None
    stop_at_target: bool


@dataclass
class _World:
    """A sampled full state of a data, as a playout plays it (rank counts)."""

    hands: list[list[int]]
    rondas: list[tuple[int, ...]]
    known: list[list[int]]
    stock: list[int]
    table: list[int]
    trail: int | None
    trail_seat: int
    played: list[int]
    scores: list[int]
    gains: list[int]
    piles: list[int]
    piles0: list[int]
    last_capturer: int | None


def _value(w: _World, me: int, winner: int | None, leaf: int) -> int:
    """Playout value in milli-points (twin of ``engine.pimc._value``)."""
    v = 1000 * (w.gains[me] - w.gains[1 - me])
    if winner is not None:
        v += 1000 * WIN_POINTS if winner == me else -1000 * WIN_POINTS
    if leaf:
        v += leaf * (w.piles[me] - w.piles0[me] - w.piles[1 - me] + w.piles0[1 - me])
    return v


def playout(info: SeatInfo, first: Play, w: _World) -> int:
    """Play a sampled world out from the decision of ``info`` (:class:`SeatInfo`), ``first``
    first; return its value (twin of :func:`cuarenta_sim.cuarenta.engine.pimc.playout`)."""
    params, rules, players, dealer = info.params, info.rules, info.players, info.dealer
    me, stop_at_target = info.seat % 2, info.stop_at_target
    n_deals = 8 // players
    target = rules.target
    greedy = params[P_PLAYOUT] == PLAYOUT_GREEDY
    claims = [0, 0]
    claim_order: list[int] = []
    d, t = info.deal, info.turn
    forced: Play | None = first
    while True:
        while t < 5 * players:
            seat = (dealer + 1 + t) % players
            side = seat % 2
            hand = w.hands[seat]
            in_ronda = w.trail is not None and w.trail in w.rondas[w.trail_seat]
            plays = legal_plays(hand, w.table, rules)
            if forced is not None:
                play, forced = forced, None
            elif greedy:
                play = plays[greedy_index(rules, plays, w.table, w.trail, in_ronda, w.scores[side])]
            else:
                nxt = (seat + 1) % players
                play = plays[
                    heuristic_index(
                        params,
                        rules,
                        hand,
                        w.table,
                        w.trail,
                        in_ronda,
                        w.scores[side],
                        w.scores[1 - side],
                        w.played,
                        w.rondas[seat],
                        w.known[nxt],
                        sum(w.hands[nxt]),
                    )
                ]
            r = play.rank
            hand[r] -= 1
            w.played[r] += 1
            if w.known[seat][r] > 0:
                w.known[seat][r] -= 1
            t += 1
            if play.is_trail:
                w.table[r] += 1
                w.trail, w.trail_seat = r, seat
                continue
            out = resolve_play(
                rules, w.table, play, trail=w.trail, trail_in_ronda=in_ronda, score=w.scores[side]
            )
            w.table = list(out.table_after)
            w.piles[side] += len(out.captured)
            w.last_capturer = side
            w.trail = None
            if out.claim:
                if not claims[side]:
                    claim_order.append(side)
                claims[side] += out.claim
            w.scores[side] += out.points
            w.gains[side] += out.points
            if stop_at_target and w.scores[side] >= target:
                return _value(w, me, side, 0)
        if claim_order:
            for side in (claim_order[0], 1 - claim_order[0]):
                w.scores[side] += claims[side]
                w.gains[side] += claims[side]
                if stop_at_target and claims[side] and w.scores[side] >= target:
                    return _value(w, me, side, 0)
            claims = [0, 0]
            claim_order = []
        if d == n_deals - 1:
            count = end_of_data(
                rules,
                tuple(w.piles),
                sum(w.table),
                w.last_capturer,
                (dealer + 1) % 2,
                tuple(w.scores),
            )
            winner = None
            for credit in count.credits:
                w.scores[credit.side] += credit.points
                w.gains[credit.side] += credit.points
                if winner is None and credit.points and w.scores[credit.side] >= target:
                    winner = credit.side
            if count.leftover_to is not None:
                w.piles[count.leftover_to] += sum(w.table)
            return _value(w, me, winner if stop_at_target else None, 0)
        if params[P_DEPTH] == DEPTH_DEAL:
            return _value(w, me, None, params[P_LEAF_CARDS])
        d += 1
        t = 0
        for p in range(players):
            seat = (dealer + 1 + p) % players
            h = [0] * N_RANKS
            for rank in w.stock[:5]:
                h[rank] += 1
            w.stock = w.stock[5:]
            w.hands[seat] = h
            w.rondas[seat] = tuple(q for q in range(N_RANKS) if h[q] >= 3)
            w.known[seat] = [h[q] if h[q] >= 3 else 0 for q in range(N_RANKS)]
        if not rules.caida_across_deals:
            w.trail = None


def unseen_pool(
    hand: Sequence[int],
    played: Sequence[int],
    known: Sequence[Sequence[int]],
    hand_sizes: Sequence[int],
    seat: int,
    players: int,
) -> tuple[list[int], list[int]]:
    """The unseen cards (ascending ranks) minus the known ronda cards of the other seats, and
    how many unknown cards each other seat holds (twin of
    :func:`cuarenta_sim.cuarenta.engine.pimc.unseen_pool`)."""
    unseen = [4 - hand[q] - played[q] for q in range(N_RANKS)]
    need = [0] * players
    for o in range(players):
        if o != seat:
            for q in range(N_RANKS):
                unseen[q] -= known[o][q]
            need[o] = hand_sizes[o] - sum(known[o])
    return [q for q in range(N_RANKS) for _ in range(unseen[q])], need


def deal_sample(
    pool: Sequence[int],
    need: Sequence[int],
    known: Sequence[Sequence[int]],
    hand: Sequence[int],
    seat: int,
    players: int,
    rng: PyRng,
) -> tuple[list[list[int]], list[int], int]:
    """One deal of the unseen cards: the hands, the shuffled pool, where its stock starts
    (twin of :func:`cuarenta_sim.cuarenta.engine.pimc.deal_sample`)."""
    buf = list(pool)
    for j in range(len(buf) - 1, 0, -1):
        k = rng.randbelow(j + 1)
        buf[j], buf[k] = buf[k], buf[j]
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[seat] = list(hand)
    pos = 0
    for step in range(1, players):
        o = (seat + step) % players
        h = list(known[o])
        for rank in buf[pos : pos + need[o]]:
            h[rank] += 1
        pos += need[o]
        hands[o] = h
    return hands, buf, pos


#: A sampled deal of the unseen cards: every seat's hand (rank counts), the shuffled pool
#: and where its stock starts (:func:`deal_sample`).
Sample = tuple[list[list[int]], list[int], int]


def playout_row(info: SeatInfo, plays: Sequence[Play], sample: Sample) -> list[int]:
    """The playout value of every legal play on one sampled deal (pimc's valuation, and the
    solver's before ``exact`` plays are left): each play played out from a fresh copy of the
    sampled world (:func:`playout`)."""
    hands, buf, pos = sample
    row = []
    for play in plays:
        w = _World(
            hands=[list(h) for h in hands],
            rondas=list(info.rondas),
            known=[list(x) for x in info.known],
            stock=buf[pos:],
            table=list(info.table),
            trail=info.trail,
            trail_seat=-1 if info.trail_seat is None else info.trail_seat,
            played=list(info.played),
            scores=list(info.scores),
            gains=[0, 0],
            piles=list(info.piles),
            piles0=list(info.piles),
            last_capturer=info.last_capturer,
        )
        row.append(playout(info, play, w))
    return row


def _first(totals: Sequence[int]) -> int:
    """Index of the first largest total (ties to the canonical order)."""
    return max(range(len(totals)), key=lambda k: (totals[k], -k))


def sample_loop(
    n_plays: int,
    samples: int,
    draw: Callable[[], Sample],
    valuation: Callable[[Sample], list[int]],
    stop: int = 0,
) -> int:
    """The one sample loop of the searching policies, pimc and solver (twin of the loops of
    :func:`cuarenta_sim.cuarenta.engine.pimc.pimc_totals` and
    :func:`cuarenta_sim.cuarenta.engine.solverplay.solver_play`): up to ``samples`` times,
    ``draw()`` one deal of the unseen cards (:data:`Sample`, from the seat's search stream)
    and add ``valuation(sample)``, the value of each of the ``n_plays`` legal plays on it in
    milli-points (playouts, :func:`playout_row`, or an exact solve), to its total; with
    ``stop = z > 0`` end early once :func:`clearly_best` holds (from the :data:`MIN_STOP`-th
    sample). Returns the index of the first play of largest total (canonical order, contract
    section 3)."""
    vals: list[list[int]] = []
    totals = [0] * n_plays
    for _ in range(samples):
        row = valuation(draw())
        vals.append(row)
        totals = [t + v for t, v in zip(totals, row, strict=True)]
        if (
            stop > 0
            and MIN_STOP <= len(vals) < samples
            and clearly_best(vals, _first(totals), stop)
        ):
            break
    return _first(totals)


def pimc_search(info: SeatInfo, rng: PyRng) -> int:
    """Index of the pimc play among ``legal_plays(hand, table, rules)`` of the seat ``info``
    (twin of :func:`cuarenta_sim.cuarenta.engine.pimc.pimc_play`; ``rng`` is the seat's search
    stream): :func:`sample_loop` over ``params[P_SAMPLES]`` deals from :func:`deal_sample`,
    valued by playouts (:func:`playout_row`)."""
    plays = legal_plays(info.hand, info.table, info.rules)
    if len(plays) == 1:
        return 0
    pool, need = unseen_pool(
        info.hand, info.played, info.known, info.hand_sizes, info.seat, info.players
    )
    return sample_loop(
        len(plays),
        info.params[P_SAMPLES],
        lambda: deal_sample(pool, need, info.known, info.hand, info.seat, info.players, rng),
        lambda sample: playout_row(info, plays, sample),
    )


#: Twins of ``engine.solverplay.MIN_STOP`` and ``MAX_REDRAWS``.
MIN_STOP = 4
MAX_REDRAWS = 64


def ronda_world(pool: Sequence[int], need: Sequence[int], info: SeatInfo, rng: PyRng) -> Sample:
    """One world of the unseen cards for the seat ``info`` (:func:`deal_sample`), redrawn at
    most :data:`MAX_REDRAWS` times while another seat's hand contradicts the deal's
    announcements (R4: more of an announced rank than it is known to hold, or 3 of an
    unannounced one); the last draw is kept. Twin of
    :func:`cuarenta_sim.cuarenta.engine.solverplay.ronda_world`."""
    known, rondas, seat = info.known, info.rondas, info.seat
    for _t in range(MAX_REDRAWS + 1):
        sample = deal_sample(pool, need, known, info.hand, seat, info.players, rng)
        if not any(
            (h[q] > known[o][q]) if q in rondas[o] else (h[q] >= 3)
            for o, h in enumerate(sample[0])
            if o != seat
            for q in range(N_RANKS)
        ):
            break
    return sample


def clearly_best(vals: Sequence[Sequence[int]], best: int, z: int) -> bool:
    """Early-stopping test (twin of
    :func:`cuarenta_sim.cuarenta.engine.solverplay.clearly_best`): does play ``best`` beat
    every other on the paired per-sample differences of ``vals`` (one row per sample)?"""
    k = len(vals)
    for j in range(len(vals[0])):
        if j == best:
            continue
        diffs = [row[best] - row[j] for row in vals]
        d_sum = sum(diffs)
        d_sq = sum(d * d for d in diffs)
        if d_sum == 0 and d_sq == 0:
            continue
        if d_sum <= 0 or (k - 1) * d_sum * d_sum <= z * z * (k * d_sq - d_sum * d_sum):
            return False
    return True


def solver_search(info: SeatInfo, rng: PyRng) -> int:
    """Index of the solver play among ``legal_plays(hand, table, rules)`` of the seat ``info``
    (twin of :func:`cuarenta_sim.cuarenta.engine.solverplay.solver_play`, whose docstring
    defines it; ``rng`` the seat's search stream): :func:`sample_loop` over deals from
    :func:`deal_sample` redrawn while they contradict the rondas (or the one deal the seat can
    infer), valued by exact solves (:func:`.solver.solve_values`, which returns the kernel
    solver's values) or, with more than ``exact`` plays left, playouts."""
    from .solver import SolverPosition, solve_values

    params, rules, players, seat, turn = info.params, info.rules, info.players, info.seat, info.turn
    hand, table, known, rondas = info.hand, info.table, info.known, info.rondas
    plays = legal_plays(hand, table, rules)
    if len(plays) == 1:
        return 0
    pool, need = unseen_pool(hand, info.played, known, info.hand_sizes, seat, players)
    holders = sum(1 for o in range(players) if need[o] > 0)
    determinate = holders <= 1 and sum(need) == len(pool)
    exact = determinate or 5 * players - turn <= params[P_EXACT]
    # samples=auto (0): by the player count (twin of ``policies.kernel.solver_samples``).
    auto = AUTO_SAMPLES_2 if players == 2 else AUTO_SAMPLES_4
    samples = 1 if determinate else (params[P_SAMPLES] or auto)

    def draw() -> Sample:
        if determinate:
            # Every unseen card is in the one other hand that is not empty: nothing to draw.
            hands = [list(known[o]) for o in range(players)]
            hands[seat] = list(hand)
            for o in range(players):
                if need[o] > 0:
                    for rank in pool:
                        hands[o][rank] += 1
            return hands, list(pool), len(pool)
        return ronda_world(pool, need, info, rng)

    def solve(sample: Sample) -> list[int]:
        position = SolverPosition(
            rules=rules,
            players=players,
            dealer=info.dealer,
            deal=info.deal,
            turn=turn,
            hands=tuple(tuple(h) for h in sample[0]),
            rondas=tuple(tuple(r) for r in rondas),
            table=tuple(table),
            trail=info.trail,
            piles=(info.piles[0], info.piles[1]),
            last_capturer=info.last_capturer,
            scores=(info.scores[0], info.scores[1]),
            stop_at_target=info.stop_at_target,
        )
        values = solve_values(
            position, unit=1000, win_bonus=1000 * WIN_POINTS, leaf_cards=params[P_LEAF_CARDS]
        )
        return [v for _play, v in values]

    def play_out(sample: Sample) -> list[int]:
        return playout_row(info, plays, sample)

    return sample_loop(len(plays), samples, draw, solve if exact else play_out, params[P_STOP])


def on_fields(search: Callable[[SeatInfo, PyRng], int]) -> Callable[..., int]:
    """``search`` called with the observation's fields, as :class:`.policies.SearchPolicy`
    calls its valuation: ``index(params, rules, players, seat, dealer, deal, turn, hand,
    table, trail, trail_seat, played, rondas, known, hand_sizes, scores, piles, last_capturer,
    stop_at_target, rng)`` (the :class:`SeatInfo` fields in order, then the seat's search
    stream) -> ``search(SeatInfo(...), rng)``."""

    def index(
        params: Sequence[int],
        rules: RuleSet,
        players: int,
        seat: int,
        dealer: int,
        deal: int,
        turn: int,
        hand: Sequence[int],
        table: Sequence[int],
        trail: int | None,
        trail_seat: int | None,
        played: Sequence[int],
        rondas: Sequence[tuple[int, ...]],
        known: Sequence[Sequence[int]],
        hand_sizes: Sequence[int],
        scores: Sequence[int],
        piles: Sequence[int],
        last_capturer: int | None,
        stop_at_target: bool,
        rng: PyRng,
    ) -> int:
        return search(
            SeatInfo(
                params, rules, players, seat, dealer, deal, turn, hand, table, trail,
                trail_seat, played, rondas, known, hand_sizes, scores, piles, last_capturer,
                stop_at_target,
            ),
            rng,
        )  # fmt: skip

    index.__name__ = index.__qualname__ = search.__name__.replace("_search", "_index")
    index.__doc__ = f"{search.__doc__}\n\n    On the observation's fields: :func:`on_fields`."
    return index


#: :func:`pimc_search` and :func:`solver_search` on the observation's fields (:func:`on_fields`).
pimc_index = on_fields(pimc_search)
solver_index = on_fields(solver_search)
