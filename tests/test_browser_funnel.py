"""Lesson 4 in Voila through Chromium: both apps render and answer the keyboard and mouse."""

from __future__ import annotations

import pytest

import browser as h

pytestmark = pytest.mark.browser

NOTEBOOK = "04_funnel_algorithm.ipynb"
GRID, FUNNEL = 0, 1  # figure order on the page


def _canvas(page, figure: int):
    """The main canvas of figure ``figure`` (each figure also has an overlay canvas)."""
    return page.locator(".jupyter-matplotlib-figure").nth(figure).locator("canvas").first


def _show(page, figure: int) -> None:
    """Scroll so that the app holding figure ``figure`` sits at the top of the viewport."""
    page.locator(".jupyter-matplotlib-figure").nth(figure).evaluate(
        "el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def test_lesson_renders_and_the_funnel_steps(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=4)
    h.assert_no_error_text(page)
    h.screenshot(page, "04_top")

    # -- funnel app: step back with the keyboard, pixels change
    _show(page, FUNNEL)
    before = h.canvas_images(page)
    h.move_slider(page, label="step", key="ArrowLeft", times=3)
    after = h.wait_for_pixels_change(page, before, figure=FUNNEL)
    page.wait_for_selector("text=Step 27 of 30", timeout=15_000)
    # the step buttons work too
    page.locator("button[title='back to the first step']").click()
    page.wait_for_selector("text=Step 0 of 30", timeout=15_000)
    after = h.wait_for_pixels_change(page, after, figure=FUNNEL)
    page.locator("button[title='jump to the finished path']").click()
    page.wait_for_selector("text=Step 30 of 30", timeout=15_000)
    h.wait_for_pixels_change(page, after, figure=FUNNEL)
    _show(page, FUNNEL)
    h.wait_idle(page)
    h.screenshot(page, "04_funnel_app")
    # a step in the middle of the walk: the funnel is open, portal 9 is being tested
    before = h.canvas_images(page)
    h.move_slider(page, label="step", key="Home")
    h.move_slider(page, label="step", key="ArrowRight", times=10)
    page.wait_for_selector("text=Step 10 of 30", timeout=15_000)
    h.wait_for_pixels_change(page, before, figure=FUNNEL)
    h.wait_idle(page)
    h.screenshot(page, "04_funnel_step")

    # -- agent radius: shrunk portals and the measured clearance appear
    before = h.canvas_images(page)
    h.move_slider(page, label="agent radius", key="ArrowRight", times=6)
    h.wait_for_pixels_change(page, before, figure=FUNNEL)
    page.wait_for_selector("text=measured clearance from the walls", timeout=15_000)
    page.wait_for_selector("text=(radius 0.30 m)", timeout=15_000)
    h.wait_idle(page)
    h.screenshot(page, "04_funnel_radius")
    h.assert_no_error_text(page)

    # -- too wide an agent: a message, not a traceback
    h.move_slider(page, label="agent radius", key="ArrowRight", times=10)
    page.wait_for_selector("text=cannot pass", timeout=15_000)
    h.assert_no_error_text(page)
    h.move_slider(page, label="agent radius", key="Home")

    # -- click on the map moves the goal (a mouse event to the kernel and back)
    before = h.canvas_images(page)
    box = _canvas(page, FUNNEL).bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.9)
    h.wait_for_pixels_change(page, before, figure=FUNNEL)
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def _page_point(page, figure: int, app, x: float, y: float) -> tuple[float, float]:
    """Where map point (x, y) is on the page, using a headless twin of the app's figure."""
    box = _canvas(page, figure).bounding_box()
    px, py = app.ax.transData.transform((x, y))
    width, height = app.fig.get_figwidth() * app.fig.dpi, app.fig.get_figheight() * app.fig.dpi
    return (box["x"] + px / width * box["width"],
            box["y"] + (height - py) / height * box["height"])


def test_dragging_the_goal_reruns_corridor_and_funnel(voila_server, page):
    from lessons_lib.apps.funnel import DEFAULT_GOAL, FunnelApp

    twin = FunnelApp()  # same figure layout as the page's, to find pixels of map points
    h.open_lesson(page, voila_server, NOTEBOOK, figures=4)
    _show(page, FUNNEL)
    h.wait_idle(page)
    lengths_before = page.locator("text=saved 18.9%").count()
    assert lengths_before == 1
    _show(page, FUNNEL)
    before = h.canvas_images(page)
    gx, gy = _page_point(page, FUNNEL, twin, *DEFAULT_GOAL)
    tx, ty = _page_point(page, FUNNEL, twin, 14.5, 1.0)
    page.mouse.move(gx, gy)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(gx + (tx - gx) * k / 8, gy + (ty - gy) * k / 8)
        page.wait_for_timeout(60)
    page.mouse.up()
    h.wait_for_pixels_change(page, before, figure=FUNNEL)
    page.wait_for_function(
        "() => !document.body.innerText.includes('saved 18.9%')", timeout=15_000)
    h.wait_idle(page)
    h.screenshot(page, "04_funnel_dragged")
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def test_grid_app_shows_the_sight_trap(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=4)
    _show(page, GRID)
    h.wait_idle(page)
    h.screenshot(page, "04_grid_app")
    before = h.canvas_images(page)
    page.locator("select").first.select_option(label="ignores corner touches")
    h.wait_for_pixels_change(page, before, figure=GRID)
    page.wait_for_selector("text=the unit gets stuck there", timeout=15_000)
    h.wait_idle(page)
    h.screenshot(page, "04_grid_trap")
    h.assert_no_error_text(page)
    # the two static pictures further down: the cost plot and the Catmull-Rom curve
    for figure, name in ((2, "04_cost_plot"), (3, "04_curve_plot")):
        _show(page, figure)
        h.screenshot(page, name)
    assert not page.console_errors, page.console_errors
