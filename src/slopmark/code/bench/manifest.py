"""A run folder's ``run.json``, read for reports: what was asked (agent, model, prompt).

`open_run_dir` (``runner``) writes it; `read_manifest` reads it back for
``code bench report`` and ``compare``, and turns a missing, unreadable or
malformed file into one `BadInput` line that names the file and what is
wrong with it, so no report path ends in a traceback over a hand-edited file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slopmark.errors import BadInput

__all__ = ["MANIFEST", "NAMED", "RunManifest", "read_manifest"]

MANIFEST = "run.json"
#: The fields a report names a run by; each a string, null or absent.
NAMED = ("agent", "model", "prompt")


@dataclass(frozen=True)
class RunManifest:
    """The parsed ``run.json`` (``record``) and the run's names (None when not recorded)."""

    path: Path
    record: dict[str, Any]
    agent: str | None
    model: str | None
    prompt: str | None


def _parse(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise BadInput(
            f"{path}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno}); "
            "restore the run.json that `bench run` wrote"
        ) from error
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: cannot read it ({error}); check the file") from error


def _name(path: Path, record: dict[str, Any], key: str) -> str | None:
    value = record.get(key)
    if value is not None and not isinstance(value, str):
        raise BadInput(
            f"{path}: field {key!r} is {json.dumps(value)}, not a string or null; "
            "restore the run.json that `bench run` wrote"
        )
    return value


def read_manifest(run_dir: Path) -> RunManifest:
    """RUN_DIR/run.json, checked: a JSON object whose agent, model and prompt are strings."""
    path = run_dir / MANIFEST
    if not path.is_file():
        raise BadInput(
            f"{run_dir}: not a bench run folder (no {MANIFEST}); pass a `bench run` --out"
        )
    record = _parse(path)
    if not isinstance(record, dict):
        raise BadInput(
            f"{path}: holds a JSON {type(record).__name__}, not an object; "
            "restore the run.json that `bench run` wrote"
        )
    agent, model, prompt = (_name(path, record, key) for key in NAMED)
    return RunManifest(path, record, agent, model, prompt)
