"""OUT_DIR: every round of a revision run on disk, and the final report.

Layout::

    OUT_DIR/
      report.md  report.json    the final report (scores per round, kept, reverted, why)
      final/                    the last retained manuscript (.tex files and support files)
      round-0/                  the original manuscript and its measurement
        tree/  scores.json  SLOP_FINDINGS.md
      round-1/ ...
        feedback.md             SLOP_FINDINGS.md and review notes as the editor received them
        draft/                  the editor's manuscript before review
        tree/                   the manuscript retained after the round
        discarded/              the reviewed tree a hard violation discarded (if any)
        scores.json  SLOP_FINDINGS.md    the measurement after review
        changes.json            every proposed change with the reviewer's verdict
        retirements.json  preservation.json  rejections.json
        calls.jsonl             every model answer of the round (role, subject, answer)

An OUT_DIR holding anything but a previous run's output is refused.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import Any

from slopmark.errors import BadInput
from slopmark.paper.findings import findings_markdown
from slopmark.paper.revise.manuscript import Manuscript, write_tree
from slopmark.paper.revise.report import report_markdown, round_json, run_json, scores_json
from slopmark.paper.revise.rounds import RevisionRun, RoundRecord


def prepare(out: Path) -> None:
    """Make ``out`` ready: create it, or clear a previous run's output from it."""
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out {out}: a file, not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not (out / "report.json").is_file():
            raise BadInput(f"--out {out}: the folder is not empty and holds no previous run; "
                           "pass a new or empty folder")  # fmt: skip
        for old in [*out.glob("round-*"), out / "final"]:
            if old.is_dir():
                shutil.rmtree(old)
    out.mkdir(parents=True, exist_ok=True)


def write_run(out: Path, run: RevisionRun, manuscript: Manuscript) -> None:
    """Write every round, the final manuscript and the report under ``out``."""
    prepare(out)
    for record in run.rounds:
        write_round(out / f"round-{record.number}", record, manuscript)
    write_tree(out / "final", manuscript, run.final.tree)
    _write_json(out / "report.json", run_json(run))
    (out / "report.md").write_text(report_markdown(run), encoding="utf-8")


def write_round(folder: Path, record: RoundRecord, manuscript: Manuscript) -> None:
    write_tree(folder / "tree", manuscript, record.tree)
    _write_json(folder / "scores.json", scores_json(record.score))
    findings = findings_markdown(manuscript.folder, record.score)
    (folder / "SLOP_FINDINGS.md").write_text(findings, encoding="utf-8")
    if record.number == 0:
        return
    (folder / "feedback.md").write_text(record.feedback, encoding="utf-8")
    if record.draft is not None:
        write_tree(folder / "draft", manuscript, record.draft)
    if record.discarded is not None:
        write_tree(folder / "discarded", manuscript, record.discarded)
    detail = round_json(record)
    for name in ("changes", "retirements", "rejections"):
        _write_json(folder / f"{name}.json", detail[name])
    _write_json(folder / "preservation.json", detail["violations"])
    calls = "".join(json.dumps(asdict(call), ensure_ascii=False) + "\n" for call in record.calls)
    (folder / "calls.jsonl").write_text(calls, encoding="utf-8")


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
