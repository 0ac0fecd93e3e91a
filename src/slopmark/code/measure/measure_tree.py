"""`slopmark code measure`: a tree on disk → `TreeReport` (orchestration and I/O)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from slopmark.code.measure.cache.files import Analyzer, Version
from slopmark.code.measure.cache.reports import cached_report, keep_report, report_key
from slopmark.code.measure.cache.rules import cached_catalog
from slopmark.code.measure.cache.store import ResultCache
from slopmark.code.measure.discovery import MAX_FILE_BYTES, SourceFile, SourceSet, discover
from slopmark.code.measure.fileanalysis import FileAnalysis, Skipped
from slopmark.code.measure.languages import LANGUAGES, rule_targets
from slopmark.code.measure.levels import Floors, Reader, disk_reader, floors
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.native import Each, Outcome, Progress
from slopmark.code.measure.repool import Pooling, base_key, cached_base, keep_base, updated
from slopmark.code.measure.report import FileMemo, TreeReport, build_report
from slopmark.code.measure.rules import Rule, choose
from slopmark.code.measure.scopes import SCOPES
from slopmark.gcpause import gc_paused

__all__ = [
    "MeasureOptions",
    "Progress",
    "applicable",
    "catalog_of",
    "discover_sources",
    "floors_of",
    "level_floors",
    "measure_sources",
    "measure_tree",
    "min_hits_of",
    "split",
]


@dataclass(frozen=True)
class MeasureOptions:
    excludes: Sequence[str] = ()
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    rule_dirs: Sequence[Path] = ()
    settings: Settings = field(default_factory=Settings)
    #: threads of the native core (0: one per core)
    jobs: int = 0
    max_file_bytes: int = MAX_FILE_BYTES
    #: languages measured (`--language`); every language by default
    languages: Sequence[str] = LANGUAGES
    #: scopes measured (`--scope`, `slopmark.code.measure.scopes`); every scope by default
    scopes: Sequence[str] = SCOPES
    #: the content cache of per-file results (None: every file is analysed)
    cache: ResultCache | None = None
    #: the rule catalog of ``rule_dirs`` when the caller loaded it already (its SARIF
    #: output describes the same rules); None: loaded here, through the cache
    catalog: Sequence[Rule] | None = None


def catalog_of(options: MeasureOptions) -> Sequence[Rule]:
    """The rule catalog of ``options``: the one given, else loaded through the cache."""
    if options.catalog is not None:
        return options.catalog
    return cached_catalog(options.cache, options.rule_dirs, options.settings.rule_set)


def split(outcomes: Sequence[Outcome]) -> tuple[list[FileAnalysis], list[Skipped]]:
    """Measured files and skipped ones, apart."""
    measured = [o for o in outcomes if isinstance(o, FileAnalysis)]
    skipped = [o for o in outcomes if isinstance(o, Skipped)]
    return measured, skipped


def measure_tree(
    path: Path, options: MeasureOptions = MeasureOptions(), progress: Progress | None = None
) -> TreeReport:
    """Measure every source file of the chosen languages and scopes under ``path``."""
    return measure_sources(discover_sources(path, options), options, progress)


def discover_sources(path: Path, options: MeasureOptions = MeasureOptions()) -> SourceSet:
    """The files `measure_tree` measures under ``path`` (with its `Coverage`)."""
    return discover(
        path, options.excludes, options.max_file_bytes, options.languages, options.scopes
    )


def measure_sources(
    sources: SourceSet, options: MeasureOptions = MeasureOptions(), progress: Progress | None = None
) -> TreeReport:
    """Measure the files of ``sources`` (found by `discover`, or chosen by the caller)."""
    catalog = catalog_of(options)
    rules = applicable(choose(catalog, options.select, options.ignore), sources.files)
    analyzer = Analyzer(rules, options.jobs, options.cache, max_file_bytes=options.max_file_bytes)
    known = frozenset(rule.id for rule in catalog)
    # the benchmark's profile (suppressions off): the measured code's own build files do
    # not set its measurement either, every level is unknown
    read_levels = sources if options.settings.suppressions else None
    settings = replace(options.settings, floors=floors_of(rules, read_levels))
    with gc_paused():
        files = [Version(f.path, location=f.location) for f in sources.files]
        keys = _keys(analyzer, files, sources, known, settings)
        report = cached_report(analyzer.cache, keys.report, settings)
        if report is None:
            report = _measured(analyzer, files, sources, keys, known, settings, progress)
        elif progress is not None:
            progress(len(files), len(files))
        return report


@dataclass(frozen=True)
class _Keys:
    """A tree's keys in the cache (all None or empty without a cache)."""

    #: the whole report's (None too when a file's content could not be read)
    report: bytes | None
    #: the base of the tree's context (`slopmark.code.measure.repool`)
    base: bytes | None
    #: each file's (path, result key)
    files: list[tuple[str, bytes | None]]


def _measured(
    analyzer: Analyzer,
    files: Sequence[Version],
    sources: SourceSet,
    keys: _Keys,
    known: frozenset[str],
    settings: Settings,
    progress: Progress | None,
) -> TreeReport:
    """The report made from the last full pooling when few files changed, else pooled from
    every file (then kept, with its base, for the next run).

    A report made from the base is kept only when no file had to be analysed (the tree
    was measured as it is before): storing a big tree's report costs a tenth of a
    second, and after an edit the tree is usually edited again before it is measured
    again; an edited tree measured twice unchanged keeps its report on the second run."""
    pooling = Pooling(min_hits_of(analyzer.rules), known, settings)
    base = cached_base(analyzer.cache, keys.base, settings)
    report = updated(base, analyzer, files, [k for _, k in keys.files], pooling) if base else None
    if report is not None:
        if analyzer.analysed == 0:  # measured as it is before: see `_measured`
            keep_report(analyzer.cache, keys.report, report)
        if progress is not None:
            progress(len(files), len(files))
        return report
    memo = FileMemo(settings, pooling.min_hits, known)
    measured, skipped = split(analyzer.analyze(files, progress, _parts_of(memo)))
    report = build_report(
        root=sources.root,
        analyses=measured,
        skipped=[*sources.skipped, *skipped],
        min_hits=pooling.min_hits,
        known_rules=known,
        settings=settings,
        rules_run=len(analyzer.rules),
        memo=memo,
    )
    keep_report(analyzer.cache, keys.report, report)
    keep_base(analyzer.cache, keys.base, keys.report, keys.files, measured)
    return report


def _parts_of(memo: FileMemo) -> Each:
    """Each analysis's own metrics made as it arrives, while the core works on."""

    def each(outcome: Outcome) -> None:
        if isinstance(outcome, FileAnalysis):
            memo.part(outcome)

    return each


def _keys(
    analyzer: Analyzer,
    files: Sequence[Version],
    sources: SourceSet,
    known: frozenset[str],
    settings: Settings,
) -> _Keys:
    """The keys of the tree's report and base: the engine profile, what pools the files
    and, for the report, each file's result key."""
    if analyzer.cache is None:
        return _Keys(None, None, [])
    rules = analyzer.rules
    context = (
        sources.root, settings, len(rules), sorted(min_hits_of(rules).items()), sorted(known),
        [(s.path, s.reason) for s in sources.skipped],
    )  # fmt: skip
    keyed = list(zip((v.path for v in files), analyzer.keys(files), strict=True))
    base = base_key(report_key(analyzer.profile, context, []))
    return _Keys(report_key(analyzer.profile, context, keyed), base, keyed)


def applicable(rules: Sequence[Rule], files: Sequence[SourceFile]) -> tuple[Rule, ...]:
    """The rules that run on at least one of ``files`` (by its grammar)."""
    grammars = {f.grammar for f in files}
    return tuple(r for r in rules if grammars.intersection(rule_targets(r.language)))


def floors_of(rules: Sequence[Rule], sources: SourceSet | None = None) -> Floors:
    """The rules each folder of ``sources`` rules out by its project's language level, the
    build files read under the measured root (`slopmark.code.measure.levels`); without
    ``sources`` every level is unknown."""
    if sources is None:
        return level_floors(rules, (), None)
    folders = {posixpath.dirname(f.path) for f in sources.files}
    return level_floors(rules, folders, disk_reader(sources.root))


def level_floors(rules: Sequence[Rule], folders: Iterable[str], read: Reader | None) -> Floors:
    """The `Floors` of ``folders`` for the rules with a ``min_level``, their build files
    read with ``read`` (None: no build file is known, every level is unknown)."""
    leveled = [(r.id, r.language, r.min_level) for r in rules if r.min_level is not None]
    if not leveled:
        return Floors()
    if read is None:
        return floors(leveled, (), lambda _: None)
    return floors(leveled, folders, read)


def min_hits_of(rules: Sequence[Rule]) -> dict[str, int]:
    return {rule.id: rule.min_hits for rule in rules if rule.min_hits > 1}
