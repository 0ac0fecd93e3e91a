"""Section roles as docs/paper-definitions.md (row 3) states them: Background is related
work, as in the authors' release; notation and problem setting are not."""

from __future__ import annotations

import pytest

from slopmark.paper.latex.sections import classify


@pytest.mark.parametrize(
    ("title", "role"),
    [
        ("Background", "related_work"),
        ("Background and Related Work", "related_work"),
        ("Related Works", "related_work"),
        ("Prior Work", "related_work"),
        ("Introduction and Motivation", "introduction"),
        ("Notation", "other"),
        ("Problem Setting", "other"),
    ],
)
def test_roles_agree_with_the_definitions_document(title: str, role: str) -> None:
    assert classify(title) == role
