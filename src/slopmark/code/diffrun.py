"""`slopmark code diff`: two sides measured through the cache, then compared (orchestration).

Each distinct content is analysed once, whichever side and path hold it; with a warm
cache only the changed files are read at all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from slopmark.code.analysis import Skipped
from slopmark.code.analyzer import Analyzer, Version
from slopmark.code.diff import DiffReport, Side, changed_paths, compare
from slopmark.code.engine import Outcome, Progress
from slopmark.code.measure import MeasureOptions, min_hits_of, split
from slopmark.code.report import build_report
from slopmark.code.rules import choose, load_catalog
from slopmark.code.sides import (
    DiffRepository,
    folder_side,
    index_side,
    revision_side,
    work_tree_side,
)
from slopmark.code.sides import Side as Files
from slopmark.errors import BadInput
from slopmark.gcpause import gc_paused


@dataclass(frozen=True)
class DiffRequest:
    """What to compare: ``base`` and ``head`` revisions (or folders) in ``location``.

    No ``head``: the work tree, or the index with ``staged``. No ``base``: ``HEAD``."""

    location: Path = Path(".")
    base: str | None = None
    head: str | None = None
    staged: bool = False


def resolve_sides(
    request: DiffRequest, options: MeasureOptions
) -> tuple[Files, Files, DiffRepository | None]:
    """The two sides' files (and the repository they come from, None for folders)."""
    limits = (options.excludes, options.max_file_bytes)
    if request.base and request.head and _folders(request):
        return (
            folder_side(Path(request.base), *limits),
            folder_side(Path(request.head), *limits),
            None,
        )
    if request.staged and request.head:
        raise BadInput(f"--staged compares BASE with the index; drop HEAD ({request.head!r})")
    repo = DiffRepository(request.location)
    base = revision_side(repo, request.base or "HEAD", *limits)
    if request.head:
        head = revision_side(repo, request.head, *limits)
    elif request.staged:
        head = index_side(repo, *limits)
    else:
        head = work_tree_side(repo, *limits)
    return base, head, repo


def _folders(request: DiffRequest) -> bool:
    return Path(request.base or "").is_dir() and Path(request.head or "").is_dir()


def diff_sides(
    request: DiffRequest,
    options: MeasureOptions = MeasureOptions(),
    progress: Progress | None = None,
) -> DiffReport:
    """Measure both sides of ``request`` and compare them."""
    base, head, repo = resolve_sides(request, options)
    catalog = load_catalog(options.rule_dirs)
    rules = choose(catalog, options.select, options.ignore)
    analyzer = Analyzer(rules, options.jobs, options.cache, blobs=repo)
    with gc_paused():
        outcomes = _analyse(analyzer, [*base.versions.values(), *head.versions.values()], progress)
        changed = changed_paths(_digests(base), _digests(head))
        sides = []
        for files in (base, head):
            analyses, skipped = split([outcomes[id(v)] for v in files.versions.values()])
            report = build_report(
                root=files.label,
                analyses=analyses,
                skipped=[*files.skipped, *skipped],
                min_hits=min_hits_of(rules),
                known_rules=frozenset(r.id for r in catalog),
                settings=options.settings,
                rules_run=len(rules),
            )
            texts = _texts(analyzer, files, changed)
            by_path = {a.path: a for a in analyses}
            sides.append(Side(files.label, report, by_path, _digests(files), texts))
        return compare(sides[0], sides[1])


def _digests(files: Files) -> dict[str, bytes | None]:
    return {path: v.digest for path, v in files.versions.items()}


def _analyse(
    analyzer: Analyzer, versions: list[Version], progress: Progress | None
) -> dict[int, Outcome]:
    """Each version's outcome (by ``id``), one analysis per distinct content."""
    analyzer.digests(versions)
    unique: dict[object, Version] = {}
    for version in versions:
        unique.setdefault(version.digest or id(version), version)
    firsts = list(unique.values())
    outcomes = dict(zip((id(v) for v in firsts), analyzer.analyze(firsts, progress), strict=True))
    found: dict[int, Outcome] = {}
    for version in versions:
        first = unique[version.digest or id(version)]
        found[id(version)] = _as(outcomes[id(first)], version.path)
    return found


def _as(outcome: Outcome, path: str) -> Outcome:
    """``outcome`` for the file at ``path`` (same content, maybe another name)."""
    if outcome.path == path:
        return outcome
    if isinstance(outcome, Skipped):
        return Skipped(path, outcome.reason)
    hits = tuple(replace(h, path=path) for h in outcome.hits)
    return replace(outcome, path=path, hits=hits)


def _texts(analyzer: Analyzer, files: Files, changed: set[str]) -> dict[str, bytes]:
    """The content of the side's changed files (for line diffs and finding texts)."""
    wanted = [v for path, v in files.versions.items() if path in changed]
    analyzer.read([v for v in wanted if v.data is None])
    return {v.path: v.data for v in wanted if v.data is not None}
