"""Types of the native core (`native/`, built by maturin as `slopmark._core`).

`make check` holds this stub to the built module with ``python -m mypy.stubtest``.
"""

from collections.abc import Sequence
from os import PathLike
from typing import Any, final

__version__: str
#: The default size limit of `stream` (equal to `slopmark.code.measure.discovery.MAX_FILE_BYTES`).
MAX_FILE_BYTES: int

class RuleRejected(ValueError):
    """ast-grep refused a rule: ``args`` are (index of the rule, reason)."""

@final
class RulePack:
    """A rule pack compiled once for one language (one YAML or JSON text per rule)."""

    def __new__(cls, language_name: str, rules: Sequence[str]) -> RulePack: ...
    def __len__(self) -> int: ...
    @property
    def language(self) -> str: ...

@final
class Measured:
    """A file the core measured (see `slopmark.code.measure.fileanalysis.from_record`)."""

    #: a byte per line, index 0 unused: 1 for a SLOC line
    @property
    def sloc(self) -> bytes: ...
    #: (qualified name, start line, end line, CC, SLOC)
    @property
    def callables(self) -> list[tuple[str, int, int, int, int]]: ...
    #: clone candidates: (kind, start line, end line, normal-form digest)
    @property
    def clones(self) -> list[tuple[str, int, int, bytes]]: ...
    #: (index of the rule in the pack, start line, end line, message or None: the rule's)
    @property
    def hits(self) -> list[tuple[int, int, int, str | None]]: ...
    #: `slopmark: ignore[...]` comments: (line, rule ids)
    @property
    def ignores(self) -> list[tuple[int, list[str]]]: ...
    #: the first syntax error (message, line, column) of a file measured despite it
    @property
    def syntax(self) -> tuple[str, int, int] | None: ...
    #: the text may declare an encoding of its own (a PEP 263 cookie)
    @property
    def declares_encoding(self) -> bool: ...

@final
class Failed:
    """A file the core did not measure: the kind of error (``unreadable``, ``too-big``,
    ``not-utf8``, ``syntax``, ...), its message and place (0 when it has none)."""

    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...

#: What the core says of one file.
Record = Measured | Failed

@final
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

def languages() -> list[tuple[str, list[str], str, list[str]]]:
    """The core's grammars in report order: (name, file extensions without the dot, the
    language its files are reported under, the languages whose rules run on them)."""

def json_objects(
    keys: Sequence[str], columns: Sequence[int], lists: Sequence[Sequence[Sequence[Any]]]
) -> list[str]:
    """For each list of ``lists``, its rows as compact JSON objects joined by commas (what
    ``json.dumps(..., separators=(",", ":"))`` writes), an object having each of ``keys``
    with the row's item at the matching index of ``columns``."""

def yaml_documents(texts: Sequence[str]) -> list[list[str] | str]:
    """Each text's YAML documents as JSON texts (an empty one left out), or why it is not
    YAML slopmark reads (aliases are refused), in one line."""
