"""Papers in the run store (`slopmark paper measure --store`): one row per paper, per
measure and per located instance.

The writer takes the paper's findings report, the same mapping ``paper measure
--findings F.json`` writes (`slopmark.paper.findings.findings_json`), so the store
holds exactly the instances that file lists, in its order. A paper is written in
one transaction; each ``--store`` run adds a new paper and returns its id.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import Engine, insert

from slopmark.errors import BadInput
from slopmark.store.schema import paper_findings, paper_measures, papers

Label = Literal["human", "ai"]
LABELS: tuple[Label, ...] = ("human", "ai")

_MEASURE_FIELDS = ("measure", "plane", "status", "score", "flagged", "units", "unit_name",
                   "weak", "reason", "detail")  # fmt: skip


def choose_label(value: str | None) -> Label | None:
    """``human`` or ``ai`` (None: unlabelled); `BadInput` naming ``--label`` otherwise."""
    if value is None:
        return None
    for label in LABELS:
        if value == label:
            return label
    raise BadInput(f"--label {value!r}: must be one of {', '.join(LABELS)}")


def _findings(report: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Every instance of the report as a ``paper_findings`` row (without the paper id)."""
    items = (item for measure in report["measures"] for item in measure["instances"])
    for position, item in enumerate(items):
        yield {"position": position, "measure": item["measure"], "section": item["section"],
               "file": item["at"]["file"], "line": item["at"]["line"], "text": item["text"],
               "repair": item["repair"]}  # fmt: skip


def _measures(report: Mapping[str, Any], label: Label | None) -> list[dict[str, Any]]:
    return [
        {"position": position, "label": label, **{name: row[name] for name in _MEASURE_FIELDS}}
        for position, row in enumerate(report["measures"])
    ]


def store_paper(
    engine: Engine,
    report: Mapping[str, Any],
    label: Label | None = None,
    profile: str = "default",
    notes: Sequence[str] = (),
) -> int:
    """Store one paper's findings report (the ``--findings`` JSON); its new paper id."""
    found = list(_findings(report))
    row = {"paper": report["paper"], "label": label, "profile": profile,
           "aggregate": report["aggregate"], "planes": report["planes"],
           "recovery": report["recovery"], "notes": list(notes), "findings": len(found),
           "created_at": datetime.now(UTC)}  # fmt: skip
    with engine.begin() as connection:
        added = insert(papers).values(row).returning(papers.c.id)
        paper_id = int(connection.execute(added).scalar_one())
        owned = {"paper_id": paper_id}
        measures = [row | owned for row in _measures(report, label)]
        if measures:
            connection.execute(insert(paper_measures), measures)
        if found:
            connection.execute(insert(paper_findings), [row | owned for row in found])
    return paper_id
