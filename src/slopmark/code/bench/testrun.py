"""Run a problem's hidden tests against a workspace in a fresh, network-less sandbox.

The workspace is copied into a fresh folder next to a copy of the problem's
tests; pytest runs there with ``--entrypoint`` (the workspace environment's
python and the entry script) and ``--checkpoint``, and a plugin writes a
machine-readable report. Tests are grouped the SlopCodeBench way: the
``error`` marker wins, then ``regression`` (the marker, or a test file of an
earlier checkpoint), then the problem's custom markers, then
``functionality``; unmarked tests are core.
"""

from __future__ import annotations

import json
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.code.bench.results import CaseOutcome
from slopmark.code.bench.sandbox.base import Execution, Limits, Mount, Sandbox

PLUGIN_DIR = Path(__file__).parent / "pytest_report"
PLUGIN = "slopmark_bench_report"
#: Folders of a workspace that are never copied into the test folder.
NOT_COPIED = shutil.ignore_patterns(".venv", "venv", "__pycache__", ".git", "node_modules")
#: How a test error starts when the harness, not the submission, is at fault.
NO_REPORT = "pytest wrote no report"
BUILTIN_MARKERS = {
    "error": "error-handling / edge-case tests",
    "functionality": "non-core / nice-to-have tests",
    "regression": "regression tests from prior checkpoints",
}


@dataclass(frozen=True)
class HiddenTestRun:
    tests: tuple[CaseOutcome, ...]
    #: Why no report came back (a limit, a crashed session); None when it did.
    error: str | None


def group_of(record: dict[str, Any], checkpoint: Checkpoint, custom: dict[str, str]) -> str:
    markers = set(record.get("markers", []))
    if "error" in markers:
        return "error"
    own_file = f"test_{checkpoint.name}.py"
    if "regression" in markers or Path(str(record.get("file", ""))).name != own_file:
        return "regression"
    for marker in sorted(markers & set(custom)):
        return custom[marker].lower()
    return "functionality" if "functionality" in markers else "core"


def prepare(problem: Problem, checkpoint: Checkpoint, workspace: Path, folder: Path) -> Path:
    """Lay out ``folder``: ``workspace/`` (a copy), ``tests/`` and ``pytest.ini``; the tests dir."""
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(workspace, folder / "workspace", ignore=NOT_COPIED, symlinks=True)
    tests = folder / "tests"
    tests.mkdir()
    for path in problem.test_files(checkpoint):
        shutil.copy2(path, tests / path.name)
    for extra in problem.tests_dir.iterdir():
        if not extra.name.startswith("test_checkpoint_") and extra.name != "__pycache__":
            copy = shutil.copytree if extra.is_dir() else shutil.copy2
            copy(extra, tests / extra.name)
    for name, source in problem.static_assets.items():
        target = tests / "assets" / name
        target.parent.mkdir(exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, target)
    custom = {name: f"custom ({group})" for name, group in problem.markers.items()}
    markers = {**BUILTIN_MARKERS, **custom}
    lines = "".join(f"    {name}: {text}\n" for name, text in markers.items())
    (folder / "pytest.ini").write_text(f"[pytest]\nmarkers =\n{lines}", encoding="utf-8")
    return tests


def command(
    problem: Problem, checkpoint: Checkpoint, folder: Path, test_env: Path, ws_env: Path
) -> list[str]:
    files = [str(folder / "tests" / path.name) for path in problem.test_files(checkpoint)]
    entry = f"{ws_env / 'bin' / 'python'} {folder / 'workspace' / problem.entry_script}"
    timeout = checkpoint.timeout_s or problem.timeout_s
    return [
        str(test_env / "bin" / "python"), "-m", "pytest", *files,
        "-c", str(folder / "pytest.ini"), "--rootdir", str(folder),
        "-p", PLUGIN, "-p", "no:cacheprovider", "-q", "--no-header", "-rN",
        f"--timeout={timeout:g}",
        f"--entrypoint={shlex.join(shlex.split(entry))}", f"--checkpoint={checkpoint.name}",
    ]  # fmt: skip


def session_limits(problem: Problem, checkpoint: Checkpoint) -> Limits:
    per_test = checkpoint.timeout_s or problem.timeout_s
    return Limits(wall_s=max(300.0, per_test * 20), memory_mb=4096, max_procs=256, network=False)


def run_tests(
    problem: Problem,
    checkpoint: Checkpoint,
    workspace: Path,
    folder: Path,
    *,
    sandbox: Sandbox,
    test_env: Path,
    ws_env: Path,
    limits: Limits | None = None,
) -> HiddenTestRun:
    """Run the hidden tests of ``checkpoint`` (and earlier ones) against ``workspace``."""
    prepare(problem, checkpoint, workspace, folder)
    report = folder / "report.json"
    env = {
        "PATH": f"{ws_env / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(folder),
        "PYTHONPATH": str(PLUGIN_DIR),
        "PYTHONDONTWRITEBYTECODE": "1",
        "SLOPMARK_BENCH_REPORT": str(report),
        "SCBENCH_CHECKPOINT": checkpoint.name,
        "SCBENCH_ASSETS_DIR": str(folder / "tests" / "assets"),
        **{f"SCBENCH_ASSET_{name.upper()}": str(folder / "tests" / "assets" / name)
           for name in problem.static_assets},
    }  # fmt: skip
    execution = sandbox.run(
        command(problem, checkpoint, folder, test_env, ws_env),
        workdir=folder / "workspace",
        mounts=[Mount(folder, writable=True), Mount(test_env), Mount(ws_env), Mount(PLUGIN_DIR)],
        limits=limits or session_limits(problem, checkpoint),
        env=env,
    )
    (folder / "pytest.log").write_text(execution.stdout + execution.stderr, encoding="utf-8")
    return _read(report, execution, checkpoint, problem.markers)


def _load(report: Path) -> dict[str, Any] | None:
    try:
        payload: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return payload


def _read(
    report: Path, execution: Execution, checkpoint: Checkpoint, custom: dict[str, str]
) -> HiddenTestRun:
    """The tests of a finished session; an error when the session never finished."""
    payload = _load(report)
    if payload is None:
        if execution.limit is not None:
            why = f"the test session was stopped by the {execution.limit} limit"
            return HiddenTestRun((), why)
        tail = (execution.stderr or execution.stdout).strip().splitlines()[-3:]
        why = " / ".join(tail) or f"exit code {execution.returncode}"
        return HiddenTestRun((), f"{NO_REPORT} ({why})")
    tests = tuple(
        CaseOutcome(
            nodeid=str(record["nodeid"]),
            group=group_of(record, checkpoint, custom),
            outcome=str(record["outcome"]),
            duration_s=float(record.get("duration_s", 0.0)),
            message=record.get("message"),
        )
        for record in payload["tests"]
    )
    if not tests:
        why = f"pytest collected no tests (exit status {payload['exitstatus']})"
        return HiddenTestRun((), why)
    return HiddenTestRun(tests, None)
