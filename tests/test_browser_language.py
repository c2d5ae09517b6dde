"""Issue 44: a page's language from the page. ``?lang=ko`` (or ``en``) on any address opens
the same page in that language, and each translated lesson page has a switch at its top."""

from __future__ import annotations

import re
import urllib.parse

import pytest

from lessons_lib.catalogue import LESSONS
from lessons_lib.i18n import KOREAN_FOLDER
from lessons_server.landing import in_language, page_language

import browser as h
from lessons import KOREAN

pytestmark = pytest.mark.browser
WAIT = 120_000


def test_in_language_pairs_the_two_folders():
    assert in_language("02_x.ipynb", "ko") == f"{KOREAN_FOLDER}/02_x.ipynb"
    assert in_language(f"{KOREAN_FOLDER}/02_x.ipynb", "en") == "02_x.ipynb"
    assert in_language("course/02_x.ipynb", "ko") == f"course/{KOREAN_FOLDER}/02_x.ipynb"
    assert in_language("02_x.ipynb", "en") == "02_x.ipynb"
    assert page_language(f"course/{KOREAN_FOLDER}/index.ipynb") == "ko"
    assert page_language("index.ipynb") == "en"


def test_lang_in_the_address_opens_the_page_in_that_language(voila_server):
    """The index and every lesson that has a Korean notebook, both ways, the query kept;
    an unknown language or a page without a translation is answered as it is."""
    pages = ["index.ipynb", *(lesson.notebook for lesson in KOREAN)]
    for page in pages:
        korean = f"{KOREAN_FOLDER}/{page}"
        status, _, headers = h.get_once(voila_server.render_url(page) + "?lang=ko&present=1")
        assert (status, headers["Location"]) == (
            302, f"/voila/render/{korean}?lang=ko&present=1"), page
        status, _, headers = h.get_once(voila_server.render_url(korean) + "?lang=en")
        assert (status, headers["Location"]) == (302, f"/voila/render/{page}?lang=en"), page
    status, body, _ = h.get_once(voila_server.render_url("index.ipynb") + "?lang=fr")
    assert status == 200 and "<h1>" in body
    status, _, headers = h.get_once(f"{voila_server.url}/{KOREAN[0].number}?lang=ko")
    assert status == 302 and headers["Location"].endswith("?lang=ko"), headers["Location"]
    untranslated = [lesson for lesson in LESSONS if lesson not in KOREAN]
    if untranslated:
        status, _, _ = h.get_once(voila_server.render_url(untranslated[0].notebook)
                                  + "?lang=ko", timeout=120)
        assert status == 200


#: Addresses a student could craft around the language switch and the short routes.
CRAFTED = ["/voila/render/..%2F..%2F..%2Fetc%2Fpasswd?lang=ko",
           "/voila/render/%2E%2E/%2E%2E/etc/passwd?lang=en",
           f"/voila/render/{KOREAN_FOLDER}/..%2F..%2F..%2Fetc%2Fpasswd?lang=en",
           "/voila/render/index.ipynb?lang=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
           "/voila/render/index.ipynb?lang=ko&lang=%2F%2Fevil.example",
           "/voila/render/https:%2F%2Fevil.example%2Fx.ipynb?lang=ko",
           f"/{KOREAN_FOLDER}/..%2F..%2Fetc%2Fpasswd?lang=ko",
           f"/{KOREAN_FOLDER}/%2F%2Fevil.example?lang=en"]


@pytest.mark.parametrize("address", CRAFTED)
def test_a_crafted_language_address_leads_nowhere_outside_the_lessons(voila_server, address):
    """A ``..`` step, another host or a script in the language: refused, or sent to a page
    of this server's lessons; nothing is reflected, nothing outside the folder is read."""
    status, body, headers = h.get_once(voila_server.url + address, timeout=120)
    assert status in (200, 302, 400, 403, 404), (address, status)
    if status == 302:   # where a browser goes next (it removes the ".." steps itself)
        target = urllib.parse.urljoin(voila_server.url + "/", headers["Location"])
        assert target.startswith(voila_server.url + "/"), headers["Location"]
        status, body, _ = h.get_once(target, timeout=120)
        assert status in (403, 404) or urllib.parse.urlsplit(target).path.startswith(
            "/voila/render/"), (address, target, status)
    assert "<script>alert" not in body and "root:x:" not in body


def test_the_switch_at_the_top_goes_to_the_other_language_and_back(voila_server, page):
    lesson = KOREAN[0].notebook
    page.goto(voila_server.render_url(lesson), timeout=WAIT)
    switch = page.locator("#lessons-language")
    switch.wait_for(timeout=WAIT)
    assert switch.inner_text() == "한국어"
    assert switch.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 14
    present = page.locator("#lessons-present-button").bounding_box()
    box = switch.bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (present["y"] + present["height"] / 2)) < 4
    switch.click()
    page.wait_for_url(re.compile(rf"/voila/render/{KOREAN_FOLDER}/{re.escape(lesson)}\?lang=ko$"),
                      timeout=WAIT)
    page.wait_for_selector(h.FIGURE, timeout=WAIT)
    assert page.evaluate("document.documentElement.lang") == "ko"
    h.screenshot(page, "ko_language_switch")
    back = page.locator("#lessons-language")
    assert back.inner_text() == "English"
    back.click()
    page.wait_for_url(re.compile(rf"/voila/render/{re.escape(lesson)}\?lang=en$"), timeout=WAIT)
    page.wait_for_selector(h.FIGURE, timeout=WAIT)
    assert page.evaluate("document.documentElement.lang") != "ko"
    h.assert_no_error_text(page)
