"""Read task files (YAML or JSONL) and report every problem with file:line and field."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from slopmark.errors import BadInput
from slopmark.evals.schema import TASK_SCHEMA
from slopmark.evals.task import Task
from slopmark.evals.verifiers import get_verifier
from slopmark.regular import Unreadable, read_text
from slopmark.yamlconfig import NoAliasLoader, load_yaml, yaml_problem

#: A task file larger than this is refused (the largest pool file is a few hundred KiB).
MAX_TASK_FILE_BYTES = 64 * 2**20
_VALIDATOR = jsonschema.Draft202012Validator(TASK_SCHEMA)
_ALLOWED: dict[str, Callable[[jsonschema.ValidationError], str]] = {
    "enum": lambda e: f"allowed: {', '.join(map(str, e.validator_value))}",
    "type": lambda e: f"expected {e.validator_value}",
    "required": lambda e: "add it",
    "additionalProperties": lambda e: f"allowed fields: {', '.join(TASK_SCHEMA['properties'])}",
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a task file, located as precisely as the format allows."""

    file: str
    line: int
    task_id: str | None
    field: str
    message: str

    def __str__(self) -> str:
        task = f" task '{self.task_id}':" if self.task_id else ""
        return f"{self.file}:{self.line}:{task} field '{self.field}': {self.message}"


class _LineLoader(NoAliasLoader):
    """A YAML loader that remembers the line each mapping starts on (and refuses aliases)."""


def _mapping_with_line(loader: _LineLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_with_line)


def _strip_lines(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_lines(v) for k, v in value.items() if k != "__line__"}
    if isinstance(value, list):
        return [_strip_lines(v) for v in value]
    return value


def _yaml_records(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    try:
        data = load_yaml(text, _LineLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        problem = getattr(error, "problem", None) or error
        raise BadInput(f"{path}:{line}: not valid YAML: {yaml_problem(problem)}") from error
    if isinstance(data, dict) and "tasks" in data:
        data = data["tasks"]
    if not isinstance(data, list):
        raise BadInput(f"{path}:1: a task file holds a list of tasks (or 'tasks:' with a list)")
    for item in data:
        line = item.get("__line__", 1) if isinstance(item, dict) else 1
        yield line, _strip_lines(item)


def _jsonl_records(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as error:
            raise BadInput(f"{path}:{number}: not valid JSON: {error.msg}") from error


def records(path: Path) -> Iterator[tuple[int, Any]]:
    """(line, raw record) for each task in a YAML or JSONL file."""
    try:
        text = read_text(path, MAX_TASK_FILE_BYTES)
    except Unreadable as error:
        raise BadInput(
            f"{path}: cannot read task file ({error.reason}); pass a regular .yaml, .yml "
            "or .jsonl file"
        ) from error
    if path.suffix == ".jsonl":
        return _jsonl_records(path, text)
    if path.suffix in (".yaml", ".yml"):
        return _yaml_records(path, text)
    raise BadInput(f"{path}: task files are .yaml, .yml or .jsonl")


def _schema_problems(file: str, line: int, record: Any) -> list[Problem]:
    task_id = record.get("id") if isinstance(record, dict) else None
    found = []
    for error in sorted(_VALIDATOR.iter_errors(record), key=lambda e: list(e.path)):
        where = ".".join(map(str, error.path)) or _missing_field(error)
        explain = _ALLOWED.get(str(error.validator))
        hint = explain(error) if explain else ""
        message = error.message + (f"; {hint}" if hint else "")
        found.append(
            Problem(file, line, task_id if isinstance(task_id, str) else None, where, message)
        )
    return found


def _missing_field(error: jsonschema.ValidationError) -> str:
    if error.validator == "required" and isinstance(error.instance, Mapping):
        missing = [f for f in error.validator_value if f not in error.instance]
        return missing[0] if missing else "(task)"
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        extra = [k for k in error.instance if k not in TASK_SCHEMA["properties"]]
        return extra[0] if extra else "(task)"
    return "(task)"


def to_task(record: Mapping[str, Any]) -> Task:
    """A validated record as a `Task` (``prompt`` becomes a one-turn task)."""
    turns = record.get("turns") or [record["prompt"]]
    return Task(
        id=record["id"],
        domain=record["domain"],
        turns=tuple(turns),
        verifier=dict(record["verifier"]),
        source=record.get("source", "seed"),
        difficulty=record.get("difficulty", "medium"),
        approved=record.get("approved", True),
        system=record.get("system"),
        template_id=record.get("template_id"),
        variant=record.get("variant"),
        tags=tuple(record.get("tags", ())),
    )


def _verifier_problems(file: str, line: int, task: Task) -> list[Problem]:
    try:
        verifier = get_verifier(task.verifier_type)
    except BadInput as error:
        return [Problem(file, line, task.id, "verifier.type", str(error))]
    where = "verifier"
    return [
        Problem(file, line, task.id, where, message) for message in verifier.problems(task.verifier)
    ]


def load_tasks(paths: Iterable[Path]) -> tuple[list[Task], list[Problem]]:
    """Every task in ``paths`` (files or folders), and every problem found."""
    tasks: list[Task] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in _task_files(paths):
        for line, record in records(path):
            found = _schema_problems(str(path), line, record)
            if found:
                problems.extend(found)
                continue
            task = to_task(record)
            problems.extend(_verifier_problems(str(path), line, task))
            if task.id in seen:
                problems.append(
                    Problem(
                        str(path),
                        line,
                        task.id,
                        "id",
                        f"duplicate id, first defined at {seen[task.id]}",
                    )
                )
                continue
            seen[task.id] = f"{path}:{line}"
            tasks.append(task)
    return tasks, problems


def _task_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml", ".jsonl"))
            )
        elif path.exists():
            files.append(path)
        else:
            raise BadInput(f"{path}: no such task file or folder")
    return files
