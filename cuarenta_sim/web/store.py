"""SQLite storage of the web app's games (stdlib ``sqlite3``): they survive a restart.

One table ``games``: per game its id, settings (JSON), the core's JSON form of the state
(:func:`cuarenta_sim.core.to_json`: setup and history, from which the state is rebuilt), the
game record so far (``docs/game_record.md``; complete once the game is over), its status and,
once computed, its review (JSON). Each call opens its own connection, so the store can be
used from the server's worker threads.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL,
    state TEXT NOT NULL,
    record TEXT NOT NULL,
    status TEXT NOT NULL,
    review TEXT
)
"""


def default_db_path() -> Path:
    """The default database file: ``$XDG_DATA_HOME/cuarenta-sim/games.sqlite`` (or
    ``~/.local/share/...``) when that folder can be created, else ``./cuarenta-sim.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "cuarenta-sim"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path("cuarenta-sim.sqlite")
    return folder / "games.sqlite"


@dataclass(frozen=True)
class StoredGame:
    """One row of the store.

    Attributes
    ----------
    id : str
    created, updated : float
        Unix times.
    settings : dict
        ``rules`` (slug), ``bot`` (canonical policy spec), ``human`` (seat), ``episode``.
    state : str
        The core's JSON form of the state.
    record : dict
        The game record so far.
    status : str
        ``"playing"`` or ``"over"``.
    review : dict or None
        The review, once computed.
    """

    id: str
    created: float
    updated: float
    settings: dict[str, Any]
    state: str
    record: dict[str, Any]
    status: str
    review: dict[str, Any] | None


class GameStore:
    """The games of one database file (created with its table if missing).

    Parameters
    ----------
    path : str or Path
        The SQLite file.

    Raises
    ------
    ValueError
        The file cannot be opened as a SQLite database (the message names it).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            with self._connect() as con:
                con.execute(_SCHEMA)
        except sqlite3.Error as err:
            raise ValueError(f"cannot open the game database {str(self.path)!r}: {err}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction (committed on success), closed afterwards."""
        con = sqlite3.connect(self.path, timeout=10)
        try:
            with con:
                yield con
        finally:
            con.close()

    def save(
        self,
        game_id: str,
        settings: dict[str, Any],
        state: str,
        record: dict[str, Any],
        status: str,
    ) -> None:
        """Insert or update a game (its review, if any, is kept)."""
        now = time.time()
        with self._connect() as con:
            con.execute(
                "INSERT INTO games (id, created, updated, settings, state, record, status) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET updated = "
                "excluded.updated, state = excluded.state, record = excluded.record, "
                "status = excluded.status",
                (game_id, now, now, json.dumps(settings), state, json.dumps(record), status),
            )

    def save_review(self, game_id: str, review: dict[str, Any]) -> None:
        """Keep the review of a finished game."""
        with self._connect() as con:
            con.execute("UPDATE games SET review = ? WHERE id = ?", (json.dumps(review), game_id))

    def load(self, game_id: str) -> StoredGame | None:
        """The game ``game_id``, or None."""
        with self._connect() as con:
            row = con.execute(
                "SELECT id, created, updated, settings, state, record, status, review "
                "FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            return None
        return StoredGame(
            row[0],
            row[1],
            row[2],
            json.loads(row[3]),
            row[4],
            json.loads(row[5]),
            row[6],
            None if row[7] is None else json.loads(row[7]),
        )

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        """The ``limit`` most recently changed games: id, updated, settings, status."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT id, updated, settings, status FROM games ORDER BY updated DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            {"id": r[0], "updated": r[1], "settings": json.loads(r[2]), "status": r[3]}
            for r in rows
        ]


__all__ = ["GameStore", "StoredGame", "default_db_path"]
