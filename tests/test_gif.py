"""Slides to take away: every app with a frame control (and Play) writes it as a GIF.

The apps are found from ``lessons_lib.apps.__all__``, so a future lesson's app is checked
without touching this file. Frames are few and small (low dpi) to keep the suite fast.
"""

from __future__ import annotations

import base64
import io
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image, ImageSequence

from lessons_lib import apps
from lessons_lib.apps.core import LessonApp, iter_widgets
from lessons_lib.apps.core.gif import GIF_MIN_WIDTH
from lessons_lib.catalogue import lesson

APP_NAMES = sorted(apps.__all__)


def make(name: str) -> LessonApp:
    app = getattr(apps, name)()
    assert isinstance(app, LessonApp), f"{name} must subclass LessonApp"
    return app


@pytest.fixture(params=APP_NAMES)
def app(request):
    a = make(request.param)
    yield a
    plt.close(a.fig)


def _has_frame(name: str) -> bool:
    a = make(name)
    plt.close(a.fig)
    return a.frame is not None


PLAY_APPS = [n for n in APP_NAMES if _has_frame(n)]


@pytest.fixture(params=PLAY_APPS)
def play_app(request):
    a = make(request.param)
    yield a
    plt.close(a.fig)


def frames_of(source) -> list[np.ndarray]:
    with Image.open(source) as gif:
        assert gif.format == "GIF"
        return [np.asarray(f.convert("RGB"), dtype=np.int16).copy()
                for f in ImageSequence.Iterator(gif)]


def few_frames_step(app: LessonApp, frames: int = 4) -> int:
    return max(1, len(app.frame_values()) // (frames - 1))


def test_at_least_two_apps_have_a_play():
    assert len(PLAY_APPS) >= 2, PLAY_APPS


def test_save_gif_frames_count_and_differ(app, tmp_path):
    if app.frame is None:
        with pytest.raises(ValueError, match="no frame control"):
            app.save_gif(tmp_path / "none.gif")
        assert app.gif_button is None
        return
    step = few_frames_step(app)
    values = app.frame_values(step)
    # from the start to the end (the funnel's end is the last step of its route, not max)
    assert values[0] == app.frame.min and values == sorted(set(values))
    before = app.frame_value
    path = app.save_gif(tmp_path / "slide.gif", step=step, dpi=30)
    assert (tmp_path / "slide.gif").is_file() and path.endswith("slide.gif")
    frames = frames_of(path)
    assert len(frames) == len(values) >= 2
    for i, (a, b) in enumerate(zip(frames, frames[1:], strict=False)):
        assert np.abs(a - b).sum() > 0, f"frames {i} and {i + 1} are identical"
    assert app.frame_value == before, "save_gif must put the frame control back"


def test_save_gif_rejects_a_bad_step(play_app, tmp_path):
    with pytest.raises(ValueError, match="step must be a positive whole number"):
        play_app.save_gif(tmp_path / "bad.gif", step=0)


def test_gif_frame_shows_the_figure_at_that_frame(tmp_path):
    """Frame k is the figure drawn at the k-th frame value (up to the GIF's 256 colours)."""
    app = make(PLAY_APPS[0])
    step = few_frames_step(app)
    values = app.frame_values(step)
    frames = frames_of(app.save_gif(tmp_path / "a.gif", step=step, dpi=30))
    k = len(values) // 2
    app.show_frame(values[k])
    buf = io.BytesIO()
    app.fig.savefig(buf, format="png", dpi=30)
    direct = np.asarray(Image.open(buf).convert("RGB"), dtype=np.int16)
    assert direct.shape == frames[k].shape
    near = np.abs(direct - frames[k]).mean()
    others = [np.abs(direct - f).mean() for i, f in enumerate(frames) if i != k]
    assert near < 0.5 * min(others), (near, others)
    plt.close(app.fig)


def test_save_gif_button_offers_a_readable_download(play_app):
    app = play_app
    app.gif_max_frames = 5
    before = app.frame_value
    app.gif_button.click()
    assert app.last_error is None, app.last_error
    link = app.gif_link.value
    m = re.search(r'download="([^"]+\.gif)" href="data:image/gif;base64,([A-Za-z0-9+/=]+)"', link)
    assert m, link[:200]
    assert m.group(1) == app.gif_name
    frames = frames_of(io.BytesIO(base64.b64decode(m.group(2))))
    step = -(-len(app.frame_values()) // 5)
    assert len(frames) == len(app.frame_values(step)) <= 6
    assert frames[0].shape[1] >= GIF_MIN_WIDTH, "a slide narrower than 480 px"
    assert f"{len(frames)} frames" in link
    assert any(np.abs(a - b).sum() for a, b in zip(frames, frames[1:], strict=False))
    assert app.frame_value == before and not app.gif_button.disabled


def test_gif_button_sits_just_above_the_status_line(play_app):
    app = play_app
    row = next(w for w in iter_widgets(app.widget)
               if app.gif_button in tuple(getattr(w, "children", ())))
    parent = next(w for w in iter_widgets(app.widget)
                  if row in tuple(getattr(w, "children", ())))
    kids = list(parent.children)
    assert kids.index(row) + 1 == kids.index(app.status)


@pytest.mark.browser
def test_save_gif_button_in_voila(voila_server, page):
    """In a lesson served by Voila: the button leaves a download link holding a real GIF."""
    import browser as harness

    notebook = lesson(2).notebook
    harness.open_lesson(page, voila_server, notebook)
    button = page.get_by_role("button", name="Save GIF").first    # the app's (the copy has one)
    button.scroll_into_view_if_needed()
    button.click()
    link = page.locator("a.lesson-gif-link")
    link.wait_for(timeout=120_000)
    href = link.get_attribute("href")
    assert href.startswith("data:image/gif;base64,")
    frames = frames_of(io.BytesIO(base64.b64decode(href.split(",", 1)[1])))
    assert 2 <= len(frames) <= LessonApp.gif_max_frames + 1
    assert frames[0].shape[1] >= GIF_MIN_WIDTH
    assert f"{len(frames)} frames" in page.locator(".lesson-gif-link").locator("xpath=..")\
        .inner_text()
    assert link.get_attribute("download") == "interpolation.gif"
    page.evaluate("""() => document.querySelector('.jupyter-matplotlib-figure')
                        .closest('.widget-hbox, .widget-vbox').scrollIntoView({block: 'start'})""")
    harness.wait_idle(page)
    harness.screenshot(page, "gif_button_02")
    harness.assert_no_error_text(page)
