"""Speed of the content cache and of `slopmark code diff` on CPython's `Lib/` (issue 15).

Every case runs the real CLI as a subprocess on a git repository holding `Lib/` (built
once in benchmarks/.cache), timed with the wall clock, round-robin over the cases
(medians of --runs):

- cold measure: `code measure REPO` with an empty cache folder (the baseline);
- no-cache measure: the same with `--no-cache` (the cost of filling the cache);
- warm measure: the unchanged tree, cache filled;
- warm measure after editing one file (a new function appended, new content each run);
- warm `code diff` of that one-file change (HEAD against the work tree), with the base
  tree's summary cached (the second diff against the same base, as in a pre-commit hook);
- the same when the base tree's summary is not cached yet (the first diff against a base:
  the per-file results are warm, the tree is summed up once).

Targets: warm ≤ 10% of cold; after an edit ≤ 15%; the diff under 1 s. The cache's size on
disk is reported too, and each case's CPU seconds (user + system of slopmark and the git
processes it runs): on a shared machine the wall clock of a short run is mostly waiting
for a core, the CPU time is what the run itself costs. ``--profile`` prints where a warm
measure spends its time (cProfile of one in-process run).

    .venv/bin/python benchmarks/code_diff.py [--runs 3] [--tree PATH] [--json OUT] [--profile]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from code_measure import CACHE, find_slopmark, log, stdlib_tree

from slopmark.code.measure.cache.store import FILE_NAME

EDITED = "json/__init__.py"


@dataclass
class Case:
    name: str
    argv: Callable[[], list[str]]
    env: Callable[[], dict[str, str]]
    prepare: Callable[[], None] = lambda: None
    times: list[float] = field(default_factory=list)
    #: CPU seconds (user + system) of the process and its children (git), per run
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def git(repo: Path, *args: str) -> str:
    command = ["git", "-C", str(repo), "-c", "user.email=b@b", "-c", "user.name=bench", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def lib_repo(tree: Path) -> Path:
    """A git repository whose one commit holds ``tree`` (made once)."""
    repo = CACHE / f"diff-repo-{tree.name}"
    stamp = repo.parent / f"{repo.name}.complete"
    if not stamp.exists():
        log(f"building {repo} from {tree}")
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(tree, repo, symlinks=True)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "Lib/")
        stamp.write_text(str(tree), encoding="utf-8")
    git(repo, "checkout", "-q", "--", ".")
    return repo


class Editor:
    """Appends a new function to one file before each run (new content every time):
    `EDITED` in `Lib/`, the first Python file by path in a tree without it."""

    def __init__(self, repo: Path) -> None:
        named = repo / EDITED
        self.target = named if named.is_file() else min(repo.rglob("*.py"))
        self.original = self.target.read_bytes()
        self.count = 0

    def __call__(self) -> None:
        self.count += 1
        n = self.count
        extra = f"\n\ndef _bench_edit_{n}(value):\n    if value:\n        return {n}\n    return 0"
        self.target.write_bytes(self.original + extra.encode() + b"\n")

    def restore(self) -> None:
        self.target.write_bytes(self.original)


def cases(slopmark: Path, repo: Path, folder: Path, editor: Editor) -> list[Case]:
    cold_cache, warm_cache = folder / "cold", folder / "warm"

    def env(cache: Path) -> Callable[[], dict[str, str]]:
        return lambda: dict(os.environ, SLOPMARK_CACHE=str(cache))

    def emptied() -> None:
        shutil.rmtree(cold_cache, ignore_errors=True)
        editor.restore()

    def forget_trees() -> None:
        editor()
        with sqlite3.connect(warm_cache / FILE_NAME) as db:
            db.execute("DELETE FROM trees")

    measure = [str(slopmark), "code", "measure", str(repo)]
    diff = [str(slopmark), "code", "diff", "-C", str(repo)]
    return [
        Case("cold measure (empty cache)", lambda: measure, env(cold_cache), emptied),
        Case(
            "measure --no-cache", lambda: [*measure, "--no-cache"], env(cold_cache), editor.restore
        ),
        Case("warm measure, unchanged tree", lambda: measure, env(warm_cache), editor.restore),
        Case("warm measure, one file edited", lambda: measure, env(warm_cache), editor),
        Case("warm code diff, one file edited", lambda: diff, env(warm_cache), editor),
        Case("first code diff against the base", lambda: diff, env(warm_cache), forget_trees),
    ]


def run(case: Case) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``case``."""
    case.prepare()
    used = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(case.argv(), capture_output=True, env=case.env())
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 2):  # 2: Lib/ has malformed `slopmark: ignore` comments
        raise SystemExit(f"{case.name} failed: {done.stderr.decode(errors='replace')[-400:]}")
    return elapsed, _children_cpu() - used


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def size_on_disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def profile_warm(repo: Path, cache: Path) -> None:
    """cProfile of one warm measure, in process (the top entries by cumulative time)."""
    import cProfile
    import pstats

    os.environ["SLOPMARK_CACHE"] = str(cache)
    from slopmark.cli.main import app

    profiler = cProfile.Profile()
    profiler.enable()
    with contextlib.suppress(SystemExit):
        app(["code", "measure", str(repo), "--top", "0"], standalone_mode=False)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(30)


def verdict(value: float, bound: float) -> str:
    return "met" if value <= bound else "MISSED"


def report(timed: list[Case], cache_bytes: int, files: int) -> dict[str, Any]:
    cold = timed[0].median
    rows = []
    for case in timed:
        ratio = case.median / cold
        rows.append({"case": case.name, "median_s": case.median, "runs_s": case.times,
                     "of_cold": ratio, "median_cpu_s": statistics.median(case.cpu),
                     "cpu_s": case.cpu})  # fmt: skip
    checks = {
        "warm unchanged <= 10% of cold": verdict(timed[2].median / cold, 0.10),
        "warm after one edit <= 15% of cold": verdict(timed[3].median / cold, 0.15),
        "warm code diff of one edit < 1 s": verdict(timed[4].median, 1.0),
    }
    return {"files": files, "cache_bytes": cache_bytes, "rows": rows, "targets": checks}


def print_report(result: dict[str, Any]) -> None:
    print(f"tree: {result['tree']} ({result['files']} *.py files)")
    print(f"load average before/after: {result['load']}")
    print(f"{'case':36} {'median s':>9} {'of cold':>8} {'CPU s':>7}  runs (s)")
    for row in result["rows"]:
        runs = ", ".join(f"{t:.2f}" for t in row["runs_s"])
        print(f"{row['case']:36} {row['median_s']:9.3f} {row['of_cold']:8.1%} "
              f"{row['median_cpu_s']:7.2f}  {runs}")  # fmt: skip
    print(f"cache size on disk: {result['cache_bytes'] / 2**20:.1f} MiB")
    for name, outcome in result["targets"].items():
        print(f"{name:40} {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tree", type=Path, help="measure this folder instead of Lib/")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--profile", action="store_true", help="profile one warm measure")
    args = parser.parse_args()
    tree = args.tree.resolve() if args.tree else stdlib_tree()[0]
    repo, slopmark = lib_repo(tree), find_slopmark()
    folder = CACHE / "diff-caches"
    shutil.rmtree(folder, ignore_errors=True)
    editor = Editor(repo)
    timed = cases(slopmark, repo, folder, editor)
    log("filling the warm cache")
    run(Case("fill", timed[2].argv, timed[2].env))
    run(Case("fill", timed[4].argv, timed[4].env))
    load = [os.getloadavg()[0]]
    for round_number in range(1, args.runs + 1):
        for case in timed:
            elapsed, cpu = run(case)
            case.times.append(elapsed)
            case.cpu.append(cpu)
            log(f"round {round_number}/{args.runs} {case.name}: {case.times[-1]:.3f} s")
    editor.restore()
    files = sum(1 for _ in repo.rglob("*.py"))
    load.append(os.getloadavg()[0])
    result = report(timed, size_on_disk(folder / "warm"), files)
    result |= {"tree": str(tree), "load": " / ".join(f"{x:.1f}" for x in load)}
    print_report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    if args.profile:
        profile_warm(repo, folder / "warm")


if __name__ == "__main__":
    main()
