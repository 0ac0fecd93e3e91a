"""Types of the native core (`native/`, built by maturin as `slopmark._core`)."""

from collections.abc import Sequence
from os import PathLike
from typing import Any

__version__: str
#: The default size limit of `stream` (equal to `slopmark.code.tree.MAX_FILE_BYTES`).
MAX_FILE_BYTES: int

class RuleRejected(ValueError):
    """ast-grep refused a rule: ``args`` are (index of the rule, reason)."""

class RulePack:
    """A rule pack compiled once for one language (one YAML or JSON text per rule)."""

    def __init__(self, language_name: str, rules: Sequence[str]) -> None: ...
    def __len__(self) -> int: ...
    @property
    def language(self) -> str: ...

#: ("ok", sloc map, callables, clones, hits, ignores, syntax error (message, line, column)
#: or None) or ("error", kind, message, line, column)
Record = tuple[Any, ...]

class Stream:
    """A running analysis: records of the files finished so far, while the core goes on."""

    def __len__(self) -> int: ...
    def next(self, at_least: int = 1, timeout: float | None = None) -> list[tuple[int, Record]]:
        """(index, record) of the files finished since the last call: waits until
        ``at_least`` are there, ``timeout`` seconds pass or all are done; [] once all were
        read."""

def stream(
    language: str,
    items: Sequence[bytes | str | PathLike[str]],
    rules: RulePack | None = None,
    jobs: int = 0,
    min_clone_sloc: int = 3,
    max_depth: int = 1000,
    max_file_bytes: int = ...,
) -> Stream:
    """Analyse files (each a path, or its source bytes) on the core's threads. A path is
    read only if it names a regular file of at most ``max_file_bytes`` (default
    `MAX_FILE_BYTES`), and a parse over the core's step budget (minified or generated code)
    gives a ``too-big`` record; a limit past the default lifts the budget."""

def languages() -> list[tuple[str, list[str]]]: ...
def json_objects(
    keys: Sequence[str], columns: Sequence[int], lists: Sequence[Sequence[Sequence[Any]]]
) -> list[str]:
    """For each list of ``lists``, its rows as compact JSON objects joined by commas (what
    ``json.dumps(..., separators=(",", ":"))`` writes), an object having each of ``keys``
    with the row's item at the matching index of ``columns``."""
def yaml_documents(texts: Sequence[str]) -> list[list[str] | str]:
    """Each text's YAML documents as JSON texts (an empty one left out), or why it is not
    YAML slopmark reads (aliases are refused), in one line."""
