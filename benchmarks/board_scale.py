"""Scale benchmark of the board: `board show` and `board export` on 1,000,000 stored runs.

The store is SQLite with 50 models × 8 domains × 2,500 tasks (one run each), built once
through the real schema (`slopmark.store.open_store`) and cached in benchmarks/.cache/.
Each command runs as a whole subprocess of the real CLI, timed with the wall clock; the
commands go round-robin after one untimed warm-up round, and each is reported by its median.

    .venv/bin/python benchmarks/board_scale.py [--runs N] [--skip json] [--json OUT] [--smoke]

"Rows" are the runs the command reads from the store (every run matching its filter).
A missed target is reported, not failed: the exit status is non-zero only when the
benchmark itself could not run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from slopmark.evals.task import DOMAINS
from slopmark.store import open_store

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
BIN = Path(sys.executable).parent
TEMPLATE_SIZE = 5
SEED = 20260101
BATCH = 50_000
RUN_TIMEOUT = 1800
SHOW_DOMAIN = "math"
#: share of runs that errored, that were pasted, and of model runs without a known cost
ERRORED, PASTED, UNPRICED = 0.03, 0.05, 0.02
#: targets: seconds for one domain's board, runs read per second for the CSV export
SHOW_TARGET_S = 1.0
EXPORT_TARGET_ROWS_S = 200_000

COLUMNS = (
    "task_id", "domain", "model", "provider", "upstream", "harness_version", "mode",
    "task_set_version", "attempt", "source", "template_id", "output", "passed", "score",
    "details", "ambiguous", "latency_first_byte_ms", "latency_ms", "input_tokens",
    "output_tokens", "finish_reason", "truncated", "cost_usd", "paste", "status", "error",
    "created_at",
)  # fmt: skip


class BenchError(Exception):
    """The benchmark itself cannot run."""


@dataclass(frozen=True)
class Size:
    """How many models and tasks per domain the store holds (one run each)."""

    models: int = 50
    tasks: int = 2_500

    @property
    def total(self) -> int:
        return self.models * len(DOMAINS) * self.tasks

    @property
    def store(self) -> Path:
        name = "board-1m.db" if self == Size() else f"board-{self.models}x{self.tasks}.db"
        return CACHE / name


#: `--smoke`: a store of 2 models × 8 domains × 10 tasks, built in a second
SMOKE = Size(models=2, tasks=10)


def log(message: str) -> None:
    print(f"[board_scale] {message}", file=sys.stderr, flush=True)


# --- the store ----------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    name: str
    skill: float
    #: USD per run, None for a model whose price is unknown (e.g. a local one)
    price: float | None


def make_models(rng: random.Random, count: int) -> list[Model]:
    models = []
    for number in range(count):
        price = None if number % 10 == 9 else round(rng.uniform(0.0002, 0.02), 5)
        models.append(Model(f"bench-model-{number:02d}", rng.uniform(0.35, 0.95), price))
    return models


def _details(domain: str, passed: bool, rng: random.Random) -> str:
    if domain != "calibration":
        return "{}"
    confidence = None if rng.random() < 0.05 else round(rng.random(), 2)
    return json.dumps({"confidence": confidence, "correct": passed})


def _run(model: Model, domain: str, task: int, rng: random.Random, stamp: str) -> tuple[Any, ...]:
    """One stored run of ``model`` on task ``task`` of ``domain``, as a row of `COLUMNS`."""
    template = task // TEMPLATE_SIZE
    template_id = f"{domain}.t{template:04d}"
    task_id = f"{template_id}.v{task % TEMPLATE_SIZE}"
    source = ("seed", "community", "original")[template % 3]
    head = (task_id, domain, model.name, "bench", None, "1.0", "api", "2026.1", 1, source)
    head += (template_id,)
    if rng.random() < ERRORED:
        tail = ("", None, None, "{}", 0, None, None, None, None, None, 0, None, 0, "error")
        return (*head, *tail, "timeout after 60 s", stamp)
    passed = rng.random() < model.skill * (0.7 + 0.6 * ((template * 7919) % 100) / 100)
    score = 1.0 if passed else round(rng.random() * 0.5, 3)
    paste = rng.random() < PASTED
    latency = None if paste else round(rng.uniform(200, 9000), 1)
    cost = None if paste or model.price is None or rng.random() < UNPRICED else model.price
    details, first_byte = _details(domain, passed, rng), latency and round(latency / 4, 1)
    return (
        *head, "answer", int(passed), score, details, 0, first_byte, latency,
        120, 80, "stop", 0, cost, int(paste), "ok", None, stamp,
    )  # fmt: skip


def generate_runs(size: Size) -> Iterator[tuple[Any, ...]]:
    rng = random.Random(SEED)
    stamp = "2026-01-01 00:00:00.000000"
    for model in make_models(rng, size.models):
        for domain in DOMAINS:
            for task in range(size.tasks):
                yield _run(model, domain, task, rng, stamp)


def insert_runs(connection: sqlite3.Connection, size: Size) -> None:
    """Insert every run of ``size`` into the store's ``runs`` table, in one transaction."""
    insert = f"INSERT INTO runs ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
    with connection:
        runs = generate_runs(size)
        while batch := [row for _, row in zip(range(BATCH), runs, strict=False)]:
            connection.executemany(insert, batch)


def build_store(path: Path, size: Size) -> None:
    """Create the store with `open_store` (the real schema), then insert every run at once."""
    partial = path.with_suffix(".partial")
    for leftover in CACHE.glob(partial.name + "*"):
        leftover.unlink()
    open_store(f"sqlite:///{partial}").dispose()
    start = time.perf_counter()
    connection = sqlite3.connect(partial)
    insert_runs(connection, size)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    partial.rename(path)
    log(f"built {path} with {size.total:,} runs in {time.perf_counter() - start:.0f} s")


def store_runs(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute("SELECT count(*) FROM runs").fetchone()[0])
    finally:
        connection.close()


def ensure_store(size: Size) -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    store = size.store
    if store.exists() and store_runs(store) == size.total:
        log(f"using the cached store {store}")
        return store
    log(f"building {store} ({size.total:,} runs; once, about a minute for a million)")
    store.unlink(missing_ok=True)
    build_store(store, size)
    return store


def domain_runs(path: Path, domain: str) -> int:
    connection = sqlite3.connect(path)
    try:
        query = "SELECT count(*) FROM runs WHERE domain = ?"
        return int(connection.execute(query, (domain,)).fetchone()[0])
    finally:
        connection.close()


# --- the timed commands -------------------------------------------------------------


@dataclass
class Command:
    name: str
    argv: list[str]
    #: runs the command reads from the store
    rows: int
    #: "s" (target: at most so many seconds) or "rows/s" (target: at least so many)
    target_kind: str | None = None
    target: float | None = None
    times: list[float] = field(default_factory=list)
    status: str = "ok"

    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    def value(self) -> float | None:
        median = self.median()
        if median is None or self.target_kind is None:
            return None
        return median if self.target_kind == "s" else self.rows / median

    def verdict(self) -> str:
        value = self.value()
        if value is None or self.target is None:
            return ""
        met = value <= self.target if self.target_kind == "s" else value >= self.target
        return "met" if met else "MISSED"


def commands(store: Path, total: int, out: Path, skip: list[str]) -> list[Command]:
    tool, db = str(BIN / "slopmark"), f"sqlite:///{store}"
    if not Path(tool).exists():
        raise BenchError(f"slopmark is not installed in this interpreter's venv ({tool})")
    show = [tool, "board", "show", "--domain", SHOW_DOMAIN, "--json", "--db", db]
    export = [tool, "board", "export", "--db", db, "--out", str(out), "--format"]
    found = [
        Command(f"board show --domain {SHOW_DOMAIN} --json", show,
                domain_runs(store, SHOW_DOMAIN), "s", SHOW_TARGET_S),
        Command("board export --format csv", [*export, "csv"], total,
                "rows/s", EXPORT_TARGET_ROWS_S),
        Command("board export --format json", [*export, "json"], total),
    ]  # fmt: skip
    return [c for c in found if c.name.rsplit(" ", 1)[-1] not in skip]


def execute(command: Command) -> float:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command.argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=RUN_TIMEOUT
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BenchError(f"{command.name}: {error}") from error
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        last = (done.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
        raise BenchError(f"{command.name} exited {done.returncode}: {last}")
    return elapsed


def time_round_robin(found: list[Command], runs: int) -> None:
    log("warm-up round (untimed: page cache, pending migrations)")
    for command in found:
        execute(command)
    for number in range(1, runs + 1):
        for command in found:
            elapsed = execute(command)
            command.times.append(elapsed)
            log(f"round {number}/{runs} {command.name}: {elapsed:.2f} s")


# --- the report ---------------------------------------------------------------------


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def _target(command: Command) -> str:
    if command.target is None:
        return "(information)"
    if command.target_kind == "s":
        return f"< {command.target:g} s"
    return f">= {command.target:,.0f} rows/s"


def table_row(command: Command) -> list[str]:
    median = command.median()
    if median is None:
        return [command.name, "-", f"{command.rows:,}", "-", _target(command), "", command.status]
    runs = " ".join(f"{t:.2f}" for t in command.times)
    rate = f"{command.rows / median:,.0f}"
    return [command.name, f"{median:.2f}", f"{command.rows:,}", rate, _target(command),
            command.verdict(), runs]  # fmt: skip


def print_report(context: dict[str, Any], found: list[Command]) -> None:
    host = context["machine"]
    print(
        f"board scale benchmark, {context['date']}: {host['cores']} cores, Python "
        f"{host['python']}, load average {host['load_before']:.2f} before and "
        f"{host['load_after']:.2f} after; median of {context['runs']} run(s) (wall clock, "
        "whole CLI subprocess, after one warm-up round)"
    )
    print(
        f"store: {context['total_runs']:,} runs in SQLite ({context['models']} models × "
        f"{len(DOMAINS)} domains × {context['tasks']:,} tasks; {ERRORED:.0%} errored, "
        f"{PASTED:.0%} pasted), {context['store_mb']:.0f} MB; rows = runs the command reads "
        "from the store\n"
    )
    head = ["command", "median s", "rows", "rows/s", "target", "", "runs (s)"]
    print(format_table([head, *(table_row(command) for command in found)]))


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_before": os.getloadavg()[0],
    }


def save_json(path: Path, context: dict[str, Any], found: list[Command]) -> None:
    results = {
        command.name: {
            "status": command.status, "median_s": command.median(), "rows": command.rows,
            "rows_per_s": command.rows / m if (m := command.median()) else None,
            "target": command.target, "target_kind": command.target_kind,
            "verdict": command.verdict() or None, "times_s": command.times,
        }
        for command in found
    }  # fmt: skip
    path.write_text(json.dumps({**context, "results": results}, indent=1) + "\n", "utf-8")
    log(f"results saved to {path}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each command (3)")
    parser.add_argument(
        "--skip", action="append", default=[], choices=("json",), help="leave the JSON export out"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also save the results here")
    parser.add_argument(
        "--smoke", action="store_true",
        help=f"a store of {SMOKE.total} runs instead of a million (make check's smoke run)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def run(args: argparse.Namespace) -> int:
    context: dict[str, Any] = {"date": date.today().isoformat(), "machine": machine()}
    size = SMOKE if args.smoke else Size()
    store = ensure_store(size)
    found = commands(store, size.total, Path(os.devnull), args.skip)
    time_round_robin(found, args.runs)
    context["machine"]["load_after"] = os.getloadavg()[0]
    context |= {"runs": args.runs, "store_mb": store.stat().st_size / 1e6, "store": str(store)}
    context |= {"models": size.models, "tasks": size.tasks, "total_runs": size.total}
    print_report(context, found)
    if args.json is not None:
        save_json(args.json, context, found)
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(parse_args(argv))
    except (BenchError, sqlite3.Error) as error:
        print(f"board_scale.py: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
