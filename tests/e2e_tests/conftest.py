"""A real browser: Playwright driving Debian's Chromium against pytest-django's live server.

Playwright's own browser download does not work on these machines, so the tests launch
/usr/bin/chromium (installed by `make test` when missing and running as root). Without it the
tests are skipped, except in CI, where a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Headless and quiet: without the background-networking flags Chromium keeps trying to reach
# Google's hosts, which this machine's closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "e2e"

# Playwright's sync API runs an event loop on the test thread, and Django refuses ORM calls on
# a thread with a running loop. The loop stays marked as running on this thread until the
# session ends, so the database teardown and later tests in this process need this too.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot(page: Any, request: pytest.FixtureRequest) -> Any:
    """screenshot("name") saves test-results/e2e/<test>-<name>.png for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
