"""notebooks/01_quito_vs_cuenca.ipynb executes top to bottom."""


def test_quito_vs_cuenca_notebook_executes(run_notebook) -> None:
    book = run_notebook("01_quito_vs_cuenca.ipynb")
    text = "".join(
        o.get("text", "") for c in book.cells if c.cell_type == "code" for o in c.outputs
    )
    assert "Cuenca - Quito:" in text and "datas per chica" in text
