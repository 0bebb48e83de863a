"""notebooks/02_ronda_caida_odds.ipynb executes top to bottom."""


def test_odds_notebook_executes(run_notebook) -> None:
    book = run_notebook("02_ronda_caida_odds.ipynb")
    text = "".join(
        o.get("text", "") for c in book.cells if c.cell_type == "code" for o in c.outputs
    )
    assert "exact values inside their 95% interval" in text
