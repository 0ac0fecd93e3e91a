"""Types of the native core (`native/`, built by maturin as `slopmark._core`)."""

from collections.abc import Sequence
from os import PathLike
from typing import Any

__version__: str

class RuleRejected(ValueError):
    """ast-grep refused a rule: ``args`` are (index of the rule, reason)."""

class RulePack:
    """A rule pack compiled once for one language (one YAML or JSON text per rule)."""

    def __init__(self, language_name: str, rules: Sequence[str]) -> None: ...
    def __len__(self) -> int: ...
    @property
    def language(self) -> str: ...

class Progress:
    """Files finished by a running analysis (read from another thread)."""

    def __init__(self) -> None: ...
    @property
    def done(self) -> int: ...

#: ("ok", sloc map, callables, clones, hits, ignores, syntax error (message, line, column)
#: or None) or ("error", kind, message, line, column)
Record = tuple[Any, ...]

def analyze_paths(
    language: str,
    paths: Sequence[str | PathLike[str]],
    rules: RulePack | None = None,
    jobs: int = 0,
    min_clone_sloc: int = 3,
    max_depth: int = 1000,
    progress: Progress | None = None,
) -> list[Record]: ...
def analyze_sources(
    language: str,
    sources: Sequence[bytes],
    rules: RulePack | None = None,
    jobs: int = 0,
    min_clone_sloc: int = 3,
    max_depth: int = 1000,
    progress: Progress | None = None,
) -> list[Record]: ...
def languages() -> list[tuple[str, list[str]]]: ...
