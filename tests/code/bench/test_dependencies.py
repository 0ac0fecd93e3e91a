"""The dependency phase: a workspace's crates and packages fetched with the network on,
the tests run offline.

Each problem is validated through the real CLI in the bubblewrap sandbox; its
crate or package comes from a registry on the host's loopback (`registries`),
which the problem names (its ``env:``), the dependency phase reaches (network
on) and the test phase cannot (network off, cargo and npm offline). Two
problems are red-team cases: a workspace that names a source which never
answers, hoping its failure is taken for the network's.
"""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path
from typing import Any

import pytest

from bench.registries import (
    CARGO_REGISTRY,
    CRATE,
    GREETING,
    PACKAGE,
    Registry,
    cargo_env,
    crate_files,
    npm_env,
    npm_files,
    registry,
    sparse_index,
)  # fmt: skip
from bench.scbenv import needs_bwrap, needs_scb_python
from bench.test_conformance import CONFORMANCE, by_key, checkpoint, validate_json
from slopmark.code.bench.deps import fetches

pytestmark = [
    needs_bwrap, needs_scb_python, pytest.mark.slow,  # starts validate, bwrap, cargo, npm
    pytest.mark.skipif(shutil.which("cargo") is None, reason="needs cargo"),
    pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm (Node.js)"),
]  # fmt: skip

CONFIG = """name: {name}
version: 1
description: Print a greeting from a dependency (the tests build and run it).
entry_file: main
timeout: 120
evaluation: {{toolchains: [{toolchain}]}}
env: {env}
checkpoints:
  checkpoint_1: {{order: 1, version: 1, state: Core Tests}}
  checkpoint_2: {{order: 2, version: 1, state: Core Tests, include_prior_tests: true}}
"""
RUN_TEST = """import subprocess


def test_runs_with_its_dependency() -> None:
    done = subprocess.run({argv!r}, capture_output=True, text=True, timeout=600)
    assert done.stdout == "{greeting}\\n", done.stderr
"""
#: A test that reaches out during the test phase (192.0.2.1 is TEST-NET-1: never routed;
#: with the network off there is no route at all, so nothing is sent).
SOCKET_TEST = """import socket


def test_reaches_out() -> None:
    with socket.create_connection(("192.0.2.1", 80), timeout=5):
        pass
"""


def cargo_project(crate: str = CRATE, source: str = CARGO_REGISTRY) -> dict[str, str]:
    """A cargo project printing ``crate``'s greeting, ``crate`` from the registry ``source``."""
    return {
        "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
                      f'[dependencies]\n{crate} = {{ version = "0.1", registry = "{source}" }}\n',
        "src/main.rs": f'fn main() {{ println!("{{}}", {crate}::greet()); }}\n',
    }  # fmt: skip


def npm_project(**dependencies: str) -> dict[str, str]:
    """A Node.js program printing the package's greeting; its install script would fail the
    install if it ran (the phase runs no script of the submission)."""
    manifest = {
        "name": "app", "version": "0.1.0", "dependencies": {PACKAGE: "0.1.0", **dependencies},
        "scripts": {"postinstall": "echo ECONNREFUSED >&2; exit 1"},
    }  # fmt: skip
    return {
        "package.json": json.dumps(manifest) + "\n",
        "index.js": f"console.log(require('{PACKAGE}').greet())\n",
    }


def write_problem(
    root: Path, name: str, tool: str, project: dict[str, str], env: dict[str, str]
) -> Path:
    """A two-checkpoint problem whose reference is ``project`` (built with ``tool``), its
    ``env:`` naming the registries; checkpoint 2 adds a test that opens a socket."""
    folder = root / name
    (folder / "tests").mkdir(parents=True)
    toolchain = {"cargo": "cargo", "npm": "node"}[tool]
    config = CONFIG.format(name=name, toolchain=toolchain, env=json.dumps(env))
    (folder / "config.yaml").write_text(config)
    shutil.copy(CONFORMANCE / "netneed" / "tests" / "conftest.py", folder / "tests")
    argv, greeting = {"cargo": (["cargo", "run", "--quiet"], GREETING[CRATE]),
                      "npm": (["node", "index.js"], GREETING[PACKAGE])}[tool]  # fmt: skip
    (folder / "tests" / "test_checkpoint_1.py").write_text(
        RUN_TEST.format(argv=argv, greeting=greeting)
    )
    (folder / "tests" / "test_checkpoint_2.py").write_text(SOCKET_TEST)
    for index in (1, 2):
        (folder / f"checkpoint_{index}.md").write_text(f"# {name}, checkpoint {index}\n")
        solution = folder / "solutions" / f"checkpoint_{index}"
        for path, text in {**project, "main.py": "print('see the project')\n"}.items():
            (solution / path).parent.mkdir(parents=True, exist_ok=True)
            (solution / path).write_text(text)
    return folder


def closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return int(server.getsockname()[1])


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Registry]:
    """Six problems validated at once: one fetching its crate, one its npm package, one
    whose registry is down, one naming a crate that does not exist, and two whose
    workspace names a source that never answers (a registry of its own; a tarball)."""
    root = tmp_path_factory.mktemp("problems")
    dead = closed_port()
    with registry(crate_files) as crates, registry(npm_files) as packages:
        cargo, npm = cargo_env(crates.port), npm_env(packages.port)
        write_problem(root, "cratedep", "cargo", cargo_project(), cargo)
        write_problem(root, "npmdep", "npm", npm_project(), npm)
        write_problem(root, "registrydown", "cargo", cargo_project(), cargo_env(closed_port()))
        write_problem(root, "cratetypo", "cargo", cargo_project(crate="slopdepp"), cargo)
        decoy = {**cargo_project(source="decoy"),
                 ".cargo/config.toml": f'[registries.decoy]\nindex = "{sparse_index(dead)}"\n'}
        write_problem(root, "cratedecoy", "cargo", decoy, cargo)
        tarball = npm_project(dead=f"http://127.0.0.1:{dead}/dead-0.1.0.tgz")
        write_problem(root, "npmdecoy", "npm", tarball, {**npm, "npm_config_fetch_retries": "0"})
        payload = validate_json("--problems", str(root), "--jobs", "2")
    return payload, crates


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


def test_the_npm_package_is_installed_and_the_tests_pass_offline(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    entry = checkpoint(validated[0], "npmdep/checkpoint_1")
    assert (entry["verdict"], entry["totals"]["passed"]) == ("ok", 1), entry
    [step] = entry["setup"]
    assert (step["step"], step["manifest"], step["ok"]) == ("npm install", "package.json", True)


def test_a_socket_in_the_test_phase_is_an_environment_error(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    payload, _ = validated
    entry = checkpoint(payload, "cratedep/checkpoint_2")
    found = (entry["status"], entry["verdict"], entry["ok"])
    assert found == ("env_error", "env_error", False), (entry["setup"], entry["tests"])
    assert entry["error"].startswith(
        "network is off during tests (turn it on with --test-network or evaluation.network): "
        ".evaluation_tests/test_checkpoint_2.py::test_reaches_out needed it"
    )
    assert "Network is unreachable" in entry["error"]
    tests = by_key(entry)
    assert tests["test_checkpoint_1.py::test_runs_with_its_dependency"]["outcome"] == "passed"
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
    failed = by_key(entry)["test_checkpoint_1.py::test_runs_with_its_dependency"]
    assert failed["outcome"] == "failed"


ANSWERED = "(the evaluator's registries answered: the source is the submission's)"


@pytest.mark.parametrize(("problem", "step_name"), [
    ("cratedecoy", "cargo fetch"), ("npmdecoy", "npm install"),
])  # fmt: skip
def test_a_source_the_workspace_names_that_never_answers_is_the_submissions_failure(
    validated: tuple[dict[str, Any], Registry], problem: str, step_name: str
) -> None:
    """Red team: the fetch could not reach its source, but the source is the workspace's
    (a registry its own ``.cargo/config.toml`` names; a tarball URL) and the evaluator's
    registry answers the probe: the checkpoint is scored, failed, not an environment
    error."""
    entry = checkpoint(validated[0], f"{problem}/checkpoint_1")
    assert (entry["status"], entry["verdict"]) == ("scored", "failed"), entry["error"]
    [step] = entry["setup"]
    assert (step["step"], step["ok"]) == (step_name, False)
    assert step["error"].endswith(ANSWERED), step["error"]
    ran = by_key(entry)["test_checkpoint_1.py::test_runs_with_its_dependency"]
    assert ran["outcome"] == "failed"


def test_the_probe_asked_the_evaluators_registry(
    validated: tuple[dict[str, Any], Registry],
) -> None:
    _, crates = validated
    assert "/index/sl/op/slopmark-probe-absent" in crates.requests


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
        (("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"), "web/package.json"),
    ]
