"""The fixtures the browser tests share: the frozen fixture site served on 127.0.0.1 and Debian's
chromium driven by Playwright (never a downloaded browser), one of each per test module."""

from __future__ import annotations

import pytest

from sitebuild import CHROMIUM, CHROMIUM_ARGS, serve_directory


@pytest.fixture(scope="module")
def base_url(site):
    with serve_directory(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS + ["--disable-gpu"])
        yield b
        b.close()
