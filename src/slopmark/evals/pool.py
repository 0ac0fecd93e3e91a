"""The shipped task pool, and the version that names one exact set of tasks."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path

from slopmark.errors import BadInput, did_you_mean
from slopmark.evals.task import DOMAINS, Task
from slopmark.evals.taskfile import load_tasks
from slopmark.registry import unknown

POOL_DIR = Path(__file__).parent / "pool"


def pool_files(domain: str | None = None, root: Path = POOL_DIR) -> list[Path]:
    """The generated pools (``pool/<domain>.jsonl``) and seed tasks (``pool/seed/<domain>.yaml``).

    Without a domain, every domain's files.
    """
    stem = "*" if domain is None else check_domain(domain)
    return sorted(root.glob(f"{stem}.jsonl")) + sorted((root / "seed").glob(f"{stem}.yaml"))


def check_domain(domain: str) -> str:
    if domain not in DOMAINS:
        raise unknown("domain", domain, DOMAINS, plural="domains", option="--domain")
    return domain


def load_approved(paths: Iterable[Path], domain: str | None = None) -> list[Task]:
    """The approved tasks in ``paths`` (of ``domain`` when given), in file order.

    A file with problems is refused whole: running half a task set would make
    a task-set version nobody can reproduce.
    """
    tasks, problems = load_tasks(list(paths))
    if problems:
        more = f" (and {len(problems) - 1} more; run `slopmark tasks validate`)"
        raise BadInput(f"{problems[0]}{more if len(problems) > 1 else ''}")
    if domain is not None:
        check_domain(domain)
    return [t for t in tasks if t.approved and domain in (None, t.domain)]


def load_pool(domain: str | None = None, paths: Sequence[Path] = ()) -> list[Task]:
    """Approved tasks of the shipped pool, or of ``paths`` when given."""
    return load_approved(paths or pool_files(domain), domain)


def find_task(tasks: Sequence[Task], task_id: str) -> Task:
    """The task called ``task_id``, else `BadInput` with the closest id."""
    for task in tasks:
        if task.id == task_id:
            return task
    close = did_you_mean(task_id, (t.id for t in tasks))
    hint = f"; {close}" if close else ""
    raise BadInput(f"--task {task_id!r}: no approved task has this id{hint}")


def task_set_version(tasks: Iterable[Task]) -> str:
    """First 12 hex digits of the SHA-256 of the tasks (sorted by id) as canonical JSON.

    Everything of a task counts, its private verifier config included: changing
    a prompt, an expected answer or the set's membership changes the version.
    """
    records = sorted((asdict(task) for task in tasks), key=lambda record: record["id"])
    canonical = json.dumps(records, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
