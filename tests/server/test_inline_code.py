"""``/docs`` shows the routes' reStructuredText code as code, escaped, never raw backticks."""

from __future__ import annotations

import re

import httpx
import pytest

from server.conftest import LiveServer
from slopmark.server.inline_code import Piece, paragraphs, pieces


def test_literals_references_and_roles_become_code_pieces() -> None:
    found = pieces("see ``GET /api/runs/{id}``, `board_json` and :func:`slopmark.x`_ now")
    assert found == (
        Piece("see "), Piece("GET /api/runs/{id}", code=True), Piece(", "),
        Piece("board_json", code=True), Piece(" and "), Piece("slopmark.x", code=True),
        Piece(" now"),
    )  # fmt: skip
    assert pieces("no code at all") == (Piece("no code at all"),)
    assert pieces("") == ()


def test_paragraphs_split_at_blank_lines_and_join_their_lines() -> None:
    text = "First line\n    goes on with ``x``.\n\n  Second <b>paragraph</b>.\n"
    assert paragraphs(text) == (
        (Piece("First line goes on with "), Piece("x", code=True), Piece(".")),
        (Piece("Second <b>paragraph</b>."),),
    )


@pytest.mark.slow
def test_the_docs_page_shows_code_without_backticks(live: LiveServer) -> None:
    page = httpx.get(f"{live.url}/docs", timeout=30)
    assert page.status_code == 200
    notes = re.findall(r'<p class="note">(.*?)</p>', page.text, re.DOTALL)
    assert notes and not any("`" in note for note in notes)
    assert "<code>model</code> clears the gate on <code>domain</code>" in page.text
