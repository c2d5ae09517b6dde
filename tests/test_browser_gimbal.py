"""Lesson 1 in Chromium at 1280x720, in Voila and in JupyterLab (file browser open): it
renders, the keyboard moves the pitch ring, "Lock it" animates to the lock, every order
locks, the view buttons keep the labels in the picture, the exercises answer, the layout
fits. Screenshots of each state are kept in tests/screenshots/ for a person to look at."""

from __future__ import annotations

import numpy as np
import pytest

from lessons_lib import flight
from lessons_lib import rotations as rot
from lessons_lib.apps import GimbalApp
from lessons_lib.apps.gimbal import model, panel

import browser as h

pytestmark = pytest.mark.browser

NOTEBOOK = "01_gimbal_lock.ipynb"
MAIN_APP = ".gimbal-app-main"
#: How long to wait for the kernel (ms): generous, because on a shared 2-core machine one
#: frame of the lock animation (compute, draw, PNG to the page) can take seconds
WAIT = 120_000


def show_app(page, which: str = MAIN_APP) -> None:
    """Scroll so that an app (title line, figure and side panel) starts at the top."""
    page.locator(which).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def slider_labels(page, which: str = MAIN_APP) -> list[str]:
    return page.locator(f"{which} .widget-slider .widget-label").all_inner_texts()


def slider_value(page, label: str, which: str = MAIN_APP) -> float:
    box = page.locator(f"{which} .widget-slider", has=page.locator(".widget-label",
                                                                  has_text=label)).first
    text = box.locator(".widget-readout").inner_text()
    return float(text.replace("\u2212", "-"))


def select_order(page, order: str, which: str = MAIN_APP) -> None:
    label = panel.order_label(order, rot.ring_angle_names(order))
    page.locator(f"{which} .widget-dropdown select").first.select_option(label=label)
    outer = rot.ring_angle_names(order)[0]
    page.wait_for_function(
        """([sel, outer]) => { const l = document.querySelector(sel + ' .widget-slider '
                  + '.widget-label'); return l && l.innerText.startsWith(outer); }""",
        arg=[which, outer], timeout=WAIT)


def badge(page, which: str = MAIN_APP) -> str:
    return page.locator(f"{which} .gimbal-badge").first.inner_text()


def assert_fits(page, which: str = MAIN_APP) -> None:
    """Nothing of the app sticks out to the right of the window (no sideways scrolling)."""
    width = page.evaluate("() => document.documentElement.clientWidth")
    right = page.locator(which).first.evaluate(
        """e => Math.max(...[e, ...e.querySelectorAll('*')]
                 .map(x => x.getBoundingClientRect().right))""")
    assert right <= width + 1, f"the app reaches x = {right:.0f} px in a {width} px window"


def wait_mid_animation(page, path) -> float:
    """Wait until the main app's pitch slider is well between the start of the lock
    animation and the lock (its middle frames); the angle it showed then. (The animation
    keeps the kernel's clock: a second later, a screenshot taken meanwhile, it is over.)"""
    return page.wait_for_function(
        """([lo, hi]) => { const s = [...document.querySelectorAll('.gimbal-app-main '
               + '.widget-slider')].find(s => s.innerText.includes('pitch (X)'));
               const v = parseFloat(s.querySelector('.widget-readout').innerText
                                    .replace('\u2212', '-'));
               return v <= lo && v >= hi ? v : false; }""",
        arg=[path[0] - 10, path[-1] + 10], timeout=WAIT, polling=10).json_value()


def test_gimbal_lesson_in_voila(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=5)
    h.assert_no_error_text(page)
    assert page.locator(".jupyter-matplotlib-figure").count() == 5   # app, 3 copies, exercise
    assert slider_labels(page)[:3] == ["yaw (Y)", "pitch (X)", "roll (Z)"]
    show_app(page)
    assert_fits(page)
    h.screenshot(page, "01_gimbal_lock")

    # the pitch slider from the keyboard: three steps of 1 degree
    before = h.canvas_images(page)
    h.move_slider(page, label="pitch (X)", key="ArrowRight", times=3)
    h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
    page.wait_for_function(
        """() => [...document.querySelectorAll('.widget-slider')].some(s =>
               s.innerText.includes('pitch (X)') && /[-\u2212]17/.test(s.innerText))""",
        timeout=WAIT)
    h.assert_no_error_text(page)

    # Lock it: the pitch ring swings there over about a second (caught on the way), then the
    # badge says LOCKED and the gauge is full
    show_app(page)
    page.locator(MAIN_APP).get_by_role("button", name="Lock it").click()
    path = model.lock_path(-17.0)
    seen = wait_mid_animation(page, path)
    h.screenshot(page, "01_gimbal_lock_animation_middle")
    assert -90 < seen < -17, seen
    page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-locked", timeout=WAIT)
    assert slider_value(page, "pitch (X)") == -90
    assert "LOCKED" in badge(page)
    assert "the same axis" in page.locator(f"{MAIN_APP} .gimbal-lock").inner_text()
    h.wait_idle(page)
    h.screenshot(page, "01_gimbal_lock_locked")
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def _lock_each_order(page, orders) -> None:
    """Choose each order in turn, lock it, check the middle ring's angle, screenshot."""
    for order in orders:
        before = h.canvas_images(page)
        select_order(page, order)
        h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
        h.wait_idle(page)       # the new order drawn and the page settled before Lock it
        page.locator(MAIN_APP).get_by_role("button", name="Lock it").click()
        page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-locked", timeout=WAIT)
        middle = rot.middle_angle_name(order)
        axis = {"yaw": "Y", "pitch": "X", "roll": "Z"}[middle]
        # the badge can be drawn a moment before the slider shows the animation's last
        # step (their messages arrive apart): read the slider once it has stopped moving
        assert h.settled(page, lambda m=middle, a=axis: abs(slider_value(page, f"{m} ({a})")),
                         timeout=WAIT / 1000) == 90
        h.wait_idle(page)
        h.screenshot(page, f"01_gimbal_lock_{order}_locked")


@pytest.mark.slow
def test_every_order_locks(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=5)
    show_app(page)
    _lock_each_order(page, rot.ORDERS)
    h.assert_no_error_text(page)


@pytest.mark.slow
def test_another_order_locks_and_every_view_keeps_the_labels(voila_server, page):
    """One order other than the default locks (test_every_order_locks, slow, tries all six);
    then every view button and an orbit with the mouse."""
    h.open_lesson(page, voila_server, NOTEBOOK, figures=5)
    show_app(page)
    _lock_each_order(page, ["XYZ"])        # its middle ring is yaw, not the default pitch
    page.locator(MAIN_APP).get_by_role("button", name="More controls").click()  # the views
    for view in ("back", "side", "top", "3/4"):
        before = h.canvas_images(page)
        page.locator(MAIN_APP).get_by_role("button", name=view, exact=True).click()
        h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
        h.wait_idle(page)
        h.screenshot(page, f"01_gimbal_lock_view_{view.replace('/', '')}")
    # an orbit with the mouse, pressed off the aircraft (a press on it turns the aircraft),
    # with the figure back in the window (the view buttons sit below the side panel)
    show_app(page)
    canvas = h.figure_canvas(page, 0)
    box = canvas.bounding_box()
    x, y = box["x"] + box["width"] * 0.12, box["y"] + box["height"] * 0.35
    before = h.canvas_images(page)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(x + 15 * step, y + 4 * step)
    page.mouse.up()
    h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
    h.wait_idle(page)
    h.screenshot(page, "01_gimbal_lock_orbited")
    h.assert_no_error_text(page)


def _angles(page) -> tuple[float, float, float]:
    return tuple(slider_value(page, label) for label in ("yaw (Y)", "pitch (X)", "roll (Z)"))


def _best_top_turn(start, angles) -> tuple[float, float]:
    """The body turn about the top that best explains going from ``start`` to ``angles``
    (yaw, pitch, roll): its angle and how far (degrees) the sliders' orientation is from
    that turn's (the sliders hold whole degrees)."""
    R = rot.euler_to_matrix(*angles)
    turns = np.arange(-180.0, 180.0, 0.05)
    R0 = rot.euler_to_matrix(*start)
    gaps = [rot.angle_between(R0 @ rot.axis_angle_matrix([0, 1, 0], a), R) for a in turns]
    best = int(np.argmin(gaps))
    return float(turns[best]), float(gaps[best])


def _drag_aircraft(page, dx: float, dy: float = 0.0, steps: int = 10) -> float:
    """Press on the middle of the main app's aircraft and drag by (``dx``, ``dy``) CSS px
    (right, down) in ``steps`` moves; the figure's pixels per CSS px."""
    canvas = h.figure_canvas(page, 0)
    box = canvas.bounding_box()
    probe = GimbalApp()                    # the same pose and camera, headless: where the
    cx, cy = probe.view.centre_px()        # centre of the rings (on the fuselage) falls
    fx, fy = cx / probe.fig.bbox.width, 1 - cy / probe.fig.bbox.height
    scale = page.evaluate("""c => c.width / c.getBoundingClientRect().width
                                 / window.devicePixelRatio""", canvas.element_handle())
    x, y = box["x"] + box["width"] * fx, box["y"] + box["height"] * fy
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, steps + 1):
        page.mouse.move(x + dx * step / steps, y + dy * step / steps)
        page.wait_for_timeout(40)
    page.mouse.up()
    return scale


def _fly_right_and_check(page) -> None:
    """Drag the main app's aircraft (at the lesson's start) 60 CSS px to the right and check
    the sliders read back the body turn about its fin that the drag asks for."""
    start = _angles(page)
    before = h.canvas_images(page)
    scale = _drag_aircraft(page, 60.0)
    page.wait_for_function(
        """() => document.querySelector('.gimbal-app-main .gimbal-fly') !== null""",
        timeout=WAIT)
    h.wait_for_pixels_change(page, before, figure=0, timeout=WAIT / 1000)
    h.wait_idle(page)
    after = _angles(page)
    assert after != start
    turn, gap = _best_top_turn(start, after)
    assert gap <= 1.0, (start, after, turn, gap)       # a pure turn about the top
    probe = GimbalApp()
    R, frame = probe.state.matrix, probe.view.camera_frame()
    axis, asked = model.drag_turn(R, frame, 60.0 * scale, 0.0)
    assert axis == "top"
    assert turn == pytest.approx(asked, abs=1.5), (turn, asked, scale)
    want = flight.body_turn(*start, "top", turn)
    assert rot.angle_between(rot.euler_to_matrix(*want.angles),
                             rot.euler_to_matrix(*after)) <= 1.0
    assert "about its fin" in page.locator(f"{MAIN_APP} .gimbal-fly").inner_text()


def test_fly_it_drag_the_aircraft_in_voila(voila_server, page):
    """A press on the aircraft and a drag to the right turns it about its own top: the
    sliders read back a body turn (flight.body_turn) of the size the drag asks for, the
    camera stays; near the lock the outer and inner rings spin and the panel says so."""
    h.open_lesson(page, voila_server, NOTEBOOK, figures=5)
    show_app(page)
    _fly_right_and_check(page)
    h.screenshot(page, "01_gimbal_lock_fly_drag")


    # near the lock: Lock it, then four degrees back; a drag about the top spins the rings
    page.locator(MAIN_APP).get_by_role("button", name="Lock it").click()
    page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-locked", timeout=WAIT)
    h.wait_idle(page)
    h.move_slider(page, label="pitch (X)", key="ArrowRight", times=4)
    page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-near", timeout=WAIT)
    h.wait_idle(page)
    show_app(page)
    near = _angles(page)
    page.locator(f"{MAIN_APP} .widget-toggle-buttons").get_by_role(
        "button", name="fin", exact=True).click()
    h.wait_idle(page)
    probe = GimbalApp(yaw=near[0], pitch=near[1], roll=near[2])
    frame, top = probe.view.camera_frame(), probe.state.matrix[:, 1]
    across = np.array([frame[1] @ top, frame[0] @ top])   # the drag that turns about it
    across *= 16.0 / np.linalg.norm(across)               # (screen y is down on the page)
    _drag_aircraft(page, across[0], across[1], steps=4)
    page.wait_for_function(
        """() => /spin up to/.test(document.querySelector('.gimbal-app-main .gimbal-fly')
                                    ?.innerText || '')""", timeout=WAIT)
    h.wait_idle(page)
    spun = _angles(page)
    assert abs(spun[0] - near[0]) > 10 and abs(spun[2] - near[2]) > 10, (near, spun)
    h.screenshot(page, "01_gimbal_lock_fly_near_lock")

    # at the lock: the +5° button about the nose (the keyboard's way) keeps it locked, and
    # the panel says the rings' angles are a choice
    page.locator(MAIN_APP).get_by_role("button", name="Lock it").click()
    page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-locked", timeout=WAIT)
    h.wait_idle(page)
    page.locator(f"{MAIN_APP} .widget-toggle-buttons").get_by_role(
        "button", name="nose", exact=True).click()
    h.wait_idle(page)
    locked = _angles(page)
    page.locator(MAIN_APP).get_by_role("button", name="+5°").click()
    page.wait_for_function(
        """() => /not unique/.test(document.querySelector('.gimbal-app-main .gimbal-fly')
                                   ?.innerText || '')""", timeout=WAIT)
    h.wait_idle(page)
    assert "LOCKED" in badge(page)
    now = _angles(page)
    assert now[1] == locked[1] and now != locked
    h.screenshot(page, "01_gimbal_lock_fly_at_lock")
    h.assert_no_error_text(page)
    assert not page.console_errors, page.console_errors


def test_exercises_answer_in_voila(voila_server, page):
    h.open_lesson(page, voila_server, NOTEBOOK, figures=5)
    # exercise 1: typed with the typographic minus sign
    box = page.locator(".widget-vbox", has_text="It takes the nose").last
    box.locator("input").fill("0.5")
    box.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=Not quite", timeout=WAIT)
    box.locator("input").fill("\u22120.5")
    box.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=Right!", timeout=WAIT)

    # exercise 2: "Show this case" puts the small copy in order ZXY, locked
    q = page.locator(".widget-vbox", has_text="whose axes line up").last
    before = h.canvas_images(page)
    q.get_by_role("button", name="Show this case").click()
    h.wait_for_pixels_change(page, before, figure=1, timeout=WAIT / 1000)
    page.wait_for_selector(".gimbal-app-copy .gimbal-badge-locked", timeout=WAIT)
    assert slider_labels(page, ".gimbal-app-copy")[0] == "roll (Z)"
    q.get_by_text("roll's and pitch's").click()
    q.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=those two rings do lie in one plane", timeout=WAIT)
    show_app(page, ".gimbal-app-copy")
    assert_fits(page, ".gimbal-app-copy")
    h.screenshot(page, "01_gimbal_lock_exercise_copy")

    # exercise 4: reach the ghost by typing the angles into the sliders' readouts
    ex = page.locator(".gimbal-reach").last
    ex.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=Not yet", timeout=WAIT)
    target = model.reach_target()
    for label, value in zip(("yaw (Y)", "pitch (X)", "roll (Z)"), target.angles, strict=True):
        readout = ex.locator(".widget-slider", has=page.locator(".widget-label",
                                                                has_text=label)) \
            .locator(".widget-readout").first
        readout.click()
        page.keyboard.press("Control+A")
        page.keyboard.type(f"{value:.0f}")
        page.keyboard.press("Enter")
        page.wait_for_timeout(200)
    page.wait_for_selector(".gimbal-reach .gimbal-target:has-text('On the ghost')",
                           timeout=WAIT)
    ex.get_by_role("button", name="Check").click()
    page.wait_for_selector("text=with yaw", timeout=WAIT)
    assert "On the ghost" in ex.inner_text()
    # the same sliders drawn in order XYZ are off the ghost, and the check says so
    select_order(page, "XYZ", ".gimbal-reach")
    page.wait_for_selector(".gimbal-reach .gimbal-target:has-text('to go')", timeout=WAIT)
    ex.get_by_role("button", name="Check").click()
    page.wait_for_selector(".gimbal-reach :text('Not yet')", timeout=WAIT)
    select_order(page, "YXZ", ".gimbal-reach")
    page.wait_for_selector(".gimbal-reach .gimbal-target:has-text('On the ghost')",
                           timeout=WAIT)
    ex.evaluate("e => e.scrollIntoView({block: 'start'})")
    h.wait_idle(page)
    h.screenshot(page, "01_gimbal_lock_reach_done")
    h.assert_no_error_text(page)


# -- JupyterLab, with the file browser open (its default) ------------------------------------
def lab_screenshot(page, name: str) -> None:
    """A screenshot without JupyterLab's "get notified about news?" toast over the app."""
    no_news = page.locator(".jp-Notification-Toast", has_text="notified").get_by_role(
        "button", name="No")
    if no_news.count():
        no_news.first.click()
        page.wait_for_timeout(300)
    h.screenshot(page, name)


def open_app_in_lab(page, lab_server) -> None:
    """The lesson in JupyterLab, run, with the main app at the top and the page settled."""
    h.open_in_lab(page, lab_server, NOTEBOOK, figures=5)
    page.wait_for_selector(MAIN_APP, timeout=60_000)
    show_app(page)
    h.wait_idle(page, timeout=20)


@pytest.mark.slow
def test_gimbal_lesson_in_jupyterlab_with_the_file_browser_open(lab_server, page):
    """Slow (a JupyterLab of its own, every order locked there): `make test` checks the
    JupyterLab layout on lesson 2 (test_browser_interpolation)."""
    open_app_in_lab(page, lab_server)
    assert_fits(page)
    lab_screenshot(page, "01_gimbal_lock_jupyterlab")
    page.locator(MAIN_APP).get_by_role("button", name="Lock it").click()
    path = model.lock_path(-20.0)
    wait_mid_animation(page, path)
    lab_screenshot(page, "01_gimbal_lock_jupyterlab_animation_middle")
    page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-locked", timeout=WAIT)
    h.wait_idle(page)
    lab_screenshot(page, "01_gimbal_lock_jupyterlab_locked")
    for order in rot.ORDERS:
        select_order(page, order)
        page.locator(MAIN_APP).get_by_role("button", name="Lock it").click()
        page.wait_for_selector(f"{MAIN_APP} .gimbal-badge-locked", timeout=WAIT)
        page.wait_for_timeout(1500)
        h.wait_idle(page)
        assert_fits(page)
        lab_screenshot(page, f"01_gimbal_lock_jupyterlab_{order}_locked")
    h.assert_no_error_text(page)


@pytest.mark.slow
def test_fly_it_in_jupyterlab(lab_server, page):
    """The same drag on the aircraft in JupyterLab (file browser open): the sliders follow."""
    open_app_in_lab(page, lab_server)
    _fly_right_and_check(page)
    lab_screenshot(page, "01_gimbal_lock_jupyterlab_fly_drag")
    h.assert_no_error_text(page)
