"""Issue 19: ``stats.py`` and ``cuarenta/compare.py`` split by job, public names unchanged.

Every public name of a part is importable, as the same object, from the module it was split
from; each part stays under the 700-line limit; and a report's code hash covers the parts
(:func:`cuarenta_sim.studies.codehash.split_parts`), so a report stays tied to the code that
built its numbers.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import cuarenta_sim
from cuarenta_sim.studies.codehash import split_parts, study_code_files

PARTS = {
    "cuarenta_sim.stats": ("stats_estimates", "stats_paired", "stats_frames"),
    "cuarenta_sim.cuarenta.compare": ("compare_paired", "compare_metrics"),
}


def _public(module: object) -> list[str]:
    src = Path(module.__file__).read_text(encoding="utf-8")  # type: ignore[attr-defined]
    return [
        n
        for n, v in vars(module).items()
        if not n.startswith("_")
        and getattr(v, "__module__", module.__name__) == module.__name__  # type: ignore[attr-defined]
        and (f"def {n}(" in src or f"class {n}" in src or f"\n{n} =" in src or f"\n{n}:" in src)
    ]


@pytest.mark.parametrize("facade", sorted(PARTS))
def test_every_public_name_of_a_part_is_importable_from_the_facade(facade: str) -> None:
    api = importlib.import_module(facade)
    package = facade.rsplit(".", 1)[0]
    for part in PARTS[facade]:
        mod = importlib.import_module(f"{package}.{part}")
        names = _public(mod)
        assert names, part
        for name in names:
            assert getattr(api, name) is getattr(mod, name), f"{facade}.{name}"


@pytest.mark.parametrize("facade", sorted(PARTS))
def test_parts_are_hashed_with_the_module_they_were_split_from(facade: str) -> None:
    package = facade.rsplit(".", 1)[0]
    assert split_parts(facade) == sorted(f"{package}.{p}" for p in PARTS[facade])
    files = {p.name for p in study_code_files("cuarenta_sim.cuarenta.studies.sensitivity")}
    assert {f"{p}.py" for p in PARTS[facade]} <= files


def test_no_part_is_over_the_line_limit() -> None:
    root = Path(cuarenta_sim.__file__).parent
    for facade, parts in PARTS.items():
        folder = root.joinpath(*facade.split(".")[1:-1])
        for name in (facade.rsplit(".", 1)[1], *parts):
            lines = (folder / f"{name}.py").read_text(encoding="utf-8").count("\n")
            assert lines <= 700, (name, lines)
