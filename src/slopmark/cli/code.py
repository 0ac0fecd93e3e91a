"""``slopmark code``: measure a tree, follow its history, list the rules."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from slopmark.cli.code_diff import diff, parse_bounds
from slopmark.cli.code_options import (
    ALL_BRANCHES,
    BASELINE,
    CC_THRESHOLD,
    EXCLUDE,
    JOBS,
    LANGUAGE,
    NO_CACHE,
    RULES,
    RULES_SET,
    SCOPE,
    SIZE_TERM,
    languages,
    scopes,
    settings,
)
from slopmark.cli.code_store import DB, STORE, report_store
from slopmark.cli.lazy import LazyGroup
from slopmark.cli.options import none_empty
from slopmark.cli.output import output_file, print_json
from slopmark.cli.progress import progress_bar
from slopmark.errors import BadInput, CheckFailed
from slopmark.gcpause import gc_paused

if TYPE_CHECKING:

    from slopmark.code.measure.report import TreeReport


class CodeGroup(LazyGroup):
    """`code`: the bench and the study (with their heavier imports) load only when run."""

    lazy = {"bench": "slopmark.cli.bench:app", "study": "slopmark.cli.study:app"}


app = typer.Typer(
    cls=CodeGroup,
    help="Code slop: structural erosion and verbosity of Python, JavaScript, TypeScript, Go, "
    "Java and Rust trees, their diffs and histories; the iterative bench; repository studies.",
    no_args_is_help=True,
)
app.command("diff")(diff)

_GATES = ("erosion", "verbosity")
_UNDEFINED = {"erosion": "no callables measured", "verbosity": "no source lines measured"}


def _parse_gates(values: list[str]) -> dict[str, float]:
    return parse_bounds("--fail-over", values, _GATES, "erosion=0.4")


def _check_gates(report: TreeReport, gates: dict[str, float], chosen: Sequence[str]) -> None:
    """Exit 1 when a gated metric reaches its bound, or cannot be taken: a gate over
    nothing measured fails rather than passing by default (``chosen``: the languages
    measured)."""
    if gates and not report.files:
        names = " or ".join([", ".join(chosen[:-1]), chosen[-1]] if len(chosen) > 1 else chosen)
        raise CheckFailed(
            f"--fail-over: nothing was measured under {report.root} (0 {names} files "
            f"measured, {len(report.skipped)} skipped), so no gate can pass; point it at "
            "a folder with such files or choose another --language"
        )
    failed = []
    for name, bound in gates.items():
        value = getattr(report, name)
        if value is None:
            failed.append(f"{name} is undefined ({_UNDEFINED[name]}), so it cannot be gated")
        elif value >= bound:
            failed.append(f"{name} {value:.3f} >= {bound}")
    if failed:
        raise CheckFailed("; ".join(failed))


@app.command()
def measure(
    path: Path = typer.Argument(..., help="A folder (measured recursively) or one source file."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole report as JSON."),
    sarif: Path | None = typer.Option(
        None, "--sarif", help="Write rule hits and clone groups as SARIF 2.1.0."
    ),
    top: int | None = typer.Option(
        None, "--top", min=0, help="Rows in each 'top' table (default 20; not with --json)."
    ),
    exclude: list[str] = EXCLUDE,
    select: list[str] = typer.Option([], "--select", help="Run only these rule ids (repeatable)."),
    ignore: list[str] = typer.Option(
        [], "--ignore", help="Do not run these rule ids (repeatable)."
    ),
    rules: list[Path] = RULES,
    cc_threshold: int = CC_THRESHOLD,
    size_term: str = SIZE_TERM,
    jobs: int = JOBS,
    fail_over: list[str] = typer.Option(
        [], "--fail-over", help="Exit 1 when a metric reaches a bound, e.g. erosion=0.4."
    ),
    language: list[str] = LANGUAGE,
    scope: list[str] = SCOPE,
    baseline: Path | None = BASELINE,
    write_baseline: Path | None = typer.Option(
        None, "--write-baseline", help="Record today's findings (fingerprints) in this file."
    ),
    no_cache: bool = NO_CACHE,
    store: bool = STORE,
    db: str | None = DB,
    rules_set: str = RULES_SET,
) -> None:
    """Structural erosion and verbosity of the source files under PATH (Python,
    JavaScript, TypeScript, Go, Java, Rust), per language and pooled."""
    from slopmark.cli.code_baseline import BaselineRun
    from slopmark.cli.code_cache import close_cache, open_cache
    from slopmark.cli.code_report import json_parts, render
    from slopmark.code.measure.cache.rules import cached_catalog
    from slopmark.code.measure.measure_tree import (
        MeasureOptions,
        discover_sources,
        measure_sources,
    )
    from slopmark.code.measure.rules import choose

    gates = _parse_gates(fail_over)
    chosen = settings(cc_threshold, size_term, rules_set)
    _check_outputs(exclude, as_json, top, (sarif, "--sarif"), (write_baseline, "--write-baseline"))
    known = BaselineRun(baseline, write_baseline, sarif)
    engine = report_store(store, db)
    cache = open_cache(no_cache)
    try:
        catalog = cached_catalog(cache, rules, chosen.rule_set)
        options = MeasureOptions(
            excludes=exclude,
            select=select,
            ignore=ignore,
            rule_dirs=rules,
            settings=chosen,
            jobs=jobs,
            languages=languages(language),
            scopes=scopes(scope),
            cache=cache,
            catalog=catalog,
        )
        # the report (a million objects for a big tree) lives until the command ends: frozen
        # before the collector resumes, which would otherwise walk it at once and again
        # while the output is made
        with gc_paused(), progress_bar("measuring") as advance:
            sources = discover_sources(path, options)
            report = measure_sources(sources, options, advance)
            gc.freeze()
    finally:
        close_cache(cache)
    new = known.findings(report, choose(catalog, select, ignore))
    if as_json:
        measured = {"measured": sources.coverage.to_json()}
        sys.stdout.writelines(json_parts(report, measured | known.json(new)))
        sys.stdout.write("\n")
    else:
        from slopmark.cli.tables import sized_console

        rows, console = 20 if top is None else top, sized_console()
        render(report, console, rows, sources.coverage.line())
        known.render(new, console, rows)
    if engine is not None:
        from slopmark.cli.code_store import store_measure

        store_measure(report, engine, catalog)
    if report.problems:
        for problem in report.problems:
            print(f"slopmark: error: {problem.path}:{problem.line}: {problem.message}",
                  file=sys.stderr)  # fmt: skip
        raise typer.Exit(2)
    _check_gates(report, gates, options.languages)
    known.gate(new)


def _check_outputs(
    exclude: list[str], as_json: bool, top: int | None, *files: tuple[Path | None, str]
) -> None:
    """Refuse, before measuring, a blank glob, --top with --json, an unwritable output."""
    none_empty(exclude, "--exclude")
    if as_json and top is not None:
        raise BadInput(f"--top {top}: only the tables use it; --json prints every callable")
    for path, option in files:
        if path is not None:
            output_file(path, option)


@app.command()
def history(
    repo: Path = typer.Argument(..., help="A git repository (bare or with a work tree)."),
    commits: int | None = typer.Option(
        None, "--commits", min=1,
        help="Measure the last N commits: the revision's own and the N-1 source-modifying "
        "commits before it.",
    ),  # fmt: skip
    sample: int | None = typer.Option(
        None,
        "--sample",
        min=1,
        help="Measure a seeded sample of N commits: the revision's own commit and N-1 drawn "
        "from the other source-modifying commits (default: 30, or every commit when --rev "
        "is a range A..B).",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the sample (default 0)."),
    rev: str = typer.Option("HEAD", "--rev", help="Revision or range, e.g. v1.0..main."),
    all_branches: bool = ALL_BRANCHES,
    as_json: bool = typer.Option(False, "--json", help="Print the history as JSON."),
    exclude: list[str] = EXCLUDE,
    cc_threshold: int = CC_THRESHOLD,
    size_term: str = SIZE_TERM,
    jobs: int = JOBS,
    language: list[str] = LANGUAGE,
    scope: list[str] = SCOPE,
    no_cache: bool = NO_CACHE,
    store: bool = STORE,
    db: str | None = DB,
    rules_set: str = RULES_SET,
) -> None:
    """Erosion and verbosity across the commits of a repository, read straight from git:
    the source-modifying commits of the first-parent line of --rev (--all-branches: every
    reachable commit), the last point always the revision's own commit, so first to last
    reads "sampled start to today". REPO may be a folder inside a work tree: only that
    folder is measured."""

    from slopmark.cli.code_cache import close_cache, open_cache
    from slopmark.cli.history_view import history_json, render_history
    from slopmark.cli.tables import sized_console
    from slopmark.code.measure.measure_history import Selection, measure_history
    from slopmark.code.measure.measure_tree import MeasureOptions

    none_empty(exclude, "--exclude")
    sample = _sample_size(commits, sample, seed, rev)
    selection = Selection(last=commits, sample=sample, seed=seed or 0, all_branches=all_branches)
    engine = report_store(store, db)
    cache = open_cache(no_cache)
    options = MeasureOptions(
        excludes=exclude,
        settings=settings(cc_threshold, size_term, rules_set),
        jobs=jobs,
        languages=languages(language),
        scopes=scopes(scope),
        cache=cache,
    )
    try:
        with progress_bar("reading history") as advance:
            report = measure_history(repo, rev, selection, options, advance)
    finally:
        close_cache(cache)
    if as_json:
        print_json(history_json(report))
    else:
        render_history(report, sized_console())
    if engine is not None:
        from slopmark.cli.code_store import store_history

        store_history(report, history_json(report), options.settings, engine)


def _sample_size(commits: int | None, sample: int | None, seed: int | None, rev: str) -> int | None:
    """The sample to draw: --sample, else 30 unless --commits or a range A..B says otherwise;
    --commits with --sample, or a --seed with no sample to seed, is refused."""
    if commits is not None and sample is not None:
        raise BadInput(
            f"--commits {commits} and --sample {sample}: give one (the last N commits, "
            "or a seeded sample of N)"
        )
    if commits is None and sample is None and ".." not in rev:
        sample = 30  # the paper samples up to 30 commits per repository
    if seed is not None and sample is None:
        why = f"--commits {commits}" if commits is not None else f"the range {rev} (every commit)"
        raise BadInput(f"--seed {seed}: nothing is sampled with {why}; drop --seed or use --sample")
    return sample


@app.command("rules")
def list_rules(
    explain: str | None = typer.Option(None, "--explain", help="Print one rule's documentation."),
    rules: list[Path] = RULES,
    as_json: bool = typer.Option(False, "--json", help="Print the rules as JSON."),
    markdown: bool = typer.Option(
        False, "--markdown", help="Print the rules as markdown (docs/rules.md is this output)."
    ),
    rules_set: str = typer.Option(
        "pedantic", "--rules-set",
        help="List this set: pedantic (every rule of the packs, each naming its set), default "
        "or paper (the frozen pack).",
    ),  # fmt: skip
) -> None:
    """List the verbosity rules with their set and measured precision, or explain one."""
    from slopmark.cli import rules_view
    from slopmark.cli.tables import sized_console
    from slopmark.code.measure.rules import check_rule_id, load_catalog

    if as_json and markdown:
        raise BadInput("--json and --markdown: choose one output")
    catalog = load_catalog(rules, rules_set)
    if explain is not None:
        check_rule_id(explain, [r.id for r in catalog], "--explain")
        rule = next(r for r in catalog if r.id == explain)
        if as_json:
            print_json(rules_view.rule_json(rule) | dict(rule.docs))
        else:
            rules_view.explain(rule, sized_console())
    elif as_json:
        print_json([rules_view.rule_json(r) for r in catalog])
    elif markdown:
        sys.stdout.write(rules_view.rules_markdown(catalog))
    else:
        rules_view.print_catalog(catalog, sized_console(highlight=False))
