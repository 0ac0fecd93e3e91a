"""`slopmark code diff`: two sides measured through the cache, then compared (orchestration).

Both sides are listed and measured with the base side's settings, and rule hits count
with the base side's suppression comments: what the change adds to its own
configuration is reported (`slopmark.code.measure.suppressions`), never applied.

Only the changed files are analysed for themselves. The base side's totals come from its
tree summary (`slopmark.code.measure.summary`: cached by the exact set of file contents, else
made once from every file's cached analysis); the head side's are that summary with the
changed files swapped. Each distinct content is analysed once, whatever its side or path.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from slopmark.code.measure.cache.files import Analyzer, Version
from slopmark.code.measure.cache.store import seal, unseal
from slopmark.code.measure.compare import (
    Change,
    DiffReport,
    Side,
    Touched,
    changed_paths,
    compare,
    touched,
)
from slopmark.code.measure.fileanalysis import FileAnalysis, Skipped
from slopmark.code.measure.levels import Reader, disk_reader
from slopmark.code.measure.measure_tree import (
    MeasureOptions,
    catalog_of,
    level_floors,
    min_hits_of,
    split,
)
from slopmark.code.measure.native import Outcome, Progress
from slopmark.code.measure.report import FileMetrics, build_report
from slopmark.code.measure.rules import choose
from slopmark.code.measure.scopes import Choice, Coverage
from slopmark.code.measure.sides import (
    DiffRepository,
    folder_side,
    index_side,
    revision_side,
    work_tree_side,
)
from slopmark.code.measure.sides import Side as Files
from slopmark.code.measure.summary import Rules, TreeSummary, decode, encode, updated
from slopmark.code.measure.suppressions import comment_changes, exclude_changes, without_added
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


def _sides(
    request: DiffRequest, options: MeasureOptions
) -> tuple[Files, Files, DiffRepository | None]:
    """The two sides' files, both listed with the base side's settings (and the repository
    they come from, None for folders)."""
    limits = (options.excludes, options.max_file_bytes)
    if request.base and request.head and _folders(request):
        base = folder_side(Path(request.base), *limits)
        return base, folder_side(Path(request.head), *limits, base.config), None
    if request.staged and request.head:
        raise BadInput(f"--staged compares BASE with the index; drop HEAD ({request.head!r})")
    repo = DiffRepository(request.location)
    base_files = revision_side(repo, request.base or "HEAD", *limits)
    config = base_files.config
    if request.head:
        head_files = revision_side(repo, request.head, *limits, config)
    elif request.staged:
        head_files = index_side(repo, *limits, config)
    else:
        head_files = work_tree_side(repo, *limits, config)
    return base_files, head_files, repo


def _chosen(files: Files, choice: Choice) -> tuple[Files, Coverage]:
    """``files`` without those of languages and scopes not chosen (`--language`,
    `--scope`), and what the choice kept and left out."""
    paths, coverage = choice.select([*files.versions, *(s.path for s in files.skipped)])
    wanted = set(paths)
    kept = {p: v for p, v in files.versions.items() if p in wanted}
    skipped = tuple(s for s in files.skipped if s.path in wanted)
    return replace(files, versions=kept, skipped=skipped), coverage


def _folders(request: DiffRequest) -> bool:
    return Path(request.base or "").is_dir() and Path(request.head or "").is_dir()


def _listed(files: Files) -> list[str]:
    """Every source path of a side: measured, skipped or hidden by its settings."""
    return [*files.versions, *(s.path for s in files.skipped), *files.hidden]


def _skips_touched(base: Files, head: Files) -> set[str]:
    """The skipped paths a change touches: all but those both sides skip with the same
    known content."""
    paths = {s.path for s in (*base.skipped, *head.skipped)}
    return {
        p
        for p in paths
        if p not in base.skipped_ids or base.skipped_ids[p] != head.skipped_ids.get(p)
    }


@dataclass
class _Run:
    analyzer: Analyzer
    rules: Rules
    rules_run: int


@dataclass(frozen=True)
class _Changed:
    """The changed files: their paths, their analyses and texts per side (base, head;
    the head's without the suppression comments the change adds) and what it touched."""

    paths: set[str]
    analyses: tuple[dict[str, FileAnalysis], dict[str, FileAnalysis]]
    texts: tuple[dict[str, bytes], dict[str, bytes]]
    lines: Touched
    comments: tuple[list[Change], list[Change]]
    skipped: tuple[list[Skipped], list[Skipped]]


def diff_sides(
    request: DiffRequest,
    options: MeasureOptions = MeasureOptions(),
    progress: Progress | None = None,
) -> DiffReport:
    """Measure both sides of ``request`` (with the base side's settings) and compare them."""
    with gc_paused():  # listing both sides' files already makes a heap worth walking
        base, head, repo = _sides(request, options)
        globs = exclude_changes(base.config, head.config, (_listed(base), _listed(head)))
        choice = Choice(options.languages, options.scopes)
        (base, base_coverage), (head, head_coverage) = _chosen(base, choice), _chosen(head, choice)
        catalog = catalog_of(options)
        chosen = choose(catalog, options.select, options.ignore)
        folders = {posixpath.dirname(p) for files in (base, head) for p in files.versions}
        floors = level_floors(chosen, folders, _level_reader(request, repo))
        settings = replace(options.settings, floors=floors)
        rules = Rules(settings, min_hits_of(chosen), frozenset(r.id for r in catalog))
        analyzer = Analyzer(chosen, options.jobs, options.cache, repo, options.max_file_bytes)
        run = _Run(analyzer, rules, len(chosen))
        run.analyzer.digests([*base.versions.values(), *head.versions.values()])
        summary = _summary(run, base, progress)
        changed = _changed(run.analyzer, base, head)
        touched_skips = _skips_touched(base, head)
        before = _side(run, base, changed, 0, summary, touched_skips)
        head_summary, metrics = updated(
            summary,
            removed=[p for p in changed.paths if p in summary.files],
            added=changed.analyses[1],
            load=lambda paths: _load(run.analyzer, head, paths),
            rules=rules,
        )
        after = _side(run, head, changed, 1, head_summary, touched_skips, metrics)
        own = ([*globs[0], *changed.comments[0]], [*globs[1], *changed.comments[1]])
        report = compare(before, after, options.settings.cc_threshold, changed.lines, own)
        return replace(
            report, languages=choice.coverage_languages(), scopes=choice.coverage_scopes(),
            coverage=(base_coverage, head_coverage), rule_set=options.settings.rule_set,
        )  # fmt: skip


def _level_reader(request: DiffRequest, repo: DiffRepository | None) -> Reader | None:
    """Reads the base side's build files, whose language levels hold on both sides (as
    its settings do: a change that raises the level in its build file does not turn the
    rules on for itself): the base folder's, or the base revision's (None: no commit)."""
    if repo is None:
        return disk_reader(str(request.base))
    if not repo.has_commits():
        return None
    return repo.build_texts(repo.commit(request.base or "HEAD")).get


def _changed(analyzer: Analyzer, base: Files, head: Files) -> _Changed:
    """The changed files of both sides analysed and read, and the suppression comments
    the change adds taken out of the head's analyses (and reported)."""
    paths = changed_paths(_digests(base), _digests(head))
    versions = [files.versions[p] for files in (base, head) for p in paths if p in files.versions]
    outcomes = _analyse(analyzer, versions)
    analyzer.read(versions)
    texts = (_texts(base, paths), _texts(head, paths))
    lines = touched(_digests(base), _digests(head), texts)
    analyses = (_measured(base, paths, outcomes), _measured(head, paths, outcomes))
    comments = comment_changes(lines, analyses, texts)
    own = (analyses[0], without_added(analyses[1], comments[0]))
    skipped = (_skipped(base, paths, outcomes), _skipped(head, paths, outcomes))
    return _Changed(paths, own, texts, lines, comments, skipped)


def _skipped(files: Files, changed: set[str], outcomes: Mapping[int, Outcome]) -> list[Skipped]:
    """The changed files of a side its analysis skipped (binary, undecodable...)."""
    found = (outcomes[id(files.versions[p])] for p in sorted(changed & files.versions.keys()))
    return [o for o in found if isinstance(o, Skipped)]


def _texts(files: Files, changed: set[str]) -> dict[str, bytes]:
    return {p: v.data for p in changed if (v := files.versions.get(p)) and v.data is not None}


def _digests(files: Files) -> dict[str, bytes | None]:
    return {path: v.digest for path, v in files.versions.items()}


def _measured(
    files: Files, changed: set[str], outcomes: Mapping[int, Outcome]
) -> dict[str, FileAnalysis]:
    found = {}
    for path in sorted(changed & files.versions.keys()):
        outcome = outcomes[id(files.versions[path])]
        if isinstance(outcome, FileAnalysis):
            found[path] = outcome
    return found


def _side(
    run: _Run,
    files: Files,
    changed: _Changed,
    index: int,
    summary: TreeSummary,
    skips: set[str],
    metrics: Mapping[str, FileMetrics] | None = None,
) -> Side:
    """Side ``index`` (0 base, 1 head) as `compare` sees it (``metrics``: the changed
    files', when known; ``skips``: the skipped paths the change touches)."""
    analyses = changed.analyses[index]
    if metrics is None:
        metrics = {p: run.rules.metrics(a, summary.counts) for p, a in analyses.items()}
    skipped = [*changed.skipped[index]]
    skipped.extend(s for s in files.skipped if s.path in changed.paths or s.path in skips)
    return Side(
        label=files.label,
        totals=summary.totals(run.rules.settings.cc_threshold),
        digests=_digests(files),
        metrics={p: m for p, m in metrics.items() if p in analyses},
        analyses=analyses,
        counts=summary.counts,
        texts=changed.texts[index],
        skipped=tuple(skipped),
    )


def _summary(run: _Run, files: Files, progress: Progress | None) -> TreeSummary:
    """The side's tree summary: from the cache when this exact tree was seen, else made
    from its files' analyses (and kept)."""
    cache, key = run.analyzer.cache, _summary_key(run, files)
    if cache is not None and key is not None:
        stored = unseal(cache.tree(key))
        found = decode(stored) if stored is not None else None
        if found is not None:
            return found
    versions = list(files.versions.values())
    outcomes = _analyse(run.analyzer, versions, progress)
    analyses, skipped = split([outcomes[id(v)] for v in versions])
    report = build_report(files.label, analyses, skipped, run.rules.min_hits, run.rules.known,
                          run.rules.settings, run.rules_run)  # fmt: skip
    summary = TreeSummary.of(report, {a.path: a for a in analyses})
    if cache is not None and key is not None:
        cache.put_tree(key, seal(encode(summary)))
    return summary


def _summary_key(run: _Run, files: Files) -> bytes | None:
    """What decides a tree summary: the engine profile, the settings and every file's
    path and content (None when a content is unknown)."""
    if run.analyzer.cache is None:
        return None
    digest = hashlib.sha256(run.analyzer.profile)
    rules = run.rules
    digest.update(
        repr((rules.settings, sorted(rules.min_hits.items()), sorted(rules.known))).encode()
    )
    for path in sorted(files.versions):
        content = files.versions[path].digest
        if content is None:
            return None
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0" + content)
    return digest.digest()


def _load(analyzer: Analyzer, files: Files, paths: Sequence[str]) -> dict[str, FileAnalysis]:
    outcomes = _analyse(analyzer, [files.versions[p] for p in paths])
    return {p: o for p in paths if isinstance(o := outcomes[id(files.versions[p])], FileAnalysis)}


def _analyse(
    analyzer: Analyzer, versions: list[Version], progress: Progress | None = None
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
    hits = tuple(h._replace(path=path) for h in outcome.hits)
    return replace(outcome, path=path, hits=hits)
