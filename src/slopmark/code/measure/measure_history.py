"""`slopmark code history`: erosion and verbosity across a repository's commits.

Which commits: the source-modifying commits of the revision's first-parent line
(every reachable one with ``Selection.all_branches``; see
`slopmark.code.measure.mainline`), and always the revision's own commit as the
last point, so first→last reads "sampled start → today". Opened at a subfolder
of a work tree, a history takes the commits touching that folder and measures
only its files, with paths relative to it (as ``code measure`` of that folder).

Each commit's source blobs are read from git and handed to the native core as
bytes; a blob already measured in this run is never parsed or scanned again, so a
commit costs only the files it changed plus the (cheap) pooling of clones and hits.
"""

from __future__ import annotations

import posixpath
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from slopmark.code.measure.cache.files import Analyzer, Version
from slopmark.code.measure.discovery import excluded
from slopmark.code.measure.ecosystems import tracked_reason
from slopmark.code.measure.fileanalysis import FileAnalysis, Skipped
from slopmark.code.measure.git import Commit, Entry, Repository
from slopmark.code.measure.languages import LANGUAGES, grammar_of, rule_targets
from slopmark.code.measure.levels import Floors
from slopmark.code.measure.mainline import MAINLINE, lineage
from slopmark.code.measure.measure_tree import (
    MeasureOptions,
    Progress,
    catalog_of,
    level_floors,
    min_hits_of,
    split,
)
from slopmark.code.measure.metrics import Settings, rose, slope
from slopmark.code.measure.report import FileMemo, TreeReport, build_report
from slopmark.code.measure.rules import Rule, choose
from slopmark.code.measure.scopes import SCOPES, Choice, Coverage, scope_of
from slopmark.errors import BadInput

#: Blobs read from git and handed to the core at a time (bounds the bytes held).
BLOB_BATCH = 512


@dataclass(frozen=True, slots=True)
class CommitMetrics:
    commit: Commit
    files: int
    sloc: int
    callables: int
    #: callables over the CC threshold: the ones erosion counts
    complex_callables: int
    erosion: float | None
    verbosity: float | None
    #: the files of the commit's tree left out with a reason (`ecosystems.tracked_reason`)
    skipped: tuple[Skipped, ...] = ()
    #: what the commit held per scope, and what `--language`/`--scope` left out
    coverage: Coverage = field(default_factory=Coverage)
    #: where the commit lies: mainline, branch or second-root (`mainline`)
    lineage: str = MAINLINE
    #: each scope's files, SLOC, erosion and verbosity, measured apart (`_scope_numbers`)
    by_scope: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class HistoryReport:
    repo: str
    rev: str
    candidates: int
    commits: tuple[CommitMetrics, ...]
    blobs_measured: int
    erosion_slope: float | None
    verbosity_slope: float | None
    erosion_rose: bool | None
    verbosity_rose: bool | None
    #: the languages and scopes measured (`--language`, `--scope`)
    languages: tuple[str, ...] = LANGUAGES
    scopes: tuple[str, ...] = SCOPES
    #: the parentless commits behind the revision, the first-parent line's root first
    roots: tuple[str, ...] = ()
    all_branches: bool = False
    #: the rule set every commit ran (`slopmark.code.measure.rules.RULE_SETS`)
    rule_set: str = "default"

    @property
    def second_roots(self) -> tuple[str, ...]:
        """Roots besides the first-parent line's: unrelated histories merged in."""
        return self.roots[1:]


@dataclass(frozen=True)
class Selection:
    """Which commits: the ``last`` N, a ``sample`` of N drawn with ``seed``, or all (neither);
    of the first-parent line, or of every branch (``all_branches``)."""

    last: int | None = None
    sample: int | None = 30
    seed: int = 0
    all_branches: bool = False

    def pick(self, commits: list[Commit]) -> list[Commit]:
        """N of ``commits`` (oldest first, the revision's own commit last): that last one
        always, and N - 1 of the others (the latest ones, or a seeded sample)."""
        if not commits or self.last == 0:
            return []
        *others, tip = commits
        if self.last is not None:
            return [*others[len(others) - min(self.last - 1, len(others)) :], tip]
        if self.sample is None:
            return commits
        count = max(min(self.sample - 1, len(others)), 0)
        chosen = set(random.Random(self.seed).sample(range(len(others)), count))
        return [*(c for i, c in enumerate(others) if i in chosen), tip]


@dataclass(frozen=True)
class _Tree:
    """A commit's files to measure, those left out with a reason, and its `Coverage`."""

    entries: list[Entry]
    skipped: list[Skipped]
    coverage: Coverage


def _tree(files: list[Entry], globs: Sequence[str], choice: Choice) -> _Tree:
    """The files of a commit's tree measured under ``choice``: git's tracked source files
    but those ``globs`` leave out (unreported, as the user asked) and those an ecosystem's
    rules leave out (`ecosystems.tracked_reason`, reported)."""
    kept: dict[str, Entry] = {}
    skipped: list[Skipped] = []
    for entry in files:
        if excluded(entry.path, globs):
            continue
        reason = tracked_reason(entry.path)
        if reason is None:
            kept[entry.path] = entry
        else:
            skipped.append(Skipped(entry.path, reason))
    paths, coverage = choice.select(kept)
    return _Tree([kept[p] for p in paths], skipped, coverage)


@dataclass(frozen=True)
class _Versions:
    """Every file version of the selected commits, measured once, keyed by blob id."""

    analyses: dict[str, FileAnalysis]
    skipped: dict[str, str]
    #: each (blob, path)'s analysis with its hits relabelled with the path, made once
    labelled: dict[tuple[str, str], FileAnalysis] = field(default_factory=dict)

    def files_of(self, entries: list[Entry]) -> tuple[list[FileAnalysis], list[Skipped]]:
        """One commit's analyses, relabelled with the commit's paths."""
        analyses: list[FileAnalysis] = []
        skipped: list[Skipped] = []
        for entry in entries:
            key = version_key(entry)
            analysis = self.analyses.get(key)
            if analysis is None:
                skipped.append(Skipped(entry.path, self.skipped.get(key, "not measured")))
                continue
            labelled = self.labelled.get((entry.blob, entry.path))
            if labelled is None:
                hits = tuple(h._replace(path=entry.path) for h in analysis.hits)
                labelled = replace(analysis, path=entry.path, hits=hits)
                self.labelled[entry.blob, entry.path] = labelled
            analyses.append(labelled)
        return analyses, skipped


def version_key(entry: Entry) -> str:
    """A file version as measured: its blob read in the language of its suffix
    (``<blob id><suffix>``, so the engine picks the grammar from the key)."""
    return entry.blob + PurePosixPath(entry.path).suffix.lower()


def _measure_versions(
    repo: Repository,
    keys: list[str],
    rules: Sequence[Rule],
    options: MeasureOptions,
    progress: Progress | None,
) -> _Versions:
    blob_of = {key: key.partition(".")[0] for key in keys}
    sizes = repo.blob_sizes(set(blob_of.values()))
    limit = options.max_file_bytes
    too_big = {  # a blob git lacks (no size) is reported by the analyzer as unreadable
        k: f"{sizes[b] / 2**20:.1f} MiB is over the size limit"
        for k, b in blob_of.items()
        if sizes.get(b, 0) > limit
    }
    analyzer = Analyzer(rules, options.jobs, options.cache, repo, limit)
    wanted = [k for k in keys if k not in too_big]
    outcomes = []
    for start in range(0, len(wanted), BLOB_BATCH):
        part = wanted[start : start + BLOB_BATCH]
        outcomes.extend(analyzer.analyze([Version(key, oid=blob_of[key]) for key in part]))
        if progress is not None:
            progress(len(outcomes), len(wanted))
    measured, skipped = split(outcomes)
    reasons = {**too_big, **{s.path: s.reason for s in skipped}}
    return _Versions({a.path: a for a in measured}, reasons)


def measure_history(
    location: Path,
    rev: str = "HEAD",
    selection: Selection = Selection(),
    options: MeasureOptions = MeasureOptions(),
    progress: Progress | None = None,
) -> HistoryReport:
    """Measure the selected source-modifying commits of ``rev`` in ``location``."""
    repo = Repository(location)
    candidates = _candidates(repo, rev, selection.all_branches)
    commits = selection.pick(candidates)
    if not commits:
        raise BadInput(
            f"{location}: no commit of {rev!r} changes a source file; nothing to measure"
        )
    lines = lineage(repo, rev, [c.sha for c in commits], selection.all_branches)
    choice = Choice(options.languages, options.scopes)
    trees = _kept_trees(repo, commits, options.excludes, choice)
    catalog = catalog_of(options)
    rules = choose(catalog, options.select, options.ignore)
    keys = sorted({version_key(e) for tree in trees.values() for e in tree.entries})
    versions = _measure_versions(repo, keys, rules, options, progress)
    known = frozenset(r.id for r in catalog)
    memos: dict[Floors, FileMemo] = {}
    points = []
    for commit in commits:
        settings = _commit_settings(repo, commit.sha, trees[commit.sha], rules, options.settings)
        memo = memos.setdefault(settings.floors, FileMemo(settings, min_hits_of(rules), known))
        chosen = replace(options, settings=settings)
        points.append(
            _commit_metrics(commit, trees[commit.sha], versions, (rules, known), chosen, memo)
        )
    points = [replace(p, lineage=lines.of[p.commit.sha]) for p in points]
    erosions = [p.erosion for p in points]
    verbosities = [p.verbosity for p in points]
    return HistoryReport(
        repo=str(location),
        rev=rev,
        candidates=len(candidates),
        commits=tuple(points),
        blobs_measured=len(versions.analyses),
        erosion_slope=slope(erosions),
        verbosity_slope=slope(verbosities),
        erosion_rose=rose(erosions),
        verbosity_rose=rose(verbosities),
        languages=choice.coverage_languages(),
        scopes=choice.coverage_scopes(),
        roots=lines.roots,
        all_branches=selection.all_branches,
        rule_set=options.settings.rule_set,
    )


def _commit_settings(
    repo: Repository, sha: str, tree: _Tree, rules: Sequence[Rule], settings: Settings
) -> Settings:
    """The settings of one commit: the language levels its own build files set, those
    under the folder the repository was opened at (`slopmark.code.measure.levels`)."""
    leveled = {g for r in rules if r.min_level is not None for g in rule_targets(r.language)}
    if not any(grammar_of(entry.path) in leveled for entry in tree.entries):
        return settings  # no file a leveled rule runs on: no git call
    prefix = repo.prefix
    texts = {path[len(prefix) :]: text for path, text in repo.build_texts(sha).items()
             if path.startswith(prefix)}  # fmt: skip
    folders = {posixpath.dirname(entry.path) for entry in tree.entries}
    return replace(settings, floors=level_floors(rules, folders, texts.get))


def _candidates(repo: Repository, rev: str, all_branches: bool) -> list[Commit]:
    """The source-modifying commits of ``rev``, oldest first, ending with the revision's
    own commit (added when it changed no source file); none when no commit changed one."""
    found = repo.source_commits(rev, first_parent=not all_branches)
    if not found:
        return []
    tip = repo.tip(rev)
    return [*(c for c in found if c.sha != tip.sha), tip]


def _kept_trees(
    repo: Repository, commits: list[Commit], excludes: Sequence[str], choice: Choice
) -> dict[str, _Tree]:
    """Each commit's measured files under the folder the repository was opened at
    (`_under`, `_tree`)."""
    listed = repo.trees([c.sha for c in commits])
    prefix = repo.prefix
    return {sha: _tree(_under(files, prefix), excludes, choice) for sha, files in listed.items()}


def _under(entries: list[Entry], prefix: str) -> list[Entry]:
    """The entries under the folder ``prefix`` (``src/flask/``), with paths relative to it."""
    if not prefix:
        return entries
    return [Entry(e.path[len(prefix) :], e.blob) for e in entries if e.path.startswith(prefix)]


def _commit_metrics(
    commit: Commit,
    tree: _Tree,
    versions: _Versions,
    catalog: tuple[Sequence[Rule], frozenset[str]],
    options: MeasureOptions,
    memo: FileMemo,
) -> CommitMetrics:
    """One commit's numbers: its files' analyses pooled into a tree report (``catalog``:
    the rules run and every known rule id)."""
    rules, known = catalog
    analyses, skipped = versions.files_of(tree.entries)
    pool = partial(build_report, commit.sha, skipped=(), min_hits=min_hits_of(rules),
                   known_rules=known, settings=options.settings, memo=memo)  # fmt: skip
    report = pool(analyses)
    return CommitMetrics(
        commit, len(analyses), report.sloc, len(report.callables),
        len(report.complex_callables()), report.erosion, report.verbosity,
        (*tree.skipped, *skipped), tree.coverage, by_scope=_scope_numbers(analyses, report, pool),
    )  # fmt: skip


def _scope_numbers(
    analyses: Sequence[FileAnalysis], whole: TreeReport,
    pool: Callable[[Sequence[FileAnalysis]], TreeReport],
) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Each scope's files, SLOC, erosion and verbosity, its files pooled alone (clones
    within the scope only), as ``code measure --scope S`` of the commit's tree gives them;
    one scope alone is the whole tree."""
    by_scope: dict[str, list[FileAnalysis]] = {}
    for analysis in analyses:
        by_scope.setdefault(scope_of(analysis.path), []).append(analysis)
    reports = {
        scope: whole if len(by_scope) == 1 else pool(by_scope[scope])
        for scope in SCOPES if scope in by_scope
    }  # fmt: skip
    return {
        scope: {"files": len(by_scope[scope]), "sloc": report.sloc, "erosion": report.erosion,
                "verbosity": report.verbosity}
        for scope, report in reports.items()
    }  # fmt: skip
