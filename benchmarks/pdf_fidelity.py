"""Agreement of the PDF route with the LaTeX route on the shared corpus (and fixtures).

Compiles each paper of the shared corpus (`../shared/corpora/papers`, or --corpus) with
pdflatex as the PDF fidelity tests do, reads both the source and the PDF, and prints per
paper and deterministic measure the units and flagged counts of each route, then the
agreement over all papers: the share of (paper, measure) pairs whose units and flagged
counts are both within ±1, the mean absolute score difference, and Pearson's r of the
aggregate. With --figures DIR it also reads each PDF there and counts how many are
refused (exit 2 by the CLI; BadInput here) — standalone figures should all be.

    .venv/bin/python benchmarks/pdf_fidelity.py [--corpus DIR] [--extra DIR/main.tex ...]
        [--figures DIR] [--square] [--json OUT]
    .venv/bin/python benchmarks/pdf_fidelity.py --smoke   # one fixture, no corpus

--square compiles every paper with natbib's ``square`` option, so its author–year
citations print as NeurIPS' template prints them (``Lenc and Vedaldi [2015]``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.paper.latex import find_main_file
from slopmark.paper.load import load_paper
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.score import score_paper

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[1] / "shared" / "corpora" / "papers"
sys.path.insert(0, str(HERE.parent / "tests"))
SMOKE_FIXTURE = HERE.parent / "tests" / "paper" / "fixtures" / "pdf" / "neurips_bracketed.tex"


def _reading(path: Path) -> dict[str, object]:
    """Sections, aggregate and per measure (units, flagged, score) of one route."""
    document = load_paper(path)
    scored = score_paper(document, choose_measures("deterministic"))
    measures = {r.measure: [r.units, r.flagged, r.score] for r in scored.results}
    cited = sum(len(citation.keys) for citation in document.citations)
    return {"sections": len(document.body_sections()), "aggregate": scored.aggregate,
            "measures": measures, "cited": cited,
            "bibliography": len(document.bibliography)}  # fmt: skip


def compare(tex: Path, pdf: Path) -> dict[str, object]:
    """Both readings of one paper and whether each measure agrees within ±1."""
    latex, from_pdf = _reading(tex), _reading(pdf)
    agree = {}
    for name, (units, flagged, _) in latex["measures"].items():  # type: ignore[attr-defined]
        p_units, p_flagged, _ = from_pdf["measures"][name]  # type: ignore[index]
        agree[name] = abs(units - p_units) <= 1 and abs(flagged - p_flagged) <= 1
    return {"latex": latex, "pdf": from_pdf, "within_one": agree}


def _pearson(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return None
    return statistics.correlation(xs, ys)


def summary(rows: dict[str, dict[str, object]]) -> dict[str, object]:
    """Pairs within ±1, mean |score difference| per measure, r of the aggregate."""
    pairs = [ok for row in rows.values() for ok in row["within_one"].values()]  # type: ignore[attr-defined]
    diffs: dict[str, list[float]] = {}
    for row in rows.values():
        for name, (_, _, score) in row["latex"]["measures"].items():  # type: ignore[index]
            other = row["pdf"]["measures"][name][2]  # type: ignore[index]
            if score is not None and other is not None:
                diffs.setdefault(name, []).append(abs(score - other))
    aggregates = [(r["latex"]["aggregate"], r["pdf"]["aggregate"]) for r in rows.values()]  # type: ignore[index]
    both = [(a, b) for a, b in aggregates if a is not None and b is not None]
    sections = sum(r["latex"]["sections"] == r["pdf"]["sections"] for r in rows.values())  # type: ignore[index]
    cited = sum(abs(r["latex"]["cited"] - r["pdf"]["cited"]) <= 1 for r in rows.values())  # type: ignore[index,operator]
    return {
        "papers": len(rows), "same_sections": sections, "cited_within_one": cited,
        "within_one": sum(pairs), "pairs": len(pairs),
        "mean_abs_score_diff": {k: statistics.fmean(v) for k, v in diffs.items()},
        "aggregate_r": _pearson([a for a, _ in both], [b for _, b in both]),
        "aggregate_max_diff": max((abs(a - b) for a, b in both), default=None),
    }  # fmt: skip


def _squared(folder: Path, main_name: str, copy: Path) -> Path:
    """A copy of the paper whose natbib citations print in square brackets."""
    shutil.copytree(folder, copy)
    tex = copy / main_name
    tex.write_text("\\PassOptionsToPackage{square}{natbib}\n" + tex.read_text(errors="replace"))
    return copy


def refused(folder: Path) -> dict[str, str | None]:
    """PDF name → the refusal message, or None when it was read as a paper."""
    found: dict[str, str | None] = {}
    for pdf in sorted(folder.glob("*.pdf")):
        try:
            load_paper(pdf)
            found[pdf.name] = None
        except BadInput as error:
            found[pdf.name] = str(error)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--extra", type=Path, nargs="*", default=[], help="more main .tex files")
    parser.add_argument("--figures", type=Path, help="a folder of figure PDFs to be refused")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--square", action="store_true",
                        help="print natbib citations in square brackets (NeurIPS' default)")
    parser.add_argument("--smoke", action="store_true", help="one fixture only, no corpus")
    args = parser.parse_args()
    from paper.pdflatex import compile_paper

    corpus = [] if args.smoke else sorted(args.corpus.iterdir())
    sources = [(p, find_main_file(p).name) for p in corpus if p.is_dir()]
    if args.smoke:
        args.extra = [SMOKE_FIXTURE]
    sources += [(tex.parent, tex.name) for tex in args.extra]
    rows: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for folder, main_name in sources:
            name = f"{folder.name}/{main_name}"
            work = Path(scratch) / name.replace("/", "_")
            source = _squared(folder, main_name, work / "src") if args.square else folder
            pdf = compile_paper(source, main_name, work / "pdf")
            rows[name] = compare(folder / main_name, pdf)
            print(name, json.dumps(rows[name]), flush=True)
    report: dict[str, object] = {"papers": rows, "summary": summary(rows)}
    if args.figures:
        figures = refused(args.figures)
        report["figures"] = figures
        print(f"figure PDFs refused: {sum(v is not None for v in figures.values())} "
              f"of {len(figures)}")  # fmt: skip
    print(json.dumps(report["summary"], indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
