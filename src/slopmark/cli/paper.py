"""``slopmark paper``: scientific-slop measures of a paper, findings, and the pair benchmark."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from slopmark.cli import paper_store, sweep_options
from slopmark.cli.output import output_file, print_json
from slopmark.cli.paper_revise import register
from slopmark.cli.tables import sized_console
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from slopmark.cli.paper_store import StoreTarget
    from slopmark.executor import Executor
    from slopmark.paper.bench import Known, PairLine
    from slopmark.paper.measures.base import MeasureSpec
    from slopmark.paper.models import ModelSet
    from slopmark.paper.sweep import PaperJob

app = typer.Typer(
    help="Scientific slop: six measures of broken reasoning in a paper's LaTeX (or PDF).",
    no_args_is_help=True,
)

_MEASURES_HELP = "all | deterministic | a comma list of measure names."
_PAIRS_HELP = 'PAIRS.jsonl: one {"ai": PATH, "human": PATH} object per line.'
_MODEL_HELP = "YAML naming the labeller, scorer and vision models (model-based measures)."
_PROFILE_HELP = (
    "default: slopmark's definitions; reference: the authors' release (yerimoh/ScientificSlop) "
    "for the four deterministic measures. docs/paper-definitions.md lists every difference."
)


def _measures(selection: str) -> list[MeasureSpec]:
    from slopmark.paper.measures.base import choose_measures

    if not selection.replace(",", " ").strip():
        raise BadInput(
            f"--measures {selection!r}: name at least one measure, or all / deterministic"
        )
    return choose_measures(selection)


def _models(path: Path | None) -> ModelSet | None:
    if path is None:
        return None
    from slopmark.paper.models import load_model_config

    return load_model_config(path)


@app.command()
def measure(
    paths: list[Path] = typer.Argument(..., help="Paper folders, main .tex files or .pdf files."),
    main: str | None = typer.Option(None, "--main", help="The main .tex file inside a folder."),
    as_json: bool = typer.Option(False, "--json", help="Print every score and finding as JSON."),
    findings: Path | None = typer.Option(
        None, "--findings", help="Write SLOP_FINDINGS.md here (a .json name writes JSON)."
    ),
    measures: str = typer.Option("all", "--measures", help=_MEASURES_HELP),
    model_config: Path | None = typer.Option(None, "--model-config", help=_MODEL_HELP),
    profile: str = typer.Option("default", "--profile", help=_PROFILE_HELP),
    executor: str = sweep_options.EXECUTOR,
    address: str | None = sweep_options.ADDRESS,
    jobs: int = sweep_options.JOBS,
    store: bool = paper_store.STORE,
    db: str | None = paper_store.DB,
    label: str | None = paper_store.LABEL,
) -> None:
    """Score papers on the six measures and locate every instance (several: one unit each)."""
    from slopmark.paper.score import choose_profile
    from slopmark.paper.sweep import PaperJob

    _measures(measures)  # an unknown name is one line before anything starts
    sweep_options.check_where(executor, address)
    job = PaperJob(measures, model_config, main, choose_profile(profile))
    target = paper_store.store_target(store, db, label, job.profile, len(paths))
    if len(paths) == 1 and executor == "local" and address is None:
        _measure_one(paths[0], job, findings, as_json, target)
        return
    if target is not None:
        target.engine.dispose()
        raise BadInput("--store keeps one paper on this machine; leave out --executor/--address")
    if findings is not None:
        raise BadInput("--findings writes one paper's findings; pass one PATH with it")
    from slopmark.cli.paper_view import print_papers

    where = sweep_options.open_sweep(executor, address, jobs, None)
    raise typer.Exit(print_papers(paths, job, where, as_json))


def _measure_one(
    path: Path, job: PaperJob, findings: Path | None, as_json: bool, target: StoreTarget | None
) -> None:
    """Score one paper; write its findings file, store it (``--store``), then print it."""
    from slopmark.cli.paper_view import print_score, write_findings
    from slopmark.paper.findings import findings_json
    from slopmark.paper.sweep import score_one

    if findings is not None:
        output_file(findings, "--findings")
    scored = score_one(path, job)
    if findings is not None:
        write_findings(findings, str(path), scored.score)
    stored = {} if target is None else {"stored_id": paper_store.keep(target, str(path), scored)}
    if as_json:
        notes = [note.message for note in scored.notes]
        print_json({**findings_json(str(path), scored.score), "profile": job.profile,
                    "notes": notes, **stored})  # fmt: skip
        return
    print_score(sized_console(), str(path), scored.notes, scored.score)
    if stored:
        paper_id = stored["stored_id"]
        print(f"stored as paper {paper_id} (slopmark serve: /papers/{paper_id})")


@app.command()
def bench(
    pairs: Path | None = typer.Argument(None, help=_PAIRS_HELP),
    ai: Path | None = typer.Option(None, "--ai", help="A folder of AI-written papers."),
    human: Path | None = typer.Option(None, "--human", help="A folder of human-written papers."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
    measures: str = typer.Option("all", "--measures", help=_MEASURES_HELP),
    model_config: Path | None = typer.Option(None, "--model-config", help=_MODEL_HELP),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap intervals."),
    profile: str = typer.Option("default", "--profile", help=_PROFILE_HELP),
    executor: str = sweep_options.EXECUTOR,
    address: str | None = sweep_options.ADDRESS,
    jobs: int = sweep_options.JOBS,
) -> None:
    """PairAcc, AUROC and TPR at 5% FPR per measure and for the aggregate, with intervals
    that resample papers: matched pairs from PAIRS.jsonl, or all cross pairs of --ai/--human."""
    from slopmark.cli.paper_view import bench_json, print_bench
    from slopmark.paper.bench import run_bench, run_folders
    from slopmark.paper.score import choose_profile
    from slopmark.paper.sweep import PaperJob

    chosen = choose_profile(profile)
    specs = _measures(measures)
    sweep_options.check_where(executor, address)
    lines, sides, problems = _bench_inputs(pairs, ai, human)
    papers = [path for line in lines for path in (line.ai, line.human)] + [*sides[0], *sides[1]]
    where = sweep_options.open_sweep(executor, address, jobs, None)
    known = _score_sweep(where, papers, PaperJob(measures, model_config, None, chosen))
    models = _models(model_config)
    if pairs is not None:
        result = run_bench(lines, specs, models, seed=seed, profile=chosen, known=known)
    else:
        result = run_folders(*sides, specs, models, seed=seed, profile=chosen, known=known)
    if as_json:
        print_json({**bench_json(result, problems), "profile": chosen})
    else:
        print_bench(sized_console(), result)
    _report_left_out([*problems, *result.problems])
    if problems or result.problems:
        raise typer.Exit(2)


def _pair_lines(pairs: Path) -> tuple[list[PairLine], list[tuple[str, str]]]:
    """The usable lines of PAIRS.jsonl and the problems of the others; a file with no
    usable pair is `BadInput` (its problems reported first)."""
    from slopmark.paper.bench import read_pairs

    if not pairs.exists():
        raise BadInput(f"{pairs}: no such file; pass a PAIRS.jsonl")
    lines, problems = read_pairs(pairs)
    if not lines:
        _report_left_out(problems)
        raise BadInput(f"{pairs}: no usable pair in it; {_PAIRS_HELP}")
    return lines, problems


def _report_left_out(problems: list[tuple[str, str]]) -> None:
    """One line on stderr per pair or paper left out of the benchmark."""
    for where, what in problems:
        print(f"slopmark: error: {where}: {what} (left out)", file=sys.stderr)


def _bench_inputs(
    pairs: Path | None, ai: Path | None, human: Path | None
) -> tuple[list[PairLine], tuple[list[Path], list[Path]], list[tuple[str, str]]]:
    """The pair lines of PAIRS.jsonl (and its bad lines), or the papers of --ai and --human."""
    from slopmark.paper.bench import papers_in

    if (pairs is None) == (ai is None and human is None) or (ai is None) != (human is None):
        raise BadInput("paper bench: pass either PAIRS.jsonl or both --ai DIR and --human DIR")
    if pairs is None:
        assert ai is not None and human is not None
        return [], (papers_in(ai, "--ai"), papers_in(human, "--human")), []
    lines, problems = _pair_lines(pairs)
    return lines, ([], []), problems


def _score_sweep(where: Executor, papers: list[Path], job: PaperJob) -> Known:
    """Score every paper as a unit of a sweep: each score, or why it could not be made."""
    from slopmark.cli.sweep_view import sweep_view
    from slopmark.paper.sweep import score_papers

    with sweep_view("scoring papers") as view:
        done = score_papers(where, papers, job, view)
    return {k: s.score for k, s in done.scored.items()} | dict(done.problems)


@app.command()
def views(
    path: Path = typer.Argument(..., help="A paper folder, its main .tex file, or a .pdf."),
    main: str | None = typer.Option(None, "--main", help="The main .tex file inside a folder."),
    prose: bool = typer.Option(False, "--prose", help="Only the prose view."),
    structure: bool = typer.Option(False, "--structure", help="Only the structure view."),
) -> None:
    """Print what the measures read: the structure view and the prose view."""
    from slopmark.paper.load import load_paper

    if prose and structure:
        raise BadInput("--prose and --structure: give one, or neither for both views")
    document = load_paper(path, main)
    both = prose == structure
    if structure or both:
        print(document.structure_view)
    if prose or both:
        print(document.prose_view)


register(app)
