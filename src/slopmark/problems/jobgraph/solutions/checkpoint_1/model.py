"""The job record shared by the loaders and the graph algorithms."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Job:
    """One job: its id and the ids of the jobs it depends on."""

    id: str
    deps: tuple[str, ...] = ()
