"""The canvas guard in a real page: Chromium at device pixel ratios 2 (a laptop's retina
screen) and 0.5 (a browser zoomed out to 50%) gets lesson 1's figure drawn at its ratio and
filling its canvas, exactly as at ratio 1. The guard clamps the ratio a page reports
(lessons_lib.apps.core.guard): this checks that a page within the bounds is not touched."""

from __future__ import annotations

import pytest

import browser as h
from lessons import FIRST

pytestmark = pytest.mark.browser

NOTEBOOK = FIRST.notebook
#: The first figure's canvas: its pixel size, its size on the page, and how far right and
#: down its drawing reaches (a share of the canvas): the picture fills the canvas alike at
#: every ratio only if the kernel drew it at the page's ratio.
EXTENT = """() => { const c = document.querySelector('.jupyter-matplotlib-figure canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let mx = 0, my = 0;
  for (let y = 0; y < c.height; y += 1) for (let x = 0; x < c.width; x += 1) {
    const i = 4 * (y * c.width + x);
    if (d[i + 3] > 0 && (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250)) {
      if (x > mx) mx = x; if (y > my) my = y; } }
  const r = c.getBoundingClientRect();
  return {width: c.width, height: c.height, cssWidth: r.width, right: mx / c.width,
          bottom: my / c.height}; }"""


def extent_at(chromium, server, ratio: float) -> dict:
    context = chromium.new_context(viewport=h.VIEWPORT, device_scale_factor=ratio)
    try:
        page = context.new_page()
        h.open_lesson(page, server, NOTEBOOK, figures=3)
        h.assert_no_error_text(page)
        page.locator(".jupyter-matplotlib-figure").first.scroll_into_view_if_needed()
        h.screenshot(page, f"{FIRST.slug}_ratio_{ratio:g}")
        return page.evaluate(EXTENT)
    finally:
        context.close()


@pytest.mark.slow
def test_figures_are_drawn_at_the_page_ratio_within_the_bounds(voila_server, chromium):
    plain = extent_at(chromium, voila_server, 1.0)
    assert plain["right"] > 0.5 and plain["bottom"] > 0.5, plain
    for ratio in (2.0, 0.5):
        seen = extent_at(chromium, voila_server, ratio)
        assert abs(seen["width"] - ratio * seen["cssWidth"]) <= 1, (ratio, seen)
        assert abs(seen["right"] - plain["right"]) < 0.02, (ratio, seen, plain)
        assert abs(seen["bottom"] - plain["bottom"]) < 0.02, (ratio, seen, plain)
