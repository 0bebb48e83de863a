"""The import graph of cuarenta_sim has no cycle, and the shared layer never imports a game.

Every module is parsed with :mod:`ast`; every ``import`` / ``from ... import`` of a
``cuarenta_sim`` module counts, at module level or inside a function (a function-level import
still ties the two modules together), except those under ``if TYPE_CHECKING:``. ``from pkg
import name`` is an edge to ``pkg.name`` when that is a module, else to ``pkg``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "cuarenta_sim"
#: Subpackages that are not part of the shared layer.
GAME_PACKAGES = ("cuarenta", "cuatrola")
#: Front ends (the command line, the RL adapters, the web app) may import a game; the rest is
#: the shared layer.
NOT_SHARED = (*GAME_PACKAGES, "cli", "rl", "web")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import node, skipping the bodies of ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the cuarenta_sim modules it imports."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                bases = [alias.name for alias in node.names]
                names: list[str] = []
            else:
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1])
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                bases = [base]
                names = [alias.name for alias in node.names]
            for base in bases:
                if not (base == "cuarenta_sim" or base.startswith("cuarenta_sim.")):
                    continue
                # "import a.b.c" binds a, but runs a.b.c: the edge is to the deepest module.
                while base not in modules and "." in base:
                    base = base.rpartition(".")[0]
                sub = [f"{base}.{n}" for n in names if f"{base}.{n}" in modules]
                targets.update(sub)
                if len(sub) < len(names) or not names:
                    targets.add(base)
        targets.discard(name)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_graph_walker_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    """The walker itself: a cycle through a function-level relative import is found, one
    under TYPE_CHECKING is not."""
    src = {
        "a.py": "from .b import f\n",
        "b.py": "def f():\n    from . import c\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n",
    }
    pkg = tmp_path / "cuarenta_sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in src.items():
        (pkg / name).write_text(text)
    global PACKAGE
    saved, PACKAGE = PACKAGE, pkg
    try:
        mods = all_modules()
        graph = edges(mods)
        assert graph["cuarenta_sim.a"] == {"cuarenta_sim.b"}
        assert graph["cuarenta_sim.b"] == {"cuarenta_sim.c"}
        assert find_cycle(graph) is None
        (pkg / "c.py").write_text("def g():\n    from cuarenta_sim.a import f\n")
        graph = edges(all_modules())
        assert find_cycle(graph) == [
            "cuarenta_sim.a", "cuarenta_sim.b", "cuarenta_sim.c", "cuarenta_sim.a"
        ]  # fmt: skip
    finally:
        PACKAGE = saved


def test_no_import_cycle() -> None:
    graph = edges(all_modules())
    assert len(graph) > 50
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def shared_modules() -> list[str]:
    return sorted(
        name
        for name in all_modules()
        if name == "cuarenta_sim" or (name.count(".") >= 1 and name.split(".")[1] not in NOT_SHARED)
    )


@pytest.mark.parametrize("module", shared_modules())
def test_shared_layer_imports_no_game(module: str) -> None:
    """Games are reached through the registry (cuarenta_sim.game.GAMES), never imported."""
    graph = edges(all_modules())
    games = sorted(
        t for t in graph[module] if t.split(".")[1:2] and t.split(".")[1] in GAME_PACKAGES
    )
    assert not games, f"{module} imports {', '.join(games)}"


def test_every_package_states_its_public_api() -> None:
    for path in sorted(PACKAGE.rglob("__init__.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree)
        assert doc and len(doc) > 40, f"{path.relative_to(PACKAGE.parent)} has no docstring"


@pytest.mark.parametrize("module", shared_modules())
def test_shared_layer_never_branches_on_a_game_name(module: str) -> None:
    """No ``if game == "cuatrola"`` above the games: what differs is read from the Game."""
    path = all_modules()[module]
    names = set(GAME_PACKAGES)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            consts = {p.value for p in parts if isinstance(p, ast.Constant)}
            for p in parts:
                if isinstance(p, ast.Tuple | ast.List | ast.Set):
                    consts |= {e.value for e in p.elts if isinstance(e, ast.Constant)}
            assert not consts & names, f"{module}:{node.lineno} compares with a game name"


def test_importing_the_package_loads_no_game() -> None:
    code = (
        "import sys, cuarenta_sim; "
        "print(sorted(m for m in sys.modules if m.split('.')[1:2] in (['cuarenta'], ['cuatrola'])))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
