"""notebooks/03_rule_sensitivity.ipynb executes top to bottom."""


def test_sensitivity_notebook_executes(run_notebook) -> None:
    book = run_notebook("03_rule_sensitivity.ipynb")
    images = [
        o
        for c in book.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
    assert len(images) >= 2  # the tornado charts were drawn
