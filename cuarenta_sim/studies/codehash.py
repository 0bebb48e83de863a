"""Which code built a report: the hash of its study and verdict code (issue 18 item 9).

``provenance.json`` of every report records ``code_hash``: a SHA-256 over the source files
that build that report's numbers and words, and ``code_files`` (their paths, package-relative,
sorted). A test reads each committed ``reports/*/provenance.json`` and fails when the recorded
hash differs from the current code's (:func:`stale_message`), so a report can never silently
describe code that changed. The engine itself is covered by ``engine_version``.

The files of a study (:func:`study_code_files`):

* the module of its builder and every module of the package it imports directly (parsed with
  :mod:`ast`, not imported: ``from . import x``, ``from .x import y``, ``from .. import z``),
  e.g. ``quito_vs_cuenca.py`` -> ``qc_sections.py``, ``common.py``, ``panel.py``, ``compare.py``;
* the parts of every such module that re-exports names (:func:`reexported`): a module split
  into parts, such as ``plotting`` (``plot_axes``, ``plot_grids``) or ``simulation``
  (``simulation_run``), counts with its parts;
* the shared verdict and report code, :data:`SHARED_MODULES` (``stats``, ``verdicts``,
  ``distributions``, ``reports``, ``studies/framework``, ``studies/claims`` (and
  ``claim_checks``),
  ``studies/templates``, ``studies/convergence``);
* every template (``*.md.j2``) of the builder's game package and of ``studies/templates``.

This module never imports a game: it reads files.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from collections.abc import Iterable
from pathlib import Path

#: Package root (``cuarenta_sim/``); paths in ``code_files`` are relative to its parent.
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PACKAGE = PACKAGE_ROOT.name

#: Shared modules every report's numbers and words depend on.
SHARED_MODULES = (
    f"{PACKAGE}.stats",
    f"{PACKAGE}.verdicts",
    f"{PACKAGE}.distributions",
    f"{PACKAGE}.reports",
    f"{PACKAGE}.studies.framework",
    f"{PACKAGE}.studies.claims",
    f"{PACKAGE}.studies.claim_checks",
    f"{PACKAGE}.studies.templates",
    f"{PACKAGE}.studies.convergence",
)


def module_file(module: str) -> Path | None:
    """Source file of a module of this package by dotted name (None if there is none).

    A package resolves to its ``__init__.py``. Nothing is imported.
    """
    if not (module == PACKAGE or module.startswith(PACKAGE + ".")):
        return None
    parts = module.split(".")[1:]
    base = PACKAGE_ROOT.joinpath(*parts)
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def direct_imports(module: str) -> list[str]:
    """Modules of this package that ``module`` imports directly (anywhere in its source).

    Parameters
    ----------
    module : str
        Dotted name inside the package (``cuarenta_sim.cuarenta.studies.quito_vs_cuenca``).

    Returns
    -------
    list of str
        Sorted dotted names that have a source file; ``from pkg import name`` counts
        ``pkg.name`` when that is a module and ``pkg`` otherwise.

    Raises
    ------
    FileNotFoundError
        If ``module`` has no source file in the package.
    """
    path = module_file(module)
    if path is None:
        raise FileNotFoundError(f"no source file for module {module!r} in {PACKAGE_ROOT}")
    is_pkg = path.name == "__init__.py"
    package = module if is_pkg else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_sources(node, package, node.names))
    return sorted(m for m in found if module_file(m) is not None and m != module)


def split_parts(module: str) -> list[str]:
    """The parts a module was split into: its direct imports named ``<module>_<job>``.

    A module over the size limit is split by job into siblings that share its name as a prefix
    (``stats`` -> ``stats_estimates``, ``stats_paired``, ``stats_frames``; ``compare`` ->
    ``compare_metrics``) and re-exports them; its parts build the same numbers, so they are
    hashed with it.

    Parameters
    ----------
    module : str
        Dotted name inside the package.

    Returns
    -------
    list of str
        Sorted dotted names; empty for a module without parts (or without a source file).
    """
    if module_file(module) is None:
        return []
    stem = module.rsplit(".", 1)[-1] + "_"
    return [d for d in direct_imports(module) if d.rsplit(".", 1)[-1].startswith(stem)]


def reexported(module: str) -> list[str]:
    """Modules of this package whose names ``module`` re-exports.

    The sources of ``module``'s module-level ``from ... import name`` statements for every
    ``name`` listed in its ``__all__`` (a literal list or tuple of strings). A module split
    into parts that keeps the public names importable (``plotting``, ``simulation``) so counts
    with its parts. Empty without ``__all__``, without a source file, and for a package: its
    ``__init__`` is the package's public face and counts alone, as before the split.
    """
    path = module_file(module)
    if path is None or path.name == "__init__.py":
        return []
    package = module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    public: set[str] = set()
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            public.update(
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            names = [a for a in node.names if (a.asname or a.name) in public]
            found.update(_sources(node, package, names))
    return sorted(m for m in found if module_file(m) is not None and m != module)


def _sources(node: ast.ImportFrom, package: str, names: Iterable[ast.alias]) -> set[str]:
    """Modules that ``from ... import names`` (in ``package``) reads: ``base.name`` when that
    is a module, else ``base``."""
    if node.level:
        base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
    else:
        base = node.module or ""
    return {
        f"{base}.{a.name}" if module_file(f"{base}.{a.name}") is not None else base for a in names
    }


def study_code_files(builder_module: str, extra: Iterable[str] = ()) -> list[Path]:
    """The source files whose hash :func:`code_hash` records for one study.

    Parameters
    ----------
    builder_module : str
        Module of the study's builder (``Study.build.__module__``).
    extra : iterable of str
        More modules (dotted names) to include.

    Returns
    -------
    list of Path
        Sorted, unique: the builder module, its direct imports within the package, the shared
        modules (:data:`SHARED_MODULES`), the parts of each (:func:`split_parts`), the parts
        these re-export (:func:`reexported`) and every ``*.md.j2`` template of the builder's
        game package and of ``studies/templates``.
    """
    modules = {builder_module, *direct_imports(builder_module), *SHARED_MODULES, *extra}
    modules |= {part for m in list(modules) for part in split_parts(m)}
    modules.update(part for m in list(modules) for part in reexported(m))
    files = {f for m in modules if (f := module_file(m)) is not None}
    game = builder_module.split(".")[1] if builder_module.count(".") >= 1 else ""
    for folder in (PACKAGE_ROOT / game / "templates", PACKAGE_ROOT / "studies" / "templates"):
        if folder.is_dir():
            files.update(folder.glob("*.md.j2"))
    return sorted(files)


def code_hash(files: Iterable[Path]) -> str:
    """SHA-256 (hex) over the files' package-relative paths and bytes, in sorted order.

    Raises
    ------
    OSError
        If a file cannot be read.
    """
    digest = hashlib.sha256()
    for path in sorted(Path(f) for f in files):
        digest.update(_relative(path).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def code_record(builder_module: str) -> dict[str, object]:
    """``{"code_hash": ..., "code_files": [...]}`` of a study, for ``provenance.json``."""
    files = study_code_files(builder_module)
    return {"code_hash": code_hash(files), "code_files": [_relative(f) for f in files]}


def stale_message(report: str, recorded: str | None, current: str, command: str | None) -> str:
    """Empty when the recorded hash is the current one; else what to run to regenerate."""
    if recorded == current:
        return ""
    how = command or f"cuarenta-sim report {report}"
    was = "records no code hash" if recorded is None else f"was generated by code {recorded[:12]}"
    return (
        f"reports/{report} {was}, the current study and verdict code is {current[:12]}: "
        f"regenerate it with `{how}` (run from the repository root; it writes reports/{report})"
    )


def _relative(path: Path) -> str:
    return Path(path).resolve().relative_to(PACKAGE_ROOT.parent).as_posix()
