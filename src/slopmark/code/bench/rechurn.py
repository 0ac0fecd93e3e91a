"""Relative churn for results written before it was stored, from the run folder's snapshots.

Results written before the code churn fields existed read them as None
(`results.Quality`), so their relative churn is undefined. The run folder
still holds every checkpoint's tested workspace
(``RUN_DIR/<problem>/<checkpoint>/workspace``), so `recompute_churn` counts
it again with `quality.code_churn`, from the snapshot of the latest earlier
checkpoint that has one (as the runner chose the previous workspace) to the
checkpoint's own. A checkpoint without a snapshot keeps None: nothing is
imputed. The result files are not rewritten; the report says which
checkpoints it recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from slopmark.code.bench.quality import code_churn, text_files
from slopmark.code.bench.results import CheckpointResult

__all__ = ["Rechurned", "recompute_churn"]


@dataclass(frozen=True)
class Rechurned:
    """The results with churn filled in where it could be, and which ones were filled."""

    results: list[CheckpointResult]
    #: ``<problem>/<checkpoint>`` of every result whose churn was recomputed
    recomputed: tuple[str, ...]


def _snapshot(run_dir: Path, result: CheckpointResult) -> Path:
    return run_dir / result.problem / result.checkpoint / "workspace"


def _lacks_churn(result: CheckpointResult) -> bool:
    return result.quality is not None and result.quality.code_lines_added is None


def _previous(
    run_dir: Path, result: CheckpointResult, results: Sequence[CheckpointResult]
) -> Path | None:
    """The snapshot of the latest checkpoint of the same problem before ``result``."""
    earlier = sorted(
        (r for r in results if r.problem == result.problem and r.index < result.index),
        key=lambda r: r.index,
    )
    snapshots = [_snapshot(run_dir, r) for r in earlier]
    return next((path for path in reversed(snapshots) if path.is_dir()), None)


def _rechurn(
    run_dir: Path, result: CheckpointResult, results: Sequence[CheckpointResult]
) -> CheckpointResult:
    if result.quality is None:
        return result
    previous = _previous(run_dir, result, results)
    found = code_churn(
        None if previous is None else text_files(previous), text_files(_snapshot(run_dir, result))
    )
    quality = replace(
        result.quality, code_lines_added=found.added, code_lines_removed=found.removed,
        previous_code_lines=found.previous_lines,
    )  # fmt: skip
    return replace(result, quality=quality)


def recompute_churn(run_dir: Path, results: Sequence[CheckpointResult]) -> Rechurned:
    """``results`` with the code churn of old results counted again from their snapshots."""
    fixed, names = [], []
    for result in results:
        if _lacks_churn(result) and _snapshot(run_dir, result).is_dir():
            result = _rechurn(run_dir, result, results)
            names.append(f"{result.problem}/{result.checkpoint}")
        fixed.append(result)
    return Rechurned(fixed, tuple(names))
