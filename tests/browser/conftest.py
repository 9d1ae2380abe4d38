"""Browser fixtures: the system Chromium driven by Playwright, phones at 360×740.

Never downloads a browser: it uses /usr/bin/chromium (or $KIBITZ_CHROMIUM). Without one the tests
skip on a developer machine and fail when CI is set. `live_server` comes from tests/conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("KIBITZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "en-US",
}
# Headless Chromium on Linux has no system share sheet; make sure the app's own one is used.
NO_WEB_SHARE = "Object.defineProperty(Navigator.prototype, 'share', {value: undefined, configurable: true});"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (mandatory when CI is set)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    with sync_playwright() as playwright:
        try:
            instance = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        except Exception as error:  # noqa: BLE001 - a browser that cannot start is "no browser"
            _unavailable(f"Chromium at {CHROMIUM} does not start: {error}")
        yield instance
        instance.close()


@pytest.fixture
def new_phone(browser: Any) -> Iterator[Callable[..., Any]]:
    """Factory: a fresh phone (own browser context = own localStorage and service worker)."""
    contexts: list[Any] = []

    def make(**overrides: Any) -> Any:
        context = browser.new_context(**{**PHONE, **overrides})
        context.add_init_script(NO_WEB_SHARE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: page_errors.append(str(error)))
        return page

    page_errors: list[str] = []
    yield make
    for context in contexts:
        context.close()
    assert not page_errors, f"JavaScript errors: {page_errors}"


@pytest.fixture
def phone_page(new_phone: Callable[..., Any]) -> Any:
    """One phone: 360×740, touch, mobile."""
    return new_phone()
