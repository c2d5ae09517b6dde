"""StampedText must not change what the label *is* while it draws its stamp: JupyterLab 4.6
sends comm messages over kernel subshells (ipykernel 7 runs each on a thread of its own),
so a page message ('draw', a widget change) renders the figure on one thread while the
kernel's own loop (Lock it) renders it on the main thread."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure

from lessons_lib.apps import fastdraw
from lessons_lib.apps.fastdraw.textcache import StampedText

pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0: plain Text")


def _label():
    fig = Figure(figsize=(4.8, 4.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.1, 0.1)
    ax.set_ylim(-0.1, 0.1)
    label = ax.add_artist(StampedText(
        0.03, 0.02, "pitch −20°", fontsize=10, fontweight="bold", ha="center", va="center",
        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8}))
    return fig, ax, label


def test_the_label_stays_where_it_is_while_its_stamp_is_drawn(monkeypatch):
    """What another thread sees of the label in the middle of a stamp (the stamp canvas's
    first draw call) is the label itself: its transform, position and place on the canvas."""
    fig, ax, label = _label()
    renderer = fig.canvas.get_renderer()
    where = label.get_window_extent(renderer).bounds
    seen = []
    original = RendererAgg.draw_path

    def spy(self, *args, **kwargs):
        if self is not renderer and not seen:          # the stamp's own canvas
            seen.append((label.get_transform() is ax.transData, label.get_position(),
                         label.get_window_extent(renderer).bounds, label.get_clip_on()))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(RendererAgg, "draw_path", spy)
    label.draw(renderer)
    assert seen, "no stamp was drawn"
    assert seen[0] == (True, (0.03, 0.02), where, True)
    assert label.get_transform() is ax.transData and label._renderer is not None


def test_two_threads_drawing_new_strings_leave_the_label_in_place():
    """Lock it (main thread, a new string each frame) and page requests (a subshell
    thread) drawing at once: afterwards the label is pasted where a plain Text draws."""
    fig, ax, label = _label()
    renderer = fig.canvas.get_renderer()
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)                        # switch threads as often as possible
    stop = threading.Event()

    def page():
        while not stop.is_set():
            label.draw(renderer)

    thread = threading.Thread(target=page)
    thread.start()
    try:
        for n in range(120):
            label.set_text(f"pitch −{n}°")            # a new stamp each time
            label.draw(renderer)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(before)
    assert label.get_transform() is ax.transData
    assert label.get_position() == (0.03, 0.02)
    # pasted where it belongs: drawn alone, its pixels are around its anchor
    renderer.clear()
    label.draw(renderer)
    alpha = np.asarray(renderer.buffer_rgba())[:, :, 3]
    rows, cols = np.nonzero(alpha)
    x, y = ax.transData.transform((0.03, 0.02))
    assert abs((cols.min() + cols.max()) / 2 - x) < 3
    assert abs(renderer.height - (rows.min() + rows.max()) / 2 - y) < 3
