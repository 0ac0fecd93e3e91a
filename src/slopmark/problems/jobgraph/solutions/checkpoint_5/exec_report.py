"""Render an ExecResult: summary lines for stdout and the report.json document."""

from __future__ import annotations

import json
from dataclasses import asdict

from executor import CACHED, FAILED, SKIPPED, SUCCEEDED, ExecResult, JobRun


def run_line(job_id: str, run: JobRun) -> str:
    """`<id> <status>`, plus attempts and exit code when a command ran."""
    line = f"{job_id} {run.status}"
    if run.attempts:
        exit_text = "timeout" if run.timed_out else str(run.exit_code)
        line += f" attempts={run.attempts} exit={exit_text}"
    return line


def summary_lines(result: ExecResult) -> list[str]:
    """One line per job (ascending id), then the counts per status."""
    lines = [run_line(job_id, run) for job_id, run in sorted(result.runs.items())]
    counts = (f"{status}={result.count(status)}" for status in (SUCCEEDED, FAILED, SKIPPED, CACHED))
    lines.append(" ".join(counts))
    return lines


def report_json(result: ExecResult) -> str:
    """The report.json document: workers and, per job, how it ran and where its output is."""
    jobs = {}
    for job_id, run in sorted(result.runs.items()):
        ran = run.attempts > 0
        jobs[job_id] = {
            **asdict(run),
            "stdout": f"{job_id}.out" if ran else None,
            "stderr": f"{job_id}.err" if ran else None,
        }
    return json.dumps({"workers": result.workers, "jobs": jobs}, indent=2) + "\n"
