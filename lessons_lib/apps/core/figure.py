"""Figures for the lesson apps: one palette, one way to make a figure, one way to drag.

* :data:`PALETTE` and the rest of the look (greys, font sizes) live in :mod:`.theme`;
  :func:`bare_axes` hides an axes' ticks and frame.
* :func:`make_figure` creates an ipympl figure exactly once, without showing it, with no
  toolbar, no resize handle and no matplotlib key shortcuts: nothing on the canvas can switch
  it into a pan or zoom mode that would swallow the lesson's own clicks.
  Its page channel goes through :func:`.guard.guard_canvas`: size and pixel ratio within
  bounds, no toolbar or key messages.
* :class:`DragHandler` turns press / move / release into a drag that always ends: on a
  release anywhere, when the pointer leaves the canvas, or on a move with no button held.
  The release is the drag's last move, so the page's rate limit on pointer moves
  (:func:`pace_pointer`) never loses the point where the button was let go.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import matplotlib
import matplotlib.axes
import matplotlib.figure
import matplotlib.pyplot as plt
from matplotlib.text import Text
from mpl_toolkits.mplot3d import proj3d
from mpl_toolkits.mplot3d.art3d import Text3D

from ... import validate as check
from ..fastdraw import Painter, choose_throttle_ms
from ..fastdraw.painter import LIVE_THROTTLE_MS
from .fonts import language_rc
from .guard import FIGURE_MAX_PX, FIGURE_MIN_PX, guard_canvas

# PALETTE, FONT_SIZE and MIN_FONT_SIZE live in .theme; importing them from here still works
from .theme import FONT_SIZE, MIN_FONT_SIZE, PALETTE, TITLE_SIZE  # noqa: F401

IPYMPL_BACKEND = "module://ipympl.backend_nbagg"

#: Dots per inch of every lesson figure on the page. Chosen so that the smallest text any
#: figure uses (:data:`MIN_FONT_SIZE`, 9 pt) is 14.5 px, over the 14 px floor at 100% zoom
#: (text in px = points * dpi / 72); lines and markers grow with it, like a zoom.
FIGURE_DPI = 116
#: The dots per inch in presenter mode: 9 pt is 20 px there.
PRESENT_DPI = 160
#: The smallest text on the page and in a figure, in CSS px: at 100% zoom and in
#: presenter mode (:mod:`.layout`).
MIN_TEXT_PX = 14.0
PRESENT_TEXT_PX = 20.0

_RC = {
    "font.size": FONT_SIZE,
    "axes.titlesize": TITLE_SIZE,
    "axes.labelsize": FONT_SIZE,
    "legend.fontsize": MIN_FONT_SIZE,
    "xtick.labelsize": MIN_FONT_SIZE,
    "ytick.labelsize": MIN_FONT_SIZE,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def use_ipympl() -> None:
    """Switch pyplot to the ipympl backend if it is not already in use."""
    if "ipympl" not in matplotlib.get_backend():
        plt.switch_backend(IPYMPL_BACKEND)


def rc_context():
    """The lessons' matplotlib settings, for code that adds axes or text to a figure."""
    return matplotlib.rc_context({**_RC, **language_rc()})


def figure_size(width, height) -> tuple[float, float]:
    """A figure's natural size (hundreds of CSS px, what inches are at 100 dpi), checked:
    finite, and on the page within the canvas guard's :data:`~.guard.FIGURE_MIN_PX` to
    :data:`~.guard.FIGURE_MAX_PX`."""
    lo, hi = FIGURE_MIN_PX / 100, FIGURE_MAX_PX / 100
    return (check.real(width, "width", lo=lo, hi=hi, unit="(hundreds of px)"),
            check.real(height, "height", lo=lo, hi=hi, unit="(hundreds of px)"))


def _no_pointer_readout(canvas) -> None:
    """Stop the hidden toolbar's pointer readout. On every pointer move over a figure
    matplotlib's toolbar formats the pointer's data coordinates (for a 3D axes, a search of
    its panes) and ipympl sends the text to the page for the footer, which no lesson
    shows: a lesson 1 aircraft drag spent about a millisecond of its 15 to 20 ms per move
    on it, and one message in five."""
    toolbar = getattr(canvas, "toolbar", None)
    moved = getattr(toolbar, "_id_drag", None)
    if moved is not None:
        canvas.mpl_disconnect(moved)
        toolbar._id_drag = None


def make_figure(width: float, height: float, **kwargs) -> matplotlib.figure.Figure:
    """Create one interactive figure, inside ``plt.ioff()`` so it is never shown twice.

    ``width`` and ``height`` are its natural size on the page in hundreds of CSS px (what
    inches are at matplotlib's 100 dpi); it is drawn at :data:`FIGURE_DPI`, so its text
    is as large as the 14 px floor asks. A lesson app's layout then sizes it to the page
    (:mod:`.layout`).

    The app places ``fig.canvas`` in its own layout and updates the figure in place from
    then on (``set_data``, then :meth:`LessonApp.redraw`, or ``fig.canvas.draw_idle()``
    outside an app); it never re-creates it. Every draw goes through a :class:`Painter`.
    """
    width, height = figure_size(width, height)
    use_ipympl()
    with plt.ioff(), matplotlib.rc_context({**_RC, **language_rc()}):
        scale = 100.0 / FIGURE_DPI
        fig = plt.figure(figsize=(width * scale, height * scale), dpi=FIGURE_DPI, **kwargs)
    canvas = fig.canvas
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.resizable = False           # no resize triangle in the corner
    canvas.capture_scroll = False      # the page scrolls over a figure
    canvas.toolbar_visible = False     # no Pan / Zoom modes that would take over clicks
    canvas.layout.flex = "0 0 auto"    # as wide as the figure, not as wide as the row
    canvas.on_msg(_resend_settings)
    manager = getattr(canvas, "manager", None)
    handler = getattr(manager, "key_press_handler_id", None)
    if handler is not None:            # 'p', 'o', 'l', 'k', 's' ... do nothing here
        canvas.mpl_disconnect(handler)
        manager.key_press_handler_id = None
    _no_pointer_readout(canvas)
    guard_canvas(canvas)               # the page's size, pixel ratio and events, checked
    Painter.attach(fig)
    return fig


def _shown(artist) -> Iterator:
    """``artist`` and what it holds, leaving out whatever is hidden (with all it holds)."""
    if not artist.get_visible():
        return
    yield artist
    for child in artist.get_children():
        yield from _shown(child)


def _figure(fig):
    """``fig`` if it is a matplotlib Figure, else a ValueError."""
    if not isinstance(fig, matplotlib.figure.Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {check.describe(fig)}")
    return fig


def shown_texts(fig) -> list[Text]:
    """The texts ``fig`` shows: visible, not empty. Draw the figure first: tick labels are
    made as it is drawn."""
    return [t for t in _shown(_figure(fig)) if isinstance(t, Text) and t.get_text().strip()]


def smallest_font_pt(fig) -> float:
    """The smallest visible text of ``fig`` in points; inf when it shows no text."""
    return min((t.get_fontsize() for t in shown_texts(fig)), default=math.inf)


def smallest_text_px(fig) -> float:
    """The smallest visible text of ``fig`` in CSS px on the page (points * dpi / 72 at the
    figure's own dpi, without the screen's pixel ratio); inf when it shows no text. Draw
    the figure first: tick labels are made as it is drawn."""
    ratio = getattr(_figure(fig).canvas, "device_pixel_ratio", 1) or 1
    return smallest_font_pt(fig) * fig.dpi / ratio / 72.0


def bare_axes(ax, frame: bool = False) -> None:
    """Hide the ticks, tick labels and axis lines of ``ax``: a map or a picture, not a plot.
    ``frame``: keep a thin grey frame (the four spines). The axes are hidden, not only
    their ticks: an axis without ticks still costs a draw (see docs/performance.md). A 3D
    axes is switched off whole (no panes, no grid either)."""
    if not isinstance(ax, matplotlib.axes.Axes):
        raise ValueError(f"bare_axes: ax must be a matplotlib Axes, got {check.describe(ax)}")
    frame = check.flag(frame, "bare_axes: frame")
    if ax.name == "3d":
        ax.set_axis_off()
        return
    ax.set_xticks([])
    ax.set_yticks([])
    ax.xaxis.set_visible(False)
    ax.yaxis.set_visible(False)
    for spine in ax.spines.values():
        spine.set_visible(frame)
        spine.set_color(PALETTE["grey"])


def fit_axes(ax, region: tuple[float, float, float, float], pad_px: float = 3.0) -> None:
    """Place the 2D axes ``ax`` so that it with its tick labels, axis labels and title fills
    ``region`` (x0, y0, x1, y1 in figure fraction), measured as they are drawn now: at
    presenter mode's 20 px, fractions chosen at 14 px cut a plot's labels. Twice, as the
    ticks a locator picks change with the size. Call it once per size (``resized``) or per
    new limits, never per frame: it draws nothing but measures every tick label."""
    if not isinstance(ax, matplotlib.axes.Axes):
        raise ValueError(f"fit_axes: ax must be a matplotlib Axes, got {check.describe(ax)}")
    x0, y0, x1, y1 = check.array(region, "fit_axes: region", (4,), what="figure fractions")
    pad_px = check.real(pad_px, "fit_axes: pad_px", lo=0.0, hi=100.0, unit="px")
    if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
        raise ValueError(f"fit_axes: region {region!r:.60} is not (x0, y0, x1, y1) within 0..1")
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    pad = pad_px * fig.dpi / 100.0
    ax.set_position((x0, y0, x1 - x0, y1 - y0))
    for _ in range(2):
        inner, outer = ax.get_window_extent(renderer), ax.get_tightbbox(renderer)
        left = (inner.x0 - outer.x0 + pad) / width
        right = (outer.x1 - inner.x1 + pad) / width
        bottom = (inner.y0 - outer.y0 + pad) / height
        top = (outer.y1 - inner.y1 + pad) / height
        w, h = x1 - x0 - left - right, y1 - y0 - bottom - top
        if w <= 0 or h <= 0:            # no room for the plot at all: keep the region
            ax.set_position((x0, y0, x1 - x0, y1 - y0))
            return
        ax.set_position((x0 + left, y0 + bottom, w, h))


def _undrawn_tick_labels(fig) -> set[int]:
    """The ids of the tick labels matplotlib keeps but does not draw: those of ticks beyond
    their axis's view limits (a locator gives ticks past the limits; lesson 3's tuning
    plot held a "0.4" over the figure's top edge at limits of ±0.275, never shown)."""
    hidden = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)):
            if axis is None:
                continue
            lo, hi = sorted(axis.get_view_interval())
            slack = 1e-9 * max(abs(lo), abs(hi), 1.0)
            for tick in (*axis.majorTicks, *axis.minorTicks):
                loc = tick.get_loc()
                if loc is None or not lo - slack <= loc <= hi + slack:
                    hidden.update((id(tick.label1), id(tick.label2)))
    return hidden


def _drawn_extent(text: Text, renderer):
    """Where ``text`` was drawn, in display px. A text in a 3D axes is drawn at its 3D
    position projected by the view, but reports its box at its x and y read as 2D data
    coordinates (the slope view's "T" and "world up" seemed to lie far outside the figure);
    its box is moved to the projected point (its rotation is 0: no direction is given)."""
    box = text.get_window_extent(renderer)
    if not isinstance(text, Text3D):
        return box
    x, y, z = text.get_position_3d()
    px, py, _ = proj3d.proj_transform(x, y, z, text.axes.get_proj())
    to_display = text.get_transform().transform
    (ax, ay), (bx, by) = to_display([text.get_position(), (px, py)])
    return box.translated(bx - ax, by - ay)


def _framed_escapes(fig, renderer) -> list[str]:
    """Texts written inside a framed panel (a 2D axes drawing its spines) that cross the
    frame: lesson 2's readouts under the aeroplanes ran past their panels' frames."""
    found = []
    for ax in fig.axes:
        if ax.name == "3d" or not ax.axison or not ax.get_visible() \
                or not any(s.get_visible() for s in ax.spines.values()):
            continue
        frame = ax.get_window_extent(renderer).padded(0.5)
        found += [f"{t.get_text().replace(chr(10), ' / ')!r} crosses its panel's frame"
                  for t in ax.texts if t.get_visible() and t.get_text().strip()
                  and not all(frame.contains(x, y) for x, y in
                              t.get_window_extent(renderer).corners())]
    return found


def text_collisions(fig) -> list[str]:
    """What is wrong with the visible texts of ``fig`` as drawn now: each one cut by the
    figure's edge, each pair whose boxes overlap, and each text of a framed panel that
    crosses the frame, as short descriptions (empty: none). Draws the figure first (tick
    labels are made as it is drawn)."""
    fig = _figure(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    undrawn = _undrawn_tick_labels(fig)
    texts = [(t.get_text().replace("\n", " / "), _drawn_extent(t, renderer))
             for t in _shown(fig)
             if isinstance(t, Text) and t.get_text().strip() and id(t) not in undrawn]
    edge = fig.bbox.padded(0.5)
    found = [f"{name!r} is cut by the figure's edge" for name, box in texts
             if not (edge.contains(box.x0, box.y0) and edge.contains(box.x1, box.y1))]
    for i, (a, box_a) in enumerate(texts):
        found += [f"{a!r} overlaps {b!r}" for b, box_b in texts[i + 1:]
                  if box_a.overlaps(box_b)]
    return found + _framed_escapes(fig, renderer)


def _resend_settings(canvas, content, _buffers) -> None:
    """When a page's view of the canvas is ready, send it the settings again.

    A view can start from the canvas's defaults (seen in Voila: the resize triangle was drawn
    although ``resizable`` was False in the kernel), so the first message it sends is
    answered with the values that matter.
    """
    if isinstance(content, dict) and content.get("type") == "initialized":
        canvas.send_state(["resizable", "toolbar_visible", "header_visible", "footer_visible"])


def in_kernel() -> bool:
    """True inside a Jupyter kernel (a page may show the figures), False in plain Python."""
    from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None) is not None


def pace_pointer(fig, extra_seconds: float = 0.0, live_seconds: float | None = None) -> float:
    """Set how often the page may send a pointer move for ``fig`` from what one costs here.

    ipympl's page sends at most one move every ``canvas.pan_zoom_throttle`` ms (33 by
    default, read once, when the page's view of the canvas is made). A move that costs the
    kernel more than that (a full draw, maybe a re-compute: ``extra_seconds``) piles up
    behind the ones before it, and a drag ends seconds after the button was let go. So the
    figure's frame is timed (:meth:`Painter.frame_cost`) and the limit set to it, with a
    margin (:func:`choose_throttle_ms`). Where the page draws the figure's drags
    (:mod:`.livedrag`), a move costs ``extra_seconds`` and ``live_seconds`` (recording what
    it moves) instead, and may come as often as the display refreshes. Call it before the
    figure is shown; returns the ms.
    """
    fig = _figure(fig)
    extra_seconds = check.real(extra_seconds, "extra_seconds", lo=0.0, unit="s")
    if live_seconds is None:
        cost, low = Painter.attach(fig).frame_cost() + extra_seconds, None
    else:
        live_seconds = check.real(live_seconds, "live_seconds", lo=0.0, unit="s")
        cost, low = extra_seconds + live_seconds, LIVE_THROTTLE_MS
    fig.canvas.pan_zoom_throttle = choose_throttle_ms(cost, low)
    return fig.canvas.pan_zoom_throttle


def _where(event) -> tuple:
    """An event's place: pixels and data coordinates (events built by hand may lack some)."""
    return tuple(getattr(event, k, None) for k in ("x", "y", "xdata", "ydata"))


class DragHandler:
    """Press, move, release on a figure, with a drag that cannot outlive the mouse button.

    ``on_press(event)`` returns what is being dragged (any object) or None for "not a drag";
    ``on_move(item, event)`` follows the pointer; ``on_release(item, event)`` (optional) is
    called once when the drag ends, whatever ends it. Events outside any axes have no data
    coordinates; ``on_move`` is only called with events inside an axes. A release inside an
    axes where the last move was not is applied as a final ``on_move`` first: the page sends
    at most one move every ``pan_zoom_throttle`` ms, so the last moves before a quick release
    may never arrive (or arrive after it).
    """

    def __init__(self, fig, on_press: Callable, on_move: Callable,
                 on_release: Callable | None = None) -> None:
        for name, fn in (("on_press", on_press), ("on_move", on_move), ("on_release",
                                                                         on_release)):
            if not (callable(fn) or (fn is None and name == "on_release")):
                raise ValueError(f"DragHandler: {name} must be a function, got "
                                 f"{check.describe(fn)}")
        self.fig = fig = _figure(fig)
        self.on_press, self.on_move, self.on_release = on_press, on_move, on_release
        self.item = None
        self._last = None                # where the last move applied was (:func:`_where`)
        canvas = fig.canvas
        self._ids = [canvas.mpl_connect("button_press_event", self._press),
                     canvas.mpl_connect("motion_notify_event", self._move),
                     canvas.mpl_connect("button_release_event", self._end),
                     canvas.mpl_connect("figure_leave_event", self._end)]

    @property
    def active(self) -> bool:
        return self.item is not None

    def _press(self, event) -> None:
        if self.item is not None:        # a press while "dragging": the release was lost
            self._end(event)
        self.item = self.on_press(event)
        self._last = _where(event)

    def _move(self, event) -> None:
        if self.item is None:
            return
        buttons = getattr(event, "buttons", None)
        if buttons is not None and not buttons:   # moving with no button held
            self._end(event)
            return
        self._apply(event)

    def _apply(self, event) -> None:
        if event.inaxes is not None and event.xdata is not None:
            self._last = _where(event)
            self.on_move(self.item, event)

    def _end(self, event) -> None:
        item = self.item
        try:
            if (item is not None and getattr(event, "name", "") == "button_release_event"
                    and _where(event) != self._last):
                self._apply(event)       # where the button was let go is where it ends
        finally:
            self.item = None
        if item is not None and self.on_release is not None:
            self.on_release(item, event)

    def disconnect(self) -> None:
        for cid in self._ids:
            self.fig.canvas.mpl_disconnect(cid)
        self._ids = []
