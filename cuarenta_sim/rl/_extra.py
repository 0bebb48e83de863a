"""Import the optional RL packages with an error that says which extra installs them."""

from __future__ import annotations

import importlib
from types import ModuleType

#: What to run when an RL package is missing.
INSTALL_HINT = "install the rl extra: pip install -e '.[rl]'"


def require(module: str) -> ModuleType:
    """Import ``module`` (``pettingzoo``, ``gymnasium``, ``pyspiel``...) or say how to get it.

    Parameters
    ----------
    module : str
        The module name.

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    ModuleNotFoundError
        When it is not installed; the message names the module and :data:`INSTALL_HINT`.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(
            f"cuarenta_sim.rl needs {module!r}, which is not installed; {INSTALL_HINT}",
            name=module,
        ) from err
