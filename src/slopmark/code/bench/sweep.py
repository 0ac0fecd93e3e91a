"""A bench run as a sweep: one chain per (prompt, problem), on any executor.

The driver opens each run folder (``run.json``), hands every chain to the
executor and puts what comes back where a local run would have written it:
parcels of finished checkpoints into the run folder, result lines to the
command's callback. Checks that need no worker (the agent, the prompt, a
sandbox when the units run on this machine) are made here first, so a wrong
option is one line before anything starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from slopmark.code.bench.chain import ChainJob, chain_unit
from slopmark.code.bench.problem import Problem
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.runner import BenchConfig, open_run_dir
from slopmark.executor import Executor, Message, Unit
from slopmark.sweep.drive import SweepView, Tally, run_sweep
from slopmark.sweep.parcels import Parcel, unpack


@dataclass(frozen=True)
class BenchSweep:
    """Run folders (one per prompt) × problems; ``shipped`` when workers cannot write
    into the run folders themselves."""

    configs: tuple[BenchConfig, ...]
    problems: tuple[Problem, ...]
    db_url: str | None
    shipped: bool


def check_here(sweep: BenchSweep, sandbox_here: bool) -> None:
    """Fail fast on options every worker would refuse: agent, prompts, and (when the
    units run on this machine) the sandbox."""
    from slopmark.code.bench.agents.base import make_agent
    from slopmark.code.bench.prompts import load_prompt
    from slopmark.sandbox.base import backend, choose_sandbox

    first = sweep.configs[0]
    make_agent(first.agent, first.agent_options)
    for config in sweep.configs:
        load_prompt(config.prompt)
    if sandbox_here:
        choose_sandbox(first.sandbox)
    elif first.sandbox != "auto":
        backend(first.sandbox)


def bench_units(sweep: BenchSweep) -> list[Unit]:
    return [
        chain_unit(ChainJob(config, problem, sweep.db_url, sweep.shipped))
        for config in sweep.configs
        for problem in sweep.problems
    ]


def run_bench(
    executor: Executor,
    sweep: BenchSweep,
    on_result: Callable[[CheckpointResult], None] | None = None,
    view: SweepView | None = None,
) -> Tally:
    """Run (or resume) every chain of ``sweep``; the tally of the units."""
    for config in sweep.configs:
        open_run_dir(config, sweep.problems)
    by_key = {unit.key: config for unit, config in _paired(sweep)}

    def received(message: Message) -> None:
        payload = message.payload
        if isinstance(payload, Parcel):
            unpack(payload.data, by_key[message.key].run_dir, payload.into)
        elif isinstance(payload, CheckpointResult) and on_result is not None:
            on_result(payload)

    return run_sweep(executor, bench_units(sweep), on_message=received, view=view)


def _paired(sweep: BenchSweep) -> Sequence[tuple[Unit, BenchConfig]]:
    units = bench_units(sweep)
    configs = [config for config in sweep.configs for _ in sweep.problems]
    return list(zip(units, configs, strict=True))
