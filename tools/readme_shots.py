"""Take the README's picture of each lesson: Voila + Debian's Chromium at 1280x720.

    .venv/bin/python tools/readme_shots.py            # every lesson
    .venv/bin/python tools/readme_shots.py 4          # lesson 4 only

Each picture is set up the way its README caption describes (``SETUPS``), with the lesson's
own controls, so a picture can always be taken again after a lesson changes; a lesson with
no setup there is shown as it opens, its first app at the top (``DEFAULT``). It prints, for
each picture, the text on the page that the caption quotes, to check the caption against.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lessons_lib.catalogue import LESSONS  # noqa: E402

import browser as h  # noqa: E402  (tests/browser.py: the Voila server and page helpers)

OUT = ROOT / "docs" / "img"


def _top(page, figure: int) -> None:
    """Scroll so that the output holding figure ``figure`` (its whole app) sits at the top
    of the viewport."""
    page.locator(".jupyter-matplotlib-figure").nth(figure).evaluate(
        "el => (el.closest('.jp-OutputArea-output') || el).scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def _preset(page, name: str, figure: int = 0) -> None:
    """Choose preset ``name`` from the menu that offers it; wait for the figure to change."""
    menu = page.locator(".widget-dropdown select").filter(
        has=page.locator(f"option:text-is({name!r})")).first
    if menu.evaluate("s => s.options[s.selectedIndex].text") == name:
        return
    before = h.canvas_images(page)
    menu.select_option(label=name)
    try:   # the picture changes unless the app already showed these values
        h.wait_for_pixels_change(page, before, figure=figure, timeout=30)
    except AssertionError:
        pass


def lesson1(page):
    page.locator(".gimbal-app-main").get_by_role("button", name="Lock it").click()
    page.wait_for_selector("text=LOCKED", timeout=20_000)
    _top(page, 0)
    return page.locator(".gimbal-app-main")


def lesson2(page):
    _preset(page, "Wide three-axis turn")
    h.move_slider(page, label="t", key="Home")
    h.move_slider(page, label="t", key="ArrowRight", times=40)
    _top(page, 0)
    return page.locator(".widget-html").first


def lesson3(page):
    _preset(page, "Fixed long look-ahead cuts the corner")
    h.move_slider(page, label="Time", key="ArrowRight", times=118)   # 4.72 s: in the hairpin
    page.wait_for_selector("text=t = 4.72 s", timeout=30_000)
    _top(page, 0)
    return page.locator(".widget-html").filter(has_text="inside").first


def lesson4(page):
    _preset(page, "The article's corridor: 7 portals, 3 corners", figure=1)
    h.move_slider(page, label="step", key="Home")
    h.move_slider(page, label="step", key="ArrowRight", times=5)
    page.wait_for_selector("text=Step 5 of", timeout=20_000)
    _top(page, 1)
    return page.locator(".widget-html").filter(has_text="Step 5 of").first


def as_opened(page):
    """The default: the page as it opens, its first app at the top; quotes that app."""
    _top(page, 0)
    return page.locator(".lesson-app").first


@dataclass(frozen=True)
class Setup:
    run: object         # page -> a locator of the text the caption quotes
    figures: int = 1    # figures the page must show before the setup starts


#: The picture of a lesson that SETUPS does not name.
DEFAULT = Setup(as_opened)


#: How each lesson's picture is set up, by the lesson's slug, where the caption describes
#: more than the page as it opens (:data:`DEFAULT`). Which lessons there are, and each
#: picture's file name (``Lesson.picture``), come from the catalogue; a test checks that
#: every slug here is a lesson of the catalogue.
SETUPS = {"01_gimbal_lock": Setup(lesson1), "02_euler_vs_slerp": Setup(lesson2),
          "03_spline_steering": Setup(lesson3), "04_funnel_algorithm": Setup(lesson4, 4)}


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    wanted = {int(a) for a in argv} or {item.number for item in LESSONS}
    server = h.VoilaServer()
    try:
        server.wait_ready(timeout=120)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=h.CHROMIUM, args=h.CHROMIUM_FLAGS)
            try:
                for item in (i for i in LESSONS if i.number in wanted):
                    setup = SETUPS.get(item.slug, DEFAULT)
                    page = browser.new_page(viewport=h.VIEWPORT)
                    h.open_lesson(page, server, item.notebook, figures=setup.figures)
                    quoted = setup.run(page)
                    h.wait_idle(page, quiet_ms=800)
                    text = quoted.inner_text()
                    h.assert_no_error_text(page)
                    page.screenshot(path=str(OUT / item.picture))
                    print(f"== {OUT / item.picture}\n{text.strip()}\n")
                    page.close()
            finally:
                browser.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
