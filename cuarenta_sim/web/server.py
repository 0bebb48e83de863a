"""Run the web app with uvicorn (``cuarenta-sim serve``)."""

from __future__ import annotations

from pathlib import Path

from . import require_web


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path | None = None) -> None:
    """Serve the web app until interrupted (Ctrl-C).

    Parameters
    ----------
    host : str
        Address to bind; 127.0.0.1 (this machine only) unless told otherwise.
    port : int
        TCP port, 1..65535.
    db : str or Path, optional
        The SQLite file of the games (default :func:`~cuarenta_sim.web.store.default_db_path`).

    Raises
    ------
    ValueError
        The web extra is missing (the message names ``pip install -e ".[web]"``), a port out
        of range, or a database that cannot be opened.
    """
    require_web()
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be 1..65535, got {port}")
    import uvicorn

    from .app import create_app
    from .store import default_db_path

    path = Path(db) if db is not None else default_db_path()
    app = create_app(path)
    print(f"cuarenta-sim web app on http://{host}:{port}/ (games in {path}); Ctrl-C stops it")
    uvicorn.run(app, host=host, port=port, log_level="warning")


__all__ = ["serve"]
