"""The quality numbers of a checkpoint's workspace: `code measure` plus the churn.

Churn is counted twice: over every text file (``lines_added``/``lines_removed``)
and over the code files only (a measured language), with the previous
workspace's code lines, for SCB's relative churn (`results.Quality.relative_churn`).

The workspace is measured in full, whatever it says of itself: every folder
(``build/``, ``env/`` and the other folders `code measure` leaves out by
default are code the submission can import), no ``[tool.slopmark]``
configuration of its own, and ``# slopmark: ignore`` comments suppress
nothing. Only what the test session does not copy either (virtual
environments, ``node_modules``, ``.git``, caches: `testlayout.NOT_COPIED`) and
files that are not regular (symlinks, FIFOs) or over the size limit are left
out, each with its reason.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from slopmark.code.bench.results import Quality
from slopmark.code.measure.cache.store import ResultCache, default_location
from slopmark.code.measure.discovery import EXCLUDED_DIRS, MAX_FILE_BYTES, SourceFile, SourceSet
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.languages import grammar_of, language_of_path
from slopmark.code.measure.measure_tree import MeasureOptions, catalog_of, measure_sources
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.report import TreeReport
from slopmark.code.measure.rules import Rule

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


def _diff(old: dict[str, list[str]], new: dict[str, list[str]]) -> tuple[int, int]:
    """(lines added, lines removed) from the files ``old`` to the files ``new``."""
    added = removed = 0
    for name in sorted(old.keys() | new.keys()):
        matcher = difflib.SequenceMatcher(a=old.get(name, []), b=new.get(name, []), autojunk=False)
        for tag, a0, a1, b0, b1 in matcher.get_opcodes():
            if tag != "equal":
                removed += a1 - a0
                added += b1 - b0
    return added, removed


def code_files(files: dict[str, list[str]]) -> dict[str, list[str]]:
    """The files of a measured language (`language_of_path`) among ``files``."""
    return {name: lines for name, lines in files.items() if language_of_path(name) is not None}


def churn(before: Path | None, after: Path) -> tuple[int, int]:
    """(lines added, lines removed) from ``before`` to ``after`` over their text files."""
    return _diff(text_files(before), text_files(after))


@dataclass(frozen=True)
class CodeChurn:
    """The churn of the code files (SCB ``delta.churn_ratio``'s terms)."""

    added: int
    removed: int
    #: Lines of the previous workspace's code files; None without a previous workspace.
    previous_lines: int | None


def code_churn(before: dict[str, list[str]] | None, after: dict[str, list[str]]) -> CodeChurn:
    """Lines added and removed in the code files from the text files ``before`` (None: no
    previous workspace) to ``after``, and the lines of ``before``'s code files (every
    line, blank and comment lines included, as SCB's ``total_lines``)."""
    old = code_files(before or {})
    added, removed = _diff(old, code_files(after))
    previous = None if before is None else sum(len(lines) for lines in old.values())
    return CodeChurn(added, removed, previous)


#: How the benchmark measures: the paper's profile (its frozen rule pack too), suppression
#: comments off.
BENCH_SETTINGS = Settings(suppressions=False, rule_set="paper")


def _source(folder: str, name: str, rel: str) -> SourceFile | Skipped | None:
    grammar = grammar_of(name)
    if grammar is None:
        return None
    try:
        found = os.lstat(os.path.join(folder, name))
    except OSError as error:
        return Skipped(rel, f"unreadable: {error.strerror}")
    if not stat.S_ISREG(found.st_mode):
        return Skipped(rel, "not a regular file (a link, a FIFO or a device)")
    if found.st_size > MAX_FILE_BYTES:
        return Skipped(rel, f"{found.st_size / 2**20:.1f} MiB is over the size limit")
    return SourceFile(os.path.join(folder, name), rel, grammar)


def workspace_sources(workspace: Path) -> SourceSet:
    """Every source file of ``workspace``, in every folder (see the module docstring)."""
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    for folder, dirs, names in os.walk(workspace):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
        base = os.path.relpath(folder, workspace)
        prefix = "" if base == "." else base.replace(os.sep, "/") + "/"
        for name in sorted(names):
            found = _source(folder, name, prefix + name)
            if isinstance(found, SourceFile):
                files.append(found)
            elif found is not None:
                skipped.append(found)
    return SourceSet(str(workspace), tuple(files), tuple(skipped))


def measure_report(workspace: Path, rule_set: str = "paper") -> TreeReport:
    """``workspace`` measured as the benchmark measures it (see the module docstring),
    with the rules of ``rule_set``."""
    cache = ResultCache(default_location())  # shared with code measure/diff/history
    settings = replace(BENCH_SETTINGS, rule_set=rule_set)
    options = MeasureOptions(jobs=1, cache=cache, settings=settings)
    try:
        return measure_sources(workspace_sources(workspace), options)
    finally:
        cache.close()


def bench_catalog(rule_set: str = "paper") -> list[Rule]:
    """The rules the benchmark's measure runs (explanations for a stored report)."""
    return list(catalog_of(MeasureOptions(settings=replace(BENCH_SETTINGS, rule_set=rule_set))))


def measure_workspace(workspace: Path, previous: Path | None, rule_set: str = "paper") -> Quality:
    """Erosion, verbosity, size and complexity of ``workspace`` (verbosity with the rules
    of ``rule_set``); its churn since ``previous``."""
    report = measure_report(workspace, rule_set)
    callables = report.callables
    old, new = text_files(previous), text_files(workspace)
    added, removed = _diff(old, new)
    code = code_churn(None if previous is None else old, new)
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
        code_lines_added=code.added,
        code_lines_removed=code.removed,
        previous_code_lines=code.previous_lines,
        rule_set=rule_set,
    )


def has_files(workspace: Path) -> bool:
    return workspace.is_dir() and any(path.is_file() for path in workspace.rglob("*"))
