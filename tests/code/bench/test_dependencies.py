"""The dependency phase: a workspace's crates fetched with the network on, tests run offline.

Each problem is validated through the real CLI in the bubblewrap sandbox; its
crate comes from a cargo registry on the host's loopback (`cargoregistry`),
which the dependency phase reaches (network on) and the test phase cannot
(network off, cargo offline).
"""

from __future__ import annotations

import shutil
import socket
from pathlib import Path
from typing import Any

import pytest

from bench.cargoregistry import CRATE, GREETING, Registry, cargo_config, registry
from bench.scbenv import needs_bwrap, needs_scb_python
from bench.test_conformance import CONFORMANCE, by_key, checkpoint, validate_json
from slopmark.code.bench.deps import fetches

pytestmark = [
    needs_bwrap, needs_scb_python, pytest.mark.slow,  # starts validate, bwrap, cargo
    pytest.mark.skipif(shutil.which("cargo") is None, reason="needs cargo"),
]  # fmt: skip

CONFIG = """name: {name}
version: 1
description: Print a greeting from a crate (the tests build it with cargo).
entry_file: main
timeout: 120
evaluation: {{toolchains: [cargo]}}
checkpoints:
  checkpoint_1: {{order: 1, version: 1, state: Core Tests}}
  checkpoint_2: {{order: 2, version: 1, state: Core Tests, include_prior_tests: true}}
"""
BUILD_TEST = f"""import subprocess


def test_builds_with_its_crate() -> None:
    done = subprocess.run(["cargo", "run", "--quiet"], capture_output=True, text=True, timeout=600)
    assert done.stdout == "{GREETING}\\n", done.stderr
"""
#: A test that reaches out during the test phase (192.0.2.1 is TEST-NET-1: never routed;
#: with the network off there is no route at all, so nothing is sent).
SOCKET_TEST = """import socket


def test_reaches_out() -> None:
    with socket.create_connection(("192.0.2.1", 80), timeout=5):
        pass
"""


def write_problem(root: Path, name: str, url: str, crate: str = CRATE) -> Path:
    """A two-checkpoint problem whose reference is a cargo project depending on ``crate``
    from the registry at ``url``; checkpoint 2 adds a test that opens a socket."""
    folder = root / name
    (folder / "tests").mkdir(parents=True)
    (folder / "config.yaml").write_text(CONFIG.format(name=name))
    shutil.copy(CONFORMANCE / "netneed" / "tests" / "conftest.py", folder / "tests")
    (folder / "tests" / "test_checkpoint_1.py").write_text(BUILD_TEST)
    (folder / "tests" / "test_checkpoint_2.py").write_text(SOCKET_TEST)
    for index in (1, 2):
        (folder / f"checkpoint_{index}.md").write_text(f"# {name}, checkpoint {index}\n")
        solution = folder / "solutions" / f"checkpoint_{index}"
        (solution / "src").mkdir(parents=True)
        (solution / ".cargo").mkdir()
        (solution / "Cargo.toml").write_text(
            '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
            f'[dependencies]\n{crate} = "0.1"\n'
        )
        main = f'fn main() {{ println!("{{}}", {crate}::greet()); }}\n'
        (solution / "src" / "main.rs").write_text(main)
        (solution / ".cargo" / "config.toml").write_text(cargo_config(url))
        (solution / "main.py").write_text("print('see src/main.rs')\n")
    return folder


def closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return int(server.getsockname()[1])


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Registry]:
    """Three problems validated at once: one fetching its crate, one whose registry is
    down, one naming a crate that does not exist."""
    root = tmp_path_factory.mktemp("problems")
    with registry() as server:
        write_problem(root, "cratedep", server.url)
        write_problem(root, "registrydown", f"sparse+http://127.0.0.1:{closed_port()}/index/")
        write_problem(root, "cratetypo", server.url, crate="slopdepp")
        payload = validate_json("--problems", str(root), "--jobs", "2")
    return payload, server


def test_the_crate_is_fetched_and_the_tests_pass_offline(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    payload, server = validated
    entry = checkpoint(payload, "cratedep/checkpoint_1")
    assert (entry["verdict"], entry["totals"]["passed"]) == ("ok", 1), entry
    assert (entry["network"], entry["network_from"]) == (False, "default")
    [step] = entry["setup"]
    assert (step["step"], step["manifest"], step["ok"]) == ("cargo fetch", "Cargo.toml", True)
    assert f"/dl/{CRATE}/0.1.0/download" in server.requests


def test_a_socket_in_the_test_phase_is_an_environment_error(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    payload, _ = validated
    entry = checkpoint(payload, "cratedep/checkpoint_2")
    assert (entry["status"], entry["verdict"], entry["ok"]) == ("env_error", "env_error", False)
    assert entry["error"].startswith(
        "network is off during tests (turn it on with --test-network or evaluation.network): "
        ".evaluation_tests/test_checkpoint_2.py::test_reaches_out needed it"
    )
    assert "Network is unreachable" in entry["error"]
    tests = by_key(entry)
    assert tests["test_checkpoint_1.py::test_builds_with_its_crate"]["outcome"] == "passed"
    socket_test = tests["test_checkpoint_2.py::test_reaches_out"]
    assert socket_test["outcome"] == "failed"
    assert socket_test["message"].startswith("network is off during tests")


def test_a_registry_out_of_reach_is_an_environment_error(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    payload, _ = validated
    entry = checkpoint(payload, "registrydown/checkpoint_1")
    assert (entry["status"], entry["verdict"]) == ("env_error", "env_error")
    assert entry["error"].startswith(
        "the dependency phase could not reach the network: cargo fetch (Cargo.toml): "
    )
    assert entry["tests"] == [] and entry["setup"][0]["ok"] is False


def test_a_crate_that_does_not_exist_is_the_submissions_failure(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    payload, _ = validated
    entry = checkpoint(payload, "cratetypo/checkpoint_1")
    assert (entry["status"], entry["verdict"]) == ("scored", "failed")
    [step] = entry["setup"]
    assert step["ok"] is False and "slopdepp" in step["error"]
    failed = by_key(entry)["test_checkpoint_1.py::test_builds_with_its_crate"]
    assert failed["outcome"] == "failed"


def test_manifests_are_found_below_the_workspace_but_not_in_output_folders(
    tmp_path: Path,
) -> None:
    for folder in ("", "engine", "web", "target/debug", "node_modules/x", ".hidden"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "Cargo.toml").write_text("[package]\n")
    (tmp_path / "engine" / "Cargo.toml").write_text("[package]\n")
    (tmp_path / "web" / "package.json").write_text("{}")
    (tmp_path / "web" / "package-lock.json").write_text("{}")
    for ignored in ("target/debug", "node_modules/x", ".hidden"):
        (tmp_path / ignored / "Cargo.toml").write_text("[package]\n")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "Cargo.toml").symlink_to(tmp_path / "Cargo.toml")
    found = [(f.argv, str(f.manifest.relative_to(tmp_path))) for f in fetches(tmp_path)]
    assert found == [
        (("cargo", "fetch"), "Cargo.toml"),
        (("cargo", "fetch"), "engine/Cargo.toml"),
        (("npm", "ci", "--no-audit", "--no-fund"), "web/package.json"),
    ]
