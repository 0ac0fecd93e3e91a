"""SUITE.yaml: models × endpoints × domains in one file (``slopmark eval suite``).

```yaml
models:
  - model: openai-compat:qwen3-8b        # PROVIDER:NAME, as eval run --model
    base_url: http://127.0.0.1:8080/v1
    key_env: QWEN_API_KEY                # the variable holding its key (optional)
  - model: openai-compat:smollm2
    base_url: http://127.0.0.1:8081/v1
domains: [instruction, math]
mode: standard        # optional, as eval run
tasks: [more.yaml]    # optional task files instead of the shipped pool (relative to this file)
limit: 50             # optional: at most N open tasks per slice
concurrency: 16       # optional: tasks in flight per slice
timeout: 60           # optional: seconds per request
retries: 4            # optional
```
Each (model, domain) is a slice: a unit of the sweep. A key never appears in
the file: ``key_env`` names the variable that holds it on every node (without
it the worker uses $SLOPMARK_API_KEY, then $OPENAI_API_KEY, as eval run does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slopmark.errors import BadInput
from slopmark.evals.endpoint import PROVIDERS
from slopmark.evals.harness import HARNESS
from slopmark.evals.task import DOMAINS
from slopmark.yamlconfig import read_mapping, reject_unknown

_TOP = ("models", "domains", "mode", "tasks", "limit", "concurrency", "timeout", "retries")
_MODEL_FIELDS = ("model", "base_url", "key_env")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class SuiteModel:
    provider: str
    model: str
    base_url: str
    key_env: str | None = None


@dataclass(frozen=True)
class SuiteFile:
    path: Path
    models: tuple[SuiteModel, ...]
    domains: tuple[str, ...]
    mode: str = "standard"
    tasks: tuple[Path, ...] = ()
    limit: int | None = None
    concurrency: int = 16
    timeout_s: float = 60.0
    retries: int = 4


def _require(ok: bool, message: str) -> None:
    """The one check of this reader: BadInput with ``message`` unless ``ok``."""
    if not ok:
        raise BadInput(message)


def _text(where: str, value: Any) -> str:
    _require(isinstance(value, str) and bool(value.strip()),
             f"{where}: expected a non-empty string, got {value!r}")  # fmt: skip
    return str(value).strip()


def _model(path: Path, index: int, entry: Any) -> SuiteModel:
    where = f"{path}: models[{index}]"
    _require(isinstance(entry, dict),
             f"{where}: expected a mapping with model and base_url, got {entry!r}")  # fmt: skip
    reject_unknown(entry, _MODEL_FIELDS, f"{where}.", "field")
    provider, colon, name = _text(f"{where}.model", entry.get("model")).partition(":")
    _require(bool(colon and name) and provider in PROVIDERS,
             f"{where}.model: expected PROVIDER:NAME with PROVIDER one of "
             f"{', '.join(PROVIDERS)}, e.g. openai-compat:qwen3-8b")  # fmt: skip
    base_url = _text(f"{where}.base_url", entry.get("base_url"))
    _require(bool(re.match(r"https?://[^/\s]+", base_url)),
             f"{where}.base_url: {base_url!r} is not an http(s) URL")  # fmt: skip
    key_env = entry.get("key_env")
    _require(key_env is None or bool(_VARIABLE.fullmatch(str(key_env))),
             f"{where}.key_env: {key_env!r} is not a variable name (the key's variable, "
             "never the key itself)")  # fmt: skip
    return SuiteModel(provider, name, base_url, key_env)


def _number(path: Path, data: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    """A number >= 0 (None stays None: no limit)."""
    value = data.get(name, default)
    plain = isinstance(value, int | float) and not isinstance(value, bool)
    _require(value is None or (plain and value >= 0),
             f"{path}: {name}: expected a number >= 0, got {value!r}")  # fmt: skip
    return None if value is None else kind(value)


def _list(path: Path, data: dict[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    _require(isinstance(value, list), f"{path}: {name}: expected a list, got {value!r}")
    return list(value)


def _distinct(path: Path, names: list[str]) -> None:
    for index, name in enumerate(names):
        _require(name not in names[:index],
                 f"{path}: models[{index}].model: {name!r} is named twice; runs are kept "
                 "per model name, so give each endpoint's model its own name")  # fmt: skip


def read_suite(path: Path) -> SuiteFile:
    """The suite ``path`` describes; BadInput naming the file and field that is wrong."""
    data = read_mapping(path, "models and domains")
    reject_unknown(data, _TOP, f"{path}: ", "field")
    models = tuple(_model(path, i, e) for i, e in enumerate(_list(path, data, "models")))
    _distinct(path, [f"{m.provider}:{m.model}" for m in models])
    domains = tuple(_text(f"{path}: domains", d) for d in _list(path, data, "domains"))
    reject_unknown(domains, DOMAINS, f"{path}: domains: ", "domain")
    _require(bool(models and domains),
             f"{path}: name at least one entry under models and one under domains")  # fmt: skip
    mode = _text(f"{path}: mode", data.get("mode", "standard"))
    reject_unknown([mode], HARNESS.modes, f"{path}: mode: ", "mode")
    tasks = tuple(
        (path.parent / _text(f"{path}: tasks", t)).resolve() for t in _list(path, data, "tasks")
    )
    return SuiteFile(
        path, models, tuple(dict.fromkeys(domains)), mode, tasks,
        limit=_number(path, data, "limit", int, None),
        concurrency=max(1, _number(path, data, "concurrency", int, 16)),
        timeout_s=_number(path, data, "timeout", float, 60.0),
        retries=_number(path, data, "retries", int, 4),
    )  # fmt: skip
