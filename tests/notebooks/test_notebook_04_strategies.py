"""notebooks/04_strategies.ipynb executes top to bottom."""

from nbkit import png_outputs


def test_strategies_notebook_executes(run_notebook) -> None:
    book = run_notebook("04_strategies.ipynb")
    images = png_outputs(book)
    assert len(images) >= 2  # the ratings and the tactic effects were drawn
