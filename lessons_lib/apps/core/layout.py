"""The layout every lesson app gets: a figure that takes the width it is given, the primary
controls beside it (or right under it), the rest behind "More controls", and presenter mode.

An app lays itself out with :meth:`FitLayout.arrange` (``LessonApp.layout`` does it from
the control specs: those with ``primary=True`` are primary). The page measures the room the
app has and tells the kernel, which re-renders the figure at that size:

* each app carries a hidden :class:`~.fitprobe.FitProbe` (``.lesson-fit-probe``), a small
  widget whose front end watches the width of the app's output area and the height of the
  window (of JupyterLab's notebook panel) and reports "width height present" through the
  widget channel, checked by the widget guard like any text box;
* the kernel (:meth:`FitLayout.fit`) sizes the figure from that (:func:`figure_box`):
  beside the controls when the figure keeps at least :data:`BESIDE_SHARE` of its natural
  width there, else under them at the full width; never taller than the window allows, and
  within :data:`~.guard.FIGURE_MIN_PX` .. :data:`~.guard.FIGURE_MAX_PX`. The figure is
  drawn again at that size (matplotlib maps the page's pointer positions through the new
  size, so a click lands on the same data point at every size); the painter's cached
  background is keyed by canvas size, so it is rebuilt.
* presenter mode (the Voila page's button, the P key or ``?present=1``; in JupyterLab
  :func:`present`) draws the figure at :data:`~.figure.PRESENT_DPI` (its smallest text
  20 px), zooms the controls column to 20 px text, and hides "More controls"; when the
  zoomed controls go under the figure in a window less than the app's ``tuck_below`` px
  tall (a projector at 150 % zoom) it also hides the primary controls the app marks
  ``tuck`` (ones the figure can be dragged for instead), so that moving the others keeps
  most of the figure in view. In page text, ``lesson-when-tucked`` and
  ``lesson-when-shown`` spans say the one or the other, and ``lesson-when-more`` and
  ``lesson-when-presenting`` spans (:func:`.text.when_more`) what a note says with "More
  controls" there or hidden.
* the stage (issue 42): while a control is used, the figure, that control and the line that
  explains the change are on screen together. The app names that line (``explain``: the
  preset note, the step text, the verdict; class ``lesson-explain``) and it goes under the
  figure, in the figure's column; that column stays pinned at the top of the viewport
  (``position: sticky``, class ``lesson-pinned``) while the controls scroll beside or under
  it, and the figure is sized to leave :data:`EXPLAIN_PX` for the line under it
  (:func:`figure_box`'s ``below``). Under the controls, the column is pinned only where
  the window keeps a control row under it (:data:`CONTROL_ROW_PX`).

Text in the page is at least 14 px (:data:`APP_CSS`; panels write 14 px or more), and its
lines break between words, Korean too (``word-break: keep-all``: a Hangul word is not split
at the end of a line). A box of
sliders marked ``lesson-short-readout`` gets readouts 48 px wide (four characters, "−180"),
not 72, so that their tracks are longer.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Iterator, Sequence

import ipywidgets as widgets
import matplotlib.pyplot as plt

from ... import validate as check
from ...i18n import _
from .figure import (
    FIGURE_DPI,
    MIN_TEXT_PX,
    PRESENT_DPI,
    PRESENT_TEXT_PX,
    smallest_text_px,
)
from .fitprobe import FitProbe
from .guard import FIGURE_MAX_PX, FIGURE_MIN_PX, fit_size
from .theme import GREYS, TEXT_PX

#: The controls column's width in CSS px at 100% (presenter mode zooms it).
SIDE_PX = 400
#: How much wider than :data:`SIDE_PX` the column may grow into a wide row (its panels
#: then take fewer lines).
SIDE_GROWTH = 1.6
#: Space between the figure and the controls column.
GAP_PX = 12
#: Pixels left over beside the figure and the controls (see :func:`figure_box`).
SLACK_PX = 8
#: The figure sits beside the controls only if it keeps this share of its natural width.
BESIDE_SHARE = 0.75
#: The share of the window's height a figure may take beside the controls (the rest: the
#: page's own margins), and under them (so that the control under it shows as well).
HEIGHT_SHARE_BESIDE = 0.9
HEIGHT_SHARE_UNDER = 0.62
#: Under the controls in presenter mode: the figure is what the room looks at, so it takes
#: the window's height less about one zoomed control row (49 px at 480 px), not 62 % of it
#: (at 853x480, 150 % zoom, that drew lesson 1's figure 310 px wide, smaller than without
#: presenter mode, its 20 px labels on top of each other).
HEIGHT_SHARE_PRESENT_UNDER = 0.85
#: In presenter mode the figure goes under the controls when it is this much wider there:
#: at 1280x720 the 571 px zoomed column left lesson 2's figure 659 px beside it (830 px out
#: of presenter mode) with 350 px of the window empty under it; under the controls it is
#: 1067 px. At 1920x1080 the gain is at most 1.26 (lesson 2) and the controls stay beside.
PRESENT_UNDER_GAIN = 1.3
#: The controls column's zoom in presenter mode: its 14 px text becomes 20 px.
PRESENT_ZOOM = PRESENT_TEXT_PX / MIN_TEXT_PX
#: What the figure leaves under it, in its pinned column, for an app's explanation line
#: (CSS px at 100 %; presenter mode zooms it): three lines of 14 px text.
EXPLAIN_PX = 62
#: Under the controls, the explanation line goes beside the figure, in the row's room left
#: of it, where that is at least this wide (CSS px at 100 %; presenter mode zooms it). At
#: 250 to 280 px lesson 4's narrowed small map (presenter mode, 1280x720) put a portal's
#: number on the path where it had room beside it (tests/test_app_funnel.py).
EXPLAIN_BESIDE_PX = 230
#: A line over the figure (lesson 1's title), and one control row: the figure's column is
#: pinned under the controls only where the window keeps such a row under it (CSS px at
#: 100 %; presenter mode zooms them). Lesson 1's column in presenter mode at 853x480, pinned,
#: left no room for a control under it (478 of 480 px).
ABOVE_PX = 42
CONTROL_ROW_PX = 50

#: In presenter mode a small copy beside a question takes this share of the row (at its
#: natural 452 px, drawn at presenter mode's dpi, lesson 4's portal numbers crowded its map).
PRESENT_BESIDE_SHARE = 0.6
#: ... on a page at least this wide (CSS px): at 853 px (1280x720 at 150 % zoom) 60 % is
#: narrower than lesson 2's planes can draw, and the copy keeps its natural width there.
PRESENT_BESIDE_FROM_PX = 1200

#: The page's text floor and presenter mode's zoom for the controls, scoped to the apps.
APP_CSS = f"""
.lesson-app {{ --jp-widgets-font-size: {TEXT_PX}px; --jp-ui-font-size1: {TEXT_PX}px;
  --jp-widgets-inline-height: 30px; font-size: {TEXT_PX}px; max-width: 100%; }}
.lesson-app .widget-label, .lesson-app .widget-readout, .lesson-app .widget-html-content,
.lesson-app .widget-toggle-button, .lesson-app button, .lesson-app select,
.lesson-app .widget-dropdown > select {{ font-size: {TEXT_PX}px; }}
.lesson-app, .lesson-question {{ word-break: keep-all; overflow-wrap: break-word; }}
.lesson-app.lesson-present .lesson-side {{ zoom: {PRESENT_ZOOM:.4f}; }}
.lesson-app.lesson-present .lesson-figure-column .widget-html-content {{
  zoom: {PRESENT_ZOOM:.4f}; }}
.lesson-app.lesson-present .lesson-more {{ display: none !important; }}
.lesson-app.lesson-pinned > .lesson-figure-column {{ position: sticky; top: 0; z-index: 2;
  background: var(--jp-layout-color0, {GREYS['white']}); }}
.lesson-app.lesson-pinned.lesson-stacked > .lesson-figure-column {{
  flex: 0 0 100% !important; margin: 0 !important; }}
.lesson-pinned.lesson-present.lesson-stacked > .lesson-figure-column {{ align-items: center; }}
.lesson-figure-column > .lesson-explain,
.lesson-app:not(.lesson-stacked) > .lesson-figure-column > .lesson-above {{ width: 0;
  min-width: 100%; margin-left: 0; margin-right: 0; }}
.lesson-app.lesson-explain-beside > .lesson-figure-column {{ display: grid !important;
  grid-template-columns: auto minmax(0, 1fr); column-gap: {GAP_PX}px;
  align-content: start; align-items: start; }}
.lesson-explain-beside > .lesson-figure-column > :not(.lesson-explain) {{ grid-column: 1;
  grid-row: 1 / span 4; }}
.lesson-explain-beside > .lesson-figure-column > .lesson-explain {{ grid-column: 2;
  width: auto; min-width: 0; }}
.lesson-figure-column .lesson-explain .lesson-preset-note {{ max-width: none !important; }}
/* neither the app nor a box or output area around it scrolls by itself: the pinned column
   sticks to the page's (the notebook panel's) scroll */
.lesson-app, :is(.widget-box, .jp-OutputArea, .jp-OutputArea-child,
                 .jp-OutputArea-output):has(.lesson-app) {{ overflow: visible; }}
.lesson-app.lesson-present.lesson-stacked {{ justify-content: safe center; }}
.lesson-app .lesson-short-readout .widget-readout {{ width: 48px; min-width: 48px; }}
.lesson-app .lesson-when-tucked {{ display: none; }}
.lesson-app.lesson-tucking .lesson-tuck,
.lesson-app.lesson-tucking .lesson-when-shown {{ display: none !important; }}
.lesson-app.lesson-tucking .lesson-when-tucked {{ display: inline; }}
.lesson-app .lesson-when-presenting {{ display: none; }}
.lesson-app.lesson-present .lesson-when-more {{ display: none !important; }}
.lesson-app.lesson-present .lesson-when-presenting {{ display: inline; }}
@media (min-width: {PRESENT_BESIDE_FROM_PX}px) {{
  html.lessons-present .lesson-question-beside > .widget-vbox:first-child {{
    flex: 0 1 {PRESENT_BESIDE_SHARE:.0%} !important; }} }}
"""

#: The page's half of the fit (see the module docstring); ``this`` is the loader image.

_APPS: weakref.WeakSet = weakref.WeakSet()
_PRESENT = [False]


def present(on: bool = True) -> None:
    """Presenter mode for every lesson app in this kernel (JupyterLab; a Voila page has its
    own button): figures drawn with 20 px text and as wide as their column, the controls
    at 20 px, "More controls" hidden. ``present(False)`` goes back."""
    if not isinstance(on, bool):
        raise ValueError(f"present() takes True or False, not {on!r:.60}")
    _PRESENT[0] = on
    for app in list(_APPS):
        if plt.fignum_exists(app.fig.number):      # a closed figure is on no page any more
            app.present(on)


#: The largest room or window side (CSS px) the page's size report may give.
MAX_ROOM_PX = 100_000
#: The longest size report the page may send ("100000 100000 1" is 15 characters).
MAX_REPORT = 40


def parse_fit(text: str) -> tuple[int, int, bool]:
    """``"width height present"`` from the page's fit probe, checked: at most
    :data:`MAX_REPORT` characters, width and height whole CSS px written in ASCII digits
    from 1 to :data:`MAX_ROOM_PX`, present 0 or 1. A ValueError says what is wrong."""
    parts = text.split() if isinstance(text, str) and len(text) <= MAX_REPORT else []
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts) or \
            parts[2] not in ("0", "1"):
        raise ValueError(f"the page's size report {text!r:.40} is not 'width height 0|1' "
                         f"(ASCII digits, at most {MAX_REPORT} characters)")
    width, height = int(parts[0]), int(parts[1])
    if not (1 <= width <= MAX_ROOM_PX and 1 <= height <= MAX_ROOM_PX):
        raise ValueError(f"the page's size report {width} x {height} px is out of range "
                         f"(1 to {MAX_ROOM_PX} px a side)")
    return width, height, parts[2] == "1"


#: The narrowest and widest shapes (height / width) a figure may have: beyond them no size
#: keeps both sides within FIGURE_MIN_PX .. FIGURE_MAX_PX (every lesson's is 0.35 to 1.3).
MIN_ASPECT = FIGURE_MIN_PX / FIGURE_MAX_PX
MAX_ASPECT = FIGURE_MAX_PX / FIGURE_MIN_PX


def natural_aspect(natural) -> float:
    """A figure's natural (width, height) in CSS px, checked (each side 1 to
    :data:`MAX_ROOM_PX`, the aspect within :data:`MIN_ASPECT`..:data:`MAX_ASPECT`): its
    aspect, height / width. A ValueError says what is wrong."""
    width, height = check.array(natural, "figure_box: natural", (2,), what="sizes in px")
    for name, v in (("width", width), ("height", height)):
        check.real(v, f"figure_box: the natural {name}", lo=1, hi=MAX_ROOM_PX, unit="px")
    aspect = height / width
    if not MIN_ASPECT <= aspect <= MAX_ASPECT:
        raise ValueError(f"figure_box: a natural size of {width:g} x {height:g} px has the "
                         f"aspect {aspect:.3g}; give one within {MIN_ASPECT:g} to "
                         f"{MAX_ASPECT:g} (height / width)")
    return aspect


def figure_box(room: float, view_height: float, natural: tuple[float, float],
               side: float = SIDE_PX, gap: float = GAP_PX,
               present: bool = False, below: float = 0) -> tuple[int, int, bool]:
    """The figure's (width, height) in CSS px and whether it sits beside the controls, for
    an app given ``room`` px of width in a window ``view_height`` px tall, with a figure
    whose natural size is ``natural`` and a controls column ``side`` px wide (0: none).

    Beside when the figure keeps :data:`BESIDE_SHARE` of its natural width there; else
    under, at the full width (less the gap); in presenter mode also under when it is
    :data:`PRESENT_UNDER_GAIN` times wider there. Its aspect is kept; its height is held to
    the window's share (under the controls a larger one when ``present``: presenter mode)
    less ``below`` (px its column keeps under it for the explanation line; under the
    controls out of presenter mode the share leaves room for it); the result lies
    within FIGURE_MIN_PX .. FIGURE_MAX_PX (a window too small for the least figure gets the
    least figure).

    Limits (a ValueError beyond them): ``room``, ``view_height``, ``side``, ``gap`` and
    ``below`` from 0 to :data:`MAX_ROOM_PX`; ``natural`` two sides from 1 to
    :data:`MAX_ROOM_PX` px whose aspect (height / width) lies within
    :data:`MIN_ASPECT`..:data:`MAX_ASPECT` (outside it no size fits FIGURE_MIN_PX ..
    FIGURE_MAX_PX on both sides); ``present`` True or False."""
    room, view_height, side, gap, below = (
        check.real(v, f"figure_box: {name}", lo=0, hi=MAX_ROOM_PX, unit="px")
        for name, v in (("room", room), ("view_height", view_height), ("side", side),
                        ("gap", gap), ("below", below)))
    present = check.flag(present, "figure_box: present")
    aspect = natural_aspect(natural)
    # the figure column keeps a gap on its right; SLACK_PX: rounding in the page's flex
    # layout must not push the controls under a figure that was meant to be beside them
    beside_room = room - side - gap - SLACK_PX
    beside = not side or beside_room >= BESIDE_SHARE * min(natural[0], room)

    def sized(beside: bool, below: float = below) -> float:
        width = beside_room if beside and side else room - gap
        # under the controls out of presenter mode the window's other 38 % already holds the
        # explanation line and a control row
        share, keep = ((HEIGHT_SHARE_BESIDE, below) if beside or not side
                       else (HEIGHT_SHARE_PRESENT_UNDER, below) if present
                       else (HEIGHT_SHARE_UNDER, 0.0))
        width = min(width, (share * view_height - keep) / aspect)
        return min(FIGURE_MAX_PX, FIGURE_MAX_PX / aspect,
                   max(width, FIGURE_MIN_PX, FIGURE_MIN_PX / aspect))

    width = sized(beside)
    if beside and side and width > beside_room:   # held to the least figure, it would push
        beside, width = False, sized(False)       # the controls under it anyway
    elif beside and side and present and \
            sized(False, 0.0) >= PRESENT_UNDER_GAIN * sized(True, 0.0):
        beside, width = False, sized(False)       # the room looks at the figure (compared
    return int(width), int(round(width * aspect)), beside   # as if nothing were below)


def _stage(room: float, view_height: float, natural: tuple[float, float], side: float,
           present: bool, below: float) -> tuple[int, int, bool, bool]:
    """:func:`figure_box` for an app whose explanation line takes ``below`` px (zoomed)
    under its figure, and whether that line goes beside the figure instead: only under the
    controls, where the row keeps :data:`EXPLAIN_BESIDE_PX` (zoomed) beside the figure as
    large as with nothing below it, or beside one narrowed to leave that room when that is
    still wider than the figure with the line under it."""
    free = figure_box(room, view_height, natural, side, present=present)
    under = figure_box(room, view_height, natural, side, present=present, below=below)
    if not below or free[2] or under[2]:
        return (*under, False)
    spare = room - GAP_PX - EXPLAIN_BESIDE_PX * (PRESENT_ZOOM if present else 1.0)
    if free[0] <= spare:
        return (*free, True)
    if spare > under[0]:
        return int(spare), int(round(spare * natural[1] / natural[0])), False, True
    return (*under, False)


def iter_widgets(root: widgets.Widget) -> Iterator[widgets.Widget]:
    """Every widget in the tree under ``root`` (boxes, accordions, tabs), each once."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        w = stack.pop()
        if not isinstance(w, widgets.Widget) or id(w) in seen:
            continue
        seen.add(id(w))
        yield w
        stack.extend(reversed(getattr(w, "children", ()) or ()))


def quiet_tooltips(root: widgets.Widget) -> widgets.Widget:
    """``root`` with every widget in it that has a description but no tooltip given an
    empty one: ipywidgets 8 writes a missing tooltip into the label's title as the word
    "null", which a learner hovering a slider's label read as a tooltip (in both languages)."""
    for w in iter_widgets(root):
        if getattr(w, "tooltip", "") is None and getattr(w, "description", ""):
            w.tooltip = ""
    return root


class FitLayout:
    """The layout half of :class:`~.app.LessonApp` (see the module docstring).

    After :meth:`arrange`: ``fit_probe`` (the hidden text box the page writes to),
    ``more_button`` and ``more_box`` (the disclosure, None without secondary controls),
    ``figure_text`` (a hidden note of the figure's smallest text in px, for the page's
    tests), and :attr:`fitted` (the last (width, height, beside, present) applied)."""

    fitted: tuple[int, int, bool, bool] | None = None
    more_button: widgets.ToggleButton | None = None
    more_box: widgets.Widget | None = None

    def arrange(self, *, primary: Sequence[widgets.Widget], above: Iterable = (),
                readout: Iterable = (), extra: Iterable = (), secondary: Iterable = (),
                tuck: Iterable = (), tuck_below: int = MAX_ROOM_PX, explain: Iterable = (),
                explain_px: int = EXPLAIN_PX, side: int = SIDE_PX,
                name: str = "", copy_keeps: Iterable | None = None,
                unexplained: str = "") -> widgets.HBox:
        """The app's widget: ``above`` and the figure in one column; ``primary`` (the
        controls the lesson's "things to try" use), ``readout`` (the main readout),
        ``extra`` (notes, legends, the status line) and, behind a "More controls" toggle,
        ``secondary`` in the other, beside the figure or under it. ``tuck``: those of
        ``primary`` hidden in presenter mode when the controls are under the figure in a
        window less than ``tuck_below`` CSS px tall (by default in every window).
        ``explain``: the line(s) that say what a change did (the preset note, the step
        text, the verdict), under the figure in its pinned column (see the module
        docstring), for which the figure leaves ``explain_px`` CSS px (at 100 %) where it
        is under it; an app without one says why in ``unexplained`` (its figure shows
        what a change did, or it is an exercise's app whose question says it); a small copy
        without one is beside a question, which says what to look at (class
        ``lesson-unexplained``, which the page's layout sweep reads).
        ``name``: a CSS class for the page's tests.
        ``copy_keeps``: what a small copy (``compact``, :meth:`LessonApp.copy`) keeps of
        ``above``, ``primary``, ``readout``, ``extra`` and ``explain``: widgets, or controls
        by name; None keeps ``above``, ``primary`` and ``explain``. A copy has no "More
        controls" and always keeps the status line, so that it fits beside a question."""
        clean = lambda ws: [w for w in ws if w is not None]  # noqa: E731
        if getattr(self, "compact", False):
            keep = self._copy_keeps(copy_keeps, [*clean(above), *clean(primary),
                                                 *clean(explain)])
            kept = lambda ws: [w for w in clean(ws) if id(w) in keep]  # noqa: E731
            above, primary, readout, explain = (kept(above), kept(primary), kept(readout),
                                                kept(explain))
            extra = [w for w in clean(extra) if id(w) in keep or w is self.status]
            secondary, tuck = (), [w for w in clean(tuck) if id(w) in keep]
        for w in clean(tuck):
            if not any(w is p for p in primary):
                raise ValueError("arrange(): only a primary control can be tucked away")
            w.add_class("lesson-tuck")
        secondary = clean(secondary)
        column = list(clean(primary)) + clean(readout) + clean(extra)
        if secondary:
            self.more_button = widgets.ToggleButton(
                value=False, description=_("More controls"), icon="sliders",
                tooltip=_("show or hide the other controls"), layout=widgets.Layout(width="auto"))
            self.more_box = widgets.VBox(secondary, layout=widgets.Layout(display="none"))
            self.more_button.observe(self.guard(self._on_more), names="value")
            more = widgets.VBox([self.more_button, self.more_box])
            more.add_class("lesson-more")
            column.append(more)
        self._side_px = side
        self._tuck_below = check.real(tuck_below, "arrange(): tuck_below", lo=1,
                                      hi=MAX_ROOM_PX, unit="px")
        side_box = widgets.VBox(column, layout=widgets.Layout(
            flex=f"1 1 {side}px", min_width=f"{min(side, FIGURE_MIN_PX)}px",
            max_width=f"{round(side * SIDE_GROWTH)}px", padding="0"))
        side_box.add_class("lesson-side")
        explain = clean(explain)
        for w in explain:
            w.add_class("lesson-explain")
        for w in clean(above):  # beside the controls, as wide as the figure (wrapping): a
            w.add_class("lesson-above")  # longer line widened the column past the room
        self._above_px = ABOVE_PX if clean(above) else 0
        self._explain_px = check.real(explain_px, "explain_px", lo=0, hi=MAX_ROOM_PX,
                                      unit="px") if explain else 0
        figure_column = widgets.VBox([*clean(above), self.fig.canvas, *explain],
                                     layout=widgets.Layout(flex="0 0 auto", max_width="100%",
                                                           margin=f"0 {GAP_PX}px 0 0"))
        figure_column.add_class("lesson-figure-column")
        self.fit_probe = FitProbe(layout=widgets.Layout(display="none"))
        self.fit_probe.add_class("lesson-fit-probe")
        self.fit_probe.observe(self.guard(self._on_fit_probe), names="value")
        self.figure_text = widgets.HTML(layout=widgets.Layout(display="none"))
        self.figure_text.add_class("lesson-figure-text")
        loader = widgets.HTML(f"<style>{APP_CSS}</style>", layout=widgets.Layout(display="none"))
        player = getattr(self, "motion_player", None)     # Play drawn by the page
        root = widgets.HBox([figure_column, side_box, self.fit_probe, self.figure_text, loader,
                             *([player] if player is not None else [])],
                            layout=widgets.Layout(flex_flow="row wrap",
                                                  align_items="flex-start",
                                                  max_width="100%"))
        root.add_class("lesson-app")
        if name:
            root.add_class(name)
        if not isinstance(unexplained, str):
            raise ValueError(f"arrange(): unexplained is text (why the app has no "
                             f"explanation line), not {type(unexplained).__name__}")
        if not explain and (unexplained or getattr(self, "compact", False)):
            root.add_class("lesson-unexplained")
        quiet_tooltips(root)
        self.app_root = root
        self._natural = tuple(float(v) * self.fig.dpi / self._pixel_ratio()
                              for v in self.fig.get_size_inches())
        self._kernel_present = _PRESENT[0]
        self._page_present = False
        self._room: tuple[int, int] | None = None
        _APPS.add(self)
        return root

    def _copy_keeps(self, keeps, default: list) -> set[int]:
        """The ids of the widgets a copy keeps (see :meth:`arrange`)."""
        if keeps is None:
            return {id(w) for w in default} | {id(self.status)}
        found = set()
        for item in keeps:
            if isinstance(item, str):
                item = self._control(item)
            elif item is not None and not isinstance(item, widgets.Widget):
                raise ValueError(f"arrange(): copy_keeps takes widgets or control names, not "
                                 f"{item!r:.60}")
            found.add(id(item))
        return found

    def resized(self, width: int, height: int) -> None:
        """Hook: the figure is now ``width`` x ``height`` CSS px (before it is drawn);
        e.g. keep margins in px for tick labels. Default: nothing."""

    def _pixel_ratio(self) -> float:
        return float(getattr(self.fig.canvas, "device_pixel_ratio", 1) or 1)

    def _on_more(self, change) -> None:
        self.more_box.layout.display = "flex" if change["new"] else "none"

    def _on_fit_probe(self, change) -> None:
        if not change["new"]:
            return
        width, height, page_present = parse_fit(change["new"])
        self._page_present = page_present
        self.fit(width, height)

    @property
    def presenting(self) -> bool:
        return bool(self._kernel_present or self._page_present)

    def _need_arranged(self) -> None:
        if not hasattr(self, "_side_px"):
            raise ValueError(f"{type(self).__name__} lays itself out without arrange(): it has "
                             "no fitted layout or presenter mode")

    def present(self, on: bool = True) -> None:
        """Presenter mode for this app (see :func:`present`)."""
        self._need_arranged()
        if not isinstance(on, bool):
            raise ValueError(f"present() takes True or False, not {on!r:.60}")
        self._kernel_present = on
        width, height = self._room or (int(self._natural[0] + self._side_px + GAP_PX), 900)
        self.fit(width, height)

    def fit(self, width: int, height: int) -> tuple[int, int, bool]:
        """Lay the app out for ``width`` CSS px of room in a window ``height`` px tall: the
        figure re-rendered at its new size (see :func:`figure_box`). Returns (figure width,
        figure height, beside)."""
        self._need_arranged()
        check.real(width, "width", lo=0, hi=MAX_ROOM_PX, unit="px")  # as given: the note
        check.real(height, "height", lo=0, hi=MAX_ROOM_PX, unit="px")  # repeats the report
        self._room = (int(width), int(height))
        presenting = self.presenting
        zoom = PRESENT_ZOOM if presenting else 1.0
        fw, fh, beside, aside = _stage(width, height, self._natural, self._side_px * zoom,
                                       presenting, self._explain_px * zoom)
        column = fh + (self._above_px + (0 if aside else self._explain_px)) * zoom
        pinned = beside or column + CONTROL_ROW_PX * zoom <= height
        tucking = presenting and not beside and height < self._tuck_below
        for name, on in (("lesson-present", presenting), ("lesson-stacked", not beside),
                         ("lesson-explain-beside", aside), ("lesson-pinned", pinned),
                         ("lesson-tucking", tucking)):
            (self.app_root.add_class if on else self.app_root.remove_class)(name)
        if self.fitted != (fw, fh, beside, presenting):
            self._resize_figure(fw, fh, PRESENT_DPI if presenting else FIGURE_DPI)
            self.fitted = (fw, fh, beside, presenting)
        px = smallest_text_px(self.fig)
        self.figure_text.value = (          # what was done for which report, for tests
            f"<span data-room='{width} {height} {int(presenting)}' data-size='{fw} {fh}'"
            + (f" data-px='{px:.2f}'" if math.isfinite(px) else "") + "></span>")
        return fw, fh, beside

    def _resize_figure(self, width: int, height: int, dpi: float) -> None:
        fig = self.fig
        ratio = self._pixel_ratio()
        width, height = fit_size(width, height, ratio)   # every draw within the pixel budget
        if fig._original_dpi != dpi:     # matplotlib's base dpi, before the pixel ratio
            fig._original_dpi = dpi
            fig.set_dpi(dpi * ratio)
        fig.set_size_inches(width / dpi, height / dpi, forward=True)
        self.resized(width, height)
        self.redraw()
