"""Typed state of the Cuatrola kernel: the parameters, the position of a hand, the outputs.

Every kernel takes a few of these instead of long argument lists:

* ``params``: one record of :data:`PARAMS_DTYPE` (:func:`kernel_params`), what a run reads and
  never writes: the rules' switches, the policy rows of the four seats, the stream root.
* ``state``: one record of :data:`STATE_DTYPE` (:func:`new_state`), the position of one hand
  (named int64 fields: dealer, mano, trump, contract, the trick being played, the running
  points...) and the scratch it is played in (``work``, int64 at the ``W_*`` offsets below:
  hands, the trick's cards, the lookahead's buffers; ``rng``, the seats' streams and the deck
  stream; ``deck``; ``rows``, the hand's trace rows); one per parallel block.
* ``trace``: the trace rows of a whole hand or game (``docs/cuatrola_contract.md`` section
  6; 0 rows, no trace) and the record blocks, plain arrays, written once per hand;
  :class:`KernelOutput` groups the blocks of a batch.

Records, not tuples of arrays: a numba record is passed as a pointer and its nested arrays
have no reference count, whereas every call that receives an array (alone or in a tuple)
increments and decrements its count: atomic operations that, once per card, tripled the time
of a hand. So the per-card steps receive only records.

Records are column blocks (one column per hand): ``rec8`` int8 (:data:`REC8_COLUMNS`),
``rec16`` int16 (:data:`REC16_COLUMNS`), ``rec32`` int32 (:data:`REC32_COLUMNS`), ``rec64``
int64 (one row: the game index, or the hand index at level hand). Games: ``game8`` int8
(:data:`GAME8_COLUMNS`) and ``game16`` int16 (:data:`GAME16_COLUMNS`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..rules import CuatrolaKernelRules
from ..trace_format import MAX_TRACE_PER_HAND, N_TRACE

LEVELS = ("hand", "game")
LEVEL_HAND = 0
LEVEL_GAME = 1

REC8_COLUMNS = (
    "dealer",
    "trump",
    "trump_card",
    "contract",
    "declarer",
    "made",
    "tricks_0",
    "tricks_1",
    "game_points_0",
    "game_points_1",
    "last_trick",
)
R8_DEALER, R8_TRUMP, R8_TRUMP_CARD, R8_CONTRACT, R8_DECLARER, R8_MADE = range(6)
R8_TRICKS, R8_GP, R8_LAST = 6, 8, 10
N_REC8 = len(REC8_COLUMNS)

REC16_COLUMNS = ("hand", "points_0", "points_1", "cantes_0", "cantes_1", "score_0", "score_1")
R16_HAND, R16_POINTS, R16_CANTES, R16_SCORE = 0, 1, 3, 5
N_REC16 = len(REC16_COLUMNS)

REC32_COLUMNS = ("dealt_0", "dealt_1", "dealt_2", "dealt_3")
N_REC32 = len(REC32_COLUMNS)

GAME8_COLUMNS = ("first_dealer", "winner", "truncated")
G8_FIRST_DEALER, G8_WINNER, G8_TRUNCATED = range(3)
N_GAME8 = len(GAME8_COLUMNS)
GAME16_COLUMNS = ("score_0", "score_1", "hands")
G16_SCORE, G16_HANDS = 0, 2
N_GAME16 = len(GAME16_COLUMNS)

# Scratch int64 work array.
W_TRACE_N = 0  # trace rows written
W_HANDS = 1  # 4 hand masks
W_TRICK = 5  # up to 4 cards of the current trick
W_SEATS = 9  # their seats (always W_TRICK + 4)
# Lookahead (pimc) scratch, used only when a seat plays pimc:
W_EXCL = 13  # 4 masks: cards each seat is known not to hold
W_PLAYED = 17  # mask of the cards played in the hand
W_NPLAYED = 18  # 4 counts: cards played by each seat
W_SIM_H = 22  # 4 hand masks of a play-out
W_SIM_T = 26  # trick of a play-out: 4 cards then 4 seats
W_SAMPLE_H = 34  # 4 hand masks of a sampled deal
W_UNSEEN = 38  # up to 20 unseen cards, ascending
W_ORDER = 58  # up to 20: the unseen cards in sampling order
W_NEED = 78  # 4 counts: cards to deal to each seat
W_LEFT = 82  # 4 counts: still to deal in the current attempt
W_SUM = 86  # up to 5 totals, one per legal card
N_WORK = 91
#: uint64 words of rng scratch: one 4-word stream per seat (``rng[4 * seat : 4 * seat + 4]``:
#: the policy stream ``STREAM_POLICY + seat`` of a ``random`` seat, the lookahead stream
#: ``STREAM_SEARCH + seat`` of a ``pimc`` seat), then the deck / game stream at
#: :data:`RNG_DECK`.
N_RNG = 20
RNG_DECK = 16
#: Most hands of one game (a game that has not ended is then truncated).
MAX_HANDS = 200


#: Fields of the position of a hand (all int64; pair ``k`` is seats ``k`` and ``k + 2``).
HAND_FIELDS = (
    ("game", "game index: the key of every random stream of the hand (contract section 2)"),
    ("hand", "hand index in its game (the trace's ``hand`` column)"),
    ("dealer", "dealer seat (C1.1)"),
    ("mano", "the seat after the dealer (C1.1)"),
    ("trump_card", "last card dealt, turned up (C1.4)"),
    ("trump", "its suit"),
    ("contract", "highest declaration so far: 0 none, 1 solo, 2 cuatrola, 3 quintola (C2)"),
    ("declarer", "its seat, -1 without contract"),
    ("out", "seat that sits out (the declarer's partner, C2.2), -1 without contract"),
    ("leader", "seat that leads the current trick; after the hand, the last trick's winner"),
    ("trick", "index of the trick being played, 0..4 (5 once the hand is over)"),
    ("n_trick", "cards already on the current trick"),
    ("total_0", "pair 0: card points of its tricks, last-trick 10 and cantes so far (C5.1)"),
    ("total_1", "pair 1: the same"),
    ("tricks_0", "tricks pair 0 took"),
    ("tricks_1", "tricks pair 1 took"),
    ("cantes_0", "cante points of pair 0 (C4)"),
    ("cantes_1", "cante points of pair 1"),
    ("sung", "bit mask of the suits sung (C4)"),
    ("score_0", "game score of pair 0 before the hand; after it once the hand is scored"),
    ("score_1", "game score of pair 1, the same"),
    ("search", "1 if a seat plays ``pimc`` (the lookahead's observations are kept)"),
    ("made", "after the hand: 1 contract made, 0 failed, -1 without contract (C5)"),
    ("gp_0", "after the hand: game points it gave pair 0 (C5)"),
    ("gp_1", "after the hand: game points it gave pair 1"),
    ("first_dealer", "dealer of the game's first hand (C6)"),
    ("winner", "after the game: the pair that reached the target, -1 if truncated (C6)"),
    ("hands_played", "after the game: hands played"),
    ("tracing", "1 if the kernel records trace rows"),
    ("n_rows", "trace rows of the current hand in ``rows``"),
)

#: The dtype of ``state``: the :data:`HAND_FIELDS` then the scratch arrays.
STATE_DTYPE = np.dtype(
    [(name, np.int64) for name, _ in HAND_FIELDS]
    + [
        ("dealt", np.int64, (4,)),  # the four hands as dealt (masks)
        ("work", np.int64, (N_WORK,)),
        ("rng", np.uint64, (N_RNG,)),
        ("deck", np.int64, (20,)),
        ("rows", np.int64, (MAX_TRACE_PER_HAND, N_TRACE)),  # the hand's trace rows
    ],
    align=True,
)

#: The dtype of ``params``: the fields of :class:`~cuarenta_sim.cuatrola.rules.
#: CuatrolaKernelRules` (0/1 switches and the target), the seats' play policy rows (id and
#: ``pimc`` samples, :func:`cuarenta_sim.cuatrola.policies.play_policy_array`), bidding policy
#: rows (id and three ints, :func:`cuarenta_sim.cuatrola.policies.bid_policy_array`) and the
#: root of the random streams (:func:`cuarenta_sim.rng.root_from_seed`).
PARAMS_DTYPE = np.dtype(
    [(name, np.int64) for name in CuatrolaKernelRules._fields]
    + [("play_pol", np.int64, (4, 2)), ("bid_pol", np.int64, (4, 4)), ("root", np.uint64)],
    align=True,
)


class KernelOutput(NamedTuple):
    """The blocks a batch fills (``out``); column layouts in the module docstring.

    Attributes
    ----------
    rec8, rec16, rec32, rec64 : ndarray
        Hand record blocks, shape (columns, slots); 0 slots: no records.
    game8, game16 : ndarray
        Game blocks, one column per game (level game).
    counts : ndarray of int64, shape (n,)
        Hands played per game (1 at level hand).
    """

    rec8: np.ndarray
    rec16: np.ndarray
    rec32: np.ndarray
    rec64: np.ndarray
    game8: np.ndarray
    game16: np.ndarray
    counts: np.ndarray


def kernel_params(
    rules: CuatrolaKernelRules, play_pol: np.ndarray, bid_pol: np.ndarray, root: int
) -> np.ndarray:
    """Return the ``params`` of a run: an array of one :data:`PARAMS_DTYPE` row (kernels read
    ``params[0]``).

    Parameters
    ----------
    rules : CuatrolaKernelRules
        :meth:`cuarenta_sim.cuatrola.rules.CuatrolaRules.to_kernel`.
    play_pol : ndarray of int64, shape (4, 2)
        Play policy rows.
    bid_pol : ndarray of int64, shape (4, 4)
        Bidding policy rows.
    root : int
        Root of the random streams (below 2**64).
    """
    params = np.zeros(1, dtype=PARAMS_DTYPE)
    for name, value in rules._asdict().items():
        params[name] = value
    params["play_pol"] = play_pol
    params["bid_pol"] = bid_pol
    params["root"] = np.uint64(root)
    return params


def empty_output(games: int = 0) -> KernelOutput:
    """Return a :class:`KernelOutput` without record slots and with ``games`` game columns
    and counts (a trace or a warm-up keeps no records)."""
    return KernelOutput(
        np.empty((N_REC8, 0), dtype=np.int8),
        np.empty((N_REC16, 0), dtype=np.int16),
        np.empty((N_REC32, 0), dtype=np.int32),
        np.empty((1, 0), dtype=np.int64),
        np.empty((N_GAME8, games), dtype=np.int8),
        np.empty((N_GAME16, games), dtype=np.int16),
        np.empty(games, dtype=np.int64),
    )
