"""Figures for the lesson apps: one palette, one way to make a figure, one way to drag.

* :data:`PALETTE`: Okabe & Ito's colours, distinguishable with every common colour-vision
  deficiency; every lesson draws with them.
* :func:`make_figure` creates an ipympl figure exactly once, without showing it, with no
  toolbar, no resize handle and no matplotlib key shortcuts: nothing on the canvas can switch
  it into a pan or zoom mode that would swallow the lesson's own clicks.
* :class:`DragHandler` turns press / move / release into a drag that always ends: on a
  release anywhere, when the pointer leaves the canvas, or on a move with no button held.
"""

from __future__ import annotations

from collections.abc import Callable

import matplotlib
import matplotlib.pyplot as plt

from .painter import Painter

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

#: Base font size in points. Figures are drawn at 100 dpi, so 11 pt is 15 px on the page.
FONT_SIZE = 11
#: The smallest text any figure may use: 9 pt is 12.5 px at 100 dpi, readable on a projector.
MIN_FONT_SIZE = 9

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


def rc_context():
    """The lessons' matplotlib settings, for code that adds axes or text to a figure."""
    return matplotlib.rc_context(_RC)


def make_figure(width: float, height: float, dpi: int = 100, **kwargs) -> matplotlib.figure.Figure:
    """Create one interactive figure, inside ``plt.ioff()`` so it is never shown twice.

    The app places ``fig.canvas`` in its own layout and updates the figure in place from
    then on (``set_data``, then :meth:`LessonApp.redraw`, or ``fig.canvas.draw_idle()``
    outside an app); it never re-creates it. Every draw goes through a :class:`Painter`.
    """
    use_ipympl()
    with plt.ioff(), matplotlib.rc_context(_RC):
        fig = plt.figure(figsize=(width, height), dpi=dpi, **kwargs)
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
    Painter.attach(fig)
    return fig


def _resend_settings(canvas, content, _buffers) -> None:
    """When a page's view of the canvas is ready, send it the settings again.

    A view can start from the canvas's defaults (seen in Voila: the resize triangle was drawn
    although ``resizable`` was False in the kernel), so the first message it sends is
    answered with the values that matter.
    """
    if isinstance(content, dict) and content.get("type") == "initialized":
        canvas.send_state(["resizable", "toolbar_visible", "header_visible", "footer_visible"])


class DragHandler:
    """Press, move, release on a figure, with a drag that cannot outlive the mouse button.

    ``on_press(event)`` returns what is being dragged (any object) or None for "not a drag";
    ``on_move(item, event)`` follows the pointer; ``on_release(item, event)`` (optional) is
    called once when the drag ends, whatever ends it. Events outside any axes have no data
    coordinates; ``on_move`` is only called with events inside an axes.
    """

    def __init__(self, fig, on_press: Callable, on_move: Callable,
                 on_release: Callable | None = None) -> None:
        self.fig = fig
        self.on_press, self.on_move, self.on_release = on_press, on_move, on_release
        self.item = None
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

    def _move(self, event) -> None:
        if self.item is None:
            return
        buttons = getattr(event, "buttons", None)
        if buttons is not None and not buttons:   # moving with no button held
            self._end(event)
            return
        if event.inaxes is not None and event.xdata is not None:
            self.on_move(self.item, event)

    def _end(self, event) -> None:
        item, self.item = self.item, None
        if item is not None and self.on_release is not None:
            self.on_release(item, event)

    def disconnect(self) -> None:
        for cid in self._ids:
            self.fig.canvas.mpl_disconnect(cid)
        self._ids = []
