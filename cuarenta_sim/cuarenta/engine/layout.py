"""Integer codes and array layouts shared by the kernels and their Python wrappers.

Everything here is a plain module-level int or tuple, frozen into the kernels at compile
time (they are constants of the engine, not rules; rules travel as
:class:`cuarenta_sim.cuarenta.rules.KernelRules`).

Record blocks
-------------
The kernels write one record per data into three column-major blocks (one row of a block is one
output column, so every column is a contiguous 1-D array that pandas can wrap without a copy):

* ``rec8``  int8,  shape ``(N_REC8, rows)``: :data:`REC8_COLUMNS`;
* ``rec16`` int16, shape ``(N_REC16_DATA or N_REC16_GAME, rows)``: :data:`REC16_COLUMNS`
  (the last four only at levels ``chica`` / ``mesa``);
* ``rec64`` int64, shape ``(1, rows)``: the game index (the hand index at level ``data``).

One record per game (levels ``chica`` / ``mesa``) goes to ``game8`` (int8,
:data:`GAME8_COLUMNS`) and ``game16`` (int16, :data:`GAME16_COLUMNS`), column ``g - game0``
for game ``g`` of a :func:`cuarenta_sim.cuarenta.engine.batch.run_batch` call.
"""

from __future__ import annotations

from ..policies.kernel import N_PARAMS
from ..rules import AT_38
from ..tables import SUM_PACKED
from ..trace_format import TRACE_COLUMNS as TRACE_COLUMNS  # re-exported

# ----------------------------------------------------------------------- levels
LEVEL_DATA = 0
LEVEL_CHICA = 1
LEVEL_MESA = 2
#: Level names accepted by the wrappers, index = level code.
LEVELS: tuple[str, ...] = ("data", "chica", "mesa")

#: A game (chica or mesa) stops after this many datas and is flagged truncated (contract 5).
MAX_DATAS = 10_000

#: Codes of the ``at_38`` switch in :class:`cuarenta_sim.cuarenta.rules.KernelRules` (R9.1).
AT38_NONE = AT_38.index("none")
AT38_CAIDA_OR_CARTON = AT_38.index("caida_or_carton")
AT38_ONLY_CAIDA = AT_38.index("only_caida")

# ----------------------------------------------------------------------- plays
#: Play kinds inside the kernel's legal-play buffer.
KIND_TRAIL = 0
KIND_MATCH = 1
KIND_SUM = 2

# ----------------------------------------------------------------------- flat scratch arrays
#: ``sums`` (int64): the sum tables of :mod:`cuarenta_sim.cuarenta.tables` end to end: ``SUM_START``
#: (11 entries) at :data:`SUMS_START`, ``SUM_PACKED`` at :data:`SUMS_PACKED`, ``SUM_SIZE`` at
#: :data:`SUMS_SIZE`; then, for every key of a table (:func:`.moves.sum_key`), at
#: :data:`SUMS_HELD` the bit mask of the sum bases (bit ``i`` = base ``i``) that the table holds
#: and that ``max_sum_cards`` allows, at :data:`SUMS_COUNT` the number of those bases per
#: played rank, packed 4 bits per rank, and at :data:`SUMS_LARGEST` per played rank (6 bits
#: each, ranks A..7) the index of the first of the largest of those bases, or
#: :data:`NO_SUM`; last, at :data:`SUMS_FIRST`, ``SUM_START[r]`` for ranks A..7 packed 6 bits
#: per rank. The array depends on ``max_sum_cards`` (R5.2); it is
#: one array because every array argument of a kernel costs an atomic reference-count update
#: per call.
N_SUM_BASES = len(SUM_PACKED)
SUMS_START = 0
SUMS_PACKED = 11
SUMS_SIZE = 11 + N_SUM_BASES
SUMS_HELD = 11 + 2 * N_SUM_BASES
#: A sum base of value <= 7 uses at most 4 aces, 3 twos, 2 threes and one 4, 5 or 6 (R5.2), so
#: the table's counts of ranks A..6 clipped to these caps (3 + 2 + 2 + 1 + 1 + 1 bits) decide
#: which bases it holds.
SUM_KEY_CAPS: tuple[int, ...] = (4, 3, 2, 1, 1, 1)
SUM_KEY_SHIFTS: tuple[int, ...] = (0, 3, 5, 7, 8, 9)
N_SUM_KEYS = 1 << 10
SUMS_COUNT = SUMS_HELD + N_SUM_KEYS
SUMS_LARGEST = SUMS_COUNT + N_SUM_KEYS
NO_SUM = 63
SUMS_FIRST = SUMS_LARGEST + N_SUM_KEYS
N_SUMS = SUMS_FIRST + 1

#: ``work`` (int64): all small per-thread scratch of the kernels, at these offsets.
W_SCORES = 0  # 2: side scores
W_PILES = 2  # 2: cards captured per side
W_HANDS = 4  # 4: packed hand per seat
W_RONDA = 8  # 4: ronda ranks of the deal per seat (bit 3 of the rank's 4-bit field)
W_POLICIES = 12  # 4: policy id per seat
W_TRACE_N = 16  # 1: trace rows written
W_ACC = 17  # N_ACC * 2: per-data tallies, tally i of side s at W_ACC + 2 * i + s
#: 4 * N_PARAMS: seat ``s``'s policy parameters at ``W_PARAMS + N_PARAMS * s``
#: (:mod:`cuarenta_sim.cuarenta.policies.kernel` ``P_*``).
W_PARAMS = 41
#: 4: per seat, the packed counts of its ronda rank it is known to hold (announced in this
#: deal, R4, minus the cards of that rank it has played since); kept when a seat's policy
#: reads observations (heuristic, pimc).
W_KNOWN = W_PARAMS + 4 * N_PARAMS
N_WORK = W_KNOWN + 4

#: ``rng`` (uint64, N_RNG): ``[0:4]`` deck and game streams; seat ``s``'s policy stream at
#: ``RNG_POLICY + 4 * s``, its search stream (pimc) at ``RNG_SEARCH + 4 * s``.
RNG_POLICY = 4
RNG_SEARCH = 20
N_RNG = 36

# ----------------------------------------------------------------------- trace (contract 7)
N_TRACE = 17
EV_ANNOUNCE = 1
EV_PLAY = 2
EV_CLAIMS = 3
EV_END = 4
#: Trace rows a data can emit at most: 2 players, 4 deals of (2 announcements + 10 plays +
#: claims) + the end row = 53; 4 players: 2 * (4 + 20 + 1) + 1 = 51.
MAX_TRACE_PER_DATA = 64

# ----------------------------------------------------------------------- per-data tallies
#: Rows of the ``acc`` scratch (int64, shape (N_ACC, 2): per side). The first six are event
#: counts written to ``rec8`` rows ``3 + 2 * i + side``; the last six are points written to
#: ``rec16`` rows ``2 * (i - 6) + side``.
ACC_RONDAS = 0
ACC_DOBLE_RONDAS = 1
ACC_CAIDAS = 2
ACC_CAIDAS_EN_RONDA = 3
ACC_LIMPIAS = 4
ACC_CAIDAS_LIMPIAS = 5
ACC_POINTS = 6
ACC_RONDA_POINTS = 7
ACC_CAIDA_POINTS = 8
ACC_LIMPIA_POINTS = 9
ACC_CARTON_POINTS = 10
ACC_OTHER_POINTS = 11
N_ACC = 12
N_ACC_COUNTS = 6

# ----------------------------------------------------------------------- record blocks
REC8_COLUMNS: tuple[str, ...] = (
    "dealer",
    "cards_0",
    "cards_1",
    "rondas_0",
    "rondas_1",
    "doble_rondas_0",
    "doble_rondas_1",
    "caidas_0",
    "caidas_1",
    "caidas_en_ronda_0",
    "caidas_en_ronda_1",
    "limpias_0",
    "limpias_1",
    "caidas_limpias_0",
    "caidas_limpias_1",
    "plays",
    "leftover",
    "last_capturer",
    "ended",
)
N_REC8 = 19
R8_DEALER = 0
R8_CARDS = 1
R8_COUNTS = 3
R8_PLAYS = 15
R8_LEFTOVER = 16
R8_LAST_CAPTURER = 17
R8_ENDED = 18

REC16_COLUMNS: tuple[str, ...] = (
    "points_0",
    "points_1",
    "ronda_points_0",
    "ronda_points_1",
    "caida_points_0",
    "caida_points_1",
    "limpia_points_0",
    "limpia_points_1",
    "carton_points_0",
    "carton_points_1",
    "other_points_0",
    "other_points_1",
    "score_0",
    "score_1",
    "hand",
    "chica",
)
N_REC16_DATA = 12
N_REC16_GAME = 16
R16_SCORE = 12
R16_HAND = 14
R16_CHICA = 15

GAME8_COLUMNS: tuple[str, ...] = (
    "first_dealer",
    "winner",
    "zapateria",
    "decided_at_38",
    "win_kind",
    "truncated",
    "mesa_zapateria",
)
N_GAME8 = 7
G8_FIRST_DEALER = 0
G8_WINNER = 1
G8_ZAPATERIA = 2
G8_AT_38 = 3
G8_WIN_KIND = 4
G8_TRUNCATED = 5
G8_MESA_ZAPATERIA = 6

GAME16_COLUMNS: tuple[str, ...] = ("score_0", "score_1", "hands", "chicas_0", "chicas_1")
N_GAME16 = 5
G16_SCORE = 0
G16_HANDS = 2
G16_CHICAS = 3
