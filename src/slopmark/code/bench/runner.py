"""Drive a run directory: agent → snapshot → hidden tests → metrics, checkpoint by checkpoint.

```
RUN_DIR/run.json                        what was asked (agent, model, prompt, sandbox)
RUN_DIR/envs/                           workspace environments (by requirements)
RUN_DIR/<problem>/workspace/            the agent's live workspace
RUN_DIR/<problem>/<checkpoint>/agent/   prompt and the agent's logs
RUN_DIR/<problem>/<checkpoint>/workspace/  the snapshot that was tested and measured
RUN_DIR/<problem>/<checkpoint>/eval/    the hidden tests' folder, report and log
RUN_DIR/<problem>/<checkpoint>/result.json  written last: the checkpoint is done
```
A checkpoint with a ``result.json`` is never run or scored again, so running
the same command on the same RUN_DIR resumes where it stopped.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from slopmark.code.bench.agents.base import Agent, AgentOutcome, AgentTask
from slopmark.code.bench.envs import hidden_test_environment
from slopmark.code.bench.integrity import Integrity, scan, session_findings
from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.code.bench.profiles import EvalEnvironment, EvalOptions, Host, resolve
from slopmark.code.bench.prompts import PromptTemplate
from slopmark.code.bench.quality import has_files, measure_workspace
from slopmark.code.bench.rerun import rerun_load_sensitive
from slopmark.code.bench.results import (
    CaseOutcome,
    CheckpointResult,
    CheckpointStatus,
    read_result,
    write_result,
)
from slopmark.code.bench.testlayout import not_copied
from slopmark.code.bench.testrun import HiddenTestRun, run_tests
from slopmark.code.bench.uvproject import entry_environment
from slopmark.errors import BadInput, SlopmarkError
from slopmark.sandbox.base import Limits, Sandbox

RESULT = "result.json"
#: What a resumed run must agree on with the run that started the folder.
IDENTITY = ("agent", "model", "prompt")

OnResult = Callable[[CheckpointResult], None]


@dataclass(frozen=True)
class BenchConfig:
    run_dir: Path
    agent: str
    model: str | None
    prompt: str
    sandbox: str
    timeout_s: float = 7200.0
    jobs: int = 1
    agent_options: dict[str, str] = field(default_factory=dict)
    #: The agent's memory (address space) and process limits in its sandbox.
    agent_memory_mb: int | None = 16384
    agent_max_procs: int | None = 512
    #: How the hidden tests run: profile, Python, network (see `profiles`).
    evaluation: EvalOptions = field(default_factory=EvalOptions)
    #: The rules each checkpoint is measured with: the paper's frozen pack by default, so a
    #: run's verbosity stays comparable with the paper's tables.
    rule_set: str = "paper"


@dataclass(frozen=True)
class ProblemFailure:
    problem: str
    error: str


def open_run_dir(config: BenchConfig, problems: Sequence[Problem]) -> None:
    """Create RUN_DIR/run.json, or check that an existing one asked for the same run."""
    config.run_dir.mkdir(parents=True, exist_ok=True)
    manifest = config.run_dir / "run.json"
    wanted = {key: getattr(config, key) for key in (*IDENTITY, "sandbox")}
    before = json.loads(manifest.read_text(encoding="utf-8")) if manifest.is_file() else {}
    for key in IDENTITY:
        if before and before.get(key) != wanted[key]:
            raise BadInput(
                f"{manifest}: this run folder was started with {key}={before.get(key)!r}, "
                f"not {wanted[key]!r}; resume with the same options or pass a new --out"
            )
    evaluation = asdict(config.evaluation)
    # A run folder from before an option existed recorded no value for it: the default.
    recorded = {**asdict(EvalOptions()), **before.get("evaluation", evaluation)}
    if recorded != evaluation:
        raise BadInput(
            f"{manifest}: this run folder was started with evaluation options "
            f"{recorded}, not {evaluation}; resume with the same --env-profile, --python, "
            "--test-network, --entrypoint-style and --wheelhouse, or pass a new --out"
        )
    _check_rule_set(manifest, before, config.rule_set)
    seen = sorted({p.name for p in problems} | set(before.get("problems", [])))
    record = {**wanted, "evaluation": evaluation, "rule_set": config.rule_set, "problems": seen,
              "started": before.get("started", time.time())}  # fmt: skip
    manifest.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _check_rule_set(manifest: Path, before: dict[str, Any], rule_set: str) -> None:
    """Refuse to resume a run folder with another rule set (one from before the sets
    existed ran the paper's pack)."""
    recorded = before.get("rule_set", "paper") if before else rule_set
    if recorded != rule_set:
        raise BadInput(
            f"{manifest}: this run folder was started with --rules-set {recorded}, not "
            f"{rule_set}; resume with the same --rules-set or pass a new --out"
        )


#: What `hidden_folders` hides, as the integrity report names it (no machine's paths).
HIDDEN_ROLES = ("problems folder", "run folder")


def hidden_folders(problem: Problem, run_dir: Path) -> tuple[Path, ...]:
    """What every sandbox of a chain hides: the problems' folder (the hidden tests and
    reference solutions of every problem in it) and the run folder (earlier
    checkpoints' reports and snapshots); what a sandbox needs inside them is mounted
    again over the hidden folder."""
    found = {problem.root.resolve().parent, run_dir.resolve()}
    return tuple(sorted(path for path in found if len(path.parts) > 1))


def load_results(run_dir: Path) -> list[CheckpointResult]:
    """Every finished checkpoint in ``run_dir``, by problem and order."""
    found = [read_result(path) for path in sorted(run_dir.glob(f"*/*/{RESULT}"))]
    return sorted(found, key=lambda r: (r.problem, r.index))


def _finished(result_path: Path) -> bool:
    """A checkpoint with a result, unless it is an environment error met before the agent
    ran (a missing Python or toolchain: retried). One met by the tests after the agent
    ran (the network was off) stands: the next checkpoints build on its workspace."""
    if not result_path.is_file():
        return False
    result = read_result(result_path)
    return result.status != "env_error" or result.agent is not None


def _copy_tree(source: Path | None, target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
    if source is None:
        target.mkdir(parents=True)
    else:
        shutil.copytree(source, target, ignore=not_copied(), symlinks=True)


class ProblemRun:
    """One problem's checkpoints, in order, resumable."""

    def __init__(self, bench: BenchRun, problem: Problem) -> None:
        self.bench = bench
        self.problem = problem
        self.folder = bench.config.run_dir / problem.name
        self.live = self.folder / "workspace"
        self.hidden = hidden_folders(problem, bench.config.run_dir)

    def run(self) -> list[CheckpointResult]:
        found = resolve(self.problem, self.bench.config.evaluation, self.bench.host)
        if not isinstance(found, EvalEnvironment):
            return [
                self._env_error(c, i, found.message) for i, c in enumerate(self.problem.checkpoints)
            ]
        self.environment = found
        self.test_env = hidden_test_environment(self.problem.test_dependencies, found.interpreter)
        results: list[CheckpointResult] = []
        previous: Path | None = None
        failed = False
        for index, checkpoint in enumerate(self.problem.checkpoints):
            result_path = self.folder / checkpoint.name / RESULT
            if _finished(result_path):
                result = read_result(result_path)
            elif failed:
                result = self._not_run(checkpoint, index)
                write_result(self._fresh(checkpoint) / RESULT, result)
            else:
                result = self._checkpoint(checkpoint, index, previous)
            self.bench.finished(result)
            results.append(result)
            failed = failed or result.status in ("agent_failed", "not_run")
            snapshot = self.folder / checkpoint.name / "workspace"
            previous = snapshot if snapshot.is_dir() else previous
        return results

    def _fresh(self, checkpoint: Checkpoint) -> Path:
        folder = self.folder / checkpoint.name
        shutil.rmtree(folder, ignore_errors=True)  # a checkpoint killed half-way
        folder.mkdir(parents=True)
        return folder

    def _env_error(self, checkpoint: Checkpoint, index: int, message: str) -> CheckpointResult:
        """An environment error, recorded without running the agent (redone on resume);
        a checkpoint that already finished keeps its result."""
        result_path = self.folder / checkpoint.name / RESULT
        if _finished(result_path):
            result = read_result(result_path)
        else:
            result = self._result(checkpoint, index, "env_error", None, error=message)
            write_result(self._fresh(checkpoint) / RESULT, result)
        self.bench.finished(result)
        return result

    def _not_run(self, checkpoint: Checkpoint, index: int) -> CheckpointResult:
        return self._result(
            checkpoint, index, "not_run", None, error="an earlier checkpoint's agent failed"
        )

    def _result(
        self,
        checkpoint: Checkpoint,
        index: int,
        status: CheckpointStatus,
        agent: AgentOutcome | None,
        **rest: Any,
    ) -> CheckpointResult:
        return CheckpointResult(
            problem=self.problem.name, problem_version=self.problem.version,
            checkpoint=checkpoint.name, order=checkpoint.order, index=index,
            count=len(self.problem.checkpoints), status=status, agent=agent,
            source=self.problem.source, **rest,
        )  # fmt: skip

    def _restore_live(self, previous: Path | None) -> None:
        marker = self.folder / "live-after"
        expected = previous.parent.name if previous is not None else ""
        if self.live.is_dir() and marker.is_file() and marker.read_text() == expected:
            return
        _copy_tree(previous, self.live)
        marker.write_text(expected)

    def _checkpoint(
        self, checkpoint: Checkpoint, index: int, previous: Path | None
    ) -> CheckpointResult:
        started = time.perf_counter()
        folder = self._fresh(checkpoint)
        self._restore_live(previous)
        (self.folder / "live-after").unlink()
        outcome = self._agent(checkpoint, index, folder)
        snapshot = folder / "workspace"
        _copy_tree(self.live, snapshot)
        (self.folder / "live-after").write_text(checkpoint.name)
        timings = {"agent_s": outcome.wall_s}
        status: CheckpointStatus = "agent_failed"
        tests: tuple[CaseOutcome, ...] = ()
        error = outcome.error
        run = None
        if outcome.status == "ok":
            run = self._tests(checkpoint, snapshot, folder / "eval", timings)
            status, tests, error = run.status, run.tests, run.error
        quality_started = time.perf_counter()
        rule_set = self.bench.config.rule_set
        quality = measure_workspace(snapshot, previous, rule_set) if has_files(snapshot) else None
        timings["metrics_s"] = time.perf_counter() - quality_started
        timings["total_s"] = time.perf_counter() - started
        result = self._result(
            checkpoint, index, status, outcome, tests=tests, quality=quality, error=error,
            timings=timings, integrity=self._integrity(checkpoint, snapshot, run),
            **self._setting(run),
        )  # fmt: skip
        write_result(folder / RESULT, result)
        return result

    def _setting(self, run: HiddenTestRun | None) -> dict[str, Any]:
        """What the tests ran with: the network (and who chose it), the dependency phase."""
        if run is None:
            return {}
        environment = self.environment
        return {"network": environment.network, "network_from": environment.network_from,
                "setup": run.setup}  # fmt: skip

    def _integrity(
        self, checkpoint: Checkpoint, snapshot: Path, run: HiddenTestRun | None
    ) -> Integrity:
        guarded = None if run is None else run.guarded
        found = scan(snapshot, self.problem.test_files(checkpoint), guarded)
        if run is not None:
            found += session_findings(run.cut_short, run.kept_out)
        return Integrity(tuple(found), guarded, HIDDEN_ROLES)

    def _agent(self, checkpoint: Checkpoint, index: int, folder: Path) -> AgentOutcome:
        config = self.bench.config
        prompt = self.bench.template.render(
            spec=checkpoint.spec, is_continuation=index > 0, entry_file=self.problem.entry_script
        )
        log_dir = folder / "agent"
        log_dir.mkdir()
        (log_dir / "prompt.md").write_text(prompt, encoding="utf-8")
        task = AgentTask(
            problem=self.problem, checkpoint=checkpoint, prompt=prompt,
            is_continuation=index > 0, workspace=self.live, log_dir=log_dir, model=config.model,
            sandbox=self.bench.sandbox,
            limits=Limits(
                wall_s=config.timeout_s,
                memory_mb=config.agent_memory_mb,
                max_procs=config.agent_max_procs,
                network=False,
            ),
            hidden=self.hidden,
        )  # fmt: skip
        return self.bench.agent.run(task)

    def _tests(
        self, checkpoint: Checkpoint, snapshot: Path, folder: Path, timings: dict[str, float]
    ) -> HiddenTestRun:
        started = time.perf_counter()
        envs = self.bench.config.run_dir / "envs"
        ws_env, install_error = entry_environment(
            snapshot, envs, self.bench.sandbox, self.environment, self.hidden
        )
        if install_error is not None:
            timings["tests_s"] = time.perf_counter() - started
            return HiddenTestRun((), install_error, "test_error")

        def session(only: Sequence[str] = ()) -> HiddenTestRun:
            """A session of every test, or of ``only`` these (kept in ``eval-rerun``)."""
            where = folder.with_name(f"{folder.name}-rerun") if only else folder
            return run_tests(
                self.problem, checkpoint, snapshot, where, sandbox=self.bench.sandbox,
                environment=self.environment, test_env=self.test_env, ws_env=ws_env,
                hidden=self.hidden, only=only,
            )  # fmt: skip

        run = rerun_load_sensitive(session(), session)
        timings["tests_s"] = time.perf_counter() - started
        return run


class BenchRun:
    """A run over several problems (``jobs`` of them at a time)."""

    def __init__(
        self,
        config: BenchConfig,
        *,
        sandbox: Sandbox,
        agent: Agent,
        template: PromptTemplate,
        host: Host,
        on_result: OnResult | None = None,
    ) -> None:
        self.config = config
        self.host = host
        self.sandbox = sandbox
        self.agent = agent
        self.template = template
        self._on_result = on_result
        self._lock = threading.Lock()

    def finished(self, result: CheckpointResult) -> None:
        if self._on_result is not None:
            with self._lock:
                self._on_result(result)

    def run(
        self, problems: Sequence[Problem]
    ) -> tuple[list[CheckpointResult], list[ProblemFailure]]:
        """Run every problem; a problem that cannot run is reported, the others go on."""
        open_run_dir(self.config, problems)
        with ThreadPoolExecutor(max_workers=max(1, self.config.jobs)) as pool:
            outcomes = list(pool.map(self._one, problems))
        results = [r for done, _ in outcomes for r in done]
        failures = [failure for _, failure in outcomes if failure is not None]
        return results, failures

    def _one(self, problem: Problem) -> tuple[list[CheckpointResult], ProblemFailure | None]:
        try:
            return ProblemRun(self, problem).run(), None
        except SlopmarkError as error:
            return [], ProblemFailure(problem.name, str(error))
