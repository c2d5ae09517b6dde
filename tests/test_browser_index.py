"""The index page renders in Voila and every lesson link on it opens that lesson."""

from __future__ import annotations

import re

import pytest

from lessons_lib.catalogue import LESSONS
from lessons_lib.i18n import KOREAN_FOLDER

import browser as h
from lessons import KOREAN, KOREAN_INDEX

pytestmark = pytest.mark.browser


def test_index_renders_and_links_open_lessons(voila_server, page):
    page.goto(voila_server.render_url("index.ipynb"), timeout=120_000)
    page.wait_for_selector("text=Game maths, interactively", timeout=120_000)
    h.assert_no_error_text(page)
    h.screenshot(page, "index", full_page=True)
    links = page.locator("a[href$='.ipynb']")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    # the one link to the Korean index (notebooks/ko), then the lessons
    korean = [href for href in hrefs if href.startswith(f"{KOREAN_FOLDER}/")]
    assert korean == [f"{KOREAN_FOLDER}/index.ipynb"], korean
    hrefs = [href for href in hrefs if href not in korean]
    lessons = sorted(p.name for p in h.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert sorted(hrefs) == lessons
    for href in hrefs:
        # Each link resolves, relative to the Voila page, to that lesson's rendered page.
        target = page.evaluate("href => new URL(href, document.baseURI).href", href)
        assert re.search(rf"/voila/render/{re.escape(href)}$", target), target
        assert (h.NOTEBOOKS / href).is_file(), href
    if hrefs:  # and following one really renders the lesson
        page.locator(f"a[href='{hrefs[0]}']").first.click()
        page.wait_for_url(re.compile(re.escape(hrefs[0]) + "$"), timeout=120_000)
        page.wait_for_selector(h.FIGURE, timeout=120_000)
        h.assert_no_error_text(page)


def test_make_voila_lands_on_the_index_and_each_lesson_has_a_short_address(voila_server):
    """Issue 42: `make voila` landed on Voila's file tree (raw .ipynb names, index.ipynb
    last, each in a new tab). Its root and tree now redirect to the rendered index, with
    the query kept; /<number> opens that lesson."""
    for path in ("", "voila/tree", "voila/tree/"):
        status, _, headers = h.get_once(f"{voila_server.url}/{path}?present=1")
        assert (status, headers["Location"]) == (302, "/voila/render/index.ipynb?present=1"), path
    for lesson in LESSONS:
        status, _, headers = h.get_once(f"{voila_server.url}/{lesson.number}")
        assert (status, headers["Location"]) == (302, f"/voila/render/{lesson.notebook}")
    assert h.get_once(f"{voila_server.url}/{len(LESSONS) + 1}")[0] == 404
    # the Korean pages: /ko the Korean index, /ko/<number> a Korean lesson
    status, _, headers = h.get_once(f"{voila_server.url}/{KOREAN_FOLDER}")
    assert (status, headers["Location"]) == (302, f"/voila/render/{KOREAN_INDEX}")
    for item in KOREAN:
        status, _, headers = h.get_once(f"{voila_server.url}/{KOREAN_FOLDER}/{item.number}")
        assert (status, headers["Location"]) == (
            302, f"/voila/render/{KOREAN_FOLDER}/{item.notebook}")


def test_index_lists_each_title_once_opening_in_the_same_tab(voila_server):
    status, body, _ = h.get_once(voila_server.render_url("index.ipynb"), timeout=120)
    assert status == 200
    links = re.findall(r"<a\b([^>]*)>(.*?)</a>", body)
    lessons = [(attrs, text) for attrs, text in links
               if ".ipynb" in attrs and "lessons-language" not in attrs]    # not the 한국어 link
    assert [text for _, text in lessons] == [lesson.title for lesson in LESSONS]
    for (attrs, _), lesson in zip(lessons, LESSONS, strict=True):
        assert f'href="{lesson.notebook}"' in attrs and "target" not in attrs, attrs
    assert not [attrs for attrs, _ in links if 'href=".' in attrs], "a link out of the folder"


def test_index_answers_at_once_without_a_kernel(voila_server):
    """Issue 42: the index ran as a notebook, so a student waited for its kernel (4-6 s on
    the hub) before they could click a lesson. It is a page made from the catalogue now;
    the lessons themselves still run in Voila."""
    from lessons_server.landing import index_html

    status, body, _ = h.get_once(voila_server.render_url("index.ipynb"), timeout=60)
    korean = (h.NOTEBOOKS / "ko" / "index.ipynb").is_file()
    assert (status, body) == (200, index_html(korean=korean))
    assert "kernelId" not in body
    status, lesson, _ = h.get_once(voila_server.render_url(LESSONS[0].notebook), timeout=120)
    assert status == 200 and "kernelId" in lesson
