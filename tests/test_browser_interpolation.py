"""Lesson 2 in Voila at 1280x720: it renders, t and the angle sliders move the figure from the
keyboard, presets and toggles redraw it, an exercise answers, and no error text shows."""

from __future__ import annotations

import re

import pytest

import browser as h

pytestmark = pytest.mark.browser

NOTEBOOK = "02_euler_vs_slerp.ipynb"
PRESETS = ["Wrap-around", "Wide three-axis turn", "End at gimbal lock", "Article", "One axis"]


def _app_to_top(page) -> None:
    """Scroll so that the app (its control row, then the figure) starts at the top."""
    page.evaluate("""() => {
        const fig = document.querySelector('.jupyter-matplotlib-figure');
        let box = fig;
        while (box && !box.querySelector('.widget-dropdown')) box = box.parentElement;
        (box || fig).scrollIntoView({block: 'start'});
        window.scrollBy(0, -8);
    }""")
    page.wait_for_timeout(300)


def _choose_preset(page, start: str) -> None:
    select = page.locator(".widget-dropdown select").first
    options = select.evaluate("s => Array.from(s.options).map(o => o.text)")
    # ipywidgets shows spaces in option labels as no-break spaces
    index = next(i for i, o in enumerate(options) if o.replace("\u00a0", " ").startswith(start))
    select.select_option(index=index)


def test_lesson_renders_and_responds(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    h.assert_no_error_text(page)
    _app_to_top(page)
    h.screenshot(page, "02_euler_vs_slerp-start")

    # t, from the keyboard: the first slider on the page
    before = h.canvas_images(page)
    h.move_slider(page, index=0, key="ArrowRight", times=10)
    h.wait_for_pixels_change(page, before, figure=0)
    h.assert_no_error_text(page)

    # the start yaw slider (second slider), from the keyboard
    before = h.canvas_images(page)
    h.move_slider(page, index=1, key="ArrowLeft", times=15)
    h.wait_for_pixels_change(page, before, figure=0)
    assert page.locator(".widget-dropdown select").first.input_value() == "(your own angles)"

    # every preset redraws; keep a screenshot of each for a person to look at
    for name in PRESETS:
        before = h.canvas_images(page)
        _choose_preset(page, name)
        h.wait_for_pixels_change(page, before, figure=0)
        h.wait_idle(page)
        _app_to_top(page)
        slug = re.sub(r"[^a-z]+", "-", name.lower()).strip("-")
        h.screenshot(page, f"02_euler_vs_slerp-{slug}")
        h.assert_no_error_text(page)

    # the long-way toggle changes the drawing and the q0 . q1 readout
    _choose_preset(page, "Wrap-around")
    h.wait_idle(page)
    before = h.canvas_images(page)
    page.locator(".widget-checkbox", has_text="take the long way").locator("input").click()
    h.wait_for_pixels_change(page, before, figure=0)
    page.wait_for_selector("text=long way: blends to", timeout=15_000)
    h.wait_idle(page)
    _app_to_top(page)
    h.screenshot(page, "02_euler_vs_slerp-long-way")
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def test_play_animates_and_stops(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    _app_to_top(page)
    play = page.locator(".widget-play button").first
    play.click()
    frames = [h.canvas_images(page)[0]]
    for _ in range(3):                                   # several new frames while playing
        frames.append(h.wait_for_pixels_change(page, [frames[-1]], figure=0)[0])
    assert len(set(frames)) == 4
    page.locator(".widget-play button").nth(1).click()   # stop (play/pause, stop, repeat)
    h.wait_idle(page, quiet_ms=1500, timeout=30)         # a loaded machine may lag a frame
    still = h.canvas_images(page)[0]
    page.wait_for_timeout(600)                           # 10 frame intervals: nothing moves
    assert h.canvas_images(page)[0] == still
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def test_an_exercise_checks_an_answer(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    box = page.locator(".widget-vbox", has_text="How many degrees does the aeroplane turn")
    box = box.last
    box.locator("input").fill("10")
    box.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=too low", timeout=15_000)
    box.locator("input").fill("350")
    box.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=Right!", timeout=15_000)
    h.assert_no_error_text(page)


def test_renders_on_a_hidpi_screen(voila_server, chromium):
    """At device pixel ratio 2 ipympl doubles the figure's dpi: the cached static layer
    must be rebuilt at the new size, not pasted at the old one."""
    context = chromium.new_context(viewport=h.VIEWPORT, device_scale_factor=2)
    page = context.new_page()
    try:
        h.open_lesson(page, voila_server, NOTEBOOK)
        _app_to_top(page)
        size = page.evaluate("""() => { const c = document.querySelector(
            '.jupyter-matplotlib-figure canvas'); return [c.width, c.height]; }""")
        assert size[0] >= 2 * 900, size                  # drawn at twice the pixels
        before = h.canvas_images(page)
        h.move_slider(page, index=0, key="ArrowLeft", times=20)
        h.wait_for_pixels_change(page, before, figure=0)
        h.wait_idle(page)
        h.screenshot(page, "02_euler_vs_slerp-hidpi")
        h.assert_no_error_text(page)
    finally:
        context.close()
