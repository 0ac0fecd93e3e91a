"""Conformance with SlopCodeBench's evaluator: one small problem per difference, through the CLI.

Each problem under ``conformance/`` reproduces one way the harness used to
differ from SCB's evaluator (issue 18): a 3.12-only reference, a test that
calls uv, a test that reads its checkpoint from its path, an ``@error`` test
in an earlier checkpoint's file, a file that fails to collect, a test that
needs the network, parametrize ids that look like Rich markup, and variables
set by the problem's ``env``. All of them run once through ``validate --json``
in the real bubblewrap sandbox.
``loadflip`` (a test's own timeout, rerun once: a difference on purpose) is
checked in test_load_sensitive.py.
"""

from __future__ import annotations

import json
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.scbenv import HAS_SCB_PYTHON, hidden_312_environment, needs_bwrap, needs_scb_python
from clirun import run_cli

CONFORMANCE = Path(__file__).parent / "conformance"
VALIDATE = ("code", "bench", "validate", "--sandbox", "bwrap")

pytestmark = [needs_bwrap, pytest.mark.slow]  # starts bench validate, its sandbox and uv


def validate_json(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    done = run_cli(*VALIDATE, *args, "--json", env=env)
    assert done.returncode in (0, 1), done.stderr
    payload: dict[str, Any] = json.loads(done.stdout)
    return payload


def checkpoint(payload: dict[str, Any], name: str) -> dict[str, Any]:
    found = [c for c in payload["checkpoints"] if f"{c['problem']}/{c['checkpoint']}" == name]
    assert len(found) == 1, [c["problem"] for c in payload["checkpoints"]]
    return found[0]


def by_key(entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {test["key"].split("::", 1)[1]: test for test in entry["tests"]}


@pytest.fixture(scope="module")
def scb() -> dict[str, Any]:
    """Every conformance problem, validated once with the default (scb) profile."""
    if not HAS_SCB_PYTHON:
        pytest.skip("needs Python 3.12 (the scb profile's; .ci/run installs it)")
    return validate_json("--problems", str(CONFORMANCE), "--jobs", "2")


@needs_scb_python
def test_a_312_only_reference_runs_under_312(scb: dict[str, Any]) -> None:
    entry = checkpoint(scb, "py312/checkpoint_1")
    assert (entry["verdict"], entry["totals"]["passed"]) == ("ok", 1)


def test_a_missing_312_is_an_environment_error_naming_it(tmp_path: Path) -> None:
    env = hidden_312_environment(tmp_path)
    done = run_cli(*VALIDATE, "--problems", str(CONFORMANCE / "py312"), env=env)
    assert done.returncode == 1
    line = done.stdout.splitlines()[0]
    assert line.startswith(
        "[1/1] ERROR py312/checkpoint_1  environment error: py312 needs Python 3.12"
    )
    assert f"{tmp_path}/no-pyenv/versions/3.12.*" in line
    assert done.stdout.splitlines()[-1] == "0/1 reference checkpoints ok, 0 failed, 1 errored"


def test_a_python_version_that_does_not_exist_is_an_environment_error() -> None:
    payload = validate_json("--problems", str(CONFORMANCE / "py312"), "--python", "3.99")
    entry = checkpoint(payload, "py312/checkpoint_1")
    assert (entry["status"], entry["verdict"], entry["ok"]) == ("env_error", "env_error", False)
    assert "needs Python 3.99" in entry["error"] and entry["tests"] == []


@needs_scb_python
def test_a_test_can_call_uv_and_uv_runs_the_evaluation_python(scb: dict[str, Any]) -> None:
    entry = checkpoint(scb, "uvcall/checkpoint_1")
    assert entry["verdict"] == "ok", entry["tests"]
    assert set(by_key(entry)) == {
        "test_checkpoint_1.py::test_uv_is_on_path",
        "test_checkpoint_1.py::test_uv_runs_the_evaluation_python",
    }


def test_a_test_that_reads_its_checkpoint_from_its_path_sees_its_case_folder(
    scb: dict[str, Any],
) -> None:
    entry = checkpoint(scb, "pathcase/checkpoint_2")
    assert entry["verdict"] == "ok"
    assert by_key(entry)["test_checkpoint_1.py::test_case[hello]"]["group"] == "regression"
    native = validate_json("--problems", str(CONFORMANCE / "pathcase"), "--env-profile", "native")
    broken = checkpoint(native, "pathcase/checkpoint_2")  # tests under RUN_DIR/.../checkpoint_2/
    assert [t["key"] for t in broken["unexpected"]] == [
        "pathcase/checkpoint_2::test_checkpoint_1.py::test_case[hello]"
    ]
    assert "assert 'checkpoint_2' == 'checkpoint_1'" in broken["unexpected"][0]["message"]


def test_an_error_test_of_an_earlier_checkpoint_is_grouped_regression(scb: dict[str, Any]) -> None:
    first = checkpoint(scb, "earlyerror/checkpoint_1")
    assert by_key(first)["test_checkpoint_1.py::test_no_numbers_is_an_error"]["group"] == "error"
    second = checkpoint(scb, "earlyerror/checkpoint_2")
    old_error = by_key(second)["test_checkpoint_1.py::test_no_numbers_is_an_error"]
    assert (old_error["group"], old_error["outcome"]) == ("regression", "failed")
    # A regression failure: not strictly solved, but solved in isolation (SCB's
    # checkpoint_pass_rate leaves the Regression group out).
    assert (second["strict"], second["isolated"], second["core"]) == (False, True, True)


def test_a_file_that_fails_to_collect_is_errored_not_failed(scb: dict[str, Any]) -> None:
    entry = checkpoint(scb, "badcollect/checkpoint_1")
    assert (entry["status"], entry["verdict"], entry["tests"]) == (
        "collect_error",
        "collect_error",
        [],
    )
    assert entry["error"] == (
        "collection error in .evaluation_tests/test_checkpoint_1.py: "
        "ModuleNotFoundError: No module named 'not_a_test_dependency'"
    )


def test_a_test_that_needs_the_network_is_an_environment_error(scb: dict[str, Any]) -> None:
    entry = checkpoint(scb, "netneed/checkpoint_1")
    assert (entry["status"], entry["verdict"], entry["ok"]) == ("env_error", "env_error", False)
    assert (entry["network"], entry["network_from"], entry["setup"]) == (False, "default", [])
    assert entry["error"].startswith(
        "network is off during tests (turn it on with --test-network or evaluation.network): "
        ".evaluation_tests/test_checkpoint_1.py::test_fetches_a_page needed it"
    )
    tests = by_key(entry)
    assert tests["test_checkpoint_1.py::test_prints_ok"]["outcome"] == "passed"
    fetch = tests["test_checkpoint_1.py::test_fetches_a_page"]
    assert fetch["outcome"] == "failed"
    assert fetch["message"].startswith(
        "network is off during tests (turn it on with --test-network"
    )
    assert "name resolution" in fetch["message"]


def test_a_submission_blaming_the_network_is_scored(scb: dict[str, Any]) -> None:
    """Red team: a failing program that prints a resolver's, a socket's and cargo's offline
    messages is the submission's failure, not an environment error (only the test's own
    exception chain tells a missing network)."""
    entry = checkpoint(scb, "netdecoy/checkpoint_1")
    assert (entry["status"], entry["verdict"], entry["error"]) == ("scored", "failed", None)
    failed = by_key(entry)["test_checkpoint_1.py::test_prints_ok"]
    assert failed["outcome"] == "failed"
    assert not failed["message"].startswith("network is off")


def test_the_problems_and_the_checkpoints_env_reach_the_tests(scb: dict[str, Any]) -> None:
    """SCB's ``BaseConfig.env``: the problem's variables, the checkpoint's over them."""
    entry = checkpoint(scb, "envvars/checkpoint_1")
    assert (entry["verdict"], entry["totals"]["passed"]) == ("ok", 2), entry


@pytest.fixture
def loopback_server() -> Iterator[int]:
    """A TCP server on the host's loopback that answers ``pong``; its port."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(60)

    def serve() -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            with client:
                client.sendall(b"pong")

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


def loopback_problems(root: Path, port: int) -> Path:
    """Two copies of a problem whose test talks to the host: one asks for the network."""
    for name, network in (("loop-off", "false"), ("loop-on", "true")):
        folder = root / name
        shutil.copytree(CONFORMANCE / "netneed", folder)
        config = (folder / "config.yaml").read_text().replace("name: netneed", f"name: {name}")
        config = config.replace("{toolchains: []}", f"{{toolchains: [], network: {network}}}")
        (folder / "config.yaml").write_text(config)
        (folder / "tests" / "test_checkpoint_1.py").write_text(
            "import socket\n\n\ndef test_host() -> None:\n"
            f"    with socket.create_connection(('127.0.0.1', {port}), timeout=10) as s:\n"
            "        assert s.recv(4) == b'pong'\n"
        )
    return root


def test_network_is_a_per_problem_and_per_run_setting(tmp_path: Path, loopback_server: int) -> None:
    problems = str(loopback_problems(tmp_path, loopback_server))
    default = validate_json("--problems", problems)
    on_by_problem = checkpoint(default, "loop-on/checkpoint_1")
    assert (on_by_problem["verdict"], on_by_problem["network_from"]) == ("ok", "problem")
    # the host's loopback is out of reach; a refused connection is not told apart from
    # a submission whose own server is down, so it stays the submission's failure
    assert checkpoint(default, "loop-off/checkpoint_1")["verdict"] == "failed"
    on = validate_json("--problems", problems, "--test-network")
    assert all(entry["verdict"] == "ok" for entry in on["checkpoints"])
    off = validate_json("--problems", problems, "--no-test-network")
    assert all(entry["verdict"] == "failed" for entry in off["checkpoints"])
