"""Debian's chromium driven by Playwright: what every browser test of the web pages shares."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
#: A module of browser tests skips, saying why, where the browser is missing.
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"browser tests need Debian's chromium at {CHROMIUM}: apt-get install -y chromium",
)


@contextmanager
def launched_chromium() -> Iterator[Browser]:
    """chromium, headless, for as long as the block runs."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def open_page(browser: Browser, **options: Any) -> Iterator[Page]:
    """A page in a fresh context (``options`` as `Browser.new_context` takes them), with a
    15 s default timeout for a machine under load."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        context.close()
