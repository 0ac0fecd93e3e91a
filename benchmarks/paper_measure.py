"""Speed of the deterministic paper measures: papers per second on one core.

Reads every paper of the shared corpus (`../shared/corpora/papers`, or --corpus), then
times, in this one process, repeated rounds of: parse the LaTeX tree into a Document and
run the four deterministic measures (macro redundancy, cross-section references, citation
isolation, evidence gap) with the aggregate, under the default profile and under the
``reference`` profile (the authors' release's definitions, which also expands the source
its own way). The target is ≥ 20 papers/s on one core for the LaTeX route (the
"Science or Slop?" corpus of 780 papers in under a minute). With pdflatex installed (or
--pdfs DIR of PDFs), it also times the PDF route (read the PDF, rebuild, measure) and
reports its papers/s; there is no target for it. Every figure is the median over rounds;
the machines are shared and noisy.

    .venv/bin/python benchmarks/paper_measure.py [--corpus DIR] [--rounds 5] [--pdfs DIR]
        [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.paper.latex import find_main_file
from slopmark.paper.load import load_with_reference
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.score import score_paper

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[1] / "shared" / "corpora" / "papers"
TARGET = 20.0


def papers(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.iterdir() if p.is_dir())


def one_round(paths: list[Path], reference: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one pass over ``paths``."""
    specs = choose_measures("deterministic")
    started, cpu = time.perf_counter(), time.process_time()
    for path in paths:
        document, source = load_with_reference(path, None, reference)
        score_paper(document, specs, None, source)
    return time.perf_counter() - started, time.process_time() - cpu


def compiled(corpus: Path, folder: Path) -> list[Path]:
    """The corpus compiled by pdflatex as the PDF-route fidelity tests compile it."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from paper.pdflatex import available, compile_paper

    if not available():
        return []
    return [compile_paper(p, find_main_file(p).name, folder / p.name) for p in papers(corpus)]


def papers_only(pdfs: list[Path]) -> list[Path]:
    """The PDFs the PDF route reads as papers; each one it refuses (too little running
    text, no structure: a figure) is named on stderr and left out of the timing."""
    kept = []
    for pdf in pdfs:
        try:
            load_with_reference(pdf, None, False)
        except BadInput as error:
            print(f"PDF route: {error} (not timed)", file=sys.stderr)
        else:
            kept.append(pdf)
    return kept


def timed(
    name: str, paths: list[Path], rounds: int, run: Callable[[], tuple[float, float]]
) -> dict[str, object]:
    """Median wall and CPU time per round; papers/s per core is papers / median CPU time
    (on a shared machine the wall clock also counts other people's work)."""
    run()  # warm-up: imports, regex compilation, page cache
    walls, cpus = zip(*(run() for _ in range(rounds)), strict=True)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    rate = len(paths) / cpu
    print(f"{name}: {len(paths)} papers, median {wall:.3f} s wall / {cpu:.3f} s CPU per round,"
          f" {rate:.1f} papers per CPU-second ({len(paths) / wall:.1f}/s wall)")  # fmt: skip
    return {"papers": len(paths), "wall_s": list(walls), "cpu_s": list(cpus),
            "median_wall_s": wall, "median_cpu_s": cpu, "papers_per_s": rate}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pdfs", type=Path, help="a folder of PDFs for the PDF route")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not args.corpus.is_dir():
        raise SystemExit(f"{args.corpus}: no corpus folder; pass --corpus DIR")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    paths = papers(args.corpus)
    report = {
        "latex_default": timed("LaTeX, default profile", paths, args.rounds,
                               lambda: one_round(paths)),
        "latex_reference": timed("LaTeX, reference profile", paths, args.rounds,
                                 lambda: one_round(paths, reference=True)),
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        given = sorted(args.pdfs.glob("*.pdf")) if args.pdfs else None
        pdfs = papers_only(given if given is not None else compiled(args.corpus, Path(scratch)))
        if pdfs:
            report["pdf_default"] = timed("PDF route, default profile", pdfs, args.rounds,
                                          lambda: one_round(pdfs))  # fmt: skip
        else:
            print("PDF route: not timed (no PDF of a paper: pass --pdfs, or install pdflatex"
                  " with texlive-latex-extra to compile the corpus)")  # fmt: skip
    for key in ("latex_default", "latex_reference"):
        rate = float(report[key]["papers_per_s"])  # type: ignore[arg-type]
        verdict = "met" if rate >= TARGET else "MISSED"
        print(f"  {key}: {rate:.1f} papers/s on one core (target >= {TARGET:.0f}: {verdict})")
    if args.json:
        args.json.write_text(json.dumps({**report, "target": TARGET}, indent=1) + "\n")

if __name__ == "__main__":
    main()
