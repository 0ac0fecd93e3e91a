"""Render simulation results as text timelines or JSON, and state files as summaries."""

from __future__ import annotations

import json

from simulation import FAILED, PENDING, SKIPPED, Event, RunResult, RunState


def event_line(event: Event) -> str:
    """One timeline line, e.g. `t=3 fail fetch worker=2 retry_at=5`."""
    line = f"t={event.time} {event.kind} {event.job}"
    if event.worker is not None:
        line += f" worker={event.worker}"
    if event.kind == "start" and event.attempt > 1:
        line += f" attempt={event.attempt}"
    if event.retry_at is not None:
        line += f" retry_at={event.retry_at}"
    return line


def timeline_lines(result: RunResult) -> list[str]:
    """One line per event, then how the run ended."""
    lines = [event_line(event) for event in result.events]
    return lines + outcome_lines(result.state)


def outcome_lines(state: RunState) -> list[str]:
    """`stopped at t=T`, or the makespan followed by the failed and skipped jobs if any."""
    if not state.complete:
        return [f"stopped at t={state.clock}"]
    lines = [f"makespan={state.makespan}"]
    for status in (FAILED, SKIPPED):
        job_ids = state.with_status(status)
        if job_ids:
            lines.append(f"{status}: {' '.join(job_ids)}")
    return lines


def status_lines(state: RunState) -> list[str]:
    """A state file summary: how the run stands, then one line per job."""
    if state.complete:
        lines = [f"finished makespan={state.makespan}"]
    else:
        lines = [f"stopped at t={state.clock}"]
    for job_id, progress in sorted(state.progress.items()):
        line = f"{job_id} {progress.status} attempts={progress.attempts}"
        if progress.status == PENDING and progress.ready_at > state.clock:
            line += f" ready_at={progress.ready_at}"
        lines.append(line)
    return lines


def result_json(result: RunResult) -> str:
    """A finished run as a JSON document with jobs keyed by id."""
    jobs = {
        job_id: {
            "status": progress.status,
            "attempts": progress.attempts,
            "start": progress.start,
            "end": progress.end,
            "worker": progress.worker,
        }
        for job_id, progress in sorted(result.state.progress.items())
    }
    return json.dumps({"makespan": result.state.makespan, "jobs": jobs}, indent=2)
