"""Lesson 1 in Voila and Chromium at 1280x720: it renders, the keyboard moves the pitch ring,
"Lock it" shows the lock, the order dropdown re-nests the rings, no error text anywhere."""

from __future__ import annotations

import pytest

import browser as h

pytestmark = pytest.mark.browser

NOTEBOOK = "01_gimbal_lock.ipynb"


def show_app(page) -> None:
    """Scroll so that the app (title line, figure and side panel) starts at the top."""
    page.evaluate("""() => document.querySelector('.jupyter-matplotlib-figure')
                        .closest('.widget-hbox').scrollIntoView({block: 'start'})""")
    page.wait_for_timeout(300)


def slider_labels(page) -> list[str]:
    return page.locator(".widget-slider .widget-label").all_inner_texts()


def test_gimbal_lesson_in_the_browser(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    h.assert_no_error_text(page)
    assert page.locator(".jupyter-matplotlib-figure").count() == 1  # shown once, not twice
    assert slider_labels(page)[:3] == ["yaw (Y)", "pitch (X)", "roll (Z)"]
    show_app(page)
    h.screenshot(page, "01_gimbal_lock")

    # the pitch slider from the keyboard: three steps of 1 degree
    before = h.canvas_images(page)
    h.move_slider(page, label="pitch (X)", key="ArrowRight", times=3)
    h.wait_for_pixels_change(page, before)
    # (the readout writes a typographic minus sign, U+2212)
    page.wait_for_function(
        """() => [...document.querySelectorAll('.widget-slider')].some(s =>
               s.innerText.includes('pitch (X)') && /[-\u2212]17/.test(s.innerText))""",
        timeout=15_000)
    h.assert_no_error_text(page)

    # Lock it: the LOCKED badge and the banner appear, the picture changes
    before = h.canvas_images(page)
    page.get_by_role("button", name="Lock it").click()
    h.wait_for_pixels_change(page, before)
    page.wait_for_selector("text=GIMBAL LOCK", timeout=15_000)
    page.wait_for_selector(".gimbal-badge:has-text('LOCKED')", timeout=15_000)
    page.wait_for_selector("text=the same motion", timeout=15_000)
    h.wait_idle(page)
    show_app(page)
    h.screenshot(page, "01_gimbal_lock_locked")
    h.assert_no_error_text(page)

    # another order re-nests the rings: roll outside, pitch in the middle, yaw inside
    before = h.canvas_images(page)
    page.locator(".widget-dropdown select").first.select_option(label="ZXY: roll > pitch > yaw")
    h.wait_for_pixels_change(page, before)
    page.wait_for_function(
        """() => { const l = [...document.querySelectorAll('.widget-slider .widget-label')]
                     .map(e => e.innerText); return l[0] === 'roll (Z)'; }""",
        timeout=15_000)
    assert slider_labels(page)[:3] == ["roll (Z)", "pitch (X)", "yaw (Y)"]
    h.wait_idle(page)
    show_app(page)
    h.screenshot(page, "01_gimbal_lock_zxy")
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def test_the_view_orbits_with_the_mouse_and_the_view_buttons(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    show_app(page)
    canvas = page.locator(h.FIGURE).first
    box = canvas.bounding_box()
    x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5
    before = h.canvas_images(page)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(x + 15 * step, y + 4 * step)
    page.mouse.up()
    h.wait_for_pixels_change(page, before)
    before = h.canvas_images(page)
    page.get_by_role("button", name="top", exact=True).click()
    h.wait_for_pixels_change(page, before)
    h.wait_idle(page)
    h.screenshot(page, "01_gimbal_lock_top")
    h.assert_no_error_text(page)


def test_an_exercise_checks_its_answer_in_voila(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    box = page.locator(".widget-vbox", has_text="Row 2, column 3 of Rx")
    box.locator("input").fill("0.5")
    box.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=Not quite", timeout=15_000)
    box.get_by_role("button", name="Hint").click()
    page.wait_for_selector("text=sin 30° = 1/2", timeout=15_000)
    box.locator("input").fill("-0.5")
    box.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=Right!", timeout=15_000)
    h.assert_no_error_text(page)
