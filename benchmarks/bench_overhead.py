"""Harness overhead per checkpoint of `slopmark code bench run`, with the replay agent.

The replay agent copies each checkpoint's reference solution, so the agent costs almost
nothing and what is timed is the harness: restoring and snapshotting the workspace, the
workspace environment, starting the bubblewrap sandbox, the hidden test session and the
quality metrics. As a baseline, the same hidden tests run against the same reference
solution with plain pytest on the host (no sandbox, no copies, no metrics); the
difference is the harness's overhead.

    .venv/bin/python benchmarks/bench_overhead.py [--problems DIR] [--runs N] [--json OUT]

Every figure is the median over the runs (these machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from slopmark.code.bench.envs import hidden_test_environment
from slopmark.code.bench.problem import Problem, load_problems
from slopmark.code.bench.pythons import probe

HERE = Path(__file__).resolve().parent
PROBLEMS = HERE.parent / "src" / "slopmark" / "problems"
PARTS = ("agent_s", "tests_s", "metrics_s", "total_s")


def bwrap_start(runs: int) -> float:
    """Median seconds of `bwrap ... true`: the sandbox's own start and stop."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
             "--unshare-net", "--unshare-pid", "--die-with-parent", "true"],
            check=True,
        )  # fmt: skip
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def harness_run(problems: Path, names: list[str], out: Path) -> list[dict[str, Any]]:
    """One `bench run --agent replay`; every checkpoint's timings from its result.json."""
    command = [
        sys.executable, "-m", "slopmark", "code", "bench", "run", "--problems", str(problems),
        "--agent", "replay", "--sandbox", "bwrap", "--out", str(out),
        "--db", f"sqlite:///{out.parent / (out.name + '.db')}",
        *[arg for name in names for arg in ("--problem", name)],
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench run failed:\n{done.stdout}\n{done.stderr}")
    return [json.loads(p.read_text()) for p in sorted(out.glob("*/checkpoint_*/result.json"))]


def bare_pytest(problem: Problem, test_env: Path) -> list[float]:
    """Seconds of plain pytest, per checkpoint, on the host against the reference solution."""
    times = []
    for checkpoint in problem.checkpoints:
        solution = problem.solution_dir(checkpoint)
        assert solution is not None, f"{problem.name}/{checkpoint.name} has no reference"
        files = [str(path) for path in problem.test_files(checkpoint)]
        started = time.perf_counter()
        subprocess.run(
            [str(test_env / "bin" / "python"), "-m", "pytest", *files, "-q",
             "-p", "no:cacheprovider",
             f"--entrypoint={sys.executable} {solution / problem.entry_script}",
             f"--checkpoint={checkpoint.name}"],
            capture_output=True, cwd=tempfile.gettempdir(), check=False,
        )  # fmt: skip
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=Path, default=PROBLEMS)
    parser.add_argument("--problem", action="append", default=[])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    problems = load_problems(args.problems, args.problem or None)
    names = [p.name for p in problems]
    checkpoints = sum(len(p.checkpoints) for p in problems)
    per_part: dict[str, list[float]] = {part: [] for part in PARTS}
    bare: list[float] = []
    python = probe(Path(sys.executable))
    assert python is not None, f"{sys.executable}: not a usable Python"
    # the hidden tests' environment of each problem, as `bench run` makes it for this Python
    test_envs = {p.name: hidden_test_environment(p.test_dependencies, python) for p in problems}
    with tempfile.TemporaryDirectory(prefix="slopmark-bench-overhead-") as scratch:
        for index in range(args.runs):
            results = harness_run(args.problems, names, Path(scratch) / f"run{index}")
            for part in PARTS:
                total = sum(r["timings"].get(part, 0.0) for r in results)
                per_part[part].append(total / checkpoints)
            seconds = sum(t for p in problems for t in bare_pytest(p, test_envs[p.name]))
            bare.append(seconds / checkpoints)
    report = {
        "problems": names, "checkpoints": checkpoints, "runs": args.runs,
        "bwrap_start_s": bwrap_start(max(5, args.runs)),
        "per_checkpoint_s": {part: statistics.median(v) for part, v in per_part.items()},
        "bare_pytest_per_checkpoint_s": statistics.median(bare),
    }  # fmt: skip
    report["overhead_per_checkpoint_s"] = (
        report["per_checkpoint_s"]["total_s"] - report["bare_pytest_per_checkpoint_s"]
    )
    print(f"{checkpoints} checkpoints of {', '.join(names)}; medians of {args.runs} runs")
    print(f"  bwrap start+stop          {report['bwrap_start_s']:.3f} s")
    for part, value in report["per_checkpoint_s"].items():
        print(f"  {part:25} {value:.3f} s per checkpoint")
    bare_s = report["bare_pytest_per_checkpoint_s"]
    print(f"  bare pytest (host)        {bare_s:.3f} s per checkpoint")
    print(f"  harness overhead          {report['overhead_per_checkpoint_s']:.3f} s per checkpoint")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
