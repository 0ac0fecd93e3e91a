"""Fuzz the JSON API with schemathesis against a real ``slopmark serve`` on 127.0.0.1.

`serve` starts the real CLI on a seeded SQLite store (real runs scored by
the real verifiers, so ``/api/runs/{id}``, leaderboards and exports have
data); `fuzz_api` runs the schemathesis CLI against its ``/openapi.json``.
A hooks file (``st_hooks.py``) logs each response's operation and status,
and schemathesis's JSON report lists the failed checks; `ApiCounts` holds
both (NDJSON or HAR reports keep every body: gigabytes in a long run).

Checks: every schemathesis check (a response slower than 60 s fails: a hang, not
a speed measure) but ``positive_data_acceptance``. That one
expects a schema-valid request to be accepted, but the server also checks
values a schema cannot list, answering 400 with the reason (a task id that
is not in the pool, a domain with no runs, an unknown model for a gate);
400 is declared on those operations.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from slopmark.evals.pool import load_pool, task_set_version
from slopmark.evals.runner import PASTE_PROVIDER, paste_run
from slopmark.store import Series, insert_run, open_store

TOKEN = "fuzz-token-3b9e"
EXCLUDED_CHECKS = ("positive_data_acceptance",)
ANSWERS = ("Answer: 5", '{"a": 1}', "I can't help with that.", "Final line: \"x, y\"", "x")


@dataclass
class ApiCounts:
    """What one schemathesis run did, read from its NDJSON report."""

    label: str
    #: requests sent per operation ("GET /api/runs/{run_id}"), stateful steps included
    requests: Counter[str] = field(default_factory=Counter)
    #: responses per operation and status code
    statuses: dict[str, Counter[int]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    exit_code: int | None = None
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        return sum(n for codes in self.statuses.values() for c, n in codes.items() if c >= 500)

    def as_json(self) -> dict[str, Any]:
        statuses = {op: dict(sorted(codes.items())) for op, codes in sorted(self.statuses.items())}
        return {
            "label": self.label, "exit_code": self.exit_code, "seconds": round(self.seconds, 1),
            "requests": dict(sorted(self.requests.items())), "statuses": statuses,
            "server_errors": self.server_errors, "failures": self.failures, "errors": self.errors,
        }  # fmt: skip


def seed_store(db_url: str, per_domain: int = 3) -> int:
    """Paste runs scored by the real verifiers: a few tasks of every domain. Returns the count."""
    engine = open_store(db_url)
    pool = load_pool()
    stored = 0
    try:
        for domain in sorted({task.domain for task in pool}):
            tasks = [task for task in pool if task.domain == domain][:per_domain]
            version = task_set_version([task for task in pool if task.domain == domain])
            for number, task in enumerate(tasks):
                for model in ("model-a", "model-b"):
                    series = Series(model, PASTE_PROVIDER, "h1", "standard", version)
                    answer = ANSWERS[(number + len(model)) % len(ANSWERS)]
                    stored += insert_run(engine, paste_run(task, answer, series)) is not None
    finally:
        engine.dispose()
    return stored


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(db_url: str, token: str | None) -> Iterator[str]:
    """``slopmark serve`` on a free port of 127.0.0.1 until the block ends; yields its URL."""
    port = _free_port()
    command = [sys.executable, "-m", "slopmark", "serve", "--port", str(port), "--db", db_url]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}
    if token:
        command += ["--token", token]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process)
        httpx.get(url + "/api/tasks", timeout=120)  # the pool loads on first use: not fuzzed
        yield url
    finally:
        process.terminate()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def _wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"slopmark serve exited: {process.communicate()[1].decode()}")
        try:
            httpx.get(url + "/openapi.json", timeout=5)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError("slopmark serve did not start within 60 s")


HOOKS = Path(__file__).with_name("st_hooks.py")


def schemathesis_command(
    url: str, token: str | None, examples: int, report: Path, phases: str, seed: int
) -> list[str]:
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{url}/openapi.json",
        "--checks", "all", "--exclude-checks", ",".join(EXCLUDED_CHECKS),
        "--max-examples", str(examples), "--phases", phases, "--workers", "1",
        "--seed", str(seed), "--report", "json", "--report-json-path", str(report),
        "--request-timeout", "60", "--max-response-time", "60", "--no-color",
        "--suppress-health-check", "all",
    ]  # fmt: skip
    if token:
        command += ["--header", f"Authorization: Bearer {token}"]
    return command


def fuzz_api(
    url: str,
    token: str | None,
    label: str,
    report: Path,
    examples: int,
    phases: str = "examples,coverage,fuzzing,stateful",
    seed: int = 12,
) -> ApiCounts:
    """Run schemathesis against the server at ``url`` and count what it did (``report``
    names its JSON report; the response log goes beside it)."""
    started = time.monotonic()
    log = report.with_suffix(".tsv")
    log.unlink(missing_ok=True)
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS), "SLOPMARK_FUZZ_LOG": str(log)}
    done = subprocess.run(
        schemathesis_command(url, token, examples, report, phases, seed),
        capture_output=True, text=True, timeout=7200, cwd=report.parent, env=env,
    )  # fmt: skip
    counts = read_report(report, log, label)
    counts.exit_code = done.returncode
    counts.seconds = time.monotonic() - started
    if done.returncode not in (0, 1) and not counts.errors:
        counts.errors.append(done.stdout[-2000:] + done.stderr[-2000:])
    return counts


def read_report(report: Path, log: Path, label: str) -> ApiCounts:
    """The counts of a run: responses from the hook's log, failures from the JSON report."""
    counts = ApiCounts(label)
    if log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            operation, _, status = line.rpartition("\t")
            counts.requests[operation] += 1
            counts.statuses.setdefault(operation, Counter())[int(status)] += 1
    if not report.is_file():
        counts.errors.append(f"schemathesis wrote no report at {report}")
        return counts
    summary = json.loads(report.read_text(encoding="utf-8"))
    counts.failures = [_failure(failure) for failure in summary.get("failures", [])]
    counts.errors = [json.dumps(error, default=str)[:1000] for error in summary.get("errors", [])]
    return counts


def _failure(failure: Any) -> str:
    return json.dumps(failure, default=str)[:800]
