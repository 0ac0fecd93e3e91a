"""Evaluation profiles: finding interpreters and toolchains, problem settings, run options."""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import replace
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
from slopmark.code.bench.runner import BenchConfig, open_run_dir
from slopmark.code.bench.testlayout import command, mounts, open_session
from slopmark.code.bench.toolchains import SCB_TOOLCHAINS, Toolchains, find_toolchains, link_tools
from slopmark.code.bench.uvproject import failure_reason
from slopmark.errors import BadInput
from slopmark.sandbox.base import Mount
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
    uv = load_problem(make_problem(tmp_path / "c", "evaluation: {entrypoint: uv}\n"))
    assert uv.evaluation == Evaluation(entrypoint="uv")
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
        ("evaluation: {entrypoint: pip}", "'evaluation.entrypoint' is 'pip'; use venv or uv"),
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


def test_the_uv_entry_point_wants_uv_whatever_the_toolchains(tmp_path: Path) -> None:
    text = "evaluation: {profile: native, toolchains: [], entrypoint: uv}\n"
    problem = load_problem(make_problem(tmp_path, text))
    found = resolve(problem, EvalOptions(), bare_host(tmp_path))
    assert isinstance(found, EvalEnvironment) and found.entrypoint == "uv"
    assert found.uv_entry == found.toolchains.tools["uv"]
    venv = resolve(problem, EvalOptions(entrypoint="venv"), bare_host(tmp_path))
    assert isinstance(venv, EvalEnvironment) and venv.uv_entry is None
    assert "uv" not in venv.toolchains.tools


def test_the_uv_entry_point_without_uv_is_an_environment_error(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path, "evaluation: {profile: native}\n"))
    no_tools = Host(PythonSearch(tmp_path, ()), lambda names: Toolchains({}, None))
    missing = resolve(problem, EvalOptions(entrypoint="uv"), no_tools)
    assert isinstance(missing, MissingEnvironment) and missing.missing == ("uv",)
    assert "needs toolchain uv (not on PATH" in missing.message
    assert isinstance(resolve(problem, EvalOptions(), no_tools), EvalEnvironment)


def test_the_uv_entry_point_is_uv_run_in_the_project_offline_inside_the_guard(
    tmp_path: Path,
) -> None:
    problem = load_problem(make_problem(tmp_path))
    session = open_session(tmp_path / "session", scb=False)
    project = tmp_path / "envs" / "uv-project-3.12-abc"
    envs = (tmp_path / "test-env", project / ".venv")
    argv = command(problem, problem.checkpoints[0], session, envs, ["bwrap", "--"], Path("/x/uv"))
    (entry,) = [part for part in argv if part.startswith("--entrypoint=")]
    assert shlex.split(entry.removeprefix("--entrypoint=")) == [
        "bwrap", "--", "/x/uv", "run", "--project", str(project), "--offline", "--no-sync",
        "--no-config", str(session.workspace / "main.py"),
    ]  # fmt: skip
    venv = command(problem, problem.checkpoints[0], session, envs)
    assert f"--entrypoint={project}/.venv/bin/python {session.workspace}/main.py" in venv


def test_the_uv_projects_whole_folder_is_mounted_read_only(tmp_path: Path) -> None:
    assert HERE is not None
    session = open_session(tmp_path / "session", scb=False)
    project = tmp_path / "project"
    uv = Toolchains({"uv": tmp_path / "uv"}, None)
    venv = project / ".venv"
    for style, mounted, left_out in (("uv", project, venv), ("venv", venv, project)):
        environment = EvalEnvironment("native", HERE, uv, False, entrypoint=style)
        found = mounts(session, environment, tmp_path / "test-env", venv)
        assert Mount(mounted) in found and Mount(session.root, writable=True) in found
        assert left_out not in {mount.path for mount in found}


def test_uvs_failure_is_its_error_and_causes_on_one_line() -> None:
    """uv 0.13's words when a requirement is not in the wheelhouse (no terminal)."""
    stderr = (
        "Using CPython 3.12.1 interpreter at: /py/bin/python3.12\n"
        "Creating virtual environment at: .venv\n"
        "error: Failed to add dependencies\n"
        "  cause: No solution found when resolving dependencies\n"
        "  cause: Because there is no version of tinydep==0.4 and your project depends on "
        "tinydep==0.4, we can conclude that your project's requirements are unsatisfiable.\n\n"
        "hint: If you want to add the package regardless of the failed resolution, provide the "
        "`--frozen` flag to skip locking and syncing\n"
    )
    assert failure_reason(stderr) == (
        "Failed to add dependencies: No solution found when resolving dependencies: Because "
        "there is no version of tinydep==0.4 and your project depends on tinydep==0.4, we can "
        "conclude that your project's requirements are unsatisfiable."
    )
    assert failure_reason("Killed\n") == "Killed" and failure_reason("") == "no output"


def test_a_run_folder_from_before_an_evaluation_option_resumes_with_its_default(
    tmp_path: Path,
) -> None:
    config = BenchConfig(tmp_path / "run", "replay", None, "just-solve", "bwrap")
    config.run_dir.mkdir()
    old = {"agent": "replay", "model": None, "prompt": "just-solve", "sandbox": "bwrap",
           "evaluation": {"profile": None, "python": None, "network": None}}  # fmt: skip
    (config.run_dir / "run.json").write_text(json.dumps(old))
    open_run_dir(config, [])
    recorded = json.loads((config.run_dir / "run.json").read_text())["evaluation"]
    assert recorded == {"profile": None, "python": None, "network": None, "entrypoint": None,
                        "wheelhouse": None}  # fmt: skip
    with pytest.raises(BadInput, match="--entrypoint-style and --wheelhouse, or pass a new --out"):
        open_run_dir(replace(config, evaluation=EvalOptions(entrypoint="uv")), [])


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
        (("--entrypoint-style", "docker"), "--entrypoint-style 'docker': use venv or uv"),
        (("--wheelhouse", "/no-wheels"), "--wheelhouse /no-wheels: not a folder; give a folder"),
    ],
)
@pytest.mark.slow
def test_bad_evaluation_options_are_one_line_exit_2(tmp_path: Path, args: tuple[str, ...],
                                                      message: str) -> None:  # fmt: skip
    make_problem(tmp_path)
    done = run_cli("code", "bench", "validate", "--problems", str(tmp_path), *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr
