"""Time from `make run` to a served page: on a fresh clone (every set-up step), then warm.

The README's Quick start promises that `make run` sets itself up on a fresh machine, says
each step, and that a second `make run` serves its first page in under 2 s (issue 35). This
script measures both as a user meets them: it clones the repository's HEAD into a temporary
folder (no .venv, no build output), runs `make run` there with a fresh data folder and polls
`/` on 127.0.0.1 until it answers, timing each set-up line as it is printed; then it stops the
server and starts it again ``--runs`` times, reporting the median and the largest warm start.
It also reports the server's own CPU time to the first page (from /proc), which a loaded
machine does not inflate the way it inflates wall time. The exit status is non-zero only when
the benchmark itself could not run; a missed 2 s target is printed as MISSED.

    .venv/bin/python benchmarks/make_run.py [--runs N] [--json OUT]
    .venv/bin/python benchmarks/make_run.py --smoke   # warm starts of this checkout only
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET_S = 2.0
#: The longest a cold `make run` may take before the benchmark gives up (a Rust build).
COLD_LIMIT_S = 1800.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class MakeRun:
    """One `make run` in ``checkout``: its printed lines with their times, and the server."""

    def __init__(self, checkout: Path, data: Path) -> None:
        self.port = free_port()
        env = {**os.environ, "XDG_DATA_HOME": str(data)}
        env.pop("SLOPMARK_DB", None)
        self.start = time.perf_counter()
        self.lines: list[tuple[float, str]] = []
        self.process = subprocess.Popen(
            ["make", "--no-print-directory", "run", f"PORT={self.port}"],
            cwd=checkout,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append((time.perf_counter() - self.start, line.rstrip()))

    def first_page(self, limit: float) -> float:
        """Seconds from `make run` to the first answer of ``/``."""
        url = f"http://127.0.0.1:{self.port}/"
        while time.perf_counter() - self.start < limit:
            if self.process.poll() is not None:
                raise SystemExit(f"make run ended with {self.process.returncode}: {self.said()}")
            try:
                if httpx.get(url, timeout=5).status_code == 200:
                    return time.perf_counter() - self.start
            except httpx.TransportError:
                pass
            time.sleep(0.02)
        raise SystemExit(f"no page within {limit:.0f} s: {self.said()}")

    def server_cpu(self) -> float | None:
        """CPU seconds the server process has used (Linux /proc), or None elsewhere."""
        found = subprocess.run(
            ["pgrep", "-s", str(self.process.pid), "-f", "slopmark serve"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        try:
            fields = Path(f"/proc/{found[0]}/stat").read_text().rsplit(")", 1)[1].split()
        except (IndexError, OSError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)

    def said(self) -> str:
        return " | ".join(text for _, text in self.lines[-5:])

    def steps(self) -> list[dict[str, Any]]:
        """The set-up lines `make run` printed (``slopmark: …``), each with its time."""
        return [
            {"at_s": round(at, 1), "line": text}
            for at, text in self.lines
            if text.startswith("slopmark: ")
        ]


def start_once(checkout: Path, data: Path, limit: float) -> dict[str, Any]:
    run = MakeRun(checkout, data)
    try:
        seconds = run.first_page(limit)
        cpu = run.server_cpu()
    finally:
        run.stop()
    return {"seconds": round(seconds, 3), "server_cpu_s": cpu, "steps": run.steps()}


def measure(checkout: Path, runs: int, cold: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="slopmark-make-run-") as data:
        report: dict[str, Any] = {"checkout": str(checkout)}
        if cold:
            report["cold"] = start_once(checkout, Path(data), COLD_LIMIT_S)
        warm = [start_once(checkout, Path(data), 120.0) for _ in range(runs)]
    times = [w["seconds"] for w in warm]
    cpus = [w["server_cpu_s"] for w in warm if w["server_cpu_s"] is not None]
    report["warm"] = {
        "runs": times,
        "median_s": statistics.median(times),
        "max_s": max(times),
        "server_cpu_median_s": statistics.median(cpus) if cpus else None,
        "steps": warm[-1]["steps"],
    }
    return report


def fresh_clone(into: Path) -> Path:
    """A clone of this repository's HEAD: what a user gets, with no build output."""
    checkout = into / "slopmark"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(checkout)], check=True)
    return checkout


def show(report: dict[str, Any]) -> None:
    if "cold" in report:
        cold = report["cold"]
        print(f"fresh clone: first page after {cold['seconds']:.0f} s")
        for step in cold["steps"]:
            print(f"  {step['at_s']:7.1f} s  {step['line']}")
    warm = report["warm"]
    verdict = "met" if warm["median_s"] < TARGET_S else "MISSED"
    cpu = warm["server_cpu_median_s"]
    print(
        f"second make run: median {warm['median_s']:.2f} s, max {warm['max_s']:.2f} s over "
        f"{len(warm['runs'])} runs (target < {TARGET_S:.0f} s: {verdict}); "
        f"server CPU to the first page {cpu if cpu is None else f'{cpu:.2f} s'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="warm starts (default 5)")
    parser.add_argument("--smoke", action="store_true", help="warm starts of this checkout")
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args()
    if args.smoke:
        report = measure(ROOT, args.runs, cold=False)
    else:
        with tempfile.TemporaryDirectory(prefix="slopmark-clone-") as folder:
            report = measure(fresh_clone(Path(folder)), args.runs, cold=True)
    show(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
