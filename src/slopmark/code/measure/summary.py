"""A measured tree reduced to what its totals need, updated file by file (pure).

`code diff` needs both sides' totals, but a change touches a few files: the head side is
the base side's summary with the changed files taken out and put back in. Every total
is a sum over files except clone membership, which depends on how often each normal
form occurs in the whole tree; the summary keeps each file's digests, so the files
whose clone lines a change flips (a block copied next to a form that was unique) are
found and measured again. Totals come out exactly as `TreeReport` computes them: the
same per-file numbers, and the callables' masses summed in the same (path) order.
"""

from __future__ import annotations

import marshal
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from slopmark.code.measure.fileanalysis import FileAnalysis
from slopmark.code.measure.metrics import Settings, erosion, ratio
from slopmark.code.measure.report import FileMetrics, TreeReport, file_metrics

Totals = dict[str, float | int | None]
#: Loads the analyses of unchanged files by path (when a change flips their clones).
Loader = Callable[[Sequence[str]], Mapping[str, FileAnalysis]]


@dataclass(frozen=True, slots=True)
class FileSummary:
    """One file's part of its tree's totals, and the forms whose counts it adds to."""

    sloc: int
    rule_lines: int
    clone_lines: int
    flagged_lines: int
    hits: int
    #: (CC, mass) of each callable, in order
    pairs: tuple[tuple[int, float], ...]
    digests: tuple[bytes, ...]

    @classmethod
    def of(cls, metrics: FileMetrics, analysis: FileAnalysis) -> FileSummary:
        return cls(
            metrics.sloc,
            metrics.rule_lines,
            metrics.clone_lines,
            metrics.flagged_lines,
            len(metrics.hits),
            tuple((c.cc, c.mass) for c in metrics.callables),
            tuple(fp.digest for fp in analysis.fingerprints),
        )


@dataclass(frozen=True)
class TreeSummary:
    files: dict[str, FileSummary]
    #: occurrences of each normal-form digest in the tree
    counts: Counter[bytes]
    #: forms that occur more than once: the tree's clone groups
    groups: int = -1

    def __post_init__(self) -> None:
        if self.groups < 0:
            object.__setattr__(self, "groups", sum(1 for n in self.counts.values() if n > 1))

    @classmethod
    def of(cls, report: TreeReport, analyses: Mapping[str, FileAnalysis]) -> TreeSummary:
        files = {m.path: FileSummary.of(m, analyses[m.path]) for m in report.files}
        return cls(files, _counts(files.values()))

    def totals(self, cc_threshold: int) -> Totals:
        """The numbers `code diff` compares, equal to those of the tree's `TreeReport`."""
        files = [self.files[path] for path in sorted(self.files)]
        pairs = list(chain.from_iterable(f.pairs for f in files))
        sloc = sum(f.sloc for f in files)
        flagged = sum(f.flagged_lines for f in files)
        return {
            "files": len(files),
            "sloc": sloc,
            "callables": len(pairs),
            "complex_callables": sum(1 for cc, _ in pairs if cc > cc_threshold),
            "erosion": erosion(pairs, cc_threshold),
            "verbosity": ratio(flagged, sloc),
            "rule_lines": sum(f.rule_lines for f in files),
            "clone_lines": sum(f.clone_lines for f in files),
            "flagged_lines": flagged,
            "rule_hits": sum(f.hits for f in files),
            "clone_groups": self.groups,
        }


def _counts(files: Iterable[FileSummary]) -> Counter[bytes]:
    return Counter(d for f in files for d in f.digests)


@dataclass(frozen=True)
class Rules:
    """What turns an analysis into file metrics besides its clones."""

    settings: Settings
    min_hits: Mapping[str, int]
    known: frozenset[str]

    def metrics(self, analysis: FileAnalysis, counts: Mapping[bytes, int]) -> FileMetrics:
        spans = [(fp.start, fp.end) for fp in analysis.fingerprints if counts.get(fp.digest, 0) > 1]
        return file_metrics(analysis, spans, self.min_hits, self.known, self.settings)


def updated(
    base: TreeSummary,
    removed: Iterable[str],
    added: Mapping[str, FileAnalysis],
    load: Loader,
    rules: Rules,
) -> tuple[TreeSummary, dict[str, FileMetrics]]:
    """``base`` without the ``removed`` files, with ``added`` (new or changed) files: the
    new summary, and the metrics of the added files and of the files whose clone lines
    changed with it."""
    files = dict(base.files)
    counts = Counter(base.counts)
    touched: set[bytes] = set()
    for path in [*removed, *added]:
        old = files.pop(path, None)
        if old is not None:
            counts.subtract(old.digests)
            touched.update(old.digests)
    for analysis in added.values():
        digests = [fp.digest for fp in analysis.fingerprints]
        counts.update(digests)
        touched.update(digests)
    groups = base.groups
    flipped = set()
    for digest in touched:
        was, now = base.counts.get(digest, 0) > 1, counts[digest] > 1
        if counts[digest] <= 0:
            del counts[digest]  # a form no longer present
        if was != now:
            flipped.add(digest)
            groups += 1 if now else -1
    affected = [p for p, f in files.items() if flipped and not flipped.isdisjoint(f.digests)]
    changed = {**load(affected), **added}
    metrics = {}
    for path, analysis in changed.items():
        metrics[path] = rules.metrics(analysis, counts)
        files[path] = FileSummary.of(metrics[path], analysis)
    return TreeSummary(files, counts, groups), metrics


def encode(summary: TreeSummary) -> bytes:
    rows = [
        (path, f.sloc, f.rule_lines, f.clone_lines, f.flagged_lines, f.hits, f.pairs, f.digests)
        for path, f in summary.files.items()
    ]
    return marshal.dumps(rows)


def decode(payload: bytes) -> TreeSummary | None:
    """A stored summary (None: not one)."""
    try:
        rows = marshal.loads(payload)
        files = {row[0]: FileSummary(*row[1:]) for row in rows}
    except (ValueError, EOFError, TypeError, IndexError):
        return None
    return TreeSummary(files, _counts(files.values()))
