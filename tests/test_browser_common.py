"""Every lesson page, in Voila at 1280x720: no toolbar over the figures, no text under 12 px."""

from __future__ import annotations

import json

import pytest

from lessons_lib.catalogue import LESSONS

import browser as h

pytestmark = pytest.mark.browser

#: The smallest text a projector audience can read at 1280x720.
MIN_TEXT_PX = 12

_SMALL_TEXT = """(minPx) => {
  const small = [];
  let smallest = 1e9;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('script, style, noscript')) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden'
        || el.closest('[style*="display: none"]')) continue;
    const px = parseFloat(style.fontSize);
    smallest = Math.min(smallest, px);
    if (px < minPx) small.push(px.toFixed(1) + 'px: ' + text.slice(0, 40));
  }
  return {smallest, small: small.slice(0, 12), count: small.length};
}"""


_CORNER_ALPHA = """(i) => {
  const c = document.querySelectorAll('.jupyter-matplotlib-figure')[i]
    .querySelectorAll('canvas')[1];                     // the overlay canvas
  return c.getContext('2d').getImageData(c.width - 4, c.height - 4, 1, 1).data[3];
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda item: item.slug)
def test_no_toolbar_and_no_text_under_12px(voila_server, page, lesson):
    h.open_lesson(page, voila_server, lesson.notebook)
    figures = page.locator(".jupyter-matplotlib-figure")
    for i in range(figures.count()):
        canvas = h.figure_canvas(page, i)
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()                      # the toolbar used to fade in here
        page.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
        page.wait_for_timeout(300)
        toolbars = page.locator(".jupyter-matplotlib-toolbar")
        visible = [j for j in range(toolbars.count()) if toolbars.nth(j).is_visible()]
        assert not visible, f"figure {i} shows a matplotlib toolbar on hover"
        corner = page.evaluate(_CORNER_ALPHA, i)
        assert corner == 0, f"figure {i} has a resize triangle in its corner"
    result = page.evaluate(_SMALL_TEXT, MIN_TEXT_PX)
    h.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (h.SCREENSHOTS / f"text-size-{lesson.slug}.json").write_text(json.dumps(result, indent=1))
    assert not result["small"], (f"{result['count']} text runs under {MIN_TEXT_PX} px, e.g. "
                                 f"{result['small']}")
    h.assert_no_error_text(page)


#: The focused element: a number given at its first focus, and where it is.
_FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  window.tabSeen = window.tabSeen || 0;
  if (!e.dataset.tabSeen) e.dataset.tabSeen = String(++window.tabSeen);
  return {seen: e.dataset.tabSeen, figure: !!e.closest('.jupyter-matplotlib-figure'),
          app: !!e.closest('.lesson-app'),
          name: e.tagName + ' ' + (e.innerText || e.getAttribute('aria-label') || '').slice(0, 30),
          handle: e.classList.contains('noUi-handle'), role: e.getAttribute('role'),
          ariaLabel: e.getAttribute('aria-label'),
          sliderLabel: e.closest('.widget-slider')
            ? e.closest('.widget-slider').querySelector('.widget-label').textContent.trim() : null};
}"""

TAB_PRESSES = 40


@pytest.mark.parametrize("lesson", [pytest.param(item, marks=() if k == 0 else pytest.mark.slow)
                                    for k, item in enumerate(LESSONS)],
                         ids=lambda item: item.slug)
def test_the_tab_key_leaves_every_figure_and_comes_back(voila_server, page, lesson):
    """ipympl's figure takes every key pressed on it, Tab included: from the top of a lesson
    the keyboard reached the first figure and stayed there (a keyboard trap). Tab now walks
    on to the app's controls, and Shift+Tab walks the same way back. Each slider reached is
    named after its label (a screen reader said "slider, 35" without saying which)."""
    h.open_lesson(page, voila_server, lesson.notebook)
    walk = []
    for _ in range(TAB_PRESSES):
        page.keyboard.press("Tab")
        walk.append(page.evaluate(_FOCUSED))
    names = [item and item["name"] for item in walk]
    figures = [i for i, item in enumerate(walk[:-1]) if item and item["figure"]]
    assert figures, f"{TAB_PRESSES} Tabs never reached a figure: {names}"
    for i in figures:
        assert walk[i + 1] and walk[i + 1]["seen"] != walk[i]["seen"], \
            f"Tab stays on the figure at press {i + 1}: {names}"
    handles = [item for item in walk if item and item["handle"]]
    assert handles, f"{TAB_PRESSES} Tabs never reached a slider: {names}"
    for item in handles:
        assert item["role"] == "slider" and item["ariaLabel"] == item["sliderLabel"], item
    first = figures[0]
    assert walk[first + 1]["app"] and not walk[first + 1]["figure"], \
        f"after the first figure comes a control of its app: {names}"
    for i in range(len(walk) - 2, first - 1, -1):
        page.keyboard.press("Shift+Tab")
        back = page.evaluate(_FOCUSED)
        assert back and back["seen"] == walk[i]["seen"], \
            f"Shift+Tab from press {i + 2} reached {back} instead of {names[i]}"
