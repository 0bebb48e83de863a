"""notebooks/04_strategies.ipynb executes top to bottom."""


def test_strategies_notebook_executes(run_notebook) -> None:
    book = run_notebook("04_strategies.ipynb")
    images = [
        o
        for c in book.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
    assert len(images) >= 2  # the ratings and the tactic effects were drawn
