"""`slopmark code measure`: a tree on disk → `TreeReport` (orchestration and I/O)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slopmark.code.analysis import FileAnalysis, Skipped
from slopmark.code.analyzer import Analyzer, Version
from slopmark.code.cache import ResultCache
from slopmark.code.engine import Outcome, Progress
from slopmark.code.languages import LANGUAGES, rule_targets
from slopmark.code.metrics import Settings
from slopmark.code.report import TreeReport, build_report
from slopmark.code.reportcache import cached_report, keep_report, report_key
from slopmark.code.rulecache import cached_catalog
from slopmark.code.rules import Rule, choose
from slopmark.code.tree import MAX_FILE_BYTES, SourceFile, SourceSet, discover
from slopmark.gcpause import gc_paused

__all__ = [
    "MeasureOptions",
    "Progress",
    "applicable",
    "catalog_of",
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
    #: the content cache of per-file results (None: every file is analysed)
    cache: ResultCache | None = None
    #: the rule catalog of ``rule_dirs`` when the caller loaded it already (its SARIF
    #: output describes the same rules); None: loaded here, through the cache
    catalog: Sequence[Rule] | None = None


def catalog_of(options: MeasureOptions) -> Sequence[Rule]:
    """The rule catalog of ``options``: the one given, else loaded through the cache."""
    if options.catalog is not None:
        return options.catalog
    return cached_catalog(options.cache, options.rule_dirs)


def split(outcomes: Sequence[Outcome]) -> tuple[list[FileAnalysis], list[Skipped]]:
    """Measured files and skipped ones, apart."""
    measured = [o for o in outcomes if isinstance(o, FileAnalysis)]
    skipped = [o for o in outcomes if isinstance(o, Skipped)]
    return measured, skipped


def measure_tree(
    path: Path, options: MeasureOptions = MeasureOptions(), progress: Progress | None = None
) -> TreeReport:
    """Measure every source file of the chosen languages under ``path``."""
    sources = discover(path, options.excludes, options.max_file_bytes, options.languages)
    catalog = catalog_of(options)
    rules = applicable(choose(catalog, options.select, options.ignore), sources.files)
    analyzer = Analyzer(rules, options.jobs, options.cache)
    known = frozenset(rule.id for rule in catalog)
    with gc_paused():
        files = [Version(f.path, location=f.location) for f in sources.files]
        key = _report_key(analyzer, files, sources, known, options.settings)
        report = cached_report(analyzer.cache, key, options.settings)
        if report is None:
            report = _pooled(analyzer, files, sources, known, options.settings, progress)
            if analyzer.analysed in (0, len(files)):  # not after an edit: see `_report_key`
                keep_report(analyzer.cache, key, report)
        elif progress is not None:
            progress(len(files), len(files))
        return report


def _pooled(
    analyzer: Analyzer,
    files: Sequence[Version],
    sources: SourceSet,
    known: frozenset[str],
    settings: Settings,
    progress: Progress | None,
) -> TreeReport:
    """The files analysed (or read from the cache) and pooled into the tree's report."""
    measured, skipped = split(analyzer.analyze(files, progress))
    return build_report(
        root=sources.root,
        analyses=measured,
        skipped=[*sources.skipped, *skipped],
        min_hits=min_hits_of(analyzer.rules),
        known_rules=known,
        settings=settings,
        rules_run=len(analyzer.rules),
    )


def _report_key(
    analyzer: Analyzer,
    files: Sequence[Version],
    sources: SourceSet,
    known: frozenset[str],
    settings: Settings,
) -> bytes | None:
    """The key of the tree's whole report in the cache (None: no cache, or a file whose
    content could not be read).

    A report is kept after a run that analysed every file (cold) or none (warm): storing
    a big tree's report costs a tenth of a second, and after an edit the tree is usually
    edited again before it is measured again; an edited tree measured twice unchanged
    keeps its report on the second run."""
    if analyzer.cache is None:
        return None
    rules = analyzer.rules
    context = (
        sources.root, settings, len(rules), sorted(min_hits_of(rules).items()), sorted(known),
        [(s.path, s.reason) for s in sources.skipped],
    )  # fmt: skip
    keys = zip((v.path for v in files), analyzer.keys(files), strict=True)
    return report_key(analyzer.profile, context, list(keys))


def applicable(rules: Sequence[Rule], files: Sequence[SourceFile]) -> tuple[Rule, ...]:
    """The rules that run on at least one of ``files`` (by its grammar)."""
    grammars = {f.grammar for f in files}
    return tuple(r for r in rules if grammars.intersection(rule_targets(r.language)))


def min_hits_of(rules: Sequence[Rule]) -> dict[str, int]:
    return {rule.id: rule.min_hits for rule in rules if rule.min_hits > 1}
