"""notebooks/05_cuatrola_bidding.ipynb executes top to bottom."""

from nbkit import png_outputs


def test_cuatrola_bidding_notebook_executes(run_notebook) -> None:
    book = run_notebook("05_cuatrola_bidding.ipynb")
    images = png_outputs(book)
    assert len(images) >= 2  # P(make) by trumps and the gains by strength were drawn
    text = "".join(
        o.get("text", "") for c in book.cells if c.cell_type == "code" for o in c.outputs
    )
    assert "threshold(solo=" in text  # the derived thresholds were printed
