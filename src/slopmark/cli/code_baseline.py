"""`code measure`'s findings: ``--baseline``, ``--write-baseline`` and ``--sarif``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slopmark.errors import CheckFailed
from slopmark.plurals import count

if TYPE_CHECKING:
    from rich.console import Console

    from slopmark.code.measure.findings import Finding
    from slopmark.code.measure.report import TreeReport
    from slopmark.code.measure.rules import Rule


class BaselineRun:
    """The findings a measure run reports (all, or those not in ``baseline``)."""

    def __init__(self, baseline: Path | None, write: Path | None, sarif: Path | None) -> None:
        from slopmark.code.measure.baseline import read_baseline

        self.known = read_baseline(baseline) if baseline is not None else None
        self.write, self.sarif = write, sarif

    def findings(self, report: TreeReport, rules: Sequence[Rule]) -> list[Finding]:
        """The reported findings: those not in the baseline (all without one); the SARIF
        file describes ``rules`` (those the run chose)."""
        if self.known is None and self.write is None and self.sarif is None:
            return []
        from slopmark.code.measure.baseline import (
            not_in,
            tree_findings,
            tree_reader,
            write_baseline,
        )

        found = tree_findings(report, tree_reader(report.root))
        if self.write is not None:
            write_baseline(self.write, found)
        new = not_in(found, self.known) if self.known is not None else found
        if self.sarif is not None:
            _write_sarif(self.sarif, report, rules, new)
        return new

    def json(self, new: list[Finding]) -> dict[str, Any]:
        if self.known is None:
            return {}
        return {
            "baseline_new": [
                {"kind": f.kind, "rule": f.rule, "path": f.path, "line": f.start,
                 "message": f.message, "fingerprint": f.fingerprint}
                for f in new
            ]
        }  # fmt: skip

    def render(self, new: list[Finding], console: Console, top: int) -> None:
        if self.known is None:
            return
        console.print(
            f"[bold]not in the baseline[/bold]: {count(len(new), 'finding')}", highlight=False
        )
        for f in new[: top or len(new)]:
            console.print(f"  {f.path}:{f.start}  {f.rule}  {f.message}", markup=False,
                          highlight=False, overflow="fold")  # fmt: skip

    def gate(self, new: list[Finding]) -> None:
        """Exit 1 when a baseline was given and findings outside it remain."""
        if self.known is None or not new:
            return
        first = ", ".join(f"{f.path}:{f.start} {f.rule}" for f in new[:3])
        more = f" +{len(new) - 3} more" if len(new) > 3 else ""
        raise CheckFailed(f"{count(len(new), 'finding')} not in the baseline: {first}{more}")


def _write_sarif(
    path: Path, report: TreeReport, rules: Sequence[Rule], findings: list[Finding]
) -> None:
    from slopmark.cli.output import write_file
    from slopmark.cli.sarif import to_sarif

    write_file(path, json.dumps(to_sarif(report, rules, findings)), "--sarif")
