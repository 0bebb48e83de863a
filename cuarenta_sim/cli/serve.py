"""``cuarenta-sim serve``: the local web app (play Cuarenta against the bots; ``docs/web.md``)."""

from __future__ import annotations

from typing import Annotated

from .options import _opt


def serve(
    host: Annotated[
        str, _opt("--host", "Address to bind (default 127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, _opt("--port", "TCP port (1..65535).")] = 8000,
    db: Annotated[
        str | None,
        _opt(
            "--db",
            "SQLite file of the games (default: games.sqlite in the user's data folder, "
            "else ./cuarenta-sim.sqlite).",
        ),
    ] = None,
) -> None:
    """Serve the web app until Ctrl-C.

    Parameters
    ----------
    host : str
        Address to bind.
    port : int
        TCP port.
    db : str, optional
        SQLite file of the games.

    Raises
    ------
    ValueError
        The web extra is not installed (``pip install -e ".[web]"``) or a bad option: exit
        status 2.
    """
    from ..web.server import serve as run

    run(host, port, db)


COMMANDS = [
    (
        "serve",
        serve,
        "Serve the local web app: play Cuarenta against the bots (learned, solver, "
        "heuristic...), with hints and a review of every finished game (needs the web extra).",
    )
]
