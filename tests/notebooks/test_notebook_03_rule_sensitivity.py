"""notebooks/03_rule_sensitivity.ipynb executes top to bottom."""

from nbkit import png_outputs


def test_sensitivity_notebook_executes(run_notebook) -> None:
    book = run_notebook("03_rule_sensitivity.ipynb")
    images = png_outputs(book)
    assert len(images) >= 2  # the tornado charts were drawn
