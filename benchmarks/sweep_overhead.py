"""What a sweep costs on Ray compared with the local process pool, on this machine.

1. **Scheduling overhead per unit**: 500 units that do nothing, on ``local`` (a pool
   of 2 processes) and on ``ray`` (a two-node cluster of 1 CPU each, started here).
   The figure is the marginal cost, (T(500) − T(1)) / 499, where T runs from the
   first unit submitted to the last one ended: what starting the pool (local) or
   the sweep's message desk (ray) costs is left out, and so is joining the cluster.
   Target: ray ≤ 20 ms per unit.
2. **Study throughput**: ``slopmark code study`` of 6 generated repositories × 30
   commits, as a user runs it (the CLI in a subprocess), ``--executor local --jobs 2``
   against ``--executor ray --address`` the same two-node cluster; commits measured
   per second. Both write to the same PostgreSQL server (a fresh schema per run), as
   a distributed study must. Target: ray ≥ 0.8 × local. On one box Ray can only
   cost: the figure says what it costs.

    .venv/bin/python benchmarks/sweep_overhead.py [--runs 3] [--units 500] [--pg URL]
                                                  [--json OUT] [--skip-study] [--skip ray]

``--pg`` defaults to $SLOPMARK_TEST_PG_URL (``bash .ci/postgres`` prints one); without
a PostgreSQL server part 2 says so and is left out. Every figure is the median of
``--runs`` runs, taken round-robin (one run of each, then the next round), because
the machine is shared and noisy. Needs ``pip install 'slopmark[ray]'``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from slopmark.executor import Unit, open_executor  # noqa: E402
from slopmark.sweep.drive import run_sweep  # noqa: E402
from sweep.conftest import make_repos  # noqa: E402  (the test suite's repository maker)
from sweep.raycluster import RayCluster  # noqa: E402  (and its two-node cluster)

TARGET_MS = 20.0
TARGET_RATIO = 0.8
REPOS, COMMITS = 6, 30


@dataclass(frozen=True)
class Way:
    """Where a sweep runs: the executor's name, its Ray address (None: the local pool),
    the flags `code study` gets for it and the variables its processes need."""

    name: str
    address: str | None
    flags: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)


def ways(cluster: RayCluster | None) -> list[Way]:
    """The local pool of 2 processes, and the cluster when there is one."""
    found = [Way("local", None, ("--executor", "local", "--jobs", "2"))]
    if cluster is not None:
        flags = ("--executor", "ray", "--address", cluster.address)
        found.append(Way("ray", cluster.address, flags, cluster.env))
    return found


def nothing(value: int) -> int:
    """The tiny unit: no work at all."""
    return value


def sweep_seconds(name: str, count: int, address: str | None) -> float:
    """Wall seconds of one sweep of ``count`` tiny units, from the first unit submitted to
    the last one ended (joining the cluster is left out; starting the pool is not)."""
    executor = open_executor(name, address=address, jobs=2 if address is None else 0)
    started = time.perf_counter()
    tally = run_sweep(executor, [Unit.call(f"u{i}", nothing, i) for i in range(count)])
    assert len(tally.finished) == count and not tally.failed, tally.to_json()
    return time.perf_counter() - started


def per_unit_ms(name: str, units: int, runs: int, address: str | None) -> dict[str, Any]:
    """The marginal milliseconds per unit, median of ``runs``."""
    samples = []
    for _ in range(runs):
        one = sweep_seconds(name, 1, address)
        many = sweep_seconds(name, units, address)
        samples.append(1000 * (many - one) / (units - 1))
    return {"median_ms": statistics.median(samples), "runs_ms": samples}


@contextmanager
def pg_schema(base: str) -> Iterator[str]:
    from sqlalchemy import create_engine, text

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def study_seconds(repos: Path, db: str, where: tuple[str, ...], env: dict[str, str]) -> float:
    out = Path(tempfile.mkdtemp(prefix="sweep-bench-"))
    command = [sys.executable, "-m", "slopmark", "code", "study", str(repos), "--commits",
               str(COMMITS), "--db", db, "--out", str(out), "--json", *where]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **env})
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"code study failed ({' '.join(where)}):\n{done.stderr[-3000:]}")
    summary = json.loads(done.stdout)
    assert summary["repos"]["stored"] == REPOS, summary
    return seconds


def throughput(repos: Path, pg: str, runs: int, where: list[Way]) -> dict[str, dict[str, Any]]:
    """Commits per second of each executor, round-robin, median of ``runs``."""
    seconds: dict[str, list[float]] = {way.name: [] for way in where}
    for _ in range(runs):
        for way in where:
            with pg_schema(pg) as db:
                seconds[way.name].append(study_seconds(repos, db, way.flags, way.env))
    commits = REPOS * COMMITS
    return {
        name: {"commits_per_s": commits / statistics.median(times), "runs_s": times}
        for name, times in seconds.items()
    }


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(results: dict[str, Any]) -> None:
    overhead = results["overhead"]
    local = overhead["local"]["median_ms"]
    print(f"scheduling overhead per unit ({results['units']} tiny units, median of "
          f"{results['runs']}):")  # fmt: skip
    if "ray" not in overhead:
        print(f"  local {local:8.2f} ms   ray skipped (--skip ray)")
    else:
        ray = overhead["ray"]["median_ms"]
        print(f"  local {local:8.2f} ms   ray {ray:8.2f} ms   "
              f"(target ray <= {TARGET_MS:.0f} ms: {_verdict(ray <= TARGET_MS)})")  # fmt: skip
    study = results.get("study")
    if study is None:
        print(f"study throughput: unavailable: {results['study_unavailable']}")
        return
    print(f"study throughput ({REPOS} repositories x {COMMITS} commits, median of "
          f"{results['runs']}):")  # fmt: skip
    rate_local = study["local"]["commits_per_s"]
    if "ray" not in study:
        print(f"  local {rate_local:6.2f} commits/s   ray skipped (--skip ray)")
        return
    rate_ray = study["ray"]["commits_per_s"]
    ratio = rate_ray / rate_local
    print(f"  local {rate_local:6.2f} commits/s   two-node ray {rate_ray:6.2f} commits/s   "
          f"ratio {ratio:.2f} (target >= {TARGET_RATIO}: {_verdict(ratio >= TARGET_RATIO)})")


def timed(label: str, work: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    found = work()
    print(f"[{label}: {time.perf_counter() - started:.0f} s]", file=sys.stderr)
    return found


def measure(args: argparse.Namespace, where: list[Way], results: dict[str, Any]) -> None:
    """Time the overhead per unit on each way, then (with PostgreSQL) the study."""
    results["overhead"] = {
        way.name: timed(way.name, lambda way=way: per_unit_ms(way.name, args.units, args.runs,
                                                               way.address))
        for way in where
    }  # fmt: skip
    if args.skip_study:
        results["study_unavailable"] = "left out (--skip-study)"
    elif args.pg:
        repos = make_repos(Path(tempfile.mkdtemp(prefix="sweep-repos-")), REPOS, COMMITS)
        results["study"] = timed("study", lambda: throughput(repos, args.pg, args.runs, where))
    else:
        results["study_unavailable"] = "no PostgreSQL (pass --pg URL; bash .ci/postgres)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--units", type=int, default=500)
    parser.add_argument("--pg", default=os.environ.get("SLOPMARK_TEST_PG_URL"))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--skip-study", action="store_true", help="Time the overhead only.")
    parser.add_argument(
        "--skip", action="append", default=[], choices=("ray",),
        help="the local pool only: no cluster (Ray need not be installed)",
    )  # fmt: skip
    args = parser.parse_args()
    results: dict[str, Any] = {"units": args.units, "runs": args.runs}
    cluster = None if "ray" in args.skip else RayCluster()
    try:
        if cluster is not None:
            os.environ.update(cluster.env)  # this process is a driver of the cluster too
            timed("cluster", lambda: (cluster.start_head(), cluster.add_node("second")))
        measure(args, ways(cluster), results)
    finally:
        if cluster is not None:
            cluster.stop()
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
