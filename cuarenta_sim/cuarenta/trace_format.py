"""The trace row format both engines emit (``docs/engine_contract.md`` section 7).

One row per step of a data, chica or mesa, as int64: the differential tests compare the
reference engine's rows with the numba kernel's, column for column.
"""

#: Trace column names, in order (contract section 7).
TRACE_COLUMNS: tuple[str, ...] = (
    "kind",
    "data",
    "deal",
    "seat",
    "rank",
    "base",
    "run",
    "caida",
    "limpia",
    "flag",
    "pts0",
    "pts1",
    "claim0",
    "claim1",
    "score0",
    "score1",
    "cards",
)
#: Row kinds (column ``kind``).
KIND_ANNOUNCE = 1
KIND_PLAY = 2
KIND_CLAIMS = 3
KIND_END = 4
