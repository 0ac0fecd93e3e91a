"""What an agent left that tries to steer its own evaluation, and what became of it.

Agents are known to game the tests they are scored on when they can. The
harness makes each way it knows of powerless (docs/bench-evaluation.md, "What
the measured cannot change"); this module lists what a checkpoint's workspace
holds of them, so a run's report shows the attempts beside the verdicts.
Each `Finding` names the kind, the file, what it is and its effect; none
changes a verdict (they were neutralised), and ``hidden-test-text`` flags a
workspace that holds text of the hidden tests.

`scan` reads the workspace snapshot (never following a link); `session_findings`
turns what the test session reported (a session cut short, modules kept out)
into findings.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.measure.discovery import EXCLUDED_DIRS
from slopmark.code.measure.languages import grammar_of
from slopmark.plurals import count as count_of

#: Files that configure a pytest session (with the section that makes them one).
TEST_CONFIG = {
    "pytest.ini": None, "tox.ini": "[pytest]", "setup.cfg": "[tool:pytest]",
    "pyproject.toml": "[tool.pytest",
}  # fmt: skip
#: Modules the hidden test session imports besides the standard library.
SESSION_MODULES = frozenset({
    "pytest", "_pytest", "pluggy", "py", "iniconfig", "packaging", "pytest_timeout",
    "jsonschema", "deepdiff", "slopmark_bench_report", "run_hidden_tests",
})  # fmt: skip
STARTUP_HOOKS = frozenset({"sitecustomize.py", "usercustomize.py"})
#: Words in a submission's source that only make sense aimed at the test harness.
HARNESS_WORDS = (
    "PYTEST_CURRENT_TEST", "PYTEST_VERSION", "SCBENCH_CHECKPOINT", ".evaluation_tests",
    "SLOPMARK_BENCH", "pytest_runtest_", "slopmark_bench_report", "getppid",
)  # fmt: skip
SUPPRESSION = b"slopmark: ignore"
#: A hidden test's line counts as copied when it is this long and found verbatim.
COPIED_LINE_CHARS = 40
#: ... and a workspace file holds at least this many of them.
COPIED_LINES = 3
#: Files bigger than this are not read by the scan.
MAX_SCAN_BYTES = 2 * 1024 * 1024

_NOT_LOADED = "not loaded: the hidden tests run with the harness's config and conftest boundary"
_EFFECTS = {
    "test-config": _NOT_LOADED,
    "hidden-tests-folder": "not copied: the harness puts the problem's own tests there",
    "shadowing-module": "not importable by the test session (the workspace is off its path)",
    "startup-hook": "not loaded: the test session's Python starts isolated",
    "measure-config": "ignored: the quality step uses the harness's settings",
    "suppression": "ignored: every rule hit counts in the quality step",
    "hidden-code": "measured: the quality step reads every folder of the workspace",
    "link": "not followed: the quality step and the harness read no link",
    "hidden-test-text": "flagged: the workspace holds lines of the hidden tests",
}


@dataclass(frozen=True)
class Finding:
    """One thing a workspace (or its test session) held that aims at the evaluation."""

    kind: str
    path: str
    detail: str
    effect: str


@dataclass(frozen=True)
class Integrity:
    """A checkpoint's integrity report: what was found, and how the evaluation was sealed."""

    findings: tuple[Finding, ...] = ()
    #: Whether the submission ran in a sandbox of its own during the hidden tests.
    guarded: bool | None = None
    #: What was hidden from the agent's and the tests' sandboxes ("problems folder"...).
    hidden: tuple[str, ...] = ()


def _finding(kind: str, path: str, detail: str) -> Finding:
    return Finding(kind, path, detail, _EFFECTS[kind])


def _walk(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    """Every entry under ``root`` as (relative posix path, lstat), links not followed."""
    for folder, dirs, names in os.walk(root):
        base = os.path.relpath(folder, root)
        prefix = "" if base == "." else base.replace(os.sep, "/") + "/"
        for name in sorted([*dirs, *names]):
            try:
                yield prefix + name, os.lstat(os.path.join(folder, name))
            except OSError:
                continue
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]


def _read(path: Path, found: os.stat_result) -> bytes:
    if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_SCAN_BYTES:
        return b""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        return handle.read(MAX_SCAN_BYTES)


def _by_name(rel: str, found: os.stat_result, data: bytes) -> Iterator[Finding]:
    name = rel.rpartition("/")[2]
    yield from _links_and_test_config(rel, name, found, data)
    if "/" not in rel:
        yield from _at_the_top(rel, found)
    if name in STARTUP_HOOKS or name.endswith(".pth"):
        yield _finding("startup-hook", rel, f"a Python start-up hook ({name})")
    if name == "pyproject.toml" and b"[tool.slopmark" in data:
        yield _finding("measure-config", rel, "[tool.slopmark] settings")


def _links_and_test_config(
    rel: str, name: str, found: os.stat_result, data: bytes
) -> Iterator[Finding]:
    if stat.S_ISLNK(found.st_mode):
        yield _finding("link", rel, "a symbolic link")
    elif name == "conftest.py":
        yield _finding("test-config", rel, "a conftest.py (pytest hooks and fixtures)")
    elif name in TEST_CONFIG and (TEST_CONFIG[name] or "").encode() in data:
        yield _finding("test-config", rel, f"pytest settings in {name}")


def _at_the_top(name: str, found: os.stat_result) -> Iterator[Finding]:
    """What a name at the workspace's top (the submission's import root) means."""
    if name == ".evaluation_tests":
        yield _finding("hidden-tests-folder", name, "a folder named like the hidden tests'")
    module = name.removesuffix(".py")
    importable = name.endswith(".py") or stat.S_ISDIR(found.st_mode)
    if importable and (module in SESSION_MODULES or module in sys.stdlib_module_names):
        yield _finding("shadowing-module", name, f"shadows the module '{module}'")


def _in_code(rel: str, found: os.stat_result, data: bytes) -> Iterator[Finding]:
    if not stat.S_ISREG(found.st_mode) or grammar_of(rel) is None:
        return
    count = data.count(SUPPRESSION)
    if count:
        yield _finding("suppression", rel, count_of(count, "'# slopmark: ignore' comment"))
    folders = set(rel.split("/")[:-1]) & EXCLUDED_DIRS
    if folders:
        yield _finding("hidden-code", rel, f"source in a folder measure skips ({min(folders)}/)")
    words = sorted(word for word in HARNESS_WORDS if word.encode() in data)
    if words and rel.rpartition("/")[2] != "conftest.py":
        yield Finding("harness-reference", rel, "refers to " + ", ".join(words), "")


def _copied_lines(tests: Iterable[Path]) -> set[bytes]:
    lines: set[bytes] = set()
    for path in tests:
        try:
            text = path.read_bytes()
        except OSError:
            continue
        lines.update(
            line.strip() for line in text.splitlines() if len(line.strip()) >= COPIED_LINE_CHARS
        )
    return lines


def scan(workspace: Path, hidden_tests: Sequence[Path] = (), guarded: bool | None = None) -> (
    list[Finding]
):
    """The findings of ``workspace`` (a checkpoint's snapshot); ``hidden_tests`` are the
    checkpoint's test files, looked for verbatim; ``guarded`` says whether the submission
    ran away from the hidden tests (the effect of a harness reference)."""
    if not workspace.is_dir():
        return []
    copied = _copied_lines(hidden_tests)
    findings: list[Finding] = []
    for rel, found in _walk(workspace):
        data = _read(workspace / rel, found)
        findings.extend(_by_name(rel, found, data))
        findings.extend(_in_code(rel, found, data))
        held = sum(1 for line in copied if line in data) if data and copied else 0
        if held >= COPIED_LINES:
            findings.append(_finding("hidden-test-text", rel, f"{held} lines of the hidden tests"))
    return [_effect_of(finding, guarded) for finding in findings]


def _effect_of(finding: Finding, guarded: bool | None) -> Finding:
    if finding.kind != "harness-reference":
        return finding
    if guarded:
        effect = "neutralised: the submission ran without the hidden tests, the report or "
        effect += "the harness's variables"
    else:
        effect = "not neutralised: this sandbox cannot nest one for the submission"
    return Finding(finding.kind, finding.path, finding.detail, effect)


def session_findings(cut_short: str | None, kept_out: Sequence[str]) -> list[Finding]:
    """Findings of what the test session reported about itself."""
    found = [
        Finding("shadowing-module", name, "the submission's module was asked for by the session",
                "kept out: the test session imported its own")  # fmt: skip
        for name in kept_out
    ]
    if cut_short is not None:
        found.append(Finding("session-cut-short", "", cut_short,
                             "the tests it had not finished count as failed"))  # fmt: skip
    return found
