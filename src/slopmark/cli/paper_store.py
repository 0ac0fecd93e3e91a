"""``paper measure --store``: keep a paper's scores and findings in the run store.

The options are checked, and the store opened, before the paper is scored, so a
bad ``--label`` or a store that is not slopmark's costs nothing. Papers are
labelled only when the user says so (``--label human|ai``): the pages rank a
paper's measures among the stored papers labelled human.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from slopmark.cli.options import DB_HELP
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from slopmark.paper.sweep import Scored
    from slopmark.store.papers import Label

STORE = typer.Option(
    False, "--store", help="Keep the scores and findings in the run store; prints the paper id."
)
DB = typer.Option(
    None, "--db", help=f"With --store: {DB_HELP}"
)
LABEL = typer.Option(
    None, "--label", help="With --store: human | ai, who wrote it (pages compare with human)."
)


@dataclass(frozen=True)
class StoreTarget:
    """Where ``--store`` writes, and the label the paper gets."""

    engine: Engine
    label: Label | None
    profile: str


def store_target(
    store: bool, db: str | None, label: str | None, profile: str, paths: int
) -> StoreTarget | None:
    """The opened store and label, or None without ``--store``; `BadInput` for options
    that need ``--store`` or for several papers."""
    from slopmark.store.papers import choose_label

    if not store:
        for name, value in (("--db", db), ("--label", label)):
            if value is not None:
                raise BadInput(f"{name} {value!r}: only with --store; add --store to keep it")
        return None
    chosen = choose_label(label)
    if paths != 1:
        raise BadInput("--store keeps one paper's findings; pass one PATH with it")
    from slopmark.cli.store import open_cli_store

    return StoreTarget(open_cli_store(db), chosen, profile)


def keep(target: StoreTarget, paper: str, scored: Scored) -> int:
    """Store the paper's findings report (exactly what ``--findings F.json`` holds); its id."""
    from slopmark.paper.findings import findings_json
    from slopmark.store.papers import store_paper

    notes = [note.message for note in scored.notes]
    report = findings_json(paper, scored.score)
    try:
        return store_paper(target.engine, report, target.label, target.profile, notes)
    finally:
        target.engine.dispose()
