"""Baselines: today's findings recorded by fingerprint, so that only new ones count.

`--write-baseline FILE` stores the fingerprints of every finding of a `code measure`
run (complex callables, rule hits, clone members; `slopmark.code.measure.findings`) with enough
detail to review the file by eye; `--baseline FILE` then reports and gates only the
findings whose fingerprint it does not hold, in `code measure` and `code diff` alike.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from slopmark import __version__
from slopmark.code.measure.discovery import MAX_FILE_BYTES
from slopmark.code.measure.findings import Finding, file_findings, members_by_path
from slopmark.code.measure.report import TreeReport
from slopmark.errors import BadInput
from slopmark.regular import Unreadable, read_regular

FORMAT = 1
#: A baseline file larger than this is refused (a finding takes a few hundred bytes).
MAX_BASELINE_BYTES = 256 * 2**20

Reader = Callable[[str], "bytes | None"]


def tree_findings(report: TreeReport, read: Reader) -> list[Finding]:
    """Every finding of a measured tree; ``read(path)`` gives a file's bytes (for hit texts)."""
    members = members_by_path(report.clone_groups)
    threshold = report.settings.cc_threshold
    found = []
    for metrics in report.files:
        if (
            metrics.hits
            or members.get(metrics.path)
            or any(c.cc > threshold for c in metrics.callables)
        ):
            found.extend(file_findings(metrics, members, read(metrics.path), threshold))
    return found


def tree_reader(root: str) -> Reader:
    """Reads the files of a `code measure` report rooted at ``root`` (a folder or a file)."""
    base = Path(root)

    def read(path: str) -> bytes | None:
        target = base if base.is_file() else base / path
        try:  # the file measured, if it is still a regular file (a FIFO is not waited for)
            return read_regular(target, MAX_FILE_BYTES, follow=False)
        except Unreadable:
            return None

    return read


def write_baseline(path: Path, findings: Iterable[Finding]) -> int:
    """Store the fingerprints of ``findings`` at ``path`` (atomically); how many."""
    entries = {
        f.fingerprint: {"kind": f.kind, "rule": f.rule, "path": f.path, "line": f.start,
                        "subject": f.subject if f.kind != "clone" else f.context}
        for f in findings
    }  # fmt: skip
    ordered = dict(sorted(entries.items(), key=lambda kv: _order(kv[1])))
    document = {"slopmark_baseline": FORMAT, "slopmark": __version__, "findings": ordered}
    folder = path.resolve().parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=1)
            out.write("\n")
        os.replace(temporary, path)
    except OSError as error:
        raise BadInput(
            f"--write-baseline {path}: cannot write: {error.strerror or error}"
        ) from None
    return len(entries)


def _order(entry: dict[str, object]) -> tuple[str, int]:
    line = entry["line"]
    return str(entry["path"]), line if isinstance(line, int) else 0


def read_baseline(path: Path) -> frozenset[str]:
    """The fingerprints a baseline file holds."""
    where = f"--baseline {path}"
    try:
        document = json.loads(read_regular(path, MAX_BASELINE_BYTES))
    except Unreadable as error:
        raise BadInput(f"{where}: cannot read: {error.reason}; pass a baseline file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(f"{where}: not a slopmark baseline (not JSON: {error})") from None
    if not isinstance(document, dict) or document.get("slopmark_baseline") != FORMAT:
        raise BadInput(
            f"{where}: not a slopmark baseline of format {FORMAT}; write one with --write-baseline"
        )
    findings = document.get("findings")
    if not isinstance(findings, dict):
        raise BadInput(f"{where}: 'findings' must be an object of fingerprints")
    return frozenset(findings)


def not_in(findings: Sequence[Finding], baseline: frozenset[str]) -> list[Finding]:
    return [f for f in findings if f.fingerprint not in baseline]
