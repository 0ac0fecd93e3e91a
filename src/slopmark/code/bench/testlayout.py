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

The submission configures nothing of its own evaluation (see
docs/bench-evaluation.md, "What the measured cannot change"): a
``.evaluation_tests`` folder of its own is not copied; pytest starts from a
harness script in isolated mode (`command`), with the harness's ``pytest.ini``
(``-c``), conftest boundary (``--confcutdir``: the tests' folder) and plugin;
and the submission runs in a sandbox nested in the session's when the backend
can nest one (`guard_paths`): the hidden tests' code, the report and the
harness's files are out of its reach, the tests' data files (which tests hand
to it as input) read-only, and the variables that tell a test run
(``PYTEST_*``, ``SCBENCH_CHECKPOINT``) are not in its environment.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.grouping import BUILTIN_MARKERS
from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.code.bench.profiles import SCB_TEST_DIR, EvalEnvironment
from slopmark.code.bench.toolchains import link_tools
from slopmark.sandbox.base import Mount

PLUGIN_DIR = Path(__file__).parent / "pytest_report"
PLUGIN = "slopmark_bench_report"
LAUNCHER = PLUGIN_DIR / "run_hidden_tests.py"
#: Folders of a workspace that are never copied into the test folder.
NOT_COPIED = shutil.ignore_patterns(".venv", "venv", "__pycache__", ".git", "node_modules")
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
#: Tools told to stay offline when the tests have no network: they use what the
#: dependency phase fetched (`deps`) and say "offline" when something is missing.
OFFLINE = {"CARGO_NET_OFFLINE": "true", "npm_config_offline": "true"}
#: Variables the submission never sees, though the session around it has them.
HARNESS_VARIABLES = (
    "PYTEST_CURRENT_TEST", "PYTEST_VERSION", "PYTEST_ADDOPTS", "PYTEST_PLUGINS",
    "SCBENCH_CHECKPOINT", "SLOPMARK_BENCH_REPORT", "SLOPMARK_BENCH_REPORT_FD",
    "SLOPMARK_BENCH_WORKSPACE", "SLOPMARK_BENCH_TESTS",
)  # fmt: skip


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
        """The report as kept with the checkpoint's artefacts."""
        return self.root / "report.jsonl"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def assets(self) -> Path:
        return self.tests / "assets"

    @property
    def harness(self) -> Path:
        """The harness's own files (the report when no descriptor can carry it)."""
        return self.root / "harness"

    @property
    def tools(self) -> Path:
        return self.root / "bin"


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


def not_copied(top: Path | None = None) -> Callable[[str, list[str]], set[str]]:
    """What a copy of a workspace leaves out: `NOT_COPIED`, files that are neither regular
    files, folders nor links (a FIFO would block the copy), and in ``top`` a
    ``.evaluation_tests`` of the submission's own."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set(NOT_COPIED(folder, names))
        skipped.update(name for name in names if _special(os.path.join(folder, name)))
        if top is not None and Path(folder) == top:
            skipped.add(SCB_TEST_DIR)
        return skipped

    return ignore


def _special(path: str) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return True
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def prepare(problem: Problem, checkpoint: Checkpoint, workspace: Path, session: Session) -> None:
    """Copy the workspace, the tests and the static assets; write pytest.ini."""
    shutil.copytree(workspace, session.workspace, ignore=not_copied(workspace), symlinks=True)
    session.ini.unlink(missing_ok=True)  # the submission's own, maybe a link out
    _copy_tests(problem, checkpoint, session.tests)
    for name, source in problem.static_assets.items():
        session.assets.mkdir(exist_ok=True)
        _copy(source, session.assets / name)
    session.ini.write_text(_ini(problem), encoding="utf-8")
    session.home.mkdir()
    session.harness.mkdir()


def guard_paths(session: Session) -> tuple[list[Path], list[Path]]:
    """What the submission's own sandbox hides (the hidden tests' code, the harness's files)
    and keeps read-only (the tests' folder, whose data files tests hand to the
    submission, the toolchain links, pytest.ini)."""
    code = sorted(path for path in session.tests.rglob("*.py") if not path.is_symlink())
    hide = [*code, session.harness]
    keep = [path for path in (session.tests, session.tools, session.ini) if path.exists()]
    return hide, keep


def entry_point(uv: Path | None, ws_env: Path, script: Path) -> list[str]:
    """The command that runs ``script``: the venv's python, or (given ``uv``) ``uv run``
    in the project whose environment ``ws_env`` is (see `uvproject`), offline and
    without syncing."""
    if uv is None:
        return [str(ws_env / "bin" / "python"), str(script)]
    return [str(uv), "run", "--project", str(ws_env.parent), "--offline", "--no-sync",
            "--no-config", str(script)]  # fmt: skip


def runtime_folder(uv: Path | None, ws_env: Path) -> Path:
    """What the test session mounts read-only: the venv, or the whole project around it."""
    return ws_env if uv is None else ws_env.parent


def command(
    problem: Problem,
    checkpoint: Checkpoint,
    session: Session,
    envs: tuple[Path, Path],
    guard: Sequence[str] = (),
    uv: Path | None = None,
    only: Sequence[str] = (),
) -> list[str]:
    """pytest's command line: the entry point (in its ``guard``; run by ``uv`` when given,
    see `uvproject`), the checkpoint, the plugin, the timeout; ``envs`` are the test
    and the workspace environments. ``only`` (node ids, relative to the session's
    rootdir) runs just those tests."""
    test_env, ws_env = envs
    if only:
        targets = [f"{session.ini.parent}/{nodeid}" for nodeid in only]  # a Path folds "//"
    elif session.scb:
        targets = [SCB_TEST_DIR]
    else:
        targets = [str(session.tests / path.name) for path in problem.test_files(checkpoint)]
    entry = [*guard, *entry_point(uv, ws_env, session.workspace / problem.entry_script)]
    timeout = checkpoint.timeout_s or problem.timeout_s
    return [
        str(test_env / "bin" / "python"), "-I", "-B", str(LAUNCHER), *targets,
        "-c", str(session.ini), "--rootdir", str(session.ini.parent),
        "--confcutdir", str(session.tests),
        "-p", PLUGIN, "-p", "no:cacheprovider", "-q", "--no-header", "-rN",
        f"--timeout={timeout:g}",
        f"--entrypoint={shlex.join(entry)}", f"--checkpoint={checkpoint.name}",
    ]  # fmt: skip


def _asset_env(problem: Problem, session: Session) -> dict[str, str]:
    if not problem.static_assets and session.scb:
        return {}
    base = Path(SCB_TEST_DIR, "assets") if session.scb else session.assets
    names = {f"SCBENCH_ASSET_{name.upper()}": str(base / name) for name in problem.static_assets}
    return {"SCBENCH_ASSETS_DIR": str(base), **names}


def toolchain_variables(environment: EvalEnvironment, session: Session) -> dict[str, str]:
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


def link_toolchains(environment: EvalEnvironment, session: Session) -> None:
    """The toolchains' links in the session's ``bin/`` (before the guard is drawn)."""
    if environment.toolchains.tools:
        link_tools(environment.toolchains, session.tools)


def environment_variables(
    problem: Problem, checkpoint: Checkpoint, session: Session, environment: EvalEnvironment,
    ws_env: Path, report: dict[str, str],
) -> dict[str, str]:  # fmt: skip
    """Exactly what the test session sees (nothing is inherited from the caller);
    ``report`` names the report's descriptor or file for the plugin."""
    path = [str(ws_env / "bin"), SYSTEM_PATH]
    if environment.toolchains.tools:
        path.insert(1, str(session.tools))
    return {
        **problem_variables(problem, checkpoint),
        "PATH": ":".join(path),
        "HOME": str(session.home),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "SCBENCH_CHECKPOINT": checkpoint.name,
        "SLOPMARK_BENCH_WORKSPACE": str(session.workspace),
        "SLOPMARK_BENCH_TESTS": str(session.tests),
        **report,
        **_asset_env(problem, session),
        **toolchain_variables(environment, session),
        **({} if environment.network else OFFLINE),
    }


def problem_variables(problem: Problem, checkpoint: Checkpoint) -> dict[str, str]:
    """The problem's and the checkpoint's ``env:`` (the checkpoint's win, as SCB's
    ``nested_priority_merge``); the harness's own variables (``PATH``, ``HOME``, the
    report's) are set after them and win."""
    return {**problem.env, **checkpoint.env}


def mounts(
    session: Session, environment: EvalEnvironment, test_env: Path, ws_env: Path
) -> list[Mount]:
    """The session (writable); environments, interpreter and toolchains (read-only)."""
    runtime = runtime_folder(environment.uv_entry, ws_env)
    read_only = [test_env, runtime, PLUGIN_DIR, environment.interpreter.prefix,
                 *environment.toolchains.folders()]  # fmt: skip
    return [Mount(session.root, writable=True), *(Mount(path) for path in dict.fromkeys(read_only))]


def keep_artefacts(session: Session, folder: Path) -> None:
    """Move a temporary session's report, log and pytest.ini into ``folder``; drop the rest."""
    if not session.scb:
        return
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for path in (session.report, session.root / "pytest.log", session.ini):
        if path.is_file() and not path.is_symlink():
            shutil.copy2(path, folder / path.name)
    shutil.rmtree(session.root, ignore_errors=True)
