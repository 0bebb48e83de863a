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
W_SEATS = 12  # their seats
N_WORK = 16
#: uint64 words of rng scratch: 4 policy streams (one per seat) then 1 for deck / game.
N_RNG = 20
#: Most hands of one game (a game that has not ended is then truncated).
MAX_HANDS = 200
