"""One bench chain as a unit of a sweep: a problem's checkpoints, in order, on one worker.

A chain wraps `runner.ProblemRun` (the per-problem runner; the workspace is
carried from checkpoint to checkpoint) and stores each checkpoint as it ends.

- **In place** (the local executor, or ``--shared`` run folders): the worker
  works in the run folder itself, exactly as a run on one machine does.
- **Shipped** (a cluster): the worker works in a scratch folder. The driver
  hands it the checkpoints already finished (so a chain restarted after its
  node died resumes after the last of them, not from checkpoint 1), and each
  checkpoint the worker finishes travels back as a `Parcel` before the worker
  goes on; the live workspace follows at the end. The driver's run folder ends
  up with the same layout as a local run's, so ``code bench report`` reads it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from slopmark.code.bench.problem import Problem
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.runner import RESULT, BenchConfig, BenchRun, ProblemRun
from slopmark.executor import Resources, Task, Unit, outbox
from slopmark.sweep.parcels import Parcel, pack, unpack

#: What follows the checkpoints home at the end of a shipped chain.
TAIL = ("workspace", "live-after")


@dataclass(frozen=True)
class ChainJob:
    """What a worker needs to run (or resume) one chain."""

    config: BenchConfig
    problem: Problem
    db_url: str | None
    shipped: bool
    #: the finished checkpoints the driver holds (shipped chains only)
    carried: bytes = b""


def finished_checkpoints(folder: Path) -> list[str]:
    """The checkpoint folders of a problem's folder that hold a result."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / RESULT).is_file())


def prepare_chain(job: ChainJob) -> Task:
    """The task of ``job`` with what the driver holds now (called before every start)."""
    if job.shipped:
        folder = job.config.run_dir / job.problem.name
        job = replace(job, carried=pack(folder, finished_checkpoints(folder)))
    return partial(run_chain, job)


def chain_unit(job: ChainJob) -> Unit:
    sandbox = job.config.sandbox != "none-unsafe"
    return Unit(
        key=f"{job.config.run_dir.name}/{job.problem.name}",
        prepare=partial(prepare_chain, job),
        resources=Resources(cpus=1, sandbox=sandbox),
        label=f"{job.problem.name} ({job.config.prompt})",
    )


class _Chain:
    """The worker side: stores and reports each checkpoint, ships it when asked to."""

    def __init__(self, job: ChainJob, run_dir: Path, carried: Sequence[str]) -> None:
        from slopmark.code.bench.agents.base import make_agent
        from slopmark.code.bench.profiles import host_of
        from slopmark.code.bench.prompts import load_prompt
        from slopmark.sandbox.base import choose_sandbox

        self.job, self.run_dir, self.carried = job, run_dir, set(carried)
        config = replace(job.config, run_dir=run_dir)
        self.bench = BenchRun(
            config,
            sandbox=choose_sandbox(config.sandbox),
            agent=make_agent(config.agent, config.agent_options),
            template=load_prompt(config.prompt),
            host=host_of(os.environ),  # this worker's interpreters and toolchains
            on_result=self.finished,
        )

    def finished(self, result: CheckpointResult) -> None:
        """Store the checkpoint (its marker goes home with it), ship it, report it."""
        config, problem = self.job.config, self.job.problem.name
        if self.job.db_url is not None:
            from slopmark.code.bench.ledger import Origin, store_result
            from slopmark.store.db import cached_store

            engine = cached_store(self.job.db_url)
            origin = Origin(config.run_dir.name, self.job.problem.root.parent.name)
            store_result(
                engine, self.run_dir, result, config.agent, config.model, config.prompt, origin
            )
        if self.job.shipped and result.checkpoint not in self.carried:
            folder = self.run_dir / problem
            outbox().send(Parcel(problem, pack(folder, [result.checkpoint])), wait=True)
        outbox().send(result)

    def run(self) -> list[CheckpointResult]:
        results = ProblemRun(self.bench, self.job.problem).run()
        if self.job.shipped:
            problem = self.job.problem.name
            outbox().send(Parcel(problem, pack(self.run_dir / problem, TAIL)), wait=True)
        return results


def run_chain(job: ChainJob) -> int:
    """Run (or resume) the chain on this worker; the number of its checkpoints with a result."""
    if not job.shipped:
        return len(_Chain(job, job.config.run_dir, ()).run())
    with tempfile.TemporaryDirectory(prefix="slopmark-chain-") as scratch:
        run_dir = Path(scratch) / "run"
        carried = unpack(job.carried, run_dir, job.problem.name) if job.carried else []
        try:
            return len(_Chain(job, run_dir, carried).run())
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)
