"""The job record shared by the loaders, the graph algorithms and the simulator."""

from __future__ import annotations

from dataclasses import dataclass

OK = "ok"
FAIL = "fail"


@dataclass(frozen=True)
class Job:
    """One job: its id, its dependencies, how it is scheduled and how its attempts go."""

    id: str
    deps: tuple[str, ...] = ()
    duration: int = 1
    priority: int = 0
    outcomes: tuple[str, ...] = ()
    retries: int = 0
    backoff: int = 0

    def outcome(self, attempt: int) -> str:
        """The scripted outcome of attempt number `attempt` (1-based)."""
        if not self.outcomes:
            return OK
        return self.outcomes[min(attempt, len(self.outcomes)) - 1]

    def retry_delay(self, failed_attempt: int) -> int:
        """Time to wait after attempt `failed_attempt` fails: backoff * 2^(attempt-1)."""
        return self.backoff * (1 << (failed_attempt - 1))
