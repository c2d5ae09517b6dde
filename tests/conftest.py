"""Shared fixtures: the ipympl backend for headless app tests, and the browser harness."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import claims  # noqa: E402  (tests/claims.py)

import browser as harness  # noqa: E402  (tests/browser.py)

# Headless app tests draw through ipympl exactly as a notebook does.
os.environ.setdefault("MPLBACKEND", "module://ipympl.backend_nbagg")


def pytest_assertrepr_compare(op, left, right):
    """A failed ``assert "sentence" in text`` names the sentence and the nearest passage."""
    if op == "in" and isinstance(left, str) and isinstance(right, str) and left:
        return claims.missing_sentence(left, right)
    return None


@pytest.fixture(autouse=True)
def _close_figures():
    """Each app test makes its own figures and widgets; close them so memory stays flat over
    the run (ipywidgets keeps every open widget, and with it every app, alive: a full
    garbage collection then walked hundreds of apps, seconds each time)."""
    from ipywidgets.widgets import widget
    before = set(widget._instances)
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
    for key in set(widget._instances) - before:
        w = widget._instances.get(key)
        if w is not None:
            w.close()


@pytest.fixture
def korean():
    """The apps speak Korean for this test (lessons_lib.i18n), as in notebooks/ko/."""
    from lessons_lib.i18n import set_language

    set_language("ko")
    yield
    set_language(None)


@pytest.fixture(scope="session")
def voila_server():
    """Voila serving notebooks/ on a free loopback port for the whole test session."""
    server = harness.VoilaServer()
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """JupyterLab serving notebooks/ with a first visit's settings (file browser open)."""
    port = harness.free_port()
    server = harness.VoilaServer(
        command=harness.lab_command(port, tmp_path_factory.mktemp("lab")), port=port)
    try:
        server.wait_ready(120)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium through Playwright; skipped (failed under CI=true) when missing."""
    if not os.path.exists(harness.CHROMIUM):
        if harness.in_ci():
            pytest.fail(harness.chromium_missing_message())
        pytest.skip(harness.chromium_missing_message())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                    args=harness.CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium):
    """A fresh 1280x720 page (the projector size) that records console errors."""
    context = chromium.new_context(viewport=harness.VIEWPORT)
    pg = context.new_page()
    pg.console_errors = []
    pg.on("pageerror", lambda exc: pg.console_errors.append(str(exc)))
    try:
        yield pg
    finally:
        context.close()
