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
from slopmark.evals.harness import HARNESS
from slopmark.evals.task import DOMAINS
from slopmark.yamlconfig import read_mapping, reject_unknown

PROVIDERS = ("openai-compat",)
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


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{where}: expected a non-empty string, got {value!r}")
    return value.strip()


def _model(path: Path, index: int, entry: Any) -> SuiteModel:
    where = f"{path}: models[{index}]"
    if not isinstance(entry, dict):
        raise BadInput(f"{where}: expected a mapping with model and base_url, got {entry!r}")
    reject_unknown(entry, _MODEL_FIELDS, f"{where}.", "field")
    provider, colon, name = _text(f"{where}.model", entry.get("model")).partition(":")
    if not colon or not name or provider not in PROVIDERS:
        raise BadInput(f"{where}.model: expected PROVIDER:NAME with PROVIDER one of "
                       f"{', '.join(PROVIDERS)}, e.g. openai-compat:qwen3-8b")  # fmt: skip
    base_url = _text(f"{where}.base_url", entry.get("base_url"))
    if not re.match(r"https?://[^/\s]+", base_url):
        raise BadInput(f"{where}.base_url: {base_url!r} is not an http(s) URL")
    key_env = entry.get("key_env")
    if key_env is not None and not _VARIABLE.fullmatch(str(key_env)):
        raise BadInput(f"{where}.key_env: {key_env!r} is not a variable name (the key's "
                       "variable, never the key itself)")  # fmt: skip
    return SuiteModel(provider, name, base_url, key_env)


def _positive(path: Path, data: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = data.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise BadInput(f"{path}: {name}: expected a number >= 0, got {value!r}")
    return kind(value)


def _list(path: Path, data: dict[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise BadInput(f"{path}: {name}: expected a list, got {value!r}")
    return value


def _distinct(path: Path, names: list[str]) -> None:
    for index, name in enumerate(names):
        if name in names[:index]:
            raise BadInput(
                f"{path}: models[{index}].model: {name!r} is named twice; runs are kept "
                "per model name, so give each endpoint's model its own name"
            )


def read_suite(path: Path) -> SuiteFile:
    """The suite ``path`` describes; BadInput naming the file and field that is wrong."""
    data = read_mapping(path, "models and domains")
    reject_unknown(data, _TOP, f"{path}: ", "field")
    models = tuple(_model(path, i, e) for i, e in enumerate(_list(path, data, "models")))
    _distinct(path, [f"{m.provider}:{m.model}" for m in models])
    domains = tuple(_text(f"{path}: domains", d) for d in _list(path, data, "domains"))
    reject_unknown(domains, DOMAINS, f"{path}: domains: ", "domain")
    if not models or not domains:
        raise BadInput(f"{path}: name at least one entry under models and one under domains")
    mode = _text(f"{path}: mode", data.get("mode", "standard"))
    if mode not in HARNESS.modes:
        raise BadInput(f"{path}: mode: {mode!r} must be one of {', '.join(HARNESS.modes)}")
    tasks = tuple(
        (path.parent / _text(f"{path}: tasks", t)).resolve() for t in _list(path, data, "tasks")
    )
    return SuiteFile(
        path, models, tuple(dict.fromkeys(domains)), mode, tasks,
        limit=_positive(path, data, "limit", int, None),
        concurrency=max(1, _positive(path, data, "concurrency", int, 16)),
        timeout_s=_positive(path, data, "timeout", float, 60.0),
        retries=_positive(path, data, "retries", int, 4),
    )  # fmt: skip
