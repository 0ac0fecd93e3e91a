"""The fixed inputs of one revision run and the state carried from round to round.

A `Session` holds what stays fixed: the manuscript as it was (M0), the
records folder, the models and the settings. A `State` holds what a round
hands to the next: the retained manuscript and its measurement, the retired
instances, the review notes, and how many rounds in a row review restored
everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.errors import BadInput
from slopmark.paper.document import Document
from slopmark.paper.measures.base import MeasureSpec
from slopmark.paper.revise.align import Tree
from slopmark.paper.revise.chat import Chat
from slopmark.paper.revise.manuscript import Manuscript, parse_tree
from slopmark.paper.revise.review import Retirement
from slopmark.paper.score import PaperScore, score_paper

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

#: Reader notes that mean the tree does not expand into one document.
_NOT_EXPANDING = ("missing \\input", "\\input cycle")


@dataclass(frozen=True)
class Settings:
    specs: tuple[MeasureSpec, ...]
    rounds: int = 3
    #: Changes per review call.
    batch_size: int = 4
    #: The longest answers (None: each model's own ``max_tokens``).
    editor_tokens: int | None = None
    reviewer_tokens: int | None = None
    #: Characters of context (other files, the original manuscript) per prompt.
    context_chars: int = 60_000
    #: Record lines shown per review call.
    record_lines: int = 80


@dataclass(frozen=True)
class Roles:
    editor: Chat
    reviewer: Chat | None = None
    #: The models of the model-based measures (None: deterministic measures only).
    measures: ModelSet | None = None
    #: ``{"editor": "model at url", ...}`` for the report.
    described: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Session:
    manuscript: Manuscript
    roles: Roles
    settings: Settings
    records: Path | None = None

    @property
    def original(self) -> Tree:
        """The manuscript as it was (M0): compare against it, never change it."""
        return self.manuscript.tree

    def measure(self, tree: Mapping[str, str]) -> PaperScore:
        return self.score(parse_tree(self.manuscript, tree))

    def score(self, document: Document) -> PaperScore:
        return score_paper(document, self.settings.specs, self.roles.measures)

    def reviewer(self) -> Chat:
        if self.roles.reviewer is None:
            raise BadInput("this method needs a reviewer model; pass --reviewer")
        return self.roles.reviewer


@dataclass(frozen=True)
class State:
    tree: dict[str, str]
    score: PaperScore
    retired: tuple[Retirement, ...] = ()
    notes: str = ""
    #: Consecutive rounds whose changes review (or preservation) restored entirely.
    restored: int = 0

    @property
    def retired_keys(self) -> frozenset[tuple[str, str]]:
        return frozenset(item.key for item in self.retired)


def require_expanding(manuscript: Manuscript) -> Document:
    """The paper's Document, or `BadInput` naming the file where its ``\\input`` tree breaks."""
    main = manuscript.main
    if main not in manuscript.tree:
        raise BadInput(f"{manuscript.folder}: no main .tex file found in the tree")
    document = parse_tree(manuscript, manuscript.tree)
    for note in document.notes:
        if note.message.startswith(_NOT_EXPANDING):
            where = f"{note.at.file}:{note.at.line}" if note.at else main
            raise BadInput(
                f"{manuscript.folder}/{where}: the paper does not expand ({note.message}); "
                "fix the \\input before revising"
            )
    return document
