"""The native analysis core as `code measure` and `code history` use it (adapter).

One `Engine` holds the chosen rules, compiled once per grammar into the core's rule packs
(`slopmark.code.languages` says which rules run on which grammar); it hands the core
the paths (or the source bytes, for git blobs) of each grammar in one call, each file to
the grammar its suffix names, and turns the per-file records into `FileAnalysis` or
`Skipped`. The core analyses them on its own threads with the GIL released; progress is
read from its counter by the calling thread while a worker thread waits for the core. A
file whose bytes are not UTF-8 comes back once so that `analysis.decode` can read it
(Python by its PEP 263 cookie; other languages as UTF-8 with the bad bytes replaced, and a
note saying so).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from slopmark import _core
from slopmark.code.analysis import (
    MIN_CLONE_SLOC,
    FileAnalysis,
    Skipped,
    Undecodable,
    decode,
    from_record,
)
from slopmark.code.languages import grammar_of, language_of, rule_targets
from slopmark.code.rules import Rule
from slopmark.errors import BadInput

Progress = Callable[[int, int], None]
Outcome = FileAnalysis | Skipped

#: The grammar of a file whose suffix names no language (a single file given by path).
DEFAULT_GRAMMAR = "python"
#: Seconds between two progress reports while the core works.
PROGRESS_EVERY = 0.1


class Engine:
    """The chosen rules compiled for the core, and how many threads it may use."""

    def __init__(self, rules: Sequence[Rule], jobs: int = 0) -> None:
        self.rules = tuple(rules)
        self.jobs = jobs
        self._packs: dict[str, tuple[tuple[Rule, ...], Any]] = {}

    def pack(self, grammar: str) -> tuple[tuple[Rule, ...], Any]:
        """The rules that run on ``grammar`` and their compiled pack (None when none do)."""
        if grammar not in self._packs:
            rules = tuple(r for r in self.rules if grammar in rule_targets(r.language))
            self._packs[grammar] = (rules, compile_pack(grammar, rules) if rules else None)
        return self._packs[grammar]

    def analyze_paths(
        self, files: Sequence[tuple[str, str]], progress: Progress | None = None
    ) -> list[Outcome]:
        """Analyse files given as (location on disk, path shown in reports)."""
        return self._batches(files, "paths", progress)

    def analyze_sources(
        self, sources: Sequence[tuple[bytes, str]], progress: Progress | None = None
    ) -> list[Outcome]:
        """Analyse source bytes given as (bytes, path shown in reports)."""
        return self._batches(sources, "sources", progress)

    def _batches(
        self, items: Sequence[tuple[Any, str]], kind: str, progress: Progress | None
    ) -> list[Outcome]:
        """Outcomes in the order of ``items``; the core sees one grammar per call."""
        by_grammar: dict[str, list[int]] = {}
        for index, (_, path) in enumerate(items):
            by_grammar.setdefault(grammar_of(path) or DEFAULT_GRAMMAR, []).append(index)
        outcomes: list[Outcome | None] = [None] * len(items)
        done = 0
        for grammar, indexes in by_grammar.items():
            shown = None
            if progress is not None:
                shown = _offset(progress, done, len(items))
            records = self._core(grammar, kind, [items[i][0] for i in indexes], shown)
            for index, record in zip(indexes, records, strict=True):
                outcomes[index] = self._outcome(grammar, items[index], record)
            done += len(indexes)
        return [o for o in outcomes if o is not None]

    def _core(
        self, grammar: str, kind: str, inputs: list[Any], progress: Progress | None = None
    ) -> list[Any]:
        """One call of the core over ``inputs``, reporting progress while it runs."""
        call = _core.analyze_paths if kind == "paths" else _core.analyze_sources
        pack = self.pack(grammar)[1]
        if progress is None:
            records: list[Any] = call(grammar, inputs, pack, self.jobs, MIN_CLONE_SLOC)
            return records
        counter = _core.Progress()
        result: list[Any] = []
        failure: list[BaseException] = []

        def work() -> None:
            try:
                result.extend(call(grammar, inputs, pack, self.jobs, MIN_CLONE_SLOC,
                                   progress=counter))  # fmt: skip
            except BaseException as error:  # re-raised in the calling thread
                failure.append(error)

        worker = threading.Thread(target=work, name="slopmark-core", daemon=True)
        worker.start()
        alive = True
        while alive:  # at least one report, the last one after the core is done
            worker.join(PROGRESS_EVERY)
            alive = worker.is_alive()
            progress(counter.done, len(inputs))
        if failure:
            raise failure[0]
        return result

    def _outcome(self, grammar: str, item: tuple[Any, str], record: Any) -> Outcome:
        source, path = item
        rules, language = self.pack(grammar)[0], language_of(grammar)
        if grammar == "python" and record[0] != "error":
            problem = _python_refuses(source)
            if problem is not None:
                return Skipped(path, problem)
        if record[:2] != ("error", "not-utf8"):
            return from_record(path, record, rules, language=language)
        try:
            data = source if isinstance(source, bytes) else Path(source).read_bytes()
        except OSError as error:
            return Skipped(path, f"unreadable: {error.strerror or error}")
        if grammar == "python":
            try:
                text, notes = decode(data)
            except Undecodable as error:
                return Skipped(path, str(error))
        else:
            text = data.decode("utf-8", errors="replace")
            notes = ("undecodable bytes for utf-8 were replaced",)
        again = self._core(grammar, "sources", [text.encode("utf-8", errors="replace")])[0]
        return from_record(path, again, rules, notes, language)


#: Bytes read to look for a PEP 263 coding cookie (it sits on line 1 or 2).
COOKIE_HEAD = 2048


def _python_refuses(source: str | bytes) -> str | None:
    """Why Python would refuse to decode a file the core read as UTF-8 (its coding cookie
    names an unknown encoding or one its bytes are not valid in), else None."""
    try:
        if isinstance(source, str):
            with open(source, "rb") as handle:
                if b"coding" not in handle.read(COOKIE_HEAD):
                    return None
            source = Path(source).read_bytes()
        if b"coding" in source[:COOKIE_HEAD]:
            decode(source)
    except Undecodable as error:
        return str(error)
    except OSError:
        return None
    return None


def _offset(progress: Progress, before: int, total: int) -> Progress:
    """``progress`` for one grammar's files: ``before`` files were done before them."""
    return lambda done, _: progress(before + done, total)


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
