"""The package's architecture, read from its source: layers, import direction, no cycles, sizes.

Every ``import`` counts, including those inside functions and under ``TYPE_CHECKING``: an
arrow the layering forbids is a design problem wherever it is written.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

CORE = ("catalogue", "tape", "rules", "tracker", "cthulhu", "simulation")
"""The pure core: the game, with no I/O of its own."""

LAYERS: dict[str, tuple[str, ...]] = {
    # layer: the layers it may import (besides itself and `companion.errors`)
    "catalogue": (),
    "tape": ("catalogue",),
    "rules": ("catalogue", "tape"),
    "cthulhu": ("catalogue", "tape"),
    "tracker": ("catalogue", "tape", "rules", "cthulhu"),
    "simulation": ("catalogue", "tape", "rules", "tracker"),
    "storage": ("tape",),  # lines and events as data: never the rules or the tracker
    "hardware": (),
    "table": (*CORE, "storage", "hardware"),
    "league": (*CORE, "storage", "hardware", "table", "charts"),
    "web": (*CORE, "storage", "hardware", "table", "charts"),
    "install": ("hardware",),
    "charts": (),
    "cli": (*CORE, "storage", "hardware", "table", "web", "league", "install", "charts"),
}
"""Arrows point down: the core knows no storage, hardware, table, web or CLI; only the CLI
knows the dashboard; hardware knows tags and zones, never cards or rules."""

IO_MODULES = ("sqlite3", "sqlite_utils", "nfc", "serial", "flask", "gpiozero", "socket", "zeroconf")
"""What the pure core never imports."""

WEB_MODULES = ("flask", "werkzeug", "waitress", "http", "urllib", "zeroconf", "ifaddr")
"""What hardware never imports: it knows tags, zones and pins, not the dashboard or the LAN."""

MAX_MODULE_LINES = 600
"""A cohesive class stays whole up to this; never met by splitting a class into mixins."""
MAX_FUNCTION_LINES = 60


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


@cache
def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, parsed once for all the tests here (they only read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(name: str, path: Path) -> Iterator[str]:
    """Every module ``name`` imports, anywhere in its body, as absolute dotted names."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            # `from companion.x import y` may name a module y
            yield from (f"{base}.{alias.name}" for alias in node.names)
        elif _imports_by_name(node):
            # a module imported when first needed (the CLI's lazy commands) is an arrow too
            yield node.args[0].value  # type: ignore[attr-defined]


def _imports_by_name(node: ast.AST) -> bool:
    """``import_module("companion.x")``: an import written as a call, with a literal name."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def graph() -> dict[str, set[str]]:
    ours = dict(modules())
    edges: dict[str, set[str]] = {}
    for name, path in ours.items():
        targets = {target for target in imports_of(name, path) if target in ours}
        edges[name] = targets - {name}
    return edges


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components with more than one module are cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_belongs_to_a_layer() -> None:
    loose = {"companion", "companion.__main__", "companion.errors"}
    assert [name for name, _ in modules() if layer_of(name) is None and name not in loose] == []


def test_no_import_cycles() -> None:
    assert strongly_connected(graph()) == []


def test_imports_point_down_the_layers() -> None:
    wrong = []
    for module, targets in graph().items():
        mine = layer_of(module)
        for target in sorted(targets):
            theirs = layer_of(target)
            if mine is None or theirs is None or theirs == mine:
                continue
            if theirs not in LAYERS[mine]:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_the_core_does_no_io() -> None:
    wrong = []
    for name, path in modules():
        if layer_of(name) not in CORE:
            continue
        for target in imports_of(name, path):
            if target.split(".")[0] in IO_MODULES:
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_hardware_knows_nothing_of_the_web() -> None:
    wrong = []
    for name, path in modules():
        if layer_of(name) != "hardware":
            continue
        for target in imports_of(name, path):
            if target.split(".")[0] in WEB_MODULES:
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_package_init_modules_import_nothing_of_ours() -> None:
    """Sub-package ``__init__`` files hold docstrings: importing a package runs nothing."""
    heavy = []
    for name, path in modules():
        ours = any(target.startswith("companion") for target in imports_of(name, path))
        if path.name == "__init__.py" and name != "companion" and ours:
            heavy.append(name)
    assert heavy == []


def test_imports_are_at_module_level() -> None:
    """An import hidden in a function is how a cycle hides: every import is at the top."""
    hidden = []
    for name, path in modules():
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        hidden.append(f"{name}:{inner.lineno}")
    assert hidden == []


def test_modules_are_small() -> None:
    big = {
        name: lines
        for name, path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert big == {}


def _base_names(node: ast.ClassDef) -> set[str]:
    return {
        base.id if isinstance(base, ast.Name) else base.attr
        for base in node.bases
        if isinstance(base, ast.Name | ast.Attribute)
    }


def test_no_mixins() -> None:
    """A class with several bases is an exception (our root and Python's kind) or a Protocol:
    anything else is parts of one class spread over mixins; compose them instead."""
    mixed = []
    for name, path in modules():
        for node in ast.walk(parsed(path)):
            if not isinstance(node, ast.ClassDef) or len(node.bases) < 2:
                continue
            bases = _base_names(node)
            if "Protocol" in bases or all(b.endswith(("Error", "Exception")) for b in bases):
                continue
            mixed.append(f"{name}.{node.name}")
    assert mixed == []


def test_functions_are_small() -> None:
    long = []
    for name, path in modules():
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - first + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{name}.{node.name}: {length}")
    assert long == []


def _fills_nothing(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the body (after a docstring) is only ``raise NotImplementedError``."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def _is_abstract(node: ast.ClassDef) -> bool:
    bases = {getattr(base, "id", getattr(base, "attr", None)) for base in node.bases}
    metaclass = {getattr(k.value, "id", None) for k in node.keywords if k.arg == "metaclass"}
    return "ABC" in bases or "ABCMeta" in metaclass


def test_no_base_class_leaves_methods_for_a_subclass_to_fill() -> None:
    """A base class whose methods raise NotImplementedError for its subclass to fill calls back
    into that subclass: a cycle the import graph cannot see (the table's worker once reached
    into the service that way). Compose instead: give the part what it needs (a Protocol,
    callables). Only the hardware's interfaces may be abstract base classes (a reader driver
    *must* implement ``start``/``stop``, as gpiozero's pin factories)."""
    found = []
    for name, path in modules():
        for node in ast.walk(parsed(path)):
            if not isinstance(node, ast.ClassDef):
                continue
            if _is_abstract(node) and layer_of(name) != "hardware":
                found.append(f"{name}.{node.name}")
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and _fills_nothing(
                    item
                ):
                    found.append(f"{name}.{node.name}.{item.name}")
    assert sorted(set(found)) == []


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_each_layer_has_a_readme(layer: str) -> None:
    folder = PACKAGE / layer
    if folder.is_dir():
        assert (folder / "README.md").is_file()
