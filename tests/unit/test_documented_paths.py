"""Every ``cuarenta_sim.*`` dotted name in the README, docs, reports and notebooks resolves.

A name resolves when it imports as a module, or when its longest importable prefix is a
module with the rest as attributes (``cuarenta_sim.cuarenta.summaries.summarize_hands``).
Stale names in prose (``cuarenta_sim.odds`` after the game subpackages were split out) fail
here, naming the file.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A dotted name: the package, then one or more identifiers (a final "." ends a sentence).
DOTTED = re.compile(r"(?<![\w./])cuarenta_sim(?:\.[A-Za-z_]\w*)+")


def documents() -> list[Path]:
    """The files whose prose names package paths."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    files += sorted((ROOT / "reports").glob("*/report.md"))
    files += sorted((ROOT / "notebooks").glob("*.ipynb"))
    return [f for f in files if f.is_file()]


def text_of(path: Path) -> str:
    """The text of a document; for a notebook, the sources of its cells."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells)
    return path.read_text(encoding="utf-8")


def named_paths() -> dict[str, list[str]]:
    """Dotted name -> the documents naming it (relative paths)."""
    found: dict[str, list[str]] = {}
    for path in documents():
        for name in sorted(set(DOTTED.findall(text_of(path)))):
            found.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    return found


def resolves(name: str) -> bool:
    """Whether ``name`` is an importable module or an attribute path of one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            # Only a missing module of this very path means "try a shorter prefix"; a module
            # that exists but fails to import is a real error.
            if err.name is not None and module_name.startswith(err.name):
                continue
            raise
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


NAMES = named_paths()


def test_the_documents_name_package_paths() -> None:
    # The scan itself works: the README and the reports name modules of the package.
    assert len(documents()) >= 10
    assert "cuarenta_sim.cuarenta.odds" in NAMES


def test_the_scan_catches_a_stale_name() -> None:
    assert DOTTED.findall("see `cuarenta_sim.odds.next_player_holds`.") == [
        "cuarenta_sim.odds.next_player_holds"
    ]
    assert not resolves("cuarenta_sim.odds")
    assert not resolves("cuarenta_sim.cuarenta.summaries.no_such_function")
    assert resolves("cuarenta_sim.cuarenta.summaries.summarize_hands")


@pytest.mark.parametrize("name", sorted(NAMES))
def test_documented_name_resolves(name: str) -> None:
    assert resolves(name), f"{name} does not import; named in {', '.join(NAMES[name])}"
