"""``cuarenta-sim serve``: a local web app to play Cuarenta against the bots (``docs/web.md``).

Modules, one job each: :mod:`~cuarenta_sim.web.play` (a game on the server: the core's state,
the human's checked play, the bot's reply, hints, the game record), :mod:`~.store` (SQLite),
:mod:`~.messages` (the Spanish and English catalogue), :mod:`~.views` (words and card faces
of the pages), :mod:`~.app` (the FastAPI routes and their errors), :mod:`~.server` (uvicorn).
FastAPI and uvicorn come with the ``web`` extra; :func:`require_web` says how to get them.
"""

from __future__ import annotations

import importlib.util

#: What to run when the web extra is missing.
INSTALL_HINT = 'pip install -e ".[web]"'
#: The packages of the web extra that are imported.
WEB_MODULES = ("fastapi", "uvicorn")


def require_web() -> None:
    """Check that the web extra is installed.

    Raises
    ------
    ValueError
        A package of the extra is missing: one line naming it and :data:`INSTALL_HINT`.
    """
    for name in WEB_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise ValueError(
                f"the web app needs {name!r}, which is not installed; install the web extra: "
                f"{INSTALL_HINT}"
            )


__all__ = ["INSTALL_HINT", "WEB_MODULES", "require_web"]
