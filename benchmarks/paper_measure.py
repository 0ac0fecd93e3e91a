"""Speed of the deterministic paper measures: papers per second on one core.

Reads every paper of the shared corpus (`../shared/corpora/papers`, or --corpus), then
times, in this one process, repeated rounds of: parse the LaTeX tree into a Document and
run the four deterministic measures (macro redundancy, cross-section references, citation
isolation, evidence gap) with the aggregate. The target is ≥ 20 papers/s on one core
(the "Science or Slop?" corpus of 780 papers in under a minute). Every figure is the
median over rounds; the machines are shared and noisy.

    .venv/bin/python benchmarks/paper_measure.py [--corpus DIR] [--rounds 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from slopmark.paper.load import load_paper
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.score import score_paper

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[1] / "shared" / "corpora" / "papers"
TARGET = 20.0


def papers(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.iterdir() if p.is_dir())


def one_round(paths: list[Path]) -> float:
    specs = choose_measures("deterministic")
    started = time.perf_counter()
    for path in paths:
        score_paper(load_paper(path), specs)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not args.corpus.is_dir():
        raise SystemExit(f"{args.corpus}: no corpus folder; pass --corpus DIR")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    paths = papers(args.corpus)
    one_round(paths)  # warm-up: imports, regex compilation, page cache
    times = [one_round(paths) for _ in range(args.rounds)]
    median = statistics.median(times)
    rate = len(paths) / median
    verdict = "met" if rate >= TARGET else "MISSED"
    print(f"{len(paths)} papers, {args.rounds} rounds on one core: median {median:.3f} s per round")
    print(f"  {rate:.1f} papers/s (target >= {TARGET:.0f}: {verdict}); rounds: "
          + " ".join(f"{t:.3f}" for t in times))  # fmt: skip
    if args.json:
        report = {"papers": len(paths), "rounds": times, "median_s": median,
                  "papers_per_s": rate, "target": TARGET, "met": rate >= TARGET}  # fmt: skip
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
