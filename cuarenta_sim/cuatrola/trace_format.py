"""The trace row format both Cuatrola engines emit (``docs/cuatrola_contract.md`` section 6).

One int64 row per step of a hand; the differential tests compare the reference engine's rows
with the numba kernel's, column for column.
"""

#: Trace column names, in order.
TRACE_COLUMNS: tuple[str, ...] = (
    "kind",
    "hand",
    "seat",
    "card",
    "value",
    "pts0",
    "pts1",
    "score0",
    "score1",
)
N_TRACE = len(TRACE_COLUMNS)
#: Row kinds (column ``kind``).
KIND_DEAL = 1
KIND_BID = 2
KIND_PLAY = 3
KIND_TRICK = 4
KIND_CANTE = 5
KIND_END = 6
#: Most rows one hand can emit: deal, 4 bids, 20 plays, 5 tricks, 3 cantes, end.
MAX_TRACE_PER_HAND = 1 + 4 + 20 + 5 + 3 + 1
