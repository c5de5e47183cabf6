"""Imports flow one way: the layers listed in :mod:`notation`'s docstring, no circle, render above notation.

Every ``import`` statement counts, wherever it is: at the top of a module, inside a function (imported
when first needed) or under ``TYPE_CHECKING`` (for annotations only).  A module imports only from its
own layer and the layers listed before it, and the imports within a layer make no circle.  Only the
command line (``notation.commands``) imports the renderer, and only inside its functions (when a
command draws), and the notebook hook (``notation.notebook``), inside the function that shows an object;
the renderer imports none of the command line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import notation

ROOT = Path(__file__).resolve().parents[1]


def _modules(package: str) -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules("notation")
RENDER = _modules("render")
ALL = MODULES | RENDER


def _imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, inside a function) for every import statement of module ``name``."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                out.extend((a.name, child.lineno, in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[:len(package) - child.level + 1]
                    prefix = ".".join(base + ([child.module] if child.module else []))
                else:
                    prefix = child.module or ""
                for a in child.names:  # ``from . import x`` imports the module x when there is one
                    sub = f"{prefix}.{a.name}"
                    out.append((sub if sub in ALL else prefix, child.lineno, in_function))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return out


def _target(imported: str, known: dict[str, Path]) -> str | None:
    """The module of ``known`` an import statement loads (``a.b.c`` loads ``a.b.c``, else ``a.b``)."""
    while imported:
        if imported in known:
            return imported
        imported = imported.rpartition(".")[0]
    return None


def _layers() -> list[list[str]]:
    """The layer list of :mod:`notation`'s docstring: one line a layer, its module names before ``--``."""
    doc = notation.__doc__ or ""
    block = doc.split("Layers, lowest first", 1)[1].split("::", 1)[1]
    layers = []
    for line in block.splitlines()[1:]:
        if line.strip() and not line.startswith("    "):
            break
        if "--" in line:
            layers.append(line.split("--", 1)[0].replace(",", " ").split())
    return layers


def _layer_of(module: str, layers: list[list[str]]) -> int | None:
    short = "notation" if module == "notation" else module.removeprefix("notation.")
    found = [i for i, names in enumerate(layers) for n in names
             if n == short or (n.endswith(".*") and (short == n[:-2] or short.startswith(n[:-1])))]
    return found[0] if len(found) == 1 else None


def _edges() -> dict[str, list[tuple[str, int, bool]]]:
    edges: dict[str, list[tuple[str, int, bool]]] = {}
    for name, path in MODULES.items():
        for imported, line, in_function in _imports(name, path):
            target = _target(imported, MODULES)
            if target is not None and target != name:
                edges.setdefault(name, []).append((target, line, in_function))
    return edges


def _cycles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_is_in_one_layer() -> None:
    layers = _layers()
    assert len(layers) > 5
    unplaced = [m for m in MODULES if _layer_of(m, layers) is None]
    assert not unplaced, f"name each in exactly one layer of notation/__init__.py's docstring: {unplaced}"


def test_imports_go_down_the_layers() -> None:
    layers = _layers()
    upward = []
    for name, targets in _edges().items():
        mine = _layer_of(name, layers)
        for target, line, _ in targets:
            theirs = _layer_of(target, layers)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{MODULES[name].relative_to(ROOT)}:{line} imports {target} (a layer above)")
    assert not upward, "\n".join(upward)


def test_no_import_circle() -> None:
    cycles = _cycles({name: [t for t, _, _ in targets] for name, targets in _edges().items()})
    assert not cycles, f"modules that import each other, directly or through others: {cycles}"


def test_only_the_commands_import_the_renderer_and_only_when_drawing() -> None:
    wrong = []
    for name, path in MODULES.items():
        for imported, line, in_function in _imports(name, path):
            if _target(imported, RENDER) is None:
                continue
            if not (name.startswith("notation.commands.") or name == "notation.notebook") or not in_function:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    assert not wrong, "\n".join(wrong)


def test_the_renderer_imports_no_command_line() -> None:
    wrong = []
    for name, path in RENDER.items():
        for imported, line, _ in _imports(name, path):
            target = _target(imported, MODULES)
            if target is not None and (target.startswith("notation.commands") or target in ("notation.cli",
                                                                                             "notation.__main__")):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_layer_list_names_only_modules_that_exist() -> None:
    """A module renamed or removed leaves no stale name in the list."""
    names = {("notation" if m == "notation" else m.removeprefix("notation.")) for m in MODULES}
    for layer in _layers():
        for n in layer:
            if n.endswith(".*"):
                assert any(m == n[:-2] or m.startswith(n[:-1]) for m in names), n
            else:
                assert n in names, n


def test_imports_inside_functions_and_for_annotations_are_seen(tmp_path: Path) -> None:
    """The scan finds every kind of import statement (so that the tests above can fail)."""
    path = tmp_path / "x.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .position import Position\n"
                    "def f():\n    from . import rules\n    import render.html\n", encoding="utf-8")
    assert _imports("notation.x", path) == [("typing", 1, False), ("notation.position", 3, False),
                                            ("notation.rules", 5, True), ("render.html", 6, True)]
