"""Batch paste: many pasted answers, one JSON object per line, scored and stored at once.

A line is ``{"task": ID, "model": LABEL, "answer": TEXT}``. Each line stands alone:
bad JSON, a missing or empty field, an unknown task or an answer a paste may not
have is a `Refused` line naming its line number, and the other lines go on. The
reading (`read_lines`, `resolve`) is pure; `store_batch` writes each good line as its
own paste run, so what was stored stays stored whatever a later line does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from slopmark.errors import BadInput, did_you_mean
from slopmark.evals.harness import HARNESS
from slopmark.evals.pool import task_set_version
from slopmark.evals.runner import PASTE_PROVIDER, check_paste
from slopmark.evals.session import PasteTarget
from slopmark.evals.task import Task
from slopmark.store.runs import Run, Series

if TYPE_CHECKING:
    from sqlalchemy import Engine

#: The fields of every line, each a non-empty string.
FIELDS = ("task", "model", "answer")
#: The longest model label (as the API's).
MAX_MODEL_CHARS = 200
#: A line as the errors show it.
_SHAPE = '{"task": ID, "model": LABEL, "answer": TEXT}'


@dataclass(frozen=True)
class PasteLine:
    """A line that reads as a paste: its line number (from 1) and its three fields."""

    line: int
    task: str
    model: str
    answer: str


@dataclass(frozen=True)
class Refused:
    """A line that is not stored, and why."""

    line: int
    error: str


@dataclass(frozen=True)
class Stored:
    """A line stored as a paste run (scored, or errored if its verifier could not score)."""

    line: int
    run: Run


Outcome = Stored | Refused


def _fields(record: object) -> tuple[str, str, str]:
    """The task, model and answer of a decoded line; `BadInput` naming what is wrong."""
    if not isinstance(record, dict):
        raise BadInput(f"not a JSON object but {type(record).__name__}: give {_SHAPE}")
    missing = [name for name in FIELDS if name not in record]
    if missing:
        raise BadInput(f"missing {', '.join(map(repr, missing))}: give {_SHAPE}")
    for name in FIELDS:
        if not isinstance(record[name], str) or not record[name].strip():
            raise BadInput(f"{name!r} must be a non-empty string, not {record[name]!r:.40}")
    if len(record["model"]) > MAX_MODEL_CHARS:
        raise BadInput(f"'model' has more than {MAX_MODEL_CHARS} characters")
    return record["task"], record["model"], record["answer"]


def parse_line(number: int, text: str) -> PasteLine | Refused:
    """Line ``number`` of a batch as a `PasteLine`, or `Refused` with the reason."""
    try:
        record = json.loads(text)
    except ValueError as error:
        return Refused(number, f"not JSON ({error})")
    try:
        task, model, answer = _fields(record)
        check_paste(answer, "'answer'")
    except BadInput as error:
        return Refused(number, str(error))
    return PasteLine(number, task, model, answer)


def read_lines(text: str) -> Iterator[PasteLine | Refused]:
    """Every non-blank line of a batch, parsed; blank lines are skipped but counted."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield parse_line(number, line)


class Targets:
    """The pool's tasks by id, and the task-set version of each domain (computed once)."""

    def __init__(self, pool: Sequence[Task]) -> None:
        self.pool = pool
        self.by_id = {task.id: task for task in pool}
        self._versions: dict[str, str] = {}

    def target(self, line: PasteLine) -> PasteTarget:
        """The task and series of ``line``'s paste run; `BadInput` for an unknown task."""
        task = self.by_id.get(line.task)
        if task is None:
            close = did_you_mean(line.task, self.by_id)
            raise BadInput(f"unknown task {line.task!r}" + (f"; {close}" if close else ""))
        if task.domain not in self._versions:
            domain = (t for t in self.pool if t.domain == task.domain)
            self._versions[task.domain] = task_set_version(domain)
        series = Series(
            line.model, PASTE_PROVIDER, HARNESS.version, "standard", self._versions[task.domain]
        )
        return PasteTarget(task, series)


Resolved = tuple[PasteLine, PasteTarget] | Refused


def resolve(lines: Iterator[PasteLine | Refused], targets: Targets) -> Iterator[Resolved]:
    """Each line with its target, or `Refused` (bad line, unknown task)."""
    for line in lines:
        if isinstance(line, Refused):
            yield line
            continue
        try:
            yield line, targets.target(line)
        except BadInput as error:
            yield Refused(line.line, str(error))


def store_batch(engine: Engine, text: str, pool: Sequence[Task]) -> list[Outcome]:
    """Score and store every good line of ``text`` as its own paste run, in line order;
    each bad line is `Refused` and the others still stored."""
    outcomes: list[Outcome] = []
    for item in resolve(read_lines(text), Targets(pool)):
        if isinstance(item, Refused):
            outcomes.append(item)
            continue
        line, target = item
        try:
            outcomes.append(Stored(line.line, target.store(engine, line.answer)))
        except BadInput as error:
            outcomes.append(Refused(line.line, str(error)))
    return outcomes


@dataclass(frozen=True)
class Tally:
    """How a batch went: lines stored (passed, failed, errored among them) and refused."""

    stored: int
    passed: int
    errored: int
    refused: int

    @property
    def failed(self) -> int:
        return self.stored - self.passed - self.errored

    def line(self) -> str:
        """``3 stored (2 passed, 1 failed, 0 errored), 1 refused``."""
        return (
            f"{self.stored} stored ({self.passed} passed, {self.failed} failed, "
            f"{self.errored} errored), {self.refused} refused"
        )


def tally(outcomes: Sequence[Outcome]) -> Tally:
    """The counts of a batch's outcomes."""
    runs = [o.run for o in outcomes if isinstance(o, Stored)]
    errored = sum(run.status == "error" for run in runs)
    passed = sum(bool(run.passed) and run.status != "error" for run in runs)
    return Tally(len(runs), passed, errored, len(outcomes) - len(runs))
