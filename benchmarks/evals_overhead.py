"""Harness overhead of `slopmark eval run` against inspect_ai, on a server that answers at once.

Both tools put the same number of one-line questions, at the same concurrency, to the same
local OpenAI-compatible server: tests/fakes/openai_server.py, run in a process of its own so
that its CPU is not the measured client's. The server answers every request at once with two
words, so what is timed is the harness: building requests, the HTTP client, parsing, scoring
and storing. Each tool runs as a whole subprocess timed with the wall clock; the runs go
round-robin and each tool is reported by its median.

    .venv/bin/python benchmarks/evals_overhead.py [--samples N] [--concurrency N]
        [--runs N] [--skip inspect] [--json OUT]

What each line of the report means: benchmarks/README.md. A missed target is reported, not
failed: the exit status is non-zero only when the benchmark itself could not run.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import IO, Any

from slopmark.store import insert_run, list_runs, open_store

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
TESTS = HERE.parent / "tests"
BIN = Path(sys.executable).parent

INSPECT_VERSION = "0.3.285"
INSPECT_VENV = CACHE / "inspect-venv"
SAMPLES = 2000
CONCURRENCY = 32
#: What the server answers to every request: two words, so parsing chunks is no bottleneck.
ANSWER = "Hello there."
#: The word both scorers look for in the answer (slopmark's required_phrase, inspect's includes).
EXPECTED = "hello"
#: inspect's `openai-api/<service>/<model>` reads <SERVICE>_BASE_URL and <SERVICE>_API_KEY.
INSPECT_MODEL = "openai-api/bench/bench"
API_KEY = "sk-bench-local"
TARGET = 2.0
INSTALL_TIMEOUT = 900
RUN_TIMEOUT = 1800

LABELS = {
    "slopmark": "slopmark eval run",
    "inspect": f"inspect_ai {INSPECT_VERSION} eval",
}

#: The fake server in its own process: prints its base URL, then, for every line read on
#: stdin, the requests it has received and its own CPU seconds; stops at end of input.
SERVER_SCRIPT = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from fakes.openai_server import FakeOpenAIServer
server = FakeOpenAIServer()
server.answer = lambda messages: sys.argv[2]
server.start()
print(server.base_url, flush=True)
for _ in sys.stdin:
    print(json.dumps([server.request_count, time.process_time()]), flush=True)
server.stop()
"""

#: One inspect eval of SAMPLES one-line questions, scored by `includes()`.
INSPECT_SCRIPT = """
import json, sys
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import generate
samples, log_dir, connections, model = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
dataset = [Sample(id=i, input=f"Say hello ({i}).", target=sys.argv[5]) for i in range(samples)]
task = Task(dataset=dataset, solver=generate(), scorer=includes())
log = eval(
    task, model=model, log_dir=log_dir, display="none", max_connections=connections,
    max_samples=connections, max_retries=0, temperature=0, max_tokens=600,
)[0]
results = log.results
print(json.dumps({
    "status": log.status,
    "completed": results.completed_samples if results else 0,
    "accuracy": results.scores[0].metrics["accuracy"].value if results else None,
}))
"""

VERSIONS_SCRIPT = """
import importlib.metadata as m, json
print(json.dumps({name: m.version(name) for name in ("inspect_ai", "openai")}))
"""


class BenchError(Exception):
    """The benchmark itself cannot run (exit 1)."""


class Unavailable(Exception):
    """A peer tool cannot be installed or found; its row says why."""


class ToolFailed(Exception):
    """A tool ran but gave no usable result."""


Reader = Callable[[str, Path], dict[str, Any]]


@dataclass(frozen=True)
class Tool:
    name: str
    argv: Callable[[Path], list[str]]
    read: Reader
    env: dict[str, str] | None = None


@dataclass
class Result:
    name: str
    status: str = "ok"
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    server_cpu_times: list[float] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)

    def median(self, values: list[float] | None = None) -> float | None:
        if self.status != "ok" or not self.times:
            return None
        return statistics.median(self.times if values is None else values)


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    server_cpu: float
    metrics: dict[str, Any]


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no message"


def children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process and its children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


# --- the server ---------------------------------------------------------------------


class Server:
    """The fake OpenAI-compatible server, in a process of its own; see SERVER_SCRIPT."""

    def __init__(self, workdir: Path) -> None:
        self.errors = workdir / "server.err"
        argv = [sys.executable, "-c", SERVER_SCRIPT, str(TESTS), ANSWER]
        with self.errors.open("w", encoding="utf-8") as errors:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True
            )
        self.base_url = self._line()
        if not self.base_url.startswith("http://127.0.0.1:"):
            self.stop()
            raise BenchError(f"the fake server did not start: {self.last_error()}")

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def _line(self) -> str:
        return self._pipes()[1].readline().strip()

    def last_error(self) -> str:
        return last_line(self.errors.read_text(encoding="utf-8", errors="replace"))

    def counters(self) -> tuple[int, float]:
        """Requests received so far, and the server's CPU seconds."""
        stdin = self._pipes()[0]
        try:
            stdin.write("counters\n")
            stdin.flush()
            requests, cpu = json.loads(self._line())
        except (OSError, ValueError) as error:
            raise BenchError(f"the fake server stopped: {self.last_error()}") from error
        return int(requests), float(cpu)

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --- running and timing -------------------------------------------------------------


def execute(tool: Tool, workdir: Path) -> tuple[subprocess.CompletedProcess[bytes], float]:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            tool.argv(workdir), capture_output=True, env=tool.env, cwd=workdir, timeout=RUN_TIMEOUT
        )
    except subprocess.TimeoutExpired as error:
        raise ToolFailed(f"no result after {RUN_TIMEOUT} s") from error
    return done, time.perf_counter() - start


def run_once(tool: Tool, server: Server, workdir: Path, samples: int) -> Run:
    """One timed run of ``tool`` in a fresh ``workdir``; checks that every sample was asked."""
    workdir.mkdir(parents=True)
    requests_before, server_before = server.counters()
    cpu_before = children_cpu()
    done, elapsed = execute(tool, workdir)
    cpu = children_cpu() - cpu_before
    requests, server_cpu = server.counters()
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode != 0:
        raise ToolFailed(f"exit {done.returncode}: {last_line(stderr)}")
    try:
        metrics = tool.read(done.stdout.decode("utf-8", "replace"), workdir)
    except (ValueError, KeyError, TypeError, IndexError, OSError) as error:
        raise ToolFailed(f"unreadable output ({error}); stderr: {last_line(stderr)}") from error
    metrics["requests"] = requests - requests_before
    if metrics["runs"] != samples or metrics["requests"] != samples:
        raise ToolFailed(
            f"{metrics['runs']} runs from {metrics['requests']} requests; expected {samples} "
            f"of each ({json.dumps(metrics)})"
        )
    return Run(elapsed, cpu, server_cpu - server_before, metrics)


def time_round_robin(
    tools: list[Tool], server: Server, root: Path, args: argparse.Namespace
) -> dict[str, Result]:
    """Run every tool ``args.runs`` times, one round of all tools after another."""
    results = {tool.name: Result(tool.name) for tool in tools}
    for number in range(1, args.runs + 1):
        for tool in tools:
            result = results[tool.name]
            if result.status != "ok":
                continue
            try:
                run = run_once(tool, server, root / f"{tool.name}-{number}", args.samples)
            except ToolFailed as error:
                result.status = f"failed: {error}"
                log(f"{tool.name} failed: {error}")
                continue
            result.times.append(run.wall)
            result.cpu_times.append(run.cpu)
            result.server_cpu_times.append(run.server_cpu)
            result.metrics = run.metrics
            log(f"round {number}/{args.runs} {tool.name}: {run.wall:.2f} s, cpu {run.cpu:.2f} s")
    return results


# --- the tools ----------------------------------------------------------------------


def write_tasks(path: Path, samples: int) -> Path:
    """``samples`` one-line instruction tasks, each passed by any answer saying hello."""
    rule = {"rule": "required_phrase", "text": EXPECTED}
    with path.open("w", encoding="utf-8") as out:
        for number in range(samples):
            task = {
                "id": f"bench.hello.{number}",
                "domain": "instruction",
                "prompt": f"Say hello ({number}).",
                "verifier": {"type": "instruction", "rules": [rule]},
                "source": "original",
                "template_id": "bench-hello",
                "variant": number,
            }
            out.write(json.dumps(task) + "\n")
    return path


def read_slopmark(out: str, workdir: Path) -> dict[str, Any]:
    data = json.loads(out)
    summary, this_run = data["summary"], data["this_run"]
    store = workdir / "runs.db"
    return {
        "runs": this_run["stored"],
        "passed": summary["passed"],
        "errors": summary["errors"],
        "store": str(store),
        "store_bytes": folder_bytes(workdir),
    }


def slopmark_tool(tasks: Path, base_url: str, args: argparse.Namespace) -> Tool:
    found = BIN / "slopmark"
    if not found.exists():
        raise BenchError(f"slopmark is not installed in this interpreter's venv ({found})")

    def argv(workdir: Path) -> list[str]:
        return [
            str(found), "eval", "run", "--model", "openai-compat:bench", "--base-url", base_url,
            "--api-key", API_KEY, "--domain", "instruction", "--tasks", str(tasks),
            "--concurrency", str(args.concurrency), "--limit", str(args.samples),
            "--db", f"sqlite:///{workdir / 'runs.db'}", "--retries", "0", "--json",
        ]  # fmt: skip

    return Tool("slopmark", argv, read_slopmark)


def read_inspect(out: str, workdir: Path) -> dict[str, Any]:
    data = json.loads(last_line(out))
    if data["status"] != "success":
        raise ValueError(f"inspect's eval ended with status {data['status']!r}")
    return {
        "runs": data["completed"],
        "accuracy": data["accuracy"],
        "log_bytes": folder_bytes(workdir / "logs"),
    }


def inspect_python() -> Path:
    """The python of a venv with inspect_ai and openai installed."""
    python = INSPECT_VENV / "bin" / "python"
    stamp = CACHE / f"inspect-ai-{INSPECT_VERSION}.installed"
    if stamp.exists() and python.exists():
        return python
    log(f"installing inspect-ai {INSPECT_VERSION} into {INSPECT_VENV}")
    run_setup([sys.executable, "-m", "venv", "--clear", str(INSPECT_VENV)], "creating the venv")
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    spec = f"inspect-ai=={INSPECT_VERSION}"
    run_setup([*pip, spec, "openai"], f"pip install {spec} openai")
    stamp.write_text(INSPECT_VERSION, encoding="utf-8")
    return python


def run_setup(argv: list[str], what: str) -> str:
    """Run one install step; a failure makes the tool unavailable."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Unavailable(f"{what}: {error}") from error
    if done.returncode != 0:
        raise Unavailable(f"{what} failed: {last_line(done.stderr or done.stdout)}")
    return done.stdout


def inspect_tool(base_url: str, args: argparse.Namespace) -> tuple[Tool, dict[str, str]]:
    python = inspect_python()
    versions = json.loads(run_setup([str(python), "-c", VERSIONS_SCRIPT], "reading versions"))
    env = {
        **os.environ,
        "INSPECT_DISPLAY": "none",
        "BENCH_BASE_URL": base_url,
        "BENCH_API_KEY": API_KEY,
    }

    def argv(workdir: Path) -> list[str]:
        numbers = [str(args.samples), str(workdir / "logs"), str(args.concurrency)]
        return [str(python), "-c", INSPECT_SCRIPT, *numbers, INSPECT_MODEL, EXPECTED]

    return Tool("inspect", argv, read_inspect, env), versions


def peer_tools(
    base_url: str, args: argparse.Namespace
) -> tuple[list[Tool], dict[str, Result], dict[str, str]]:
    """The peers to time, and a Result for each one that is skipped or unavailable."""
    if "inspect" in args.skip:
        return [], {"inspect": Result("inspect", "skipped (--skip)")}, {}
    try:
        tool, versions = inspect_tool(base_url, args)
    except Unavailable as error:
        log(f"inspect unavailable: {error}")
        return [], {"inspect": Result("inspect", f"unavailable: {error}")}, {}
    return [tool], {}, versions


# --- the store's write cost ---------------------------------------------------------


def store_write_cost(store: Path, runs: int) -> list[float]:
    """Seconds per run to insert, one by one, the runs slopmark stored into a fresh store.

    Each run is copied as slopmark wrote it (output, verdict details, usage), without the
    id, attempt and timestamp that the store sets, and committed by `insert_run` as
    `eval run` does: one transaction per run.
    """
    source = open_store(f"sqlite:///{store}")
    rows = [replace(r, id=None, attempt=None, created_at=None) for r in list_runs(source)]
    source.dispose()
    if not rows:
        raise BenchError(f"{store}: slopmark stored no run to copy")
    per_run = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="slopmark-store-") as folder:
            engine = open_store(f"sqlite:///{Path(folder) / 'store.db'}")
            start = time.perf_counter()
            for row in rows:
                insert_run(engine, row)
            per_run.append((time.perf_counter() - start) / len(rows))
            engine.dispose()
    return per_run


# --- the report ---------------------------------------------------------------------


def ratio(results: dict[str, Result]) -> float | None:
    """slopmark's throughput over inspect's: the same samples, so inspect's time over ours."""
    ours, theirs = results["slopmark"].median(), results["inspect"].median()
    return theirs / ours if ours and theirs else None


def verdict(value: float | None) -> str:
    if value is None:
        return ""
    return "met" if value >= TARGET else "MISSED"


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def timing_row(result: Result, samples: int, value: float | None) -> list[str]:
    label = LABELS[result.name]
    median = result.median()
    if median is None:
        return [label, "-", "-", "-", "-", "-", "-", "", "", "", result.status]
    cpu, server = result.median(result.cpu_times), result.median(result.server_cpu_times)
    shown = f"slopmark/inspect = {value:.2f}" if result.name == "inspect" and value else ""
    target = f">= {TARGET:g}" if shown else ""
    runs = " ".join(f"{t:.2f}" for t in result.times)
    return [
        label, f"{median:.2f}", str(result.metrics["runs"]), f"{samples / median:.1f}",
        f"{1000 * median / samples:.2f}", f"{cpu:.2f}", f"{server:.2f}",
        shown, target, verdict(value) if shown else "", runs,
    ]  # fmt: skip


def print_timings(results: dict[str, Result], samples: int) -> None:
    value = ratio(results)
    head = ["tool", "median s", "runs", "runs/s", "ms/run", "cpu s", "server cpu s"]
    rows = [[*head, "throughput ratio (of medians)", "target", "", "runs (s)"]]
    rows += [timing_row(results[name], samples, value) for name in LABELS]
    print(format_table(rows))


def store_line(per_run: list[float], results: dict[str, Result], samples: int) -> str:
    cost = statistics.median(per_run) * 1e6
    runs = " ".join(f"{t * 1e6:.0f}" for t in per_run)
    line = (
        f"store write cost: {cost:.0f} µs per run (median of {len(per_run)} × {samples} "
        f"insert_run commits into a fresh SQLite store; runs: {runs} µs)"
    )
    median = results["slopmark"].median()
    if median:
        share = cost / (1e6 * median / samples)
        line += f"\n  = {share:.0%} of slopmark's {1000 * median / samples:.2f} ms per run"
    return line


def print_summaries(results: dict[str, Result]) -> None:
    print("\nWhat each tool reported (last run):")
    ours, theirs = results["slopmark"].metrics, results["inspect"].metrics
    if ours:
        print(
            f"  slopmark  {ours['runs']} runs stored, {ours['passed']} passed, "
            f"{ours['errors']} errors, {ours['requests']} requests; "
            f"store {ours['store_bytes'] / 1e6:.1f} MB"
        )
    if theirs:
        print(
            f"  inspect   {theirs['runs']} samples completed, accuracy {theirs['accuracy']:.3f}, "
            f"{theirs['requests']} requests; log {theirs['log_bytes'] / 1e6:.1f} MB"
        )


def print_report(
    context: dict[str, Any], results: dict[str, Result], per_run: list[float]
) -> None:
    host, versions = context["machine"], context["versions"]
    print(
        f"eval harness overhead benchmark, {context['date']}: {host['cores']} cores, "
        f"Python {host['python']}, load average {host['load_before']:.2f} before and "
        f"{host['load_after']:.2f} after; median of {context['runs']} run(s) (wall clock)"
    )
    print(
        f"{context['samples']} one-line tasks at concurrency {context['concurrency']}, against "
        f"the fake OpenAI-compatible server in its own process, answering {ANSWER!r} at once"
    )
    print("versions: " + ", ".join(f"{name} {value}" for name, value in versions.items()) + "\n")
    print_timings(results, context["samples"])
    print("\n" + store_line(per_run, results, context["samples"]))
    print_summaries(results)


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_before": os.getloadavg()[0],
    }


def as_json(results: dict[str, Result], samples: int) -> dict[str, Any]:
    document = {}
    for name, result in results.items():
        median = result.median()
        document[name] = {
            "label": LABELS[name],
            "status": result.status,
            "median_s": median,
            "runs_per_s": samples / median if median else None,
            "times_s": result.times,
            "cpu_times_s": result.cpu_times,
            "server_cpu_times_s": result.server_cpu_times,
            "metrics": result.metrics,
        }
    return document


def save_json(
    path: Path, context: dict[str, Any], results: dict[str, Result], per_run: list[float]
) -> None:
    value = ratio(results)
    document = {
        **context,
        "results": as_json(results, context["samples"]),
        "ratio": {"slopmark/inspect": value, "target": TARGET, "verdict": verdict(value) or None},
        "store_write_s_per_run": {"median": statistics.median(per_run), "runs": per_run},
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    log(f"results saved to {path}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--samples", type=int, default=SAMPLES, help="tasks per run (2000)")
    parser.add_argument(
        "--concurrency", type=int, default=CONCURRENCY, help="requests in flight (32)"
    )
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each tool (default 3)")
    parser.add_argument(
        "--skip", action="append", default=[], choices=("inspect",), help="leave a tool out"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also save the results here")
    args = parser.parse_args(argv)
    for name in ("samples", "concurrency", "runs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    return args


def measure(root: Path, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Result]]:
    """Time both tools on one server; the versions of what ran, and each tool's result."""
    tasks = write_tasks(root / "tasks.jsonl", args.samples)
    server = Server(root)
    try:
        ours = slopmark_tool(tasks, server.base_url, args)
        peers, missing, versions = peer_tools(server.base_url, args)
        results = time_round_robin([ours, *peers], server, root, args)
    finally:
        server.stop()
    main_versions = {name: importlib.metadata.version(name) for name in ("slopmark", "openai")}
    named = {f"{name} (inspect venv)": value for name, value in versions.items()}
    return main_versions | named, results | missing


def run(args: argparse.Namespace) -> int:
    CACHE.mkdir(parents=True, exist_ok=True)
    context: dict[str, Any] = {"date": date.today().isoformat(), "machine": machine()}
    with tempfile.TemporaryDirectory(prefix="slopmark-evals-bench-") as folder:
        context["versions"], results = measure(Path(folder), args)
        ours = results["slopmark"]
        if ours.median() is None:
            raise BenchError(f"slopmark itself did not run: {ours.status}")
        log("timing the store's writes")
        per_run = store_write_cost(Path(ours.metrics["store"]), args.runs)
    context["machine"]["load_after"] = os.getloadavg()[0]
    context |= {"runs": args.runs, "samples": args.samples, "concurrency": args.concurrency}
    print_report(context, results, per_run)
    if args.json is not None:
        save_json(args.json, context, results, per_run)
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(parse_args(argv))
    except BenchError as error:
        print(f"evals_overhead.py: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
