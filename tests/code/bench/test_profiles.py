"""Evaluation profiles: finding interpreters and toolchains, problem settings, run options."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from clirun import run_cli
from slopmark.code.bench.problem import Evaluation, load_problem
from slopmark.code.bench.profiles import (
    SCB_PYTHON,
    EvalEnvironment,
    EvalOptions,
    Host,
    MissingEnvironment,
    host_of,
    resolve,
)
from slopmark.code.bench.pythons import PythonSearch, check_version, find_python, probe
from slopmark.code.bench.toolchains import SCB_TOOLCHAINS, find_toolchains, link_tools
from slopmark.errors import BadInput
from slopmark.sandbox.docker import DEFAULT_IMAGE

HOST = host_of(os.environ)
PY312 = find_python(HOST.pythons, "3.12")
needs_312 = pytest.mark.skipif(PY312 is None, reason="no Python 3.12 on this machine")
HERE = probe(Path(sys.executable))


def make_problem(root: Path, evaluation: str = "") -> Path:
    folder = root / "p"
    (folder / "tests").mkdir(parents=True)
    (folder / "checkpoint_1.md").write_text("spec")
    config = "entry_file: main\ncheckpoints: [checkpoint_1]\n" + evaluation
    (folder / "config.yaml").write_text(config)
    return folder


@needs_312
@pytest.mark.slow
def test_pyenv_versions_are_found_newest_patch_first(tmp_path: Path) -> None:
    assert PY312 is not None
    for patch in ("3.12.0", "3.12.10", "3.12.9"):
        (tmp_path / "versions" / patch / "bin").mkdir(parents=True)
    for patch in ("3.12.9", "3.12.10"):
        (tmp_path / "versions" / patch / "bin" / "python3.12").symlink_to(PY312.executable)
    found = find_python(PythonSearch(tmp_path, ()), "3.12")
    assert found is not None and (found.version, found.prefix) == ("3.12", PY312.prefix)
    assert found.executable == tmp_path / "versions" / "3.12.10" / "bin" / "python3.12"


@needs_312
@pytest.mark.slow
def test_a_shim_that_cannot_run_the_version_is_skipped(tmp_path: Path) -> None:
    assert PY312 is not None
    shims, real = tmp_path / "shims", tmp_path / "real"
    shims.mkdir(), real.mkdir()
    (shims / "python3.12").write_text(
        "#!/bin/sh\necho 'pyenv: python3.12: command not found'\nexit 127\n"
    )
    (shims / "python3.12").chmod(0o755)
    (real / "python3.12").symlink_to(PY312.executable)
    found = find_python(PythonSearch(None, (shims, real)), "3.12")
    assert found is not None and found.executable == real / "python3.12"


@pytest.mark.slow
def test_an_interpreter_of_another_version_is_not_taken(tmp_path: Path) -> None:
    assert HERE is not None
    (tmp_path / "versions" / "3.99.1" / "bin").mkdir(parents=True)
    (tmp_path / "versions" / "3.99.1" / "bin" / "python3.99").symlink_to(HERE.executable)
    assert find_python(PythonSearch(tmp_path, ()), "3.99") is None


@pytest.mark.parametrize("text", ["3", "3.12.1", "three", ""])
def test_a_python_version_is_x_dot_y(text: str) -> None:
    with pytest.raises(BadInput, match="not of the form X.Y"):
        check_version(text, "--python")


def test_a_problem_reads_its_evaluation_settings(tmp_path: Path) -> None:
    text = "evaluation: {profile: native, python: '3.13', toolchains: [uv], network: true}\n"
    problem = load_problem(make_problem(tmp_path, text))
    assert problem.evaluation == Evaluation("native", "3.13", ("uv",), True)
    assert load_problem(make_problem(tmp_path / "b")).evaluation == Evaluation()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("evaluation: {profil: scb}", "unknown key(s) profil"),
        ("evaluation: {profile: docker}", "'evaluation.profile' is 'docker'; use scb or native"),
        ("evaluation: {python: '3'}", "'evaluation.python': Python version '3' is not of the form"),
        ("evaluation: {python: 3.10}", "'evaluation.python' is 3.1; quote the version"),
        ("evaluation: {toolchains: uv}", "'evaluation.toolchains' must be a list"),
        ("evaluation: {network: maybe}", "'evaluation.network' is 'maybe'; use true or false"),
        ("evaluation: [scb]", "'evaluation' must be a mapping"),
    ],
)
def test_bad_evaluation_settings_name_the_file_and_field(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(BadInput, match="config.yaml") as error:
        load_problem(make_problem(tmp_path, text + "\n"))
    assert message in str(error.value)


def bare_host(tmp_path: Path) -> Host:
    """A host whose PATH and HOME hold nothing (uv stays findable beside slopmark's Python)."""
    environ = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    return Host(PythonSearch(tmp_path, ()), lambda names: find_toolchains(environ, names))


def test_scb_is_the_default_profile_and_wants_312_and_its_toolchains(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    found = resolve(problem, EvalOptions(), bare_host(tmp_path))
    assert isinstance(found, MissingEnvironment)
    assert found.profile == "scb" and SCB_PYTHON == "3.12"
    assert found.missing == ("python 3.12", "node", "cc", "c++", "cargo", "rustc")
    assert found.message.startswith(
        "environment error: p needs Python 3.12 (looked in "
        f"{tmp_path}/versions/3.12.*, python3.12 on PATH"
    )
    assert "and toolchain node, cc, c++, cargo, rustc (not on PATH, in" in found.message


def test_native_uses_slopmarks_own_python_and_no_toolchains(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    found = resolve(problem, EvalOptions(profile="native"), bare_host(tmp_path))
    assert isinstance(found, EvalEnvironment)
    assert found.interpreter == HERE and found.toolchains.tools == {}
    assert (found.scb_layout, found.network) == (False, False)


def test_run_options_win_over_the_problems_settings(tmp_path: Path) -> None:
    text = "evaluation: {profile: scb, python: '3.98', toolchains: [], network: true}\n"
    problem = load_problem(make_problem(tmp_path, text))
    assert HERE is not None
    options = EvalOptions(profile="native", python=str(HERE.executable), network=False)
    found = resolve(problem, options, bare_host(tmp_path))
    assert isinstance(found, EvalEnvironment)
    assert (found.profile, found.interpreter, found.network) == ("native", HERE, False)
    missing = resolve(problem, EvalOptions(), bare_host(tmp_path))
    assert isinstance(missing, MissingEnvironment) and missing.missing == ("python 3.98",)


def test_toolchains_are_linked_by_name_and_system_folders_are_not_mounted(tmp_path: Path) -> None:
    found = find_toolchains({"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, ("uv", "cc"))
    assert set(found.tools) >= {"uv", "uvx"}
    folder = link_tools(found, tmp_path / "bin")
    assert (folder / "uv").resolve() == found.tools["uv"].resolve()
    assert all(not path.is_relative_to("/usr") for path in found.folders())
    assert found.tools["uv"].resolve().parent in found.folders()
    assert "uv" not in found.missing(SCB_TOOLCHAINS)


def test_dockers_default_image_is_scbs() -> None:
    """SCB's configs/environments/docker-python3.12-uv-artnet.yaml: ``image:
    ghcr.io/astral-sh/uv:python3.12-trixie-slim``."""
    assert DEFAULT_IMAGE == "ghcr.io/astral-sh/uv:python3.12-trixie-slim"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--env-profile", "docker"), "--env-profile 'docker': use scb or native"),
        (("--python", "3"), "--python: Python version '3' is not of the form X.Y"),
    ],
)
@pytest.mark.slow
def test_bad_evaluation_options_are_one_line_exit_2(tmp_path: Path, args: tuple[str, ...],
                                                      message: str) -> None:  # fmt: skip
    make_problem(tmp_path)
    done = run_cli("code", "bench", "validate", "--problems", str(tmp_path), *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr
