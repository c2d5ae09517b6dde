"""The Korean index and the Korean lesson 1 in Voila at 1280x720 show no English.

Each state a learner reaches is read: the page as opened, after each of the app's primary
controls moves, with "More controls" open, locked by "Lock it", after one wrong answer and
one hint. Its visible text (code blocks and typeset maths left out) must hold no run of Latin
letters outside tests/latin.py's allow-list. Screenshots (tests/screenshots/ko_*.png) are
kept for a person to look at: tofu (a box for a missing Hangul glyph) shows only there."""

from __future__ import annotations

import pytest
from latin import english_on

from lessons_lib.i18n import translations

import browser as h
from lessons import KOREAN_INDEX, korean_notebook

pytestmark = pytest.mark.browser

#: Lesson 1's Korean notebook (this file is lesson 1's: its app module is ``gimbal``).
NOTEBOOK = korean_notebook("gimbal")
MAIN_APP = ".gimbal-app-main"
WAIT = 120_000
ko = translations("ko").gettext

def test_the_check_finds_english_on_a_page(voila_server, page):
    """The walk reads what is on screen: an English sentence on the Korean index is found."""
    page.goto(voila_server.render_url(KOREAN_INDEX), timeout=WAIT)
    page.wait_for_selector("h1", timeout=WAIT)
    page.evaluate("() => { const p = document.createElement('p');"
                  " p.textContent = 'Drag the slider'; document.body.prepend(p); }")
    assert english_on(page, "index")


def test_korean_index_shows_no_english(voila_server, page):
    page.goto(voila_server.render_url(KOREAN_INDEX), timeout=WAIT)
    page.wait_for_selector("h1", timeout=WAIT)
    page.wait_for_timeout(500)
    h.screenshot(page, "ko_index")
    assert english_on(page, "index") == []
    assert not page.console_errors, page.console_errors


@pytest.mark.slow
def test_korean_lesson_1_shows_no_english_in_any_state(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=5)
    h.assert_no_error_text(page)
    found = english_on(page, "opened")
    page.evaluate("() => window.scrollTo(0, 0)")
    h.screenshot(page, "ko_01_top")

    app = page.locator(MAIN_APP).first
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    sliders = app.locator(".widget-slider >> visible=true")
    for index in range(sliders.count()):     # each visible angle slider: three steps
        before = h.canvas_images(page)
        sliders.nth(index).locator(".ui-slider-handle, .noUi-handle").first.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
        found += english_on(page, f"slider {index} moved")
    order = app.locator(".widget-dropdown select").first
    options = order.locator("option").all_inner_texts()
    order.select_option(label=options[1])
    page.wait_for_timeout(1500)
    found += english_on(page, "order changed")
    order.select_option(label=options[0])
    more = app.get_by_role("button", name=ko("More controls"))
    if more.count():
        more.first.click()
        page.wait_for_timeout(800)
        found += english_on(page, "more controls open")
    app.get_by_role("button", name=ko("Reset")).click()
    page.wait_for_timeout(1500)
    app.get_by_role("button", name=ko("Lock it")).click()
    page.wait_for_function(
        "(sel) => { const b = document.querySelector(sel + ' .gimbal-badge');"
        " return b && b.classList.contains('gimbal-badge-locked'); }",
        arg=MAIN_APP, timeout=WAIT)
    h.wait_idle(page, quiet_ms=800, timeout=30)
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    h.screenshot(page, "ko_01_app_locked")
    found += english_on(page, "locked")

    # the first exercise: a wrong answer, Check, then Hint
    prompt = ko("A pitch of +30° is Rx(30°). It takes the nose, (0, 0, 1), to a new direction. "
                "What is the y coordinate (up) of the nose afterwards?")
    box = page.locator(".widget-vbox", has_text=prompt[:20]).filter(
        has=page.locator("input")).last
    box.locator("input").first.fill("0.5")
    box.get_by_role("button", name=ko("Check")).click()
    verdict = ko("Not quite: {number} is too high. Try again, or ask for a hint.")
    box.get_by_text(verdict.split("{")[0].strip()).first.wait_for(timeout=WAIT)
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    h.screenshot(page, "ko_01_exercise_feedback")
    found += english_on(page, "exercise answered wrong")
    box.get_by_role("button", name=ko("Hint")).click()
    box.get_by_text(ko("Hint")).nth(1).wait_for(timeout=WAIT)    # the button, then the hint
    h.screenshot(page, "ko_01_exercise_hint")
    found += english_on(page, "hint shown")
    h.assert_no_error_text(page)
    assert not found, f"{len(found)} English runs on the Korean page:\n" + "\n".join(found)
