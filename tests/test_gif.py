"""Slides to take away: every app with a frame control (and Play) writes it as a GIF.

The apps are found from ``lessons_lib.apps.__all__``, so a future lesson's app is checked
without touching this file. Frames are few and small (low dpi) to keep the suite fast.
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.animation import PillowWriter
from PIL import Image, ImageSequence

from lessons_lib import apps
from lessons_lib.apps.core import LessonApp, iter_widgets
from lessons_lib.apps.core.figure import MIN_FONT_SIZE, shown_texts, smallest_text_px
from lessons_lib.apps.core.gif import GIF_MIN_WIDTH, GIF_TEXT_PX
from lessons_lib.apps.funnel import view as funnel_view
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
    assert frames[0].shape[1] >= GIF_MIN_WIDTH, "a slide narrower than 1280 px"
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


#: Words that ask the reader to do something on the page: a GIF cannot be clicked.
HINT = re.compile(r"\b(click|drag|press|tap|hover|type)", re.I)


@pytest.fixture
def grabbed(monkeypatch):
    """What each frame a GIF writer grabs shows: its size in px, the smallest text in the
    GIF's px (the page's measurement scaled to the GIF's dpi) and its texts."""
    seen = []
    grab = PillowWriter.grab_frame

    def recording(writer, **kwargs):
        grab(writer, **kwargs)
        fig = writer.fig
        ratio = getattr(fig.canvas, "device_pixel_ratio", 1) or 1
        seen.append({"size": writer.frame_size, "dpi": writer.dpi,
                     "text_px": smallest_text_px(fig) * ratio * writer.dpi / fig.dpi,
                     "texts": [t.get_text() for t in shown_texts(fig)]})

    monkeypatch.setattr(PillowWriter, "grab_frame", recording)
    return seen


def test_button_gif_is_slide_sized_with_slide_sized_text(play_app, grabbed):
    """Issue 42: 502x288 px with 7 px text was too small for a slide."""
    play_app.gif_max_frames = 3
    play_app.gif_button.click()
    assert play_app.last_error is None, play_app.last_error
    assert len(grabbed) >= 2
    # lesson 4's portal numbers are outlines (no Text to measure), no smaller than any text
    assert funnel_view.LABEL_SIZE >= MIN_FONT_SIZE
    for frame in grabbed:
        assert frame["size"][0] >= GIF_MIN_WIDTH >= 1280, frame["size"]
        assert frame["text_px"] >= GIF_TEXT_PX >= 20, frame["text_px"]
        assert MIN_FONT_SIZE * frame["dpi"] / 72 >= GIF_TEXT_PX
    data = base64.b64decode(play_app.gif_link.value.split("base64,", 1)[1].split('"', 1)[0])
    assert frames_of(io.BytesIO(data))[0].shape[1::-1] == grabbed[0]["size"]


def test_gif_frames_show_no_instruction_for_the_page(play_app, grabbed, tmp_path):
    """Lesson 3's map said "click to place the car" in every frame; the page keeps it."""
    app = play_app
    app.fig.canvas.draw()
    page = [t.get_text() for t in shown_texts(app.fig)]
    app.save_gif(tmp_path / "slide.gif", step=few_frames_step(app), dpi=30)
    for k, frame in enumerate(grabbed):
        hints = [text for text in frame["texts"] if HINT.search(text)]
        assert not hints, f"frame {k}: {hints}"
    app.fig.canvas.draw()
    assert [t.get_text() for t in shown_texts(app.fig)] == page


def test_steering_map_says_click_on_the_page_only():
    app = make("SteeringApp")
    assert app.slide_texts(), "lesson 3's map has an instruction to take off a slide"
    for text, slide in app.slide_texts().items():
        assert HINT.search(text.get_text()) and not HINT.search(slide)
    plt.close(app.fig)


def test_save_gif_reports_each_frame_drawn(play_app, tmp_path):
    step = few_frames_step(play_app)
    calls = []
    play_app.save_gif(tmp_path / "p.gif", step=step, dpi=30,
                      progress=lambda k, n: calls.append((k, n)))
    n = len(play_app.frame_values(step))
    assert calls == [(k, n) for k in range(1, n + 1)]
    with pytest.raises(ValueError, match="progress must be a function"):
        play_app.save_gif(tmp_path / "p.gif", step=step, progress="yes")


#: The GIFs the notebooks tell a reader to write from code: notebook, app, step.
NOTEBOOK_GIFS = {lesson(2).slug: ("InterpolationApp", r'app\.save_gif\(\\"slerp\.gif\\"\)'),
                 lesson(3).slug: ("SteeringApp",
                                        r'app\.save_gif\(\\"run\.gif\\", step=(\d+)\)'),
                 lesson(4).slug: ("FunnelApp",
                                         r'funnel_app\.save_gif\(\\"funnel\.gif\\"\)')}


@pytest.mark.parametrize("notebook", sorted(NOTEBOOK_GIFS))
def test_the_notebooks_gif_from_code_fits_a_gif_at_slide_size(notebook):
    """What the page suggests (every frame, or every step-th) is within the pixel budget at
    the slide's dpi, so it writes a GIF instead of a ValueError."""
    from lessons_lib.apps.core.gif import GIF_PIXEL_BUDGET

    name, pattern = NOTEBOOK_GIFS[notebook]
    source = (Path(__file__).parent.parent / "notebooks" / f"{notebook}.ipynb").read_text()
    m = re.search(pattern, source)
    assert m, f"{notebook} no longer says {pattern}"
    app = make(name)
    step = int(m.group(1)) if m.groups() else 1
    w, h = app.fig.get_size_inches() * app.gif_dpi()
    assert len(app.frame_values(step)) * w * h <= GIF_PIXEL_BUDGET
    plt.close(app.fig)


def test_save_gif_button_shows_frame_k_of_n_on_the_status_line(play_app, monkeypatch):
    app = play_app
    app.gif_max_frames = 3
    lines = []
    show = app.show_message

    def recording(text, kind="error"):
        show(text, kind)
        lines.append((text, kind, app.status.value))

    monkeypatch.setattr(app, "show_message", recording)
    app.gif_button.click()
    assert app.last_error is None, app.last_error
    n = len(app.frame_values(app.gif_button_step()))
    assert lines[0][:2] == (f"Save GIF: drawing {n} frames", "info")
    drew = [text for text, _, _ in lines[1:]]
    assert drew == [f"Save GIF: drew frame {k} of {n}" for k in range(1, n)] + \
        [f"Save GIF: drew frame {n} of {n}; then the file is written"]
    assert all("frame" in status for _, _, status in lines[1:]), "shown on the status line"
    assert app.status.value == "" and "lesson-gif-link" in app.gif_link.value


@pytest.mark.browser
def test_save_gif_button_in_voila(voila_server, page):
    """In a lesson served by Voila: the button leaves a download link holding a real GIF."""
    import browser as harness

    notebook = lesson(2).notebook
    harness.open_lesson(page, voila_server, notebook)
    button = page.get_by_role("button", name="Save GIF").first    # the app's (the copy has one)
    button.scroll_into_view_if_needed()
    button.click()
    # the progress line, on the app's status line while the frames are drawn
    page.locator(".lesson-status-info", has_text="Save GIF: drew frame").first\
        .wait_for(timeout=60_000)
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
