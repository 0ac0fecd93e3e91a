"""The layers slopmark keeps, checked on its own import graph.

The graph is built from the source with `ast`: one node per module of
``src/slopmark`` (a package is its ``__init__``), one edge per import
statement anywhere in a module — at the top or inside a function, since a
lazy import still runs — except those under ``if TYPE_CHECKING:``, which never
run. ``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to
``a.b``; importing a module does not add edges to its parent packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: The layers, bottom first: a module may import from its own layer and the ones under
#: it, never from a layer above. A name stands for that module or package and every
#: module under it, and a module belongs to the longest name it falls under; the root,
#: ``slopmark`` (its version), stands for itself alone. Every module of
#: ``src/slopmark`` must belong to one. The native core (``slopmark._core``) is under all.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the errors and small helpers every layer may use
    (
        "slopmark",
        "slopmark.errors",
        "slopmark.plurals",
        "slopmark.closing",
        "slopmark.confine",
        "slopmark.regular",
        "slopmark.yamlconfig",
        "slopmark.gcpause",
        "slopmark.registry",
    ),
    # adapters at the edge, and the executor interface the plug-ins implement
    ("slopmark.llm", "slopmark.store", "slopmark.sandbox", "slopmark.executor"),
    # what sweeps share (drive, roster, worker, parcels, address), then the executor plug-ins
    ("slopmark.sweep",),
    ("slopmark.executors",),
    # the measure pipeline
    ("slopmark.code.measure",),
    # the instruments: the code bench and study (on the measure pipeline), papers, evals
    ("slopmark.code", "slopmark.paper", "slopmark.evals"),
    ("slopmark.board",),
    ("slopmark.plot", "slopmark.server"),
    ("slopmark.cli", "slopmark.__main__"),
)
ROOT = "slopmark"
#: Products that import nothing of each other (the code bench and study share the
#: measure pipeline, a layer below, and nothing else).
INDEPENDENT = ("slopmark.code.bench", "slopmark.code.study", "slopmark.paper", "slopmark.evals")
#: The one package allowed to import the OpenAI SDK.
SDK_HOME = "slopmark.llm"

#: Import cycles tolerated for now: a cycle passes only when all its modules lie
#: inside one of these sets. Issue 14 move 3 removed the last three (the plug-in
#: registries of bench agents, sandboxes and paper measures, now `slopmark.registry`);
#: issue 30 the last one the type checker saw (`code.measure.hits` ↔ `fileanalysis`).
KNOWN_CYCLES: tuple[frozenset[str], ...] = ()


@dataclass(frozen=True)
class Import:
    """One import statement's target in ``module`` (a dotted name, maybe outside slopmark)."""

    module: str
    target: str
    line: int
    type_checking: bool


@cache
def modules() -> dict[str, Path]:
    """Every module of ``src/slopmark`` by dotted name (the bundled problems' solutions and
    hidden tests are data the package ships, not modules of it)."""
    found = {}
    data = SRC / "slopmark" / "problems"
    for path in (SRC / "slopmark").rglob("*.py"):
        if path.is_relative_to(data):
            continue
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


@cache
def imports() -> tuple[Import, ...]:
    return tuple(found for name, path in modules().items() for found in _imports_of(name, path))


def _imports_of(name: str, path: Path) -> Iterator[Import]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    yield from _walk(name, package, ast.parse(path.read_text(encoding="utf-8")), False)


def _walk(name: str, package: str, node: ast.AST, guarded: bool) -> Iterator[Import]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import):
            for alias in child.names:
                yield Import(name, alias.name, child.lineno, guarded)
        elif isinstance(child, ast.ImportFrom):
            base = _absolute(package, child)
            for alias in child.names:
                yield Import(name, _target(base, alias.name), child.lineno, guarded)
        if _is_type_checking(child):
            assert isinstance(child, ast.If)
            for part in child.body:
                yield from _walk_one(name, package, part, True)
            for part in child.orelse:
                yield from _walk_one(name, package, part, guarded)
        else:
            yield from _walk(name, package, child, guarded)


def _walk_one(name: str, package: str, node: ast.stmt, guarded: bool) -> Iterator[Import]:
    """`_walk` of a statement itself, not only of its children."""
    holder = ast.Module(body=[node], type_ignores=[])
    yield from _walk(name, package, holder, guarded)


def _absolute(package: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _target(base: str, name: str) -> str:
    submodule = f"{base}.{name}"
    return submodule if submodule in modules() else base


def _is_type_checking(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def layer_of(module: str) -> int | None:
    """The index in `LAYERS` of the longest name ``module`` falls under (None: in no layer)."""
    best: tuple[int, int] | None = None
    for index, layer in enumerate(LAYERS):
        for name in layer:
            inside = module == name if name == ROOT else _under(module, (name,))
            if inside and (best is None or len(name) > best[0]):
                best = (len(name), index)
    return None if best is None else best[1]


def arrows_up(found: Iterable[Import], known: Iterable[str]) -> list[Import]:
    """The imports of a slopmark module in ``known`` from a layer above the importer's."""
    names = set(known)
    wrong = []
    for each in found:
        if each.target not in names:
            continue
        here, there = layer_of(each.module), layer_of(each.target)
        if here is not None and there is not None and there > here:
            wrong.append(each)
    return wrong


def graph(typed: bool = False) -> dict[str, set[str]]:
    """Module → the slopmark modules it imports at run time (``typed``: or for the type
    checker alone)."""
    edges: dict[str, set[str]] = {name: set() for name in modules()}
    for found in imports():
        if (typed or not found.type_checking) and found.target in edges:
            edges[found.module].add(found.target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (or a self-import)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            component = set()
            while not component or node not in component:
                component.add(stack.pop())
            if len(component) > 1 or node in edges[node]:
                found.append(frozenset(component))

    for node in sorted(edges):
        if node not in order:
            visit(node)
    return found


def _where(found: Import) -> str:
    path = modules()[found.module].relative_to(SRC.parent)
    return f"{path}:{found.line}: {found.module} imports {found.target}"


def test_the_graph_sees_the_whole_package() -> None:
    names = modules()
    assert {"slopmark.errors", "slopmark.llm.openai_compat", "slopmark.cli"} <= set(names)
    edges = graph()
    assert "slopmark.llm.base" in edges["slopmark.llm.openai_compat"]
    assert "slopmark.errors" in edges["slopmark.llm.prices"]


def test_every_module_is_in_a_layer() -> None:
    assert [name for name in sorted(modules()) if layer_of(name) is None] == []


@pytest.mark.parametrize("name", [name for layer in LAYERS for name in layer])
def test_every_layer_name_is_a_module_named_once(name: str) -> None:
    assert name in modules()
    assert sum(layer.count(name) for layer in LAYERS) == 1


@pytest.mark.parametrize("layer", range(len(LAYERS)), ids=[layer[0] for layer in LAYERS])
def test_no_layer_imports_from_one_above_it(layer: int) -> None:
    """At run time or only for the type checker: either is an arrow up."""
    found = [each for each in imports() if layer_of(each.module) == layer]
    assert [_where(each) for each in arrows_up(found, modules())] == []


def test_the_executors_sit_between_the_sandboxes_and_the_commands_that_sweep() -> None:
    """Ray's executor asks the sandboxes whether a node can run model-written code."""
    order = [_layer(name) for name in ("sandbox", "sweep", "executors", "code.bench")]
    assert order == sorted(set(order))
    found = [each for each in imports() if _under(each.module, ("slopmark.executors",))]
    assert [_where(each) for each in arrows_up(found, modules())] == []
    assert "slopmark.sandbox.base" in graph()["slopmark.executors.ray"]


def _layer(name: str) -> int:
    found = layer_of(f"slopmark.{name}")
    assert found is not None, name
    return found


@pytest.mark.parametrize("product", INDEPENDENT)
def test_the_products_import_nothing_of_each_other(product: str) -> None:
    others = tuple(other for other in INDEPENDENT if other != product)
    wrong = [
        _where(each)
        for each in imports()
        if _under(each.module, (product,)) and _under(each.target, others)
    ]
    assert wrong == []


def test_the_layer_check_finds_an_arrow_up() -> None:
    down = Import("slopmark.cli.main", "slopmark.errors", 1, False)
    up = Import("slopmark.executors.ray", "slopmark.code.bench.runner", 2, True)
    root = Import("slopmark.errors", "slopmark", 3, False)
    known = ["slopmark", "slopmark.errors", "slopmark.cli.main", "slopmark.code.bench.runner"]
    assert arrows_up([down, up, root], [*known, "slopmark.executors.ray"]) == [up]
    assert layer_of("slopmark.code.measure.cache.store") == layer_of("slopmark.code.measure")
    assert layer_of("slopmark.nothing") is None


def test_only_llm_imports_the_openai_sdk() -> None:
    wrong = [
        _where(found)
        for found in imports()
        if _under(found.target, ("openai",)) and not _under(found.module, (SDK_HOME,))
    ]
    assert wrong == []


def test_no_import_cycles_beyond_the_known_ones() -> None:
    new = [
        sorted(component)
        for component in cycles(graph())
        if not any(component <= known for known in KNOWN_CYCLES)
    ]
    assert new == []


def test_no_import_cycles_for_the_type_checker_either() -> None:
    assert [sorted(component) for component in cycles(graph(typed=True))] == []


def test_the_cycle_finder_finds_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert sorted(map(sorted, cycles(edges))) == [["a", "b", "c"], ["e"]]
