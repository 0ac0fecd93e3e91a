"""Where a test session's files go, and the command and environment it runs with.

Two layouts, chosen by the evaluation profile:

- **scb** (SlopCodeBench's, ``PytestRunner.run``): a fresh folder outside the
  run folder holds ``workspace/`` (a copy of the submission) with the tests in
  ``workspace/.evaluation_tests/`` and ``workspace/pytest.ini``; pytest runs
  from the workspace on the ``.evaluation_tests`` folder. No folder above a
  test is named ``checkpoint_N``, so a test that finds its checkpoint by the
  first ``checkpoint_*`` part of its path sees its own case folder. Static
  assets are given as paths relative to the workspace, as SCB gives them.
- **native**: ``folder/workspace/``, ``folder/tests/``, ``folder/pytest.ini``,
  and pytest runs on the checkpoint's test files by name.

Both copy the tests the way SCB's ``PytestRunner._copy_tests_from_problem``
does: ``conftest.py`` and every other file or folder, but of the
``test_*.py`` files only those of this and (with ``include_prior_tests``)
earlier checkpoints.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.grouping import BUILTIN_MARKERS
from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.code.bench.profiles import SCB_TEST_DIR, EvalEnvironment
from slopmark.code.bench.sandbox.base import Mount
from slopmark.code.bench.toolchains import link_tools

PLUGIN_DIR = Path(__file__).parent / "pytest_report"
PLUGIN = "slopmark_bench_report"
#: Folders of a workspace that are never copied into the test folder.
NOT_COPIED = shutil.ignore_patterns(".venv", "venv", "__pycache__", ".git", "node_modules")
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class Session:
    """The folders of one test session."""

    root: Path
    workspace: Path
    tests: Path
    ini: Path
    scb: bool

    @property
    def report(self) -> Path:
        return self.root / "report.json"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def assets(self) -> Path:
        return self.tests / "assets"


def open_session(folder: Path, scb: bool) -> Session:
    """A fresh session: in ``folder`` (native) or in a new temporary folder (scb)."""
    if scb:
        root = Path(tempfile.mkdtemp(prefix="slopmark-eval-"))
        workspace = root / "workspace"
        return Session(root, workspace, workspace / SCB_TEST_DIR, workspace / "pytest.ini", True)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return Session(folder, folder / "workspace", folder / "tests", folder / "pytest.ini", False)


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)
    else:
        shutil.copy2(source, target)


def _copy_tests(problem: Problem, checkpoint: Checkpoint, tests: Path) -> None:
    tests.mkdir(parents=True)
    wanted = {path.name for path in problem.test_files(checkpoint)}
    for entry in sorted(problem.tests_dir.iterdir()):
        is_test = entry.is_file() and entry.name.startswith("test_") and entry.suffix == ".py"
        if entry.name != "__pycache__" and (not is_test or entry.name in wanted):
            _copy(entry, tests / entry.name)


def _ini(problem: Problem) -> str:
    custom = {name: f"custom ({group})" for name, group in problem.markers.items()}
    markers = {**BUILTIN_MARKERS, **custom}
    lines = "".join(f"    {name}: {text}\n" for name, text in markers.items())
    return f"[pytest]\nmarkers =\n{lines}"


def prepare(problem: Problem, checkpoint: Checkpoint, workspace: Path, session: Session) -> None:
    """Copy the workspace, the tests and the static assets; write pytest.ini."""
    shutil.copytree(workspace, session.workspace, ignore=NOT_COPIED, symlinks=True)
    _copy_tests(problem, checkpoint, session.tests)
    for name, source in problem.static_assets.items():
        session.assets.mkdir(exist_ok=True)
        _copy(source, session.assets / name)
    session.ini.write_text(_ini(problem), encoding="utf-8")
    session.home.mkdir()


def command(
    problem: Problem, checkpoint: Checkpoint, session: Session, test_env: Path, ws_env: Path
) -> list[str]:
    """pytest's command line: the entry point, the checkpoint, the plugin, the timeout."""
    if session.scb:
        targets = [SCB_TEST_DIR]
    else:
        targets = [str(session.tests / path.name) for path in problem.test_files(checkpoint)]
    entry = f"{ws_env / 'bin' / 'python'} {session.workspace / problem.entry_script}"
    timeout = checkpoint.timeout_s or problem.timeout_s
    return [
        str(test_env / "bin" / "python"), "-m", "pytest", *targets,
        "-c", str(session.ini), "--rootdir", str(session.ini.parent),
        "-p", PLUGIN, "-p", "no:cacheprovider", "-q", "--no-header", "-rN",
        f"--timeout={timeout:g}",
        f"--entrypoint={shlex.join(shlex.split(entry))}", f"--checkpoint={checkpoint.name}",
    ]  # fmt: skip


def _asset_env(problem: Problem, session: Session) -> dict[str, str]:
    if not problem.static_assets and session.scb:
        return {}
    base = Path(SCB_TEST_DIR, "assets") if session.scb else session.assets
    names = {f"SCBENCH_ASSET_{name.upper()}": str(base / name) for name in problem.static_assets}
    return {"SCBENCH_ASSETS_DIR": str(base), **names}


def _toolchain_env(environment: EvalEnvironment, session: Session) -> dict[str, str]:
    """Writable caches in the session's home; rustup's toolchains read-only; uv on our Python."""
    tools = environment.toolchains
    env = {}
    if "cargo" in tools.tools:
        env["CARGO_HOME"] = str(session.home / ".cargo")
    if tools.rustup_home is not None:
        env["RUSTUP_HOME"] = str(tools.rustup_home)
    if "uv" in tools.tools:
        env["UV_CACHE_DIR"] = str(session.home / ".cache" / "uv")
        env["UV_PYTHON"] = str(environment.interpreter.executable)
        env["UV_PYTHON_DOWNLOADS"] = "never"
    return env


def environment_variables(
    problem: Problem, checkpoint: Checkpoint, session: Session, environment: EvalEnvironment,
    ws_env: Path,
) -> dict[str, str]:  # fmt: skip
    """Exactly what the test session sees (nothing is inherited from the caller)."""
    path = [str(ws_env / "bin"), SYSTEM_PATH]
    if environment.toolchains.tools:
        path.insert(1, str(link_tools(environment.toolchains, session.root / "bin")))
    return {
        "PATH": ":".join(path),
        "HOME": str(session.home),
        "PYTHONPATH": str(PLUGIN_DIR),
        "PYTHONDONTWRITEBYTECODE": "1",
        "SLOPMARK_BENCH_REPORT": str(session.report),
        "SCBENCH_CHECKPOINT": checkpoint.name,
        **_asset_env(problem, session),
        **_toolchain_env(environment, session),
    }


def mounts(
    session: Session, environment: EvalEnvironment, test_env: Path, ws_env: Path
) -> list[Mount]:
    """The session (writable); environments, interpreter and toolchains (read-only)."""
    read_only = [test_env, ws_env, PLUGIN_DIR, environment.interpreter.prefix,
                 *environment.toolchains.folders()]  # fmt: skip
    return [Mount(session.root, writable=True), *(Mount(path) for path in dict.fromkeys(read_only))]


def keep_artefacts(session: Session, folder: Path) -> None:
    """Move a temporary session's report, log and pytest.ini into ``folder``; drop the rest."""
    if not session.scb:
        return
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for path in (session.report, session.root / "pytest.log", session.ini):
        if path.is_file():
            shutil.copy2(path, folder / path.name)
    shutil.rmtree(session.root, ignore_errors=True)
