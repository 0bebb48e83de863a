"""What the notebook tests read from an executed notebook."""

from __future__ import annotations

from typing import Any


def png_outputs(book: Any) -> list[Any]:
    """The outputs of ``book``'s code cells that hold a PNG image (a drawn figure), in order.

    Parameters
    ----------
    book : nbformat.NotebookNode
        An executed notebook (the ``run_notebook`` fixture's result).

    Returns
    -------
    list
        The image outputs.
    """
    return [
        o
        for c in book.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
