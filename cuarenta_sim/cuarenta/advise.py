"""Scenario kind ``advise``: the value of every legal play from the deciding seat's information.

``docs/engine_contract.md`` section 10 is the interface. The input is that of ``solve`` with
the hands of the other seats hidden: ``hands`` holds only the deciding seat's ranks (the others
``null``), ``unseen`` lists the ranks the seat has not seen (in other hands or still to be
dealt), and any deal of the data may be asked. :func:`advise_scenario` checks it into an
:class:`~cuarenta_sim.cuarenta.reference.advice.AdvicePosition` and values every legal play:
the seat's side's points minus the other side's from the position to the end of the data,
expected over what the seat cannot see.

* **Exact** (``exact: true``) when what the seat knows fixes every hand
  (:attr:`~cuarenta_sim.cuarenta.reference.advice.AdvicePosition.determinate`: the data's last
  deal, with the unseen cards in one hand, e.g. always with 2 players): the one
  full position is solved by the exact solver, as kind ``solve`` does, so the values are
  ``solve``'s and ``lower = upper = value``.
* **Sampled** otherwise: ``samples`` worlds (default :data:`DEFAULT_SAMPLES`) are drawn
  uniformly from the hidden cards consistent with the announcements, the same worlds for every
  play (common random numbers: the differences between plays are sharper than each value),
  and each world is valued by the **continuation** :data:`CONTINUATION`
  (:mod:`cuarenta_sim.cuarenta.engine.advice`): solved exactly in the data's last deal once at
  most :data:`EXACT_PLAYS` plays are left in it, otherwise played on to the end of the data by
  the tuned ``heuristic`` policy at every seat (pimc's ``depth=data`` playout). ``value`` is the
  mean over the worlds and ``lower`` / ``upper`` its 95% Student-t interval over them
  (:data:`INTERVAL`). The values are the expectation under that continuation, not under best
  play.

Each play's ``loss`` is the advised play's value minus its own (0 for the advised play), with
its 95% interval over the same worlds (``loss_lower``, ``loss_upper``): the expected points a
play gives away, the figure a game review adds up (issue 21 item 2).

The common output fields (``points``, ``scores``, ``winner``, ``zapateria``) are those of the
advised play alone (``play``: the first legal play of largest value), as kind ``play`` with that
card and base would give them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..distributions import t_ppf
from ..rng import STREAM_SEARCH, PyRng, root_from_seed
from .cards import N_CARDS, RANK_NAMES, check_rank_counts, format_ranks, ranks_to_counts
from .reference.advice import AdvicePosition
from .reference.plays import Play, resolve_play
from .reference.state import CARDS_PER_DEAL, deals_per_data
from .scenario_fields import (
    ScenarioError,
    check_rondas_held,
    check_seat,
    claims_field,
    int_field,
    is_int,
    list_field,
    ranks_field,
    rondas_field,
)

if TYPE_CHECKING:  # the judge passes its helpers in: no import cycle with .scenario
    from .scenario import _Common
from .tables import pack_counts

#: Worlds drawn by default (p95 46 ms for 2-player mid-data positions on the shared 2-core
#: machine: ``python benchmarks/run.py advise-latency``).
DEFAULT_SAMPLES = 256
#: Accepted ``samples``: at least 2 (an interval needs two), at most 10,000.
MIN_SAMPLES, MAX_SAMPLES = 2, 10_000
#: In the data's last deal a sampled world is solved exactly with at most this many plays left
#: (the ``solver`` policy's default ``exact``).
EXACT_PLAYS = 6
#: The continuation of a sampled world, as the output's ``continuation`` names it.
CONTINUATION = (
    f"each sampled world solved exactly in the data's last deal with at most {EXACT_PLAYS} "
    "plays left, else played on to the end of the data by the heuristic policy at every seat "
    "(pimc(depth=data) playout)"
)
#: The interval of a sampled value, as the output's ``interval`` names it.
INTERVAL = "95% Student-t interval of the mean over the sampled worlds"
#: The playout's policy row.
PLAYOUT_POLICY = "pimc(depth=data)"


def advise_scenario(
    obj: dict[str, Any],
    c: _Common,
    previous: Callable[..., Any],
    result: Callable[..., dict[str, Any]],
) -> dict[str, Any]:
    """Evaluate an ``advise`` scenario whose common fields are checked (module docstring).

    Parameters
    ----------
    obj : dict
        The scenario (fields ``FIELDS['advise']`` of :mod:`.scenario`).
    c : _Common
        Its rules, players, dealer and scores.
    previous, result : callable
        The judge's ``_previous`` (the trail of the previous play) and ``_result`` (the common
        fields of a step), passed in by :mod:`.scenario` so this module does not import it.

    Returns
    -------
    dict
        The common fields of the advised play, ``play`` (its card and base), ``values``
        (per legal play, canonical order: ``card``, ``base``, ``value``, ``lower``,
        ``upper``, and ``loss``, ``loss_lower``, ``loss_upper``: the advised play's value
        minus this one's, its interval paired over the same worlds), ``best`` (the largest
        value), ``exact``, ``samples`` (worlds valued; 1 when exact), ``interval`` and
        ``continuation`` (how the values were computed).

    Raises
    ------
    ScenarioError
        Naming the field that is wrong.
    """
    position, samples, seed = parse_advise(obj, c, previous)
    plays = position.plays()
    if position.determinate:
        world = position.world()
        try:
            check_rondas_held([list(r) for r in world.rondas], [list(h) for h in world.hands])
        except ScenarioError as exc:
            raise ScenarioError(
                f"unseen: the cards seat {position.seat} has not seen fill the other hands "
                f"one way only, and then {exc}"
            ) from None
        from .engine.solver import solve_counts  # the numba engine only when valuing

        exact_values = solve_counts(world.rules, *world.kernel_args())
        values: list[float | int] = list(exact_values)
        lower, upper = list(values), list(values)
        used, interval, continuation = 1, "exact", "every hand known: solved exactly"
    else:
        rows = sampled_values(position, samples, seed)
        values, lower, upper = summarise(rows)
        used, interval, continuation = samples, INTERVAL, CONTINUATION
    best_index = max(range(len(plays)), key=lambda k: (values[k], -k))
    if position.determinate:
        loss = [values[best_index] - v for v in values]
        loss_lower, loss_upper = list(loss), list(loss)
    else:
        # Paired over the same worlds (common random numbers): tighter than the values'.
        loss, loss_lower, loss_upper = summarise(rows[:, [best_index]] - rows)
    play = plays[best_index]
    before = list(c.scores)
    board = c.board()
    side = position.seat % 2
    in_ronda = (
        position.trail is not None
        and position.trail in position.rondas[(position.seat - 1) % position.players]
    )
    outcome = resolve_play(
        position.rules,
        position.table,
        play,
        trail=position.trail,
        trail_in_ronda=in_ronda,
        score=before[side],
    )
    board.credit(side, outcome.points)
    return {
        **result(before, board),
        "play": _play_json(play),
        "values": [
            {
                **_play_json(p),
                "value": v,
                "lower": lo,
                "upper": up,
                "loss": ls,
                "loss_lower": ll,
                "loss_upper": lu,
            }
            for p, v, lo, up, ls, ll, lu in zip(
                plays, values, lower, upper, loss, loss_lower, loss_upper, strict=True
            )
        ],
        "best": values[best_index],
        "exact": position.determinate,
        "samples": used,
        "interval": interval,
        "continuation": continuation,
    }


def _play_json(play: Play) -> dict[str, Any]:
    return {"card": RANK_NAMES[play.rank], "base": format_ranks(play.base)}


def sampled_values(position: AdvicePosition, samples: int, seed: int) -> np.ndarray:
    """Per sampled world the value of every legal play, by the numba kernel
    (:func:`cuarenta_sim.cuarenta.engine.advice.advise_samples`).

    Parameters
    ----------
    position : AdvicePosition
        The decision.
    samples : int
        Worlds to draw (>= 1).
    seed : int
        The search stream is ``(seed, game 0, data 0, STREAM_SEARCH + seat)``
        (:mod:`cuarenta_sim.rng`).

    Returns
    -------
    ndarray of int64, shape (samples, n_legal)
        Points values, one row per world.
    """
    from .engine.advice import A_EXACT, A_SAMPLES, N_SETUP, advise_samples
    from .engine.batch import kernel_args
    from .engine.solvertable import position_array
    from .engine.state import Position
    from .policies import parse_policy

    p = position
    n = p.players
    spec = parse_policy(PLAYOUT_POLICY)
    kr, _players, _arr, sums = kernel_args(p.rules, n, (spec.id,) * n)
    public = np.zeros(8, dtype=np.int64)
    for o in range(n):
        public[o] = pack_counts([8 if q in p.rondas[o] else 0 for q in range(10)])
        public[4 + o] = pack_counts(list(p.known[o]))
    pos = Position(
        p.seat,
        p.dealer,
        p.deal,
        p.turn,
        n,
        True,
        pack_counts(list(p.hand)),
        pack_counts(list(p.table)),
        sum(p.table),
        -1 if p.trail is None else p.trail,
        -1 if p.trail is None else (p.seat - 1) % n,
        pack_counts(p.played),
        p.scores[0],
        p.scores[1],
        p.piles[0],
        p.piles[1],
        -1 if p.last_capturer is None else p.last_capturer,
    )
    setup = np.zeros(N_SETUP, dtype=np.int64)
    setup[A_SAMPLES] = samples
    setup[A_EXACT] = EXACT_PLAYS
    first_claim = p.claim_order[0] if p.claim_order else -1
    hands = [[0] * 10 for _ in range(n)]  # each world's hands are written by the kernel
    rondas = [list(r) for r in p.rondas]
    posa = position_array(
        n,
        p.dealer,
        p.deal,
        p.turn,
        hands,
        rondas,
        list(p.table),
        pos.prev_rank,
        p.scores,
        p.piles,
        pos.last_capturer,
        p.claims,
        first_claim,
    )
    stream = tuple(np.uint64(v) for v in search_stream(seed, p.seat).s)
    vals, _stream = advise_samples(spec.row(n), pos, public, stream, kr, sums, setup, posa)
    return vals


def search_stream(seed: int, seat: int) -> PyRng:
    """The stream the worlds are drawn from: ``(seed, 0, 0, STREAM_SEARCH + seat)``."""
    root, _ = root_from_seed(seed)
    return PyRng.for_stream(root, 0, 0, STREAM_SEARCH + seat)


def summarise(rows: np.ndarray) -> tuple[list[float], list[float], list[float]]:
    """Mean and 95% Student-t interval of each column of ``rows`` (samples x plays).

    Returns
    -------
    (values, lower, upper) : lists of float
        Rounded to 4 decimals. A column constant over the worlds has a zero-width interval.
    """
    arr = np.asarray(rows, dtype=np.float64)
    k = arr.shape[0]
    mean = arr.mean(axis=0)
    sd = arr.std(axis=0, ddof=1) if k > 1 else np.zeros(arr.shape[1])
    half = t_ppf(0.975, float(k - 1)) * sd / math.sqrt(k) if k > 1 else sd
    return (
        [round(float(v), 4) for v in mean],
        [round(float(v), 4) for v in mean - half],
        [round(float(v), 4) for v in mean + half],
    )


# --------------------------------------------------------------------------- input
def parse_advise(
    obj: dict[str, Any], c: _Common, previous: Callable[..., Any]
) -> tuple[AdvicePosition, int, int]:
    """Check an ``advise`` scenario's own fields: ``(position, samples, seed)``.

    Raises
    ------
    ScenarioError
        One error naming the field: a hidden hand given, unseen cards that with the hand, the
        table and the captured cards do not make 40, more than 4 of a rank, a hand size or
        captured count that does not fit the turn order (or ``deal``), rondas or ``known``
        that the position cannot hold, odd claims, ``samples`` or ``seed`` out of range.
    """
    n = c.players
    for name in ("table", "hands", "unseen", "cards"):
        if name not in obj:
            raise ScenarioError(f"missing field {name} in an advise scenario")
    seat = int_field(obj, "seat", c.leader)
    check_seat(seat, n, "seat")
    hand = _own_hand(obj["hands"], seat, n)
    table = ranks_to_counts(ranks_field(list_field(obj["table"], "table"), what="table"))
    unseen = ranks_to_counts(ranks_field(list_field(obj["unseen"], "unseen"), what="unseen"))
    check_rank_counts(
        [hand[q] + table[q] + unseen[q] for q in range(10)],
        what=f"hands[{seat}], table and unseen (a card cannot be both held or on the table "
        "and unseen)",
    )
    cards = list_field(obj["cards"], "cards")
    if len(cards) != 2 or not all(is_int(x) and x >= 0 for x in cards):
        raise ScenarioError(
            f"cards must be [side 0, side 1] captured counts (whole numbers >= 0), got {cards!r}"
        )
    piles = (int(cards[0]), int(cards[1]))
    total = sum(piles) + sum(table) + sum(hand) + sum(unseen)
    if total != N_CARDS:
        raise ScenarioError(
            f"unseen: cards {piles[0]} + {piles[1]}, {sum(table)} on the table, {sum(hand)} in "
            f"hands[{seat}] and {sum(unseen)} unseen make {total}, not the {N_CARDS} cards of "
            "the pack (R1.1); unseen lists every card the seat has not seen: the other hands "
            "and the cards still to be dealt"
        )
    deal, turn = _deal_and_turn(obj, seat, sum(hand), sum(piles) + sum(table), c)
    last = obj.get("last_capturer")
    if last is not None and (not is_int(last) or last not in (0, 1)):
        raise ScenarioError(f"last_capturer must be a side (0 or 1) or null, got {last!r}")
    last = None if last is None else int(last)
    if last is None and sum(piles) > 0:
        raise ScenarioError("last_capturer is needed (side 0 or 1): cards were captured (R8.1)")
    if last is not None and piles[last] == 0:
        raise ScenarioError(f"last_capturer {last} cannot be a side that captured no card")
    rondas = rondas_field(obj.get("rondas"), n)
    trail, _ = previous(obj.get("previous"), seat, deal + 1, list(table), rondas, c)
    if turn == 0 and obj.get("previous") is not None and trail is not None:
        raise ScenarioError(
            "previous: the first play of a deal follows no trail of this deal (R6.1); give "
            'null, or {"seat": s, "trail": rank, "deal": k} with k the deal before'
        )
    draft = AdvicePosition(
        c.rules,
        n,
        c.dealer,
        seat,
        deal,
        turn,
        tuple(hand),
        tuple(table),
        tuple(unseen),
        trail,
        tuple(tuple(r) for r in rondas),
        (),
        piles,
        last,
        (c.scores[0], c.scores[1]),
    )
    known = _known(obj.get("known"), draft)
    sizes = draft.hand_sizes
    pseudo = [_pseudo_hand(known[s], sizes[s], rondas[s]) for s in range(n)]
    pseudo[seat] = list(hand)
    claims, order = claims_field(obj.get("claims"), obj.get("first_claim"), c.rules, rondas, pseudo)
    samples = int_field(obj, "samples", DEFAULT_SAMPLES)
    if not MIN_SAMPLES <= samples <= MAX_SAMPLES:
        raise ScenarioError(
            f"samples must be {MIN_SAMPLES}..{MAX_SAMPLES:,} (worlds drawn; an interval needs "
            f"two), got {samples}"
        )
    seed = int_field(obj, "seed", 0)
    if not 0 <= seed < 2**63:
        raise ScenarioError(f"seed must be a whole number 0..2**63-1, got {seed}")
    known_t = tuple(tuple(k) for k in known)
    position = replace(draft, known=known_t, claims=claims, claim_order=order)
    return position, samples, seed


def _own_hand(value: object, seat: int, n: int) -> list[int]:
    """The deciding seat's rank counts from ``hands`` (the other entries must be null)."""
    items = list_field(value, "hands")
    if len(items) != n:
        raise ScenarioError(f"hands must list {n} entries (one per seat), got {len(items)}")
    for s, item in enumerate(items):
        if s != seat and item is not None:
            raise ScenarioError(
                f"hands[{s}] must be null: advise sees the position from seat {seat}, which "
                f"cannot see seat {s}'s cards; list them in unseen (use kind solve when every "
                "hand is known)"
            )
    if items[seat] is None:
        raise ScenarioError(f"hands[{seat}] must list the ranks seat {seat} (to move) holds")
    where = f"hands[{seat}]"
    hand = ranks_to_counts(ranks_field(list_field(items[seat], where), what=where))
    if not 1 <= sum(hand) <= CARDS_PER_DEAL:
        raise ScenarioError(
            f"{where}: the seat to move holds 1 to {CARDS_PER_DEAL} cards, got {sum(hand)}"
        )
    return hand


def _deal_and_turn(
    obj: dict[str, Any], seat: int, size: int, played: int, c: _Common
) -> tuple[int, int]:
    """The deal (0-based) and turn of the position, from the hand size and the cards played
    (captured or on the table, R3.1: a data starts with an empty table)."""
    n = c.players
    deals = deals_per_data(n)
    turn = (CARDS_PER_DEAL - size) * n + (seat - c.leader) % n
    per_deal = CARDS_PER_DEAL * n
    if "deal" in obj:
        deal = int_field(obj, "deal", 1) - 1
        if not 0 <= deal < deals:
            raise ScenarioError(f"deal must be 1..{deals} with {n} players (R2.2), got {deal + 1}")
        if deal * per_deal + turn != played:
            raise ScenarioError(
                f"cards and table: at turn {turn + 1} of deal {deal + 1} (seat {seat} to move "
                f"holding {size}, the leader seat {c.leader}) {deal * per_deal + turn} cards "
                f"have been played in the data, but cards and table hold {played}"
            )
        return deal, turn
    deal, rest = divmod(played - turn, per_deal)
    if rest or not 0 <= deal < deals:
        raise ScenarioError(
            f"hands[{seat}] holds {size} cards: with seat {seat} to move (the leader seat "
            f"{c.leader}, R3.3) it is turn {turn + 1} of a deal, so the cards played (captured "
            f"and on the table, {played}) must be that plus a multiple of {per_deal}; give the "
            "hand, cards and table of one position"
        )
    return deal, turn


def _known(value: object, p: AdvicePosition) -> list[list[int]]:
    """Per seat, the counts of its announced ronda cards it still holds (``known``)."""
    n, seat = p.players, p.seat
    sizes = p.hand_sizes
    known = [[0] * 10 for _ in range(n)]
    known[seat] = [p.hand[q] if q in p.rondas[seat] else 0 for q in range(10)]
    own_played = p.plays_made(seat)
    for r in p.rondas[seat]:
        if p.hand[r] + own_played < 3:
            raise ScenarioError(
                f"rondas[{seat}] names {RANK_NAMES[r]}, but seat {seat} holds {p.hand[r]} and "
                f"has played {own_played} card(s) of this deal: it cannot have been dealt three "
                "(R4.1)"
            )
    for q in range(10):
        if p.hand[q] >= 3 and q not in p.rondas[seat]:
            raise ScenarioError(
                f"hands[{seat}] holds {p.hand[q]} {RANK_NAMES[q]}: seat {seat} was dealt a ronda "
                f"of it in this deal (R4.1; every card held was dealt in this deal); list it "
                f"in rondas[{seat}]"
            )
    given = None if value is None else list_field(value, "known")
    if given is not None and len(given) != n:
        raise ScenarioError(f"known must list {n} entries (one per seat), got {len(given)}")
    for o in range(n):
        if o == seat:
            if given is not None and given[o] is not None:
                raise ScenarioError(
                    f"known[{seat}] must be null: seat {seat}'s own hand is in hands[{seat}]"
                )
            continue
        made = p.plays_made(o)
        item = None if given is None else given[o]
        alone = p.last_deal and all(sizes[s] == 0 for s in range(n) if s not in (seat, o))
        if item is None and (alone or sizes[o] == 0):
            # No stock and no other hidden hand: seat o holds every unseen card (or none).
            counts = [p.unseen[q] if q in p.rondas[o] and sizes[o] else 0 for q in range(10)]
        elif item is None:
            if p.rondas[o] and made > 0:
                raise ScenarioError(
                    f"known[{o}] is needed: seat {o} announced a ronda of "
                    f"{', '.join(RANK_NAMES[r] for r in p.rondas[o])} (rondas[{o}]) and has "
                    f"played {made} card(s) in this deal; give known, per seat, the cards of "
                    "its ronda it still holds (null for seats without one)"
                )
            counts = [3 if q in p.rondas[o] else 0 for q in range(10)]
        else:
            where = f"known[{o}]"
            counts = ranks_to_counts(ranks_field(list_field(item, where), what=where))
        for q in range(10):
            if counts[q] and q not in p.rondas[o]:
                raise ScenarioError(
                    f"known[{o}] lists {RANK_NAMES[q]}, which is not a ronda of seat {o} "
                    f"(rondas[{o}]): known holds announced ronda cards only (R4)"
                )
            if q in p.rondas[o] and counts[q] < 3 - made:
                raise ScenarioError(
                    f"known[{o}] holds {counts[q]} {RANK_NAMES[q]}: seat {o} was dealt at least "
                    f"three (its ronda, R4.1) and has played {made} card(s) since"
                )
        if sum(counts) > sizes[o]:
            raise ScenarioError(
                f"known[{o}] lists {sum(counts)} cards, but seat {o} holds {sizes[o]} now"
            )
        known[o] = counts
    for q in range(10):
        held = sum(known[o][q] for o in range(n) if o != seat)
        if held > p.unseen[q]:
            raise ScenarioError(
                f"unseen holds {p.unseen[q]} {RANK_NAMES[q]}, but the rondas announced "
                f"(rondas, known) put {held} in other hands (R4.1)"
            )
    return known


def _pseudo_hand(known: list[int], size: int, rondas: list[int]) -> list[int]:
    """Counts of ``size`` cards holding ``known`` of the ronda ranks (the rest on a rank that
    is not one): what :func:`.scenario_fields.claims_field` reads of a hidden hand."""
    filler = next(q for q in range(10) if q not in rondas)
    counts = list(known)
    counts[filler] += size - sum(known)
    return counts
