"""Play drawn by the page (issue 43) in Voila, lesson 3: Play from the opening moment draws
on a canvas laid over the figure (the map, the close-up following the car, the time plot's
cursor), and each time Pause is pressed the kernel's own picture of the frame the page
stopped on matches what the page drew (within anti-aliasing and the browser's own text),
the time slider on that step."""

from __future__ import annotations

import re

import pytest
from test_browser_motion import OVERLAY, _play_button, pause_on_the_kernels_frame

from lessons_lib.apps import fastdraw
from lessons_lib.apps.steering import SteeringApp
from lessons_lib.catalogue import LESSONS

import browser as h

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")]

#: The lesson whose Play the page draws, and its big app's figure (the first of the page).
NOTEBOOK = next(lesson.notebook for lesson in LESSONS
                if any(name == "SteeringApp" for name, _ in lesson.apps))
FIGURE = 0
#: The page's frames a step of time (on the road, as the lesson opens), and the step (s).
SUBSTEPS = 3
STEP = SteeringApp.frame.step
#: Frames the page must have moved on before Pause: half a second of the drive.
MOVED = round(0.5 / STEP) * SUBSTEPS


def _time_readout(page) -> float:
    slider = page.locator(h.SLIDER).filter(
        has=page.locator(".widget-label", has_text=re.compile(r"^\s*Time \(s\)\s*$"))).first
    return float(slider.locator(".widget-readout").inner_text())


def test_lesson_3_play_drawn_by_the_page_pauses_on_the_kernels_frame(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK)
    page.wait_for_selector(OVERLAY, state="attached", timeout=60_000)
    for rest_ms in (0, 150, 300):
        _play_button(page).click()
        page.wait_for_function(
            f"() => {{ const o = document.querySelector('{OVERLAY}');"
            " return o.style.display === 'block' && Number(o.dataset.painted) > 5; }",
            timeout=60_000)
        # at least half a second of the drive shown (a first Play on a busy host shows
        # the newest frame the kernel has sent, which may lag), then a while more
        start = page.evaluate(f"() => Number(document.querySelector('{OVERLAY}')"
                              ".dataset.frame)")
        page.wait_for_function(
            f"(start) => Number(document.querySelector('{OVERLAY}').dataset.frame)"
            f" >= start + {MOVED}", arg=start, timeout=60_000)
        page.wait_for_timeout(rest_ms)
        stopped = pause_on_the_kernels_frame(page, FIGURE)
        # the slider shows the frame the page stopped on (a whole step of time)
        assert stopped["frame"] % SUBSTEPS == 0
        assert _time_readout(page) == pytest.approx(stopped["frame"] / SUBSTEPS * STEP,
                                                    abs=1e-6)
        assert stopped["width"] == stopped["image"]
        h.assert_no_error_text(page)
    h.screenshot(page, "motion-paused-steering")
