"""Load a job file: `.json` files hold a JSON document, `.jobs` files the text format."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from errors import InputError
from fields import check_job_id, value_from_json, value_from_text
from model import Job

_SECTION = re.compile(r"\[(.*)\]\Z")


def load_jobs(path: Path) -> tuple[Job, ...]:
    """Read and parse the job file at `path`, choosing the format by its extension."""
    loaders = {".json": parse_json, ".jobs": parse_text}
    loader = loaders.get(path.suffix)
    if loader is None:
        raise InputError(f"{path}: unsupported file extension {path.suffix!r}; use .json or .jobs")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"{path}: cannot read job file: {error.strerror}") from None
    return loader(text, str(path))


def parse_json(text: str, source: str) -> tuple[Job, ...]:
    """Parse `{"jobs": [{"id": ..., ...}, ...]}`."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{source}:{error.lineno}: invalid JSON: {error.msg}") from None
    if not isinstance(document, dict) or not isinstance(document.get("jobs"), list):
        raise InputError(f'{source}: expected an object with a "jobs" list')
    return tuple(_json_job(entry, index, source) for index, entry in enumerate(document["jobs"]))


def _json_job(entry: object, index: int, source: str) -> Job:
    where = f"{source}: jobs[{index}]"
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
        raise InputError(f'{where}: expected an object with a string "id"')
    values: dict[str, Any] = {}
    try:
        job_id = check_job_id(entry["id"])
        for key, raw in entry.items():
            if key != "id":
                values[key] = value_from_json(key, raw)
    except ValueError as error:
        raise InputError(f"{where}: {error}") from None
    return Job(id=job_id, **values)


def parse_text(text: str, source: str) -> tuple[Job, ...]:
    """Parse the text format: `[id]` section headers followed by `key = value` lines."""
    sections: list[tuple[str, dict[str, Any]]] = []
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            _parse_line(line, sections)
        except ValueError as error:
            raise InputError(f"{source}:{number}: {error}") from None
    return tuple(Job(id=job_id, **values) for job_id, values in sections)


def _parse_line(line: str, sections: list[tuple[str, dict[str, Any]]]) -> None:
    header = _SECTION.match(line)
    if header:
        sections.append((check_job_id(header.group(1).strip()), {}))
        return
    key, equals, value = line.partition("=")
    if not equals:
        raise ValueError(f"expected '[job-id]' or 'key = value', got {line!r}")
    if not sections:
        raise ValueError("'key = value' line before the first [job-id] section")
    key = key.strip()
    values = sections[-1][1]
    if key in values:
        raise ValueError(f"key {key!r} given twice for job {sections[-1][0]!r}")
    values[key] = value_from_text(key, value.strip())
