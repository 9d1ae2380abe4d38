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

from .phones import DEFAULT_TIMEOUT_MS, Phone, PhonePool

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
# What a check waits for a screen before it fails, unless it names its own limit (a promise such as
# "within 2 seconds" does): Playwright's 5 s is less than a screen can take on a 2-core machine that
# runs a browser on each core beside the servers (issue 34: the browsers run on two workers).
try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture says what is missing
    pass
else:
    expect.set_options(timeout=15_000)

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


def _prepare(context: Any) -> None:
    context.add_init_script(NO_WEB_SHARE)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)


@pytest.fixture(scope="session")
def installed_phones(browser: Any) -> Iterator[PhonePool]:
    """Phones that have the app installed, handed from test to test (tests/browser/phones.py)."""
    pool = PhonePool(browser, _prepare)
    yield pool
    pool.close()


@pytest.fixture
def new_phone(installed_phones: PhonePool) -> Iterator[Callable[..., Any]]:
    """Factory: a phone of its own (own localStorage, IndexedDB and cookies), on which the app is
    installed once another test has used it; `fresh=True` for a phone on its first visit."""
    phones: list[Phone] = []

    def make(*, fresh: bool = False, **overrides: Any) -> Any:
        phone = installed_phones.take({**PHONE, **overrides}, fresh=fresh)
        phones.append(phone)
        page = phone.context.new_page()
        page.on("pageerror", lambda error: page_errors.append(str(error)))
        return page

    page_errors: list[str] = []
    yield make
    for phone in phones:
        installed_phones.give_back(phone)
    assert not page_errors, f"JavaScript errors: {page_errors}"


@pytest.fixture
def phone_page(new_phone: Callable[..., Any]) -> Any:
    """One phone: 360×740, touch, mobile."""
    return new_phone()
