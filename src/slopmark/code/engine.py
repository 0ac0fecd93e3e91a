"""The native analysis core as `code measure` and `code history` use it (adapter).

One `Engine` holds the chosen rules compiled once into the core's rule pack; it hands
the core batches of paths (or of source bytes, for git blobs) and turns the per-file
records into `FileAnalysis` or `Skipped`. The core analyses each batch on its own
threads with the GIL released. A file whose bytes are not UTF-8 comes back once so
that `analysis.decode` can read it by its PEP 263 cookie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from slopmark import _core
from slopmark.code.analysis import MIN_CLONE_SLOC, FileAnalysis, Skipped, decode, from_record
from slopmark.code.rules import Rule
from slopmark.errors import BadInput

Progress = Callable[[int, int], None]
Outcome = FileAnalysis | Skipped

#: Language of the measured files (the core's language modules: `native/src/lang/`).
LANGUAGE = "python"
#: Files per core call when progress is shown (each call runs on every thread).
PROGRESS_BATCH = 256


class Engine:
    """The chosen rules compiled for the core, and how many threads it may use."""

    def __init__(self, rules: Sequence[Rule], jobs: int = 0) -> None:
        self.rules = tuple(rules)
        self.jobs = jobs
        self._pack = compile_pack(self.rules) if self.rules else None

    def analyze_paths(
        self, files: Sequence[tuple[str, str]], progress: Progress | None = None
    ) -> list[Outcome]:
        """Analyse files given as (location on disk, path shown in reports)."""
        return self._batches(files, lambda part: self._core("paths", [loc for loc, _ in part]),
                             progress)  # fmt: skip

    def analyze_sources(
        self, sources: Sequence[tuple[bytes, str]], progress: Progress | None = None
    ) -> list[Outcome]:
        """Analyse source bytes given as (bytes, path shown in reports)."""
        return self._batches(sources, lambda part: self._core("sources", [d for d, _ in part]),
                             progress)  # fmt: skip

    def _batches(
        self,
        items: Sequence[tuple[Any, str]],
        run: Callable[[Sequence[tuple[Any, str]]], list[Any]],
        progress: Progress | None,
    ) -> list[Outcome]:
        size = PROGRESS_BATCH if progress is not None else max(1, len(items))
        outcomes: list[Outcome] = []
        for start in range(0, len(items), size):
            part = items[start : start + size]
            records = zip(part, run(part), strict=True)
            outcomes.extend(self._outcome(item, record) for item, record in records)
            if progress is not None:
                progress(len(outcomes), len(items))
        return outcomes

    def _core(self, kind: str, inputs: list[Any]) -> list[Any]:
        call = _core.analyze_paths if kind == "paths" else _core.analyze_sources
        records: list[Any] = call(LANGUAGE, inputs, self._pack, self.jobs, MIN_CLONE_SLOC)
        return records

    def _outcome(self, item: tuple[Any, str], record: Any) -> Outcome:
        source, path = item
        if record[:2] != ("error", "not-utf8"):
            return from_record(path, record, self.rules)
        try:
            data = source if isinstance(source, bytes) else Path(source).read_bytes()
        except OSError as error:
            return Skipped(path, f"unreadable: {error.strerror or error}")
        text, notes = decode(data)
        again = self._core("sources", [text.encode("utf-8", errors="replace")])[0]
        return from_record(path, again, self.rules, notes)


def compile_pack(rules: Sequence[Rule]) -> Any:
    """The rules compiled by the core; a rule ast-grep refuses is the user's error."""
    try:
        return _core.RulePack(LANGUAGE, [rule.yaml_text for rule in rules])
    except _core.RuleRejected as error:
        index, reason = error.args
        rule = rules[index]
        message = f"{rule.source}: rule '{rule.id}' is rejected by ast-grep: {reason}"
        raise BadInput(message) from None


def analyze_source(path: str, data: bytes, rules: Sequence[Rule] = ()) -> Outcome:
    """One file's source bytes, measured on this thread (``path`` names it in reports)."""
    return Engine(rules, jobs=1).analyze_sources([(data, path)])[0]
