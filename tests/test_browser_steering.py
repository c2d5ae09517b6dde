"""Lesson 3 in Voila: the app renders, sliders and presets change its pixels, no error text."""

from __future__ import annotations

import re

import pytest

import browser as h

pytestmark = pytest.mark.browser

NOTEBOOK = "03_spline_steering.ipynb"
#: Each scenario and the moment (s) that shows its character best.
PRESETS = {"Fixed long look-ahead cuts the corner": 4.6, "Fixed short look-ahead twitches": 11.0,
           "Adaptive, Position only: turns in late": 4.6,
           "Position + Heading: parallel but offset": 2.5,
           "All three: back to the centre line": 3.5}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _app_figure(page):
    return page.locator(".jupyter-matplotlib-figure").first


def _show_app(page) -> None:
    """Scroll so the app's figure sits at the top of the 1280x720 viewport."""
    _app_figure(page).evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def _dropdown(page, label: str):
    return page.locator(".widget-dropdown").filter(
        has=page.locator(".widget-label", has_text=label)).locator("select")


def test_lesson_renders_and_reacts(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=1)
    h.assert_no_error_text(page)
    assert page.locator("text=Position Delta").first.is_visible()
    _show_app(page)
    h.screenshot(page, "03_app_initial")

    # keyboard: the speed slider re-simulates and the figure changes
    before = h.canvas_images(page)
    h.move_slider(page, label="Speed", times=6)
    h.wait_for_pixels_change(page, before, figure=0)
    h.wait_idle(page)
    h.assert_no_error_text(page)

    # the time slider scrubs the run
    before = h.canvas_images(page)
    h.move_slider(page, label="Time", key="PageUp", times=3)
    h.wait_for_pixels_change(page, before, figure=0)
    h.assert_no_error_text(page)

    # clicking on the whole-track map puts the car there
    _show_app(page)
    before = h.canvas_images(page)
    box = page.locator(h.FIGURE).first.bounding_box()
    page.mouse.click(box["x"] + 0.25 * box["width"], box["y"] + 0.3 * box["height"])
    h.wait_for_pixels_change(page, before, figure=0)
    h.wait_idle(page)
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_article_scenario_renders(voila_server, page, preset):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=1)
    before = h.canvas_images(page)
    _dropdown(page, "Article scenario").select_option(label=preset)
    if preset != "All three: back to the centre line":  # that one is already showing
        h.wait_for_pixels_change(page, before, figure=0)
    h.wait_idle(page)
    # click the time slider where the scenario shows its character (the runs last 30 s)
    track = page.locator(h.SLIDER).filter(
        has=page.locator(".widget-label", has_text="Time")).locator(".noUi-target").first
    track.scroll_into_view_if_needed()
    box = track.bounding_box()
    before = h.canvas_images(page)
    page.mouse.click(box["x"] + box["width"] * PRESETS[preset] / 30.0,
                     box["y"] + box["height"] / 2)
    h.wait_for_pixels_change(page, before, figure=0)
    h.wait_idle(page)
    _show_app(page)
    page.mouse.move(1275, 715)  # away from the figure, so its toolbar fades out
    page.wait_for_timeout(800)
    h.assert_no_error_text(page)
    h.screenshot(page, f"03_preset_{_slug(preset)}")


def test_exercise_checks_an_answer(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=1)
    box = page.locator(".widget-text input").first
    box.scroll_into_view_if_needed()
    box.fill("5.61")
    box.press("Enter")
    page.wait_for_selector("text=Right!", timeout=10_000)
    h.assert_no_error_text(page)
