"""One test fetches a page from the internet."""

from __future__ import annotations

import subprocess
import urllib.request


def test_prints_ok(entrypoint_argv: list[str]) -> None:
    assert subprocess.run(entrypoint_argv, capture_output=True, text=True).stdout == "ok\n"


def test_fetches_a_page() -> None:
    with urllib.request.urlopen("http://example.com/", timeout=10) as page:
        assert page.status == 200
