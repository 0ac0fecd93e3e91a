"""The quality numbers of a checkpoint's workspace: `code measure` plus the churn."""

from __future__ import annotations

import difflib
from pathlib import Path

from slopmark.code.bench.results import Quality
from slopmark.code.cache import ResultCache, default_location
from slopmark.code.measure import MeasureOptions, measure_tree
from slopmark.code.tree import EXCLUDED_DIRS

#: Files bigger than this are not diffed line by line (data, not code).
MAX_DIFF_BYTES = 1024 * 1024


def text_files(root: Path | None) -> dict[str, list[str]]:
    """Relative path → lines of every text file under ``root`` (excluded folders skipped)."""
    if root is None or not root.is_dir():
        return {}
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or path.is_symlink() or set(relative.parts) & EXCLUDED_DIRS:
            continue
        if path.stat().st_size > MAX_DIFF_BYTES:
            continue
        data = path.read_bytes()
        if b"\0" not in data:
            found[relative.as_posix()] = data.decode("utf-8", errors="replace").splitlines()
    return found


def churn(before: Path | None, after: Path) -> tuple[int, int]:
    """(lines added, lines removed) from ``before`` to ``after`` over their text files."""
    old, new = text_files(before), text_files(after)
    added = removed = 0
    for name in sorted(old.keys() | new.keys()):
        matcher = difflib.SequenceMatcher(a=old.get(name, []), b=new.get(name, []), autojunk=False)
        for tag, a0, a1, b0, b1 in matcher.get_opcodes():
            if tag != "equal":
                removed += a1 - a0
                added += b1 - b0
    return added, removed


def measure_workspace(workspace: Path, previous: Path | None) -> Quality:
    """Erosion, verbosity, size and complexity of ``workspace``; its churn since ``previous``."""
    cache = ResultCache(default_location())  # shared with code measure/diff/history
    try:
        report = measure_tree(workspace, MeasureOptions(jobs=1, cache=cache))
    finally:
        cache.close()
    callables = report.callables
    added, removed = churn(previous, workspace)
    return Quality(
        erosion=report.erosion,
        verbosity=report.verbosity,
        sloc=report.sloc,
        files=len(report.files),
        callables=len(callables),
        complex_callables=len(report.complex_callables()),
        max_cc=max((c.cc for c in callables), default=None),
        lines_added=added,
        lines_removed=removed,
    )


def has_files(workspace: Path) -> bool:
    return workspace.is_dir() and any(path.is_file() for path in workspace.rglob("*"))
