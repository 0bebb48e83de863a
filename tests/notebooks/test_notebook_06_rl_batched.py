"""notebooks/06_rl_batched.ipynb executes top to bottom at a small size."""

import pytest
from nbkit import png_outputs


def test_rl_batched_notebook_executes(run_notebook, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUARENTA_NB06_UPDATES", "12")
    monkeypatch.setenv("CUARENTA_NB06_ENVS", "128")
    book = run_notebook("06_rl_batched.ipynb")
    images = png_outputs(book)
    assert len(images) == 1  # the learning curve
    text = "".join(
        o.get("text", "") for c in book.cells if c.cell_type == "code" for o in c.outputs
    )
    assert "learned (argmax)" in text and "simulate greedy" in text
