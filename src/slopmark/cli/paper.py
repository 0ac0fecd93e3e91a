"""``slopmark paper``: scientific-slop measures of a paper, findings, and the pair benchmark."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from slopmark.cli.output import output_file, print_json
from slopmark.cli.paper_revise import register
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from slopmark.paper.bench import PairLine
    from slopmark.paper.measures.base import MeasureSpec
    from slopmark.paper.models import ModelSet

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
    path: Path = typer.Argument(..., help="A paper folder, its main .tex file, or a .pdf."),
    main: str | None = typer.Option(None, "--main", help="The main .tex file inside a folder."),
    as_json: bool = typer.Option(False, "--json", help="Print every score and finding as JSON."),
    findings: Path | None = typer.Option(
        None, "--findings", help="Write SLOP_FINDINGS.md here (a .json name writes JSON)."
    ),
    measures: str = typer.Option("all", "--measures", help=_MEASURES_HELP),
    model_config: Path | None = typer.Option(None, "--model-config", help=_MODEL_HELP),
    profile: str = typer.Option("default", "--profile", help=_PROFILE_HELP),
) -> None:
    """Score a paper on the six measures and locate every instance."""
    from slopmark.cli.paper_view import print_score, write_findings
    from slopmark.paper.findings import findings_json
    from slopmark.paper.load import load_with_reference
    from slopmark.paper.score import choose_profile, score_paper

    if findings is not None:
        output_file(findings, "--findings")
    chosen = choose_profile(profile)
    specs = _measures(measures)
    document, reference = load_with_reference(path, main, chosen == "reference")
    score = score_paper(document, specs, _models(model_config), reference)
    if findings is not None:
        write_findings(findings, str(path), score)
    if as_json:
        notes = [note.message for note in document.notes]
        print_json({**findings_json(str(path), score), "profile": chosen, "notes": notes})
        return
    print_score(Console(), str(path), document, score)


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
) -> None:
    """PairAcc, AUROC and TPR at 5% FPR per measure and for the aggregate, with intervals
    that resample papers: matched pairs from PAIRS.jsonl, or all cross pairs of --ai/--human."""
    from slopmark.cli.paper_view import bench_json, print_bench
    from slopmark.cli.progress import progress_bar
    from slopmark.paper.bench import papers_in, run_bench, run_folders
    from slopmark.paper.score import choose_profile

    chosen = choose_profile(profile)
    specs = _measures(measures)
    if (pairs is None) == (ai is None and human is None) or (ai is None) != (human is None):
        raise BadInput("paper bench: pass either PAIRS.jsonl or both --ai DIR and --human DIR")
    problems: list[tuple[str, str]] = []
    with progress_bar("scoring papers") as advance:
        if pairs is not None:
            lines, problems = _pair_lines(pairs)
            result = run_bench(lines, specs, _models(model_config), advance, seed, chosen)
        else:
            assert ai is not None and human is not None
            papers = papers_in(ai, "--ai"), papers_in(human, "--human")
            result = run_folders(*papers, specs, _models(model_config), advance, seed, chosen)
    if as_json:
        print_json({**bench_json(result, problems), "profile": chosen})
    else:
        print_bench(Console(), result)
    _report_left_out([*problems, *result.problems])
    if problems or result.problems:
        raise typer.Exit(2)


def _pair_lines(pairs: Path) -> tuple[list[PairLine], list[tuple[str, str]]]:
    """The usable lines of PAIRS.jsonl and the problems of the others; a file with no
    usable pair is `BadInput` (its problems reported first)."""
    from slopmark.paper.bench import read_pairs

    if not pairs.is_file():
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
