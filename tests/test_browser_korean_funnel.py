"""The Korean lesson 4 in Voila at 1280x720 shows no English in any state a learner reaches.

The walk: the page as opened; the funnel app after its radius slider moves, after each way
of keeping the radius and each corridor; every preset; "More controls" open; Start, one step,
Play and finish; the grid app's movement and sight rules; one question answered wrong and its
hint. After each, the visible text (code blocks and typeset maths left out) must hold no run
of Latin letters outside tests/latin.py's allow-list. Screenshots tests/screenshots/ko_04_*.png
are kept for a person to look at (tofu and clipped Hangul show only there)."""

from __future__ import annotations

import pytest
from latin import english_on

from lessons_lib.i18n import translations

import browser as h
from lessons import korean_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]   # make test-slow: a long walk

#: Lesson 4's Korean notebook (this file is lesson 4's: its app module is ``funnel``).
NOTEBOOK = korean_notebook("funnel")
GRID, FUNNEL = 0, 1     # figure order on the page
FIGURES = 8
MAIN = ".funnel-app-main"
WAIT = 120_000
ko = translations("ko").gettext


def _select_with(app, option: str):
    """The drop-down of ``app`` that offers ``option`` (a Korean label no other menu's
    option holds: "포털 줄이기" is a method and part of a preset's name too)."""
    return app.locator("select", has=app.page.locator("option", has_text=option)).first


def _settle(page) -> None:
    h.wait_idle(page, quiet_ms=600, timeout=30)


def test_korean_lesson_4_shows_no_english_in_any_state(voila_server, page):
    from lessons_lib.apps.funnel.app import PRESETS, FunnelApp
    from lessons_lib.apps.funnel.model import CORRIDORS, METHODS, SIGHT_RULES

    h.open_lesson(page, voila_server, NOTEBOOK, figures=FIGURES)
    h.assert_no_error_text(page)
    found = english_on(page, "opened")
    page.evaluate("() => window.scrollTo(0, 0)")
    h.screenshot(page, "ko_04_top")

    app = page.locator(MAIN).first
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    before = h.canvas_images(page)
    h.move_slider(page, label=ko("agent radius"), times=4)
    h.wait_for_pixels_change(page, before, figure=FUNNEL, timeout=WAIT / 1000)
    _settle(page)
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    h.screenshot(page, "ko_04_app_radius")
    found += english_on(page, "radius moved")
    method = _select_with(app, ko(METHODS[2][0]))
    for label, _value in (*METHODS[1:], METHODS[0]):
        method.select_option(label=ko(label))
        page.wait_for_timeout(1200)
        found += english_on(page, f"radius by {label}")
    corridor = _select_with(app, ko(CORRIDORS[1][0]))
    corridor.select_option(label=ko(CORRIDORS[1][0]))
    page.wait_for_timeout(1200)
    found += english_on(page, "the corridor holding the shortest path")

    menu = _select_with(app, ko(PRESETS[-1].name))
    for preset in PRESETS:
        before = h.canvas_images(page)
        menu.select_option(label=ko(preset.name))
        page.wait_for_timeout(1500)
        _settle(page)
        found += english_on(page, f"preset {preset.name!r}")
        if preset is PRESETS[-2]:       # the door: the readouts say it is impassable
            app.evaluate("e => e.scrollIntoView({block: 'start'})")
            h.screenshot(page, "ko_04_preset_door")
    menu.select_option(label=ko(PRESETS[0].name))
    _settle(page)

    more = app.get_by_role("button", name=ko("More controls"))
    if more.count():
        more.first.click()
        page.wait_for_timeout(800)
        found += english_on(page, "more controls open")
    n = FunnelApp().state.n_beats - 1     # the step slider counts beats
    app.locator(f"button[title='{ko('pause and go back to the start')}']").first.click()
    page.wait_for_selector(f"{MAIN} >> text={ko('Step {b} of {n}').format(b=0, n=n)}",
                           timeout=WAIT)
    found += english_on(page, "at the start")
    for _ in range(6):      # to the step that sees the first crossing (dark red ray)
        app.locator(f"button[title='{ko('next step')}']").click()
        page.wait_for_timeout(400)
    page.wait_for_selector(f"{MAIN} >> text={ko('Step {b} of {n}').format(b=6, n=n)}",
                           timeout=WAIT)
    _settle(page)
    app.evaluate("e => e.scrollIntoView({block: 'start'})")
    h.screenshot(page, "ko_04_app_step")
    found += english_on(page, "a corner's crossing")
    app.get_by_role("button", name=ko("Play")).first.click()
    page.wait_for_timeout(2500)
    found += english_on(page, "playing")
    app.locator(f"button[title='{ko('jump to the finished path')}']").click()
    page.wait_for_selector(f"{MAIN} >> text={ko('Step {b} of {n}').format(b=n, n=n)}",
                           timeout=WAIT)
    found += english_on(page, "finished")

    grid = page.locator(".grid-app").first
    grid.evaluate("e => e.scrollIntoView({block: 'start'})")
    grid.get_by_text(ko("A* may cut corners (step past a wall corner)")).click()
    page.wait_for_timeout(1200)
    found += english_on(page, "A* cuts corners")
    _select_with(grid, ko(SIGHT_RULES[1][0])).select_option(label=ko(SIGHT_RULES[1][0]))
    page.wait_for_timeout(1200)
    found += english_on(page, "the careless sight rule")

    # exercise 4: a wrong count, Check, then Hint
    prompt = ko("Predict before you look: going from the lower left corner of the map (1.2, "
                "1.0) to the upper right (14.8, 9.0), how many times does the funnel path "
                "bend? (Start and goal do not count.)")
    box = page.locator(".lesson-question", has_text=prompt[:20]).last
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    box.locator("input").first.fill("7")
    box.get_by_role("button", name=ko("Check")).click()
    verdict = ko("Not quite: {number} is too high. Try again, or ask for a hint.")
    box.get_by_text(verdict.split("{")[0].strip()).first.wait_for(timeout=WAIT)
    page.wait_for_timeout(300)
    h.screenshot(page, "ko_04_exercise_feedback")
    found += english_on(page, "exercise answered wrong")
    box.get_by_role("button", name=ko("Hint")).click()
    box.get_by_text(ko("Hint:")).first.wait_for(timeout=WAIT)
    page.wait_for_timeout(300)
    h.screenshot(page, "ko_04_exercise_hint")
    found += english_on(page, "hint shown")
    box.get_by_role("button", name=ko("Show this case")).click()
    page.wait_for_timeout(2000)
    _settle(page)
    h.screenshot(page, "ko_04_exercise_case")
    found += english_on(page, "the question's case shown")
    h.assert_no_error_text(page)
    assert not found, f"{len(found)} English runs on the Korean page:\n" + "\n".join(found)
