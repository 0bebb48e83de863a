"""Execute the project's notebooks with nbclient, in a kernel of this very interpreter.

The kernel is described by a temporary kernelspec whose ``argv`` is ``sys.executable``, found
through ``JUPYTER_PATH``: a kernelspec installed elsewhere (whose ``python`` may be another
interpreter, without this package) is never used. Figures use the kernel's inline backend
(``MPLBACKEND`` is cleared), which renders with Agg and returns PNG outputs; no window opens.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
KERNEL = "cuarenta-sim-test"
#: A cell that runs longer than this (seconds) is taken as hung. Speed is not judged here (a
#: loaded machine runs the books several times slower): notebooks' run times are measured by
#: benchmarks, not by timed tests.
HANG_S = 900


@pytest.fixture
def run_notebook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], object]:
    """Return ``run(name) -> executed notebook`` for ``notebooks/<name>``.

    The run fails the test unless every code cell executed, in order, without an error
    output; a cell running longer than :data:`HANG_S` seconds fails it as hung.
    """
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "cuarenta_sim tests",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    work = tmp_path / "work"
    work.mkdir()

    def run(name: str) -> object:
        path = NOTEBOOKS / name
        book = nbformat.read(path, as_version=4)
        client = nbclient.NotebookClient(
            book, timeout=HANG_S, kernel_name=KERNEL, resources={"metadata": {"path": work}}
        )
        client.execute()
        cells = [c for c in book.cells if c.cell_type == "code"]
        assert cells, "notebook has no code cells"
        assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
        for c in cells:
            assert not any(o.output_type == "error" for o in c.outputs), c.source
        return book

    return run
