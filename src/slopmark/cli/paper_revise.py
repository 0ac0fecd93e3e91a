"""``slopmark paper revise`` and ``slopmark paper revise-bench``: revise a manuscript, or a
corpus with several methods, and report how the measures move.

Models: ``--editor NAME --editor-url URL`` (``--reviewer NAME [--reviewer-url URL]``,
the URL defaulting to the editor's), or ``--editor FILE.yaml`` with the fields of
one ``--model-config`` role (base_url, model, api_key_env) and ``max_tokens``
(see `slopmark.paper.revise.chat`). Measurements use the deterministic
measures, and every measure when ``--model-config`` names the measure models.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from slopmark.cli.options import non_empty
from slopmark.cli.output import output_folder, print_json
from slopmark.cli.tables import print_table, sized_console
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from slopmark.paper.revise.manuscript import Manuscript
    from slopmark.paper.revise.revise_bench import BenchResult
    from slopmark.paper.revise.rounds import RevisionRun
    from slopmark.paper.revise.session import Roles, Settings
    from slopmark.paper.score import PaperScore

_EDITOR_HELP = "The editor model: a model name (with --editor-url) or a YAML file."
_REVIEWER_HELP = "The reviewer model: a model name or a YAML file (harness, reviewer-refine)."
_METHOD_HELP = "harness | base | reviewer-refine | slop-aware."
_MODEL_HELP = "YAML naming the labeller, scorer and vision models (adds model-based measures)."
_NEEDS_REVIEWER = ("harness", "reviewer-refine")


@dataclass(frozen=True)
class _ModelOptions:
    editor: str
    editor_url: str | None
    reviewer: str | None
    reviewer_url: str | None
    max_tokens: int | None
    model_config: Path | None


def register(app: typer.Typer) -> None:
    """Add ``revise`` and ``revise-bench`` to the ``paper`` app."""
    app.command("revise")(revise)
    app.command("revise-bench")(revise_bench)


def revise(
    paper: Path = typer.Argument(..., help="The paper's LaTeX source folder."),
    editor: str = typer.Option(..., "--editor", help=_EDITOR_HELP),
    editor_url: str | None = typer.Option(None, "--editor-url", help="The editor's /v1 URL."),
    reviewer: str | None = typer.Option(None, "--reviewer", help=_REVIEWER_HELP),
    reviewer_url: str | None = typer.Option(None, "--reviewer-url", help="The reviewer's URL."),
    records: Path | None = typer.Option(None, "--records", help="The experiment records folder."),
    rounds: int = typer.Option(3, "--rounds", min=1, help="The most revision rounds."),
    method: str = typer.Option("harness", "--method", help=_METHOD_HELP),
    out: Path | None = typer.Option(None, "--out", help="OUT_DIR (default revise-PAPER-METHOD)."),
    main: str | None = typer.Option(None, "--main", help="The main .tex file inside the folder."),
    model_config: Path | None = typer.Option(None, "--model-config", help=_MODEL_HELP),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=1, help="Longest answer."),
    context_chars: int = typer.Option(
        60_000, "--context-chars", min=1000, help="Characters of context per prompt."
    ),  # fmt: skip
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Revise a manuscript where the findings point, keeping only supported changes."""
    from slopmark.paper.revise.harness import revise as run_revision
    from slopmark.paper.revise.manuscript import read_manuscript
    from slopmark.paper.revise.outdir import write_run
    from slopmark.paper.revise.report import run_json
    from slopmark.paper.revise.session import Session

    options = _ModelOptions(editor, editor_url, reviewer, reviewer_url, max_tokens, model_config)
    _check_models(options)
    _check_method(method, options)
    target = output_folder(out or Path(f"revise-{paper.resolve().name}-{method}"), "--out")
    records = _records(records)
    manuscript = read_manuscript(paper, main, skip=records)
    roles = _roles(options)
    session = Session(manuscript, roles, _settings(rounds, context_chars, options), records)
    try:
        run = run_revision(session, method)
    finally:
        _close(roles)
    write_run(target, run, manuscript)
    if as_json:
        print_json({**run_json(run), "out": str(target)})
    else:
        _print_run(sized_console(), run, target)


def revise_bench(
    corpus: Path = typer.Argument(..., help="A folder of paper folders (records in records/)."),
    methods: str = typer.Option("harness,base", "--methods", help="A comma list of methods."),
    editor: str = typer.Option(..., "--editor", help=_EDITOR_HELP),
    editor_url: str | None = typer.Option(None, "--editor-url", help="The editor's /v1 URL."),
    reviewer: str | None = typer.Option(None, "--reviewer", help=_REVIEWER_HELP),
    reviewer_url: str | None = typer.Option(None, "--reviewer-url", help="The reviewer's URL."),
    reference: list[Path] = typer.Option(  # noqa: B008
        [], "--reference", help="A reference paper folder, or a folder of them (repeatable)."
    ),
    rounds: int = typer.Option(3, "--rounds", min=1, help="The most revision rounds."),
    out: Path = typer.Option(Path("revise-bench"), "--out", help="Where each run's OUT_DIR goes."),
    model_config: Path | None = typer.Option(None, "--model-config", help=_MODEL_HELP),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=1, help="Longest answer."),
    context_chars: int = typer.Option(
        60_000, "--context-chars", min=1000, help="Characters of context per prompt."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
) -> None:
    """Run revision methods over a corpus; report each measure's distance to the reference."""
    from slopmark.paper.revise.revise_bench import paper_folders

    chosen = [m.strip() for m in methods.split(",") if m.strip()]
    if not chosen:
        raise BadInput(f"--methods {methods!r}: name at least one method ({_METHOD_HELP})")
    options = _ModelOptions(editor, editor_url, reviewer, reviewer_url, max_tokens, model_config)
    _check_models(options)
    for method in chosen:
        _check_method(method, options)
    if not reference:
        raise BadInput("--reference: give at least one reference paper folder (e.g. human papers)")
    out = output_folder(out, "--out")
    papers = paper_folders(corpus)
    refs = [folder for path in reference for folder in paper_folders(path)]
    settings = _settings(rounds, context_chars, options)
    result = _bench(papers, refs, chosen, options, settings, out)
    if as_json:
        print_json(_bench_json(result))
    else:
        _print_bench(sized_console(), result)
    if result.failures:
        raise typer.Exit(2)


def _bench(
    papers: list[Path], refs: list[Path], methods: list[str], options: _ModelOptions,
    settings: Settings, out: Path,
) -> BenchResult:  # fmt: skip
    from slopmark.cli.progress import progress_bar
    from slopmark.paper.revise.harness import revise as run_revision
    from slopmark.paper.revise.manuscript import read_manuscript
    from slopmark.paper.revise.outdir import write_run
    from slopmark.paper.revise.revise_bench import mean_scores, records_of, run_bench
    from slopmark.paper.revise.session import Session

    roles = _roles(options)
    names = [spec.name for spec in settings.specs]

    def one(paper: Path, method: str) -> RevisionRun:
        records = records_of(paper)
        manuscript = read_manuscript(paper, skip=records)
        run = run_revision(Session(manuscript, roles, settings, records), method)
        write_run(out / method / paper.name, run, manuscript)
        return run

    try:
        scores = [_measured(read_manuscript(ref, skip=records_of(ref)), settings, roles)
                  for ref in refs]  # fmt: skip
        reference = mean_scores(scores, names)
        with progress_bar("revising papers") as advance:
            return run_bench(papers, methods, one, reference, settings.rounds, advance)
    finally:
        _close(roles)


def _measured(manuscript: Manuscript, settings: Settings, roles: Roles) -> PaperScore:
    from slopmark.paper.revise.manuscript import measure_tree

    return measure_tree(manuscript, manuscript.tree, settings.specs, roles.measures)


def _check_models(options: _ModelOptions) -> None:
    """Refuse a blank model name, and a reviewer URL with no reviewer to use it."""
    non_empty(options.editor, "--editor")
    non_empty(options.reviewer, "--reviewer")
    if options.reviewer_url is not None and options.reviewer is None:
        raise BadInput(
            f"--reviewer-url {options.reviewer_url!r}: there is no --reviewer to use it"
        )


def _check_method(method: str, options: _ModelOptions) -> None:
    from slopmark.paper.revise.rounds import check_method

    check_method(method)
    if method in _NEEDS_REVIEWER and options.reviewer is None:
        raise BadInput(f"--method {method} needs a reviewer model: pass --reviewer")


def _records(path: Path | None) -> Path | None:
    if path is not None and not path.is_dir():
        raise BadInput(f"--records {path}: no such folder; pass the experiment records folder")
    return path


def _roles(options: _ModelOptions) -> Roles:
    from slopmark.paper.models import load_model_config
    from slopmark.paper.revise.chat import ChatModel, chat_spec
    from slopmark.paper.revise.session import Roles

    editor = chat_spec("editor", options.editor, options.editor_url, options.max_tokens)
    described = {"editor": editor.describe()}
    reviewer = None
    if options.reviewer is not None:
        url = options.reviewer_url or options.editor_url
        spec = chat_spec("reviewer", options.reviewer, url, options.max_tokens)
        reviewer, described["reviewer"] = ChatModel(spec), spec.describe()
    config = options.model_config
    measures = load_model_config(config) if config is not None else None
    return Roles(ChatModel(editor), reviewer, measures, described)


def _settings(rounds: int, context_chars: int, options: _ModelOptions) -> Settings:
    from slopmark.paper.measures.base import choose_measures
    from slopmark.paper.revise.session import Settings

    specs = choose_measures("all" if options.model_config else "deterministic")
    return Settings(tuple(specs), rounds, context_chars=context_chars)


def _close(roles: Roles) -> None:
    for model in (roles.editor, roles.reviewer, roles.measures):
        close = getattr(model, "close", None)
        if close is not None:
            close()


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _print_run(console: Console, run: RevisionRun, out: Path) -> None:
    table = Table("round", "aggregate", "kept", "reverted", "refused", "violations",
                  title=f"{run.method}: {run.paper}")  # fmt: skip
    for record in run.rounds:
        hard = len(record.hard_violations)
        flag = f"{hard} hard (discarded)" if record.disqualified else str(hard)
        table.add_row(str(record.number), _num(record.score.aggregate), str(len(record.kept)),
                      str(len(record.reverted)), str(len(record.rejections)), flag)  # fmt: skip
    print_table(console, table)
    console.print(f"stopped: {run.stop}")
    console.print(f"output: {out} (report.md)")


def _bench_json(result: BenchResult) -> dict[str, object]:
    from dataclasses import asdict

    return {
        "reference": result.reference,
        "methods": [asdict(curve) for curve in result.curves],
        "failures": [asdict(failure) for failure in result.failures],
    }


def _print_bench(console: Console, result: BenchResult) -> None:
    from slopmark.paper.findings import title

    measures = list(result.reference)
    table = Table("method", "round", "gap", *(title(m) for m in measures),
                  title="distance to the reference mean")  # fmt: skip
    for curve in result.curves:
        for number, (gap, distance) in enumerate(zip(curve.gaps, curve.distances, strict=True)):
            cells = (_num(distance[m]) for m in measures)
            table.add_row(curve.method, str(number), _num(gap), *cells)
    print_table(console, table)
    for failure in result.failures:
        console.print(f"[red]failed:[/] {failure.paper} ({failure.method}): {failure.error}")
