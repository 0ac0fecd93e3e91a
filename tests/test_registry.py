"""`slopmark.registry` on a real package written to disk: a new module is a new plug-in."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.registry import GROUPS, Registry

PACKAGE = "greetings_for_test"
#: The registry of the current test; the modules written below add to it.
REGISTRY: list[Registry[str]] = []


def write_package(root: Path, modules: dict[str, str]) -> None:
    package = root / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text('"""Greetings, one module each."""\n')
    for name, text in modules.items():
        (package / f"{name}.py").write_text(text)


def adds(name: str, value: str) -> str:
    return f"from test_registry import REGISTRY\nREGISTRY[0].add({name!r}, {value!r})\n"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for the package, and a fresh registry of it."""
    monkeypatch.syspath_prepend(str(tmp_path))
    REGISTRY[:] = [Registry("greeting", PACKAGE)]
    yield tmp_path
    for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
        del sys.modules[name]


def test_every_module_of_the_package_is_loaded_on_first_read_only(package: Path) -> None:
    write_package(package, {"hello": adds("hello", "Hello!"), "helper": "X = 1\n"})
    assert PACKAGE not in sys.modules
    (package / PACKAGE / "ahoy.py").write_text(adds("ahoy", "Ahoy!"))
    assert REGISTRY[0].items() == {"ahoy": "Ahoy!", "hello": "Hello!"}
    assert f"{PACKAGE}.helper" in sys.modules


def test_register_makes_the_item_and_returns_what_it_decorates(package: Path) -> None:
    write_package(package, {})
    registry = Registry("greeting", PACKAGE, declare=lambda name, make, *, loud: make(name, loud))

    @registry.register("hello", loud=True)
    def shout(name: str, loud: bool) -> str:
        return name.upper() if loud else name

    assert shout("hi", False) == "hi"
    assert registry.items() == {"hello": "HELLO"}
    assert Registry("greeting", PACKAGE).register("plain")(shout) is shout


def test_threads_reading_while_the_registry_loads_see_all_of_it(package: Path) -> None:
    """Tasks are scored on threads: none may read a half-loaded registry."""
    slow = "import time\ntime.sleep(0.3)\n" + adds("hello", "Hello!")
    write_package(package, {"hello": slow, "later": adds("later", "Later!")})
    with ThreadPoolExecutor(4) as pool:
        seen = list(pool.map(lambda _: REGISTRY[0].names(), range(4)))
    assert seen == [["hello", "later"]] * 4


def test_an_unknown_name_has_one_wording(package: Path) -> None:
    write_package(package, {"hello": adds("hello", "Hello!")})
    with pytest.raises(BadInput) as raised:
        REGISTRY[0].get("helo", also=["any"], extra="or write your own")
    assert str(raised.value) == (
        "unknown greeting 'helo'; did you mean 'hello'? (greetings: hello, any; or write your own)"
    )
    with pytest.raises(BadInput, match=r"^--greet 'zzz': unknown greeting \(greetings: hello\)$"):
        raise REGISTRY[0].unknown("zzz", REGISTRY[0].names(), option="--greet")


def test_a_name_taken_twice_is_refused(package: Path) -> None:
    write_package(package, {"a": adds("hello", "Hello!"), "b": adds("hello", "Hi!")})
    with pytest.raises(BadInput, match="two greetings are registered as 'hello'; rename one"):
        REGISTRY[0].items()


def test_each_plugin_kind_has_its_entry_point_group() -> None:
    assert GROUPS == {
        "verifier": "slopmark.verifiers",
        "measure": "slopmark.measures",
        "agent": "slopmark.agents",
        "sandbox": "slopmark.sandboxes",
        "executor": "slopmark.executors",
    }
