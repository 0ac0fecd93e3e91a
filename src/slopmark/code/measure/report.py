"""The tree-level report of `slopmark code measure`, built from per-file analyses."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

from slopmark.code.measure.clones import CloneGroup, clone_groups
from slopmark.code.measure.fileanalysis import FileAnalysis, Skipped
from slopmark.code.measure.hits import Problem, RuleHit, effective_hits
from slopmark.code.measure.languages import LANGUAGES
from slopmark.code.measure.metrics import SIZE_TERMS, Settings, erosion, ratio


class CallableMetrics(NamedTuple):
    """A callable of a measured file with its mass (a named tuple: a big tree has tens of
    thousands)."""

    path: str
    qualname: str
    start: int
    end: int
    cc: int
    sloc: int
    mass: float


@dataclass(frozen=True, slots=True)
class FileMetrics:
    path: str
    sloc: int
    rule_lines: int
    clone_lines: int
    flagged_lines: int
    callables: tuple[CallableMetrics, ...]
    hits: tuple[RuleHit, ...]
    notes: tuple[str, ...]
    erosion: float | None
    verbosity: float | None
    language: str = "python"


@dataclass(frozen=True, slots=True)
class LanguageRow:
    """The measures of one language's files within a tree (a mixed tree has several)."""

    language: str
    files: int
    sloc: int
    callables: int
    complex_callables: int
    rule_lines: int
    clone_lines: int
    flagged_lines: int
    erosion: float | None
    verbosity: float | None


@dataclass(frozen=True)
class TreeReport:
    """Every number `measure` prints, with the per-file detail behind it."""

    root: str
    settings: Settings
    files: tuple[FileMetrics, ...]
    skipped: tuple[Skipped, ...]
    clone_groups: tuple[CloneGroup, ...]
    problems: tuple[Problem, ...]
    rules_run: int
    sloc: int = field(init=False)
    rule_lines: int = field(init=False)
    clone_lines: int = field(init=False)
    flagged_lines: int = field(init=False)
    erosion: float | None = field(init=False)
    verbosity: float | None = field(init=False)

    def __post_init__(self) -> None:
        files = self.files
        set_ = object.__setattr__
        set_(self, "sloc", sum(f.sloc for f in files))
        set_(self, "rule_lines", sum(f.rule_lines for f in files))
        set_(self, "clone_lines", sum(f.clone_lines for f in files))
        set_(self, "flagged_lines", sum(f.flagged_lines for f in files))
        pairs = ((c.cc, c.mass) for c in self.callables)
        set_(self, "erosion", erosion(pairs, self.settings.cc_threshold))
        set_(self, "verbosity", ratio(self.flagged_lines, self.sloc))

    @property
    def callables(self) -> tuple[CallableMetrics, ...]:
        return tuple(chain.from_iterable(f.callables for f in self.files))

    @property
    def hits(self) -> tuple[RuleHit, ...]:
        return tuple(chain.from_iterable(f.hits for f in self.files))

    def languages(self) -> tuple[LanguageRow, ...]:
        """One row per language measured, in `slopmark.code.measure.languages` order."""
        by_language: dict[str, list[FileMetrics]] = defaultdict(list)
        for f in self.files:
            by_language[f.language].append(f)
        return tuple(
            language_row(name, by_language[name], self.settings)
            for name in sorted(by_language, key=_language_order)
        )

    def complex_callables(self) -> tuple[CallableMetrics, ...]:
        """Callables over the CC threshold, the ones erosion counts."""
        return tuple(c for c in self.callables if c.cc > self.settings.cc_threshold)


class FilePart(NamedTuple):
    """What a file's metrics take from the file alone: all but its clone lines, which
    depend on the tree it is pooled in."""

    callables: tuple[CallableMetrics, ...]
    #: the hits that count (after suppressions and ``min_hits``), in line order
    hits: tuple[RuleHit, ...]
    problems: tuple[Problem, ...]
    #: a byte per line, 1 where a counting hit covers a SLOC line
    rule_marks: bytes
    erosion: float | None


class FileMemo:
    """Each file version's `FilePart`, made once: for the reports of many trees that share
    versions (the commits of a history), or while the core still works on the other files
    of a tree. Keyed by the analysis object, which the memo holds, so a key is never
    reused; every report made with it uses its rules' ``min_hits``, ``known_rules`` and
    ``settings``."""

    def __init__(
        self, settings: Settings, min_hits: Mapping[str, int], known_rules: Collection[str]
    ) -> None:
        self.settings, self.min_hits, self.known_rules = settings, min_hits, known_rules
        self._held: dict[int, tuple[FileAnalysis, FilePart]] = {}

    def part(self, analysis: FileAnalysis) -> FilePart:
        held = self._held.get(id(analysis))
        if held is None:
            part = file_part(analysis, self.min_hits, self.known_rules, self.settings)
            held = self._held[id(analysis)] = (analysis, part)
        return held[1]


def file_part(
    analysis: FileAnalysis,
    min_hits: Mapping[str, int],
    known_rules: Collection[str],
    settings: Settings = Settings(),
) -> FilePart:
    """The metrics ``analysis`` has on its own (`FilePart`)."""
    dropped = settings.floors.of(analysis.path)
    kept, problems = effective_hits(
        analysis, min_hits, known_rules, settings.suppressions, dropped
    )
    callables = _callables(analysis, settings)
    return FilePart(
        callables=callables,
        hits=tuple(sorted(kept, key=lambda h: (h.start, h.rule))),
        problems=tuple(problems),
        rule_marks=bytes(_mark(analysis.sloc, ((h.start, h.end) for h in kept))),
        erosion=erosion(((c.cc, c.mass) for c in callables), settings.cc_threshold),
    )


def build_report(
    root: str,
    analyses: Sequence[FileAnalysis],
    skipped: Sequence[Skipped],
    min_hits: Mapping[str, int],
    known_rules: Collection[str],
    settings: Settings = Settings(),
    rules_run: int = 0,
    memo: FileMemo | None = None,
) -> TreeReport:
    """Pool clones across ``analyses`` and combine them with each file's rule hits (the
    files' own parts from ``memo`` when given: it must be made with the same rules and
    settings)."""
    analyses = sorted(analyses, key=lambda a: a.path)
    groups = clone_groups(analyses)
    clone_spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for group in groups:
        for member in group.members:
            clone_spans[member.path].append((member.start, member.end))
    memo = memo or FileMemo(settings, min_hits, known_rules)
    files: list[FileMetrics] = []
    problems: list[Problem] = []
    for analysis in analyses:
        part = memo.part(analysis)
        problems.extend(part.problems)
        files.append(_file_metrics(analysis, clone_spans[analysis.path], part))
    return TreeReport(
        root=root,
        settings=settings,
        files=tuple(files),
        skipped=tuple(sorted(skipped, key=lambda s: s.path)),
        clone_groups=groups,
        problems=tuple(problems),
        rules_run=rules_run,
    )


def file_metrics(
    analysis: FileAnalysis,
    clone_spans: Iterable[tuple[int, int]],
    min_hits: Mapping[str, int],
    known_rules: Collection[str],
    settings: Settings = Settings(),
) -> FileMetrics:
    """One file's metrics as `build_report` makes them, given the spans of the file's
    members of its tree's clone groups (how `code diff` updates a tree file by file)."""
    part = file_part(analysis, min_hits, known_rules, settings)
    return _file_metrics(analysis, list(clone_spans), part)


def _mark(sloc: bytes, spans: Iterable[tuple[int, int]]) -> bytearray:
    """A line map with the SLOC lines of every span set."""
    marks = bytearray(len(sloc))
    for start, end in spans:
        marks[start : end + 1] = sloc[start : end + 1]
    return marks


def _callables(analysis: FileAnalysis, settings: Settings) -> tuple[CallableMetrics, ...]:
    """Each callable with its mass (`slopmark.code.measure.metrics.mass`, its size term looked up
    once for the file)."""
    path, size, make = analysis.path, SIZE_TERMS[settings.size_term], CallableMetrics._make
    return tuple(
        [make((path, name, start, end, cc, sloc, cc * size(sloc) if sloc > 0 else 0.0))
         for name, start, end, cc, sloc in analysis.callables]
    )  # fmt: skip


def _file_metrics(
    analysis: FileAnalysis, clone_spans: list[tuple[int, int]], part: FilePart
) -> FileMetrics:
    clone_marks = _mark(analysis.sloc, clone_spans)
    width = len(analysis.sloc)
    union = int.from_bytes(clone_marks, "big") | int.from_bytes(part.rule_marks, "big")
    total = analysis.sloc_count
    flagged = union.to_bytes(width, "big").count(1)
    return FileMetrics(
        path=analysis.path,
        sloc=total,
        rule_lines=part.rule_marks.count(1),
        clone_lines=clone_marks.count(1),
        flagged_lines=flagged,
        callables=part.callables,
        hits=part.hits,
        notes=analysis.notes,
        erosion=part.erosion,
        verbosity=ratio(flagged, total),
        language=analysis.language,
    )


def language_row(language: str, files: Sequence[FileMetrics], settings: Settings) -> LanguageRow:
    """Pool ``files`` (all of ``language``) as the tree totals pool every file."""
    callables = [c for f in files for c in f.callables]
    sloc = sum(f.sloc for f in files)
    flagged = sum(f.flagged_lines for f in files)
    return LanguageRow(
        language=language,
        files=len(files),
        sloc=sloc,
        callables=len(callables),
        complex_callables=sum(c.cc > settings.cc_threshold for c in callables),
        rule_lines=sum(f.rule_lines for f in files),
        clone_lines=sum(f.clone_lines for f in files),
        flagged_lines=flagged,
        erosion=erosion(((c.cc, c.mass) for c in callables), settings.cc_threshold),
        verbosity=ratio(flagged, sloc),
    )


def _language_order(language: str) -> tuple[int, str]:
    return (LANGUAGES.index(language) if language in LANGUAGES else len(LANGUAGES), language)
