"""Play drawn by the page (issue 43) in Voila: lesson 2's Play (and lesson 4's steps) draw on
a canvas laid over the figure, and each time Pause is pressed the kernel's own picture of
the frame the page stopped on matches what the page drew (within anti-aliasing and the
browser's own text)."""

from __future__ import annotations

import re

import pytest

from lessons_lib.apps import fastdraw
from lessons_lib.apps.funnel import FunnelApp
from lessons_lib.apps.interpolation import InterpolationApp
from lessons_lib.catalogue import LESSONS

import browser as h

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")]

#: The lesson whose Play the page draws.
NOTEBOOK = next(lesson.notebook for lesson in LESSONS
                if any(name == "InterpolationApp" for name, _ in lesson.apps))
#: Lesson 4's, whose walk through the corridor the page plays a step at a time.
FUNNEL = next(lesson.notebook for lesson in LESSONS
              if any(name == "FunnelApp" for name, _ in lesson.apps))
OVERLAY = ".lesson-motion-overlay"
#: Lesson 4's funnel's (the grid above it has one too, for its drags).
FUNNEL_OVERLAY = f".funnel-app-main {OVERLAY}"
#: The page's frames a step of t.
SUBSTEPS = InterpolationApp.motion_substeps
#: A pixel whose channels differ by more than this is counted as different.
LOUD = 64
#: The share of the figure's pixels that may differ: text is rasterized by the browser, not
#: FreeType, and markers land up to half a pixel apart (0.7 to 0.8 % measured, where the
#: frame Play started on differs from the one shown a second later by about 3 %).
LOUD_SHARE = 0.015

#: The share of pixels differing by more than LOUD between the overlay and the figure's
#: image canvas, both drawn at the overlay's size.
COMPARE = f"""() => {{
    const overlay = document.querySelector('{OVERLAY}');
    const image = overlay.parentElement.querySelector('canvas');
    const w = overlay.width, h = overlay.height;
    function pixels(source) {{
        const c = document.createElement('canvas');
        c.width = w; c.height = h;
        const ctx = c.getContext('2d');
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, w, h);
        ctx.drawImage(source, 0, 0, w, h);
        return ctx.getImageData(0, 0, w, h).data;
    }}
    const a = pixels(overlay), b = pixels(image);
    let loud = 0;
    for (let i = 0; i < a.length; i += 4) {{
        const d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]),
                           Math.abs(a[i + 2] - b[i + 2]));
        if (d > {LOUD}) loud++;
    }}
    return {{share: loud / (w * h), frame: Number(overlay.dataset.frame),
             shown: overlay.style.display, width: w, image: image.width}};
}}"""


def _play_button(page):
    return page.locator(".lesson-app .widget-toggle-button").filter(has_text="Play").first


def _pause_button(page):
    return page.locator(".lesson-app .widget-toggle-button").filter(has_text="Pause").first


def _t_readout(page) -> float:
    slider = page.locator(h.SLIDER).filter(
        has=page.locator(".widget-label", has_text=re.compile(r"^\s*t\s*$"))).first
    return float(slider.locator(".widget-readout").inner_text())


def pause_on_the_kernels_frame(page, figure: int) -> dict:
    """Press Pause while the page plays; once the kernel has drawn the frame the page
    stopped on (in figure ``figure``) and the overlay is gone, check that the overlay's last
    frame is the kernel's picture of it, told apart by the same measure from the picture
    Play started on. Returns :data:`COMPARE`'s answer at the end."""
    before = h.canvas_images(page)
    moving = page.evaluate(COMPARE)
    _pause_button(page).click()
    h.wait_for_pixels_change(page, before, figure=figure, timeout=60)
    page.wait_for_function(f"() => document.querySelector('{OVERLAY}').style.display"
                           " === 'none'", timeout=30_000)
    h.wait_idle(page)
    stopped = page.evaluate(COMPARE)
    assert stopped["share"] < LOUD_SHARE, stopped
    assert moving["share"] > max(LOUD_SHARE, 2 * stopped["share"]), (moving, stopped)
    return stopped


def test_play_drawn_by_the_page_pauses_on_the_kernels_frame(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    page.wait_for_selector(OVERLAY, state="attached", timeout=60_000)
    for rest_ms in (300, 400, 300):      # (Play from t = 0.25 ends after 3 s)
        _play_button(page).click()
        page.wait_for_function(
            f"() => {{ const o = document.querySelector('{OVERLAY}');"
            " return o.style.display === 'block' && Number(o.dataset.painted) > 5; }",
            timeout=60_000)
        page.wait_for_timeout(rest_ms)
        stopped = pause_on_the_kernels_frame(page, figure=0)
        # the slider shows the frame the page stopped on (a whole step of t)
        assert stopped["frame"] % SUBSTEPS == 0
        assert _t_readout(page) == pytest.approx(stopped["frame"] / SUBSTEPS * 0.01, abs=1e-6)
        assert stopped["width"] == stopped["image"]
        h.assert_no_error_text(page)
    h.screenshot(page, "motion-paused")


def test_the_funnels_steps_played_by_the_page(voila_server, page):
    """Lesson 4 from its first step: the page shows a new step every
    ``FunnelApp.frame.interval_ms``; the step slider and the step sentence follow it while
    it plays, and Pause leaves the kernel's picture of the step the page showed."""
    h.open_lesson(page, voila_server, FUNNEL)
    page.wait_for_selector(FUNNEL_OVERLAY, state="attached", timeout=60_000)
    app = page.locator(".funnel-app-main").first
    app.get_by_role("button", name="Start").first.click()
    h.wait_idle(page)
    app.locator(".widget-toggle-button").filter(has_text="Play").first.click()
    steps = 3
    page.wait_for_function(
        f"() => Number(document.querySelector('{FUNNEL_OVERLAY}').dataset.frame) >= {steps}",
        timeout=steps * FunnelApp.frame.interval_ms + 30_000)
    # while the page plays, the step sentence has followed it (reports every 0.2 s)
    page.wait_for_function(
        f"() => document.querySelector('{FUNNEL_OVERLAY}').closest('.lesson-app').innerText"
        f".includes('Step {steps} of ')", timeout=10_000)
    app.locator(".widget-toggle-button").filter(has_text="Pause").first.click()
    page.wait_for_function(f"() => document.querySelector('{FUNNEL_OVERLAY}').style.display"
                           " === 'none'", timeout=30_000)
    h.wait_idle(page)
    stopped = page.evaluate(COMPARE.replace(OVERLAY, FUNNEL_OVERLAY))
    assert stopped["share"] < LOUD_SHARE, stopped
    assert stopped["frame"] >= steps
    assert f"Step {stopped['frame']} of " in app.inner_text()
    readout = app.locator(h.SLIDER).filter(
        has=page.locator(".widget-label", has_text=re.compile(r"^\s*step\s*$"))).first
    assert int(readout.locator(".widget-readout").inner_text()) == stopped["frame"]
    h.assert_no_error_text(page)
    app.locator("canvas").first.scroll_into_view_if_needed()
    h.screenshot(page, "motion-funnel-paused")
