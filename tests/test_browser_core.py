"""The shared loop's interaction fixes, in Voila + Chromium, on a small app of its own
(tests/notebooks/core_demo.ipynb): Play / Pause / back to start, a GIF link that goes stale,
a drag that ends outside the canvas, typed "−0.5" and "4/3", and a code exercise in Voila.
"""

from __future__ import annotations

import pytest

import browser as h

pytestmark = pytest.mark.browser

DEMO = "core_demo.ipynb"


@pytest.fixture(scope="module")
def demo_server():
    server = h.VoilaServer(root=h.ROOT / "tests" / "notebooks")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture
def demo(demo_server, page):
    h.open_lesson(page, demo_server, DEMO)
    return page


def _t(page) -> float:
    slider = page.locator(h.SLIDER).filter(has=page.locator(".widget-label", has_text="t"))
    return float(slider.last.locator(".widget-readout").inner_text())


def _settled(page, quiet_ms: int = 700, timeout_ms: int = 10_000) -> float:
    """t once it has stopped changing for ``quiet_ms``."""
    value, still = _t(page), 0
    for _ in range(timeout_ms // 100):
        page.wait_for_timeout(100)
        now = _t(page)
        still = still + 100 if now == value else 0
        value = now
        if still >= quiet_ms:
            return value
    raise AssertionError(f"t kept changing for {timeout_ms} ms")


def _button(page, text: str):
    return page.locator("button", has_text=text).first


def test_play_pause_and_back_to_start(demo):
    page = demo
    _button(page, "Play").click()
    # Pause as soon as t moved: Play lasts 0.84 s, and a fixed 300 ms wait on a loaded host
    # (load 7-12) once let it reach the end before Pause was pressed
    for _ in range(100):
        if _t(page) > 0:
            break
        page.wait_for_timeout(20)
    _button(page, "Pause").click()
    paused = _settled(page)           # a busy kernel may still be drawing the last ticks
    assert 0 < paused < 1, "Play did not move t, or Pause did not stop it"
    page.wait_for_timeout(800)
    assert _t(page) == paused, "Pause did not keep t where it was"
    _button(page, "Start").click()
    assert _settled(page) == 0.0
    _button(page, "Play").click()                         # play to the end
    page.wait_for_timeout(1000)
    assert _settled(page) == 1.0 and _button(page, "Play").is_visible()
    _button(page, "Play").click()                         # at the end: from the start
    page.wait_for_timeout(250)
    assert _t(page) < 0.7
    h.assert_no_error_text(page)


@pytest.mark.slow
def test_gif_link_goes_stale_when_the_scenario_changes(demo):
    page = demo
    _button(page, "Save GIF").click()
    link = page.locator("a.lesson-gif-link")
    link.wait_for(state="visible", timeout=60_000)
    assert link.get_attribute("href").startswith("data:image/gif;base64,")
    h.move_slider(page, "amplitude", key="ArrowRight")
    link.wait_for(state="detached", timeout=15_000)
    h.screenshot(page, "core-gif-link-cleared")


def test_a_drag_released_outside_the_canvas_ends(demo):
    page = demo
    box = h.figure_canvas(page).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.4
    before = h.canvas_images(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 40, steps=4)
    dragged = h.wait_for_pixels_change(page, before)
    page.mouse.move(x, box["y"] + box["height"] + 120, steps=6)   # out of the canvas ...
    page.mouse.up()                                                # ... and let go there
    page.wait_for_timeout(800)
    settled = h.canvas_images(page)
    page.mouse.move(x, y - 80, steps=6)                            # back over it, no button
    page.wait_for_timeout(1200)
    assert h.canvas_images(page) == settled, "the drag went on after the button was let go"
    assert settled != before and dragged
    h.assert_no_error_text(page)


def _amplitude(page) -> float:
    slider = page.locator(h.SLIDER).filter(has=page.locator(".widget-label",
                                                            has_text="amplitude"))
    return float(slider.first.locator(".widget-readout").inner_text())


#: Press, five moves and the release, dispatched in one go on the figure's overlay canvas
#: (where ipympl listens): faster than any pointer-move rate limit.
_QUICK_DRAG = """([x, y0, y1]) => {
    const top = document.querySelectorAll('.jupyter-matplotlib-figure')[0]
        .querySelectorAll('canvas')[1];
    const fire = (type, y, buttons) => top.dispatchEvent(new MouseEvent(type, {
        clientX: x, clientY: y, button: 0, buttons: buttons, bubbles: true}));
    fire('mousedown', y0, 1);
    for (let i = 1; i <= 5; i++) fire('mousemove', y0 + (y1 - y0) * i / 5, 1);
    fire('mouseup', y1, 0);
}"""


def _drag_to(page, start, end, quick: bool) -> tuple[float, list[str]]:
    """Drag from ``start`` to ``end``: held at the end before letting go, or ``quick``
    (every event at once); the amplitude and the pixels once the page has settled."""
    if quick:
        page.evaluate(_QUICK_DRAG, [start[0], start[1], end[1]])
    else:
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(*end, steps=5)
        page.wait_for_timeout(1500)                  # every move has arrived
        page.mouse.up()
    h.wait_idle(page, quiet_ms=800, timeout=20.0)
    return _amplitude(page), h.canvas_images(page)


def test_a_quick_drag_ends_where_the_button_was_let_go(demo):
    """The page sends at most one pointer move per ``pan_zoom_throttle`` ms; a drag let go
    at once must still show the release point, the same as one held there first."""
    page = demo
    box = h.figure_canvas(page).bounding_box()
    x = box["x"] + box["width"] / 2
    start, end = (x, box["y"] + box["height"] * 0.7), (x, box["y"] + box["height"] * 0.5)
    held = _drag_to(page, start, end, quick=False)
    h.move_slider(page, "amplitude", key="Home")            # away from it again
    h.wait_idle(page, quiet_ms=800, timeout=20.0)
    assert _amplitude(page) != held[0]
    quick = _drag_to(page, start, end, quick=True)
    assert quick == held, "a quick drag did not end where the button was let go"
    h.assert_no_error_text(page)


@pytest.mark.parametrize("index, typed", [(0, "\u22120.5"), (1, "4/3")])
def test_typed_minus_sign_and_fraction_are_accepted(demo, index, typed):
    page = demo
    box = page.locator("input[placeholder='your answer']").nth(index)
    box.scroll_into_view_if_needed()
    box.fill(typed)
    box.press("Enter")
    page.locator("text=Right!").first.wait_for(state="visible", timeout=15_000)


def test_code_exercise_shows_the_code_and_a_widget_never_a_failure(demo):
    page = demo
    page.locator("text=def").first.wait_for(state="visible", timeout=15_000)
    body = page.inner_text("body")
    assert "my_double" in body and "What is double 21?" in body
    assert "checks failed" not in body and "checks pass" not in body
    box = page.locator("input[placeholder='your answer']").nth(2)
    box.fill("42")
    box.press("Enter")
    page.locator("text=Right!").first.wait_for(state="visible", timeout=15_000)
    h.screenshot(page, "core-code-exercise-in-voila", full_page=True)
