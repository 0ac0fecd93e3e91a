"""Set up and run a bench run: sandbox, agent, prompt, store (the adapters around `runner`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from sqlalchemy import Engine

from slopmark.code.bench.agents.base import make_agent
from slopmark.code.bench.ledger import store_result
from slopmark.code.bench.problem import Problem
from slopmark.code.bench.profiles import host_of
from slopmark.code.bench.prompts import load_prompt
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.runner import BenchConfig, BenchRun, ProblemFailure
from slopmark.sandbox.base import choose_sandbox


def execute(
    config: BenchConfig,
    problems: Sequence[Problem],
    engine: Engine | None,
    on_result: Callable[[CheckpointResult], None] | None = None,
) -> tuple[list[CheckpointResult], list[ProblemFailure]]:
    """Run (or resume) ``config`` over ``problems``; store each checkpoint if ``engine``."""
    sandbox = choose_sandbox(config.sandbox)
    agent = make_agent(config.agent, config.agent_options)
    template = load_prompt(config.prompt)

    def finished(result: CheckpointResult) -> None:
        if engine is not None:
            store_result(engine, config.run_dir, result, config.agent, config.model, config.prompt)
        if on_result is not None:
            on_result(result)

    bench = BenchRun(
        config, sandbox=sandbox, agent=agent, template=template, host=host_of(os.environ),
        on_result=finished,
    )
    return bench.run(problems)
