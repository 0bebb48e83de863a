"""The committed notebooks: numbered, outputs stripped, no engine logic, one test each."""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
EXPECTED = [
    "01_quito_vs_cuenca.ipynb",
    "02_ronda_caida_odds.ipynb",
    "03_rule_sensitivity.ipynb",
    "04_strategies.ipynb",
    "05_cuatrola_bidding.ipynb",
    "06_rl_batched.ipynb",
    "07_players_guide.ipynb",
]


def test_the_numbered_notebooks_exist() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_outputs_are_stripped(name: str) -> None:
    book = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    for cell in book["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, cell["source"]


@pytest.mark.parametrize("name", EXPECTED)
def test_no_engine_logic_in_notebooks(name: str) -> None:
    """Notebooks import from the package and hold no game or kernel code of their own."""
    book = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in book["cells"] if c["cell_type"] == "code")
    assert "from cuarenta_sim import" in code
    assert not re.search(r"^\s*(def|class)\s", code, re.MULTILINE)
    assert "numba" not in code and "cuarenta_sim.cuarenta.engine" not in code
    assert "cuarenta_sim.cuarenta.reference" not in code


@pytest.mark.parametrize("name", EXPECTED)
def test_each_notebook_has_its_own_test(name: str) -> None:
    stem = Path(name).stem
    assert (Path(__file__).parent / f"test_notebook_{stem}.py").is_file()
