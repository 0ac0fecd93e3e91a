"""The job record shared by the loaders and the graph algorithms."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Job:
    """One job: its id, the ids of the jobs it depends on, and how it is scheduled."""

    id: str
    deps: tuple[str, ...] = ()
    duration: int = 1
    priority: int = 0
