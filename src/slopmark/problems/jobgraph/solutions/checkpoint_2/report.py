"""Render a simulated Schedule as a text timeline or as JSON."""

from __future__ import annotations

import json

from simulation import Schedule


def timeline_lines(schedule: Schedule) -> list[str]:
    """One line per event, then the makespan."""
    lines = [
        f"t={event.time} {event.kind} {event.job} worker={event.worker}"
        for event in schedule.events
    ]
    lines.append(f"makespan={schedule.makespan}")
    return lines


def schedule_json(schedule: Schedule) -> str:
    """The schedule as a JSON document with jobs keyed by id."""
    jobs = {
        job_id: {"start": span.start, "end": span.end, "worker": span.worker}
        for job_id, span in sorted(schedule.spans.items())
    }
    return json.dumps({"makespan": schedule.makespan, "jobs": jobs}, indent=2)
