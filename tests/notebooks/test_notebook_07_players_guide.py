"""notebooks/07_players_guide.ipynb executes top to bottom."""

from nbkit import png_outputs


def test_players_guide_notebook_executes(run_notebook) -> None:
    book = run_notebook("07_players_guide.ipynb")
    images = png_outputs(book)
    assert len(images) >= 3  # win probability grid, trail value, convergence
