"""A run folder as the reports read it: its manifest, its results, old churn recomputed.

``code bench report`` and ``code bench compare`` read a run the same way:
`read_manifest` checks ``run.json``, `runner.load_results` reads every
``result.json`` (a malformed one is `BadInput` naming it), and
`rechurn.recompute_churn` fills in the relative churn of results written
before it was stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.manifest import RunManifest, read_manifest
from slopmark.code.bench.rechurn import recompute_churn
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.runner import load_results

__all__ = ["ReadRun", "read_run"]


@dataclass(frozen=True)
class ReadRun:
    run_dir: Path
    manifest: RunManifest
    results: list[CheckpointResult]
    #: ``<problem>/<checkpoint>`` of the results whose churn was recomputed from snapshots
    recomputed: tuple[str, ...] = ()


def read_run(run_dir: Path) -> ReadRun:
    """The run in ``run_dir``, checked, with old results' churn recomputed."""
    manifest = read_manifest(run_dir)
    rechurned = recompute_churn(run_dir, load_results(run_dir))
    return ReadRun(run_dir, manifest, rechurned.results, rechurned.recomputed)
