"""Shared look and plumbing for every lesson app.

* a colour-blind-safe palette (Okabe & Ito), used by every lesson;
* :func:`make_figure`, which creates an ipympl figure exactly once, without showing it;
* :class:`LessonApp`, a base class with a status line, guarded callbacks (a callback never
  leaves a traceback on a learner's page) and GIF export of whatever a Play control shows.
"""

from __future__ import annotations

import functools
import html
import logging
import os
from collections.abc import Callable

import ipywidgets as widgets
import matplotlib
import matplotlib.pyplot as plt

log = logging.getLogger("lessons_lib.apps")

#: Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "grey": "#8C8C8C",
    "light": "#E8E8E8",
}

IPYMPL_BACKEND = "module://ipympl.backend_nbagg"

#: Base font size for figures: readable on a 1280x720 projector.
FONT_SIZE = 10

_RC = {
    "font.size": FONT_SIZE,
    "axes.titlesize": FONT_SIZE + 1,
    "axes.labelsize": FONT_SIZE,
    "legend.fontsize": FONT_SIZE - 1,
    "xtick.labelsize": FONT_SIZE - 1,
    "ytick.labelsize": FONT_SIZE - 1,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def use_ipympl() -> None:
    """Switch pyplot to the ipympl backend if it is not already in use."""
    if "ipympl" not in matplotlib.get_backend():
        plt.switch_backend(IPYMPL_BACKEND)


def make_figure(width: float, height: float, dpi: int = 100, **kwargs) -> matplotlib.figure.Figure:
    """Create one interactive figure, inside ``plt.ioff()`` so it is never shown twice.

    The app places ``fig.canvas`` in its own layout; the figure is updated in place from
    then on (``set_data`` + ``fig.canvas.draw_idle()``), never re-created in a callback.
    """
    use_ipympl()
    with plt.ioff(), matplotlib.rc_context(_RC):
        fig = plt.figure(figsize=(width, height), dpi=dpi, **kwargs)
    canvas = fig.canvas
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.resizable = False
    canvas.capture_scroll = False
    canvas.toolbar_visible = "fade-in-fade-out"
    canvas.toolbar_position = "left"
    return fig


def rc_context():
    """The lessons' matplotlib settings, for code that adds axes after :func:`make_figure`."""
    return matplotlib.rc_context(_RC)


class LessonApp:
    """Base class: a status line and callbacks that cannot leave a traceback on the page.

    Subclasses set ``self.fig`` and ``self.widget``; apps with a Play control set
    ``self.play`` and then get :meth:`save_gif` for free.
    """

    fig: matplotlib.figure.Figure
    widget: widgets.Widget
    play: widgets.Play | None = None

    def __init__(self) -> None:
        self.status = widgets.HTML(value="", layout=widgets.Layout(min_height="1.6em"))
        self.last_error: str | None = None

    def _ipython_display_(self) -> None:
        """A bare ``App()`` as the last line of a cell shows the app, not its repr."""
        from IPython.display import display

        display(self.widget)

    # -- messages -------------------------------------------------------------------------
    def show_message(self, text: str, kind: str = "error") -> None:
        colour = {"error": PALETTE["vermillion"], "info": PALETTE["blue"],
                  "ok": PALETTE["green"]}.get(kind, PALETTE["black"])
        icon = {"error": "&#9888;", "info": "&#8505;", "ok": "&#10003;"}.get(kind, "")
        self.status.value = (
            f'<span class="lesson-status lesson-status-{kind}" style="color:{colour};'
            f'font-weight:600">{icon} {html.escape(text)}</span>'
        )
        if kind == "error":
            self.last_error = text

    def clear_message(self) -> None:
        self.status.value = ""
        self.last_error = None

    def guard(self, fn: Callable) -> Callable:
        """Wrap a callback: a ValueError becomes a short message, anything else too."""

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                result = fn(*args, **kwargs)
            except ValueError as exc:
                self.show_message(str(exc))
                return None
            except Exception as exc:  # a learner's page never shows a traceback
                log.exception("callback %s failed", getattr(fn, "__name__", fn))
                self.show_message(f"Something went wrong ({type(exc).__name__}): {exc}")
                return None
            return result

        return wrapper

    def redraw(self) -> None:
        self.fig.canvas.draw_idle()

    # -- slides to take away --------------------------------------------------------------
    def save_gif(self, path: str | os.PathLike, fps: int | None = None, step: int = 1,
                 dpi: int = 80) -> str:
        """Write what the Play control shows as an animated GIF and return its path.

        Every value of ``self.play`` from ``min`` to ``max`` (every ``step``-th) becomes one
        frame; the app's own callbacks draw it. The control is put back where it was.
        """
        from matplotlib.animation import PillowWriter

        if self.play is None:
            raise ValueError("this app has no Play control, so there is nothing to animate")
        if step < 1:
            raise ValueError(f"step must be a positive whole number, got {step}")
        play = self.play
        if fps is None:
            fps = max(1, round(1000 / max(play.interval, 1)))
        path = os.fspath(path)
        values = list(range(play.min, play.max + 1, step * play.step))
        if values[-1] != play.max:
            values.append(play.max)
        before = play.value
        writer = PillowWriter(fps=fps)
        try:
            with writer.saving(self.fig, path, dpi):
                for value in values:
                    play.value = value
                    self._sync_for_gif(value)
                    writer.grab_frame()
        finally:
            play.value = before
            self._sync_for_gif(before)
        return path

    def _sync_for_gif(self, value) -> None:
        """Hook for apps whose Play value is not linked to the drawing by a plain observer."""
