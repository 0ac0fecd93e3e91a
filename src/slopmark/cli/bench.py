"""``slopmark code bench``: the iterative checkpoint benchmark for coding agents."""

from __future__ import annotations

import re
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from slopmark.cli import sweep_options
from slopmark.cli.code_options import PAPER_RULES_SET
from slopmark.cli.options import DB_HELP, non_empty
from slopmark.cli.output import output_file, output_folder, print_json
from slopmark.cli.tables import sized_console
from slopmark.code.bench.profiles import EvalOptions
from slopmark.errors import BadInput, CheckFailed

if TYPE_CHECKING:
    from slopmark.code.bench.runner import BenchConfig

app = typer.Typer(
    help="Iterative checkpoint benchmark: agents extend their own code, checkpoint by checkpoint.",
    no_args_is_help=True,
)

#: The problems shipped inside the package (src/slopmark/problems), the default folder.
BUNDLED_PROBLEMS = Path(__file__).resolve().parents[1] / "problems"
_PROBLEMS = typer.Option(
    BUNDLED_PROBLEMS, "--problems", show_default=False,
    help="Folder of problems (SlopCodeBench layout); default: the four bundled with slopmark.",
)  # fmt: skip
_PROBLEM = typer.Option([], "--problem", help="Only this problem (repeatable).")
_SANDBOX = typer.Option(
    "auto", "--sandbox", help="auto | bwrap | docker | none-unsafe (no isolation: explicit only)."
)
_JOBS = typer.Option(1, "--jobs", min=1, help="Problems run at once.")
_AGENT_HELP = "An agent (see `slopmark code bench agents`) or a command line with {prompt_file}."
_OUT_HELP = "Run folder (default: runs/<agent>-<model>-<prompt>-<time>); an existing one resumes."
_OPTION_HELP = "KEY=VALUE for the agent (repeatable), e.g. base_url=URL or max_steps=30."
_ENV_PROFILE = typer.Option(
    None, "--env-profile",
    help="How hidden tests run: scb (SlopCodeBench's Python 3.12, toolchains, test layout; "
    "the default) or native (slopmark's own Python).",
)  # fmt: skip
_PYTHON = typer.Option(
    None, "--python", help="Python for the hidden tests: X.Y (found by pyenv, PATH, uv) or a path."
)
_TEST_NETWORK = typer.Option(
    None, "--test-network/--no-test-network",
    help="Network during hidden tests (default: the problem's evaluation.network, else off).",
)  # fmt: skip
_ENTRYPOINT_STYLE = typer.Option(
    None, "--entrypoint-style",
    help="How the tests start the submission: venv (its requirements in a virtual environment; "
    "the default) or uv (SlopCodeBench's `uv run` in a `uv init` project).",
)  # fmt: skip
_WHEELHOUSE = typer.Option(
    None, "--wheelhouse",
    help="Install the submissions' requirements from the wheels in this folder only (no index).",
)  # fmt: skip
_PROMPT_HELP = (
    "just-solve | anti-slop | plan-first | FILE.jinja; repeat for a matrix "
    "(one run folder per prompt under --out)"
)
_SHARED_HELP = "--out is on a file system every node mounts: workers write there directly."
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smh]?)")
_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str) -> float:
    """``2h``, ``30m``, ``90s`` or plain seconds → seconds."""
    match = _DURATION.fullmatch(text.strip())
    if match is None or float(match.group(1)) <= 0:
        raise BadInput(f"--timeout {text!r}: give a positive duration like 2h, 30m or 90s")
    return float(match.group(1)) * _UNITS[match.group(2)]


def parse_options(values: list[str]) -> dict[str, str]:
    options = {}
    for value in values:
        key, sep, setting = value.partition("=")
        if not sep or not key.strip():
            raise BadInput(f"--agent-option {value!r}: write KEY=VALUE, e.g. max_steps=30")
        options[key.strip()] = setting
    return options


def eval_options(
    profile: str | None, python: str | None, network: bool | None,
    entrypoint: str | None = None, wheelhouse: Path | None = None,
) -> EvalOptions:  # fmt: skip
    """The run's evaluation options; BadInput names the option that is wrong."""
    from slopmark.code.bench.problem import ENTRYPOINTS, PROFILES
    from slopmark.code.bench.pythons import check_version

    if python is not None and "/" not in python:
        python = check_version(python, "--python")
    return EvalOptions(
        _one_of(profile, PROFILES, "--env-profile"), python, network,
        _one_of(entrypoint, ENTRYPOINTS, "--entrypoint-style"), _folder(wheelhouse),
    )  # fmt: skip


def _one_of(value: str | None, allowed: tuple[str, ...], option: str) -> str | None:
    """``value`` when it is None or one of ``allowed``; else BadInput naming ``option``."""
    if value is None or value in allowed:
        return value
    raise BadInput(f"{option} {value!r}: use {' or '.join(allowed)}")


def _folder(wheelhouse: Path | None) -> str | None:
    """The wheelhouse's absolute path (it must be a folder)."""
    if wheelhouse is None:
        return None
    if not wheelhouse.is_dir():
        raise BadInput(f"--wheelhouse {wheelhouse}: not a folder; give a folder of .whl files")
    return str(wheelhouse.resolve())


@app.command("list")
def list_command(
    problems: Path = _PROBLEMS,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the problems in a folder with their checkpoints (an invalid one is named on
    stderr, and the others are listed all the same)."""
    from slopmark.cli.bench_view import print_problems
    from slopmark.code.bench.problem import scan_problems

    found, invalid = scan_problems(problems)
    if as_json:
        print_json([
            {"name": p.name, "version": p.version, "description": p.description,
             "entry_file": p.entry_script, "checkpoints": [c.name for c in p.checkpoints]}
            for p in found
        ])  # fmt: skip
    else:
        print_problems(sized_console(), found)
    for bad in invalid[:-1]:
        typer.echo(f"slopmark: error: {bad.error}", err=True)
    if invalid:
        raise BadInput(
            f"{invalid[-1].error} ({len(invalid)} of {len(found) + len(invalid)} problem folders "
            f"in {problems} not valid; the others are listed)"
        )


@app.command()
def validate(
    problems: Path = _PROBLEMS,
    problem: list[str] = _PROBLEM,
    sandbox: str = _SANDBOX,
    jobs: int = _JOBS,
    keep: Path | None = typer.Option(None, "--keep", help="Keep the run folder here."),
    env_profile: str | None = _ENV_PROFILE,
    python: str | None = _PYTHON,
    test_network: bool | None = _TEST_NETWORK,
    entrypoint_style: str | None = _ENTRYPOINT_STYLE,
    wheelhouse: Path | None = _WHEELHOUSE,
    expect_failures: Path | None = typer.Option(
        None, "--expect-failures", help="Tests (or checkpoints) known to fail, one a line."
    ),
    write_expect_failures: Path | None = typer.Option(
        None, "--write-expect-failures", help="Write today's failures to FILE (then pass it)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print every verdict as JSON."),
    rules_set: str = PAPER_RULES_SET,
) -> None:
    """Replay every reference solution: each checkpoint must be solved strictly (else exit 1)."""
    from slopmark.cli.bench_validate_view import ValidateView, plain_console, validation_json
    from slopmark.code.bench.problem import load_problems
    from slopmark.code.bench.runner import BenchConfig
    from slopmark.code.bench.session import execute
    from slopmark.code.bench.validation import read_expected
    from slopmark.code.measure.rules import check_rule_set

    rule_set = check_rule_set(rules_set)
    found = load_problems(problems, problem or None)
    options = eval_options(env_profile, python, test_network, entrypoint_style, wheelhouse)
    expected = read_expected(expect_failures) if expect_failures else frozenset()
    if write_expect_failures is not None:
        output_file(write_expect_failures, "--write-expect-failures")
    total = sum(len(p.checkpoints) for p in found)
    view = ValidateView(plain_console(stderr=as_json), total, expected)
    with tempfile.TemporaryDirectory(prefix="slopmark-validate-") as scratch:
        folder = output_folder(keep, "--keep") if keep else Path(scratch) / "run"
        config = BenchConfig(
            folder, "replay", None, "just-solve", sandbox, jobs=jobs, evaluation=options,
            rule_set=rule_set,
        )  # fmt: skip
        results, failures = execute(config, found, None, view.on_result)
    if write_expect_failures is not None:
        view.pin(results, write_expect_failures)
    bad = view.finish(failures)
    if as_json:
        print_json(validation_json(view.verdicts, failures))
    if bad:
        raise CheckFailed(f"{bad} of the reference checkpoints and problems are not ok")


@app.command()
def run(
    problems: Path = _PROBLEMS,
    problem: list[str] = _PROBLEM,
    agent: str = typer.Option(..., "--agent", help=_AGENT_HELP),
    model: str | None = typer.Option(None, "--model", help="Model the agent uses."),
    prompt: list[str] = typer.Option(["just-solve"], "--prompt", help=_PROMPT_HELP),
    sandbox: str = _SANDBOX,
    timeout: str = typer.Option("2h", "--timeout", help="Agent time per checkpoint (2h, 30m)."),
    jobs: int = _JOBS,
    out: Path | None = typer.Option(None, "--out", help=_OUT_HELP),
    agent_option: list[str] = typer.Option([], "--agent-option", help=_OPTION_HELP),
    agent_memory: int = typer.Option(
        16384, "--agent-memory", min=0, help="Agent address-space limit in MiB (0: none)."
    ),
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    env_profile: str | None = _ENV_PROFILE,
    python: str | None = _PYTHON,
    test_network: bool | None = _TEST_NETWORK,
    entrypoint_style: str | None = _ENTRYPOINT_STYLE,
    wheelhouse: Path | None = _WHEELHOUSE,
    executor: str = sweep_options.EXECUTOR,
    address: str | None = sweep_options.ADDRESS,
    shared: bool = typer.Option(False, "--shared", help=_SHARED_HELP),
    rules_set: str = PAPER_RULES_SET,
) -> None:
    """Run an agent over the problems; every checkpoint is tested, measured and stored."""
    from slopmark.cli.bench_view import print_report, print_result_line
    from slopmark.cli.sweep_view import sweep_view
    from slopmark.code.bench.problem import load_problems
    from slopmark.code.bench.runner import BenchConfig, load_results
    from slopmark.code.bench.sweep import BenchSweep, check_here, run_bench
    from slopmark.code.measure.rules import check_rule_set

    non_empty(model, "--model")
    rule_set = check_rule_set(rules_set)
    sweep_options.check_where(executor, address)
    found = load_problems(problems, problem or None)
    folder = output_folder(out or Path("runs") / _default_name(agent, model, prompt), "--out")
    base = BenchConfig(
        folder, agent, model, prompt[0], sandbox, timeout_s=parse_duration(timeout), jobs=jobs,
        agent_options=parse_options(agent_option), agent_memory_mb=agent_memory or None,
        evaluation=eval_options(env_profile, python, test_network, entrypoint_style, wheelhouse),
        rule_set=rule_set,
    )  # fmt: skip
    configs = _per_prompt(base, prompt)
    store = sweep_options.shared_store(db)
    plan = BenchSweep(configs, tuple(found), store.url, shipped=executor != "local" and not shared)
    check_here(plan, sandbox_here=executor == "local")
    console = sized_console()
    console.print(f"run folder: {folder}")
    where = sweep_options.open_sweep(executor, address, 0 if address else jobs, store)
    with sweep_view("bench") as view:
        tally = run_bench(where, plan, lambda r: print_result_line(console, r), view)
    for config in configs:
        print_report(console, config.run_dir, load_results(config.run_dir))
    sweep_options.print_ending(tally, "chains")
    raise typer.Exit(sweep_options.exit_code(tally))


@app.command()
def report(
    run_dir: Path = typer.Argument(..., help="A run folder written by `bench run`."),
    as_json: bool = typer.Option(False, "--json", help="Print every number as JSON."),
    plot: bool = typer.Option(
        False, "--plot", help="Also write PNG and SVG charts to RUN_DIR/plots."
    ),
) -> None:
    """Print the solve rates, quality by phase and trajectories of a run."""
    from slopmark.cli.bench_plots import write_plots
    from slopmark.cli.bench_view import print_report, report_json
    from slopmark.code.bench.readrun import read_run

    found = read_run(run_dir)
    if as_json:
        print_json(report_json(run_dir, found.results, found.recomputed))
    else:
        print_report(sized_console(), run_dir, found.results, found.recomputed)
    if plot:
        for path in write_plots(run_dir, found.results):
            print(f"wrote {path}", file=sys.stderr if as_json else sys.stdout)  # JSON alone


@app.command()
def compare(
    run_dirs: list[Path] = typer.Argument(..., help="Two or more run folders of `bench run`."),
    as_json: bool = typer.Option(False, "--json", help="Print the compared numbers as JSON."),
    plot: Path | None = typer.Option(
        None, "--plot", help="Write the figure (runs_by_phase.png and .svg) to this folder."
    ),
) -> None:
    """Compare runs (agents, models, prompts) by phase: solve rate, erosion, verbosity, churn."""
    from slopmark.cli.bench_compare import (
        compare_json,
        compare_runs,
        print_compare,
        write_compare_plots,
    )
    from slopmark.code.bench.readrun import read_run

    if len(run_dirs) < 2:
        raise BadInput("compare: give two or more run folders (one run: `code bench report`)")
    folder = output_folder(plot, "--plot") if plot is not None else None
    compared = compare_runs([read_run(run_dir) for run_dir in run_dirs])
    if as_json:
        print_json(compare_json(compared))
    else:
        print_compare(sized_console(), compared)
    for path in write_compare_plots(folder, compared) if folder is not None else []:
        print(f"wrote {path}", file=sys.stderr if as_json else sys.stdout)


@app.command()
def agents() -> None:
    """List the agents."""
    from slopmark.code.bench.agents.base import agent_specs

    for name, spec in agent_specs().items():
        print(f"{name:14} {spec.summary}")


def _per_prompt(base: BenchConfig, prompts: list[str]) -> tuple[BenchConfig, ...]:
    """One run folder per prompt: --out itself for one, --out/<prompt> for several."""
    names = list(dict.fromkeys(prompts))
    if len(names) == 1:
        return (base,)
    return tuple(
        replace(base, run_dir=base.run_dir / _label(Path(name).stem), prompt=name)
        for name in names
    )


def _label(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text)[:60]


def _default_name(agent: str, model: str | None, prompts: list[str]) -> str:
    which = Path(prompts[0]).stem if len(prompts) == 1 else "matrix"
    label = _label(f"{agent}-{model or 'default'}-{which}")
    return f"{label}-{time.strftime('%Y%m%d-%H%M%S')}"
