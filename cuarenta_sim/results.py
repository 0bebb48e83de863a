"""Results of a simulation: tidy frames plus provenance, and their Parquet form.

:class:`Results` is what :func:`cuarenta_sim.simulate` returns for either game. The frames wrap
the engine's output arrays without copying them; the provenance dict (with its ``game``) says
how to reproduce every number (design.md "Randomness and reproducibility"). The columns
documented below are Cuarenta's (built by :mod:`cuarenta_sim.cuarenta.records`); Cuatrola's are
documented in :mod:`cuarenta_sim.cuatrola.simulation`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .io import atomic_path

#: Key of the provenance JSON in the Parquet schema metadata.
PROVENANCE_KEY = b"cuarenta_sim.provenance"


@dataclass
class Results:
    """Per-hand and per-game records of one simulation, with provenance (both games).

    Attributes
    ----------
    hands : pandas.DataFrame or None
        One row per data (hand), in game order then data order (contract section 8); None when
        the simulation ran with ``keep_hands=False``. Columns (side ``k`` in {0, 1}, seat
        ``s``: side ``s % 2``, R2.1):

        - ``game`` (int64, levels chica / mesa): the chica or mesa index;
        - ``chica`` (int16, level mesa): chica number inside the mesa, from 0;
        - ``hand``: at level data the hand index (int64); otherwise the data's position in its
          game, from 0 (int16);
        - ``dealer`` (int8): dealer seat (R3);
        - ``cards_k`` (int8): the side's pile after the leftovers (R8.1), or at the moment the
          chica ended;
        - ``rondas_k``, ``doble_rondas_k`` (int8): announcements of three / four of a rank
          dealt to the side's seats, scored or blocked (R4);
        - ``caidas_k``, ``caidas_en_ronda_k``, ``limpias_k`` (int8): events, scored or
          blocked (R6, R6.4, R7); ``caidas_limpias_k`` (int8): plays that were both a caida
          and a limpia (the plays R7.2 scores differently in Quito and Cuenca);
        - ``points_k`` (int16): points credited to the side in the data, claims included;
        - by source (int16): ``ronda_points_k`` (R4), ``caida_points_k`` (R6, claims
          included), ``limpia_points_k`` (R7), ``carton_points_k`` (R8.2), ``other_points_k``
          (R8.3, R8.4 and the falla points received, R8.5); they add up to ``points_k``;
        - ``plays`` (int8): turns played; ``leftover`` (int8): cards on the table at the end,
          before the leftovers go anywhere; ``last_capturer`` (int8): side, -1 if none;
        - ``score_0``, ``score_1`` (int16, levels chica / mesa): scores after the data;
          ``ended`` (bool): the chica ended in this data (R9.2).

        All counts are small non-negative integers and points are even (R1.4).
    games : pandas.DataFrame or None
        Levels chica and mesa, one row per game in index order; None at level data. Columns:
        ``game`` (int64), ``first_dealer`` (int8, R3.4), ``winner`` (int8: side, -1 when
        truncated), ``score_0``, ``score_1`` (int16: final scores, at level mesa of the last
        chica), ``hands`` (int16: datas played), ``zapateria`` (bool: at level chica the loser
        had fewer than ``zapateria_below`` points; at level mesa the mesa ended by a first-chica
        zapateria, R9.3), ``decided_at_38`` (bool: the winner's score was ``target - 2`` at
        the start of its winning step), ``win_kind`` (int8: the winning step, 1 announcement,
        2 play, 3 claims, 4 end of data; 0 when truncated), ``truncated`` (bool: stopped after
        10,000 datas); at level mesa also ``chicas_0``, ``chicas_1`` (int16: chicas won).
    provenance : dict
        JSON-serialisable description of the run: ``game``, ``package_version``,
        ``engine_version`` (the game's), ``numba``, ``numpy``, ``pandas``, ``pyarrow``
        versions, ``seed`` (the seed used, drawn from OS entropy when ``simulate`` got
        ``seed=None``), ``root``, ``rules`` (slug), ``rules_switches``, ``policies`` (name per
        seat; Cuatrola also ``bid_policies``), ``players``, ``level``, ``n``, ``threads``,
        ``chunk_size``, ``keep_hands``, ``hands_played`` (hand records: datas in Cuarenta),
        ``wall_time_s``, ``hands_per_s``, at game levels ``games_per_s`` and ``truncated``
        (games cut short), ``created`` (UTC, ISO 8601); Dask and aggregate runs add
        ``backend``, ``output``, ``records``, ``chunks``, ``chunks_computed``,
        ``chunks_reused``, ``games_computed``, ``hands_computed``, ``dataset``, ``workers``.
    """

    hands: pd.DataFrame | None
    games: pd.DataFrame | None
    provenance: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ Parquet
    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Write the results to Parquet, atomically.

        ``path`` receives the hands table (no columns when ``hands`` is None) and, at levels
        chica and mesa, :func:`games_path` of it the games table. Each file is written to a
        temporary file in the same directory and moved into place with :func:`os.replace`; the
        provenance is stored as JSON in both schemas' metadata (key
        :data:`PROVENANCE_KEY`).

        Parameters
        ----------
        path : str or path-like
            Destination file, conventionally ``*.parquet``.

        Raises
        ------
        OSError
            When the directory is not writable.
        """
        path = Path(path)
        meta = json.dumps(self.provenance, sort_keys=True)
        hands = self.hands if self.hands is not None else pd.DataFrame()
        # Games first: the hands file is the one readers open, and from_parquet checks that
        # both carry the same provenance, so a run interrupted between the two writes is
        # never read as complete.
        if self.games is not None:
            write_parquet_atomic(self.games, games_path(path), meta)
        write_parquet_atomic(hands, path, meta)

    @classmethod
    def from_parquet(cls, path: str | os.PathLike[str]) -> Results:
        """Read results written by :meth:`to_parquet` (same columns, dtypes and provenance).

        Raises
        ------
        ValueError
            When the file carries no cuarenta_sim provenance, or (levels chica and mesa) the
            games file beside it is missing or was written by another run.
        """
        path = Path(path)
        table = pq.read_table(path)
        raw = (table.schema.metadata or {}).get(PROVENANCE_KEY)
        if raw is None:
            raise ValueError(f"{path} is not a cuarenta_sim results file (no provenance)")
        provenance = json.loads(raw)
        hands = table.to_pandas() if provenance.get("keep_hands", True) else None
        games = None
        gpath = games_path(path)
        if provenance.get("level", "data") not in ("data", "hand"):
            games_table = pq.read_table(gpath) if gpath.exists() else None
            if games_table is None or (games_table.schema.metadata or {}).get(
                PROVENANCE_KEY
            ) != raw:
                raise ValueError(
                    f"{gpath} is missing or belongs to another run than {path}: the results "
                    f"are incomplete; simulate again"
                )
            games = games_table.to_pandas()
        return cls(hands=hands, games=games, provenance=provenance)

    @classmethod
    def from_dataset(cls, directory: str | os.PathLike[str]) -> Results:
        """Read an ``aggregate(..., dataset=DIR, records=True)`` directory; see
        :func:`read_dataset`."""
        return read_dataset(directory)


def read_dataset(directory: str | os.PathLike[str]) -> Results:
    """Read the per-hand records an ``aggregate(..., dataset=DIR, records=True)`` run wrote.

    Parameters
    ----------
    directory : str or path-like
        The run's ``dataset`` directory (``manifest.json`` and one ``part-*.hands.parquet``
        / ``part-*.games.parquet`` per chunk).

    Returns
    -------
    Results
        The same frames (columns, dtypes, values, order) as ``simulate`` with
        ``output="frames"`` and the same settings; ``provenance`` is the run's identity from
        the manifest plus ``dataset``.

    Raises
    ------
    ValueError
        If the directory holds no dataset manifest, was run without records
        (``aggregate()`` without ``records=True``), or is incomplete (a chunk's marker or
        files are missing: run the same ``aggregate`` call again to finish it).
    """
    from .distributed import MANIFEST, ChunkStore, chunk_ranges

    root = Path(directory)
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        identity = manifest["identity"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{root} holds no cuarenta_sim dataset manifest ({err})") from err
    if not identity.get("records"):
        raise ValueError(
            f"{root} holds counters only (aggregate() without records=True), no records"
        )
    from .game import DEFAULT_GAME, get_game

    hand_level = get_game(identity.get("game", DEFAULT_GAME)).levels[0]
    store = ChunkStore(root, identity)
    hands, games = [], []
    for start, stop in chunk_ranges(int(identity["n"]), int(identity["chunk_size"])):
        if store.load(start, stop) is None:
            raise ValueError(
                f"{root} is incomplete: chunk [{start}, {stop}) is missing; run the same "
                f"aggregate call again to finish it"
            )
        if identity.get("keep_hands", True):
            hands.append(pq.read_table(store.path(start, stop, "hands.parquet")))
        if identity["level"] != hand_level:
            games.append(pq.read_table(store.path(start, stop, "games.parquet")))

    def frame(tables: list[pa.Table]) -> pd.DataFrame | None:
        if not tables:
            return None
        table = pa.concat_tables(tables).replace_schema_metadata(None)
        return table.to_pandas()

    provenance = {**identity, "dataset": str(root.resolve())}
    return Results(hands=frame(hands), games=frame(games), provenance=provenance)


def games_path(path: str | os.PathLike[str]) -> Path:
    """Return the games file written beside ``path``: ``name.parquet`` -> ``name.games.parquet``."""
    path = Path(path)
    return path.with_name(f"{path.stem}.games{path.suffix or '.parquet'}")


def write_parquet_atomic(frame: pd.DataFrame, path: str | os.PathLike[str], meta: str) -> None:
    """Write ``frame`` to Parquet atomically (:func:`cuarenta_sim.io.atomic_path`), with the
    JSON string ``meta`` in the schema metadata under :data:`PROVENANCE_KEY`."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), PROVENANCE_KEY: meta})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)
