"""Drags drawn by the page (issue 43) in Voila: while the mouse drags lesson 1's aircraft or
lesson 4's goal, the page's overlay draws each move the kernel records (the kernel sends no
new figure meanwhile); after the release the overlay goes and the kernel's figure is what
the overlay last drew (within the browser's own text and anti-aliasing)."""

from __future__ import annotations

import re

import pytest
from test_browser_gimbal import slider_value
from test_browser_motion import COMPARE, LOUD_SHARE, OVERLAY

from lessons_lib.apps import fastdraw
from lessons_lib.catalogue import LESSONS

import browser as h

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")]


ANGLE_SLIDERS = ("yaw (Y)", "pitch (X)", "roll (Z)")


def notebook_of(app_name: str) -> str:
    return next(lesson.notebook for lesson in LESSONS
                if any(name == app_name for name, _ in lesson.apps))


def painted(page, overlay: str) -> int:
    return page.evaluate(f"() => Number(document.querySelector('{overlay}')"
                         ".dataset.painted || 0)")


#: Installed before a release: for each picture then drawn on a figure's visible canvas
#: (ipympl's, under the overlay), whether the overlay still shows once that drawing's task
#: has run (a microtask later).
AFTER_PICTURES = """() => {
  window.__afterPictures = [];
  const proto = CanvasRenderingContext2D.prototype;
  const draw = proto.drawImage;
  proto.drawImage = function (...args) {
    const out = draw.apply(this, args);
    const figure = this.canvas.isConnected && this.canvas.closest('.jupyter-matplotlib-figure');
    const overlay = figure && figure.querySelector('.lesson-motion-overlay');
    if (overlay && this.canvas !== overlay && args[0] instanceof HTMLCanvasElement) {
      queueMicrotask(() => window.__afterPictures.push(overlay.style.display));
    }
    return out;
  };
}"""


def drag_on_the_page(page, app: str, start, moves: list[tuple[float, float]]) -> dict:
    """Press at ``start`` (fractions of the figure's canvas), move by each of
    ``moves`` (fractions) 30 ms apart, release; returns what the overlay of the app of class
    ``app`` drew while the button was held (frames painted, whether it showed, the
    kernel's images unchanged, and :data:`COMPARE`'s answer then)."""
    overlay = f".{app} {OVERLAY}"
    canvas = page.locator(f".{app} .jupyter-matplotlib-figure canvas").first
    canvas.scroll_into_view_if_needed()
    h.wait_idle(page)
    box = canvas.bounding_box()
    x, y = box["x"] + start[0] * box["width"], box["y"] + start[1] * box["height"]
    before, images = painted(page, overlay), h.canvas_images(page)
    page.mouse.move(x, y)
    page.mouse.down()
    for dx, dy in moves:
        x, y = x + dx * box["width"], y + dy * box["height"]
        page.mouse.move(x, y)
        page.wait_for_timeout(30)
    page.wait_for_timeout(300)
    compare = COMPARE.replace(OVERLAY, overlay)
    during = {"painted": painted(page, overlay) - before,
              "shown": page.evaluate(f"() => document.querySelector('{overlay}')"
                                     ".style.display"),
              "kernel_figure_unchanged": h.canvas_images(page) == images,
              "while": page.evaluate(compare), "compare": compare}
    page.evaluate(AFTER_PICTURES)
    page.mouse.up()
    page.wait_for_function(f"() => document.querySelector('{overlay}').style.display"
                           " === 'none'", timeout=30_000)
    h.wait_idle(page)
    during["after_pictures"] = page.evaluate("window.__afterPictures")
    return during


def assert_drawn_by_the_page(page, during: dict, moves: int) -> None:
    # the page drew most moves (the kernel may merge some under load), the kernel's own
    # picture stayed as it was until the release, and the overlay's last frame is then
    # the kernel's figure, told apart from the picture under the overlay during the drag
    assert during["shown"] == "block" and during["painted"] >= moves // 3, during
    assert during["kernel_figure_unchanged"], during
    # the overlay went as the kernel's first picture after the release was drawn, not later
    # (which would leave the page's last frame over the kernel's picture meanwhile)
    assert during["after_pictures"][:1] == ["none"], during["after_pictures"]
    after = page.evaluate(during["compare"])
    assert after["share"] < LOUD_SHARE, after
    assert during["while"]["share"] > max(LOUD_SHARE, 2 * after["share"]), (during, after)
    h.assert_no_error_text(page)


def test_the_aircraft_dragged_on_the_page(voila_server, page):
    h.open_lesson(page, voila_server, notebook_of("GimbalApp"))
    page.wait_for_selector(OVERLAY, state="attached", timeout=60_000)
    moves = [(0.01, 0.0)] * 12
    before = [slider_value(page, label) for label in ANGLE_SLIDERS]
    during = drag_on_the_page(page, "gimbal-app-main", (0.513, 0.486), moves)
    assert_drawn_by_the_page(page, during, len(moves))
    h.screenshot(page, "live-drag-aircraft")
    # the sliders, sent with the panels during the drag, end where the table beside the
    # figure says they are (the kernel's angles), and the drag moved them
    sliders = [slider_value(page, label) for label in ANGLE_SLIDERS]
    cells = page.locator(".gimbal-app-main tr", has=page.locator(
        "td", has_text=re.compile(r"^sliders$"))).first.locator("td").all_inner_texts()
    table = [float(c.rstrip("°").replace("\u2212", "-")) for c in cells[1:4]]
    assert sliders != before
    assert all(abs(a - b) < 0.051 for a, b in zip(sliders, table, strict=True)), \
        (sliders, table)


def test_the_funnels_goal_dragged_on_the_page(voila_server, page):
    from lessons_lib.apps.funnel import FunnelApp

    h.open_lesson(page, voila_server, notebook_of("FunnelApp"))
    page.wait_for_selector(OVERLAY, state="attached", timeout=60_000)
    app = FunnelApp()                    # where the lesson's map puts its goal
    gx, gy = app.goal
    canvas_xy = app.ax.transAxes.inverted().transform(app.ax.transData.transform((gx, gy)))
    # the map fills its figure but for a 1 % margin (FunnelView): axes -> figure fractions
    start = (0.01 + 0.98 * canvas_xy[0], 1 - (0.01 + 0.98 * canvas_xy[1]))
    moves = [(0.03, 0.015)] * 12          # to the right and down, over the floor
    during = drag_on_the_page(page, "funnel-app-main", start, moves)
    assert_drawn_by_the_page(page, during, len(moves))
    h.screenshot(page, "live-drag-goal")
