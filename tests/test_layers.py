"""The package ``kb`` reads in one direction: each top-level package imports only packages of a lower
layer (:data:`LAYERS`, lowest first; packages of one layer do not import each other), and no two
modules import each other, directly or round a circle.  Every import counts: at module level, inside
a function, under ``TYPE_CHECKING``.  The graph is read from the source with :mod:`ast`; nothing of
``kb`` is imported."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# lowest first: the message catalogue and the strict data layer; the knowledge index and arXiv
# metadata; BibTeX (built from the index); pure renderers; what is built from renderers (editions,
# demos) or beside them (the importer of briefs); the MkDocs adapter (the only importer of mkdocs);
# the command line; ``python -m kb``
LAYERS: tuple[tuple[str, ...], ...] = (
    ("messages", "data", "gcpause"),
    ("arxiv", "knowledge"),
    ("bib",),
    ("render",),
    ("editions", "demos", "importer"),
    ("site",),
    ("cli",),
    ("__main__",),
)
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}

Graph = Mapping[str, Iterable[str]]


def modules(src: Path = SRC) -> dict[str, Path]:
    """Module name -> file, for every module of ``kb`` (a package by its ``__init__``)."""
    out = {}
    for path in sorted((src / "kb").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imported(source: str, module: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that ``source`` (the text of ``module``) imports anywhere in it:
    ``from a import b`` is an import of ``a.b`` when that is a module, else of ``a``."""
    known = set(known)
    package = module if is_package else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:  # import kb.a.b.Name: the module that holds it
                name = name.rpartition(".")[0]
            if name and name != module:
                out.add(name)
    return out | _packages_run(out, module, known)


def _packages_run(names: set[str], module: str, known: set[str]) -> set[str]:
    """The packages whose ``__init__`` importing ``names`` runs first (``kb.a.b.c`` runs ``kb.a.b``
    and ``kb.a``), but for the packages ``module`` itself is in: those are already running."""
    out = set()
    for name in names:
        parent = name.rpartition(".")[0]
        while parent:
            if parent in known and module != parent and not module.startswith(parent + "."):
                out.add(parent)
            parent = parent.rpartition(".")[0]
    return out


def graph(src: Path = SRC) -> dict[str, set[str]]:
    found = modules(src)
    return {
        name: imported(path.read_text("utf-8"), name, path.name == "__init__.py", found) for name, path in found.items()
    }


def layer(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def upward(g: Graph) -> list[str]:
    """Imports of a package of the same or a higher layer (other than the module's own package)."""
    return sorted(
        f"{a} imports {b} ({layer(b)} is not below {layer(a)})"
        for a, targets in g.items()
        for b in targets
        if layer(a) != layer(b) and RANK.get(layer(b), -1) >= RANK.get(layer(a), -1)
    )


def circles(g: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in g.get(v, ()):
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
                out.append(sorted(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def test_every_package_of_kb_has_a_layer():
    assert sorted({layer(m) for m in modules()} - set(RANK)) == []


def test_no_package_imports_one_of_its_layer_or_above():
    assert upward(graph()) == []


def test_no_modules_import_each_other_round_a_circle():
    assert circles(graph()) == []


def test_imports_in_functions_and_for_type_checking_count():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import b\n"
        "from .c import Name\n"
        "if TYPE_CHECKING:\n"
        "    from kb.site.d import Thing\n"
        "def f():\n"
        "    import kb.render.e\n"
    )
    known = {"kb.data", "kb.data.a", "kb.data.b", "kb.data.c", "kb.site.d", "kb.render", "kb.render.e"}
    found = imported(source, "kb.data.a", False, known)
    assert found == {"kb.data.b", "kb.data.c", "kb.site.d", "kb.render.e", "kb.render"}  # and kb.render's __init__


def test_importing_a_module_runs_its_packages_init():
    known = {"kb.site.a", "kb.site.a.x", "kb.site.b", "kb.site.b.y"}
    found = imported("from kb.site.a.x import T\n", "kb.site.b.y", False, known)
    assert found == {"kb.site.a.x", "kb.site.a"}  # not kb.site.b: it is running already


def test_an_upward_import_and_a_circle_are_found():
    g = {
        "kb.data.a": {"kb.site.b"},  # up
        "kb.render.c": {"kb.knowledge.d", "kb.render.e"},  # down, and into a circle
        "kb.render.e": {"kb.render.f"},
        "kb.render.f": {"kb.render.c"},
        "kb.editions.g": {"kb.demos.h"},  # beside, in the same layer
    }
    assert upward(g) == [
        "kb.data.a imports kb.site.b (site is not below data)",
        "kb.editions.g imports kb.demos.h (demos is not below editions)",
    ]
    assert circles(g) == [["kb.render.c", "kb.render.e", "kb.render.f"]]


def packages(g: Graph) -> dict[str, set[str]]:
    """The graph between packages: a module stands for the package it is in (a package's
    ``__init__`` for that package), and an import of a package one is inside does not count
    (running it is part of importing anything below it)."""
    known = set(g)

    def home(module: str) -> str:
        is_package = any(m.startswith(module + ".") for m in known)
        return module if is_package else module.rpartition(".")[0]

    out: dict[str, set[str]] = {}
    for a, targets in g.items():
        here = home(a)
        for b in targets:
            there = home(b)
            if there != here and not here.startswith(there + "."):
                out.setdefault(here, set()).add(there)
    return out


def test_no_packages_import_each_other_round_a_circle():
    assert circles(packages(graph())) == []


def test_a_circle_between_packages_is_found_though_the_modules_make_none():
    g = {
        "kb.site.a": {"kb.site.b"},  # kb.site.a's __init__ imports kb.site.b's
        "kb.site.a.x": set(),
        "kb.site.b": set(),
        "kb.site.b.y": {"kb.site.a.x", "kb.site.a"},  # and a module of kb.site.b imports kb.site.a
    }
    assert circles(g) == []
    assert circles(packages(g)) == [["kb.site.a", "kb.site.b"]]
