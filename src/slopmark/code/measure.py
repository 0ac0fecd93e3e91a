"""`slopmark code measure`: a tree on disk → `TreeReport` (orchestration and I/O)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slopmark.code.analysis import FileAnalysis, Skipped, analyze_source
from slopmark.code.astgrep import Scan
from slopmark.code.metrics import Settings
from slopmark.code.report import TreeReport, build_report
from slopmark.code.rules import Rule, choose, load_catalog
from slopmark.code.tree import MAX_FILE_BYTES, SourceFile, discover
from slopmark.executor import balanced_chunks, default_jobs, map_chunks
from slopmark.gcpause import gc_paused

#: Below this many source bytes a tree is analysed in this process.
POOL_THRESHOLD = 2 * 1024 * 1024

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MeasureOptions:
    excludes: Sequence[str] = ()
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    rule_dirs: Sequence[Path] = ()
    settings: Settings = field(default_factory=Settings)
    jobs: int = 0
    max_file_bytes: int = MAX_FILE_BYTES


def analyze_files(files: list[SourceFile]) -> list[FileAnalysis | Skipped]:
    """Read and analyse files (runs in worker processes)."""
    with gc_paused():
        return [_analyze_file(source) for source in files]


def _analyze_file(source: SourceFile) -> FileAnalysis | Skipped:
    try:
        with open(source.location, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return Skipped(source.path, f"unreadable: {error.strerror or error}")
    return analyze_source(source.path, data)


def analyze_all(
    files: Sequence[SourceFile], jobs: int, progress: Progress | None = None
) -> tuple[list[FileAnalysis], list[Skipped]]:
    """Analyse ``files`` on ``jobs`` processes; split results into measured and skipped."""
    sizes = [_size(f.location) for f in files]
    if sum(sizes) < POOL_THRESHOLD:
        jobs = 1
    chunks = balanced_chunks(list(files), sizes, jobs * 6 if jobs > 1 else 1)
    measured: list[FileAnalysis] = []
    skipped: list[Skipped] = []
    done = 0
    for results in map_chunks(analyze_files, chunks, jobs):
        for result in results:
            if isinstance(result, FileAnalysis):
                measured.append(result)
            else:
                skipped.append(result)
        done += len(results)
        if progress is not None:
            progress(done, len(files))
    return measured, skipped


def _size(location: str) -> int:
    try:
        return os.path.getsize(location)
    except OSError:
        return 0


def measure_tree(
    path: Path, options: MeasureOptions = MeasureOptions(), progress: Progress | None = None
) -> TreeReport:
    """Measure every Python file under ``path`` with the given options."""
    sources = discover(path, options.excludes, options.max_file_bytes)
    catalog = load_catalog(options.rule_dirs)
    rules = choose(catalog, options.select, options.ignore)
    display = {f.location: f.path for f in sources.files}
    scan = Scan(rules, list(display), display.__getitem__)
    with gc_paused():
        measured, skipped = analyze_all(sources.files, options.jobs or default_jobs(), progress)
        return build_report(
            root=sources.root,
            analyses=measured,
            skipped=[*sources.skipped, *skipped],
            hits=scan.result(),
            min_hits=min_hits_of(rules),
            known_rules=frozenset(rule.id for rule in catalog),
            settings=options.settings,
            rules_run=len(rules),
        )


def min_hits_of(rules: Sequence[Rule]) -> dict[str, int]:
    return {rule.id: rule.min_hits for rule in rules if rule.min_hits > 1}
