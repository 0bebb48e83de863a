"""Array layout of the Cuatrola kernel: record rows, game rows, scratch offsets.

Records are column blocks (one column per hand): ``rec8`` int8 (:data:`REC8_COLUMNS`),
``rec16`` int16 (:data:`REC16_COLUMNS`), ``rec32`` int32 (:data:`REC32_COLUMNS`), ``rec64``
int64 (one row: the game index, or the hand index at level hand). Games: ``game8`` int8
(:data:`GAME8_COLUMNS`) and ``game16`` int16 (:data:`GAME16_COLUMNS`).
"""

from __future__ import annotations

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
W_GP = 1  # game points of the last hand, 2 slots
W_LAST = 3  # winner of the last trick of the last hand
W_HANDS = 4  # 4 hand masks
W_TRICK = 8  # up to 4 cards of the current trick
W_SEATS = 12  # their seats (always W_TRICK + 4)
# Lookahead (pimc) scratch, used only when a seat plays pimc:
W_EXCL = 16  # 4 masks: cards each seat is known not to hold
W_PLAYED = 20  # mask of the cards played in the hand
W_NPLAYED = 21  # 4 counts: cards played by each seat
W_SIM_H = 25  # 4 hand masks of a play-out
W_SIM_T = 29  # trick of a play-out: 4 cards then 4 seats
W_SAMPLE_H = 37  # 4 hand masks of a sampled deal
W_UNSEEN = 41  # up to 20 unseen cards, ascending
W_ORDER = 61  # up to 20: the unseen cards in sampling order
W_NEED = 81  # 4 counts: cards to deal to each seat
W_LEFT = 85  # 4 counts: still to deal in the current attempt
W_SUM = 89  # up to 5 totals, one per legal card
N_WORK = 94
#: uint64 words of rng scratch: 4 policy streams (one per seat), 1 for deck / game, then 4
#: lookahead streams (one per seat).
N_RNG = 36
W_RNG_SEARCH = 20
#: Most hands of one game (a game that has not ended is then truncated).
MAX_HANDS = 200
