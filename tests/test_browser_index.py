"""The index page renders in Voila and every lesson link on it opens that lesson."""

from __future__ import annotations

import re

import pytest

import browser as h

pytestmark = pytest.mark.browser


def test_index_renders_and_links_open_lessons(voila_server, page):
    page.goto(voila_server.render_url("index.ipynb"), timeout=120_000)
    page.wait_for_selector("text=Game maths, interactively", timeout=120_000)
    h.assert_no_error_text(page)
    h.screenshot(page, "index", full_page=True)
    links = page.locator("a[href$='.ipynb']")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    lessons = sorted(p.name for p in h.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert sorted(hrefs) == lessons
    for href in hrefs:
        # Each link resolves, relative to the Voila page, to that lesson's rendered page.
        target = page.evaluate("href => new URL(href, document.baseURI).href", href)
        assert re.search(rf"/voila/render/{re.escape(href)}$", target), target
        assert (h.NOTEBOOKS / href).is_file(), href
    if hrefs:  # and following one really renders the lesson
        links.first.click()
        page.wait_for_url(re.compile(re.escape(hrefs[0]) + "$"), timeout=120_000)
        page.wait_for_selector(h.FIGURE, timeout=120_000)
        h.assert_no_error_text(page)
