"""The previous app base class, kept only until every app runs on :mod:`.core`.

Shared look and plumbing for every lesson app.

* a colour-blind-safe palette (Okabe & Ito), used by every lesson;
* :func:`make_figure`, which creates an ipympl figure exactly once, without showing it;
* :class:`LessonApp`, a base class with a status line, guarded callbacks (a callback never
  leaves a traceback on a learner's page) and GIF export of whatever a Play control shows:
  from code (:meth:`LessonApp.save_gif`) and, in every app with a Play, from a "Save GIF"
  button that hands the file to the browser as a download;
* guarded controls: a value pushed into a control through the widget channel (a crafted
  message, a stale browser) that the control cannot take leaves the app working and shows a
  one-line message instead of an error in the kernel log only.
"""

from __future__ import annotations

import base64
import functools
import html
import logging
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets
import matplotlib
from ipywidgets.widgets.widget import _put_buffers

from .core.app import iter_widgets  # noqa: F401  (re-exported for the apps not yet ported)
from .core.figure import (  # noqa: F401
    FONT_SIZE,
    IPYMPL_BACKEND,
    PALETTE,
    make_figure,
    rc_context,
    use_ipympl,
)

log = logging.getLogger("lessons_lib.apps")


def _short(value, limit: int = 30) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple) and all(isinstance(v, float) for v in value):
        return "(" + ", ".join(f"{v:g}" for v in value) + ")"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class LessonApp:
    """Base class: a status line and callbacks that cannot leave a traceback on the page.

    Subclasses set ``self.fig`` and ``self.widget``; apps with a Play control set
    ``self.play`` and then get :meth:`save_gif` and a "Save GIF" button for free. When a
    subclass's ``__init__`` has finished, :meth:`_finish_setup` adds the button and guards
    every control's widget channel (see :meth:`_on_control_msg`).
    """

    fig: matplotlib.figure.Figure
    widget: widgets.Widget
    play: widgets.Play | None = None
    #: The "Save GIF" button's limits: a class of laptops shares one CPU, so a button press
    #: renders at most this many frames at this resolution (``save_gif`` has no such limit).
    gif_max_frames: int = 40
    gif_dpi: int = 60

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None or getattr(init, "_lesson_setup", False):
            return

        @functools.wraps(init)
        def __init__(self, *args, **kw):
            depth = self.__dict__.get("_init_depth", 0)
            self._init_depth = depth + 1
            try:
                init(self, *args, **kw)
            finally:
                self._init_depth = depth
            if depth == 0:  # the outermost __init__ is done: the widget tree is complete
                self._finish_setup()

        __init__._lesson_setup = True
        cls.__init__ = __init__

    def _finish_setup(self) -> None:
        self.gif_button: widgets.Button | None = None
        self.gif_link: widgets.HTML | None = None
        if self.play is not None and getattr(self, "widget", None) is not None:
            self._add_gif_button()
        self.guard_controls()

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

        values = self.gif_values(step)
        play = self.play
        if fps is None:
            fps = max(1, round(1000 / max(play.interval, 1)))
        path = os.fspath(path)
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

    def gif_values(self, step: int = 1) -> list[int]:
        """The Play values :meth:`save_gif` turns into frames (the last one always included)."""
        if self.play is None:
            raise ValueError("this app has no Play control, so there is nothing to animate")
        if step < 1:
            raise ValueError(f"step must be a positive whole number, got {step}")
        play = self.play
        values = list(range(play.min, play.max + 1, step * play.step))
        if values[-1] != play.max:
            values.append(play.max)
        return values

    # -- the "Save GIF" button ------------------------------------------------------------
    @property
    def gif_name(self) -> str:
        return type(self).__name__.removesuffix("App").lower() + ".gif"

    def _add_gif_button(self) -> None:
        self.gif_button = widgets.Button(
            description="Save GIF", icon="film",
            tooltip="Write what Play shows as an animated GIF (for slides) and offer it as a "
                    "download", layout=widgets.Layout(width="110px"))
        self.gif_link = widgets.HTML(layout=widgets.Layout(margin="0 0 0 8px"))
        row = widgets.HBox([self.gif_button, self.gif_link],
                           layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        self.gif_button.on_click(self.guard(self._on_gif_button))
        # Put the row just above the status line, wherever the app placed it; otherwise
        # under the whole app.
        for box in iter_widgets(self.widget):
            children = tuple(getattr(box, "children", ()) or ())
            if isinstance(box, widgets.Box) and any(c is self.status for c in children):
                i = next(i for i, c in enumerate(children) if c is self.status)
                box.children = (*children[:i], row, *children[i:])
                return
        if isinstance(self.widget, widgets.VBox):
            self.widget.children = (*self.widget.children, row)
        else:
            self.widget = widgets.VBox([self.widget, row])

    def _on_gif_button(self, _button=None) -> None:
        """Render the animation to a temporary file and hand it to the browser as a link."""
        n = len(self.gif_values())
        step = max(1, math.ceil(n / self.gif_max_frames))
        frames = len(self.gif_values(step))
        self.gif_button.disabled = True
        self.gif_link.value = f"<i>writing {frames} frames ...</i>"
        try:
            # Real time when that is short; a long run is sped up to about 8 s of slide.
            native = 1000 / max(self.play.interval, 1) / step
            fps = max(1, min(25, round(max(native, frames / 8))))
            with tempfile.TemporaryDirectory(prefix="lesson-gif-") as tmp:
                path = self.save_gif(Path(tmp) / self.gif_name, fps=fps, step=step,
                                     dpi=self.gif_dpi)
                data = Path(path).read_bytes()
        except Exception:
            self.gif_link.value = ""
            raise
        finally:
            self.gif_button.disabled = False
        encoded = base64.b64encode(data).decode("ascii")
        self.gif_link.value = (
            f'<a class="lesson-gif-link" download="{self.gif_name}" '
            f'href="data:image/gif;base64,{encoded}">&#11015; {self.gif_name}</a> '
            f"<small>({len(data) // 1024} kB, {frames} frames)</small>")

    # -- controls that keep working whatever the widget channel sends ----------------------
    def guard_controls(self) -> None:
        """Route every control's widget messages through :meth:`_on_control_msg`.

        Called once the app is built; call it again after adding controls later.
        """
        candidates = list(iter_widgets(self.widget)) if getattr(self, "widget", None) else []
        candidates += [v for v in vars(self).values() if isinstance(v, widgets.Widget)]
        for w in candidates:
            comm = getattr(w, "comm", None)
            if comm is None or getattr(comm, "_lesson_guarded", False):
                continue
            comm.on_msg(functools.partial(self._on_control_msg, w))
            comm._lesson_guarded = True

    def _on_control_msg(self, w: widgets.Widget, msg: dict) -> None:
        """Apply a front end's message to ``w``; a value it cannot take becomes a message.

        A wrong type (or anything else the control refuses) keeps the old value; a number
        outside a slider's range is clamped by the control. Either way the browser is sent
        the value actually kept, and the status line says what happened in one sentence.
        """
        data = msg.get("content", {}).get("data", {}) or {}
        state = data.get("state") if data.get("method") == "update" else None
        state = state if isinstance(state, dict) else {}
        label = getattr(w, "description", "") or type(w).__name__
        try:
            if state:  # ipywidgets' own handler would print a traceback into the page
                if "buffer_paths" in data:
                    _put_buffers(state, data["buffer_paths"], msg.get("buffers") or [])
                w.set_state(state)
            else:
                w._handle_msg(msg)
        except Exception as exc:
            log.info("control %s refused %s: %s", label, _short(state), exc)
            keys = [k for k in state if k in w.keys]
            shown = _short(state.get("value", state))
            self.show_message(f"'{label}' cannot take {shown}; it keeps its value.")
            if keys:
                w.send_state(keys)
            return
        asked = state.get("value")
        lo, hi = getattr(w, "min", None), getattr(w, "max", None)
        if (asked is not None and isinstance(lo, int | float) and isinstance(hi, int | float)
                and not isinstance(asked, bool)):
            values = asked if isinstance(asked, list | tuple) else [asked]
            numbers = [v for v in values if isinstance(v, int | float)]
            if numbers and any(not lo <= v <= hi for v in numbers):
                self.show_message(f"'{label}' goes from {lo:g} to {hi:g}; "
                                  f"{_short(asked)} became {_short(w.value)}.")
                w.send_state(["value"])
