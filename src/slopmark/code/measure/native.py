"""The native analysis core as `code measure` and `code history` use it (adapter).

One `Engine` holds the chosen rules, compiled once per grammar into the core's rule packs
(`slopmark.code.measure.languages` says which rules run on which grammar); it hands the core
the paths (or the source bytes, for git blobs) of each grammar in one call, each file to
the grammar its suffix names, and turns the per-file records into `FileAnalysis` or
`Skipped`. The core analyses them on its own threads and streams the records back as
files finish: the calling thread turns each batch into outcomes (and reports progress)
while the core goes on with the rest. Files whose bytes are not UTF-8 come back once so
that `analysis.decode` can read them (Python by its PEP 263 cookie; other languages as
UTF-8 with the bad bytes replaced, and a note saying so), then go to the core again
together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from slopmark import _core
from slopmark.code.measure.discovery import MAX_FILE_BYTES
from slopmark.code.measure.fileanalysis import (
    MIN_CLONE_SLOC,
    FileAnalysis,
    Skipped,
    Undecodable,
    decode,
    from_record,
)
from slopmark.code.measure.languages import grammar_of, language_of, rule_targets
from slopmark.code.measure.rules import Rule
from slopmark.errors import BadInput
from slopmark.regular import Unreadable, read_regular

Progress = Callable[[int, int], None]
Outcome = FileAnalysis | Skipped
#: Called with each outcome as soon as it is made, while the core works on the rest:
#: where a caller does per-file work of its own (`slopmark.code.measure.report.FileMemo`).
Each = Callable[[Outcome], object]

#: The grammar of a file whose suffix names no language (a single file given by path).
DEFAULT_GRAMMAR = "python"
#: Seconds between two progress reports while the core works.
PROGRESS_EVERY = 0.1
#: Records taken from the core at a time, at most (Python turns a batch into outcomes
#: while the core goes on with the next files).
STREAM_BATCH = 64


class Engine:
    """The chosen rules compiled for the core, and how many threads it may use."""

    def __init__(
        self, rules: Sequence[Rule], jobs: int = 0, max_file_bytes: int = _core.MAX_FILE_BYTES
    ) -> None:
        self.rules = tuple(rules)
        self.jobs = jobs
        #: the size limit the core reads files by path with (past the default, the parse
        #: of generated files has no step budget)
        self.max_file_bytes = max_file_bytes
        self._packs: dict[str, tuple[tuple[Rule, ...], Any]] = {}

    def pack(self, grammar: str) -> tuple[tuple[Rule, ...], Any]:
        """The rules that run on ``grammar`` and their compiled pack (None when none do)."""
        if grammar not in self._packs:
            rules = tuple(r for r in self.rules if grammar in rule_targets(r.language))
            self._packs[grammar] = (rules, compile_pack(grammar, rules) if rules else None)
        return self._packs[grammar]

    def analyze_paths(
        self,
        files: Sequence[tuple[str, str]],
        progress: Progress | None = None,
        each: Each | None = None,
    ) -> list[Outcome]:
        """Analyse files given as (location on disk, path shown in reports)."""
        return self._batches(files, progress, each)

    def analyze_sources(
        self,
        sources: Sequence[tuple[bytes, str]],
        progress: Progress | None = None,
        each: Each | None = None,
    ) -> list[Outcome]:
        """Analyse source bytes given as (bytes, path shown in reports)."""
        return self._batches(sources, progress, each)

    def _batches(
        self,
        items: Sequence[tuple[Any, str]],
        progress: Progress | None,
        each: Each | None,
    ) -> list[Outcome]:
        """Outcomes in the order of ``items``; the core sees one grammar per call."""
        by_grammar: dict[str, list[int]] = {}
        for index, (_, path) in enumerate(items):
            by_grammar.setdefault(grammar_of(path) or DEFAULT_GRAMMAR, []).append(index)
        outcomes: list[Outcome | None] = [None] * len(items)
        shown = _Shown(progress, len(items))
        for grammar, indexes in by_grammar.items():
            chosen = [items[i] for i in indexes]
            for at, outcome in self._grammar(grammar, chosen, shown):
                outcomes[indexes[at]] = outcome
                if each is not None:
                    each(outcome)
        return [o for o in outcomes if o is not None]

    def _grammar(
        self, grammar: str, items: list[tuple[Any, str]], shown: _Shown
    ) -> Iterator[tuple[int, Outcome]]:
        """(index in ``items``, outcome) of files of one grammar, each as soon as the core
        has it; files that are not UTF-8 come last, decoded and analysed again together."""
        undecoded: list[int] = []
        for records in self._stream(grammar, [source for source, _ in items]):
            for at, record in records:
                if isinstance(record, _core.Failed) and record.kind == "not-utf8":
                    undecoded.append(at)
                else:
                    yield at, self._outcome(grammar, items[at], record)
            shown.advance(len(records))
        if undecoded:
            again = self._decoded(grammar, [items[i] for i in undecoded])
            yield from zip(undecoded, again, strict=True)

    def _stream(
        self, grammar: str, inputs: list[Any]
    ) -> Iterator[list[tuple[int, _core.Record]]]:
        """The core's (index, record) pairs over ``inputs``, in batches as files finish (at
        least every `PROGRESS_EVERY` seconds while it works)."""
        pack = self.pack(grammar)[1]
        stream = _core.stream(
            grammar, inputs, pack, self.jobs, MIN_CLONE_SLOC, max_file_bytes=self.max_file_bytes
        )
        left = len(inputs)
        while left:
            records = stream.next(min(left, STREAM_BATCH), PROGRESS_EVERY)
            left -= len(records)
            yield records

    def _outcome(self, grammar: str, item: tuple[Any, str], record: _core.Record) -> Outcome:
        source, path = item
        rules, language = self.pack(grammar)[0], language_of(grammar)
        if grammar == "python" and isinstance(record, _core.Measured) and record.declares_encoding:
            problem = _python_refuses(source)
            if problem is not None:
                return Skipped(path, problem)
        return from_record(path, record, rules, language=language)

    def _decoded(self, grammar: str, items: list[tuple[Any, str]]) -> list[Outcome]:
        """Files whose bytes are not UTF-8, decoded (Python's by its PEP 263 cookie, others
        with the bad bytes replaced, a note saying so) and analysed in one core call."""
        rules, language = self.pack(grammar)[0], language_of(grammar)
        decoded = [_decode(grammar, source, path) for source, path in items]
        texts = [d for d in decoded if not isinstance(d, Skipped)]
        records: dict[int, _core.Record] = {}
        for batch in self._stream(grammar, [text for text, _ in texts]):
            records.update(batch)
        found = iter(zip((records[at] for at in range(len(texts))), texts, strict=True))
        outcomes: list[Outcome] = []
        for reading, (_, path) in zip(decoded, items, strict=True):
            if isinstance(reading, Skipped):
                outcomes.append(reading)
                continue
            record, (_, notes) = next(found)
            outcomes.append(from_record(path, record, rules, notes, language))
        return outcomes


class _Shown:
    """Progress over all the files of a call, the grammars' files one after the other."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def advance(self, finished: int) -> None:
        self.done += finished
        if self.progress is not None:
            self.progress(self.done, self.total)


def _decode(
    grammar: str, source: str | bytes, path: str
) -> tuple[bytes, tuple[str, ...]] | Skipped:
    """A file's text as UTF-8 bytes with notes on how it was read, or why it is skipped."""
    try:
        data = source if isinstance(source, bytes) else _read_again(source)
    except Unreadable as error:
        return Skipped(path, error.reason)
    if grammar != "python":
        text = data.decode("utf-8", errors="replace")
        return text.encode("utf-8"), ("undecodable bytes for utf-8 were replaced",)
    try:
        text, notes = decode(data)
    except Undecodable as error:
        return Skipped(path, str(error))
    return text.encode("utf-8", errors="replace"), notes


def _python_refuses(source: str | bytes) -> str | None:
    """Why Python would refuse to decode a file the core read as UTF-8 and found may declare
    an encoding (its coding cookie names an unknown encoding or one its bytes are not valid
    in), else None."""
    try:
        decode(source if isinstance(source, bytes) else _read_again(source))
    except Undecodable as error:
        return str(error)
    except Unreadable:
        return None
    return None


def _read_again(location: str) -> bytes:
    """A file the core read already, read here to be decoded (still a regular file within
    the walk's limit, or `Unreadable`)."""
    return read_regular(location, MAX_FILE_BYTES, follow=False)


def compile_pack(grammar: str, rules: Sequence[Rule]) -> Any:
    """The rules compiled by the core for ``grammar``; a rule ast-grep refuses is the
    user's error."""
    try:
        return _core.RulePack(grammar, [rule.engine_text(grammar) for rule in rules])
    except _core.RuleRejected as error:
        index, reason = error.args
        rule = rules[index]
        message = f"{rule.source}: rule '{rule.id}' is rejected by ast-grep: {reason}"
        raise BadInput(message) from None


def analyze_source(path: str, data: bytes, rules: Sequence[Rule] = ()) -> Outcome:
    """One file's source bytes, measured on this thread (``path`` names it in reports)."""
    return Engine(rules, jobs=1).analyze_sources([(data, path)])[0]
