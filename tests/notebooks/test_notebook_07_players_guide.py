"""notebooks/07_players_guide.ipynb executes top to bottom."""


def test_players_guide_notebook_executes(run_notebook) -> None:
    book = run_notebook("07_players_guide.ipynb")
    images = [
        o
        for c in book.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
    assert len(images) >= 3  # win probability grid, trail value, convergence
