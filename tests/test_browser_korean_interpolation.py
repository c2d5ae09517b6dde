"""The Korean lesson 2 in Voila at 1280x720 shows no English in any state a learner reaches.

Each state is read: the page as opened, after t and each angle slider move, each preset, the
two toggles, "More controls" open with the up-vector paths, Play then Pause, one wrong answer
to exercise 1 and its hint. Its visible text (code blocks and typeset maths left out) must
hold no run of Latin letters outside tests/latin.py's allow-list. Screenshots
(tests/screenshots/ko_02_*.png) are kept for a person to look at: tofu (a box for a missing
Hangul glyph) and clipped Hangul labels show only there."""

from __future__ import annotations

import pytest
from latin import english_on

from lessons_lib.apps.interpolation.model import PRESETS
from lessons_lib.i18n import translations

import browser as h
from lessons import korean_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]   # make test-slow: a long walk

#: Lesson 2's Korean notebook (this file is lesson 2's: its app module is ``interpolation``).
NOTEBOOK = korean_notebook("interpolation")
MAIN_APP = ".interpolation-app"
WAIT = 120_000
ko = translations("ko").gettext


def _app_to_top(page, app) -> None:
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def _redrawn(page, act, what: str) -> list[str]:
    """Do ``act``, wait for the figure to change and the page to settle; the English then."""
    before = h.canvas_images(page)
    act()
    h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
    h.wait_idle(page, quiet_ms=600, timeout=30)
    return english_on(page, what)


def test_korean_lesson_2_shows_no_english_in_any_state(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=2)
    h.assert_no_error_text(page)
    found = english_on(page, "opened")
    page.evaluate("() => window.scrollTo(0, 0)")
    h.screenshot(page, "ko_02_top")

    app = page.locator(MAIN_APP).first
    _app_to_top(page, app)
    sliders = app.locator(".widget-slider >> visible=true")
    assert sliders.count() >= 7, "t and six angle sliders"
    for index in range(sliders.count()):     # t, then each angle: three steps
        handle = sliders.nth(index).locator(".ui-slider-handle, .noUi-handle").first

        def press(handle=handle):
            handle.focus()
            for _ in range(3):
                page.keyboard.press("ArrowLeft")
        found += _redrawn(page, press, f"slider {index} moved")
        if index == 1:
            _app_to_top(page, app)
            h.screenshot(page, "ko_02_app_after_control")

    menu = app.locator(".widget-dropdown select").first
    labels = [o.replace("\u00a0", " ")        # ipywidgets shows spaces as no-break spaces
              for o in menu.evaluate("s => Array.from(s.options).map(o => o.text)")]
    for name in PRESETS:
        index = labels.index(ko(name))
        found += _redrawn(page, lambda index=index: menu.select_option(index=index),
                          f"preset {name!r}")
        if name.startswith("End at gimbal lock"):
            _app_to_top(page, app)
            h.screenshot(page, "ko_02_preset")
    wrap = labels.index(ko(next(iter(PRESETS))))   # the wrap-around: both toggles show
    found += _redrawn(page, lambda: menu.select_option(index=wrap), "wrap-around again")
    for label in ("take the long way", "wrap Euler angles"):
        box = app.get_by_label(ko(label)).first
        found += _redrawn(page, box.check, f"{label} ticked")
    more = app.get_by_role("button", name=ko("More controls"))
    more.first.click()
    page.wait_for_timeout(800)
    found += english_on(page, "more controls open")
    found += _redrawn(page, app.get_by_label(ko("up-vector paths")).first.check,
                      "up-vector paths ticked")
    _app_to_top(page, app)
    h.screenshot(page, "ko_02_more_controls")

    found += _redrawn(page, app.get_by_role("button", name=ko("Start")).first.click,
                      "back to the start")
    play = app.get_by_role("button", name=ko("Play"))
    found += _redrawn(page, play.first.click, "playing")
    pause = app.get_by_role("button", name=ko("Pause"))
    if pause.count():                     # a 4-s blend may have ended by now
        found += english_on(page, "playing")
        pause.first.click()
    h.wait_idle(page, quiet_ms=600, timeout=30)
    found += english_on(page, "paused or ended")

    # exercise 1: a wrong answer (the short way's 90°, a known mistake), Check, then Hint
    prompt = ko("Yaw goes from −150° to 120° by plain Euler lerp. How many degrees does the "
                "aeroplane turn?")
    box = page.locator(".widget-vbox", has_text=prompt[:20]).filter(
        has=page.locator("input")).last
    box.locator("input").first.fill("90")
    box.get_by_role("button", name=ko("Check")).click()
    why = ko("90° is the short way round, what wrapped Euler angles (and slerp) turn. "
             "Plain lerp does not wrap.")
    box.get_by_text(why[:15]).first.wait_for(timeout=WAIT)
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    h.screenshot(page, "ko_02_exercise_feedback")
    found += english_on(page, "exercise answered wrong")
    box.get_by_role("button", name=ko("Hint")).click()
    box.get_by_text(ko("Hint")).nth(1).wait_for(timeout=WAIT)    # the button, then the hint
    h.screenshot(page, "ko_02_exercise_hint")
    found += english_on(page, "hint shown")
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors
    assert not found, f"{len(found)} English runs on the Korean page:\n" + "\n".join(found)
