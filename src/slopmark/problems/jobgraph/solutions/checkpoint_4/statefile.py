"""Save and load a simulation's RunState as a JSON state file.

The file records a fingerprint of the job definitions, so a run is never resumed
against a job file that changed since the state was written.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from errors import InputError
from graph import JobGraph
from simulation import STATUSES, Progress, RunState

FORMAT_VERSION = 1


def graph_fingerprint(graph: JobGraph) -> str:
    """A hash of every job definition, independent of the file format and job order."""
    jobs = [dataclasses.asdict(graph.jobs[job_id]) for job_id in graph.ids()]
    return hashlib.sha256(json.dumps(jobs, sort_keys=True).encode()).hexdigest()


def save_state(path: Path, fingerprint: str, state: RunState) -> None:
    """Write `state` to `path` atomically (temporary file, then rename)."""
    document = {
        "version": FORMAT_VERSION,
        "fingerprint": fingerprint,
        "clock": state.clock,
        "makespan": state.makespan,
        "complete": state.complete,
        "jobs": {job_id: dataclasses.asdict(p) for job_id, p in sorted(state.progress.items())},
    }
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise InputError(f"{path}: cannot write state file: {error.strerror}") from None


def read_state(path: Path) -> tuple[str, RunState]:
    """Load a state file; return its fingerprint and the RunState it holds."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: state file not found; run without --resume first") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{path}: not a readable jobgraph state file ({error})") from None
    try:
        return _decode(document)
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"{path}: not a valid jobgraph state file ({error})") from None


def load_state(path: Path, graph: JobGraph) -> RunState:
    """Load the state file at `path` and check that it was written for `graph`."""
    fingerprint, state = read_state(path)
    if fingerprint != graph_fingerprint(graph):
        raise InputError(
            f"{path}: state was written for a different job file; "
            "start a new run without --resume"
        )
    return state


def _decode(document: Any) -> tuple[str, RunState]:
    if document.get("version") != FORMAT_VERSION:
        raise ValueError(f"unsupported version {document.get('version')!r}")
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
