"""``slopmark code study``: the repository study, run as a resumable sweep, and its report.

``code study REPOS.txt`` runs (the ``run`` subcommand is implied);
``code study report DIR_OR_STUDY_ID`` reports what the store holds.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from slopmark.cli import sweep_options as sweep
from slopmark.cli.code_options import (
    ALL_BRANCHES,
    LANGUAGE,
    PAPER_RULES_SET,
    SCOPE,
    languages,
    scopes,
)
from slopmark.cli.output import output_file, output_folder, print_json
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from slopmark.code.study.records import StudySettings


class StudyGroup(TyperGroup):
    """A group whose first argument, when no subcommand name, runs ``run``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=StudyGroup,
    help="The repository study: erosion and verbosity across the histories of many repositories.",
    no_args_is_help=True,
)

_COMMITS = typer.Option(
    None, "--commits", min=1,
    help="Measure the last N commits: HEAD and the N-1 source-modifying ones before it.",
)  # fmt: skip
_SAMPLE = typer.Option(
    None, "--sample", min=1,
    help="A seeded sample of N commits (default 30): HEAD, always the last point, and N-1 "
    "drawn from the other source-modifying commits.",
)  # fmt: skip
_TIMEOUT = typer.Option(
    "10m", "--timeout",
    help="Time allowed per repository, clone and measure (e.g. 90s, 10m, 1h); past it the "
    "repository is stored as failed and the study goes on.",
)  # fmt: skip
_MIN_COMMITS = typer.Option(
    5, "--min-commits", min=1, help="Repositories count with at least N measured commits."
)


_BIRTH_SLOC = typer.Option(
    500, "--birth-sloc", min=0,
    help="Flag a repository whose first measured commit has fewer SLOC (birth effect).",
)  # fmt: skip
_BIRTH_FILES = typer.Option(
    3, "--birth-files", min=0,
    help="Flag a repository whose first measured commit has fewer files (birth effect).",
)  # fmt: skip


@app.command("run")
def run(
    repos: Path = typer.Argument(..., help="REPOS.txt: one local path or git URL per line."),
    commits: int | None = _COMMITS,
    sample: int | None = _SAMPLE,
    seed: int = typer.Option(0, "--seed", help="Seed of the sample."),
    all_branches: bool = ALL_BRANCHES,
    out: Path | None = typer.Option(None, "--out", help="Study folder (default: studies/<id>)."),
    executor: str = sweep.EXECUTOR,
    address: str | None = sweep.ADDRESS,
    jobs: int = sweep.JOBS,
    db: str | None = sweep.DB,
    timeout: str = _TIMEOUT,
    cc_threshold: int = typer.Option(10, "--cc-threshold", min=1, help="Erosion's CC threshold."),
    size_term: str = typer.Option("sqrt", "--size-term", help="sqrt, linear or none."),
    as_json: bool = typer.Option(False, "--json", help="Print the run's summary as JSON."),
    language: list[str] = LANGUAGE,
    scope: list[str] = SCOPE,
    rules_set: str = PAPER_RULES_SET,
) -> None:
    """Measure every repository of REPOS (resumes: stored repositories are not measured
    again): the source-modifying commits of HEAD's first-parent line (--all-branches: every
    reachable commit), HEAD always the last point; off a terminal, one line per finished
    repository on stderr."""
    from slopmark.cli.bench import parse_duration
    from slopmark.code.measure.metrics import SIZE_TERMS
    from slopmark.code.measure.rules import check_rule_set
    from slopmark.code.study.records import StudySettings

    if commits is not None and sample is not None:
        raise BadInput("--commits and --sample: pass one (the last N, or a sample of N)")
    if size_term not in SIZE_TERMS:
        raise BadInput(f"--size-term {size_term!r}: must be one of {', '.join(SIZE_TERMS)}")
    sweep.check_where(executor, address)
    if out is not None:
        out = output_folder(out, "--out")
    settings = StudySettings(
        last=commits, sample=sample or 30, seed=seed, cc_threshold=cc_threshold,
        size_term=size_term, timeout_s=parse_duration(timeout), all_branches=all_branches,
        languages=_chosen(language, languages), scopes=_chosen(scope, scopes),
        rule_set=check_rule_set(rules_set),
    )  # fmt: skip
    code = _run_study(repos, settings, out, (executor, address, jobs), db, as_json)
    raise typer.Exit(code)


def _chosen(names: list[str], check: Callable[[list[str]], tuple[str, ...]]) -> tuple[str, ...]:
    """The languages or scopes ``names`` choose, checked; () for every one (the default)."""
    chosen = check(names)
    return () if not names or chosen == check([]) else chosen


def _run_study(
    repos: Path,
    settings: StudySettings,
    out: Path | None,
    where: tuple[str, str | None, int],
    db: str | None,
    as_json: bool,
) -> int:
    from slopmark.cli.study_view import finished_line, print_run
    from slopmark.cli.sweep_view import sweep_view
    from slopmark.code.study.records import study_id
    from slopmark.code.study.repos import read_repos
    from slopmark.code.study.sweep import StudyPlan, run_study

    entries = read_repos(repos)
    store = sweep.shared_store(db)
    plan = StudyPlan(study_id(repos, settings), repos.resolve(), tuple(entries), settings,
                     store.url)  # fmt: skip
    executor = sweep.open_sweep(*where, store)  # a refused place writes nothing
    folder = out or Path("studies") / plan.study
    sweep.folder_record(folder, "study", {
        "id": plan.study, "repos_file": str(plan.repos_file), "db": sweep.masked(plan.db_url),
        "settings": asdict(settings), "started": time.time(),
    })  # fmt: skip
    with sweep_view("study", finished_line) as view:
        tally, records = run_study(executor, plan, view)
    print_run(plan, tally, records, folder, as_json)
    sweep.print_ending(tally, "repositories")
    return sweep.exit_code(tally, sum(r.status != "ok" for r in records))


@app.command("report")
def report(
    target: str = typer.Argument(..., help="A study folder (with study.json) or a study id."),
    as_json: bool = typer.Option(False, "--json", help="Print every number as JSON."),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        help="Write the trajectory chart as .png or .svg: the median and IQR band, or with "
        "groups each group's mean and 95% CI.",
    ),
    db: str | None = sweep.DB,
    min_commits: int = _MIN_COMMITS,
    birth_sloc: int = _BIRTH_SLOC,
    birth_files: int = _BIRTH_FILES,
) -> None:
    """The paper's statistics, over all repositories and per group (REPOS lines'
    group=NAME): the share that rose first→last (95% Wilson interval, with and
    without birth-effect repositories), median relative growth, slope quantiles
    (OLS over sample position and over normalised position 0..1), HEAD mean ± sd,
    the median/IQR band and the mean trajectory (95% t interval, 10 bins)."""
    from slopmark.cli.study_view import load_study, print_report, write_plot
    from slopmark.code.study.panel import BirthRule
    from slopmark.code.study.report import report_json

    if plot is not None:
        output_file(plot, "--plot")
    study = load_study(target, db, min_commits, BirthRule(birth_sloc, birth_files))
    if plot is not None:
        write_plot(plot, study)
    if as_json:
        print_json(report_json(study))
    else:
        print_report(study)
    if plot is not None:
        print(f"wrote {plot}", file=sys.stderr if as_json else sys.stdout)  # JSON alone
