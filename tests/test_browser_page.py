"""The lesson page itself (share/jupyter/voila/templates/lessons): what it asks of the network.

Voila's lab template links Font Awesome's stylesheets from cdn.jsdelivr.net in the head, and
Voila starts the lesson only at the page's load event, which waits for them. On a network
that drops traffic to the internet (no answer, no refusal) the lesson did not start until
the browser gave up on them, about 30 s later. The lessons' template asks for them after
the load event instead.
"""

from __future__ import annotations

import re
import urllib.request

import pytest

import browser as h
from lessons import lesson

LESSON = lesson(2).notebook
STEERING = lesson(3).notebook
CDN = "https://cdn.jsdelivr.net/"


def test_the_page_links_no_stylesheet_from_another_host(voila_server):
    with urllib.request.urlopen(voila_server.render_url(LESSON), timeout=120) as r:
        html = r.read().decode()
    links = re.findall(r"<link\b[^>]*>", html)
    assert any("stylesheet" in link for link in links)  # the page's own styles are there
    foreign = [link for link in links if re.search(r"href=\"(https?:)?//", link)]
    assert not foreign, f"stylesheets from another host hold the page back: {foreign}"


@pytest.mark.browser
@pytest.mark.slow
def test_a_lesson_starts_while_the_icon_stylesheets_never_answer(voila_server, page):
    pending = []
    page.route(f"{CDN}**", lambda route: pending.append(route.request.url))  # never answered
    h.open_lesson(page, voila_server, LESSON, timeout=90_000)
    h.assert_no_error_text(page)
    asked = sorted(url.rsplit("/", 1)[-1] for url in pending)
    assert asked == ["all.min.css", "v4-shims.min.css"], asked  # asked for, still unanswered


@pytest.mark.browser
def test_the_icons_still_get_their_stylesheet(voila_server, page):
    marker = "i.fa { outline: 3px solid rgb(1, 2, 3); }"
    page.route(f"{CDN}**", lambda route: route.fulfill(
        status=200, content_type="text/css", body=marker if "all.min" in route.request.url
        else ""))
    h.open_lesson(page, voila_server, LESSON)
    page.wait_for_function(
        """() => { const i = document.querySelector('i.fa');
                   return i && getComputedStyle(i).outlineColor === 'rgb(1, 2, 3)'; }""",
        timeout=30_000)


#: Counts toDataURL calls on canvases outside the document (ipympl's offscreen canvas) that
#: reach the browser's own encoder; installed before any script of the page runs.
COUNT_OFFSCREEN_ENCODES = """
window.__offscreenEncodes = 0;
const real = HTMLCanvasElement.prototype.toDataURL;
HTMLCanvasElement.prototype.toDataURL = function (...args) {
  if (!this.isConnected) window.__offscreenEncodes += 1;
  return real.apply(this, args);
};
"""


@pytest.mark.browser
@pytest.mark.slow
def test_new_frames_are_not_encoded_again_as_data_urls(voila_server, page):
    """ipympl re-encodes its canvas as a PNG data URL at every frame (for a saved notebook's
    picture); the lessons' page skips that call and still paints every frame, while any
    other toDataURL call works as before."""
    page.add_init_script(COUNT_OFFSCREEN_ENCODES)
    h.open_lesson(page, voila_server, LESSON)
    h.wait_idle(page)
    before = page.evaluate("window.__offscreenEncodes")
    for key in ("ArrowLeft", "ArrowRight", "ArrowLeft"):
        shown = h.canvas_images(page)
        h.move_slider(page, index=0, key=key, times=3)
        h.wait_for_pixels_change(page, shown, figure=0, timeout=60)
    assert page.evaluate("window.__offscreenEncodes") == before, "frames were encoded again"
    url = page.evaluate("""() => { const c = document.createElement('canvas');
                                   c.width = c.height = 4; return c.toDataURL(); }""")
    assert url.startswith("data:image/png;base64,") and len(url) > 40
    h.assert_no_error_text(page)


SHOWN = """(i) => { const cell = document.querySelectorAll('#rendered_cells [cell-index]')[i];
                  const inner = cell.querySelector('.jp-Cell div') || cell.querySelector('div');
                  return inner.checkVisibility({contentVisibilityAuto: true}); }"""


@pytest.mark.slow
def test_cells_out_of_view_wait_until_the_reader_comes(voila_server, page):
    """The last cells of a lesson are not laid out while the reader is at the top (so the
    first figure does not wait for the whole page), and are there once scrolled to, with
    their widgets and formulas."""
    h.open_lesson(page, voila_server, STEERING)
    cells = page.locator("#rendered_cells [cell-index]")
    last = cells.count() - 1
    assert page.evaluate(SHOWN, 0), "the top of the lesson is not rendered"
    assert not page.evaluate(SHOWN, last), "the end of the lesson was rendered out of view"
    exercise = page.locator(".widget-button", has_text="Check").last
    exercise.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    box = exercise.bounding_box()
    assert box is not None and box["width"] > 20 and box["height"] > 10
    cells.nth(last).scroll_into_view_if_needed()
    page.wait_for_function(f"() => ({SHOWN})({last})", timeout=10_000)
    wait_for_every_formula(page, STEERING)   # those after the first app too (put off)
    h.assert_no_error_text(page)


def formula_count(notebook: str) -> int:
    """How many $...$ and $$...$$ formulas the notebook's markdown holds."""
    import nbformat

    nb = nbformat.read(h.NOTEBOOKS / notebook, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    display = re.findall(r"\$\$(.+?)\$\$", text, re.S)
    inline = re.findall(r"\$(.+?)\$", re.sub(r"\$\$(.+?)\$\$", "", text, flags=re.S), re.S)
    return len(display) + len(inline)


def wait_for_every_formula(page, notebook: str) -> None:
    """Every formula of the notebook typeset on the page, and no cell left waiting for it."""
    page.wait_for_function(f"() => document.querySelectorAll('#rendered_cells mjx-container')"
                           f".length >= {formula_count(notebook)}", timeout=20_000)
    assert page.locator(".lessons-math-later").count() == 0


@pytest.mark.slow
def test_formulas_after_the_first_app_wait_for_its_figure(voila_server, page):
    """Voila typesets every formula before it builds the first widget; the lessons' page
    typesets those after the first app once its figure is painted: at that first paint
    some are still TeX source in a cell marked for later, and a moment after none is."""
    page.add_init_script("""(() => {
      const draw = CanvasRenderingContext2D.prototype.drawImage;
      window.__atFirstPaint = null;
      CanvasRenderingContext2D.prototype.drawImage = function (src, ...rest) {
        const out = draw.call(this, src, ...rest);
        if (window.__atFirstPaint === null && src instanceof HTMLCanvasElement
            && this.canvas.closest && this.canvas.closest('.jupyter-matplotlib-figure')
            && document.querySelector('img, canvas')) {
          window.__atFirstPaint = document.querySelectorAll('.lessons-math-later').length;
        }
        return out;
      };
    })();""")
    h.open_lesson(page, voila_server, STEERING)
    assert page.evaluate("window.__atFirstPaint") > 0
    wait_for_every_formula(page, STEERING)


def test_the_deferrals_can_be_turned_off_from_the_address(voila_server, page):
    """?lessons_defer=0: the page as Voila's lab template makes it (every cell laid out,
    every formula typeset before the widgets), for comparisons and to rule them out."""
    url = voila_server.render_url(STEERING)
    page.goto(url + ("&" if "?" in url else "?") + "lessons_defer=0", timeout=120_000)
    page.wait_for_selector(h.FIGURE, timeout=120_000, state="visible")
    cells = page.locator("#rendered_cells [cell-index]")
    assert page.evaluate(SHOWN, cells.count() - 1)
    assert page.locator(".lessons-math-later").count() == 0
    assert page.locator("#rendered_cells mjx-container").count() >= formula_count(STEERING)
