"""The native core's modules (`native/src/`) depend on each other without cycles.

One node per top-level module of the crate (``x.rs`` or the folder ``x/``); one edge
from a module to each other module its code names by a ``crate::x`` path (in a ``use``
or inline). The crate root (`lib.rs`) declares the modules and is not a node. Test
code may drive the whole analysis and is left out: a file's text from ``#[cfg(test)]``
on, and the files of test modules (``tests.rs``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

NATIVE = Path(__file__).resolve().parents[1] / "native" / "src"
#: A path into the crate: the module it names first (`use crate::{a, b}` names each).
_CRATE_PATH = re.compile(r"\bcrate::(\{[^}]*\}|\w+)")
_TESTS = re.compile(r"^#\[cfg\(test\)\]", re.MULTILINE)
_COMMENT = re.compile(r"//.*")


def _module(path: Path) -> str:
    return path.relative_to(NATIVE).parts[0].removesuffix(".rs")


@cache
def graph() -> dict[str, frozenset[str]]:
    """Each top-level module → the other modules its (non-test) code names."""
    edges: dict[str, set[str]] = {}
    for path in sorted(NATIVE.rglob("*.rs")):
        if (path.parent == NATIVE and path.name == "lib.rs") or path.name == "tests.rs":
            continue
        module = _module(path)
        text = _COMMENT.sub("", _TESTS.split(path.read_text(encoding="utf-8"))[0])
        named = edges.setdefault(module, set())
        for found in _CRATE_PATH.findall(text):
            for part in found.strip("{}").split(","):
                name = part.strip().split("::")[0]
                if name and name != module:
                    named.add(name)
    return {module: frozenset(n for n in named if n in edges) for module, named in edges.items()}


def cycle(edges: dict[str, frozenset[str]]) -> list[str] | None:
    """A cycle of ``edges`` (its modules in order, the first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(edges[module]):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)):
                return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(edges):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_graph_sees_the_modules_and_their_paths() -> None:
    edges = graph()
    assert {"analyze", "lang", "rules", "python"} <= set(edges)
    assert "rules" in edges["analyze"] and "lang" in edges["rules"]


def test_a_cycle_is_found_and_named() -> None:
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert cycle(edges) == ["a", "b", "c", "a"]
    assert cycle({"a": frozenset({"b"}), "b": frozenset()}) is None


def test_native_modules_have_no_cycles() -> None:
    found = cycle(graph())
    assert found is None, "native/src modules form a cycle: " + " -> ".join(found or [])
