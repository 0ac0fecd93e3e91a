"""Render a simulated Schedule as a text timeline or as JSON."""

from __future__ import annotations

import json

from simulation import FAILED, SKIPPED, Event, Schedule


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


def timeline_lines(schedule: Schedule) -> list[str]:
    """One line per event, the makespan, then the failed and skipped jobs if any."""
    lines = [event_line(event) for event in schedule.events]
    lines.append(f"makespan={schedule.makespan}")
    for status in (FAILED, SKIPPED):
        job_ids = schedule.with_status(status)
        if job_ids:
            lines.append(f"{status}: {' '.join(job_ids)}")
    return lines


def schedule_json(schedule: Schedule) -> str:
    """The schedule as a JSON document with jobs keyed by id."""
    jobs = {
        job_id: {
            "status": state.status,
            "attempts": state.attempts,
            "start": state.start,
            "end": state.end,
            "worker": state.worker,
        }
        for job_id, state in sorted(schedule.progress.items())
    }
    return json.dumps({"makespan": schedule.makespan, "jobs": jobs}, indent=2)
