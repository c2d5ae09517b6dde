"""Slides to take away: what an app's Play shows, as an animated GIF.

Mixed into :class:`~.app.LessonApp`. ``save_gif`` (from code) writes every frame; the
"Save GIF" button renders at most :attr:`GifExport.gif_max_frames` frames, says on the
status line which frame it is drawing, and offers the file as a download link, which is
cleared as soon as the scenario changes. Frames are slide-sized: at least
:data:`GIF_MIN_WIDTH` pixels wide with every text at least :data:`GIF_TEXT_PX` px tall, and
they show no instruction for the page (:meth:`GifExport.slide_texts`).
"""

from __future__ import annotations

import base64
import contextlib
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets

from ... import validate as check
from ...i18n import _
from ...validate import is_number
from .controls import short
from .figure import MIN_FONT_SIZE, PRESENT_TEXT_PX, smallest_font_pt

#: A GIF narrower than this does not fill a 1280x720 slide.
GIF_MIN_WIDTH = 1280
#: The smallest text in a GIF, in its pixels: presenter mode's floor, read from the back row.
GIF_TEXT_PX = PRESENT_TEXT_PX
#: The most frames ``save_gif`` writes in one call (from code); the button writes fewer.
GIF_MAX_FRAMES = 2000
#: The most pixels of all frames of one GIF together (frames x width x height): the writer
#: holds every frame until the end, a byte a pixel (:func:`_slide_writer`), so this is about
#: 150 MB of the kernel's memory (a room kernel's cap is 1024 MiB).
GIF_PIXEL_BUDGET = 150_000_000
#: Frame rates a GIF viewer plays faithfully.
GIF_FPS_RANGE = (0.5, 50.0)
#: The dots per inch ``save_gif`` takes.
GIF_DPI_RANGE = (20, 600)
#: The largest ``step`` (every step-th frame) a GIF takes; a frame control has at most a few
#: hundred steps, so a larger step is one frame.
MAX_GIF_STEP = 100_000


def _slide_writer(fps: float):
    """matplotlib's Pillow writer, turning each opaque frame into the GIF's 256 colours as it
    is grabbed (not all at the end, where no progress can be shown), which also keeps a
    byte a pixel instead of three."""
    from matplotlib.animation import PillowWriter
    from PIL import Image

    class SlideWriter(PillowWriter):
        def grab_frame(self, **savefig_kwargs):
            super().grab_frame(**savefig_kwargs)
            if self._frames[-1].mode == "RGB":
                self._frames[-1] = self._frames[-1].convert("P", palette=Image.Palette.ADAPTIVE)

    return SlideWriter(fps=fps)


class GifExport:
    """GIF export for an app with a frame control (``self.frame``)."""

    gif_max_frames: int = 60
    gif_button: widgets.Button | None = None
    gif_link: widgets.HTML | None = None

    @property
    def gif_name(self) -> str:
        return type(self).__name__.removesuffix("App").lower() + ".gif"

    def gif_dpi(self) -> int:
        """Enough dots per inch for a frame at least :data:`GIF_MIN_WIDTH` px wide whose
        smallest text (never larger than :data:`MIN_FONT_SIZE` here, as tick labels come and
        go) is at least :data:`GIF_TEXT_PX` px tall."""
        points = min(MIN_FONT_SIZE, smallest_font_pt(self.fig))
        return max(math.ceil(72 * GIF_TEXT_PX / points),
                   math.ceil(GIF_MIN_WIDTH / self.fig.get_figwidth()))

    def slide_texts(self) -> dict:
        """The figure's texts that speak to the page's reader ("click to place the car"),
        each with what a slide shows instead ("" for nothing): a GIF cannot be clicked."""
        return {}

    def gif_fps(self, step: int) -> float:
        """Real time when the frame is time (``seconds_per_unit``); else Play's own pace."""
        self.frame_values(1)   # a ValueError for an app without frames
        step = check.integer(step, "step", lo=1, hi=MAX_GIF_STEP)
        spec = self.frame
        if spec.seconds_per_unit:
            fps = 1.0 / (step * spec.step * spec.seconds_per_unit)
        else:
            fps = 1000.0 / max(spec.interval_ms, 1) / step
        lo, hi = GIF_FPS_RANGE
        return min(hi, max(lo, fps))

    def save_gif(self, path: str | os.PathLike, fps: float | None = None, step: int = 1,
                 dpi: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> str:
        """Write the frames from start to end (every ``step``-th) as a GIF; return its path.

        The app's own ``draw`` makes each frame, with :meth:`slide_texts` in place of the
        page's instructions; the frame control and the texts are put back afterwards.
        ``progress(k, n)`` is called as frame k of n has been drawn.
        """
        values = self.frame_values(step)
        if len(values) > GIF_MAX_FRAMES:
            raise ValueError(f"{len(values)} frames is more than {GIF_MAX_FRAMES}: "
                             f"use a larger step (e.g. step={math.ceil(len(values) / 200)})")
        if fps is None:
            fps = self.gif_fps(step)
        if not is_number(fps) or not GIF_FPS_RANGE[0] <= fps <= GIF_FPS_RANGE[1]:
            raise ValueError(f"fps must be a number from {GIF_FPS_RANGE[0]:g} to "
                             f"{GIF_FPS_RANGE[1]:g}, not {short(fps)}")
        if dpi is None:
            dpi = self.gif_dpi()
        lo, hi = GIF_DPI_RANGE
        if isinstance(dpi, bool) or not isinstance(dpi, int) or not lo <= dpi <= hi:
            raise ValueError(f"dpi must be a whole number from {lo} to {hi}, not {short(dpi)}")
        w, h = self.fig.get_size_inches() * dpi
        if len(values) * w * h > GIF_PIXEL_BUDGET:
            raise ValueError(f"{len(values)} frames of {w:.0f}x{h:.0f} px is more than a GIF "
                             f"may hold ({GIF_PIXEL_BUDGET / 1e6:g} million pixels): use a "
                             f"larger step or a smaller dpi")
        if not isinstance(path, str | os.PathLike) or not os.fspath(path):
            raise ValueError(f"path must be a file name, not {short(path)}")
        path = os.fspath(path)
        if not str(path).lower().endswith(".gif"):
            raise ValueError(f"path must be a .gif file name, not {path!r:.80}")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or os.path.isdir(path):
            raise ValueError(f"cannot write a GIF to {path!r:.60}: give a file name in a folder "
                             "that exists")
        if progress is not None and not callable(progress):
            raise ValueError(f"progress must be a function of (k, n), not {short(progress)}")
        before = self.frame_value
        writer = _slide_writer(fps)
        painter = getattr(self, "painter", None)
        held = painter.hold() if painter is not None else contextlib.nullcontext()
        page_texts = {text: text.get_text() for text in self.slide_texts()}
        try:
            with held, writer.saving(self.fig, path, dpi):   # the page sees no GIF frames
                for text, slide in self.slide_texts().items():
                    text.set_text(slide)
                for k, value in enumerate(values, 1):
                    self.show_frame(value)
                    writer.grab_frame()
                    if progress is not None:
                        progress(k, len(values))
        finally:
            for text, page in page_texts.items():
                text.set_text(page)
            self.show_frame(before)
        return path

    def gif_button_step(self) -> int:
        """The button's step: at most :attr:`gif_max_frames` frames, and no more than the
        pixel budget holds at :meth:`gif_dpi`."""
        w, h = self.fig.get_size_inches() * self.gif_dpi()
        most = max(1, min(self.gif_max_frames, int(GIF_PIXEL_BUDGET // (w * h)) - 1))
        return max(1, math.ceil(len(self.frame_values()) / most))

    # -- the button -------------------------------------------------------------------------
    def add_gif_button(self) -> None:
        """A "Save GIF" button beside the Play row (or under the app)."""
        self.gif_button = widgets.Button(
            description=_("Save GIF"), icon="film",
            tooltip=_("write what Play shows as an animated GIF (for slides) and offer it as "
                      "a download"), layout=widgets.Layout(width="110px"))
        self.gif_link = widgets.HTML(layout=widgets.Layout(margin="0 0 0 8px"))
        self.gif_button.on_click(self.guard(self._on_gif_button))
        self._place_gif_row(widgets.HBox([self.gif_button, self.gif_link],
                                         layout=widgets.Layout(align_items="center",
                                                               flex_flow="row wrap")))

    def _place_gif_row(self, row: widgets.Widget) -> None:
        from .app import iter_widgets

        for box in iter_widgets(self.widget):
            children = tuple(getattr(box, "children", ()) or ())
            if isinstance(box, widgets.Box) and any(c is self.status for c in children):
                i = next(i for i, c in enumerate(children) if c is self.status)
                box.children = (*children[:i], row, *children[i:])
                return
        self.widget = widgets.VBox([self.widget, row])

    def clear_gif_link(self) -> None:
        """The scenario changed: a GIF made before shows something else now."""
        if self.gif_link is not None and self.gif_link.value:
            self.gif_link.value = ""

    def _gif_progress(self, k: int, n: int) -> None:
        """The status line while the button's GIF is made."""
        then = _("; then the file is written") if k == n else ""
        self.show_message(_("Save GIF: drew frame {k} of {n}").format(k=k, n=n) + then,
                          kind="info")

    def _on_gif_button(self, _button=None) -> None:
        step = self.gif_button_step()
        frames = len(self.frame_values(step))
        self.pause()
        self.gif_button.disabled = True
        self.gif_link.value = ""
        self.show_message(_("Save GIF: drawing {frames} frames").format(frames=frames),
                          kind="info")
        try:
            with tempfile.TemporaryDirectory(prefix="lesson-gif-") as tmp:
                path = self.save_gif(Path(tmp) / self.gif_name, step=step,
                                     progress=self._gif_progress)
                data = Path(path).read_bytes()
            self.clear_message()
        finally:
            self.gif_button.disabled = False
        encoded = base64.b64encode(data).decode("ascii")
        self.gif_link.value = (
            f'<a class="lesson-gif-link" download="{self.gif_name}" '
            f'href="data:image/gif;base64,{encoded}">&#11015; {self.gif_name}</a> '
            f"<span>({len(data) // 1024} kB, {frames} frames)</span>")
