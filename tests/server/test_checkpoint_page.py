"""The web leaderboard of the `code_iterative` domain shows each row's per-group pass
rates, relative churn, CC>10 callables and time per checkpoint (real uvicorn, a real
SQLite store filled through `ledger.store_result`; the numbers of
tests/board/test_checkpoint_rows.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import httpx
from fastapi import FastAPI
from tests.board.test_checkpoint_rows import MODEL, fill_store

from slopmark.code.bench.ledger import DOMAIN
from slopmark.server import create_app


def test_the_code_iterative_board_shows_the_checkpoint_columns(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(fill_store(tmp_path), None))
    page = httpx.get(url + "/", params={"domain": DOMAIN}, timeout=30).text
    for header in ("Core %", "Functionality %", "Error %", "Regression %", "Relative churn",
                   "CC&gt;10", "Wall s / checkpoint"):  # fmt: skip
        assert f"<th>{header}</th>" in page
    row = re.search(rf'<tr [^>]*data-model="{MODEL}">(.*?)</tr>', page, flags=re.DOTALL)
    assert row is not None
    cells = dict(
        re.findall(r'<td class="(group-\w+|churn|complex|wall)"[^>]*>([^<]*)</td>', row[1])
    )
    assert cells == {
        "group-core": "55.0%", "group-functionality": "50.0%", "group-error": "0.0%",
        "group-regression": "87.5%", "churn": "0.39", "complex": "2.0", "wall": "35.0",
    }  # fmt: skip
    assert 'title="2 checkpoints with regression tests"' in row[1]


def test_other_domains_show_no_checkpoint_columns(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(fill_store(tmp_path), None))
    page = httpx.get(url + "/", params={"domain": "math"}, timeout=30).text
    assert "Relative churn" not in page
