"""The Korean lesson 3 in Voila at 1280x720 shows no English in any state a learner reaches.

Each state is read: the page as opened (its tables, figures and questions), after each of
the main app's primary sliders moves, each of its toggles and buttons (the three terms, the
controllers, the lower plots), each preset, "More controls" open, Play, one wrong answer
with its Check and one Hint (exercise 1), and the tuning exercise's Check and Hint. The
visible text (code blocks and typeset maths left out) must hold no run of Latin letters
outside tests/latin.py's allow-list. Screenshots (tests/screenshots/ko_03_*.png) are kept
for a person to look at: tofu and clipped Hangul show only there."""

from __future__ import annotations

import pytest
from latin import english_on

from lessons_lib.apps.steering.model import SCENARIOS
from lessons_lib.i18n import translations

import browser as h
from lessons import korean_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]   # make test-slow: a long walk

#: Lesson 3's Korean notebook (this file is lesson 3's: its app module is ``steering``).
NOTEBOOK = korean_notebook("steering")
MAIN_APP = ".steering-app"
WAIT = 120_000
ko = translations("ko").gettext


def _settle(page) -> None:
    """Wait for the kernel's answer to be drawn (a run is re-simulated on a change)."""
    page.wait_for_timeout(600)
    h.wait_idle(page, quiet_ms=600, timeout=30)


def test_korean_lesson_3_shows_no_english_in_any_state(voila_server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    h.open_lesson(page, voila_server, NOTEBOOK, figures=4)
    h.assert_no_error_text(page)
    found = english_on(page, "opened")
    page.evaluate("() => window.scrollTo(0, 0)")
    h.screenshot(page, "ko_03_top")

    app = page.locator(MAIN_APP).first
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    sliders = app.locator(".widget-slider >> visible=true")
    for index in range(sliders.count()):     # each visible slider (time, speed, start): 3 steps
        before = h.canvas_images(page)
        sliders.nth(index).locator(".ui-slider-handle, .noUi-handle").first.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
        _settle(page)
        found += english_on(page, f"slider {index} moved")
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    h.screenshot(page, "ko_03_app_control")

    for term in ("Position Delta", "Heading Delta", "Crosstrack"):    # each term off, on
        box = app.locator(".widget-checkbox", has_text=ko(term)).first
        for state in ("off", "on"):
            box.locator("input").click()
            _settle(page)
            found += english_on(page, f"{term} {state}")
    for name in ("Pure pursuit", "Stanley", "Article"):
        app.locator(".widget-toggle-buttons button", has_text=ko(name)).first.click()
        _settle(page)
        found += english_on(page, f"controller {name}")
    for name in ("Speed sweep", "Phase portrait", "Terms"):
        app.locator(".widget-toggle-buttons button", has_text=ko(name)).first.click()
        _settle(page)
        found += english_on(page, f"lower plot {name}")

    menu = app.locator(".widget-dropdown").filter(
        has=page.locator(".widget-label", has_text=ko("preset"))).first.locator("select")
    assert menu.locator("option").count() > 2, "the preset menu"
    # the page writes an option's spaces as no-break spaces
    labels = {t.strip().replace("\xa0", " "): t for t in
              menu.locator("option").all_text_contents()}
    presets = [ko(name) for name in (sc.name for sc in SCENARIOS)]
    assert set(presets) <= set(labels), (presets, list(labels))
    for label in presets:
        menu.select_option(label=labels[label])
        _settle(page)
        found += english_on(page, f"preset {label}")
        if label == ko("Slope: world up vs projected up"):
            app.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            h.screenshot(page, "ko_03_preset_slope")
        elif label == ko("Fixed short look-ahead weaves at 16 m/s"):
            app.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            h.screenshot(page, "ko_03_preset_sweep")
    menu.select_option(label=ko("All three: back to the centre line"))
    _settle(page)

    more = app.get_by_role("button", name=ko("More controls"))
    assert more.count(), "the app has a 'More controls' disclosure"
    more.first.click()
    page.wait_for_timeout(800)
    found += english_on(page, "more controls open")
    h.screenshot(page, "ko_03_more_controls")
    play = app.get_by_role("button", name=ko("Play")).first
    play.click()
    page.wait_for_timeout(1500)
    found += english_on(page, "playing")
    app.get_by_role("button", name=ko("Pause")).first.click()
    _settle(page)
    found += english_on(page, "paused")

    # exercise 1: a known wrong answer, Check, then Hint
    box = page.locator(".lesson-question", has_text="전방 주시 거리는 몇 m").first
    box.locator("input").first.fill("6.6")
    box.get_by_role("button", name=ko("Check")).click()
    why = ko("That is the distance on a straight: the bend still shrinks it.")
    box.get_by_text(why[:12]).first.wait_for(timeout=WAIT)
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    h.screenshot(page, "ko_03_exercise_feedback")
    found += english_on(page, "exercise 1 answered wrong")
    box.get_by_role("button", name=ko("Hint")).click()
    hint = ko("Two steps. First the distance on a straight: base plus speed times factor. "
              "Then the bend: its curvature is 1 / radius; times 3 and clamped to [0, 1] it "
              "says how far the scale has moved from 1 towards 0.5.")
    box.get_by_text(hint[:10]).first.wait_for(timeout=WAIT)
    h.screenshot(page, "ko_03_exercise_hint")
    found += english_on(page, "exercise 1 hint")

    # the tuning exercise: Check (the badly tuned start fails), then its first hint
    tuning = page.locator(".tuning-challenge").first
    tuning.evaluate("e => e.scrollIntoView({block: 'start'})")
    tuning.get_by_role("button", name=ko("Check")).click()
    tuning.get_by_text(ko("Not yet.")).first.wait_for(timeout=WAIT)
    _settle(page)
    found += english_on(page, "tuning checked")
    tuning.get_by_role("button", name=ko("Hint")).click()
    tuning.get_by_text("힌트 1/").first.wait_for(timeout=WAIT)
    h.screenshot(page, "ko_03_tuning_hint")
    found += english_on(page, "tuning hint")
    h.assert_no_error_text(page)
    assert not found, f"{len(found)} English runs on the Korean page:\n" + "\n".join(found)
