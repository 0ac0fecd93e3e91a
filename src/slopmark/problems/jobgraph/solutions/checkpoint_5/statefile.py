"""State files: a simulation's RunState (`run --state`) and the finished jobs of `exec`.

Both are JSON documents tagged with a `kind`. A simulation state records a
fingerprint of all job definitions, so it is never resumed against a changed job
file; an exec state records one fingerprint per finished job, so only the jobs
that changed (and the jobs that depend on them) run again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from errors import InputError
from graph import JobGraph
from model import Job
from ordering import execution_order
from simulation import STATUSES, Progress, RunState

FORMAT_VERSION = 1
SIMULATION, EXEC = "simulation", "exec"


def job_fingerprint(job: Job) -> str:
    """A hash of one job definition."""
    return hashlib.sha256(json.dumps(dataclasses.asdict(job), sort_keys=True).encode()).hexdigest()


def graph_fingerprint(graph: JobGraph) -> str:
    """A hash of every job definition, independent of the file format and job order."""
    combined = "\n".join(job_fingerprint(graph.jobs[job_id]) for job_id in graph.ids())
    return hashlib.sha256(combined.encode()).hexdigest()


def save_state(path: Path, fingerprint: str, state: RunState) -> None:
    """Write a simulation state to `path` atomically."""
    _write_atomic(path, {
        "kind": SIMULATION,
        "fingerprint": fingerprint,
        "clock": state.clock,
        "makespan": state.makespan,
        "complete": state.complete,
        "jobs": {job_id: dataclasses.asdict(p) for job_id, p in sorted(state.progress.items())},
    })


def read_state(path: Path) -> tuple[str, RunState]:
    """Load a simulation state file; return its fingerprint and the RunState it holds."""
    document = _read(path, SIMULATION)
    try:
        return _decode_run_state(document)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise InputError(f"{path}: not a valid jobgraph state file ({error})") from None


def load_state(path: Path, graph: JobGraph) -> RunState:
    """Load the simulation state at `path` and check that it was written for `graph`."""
    fingerprint, state = read_state(path)
    if fingerprint != graph_fingerprint(graph):
        raise InputError(
            f"{path}: state was written for a different job file; "
            "start a new run without --resume"
        )
    return state


def save_finished(path: Path, graph: JobGraph, finished: Iterable[str]) -> None:
    """Record which jobs of an `exec` run have succeeded, with their fingerprints."""
    done = {job_id: job_fingerprint(graph.jobs[job_id]) for job_id in sorted(finished)}
    _write_atomic(path, {"kind": EXEC, "done": done})


class FinishedLog:
    """The jobs of an `exec` run that have succeeded, saved to `path` (if any) on each change."""

    def __init__(self, path: Path | None, graph: JobGraph, finished: Iterable[str]) -> None:
        self._path = path
        self._graph = graph
        self._finished = set(finished)
        self._save()

    def add(self, job_id: str) -> None:
        """Record that `job_id` succeeded and save the log before returning."""
        self._finished.add(job_id)
        self._save()

    def _save(self) -> None:
        if self._path is not None:
            save_finished(self._path, self._graph, self._finished)


def load_finished(path: Path, graph: JobGraph) -> set[str]:
    """Jobs that need not run again: recorded as done, unchanged, and so are all their deps."""
    document = _read(path, EXEC)
    recorded = document.get("done")
    if not isinstance(recorded, dict):
        raise InputError(f"{path}: not a valid jobgraph state file (no 'done' table)")
    reusable: set[str] = set()
    for job_id in execution_order(graph):
        job = graph.jobs[job_id]
        unchanged = recorded.get(job_id) == job_fingerprint(job)
        if unchanged and all(dep in reusable for dep in job.deps):
            reusable.add(job_id)
    return reusable


def _write_atomic(path: Path, document: dict[str, Any]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    body = {"version": FORMAT_VERSION, **document}
    try:
        temporary.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise InputError(f"{path}: cannot write state file: {error.strerror}") from None


def _read(path: Path, kind: str) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: state file not found; run without --resume first") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{path}: not a readable jobgraph state file ({error})") from None
    if not isinstance(document, dict) or document.get("version") != FORMAT_VERSION:
        raise InputError(f"{path}: not a jobgraph state file (version {FORMAT_VERSION})")
    if document.get("kind") != kind:
        command = "run" if kind == SIMULATION else "exec"
        raise InputError(f"{path}: state file of kind {document.get('kind')!r} cannot be "
                         f"used by '{command}'; give a state file written by '{command}'")
    return document


def _decode_run_state(document: dict[str, Any]) -> tuple[str, RunState]:
    progress = {str(job_id): _progress(entry) for job_id, entry in document["jobs"].items()}
    state = RunState(
        clock=_int(document["clock"]),
        makespan=_int(document["makespan"]),
        complete=bool(document["complete"]),
        progress=progress,
    )
    return str(document["fingerprint"]), state


def _progress(entry: Any) -> Progress:
    progress = Progress(**entry)
    if progress.status not in STATUSES:
        raise ValueError(f"unknown status {progress.status!r}")
    return progress


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, got {value!r}")
    return value
