"""Every real paper of the shared corpus loads with sections, labels, references, citations.

Speed is measured in benchmarks/paper_measure.py, not here."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import CORPUS
from slopmark.paper.latex import load_document

PAPERS = sorted(p for p in CORPUS.glob("*") if p.is_dir()) if CORPUS.is_dir() else []


@pytest.mark.skipif(not PAPERS, reason="the shared paper corpus is absent")
@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.name)
def test_corpus_paper_loads(paper: Path) -> None:
    document = load_document(paper)
    assert len(document.body_sections()) >= 3
    assert len(document.labels) >= 5
    assert document.citations and document.references
    assert document.sentences and document.prose_view
    assert all(s.at.line >= 1 for s in document.sections)
