"""LessonApp: the one loop every lesson app runs.

::

    controls (declared) -> params -> compute(params) -> state (frozen, pure maths)
                                        |
            frame control (t, time, step) only re-draws, never re-computes
                                        v
                            draw(state, frame)  (set_data on artists made once)
                            panel(state, frame) (HTML strings)

A subclass declares ``controls`` (and optionally ``frame`` and ``presets``) and writes
``build`` (the figure and its artists, once), ``compute``, ``draw`` and ``panel``. The base
class builds the widgets, observes them, batches changes into one update, links Play to the
frame control, keeps the preset menu in step, guards every callback and every widget
channel, and exports GIFs (:mod:`.gif`). What an app needs beyond that is a hook, never a
reach into the base's private state (``tests/test_app_core.py`` scans the apps for one):
:meth:`LessonApp.frame_end` (the frame's range from the state), :meth:`LessonApp.control_bounds`
(a control's range from the params), ``compute_cache`` (states kept per params),
``redraw=True`` on a control spec (it only re-draws, like the frame), the presets' matching
to half a slider step, :meth:`LessonApp.animate` (an animation on the kernel's clock) and
:meth:`LessonApp.play_path` (a slider animated along a path, drawn by the page).
Every app is made as ``App(preset=None, **controls)``. :meth:`LessonApp.copy` makes the small
copy of an app that a question lays out beside it (``compact=True``: the figure at the app's
``compact_size``, what ``arrange(copy_keeps=...)`` keeps; the app's own options from the
:meth:`LessonApp.copy_args` hook).
"""

from __future__ import annotations

import asyncio
import functools
import html
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

import ipywidgets as widgets
import matplotlib

from ... import validate as check
from ...i18n import N_, _
from .. import fastdraw
from ..fastdraw import Painter
from .controls import Choice, Frame, Params, Preset, Slider, Toggle, short
from .figure import PALETTE, DragHandler, in_kernel, pace_pointer
from .fonts import language_rc
from .gif import GifExport
from .guard import answer_states_once, guard_widget, out_of_memory
from .layout import FitLayout, iter_widgets
from .livedrag import LiveDrag
from .theme import TEXT

log = logging.getLogger("lessons_lib.apps")

Spec = Slider | Choice | Toggle


#: In a kernel Play, the pause after each frame is at least this share of what it cost:
#: enough for the page to keep up, little enough for a slow frame (see docs/performance.md).
PLAY_REST = 0.2


#: A hook that takes the app's params checks them first (a ValueError for anything else).
takes_params = check.first_is(Params, "the app's .params")


def frame_pause(drawn: float, due: float, now: float) -> float:
    """Seconds to sleep after a frame of a kernel animation (Play, lesson 1's Lock it) that
    started drawing at ``drawn``, now that it is ``now``, when the next is ``due``
    (``time.perf_counter`` seconds): until it is due, but at least :data:`PLAY_REST` of the
    frame's own cost, so the proxy and the page (on this machine too, in self-study) get
    their share and frames do not pile up on the way to the page; the clock decides which
    frame is next. Never less than 2 ms: the page's messages (Pause) are read meanwhile."""
    drawn, due, now = (check.real(v, n, unit="s")
                       for v, n in ((drawn, "drawn"), (due, "due"), (now, "now")))
    return max(0.002, PLAY_REST * (now - drawn), due - now)


#: The shortest and longest frame intervals of :func:`run_on_clock`, in seconds (the
#: lessons use 0.04 to 0.9).
MIN_CLOCK_INTERVAL = 0.001
MAX_CLOCK_INTERVAL = 60.0


async def run_on_clock(show: Callable[[int], None], *, start: int, last: Callable[[], int],
                       interval: float, running: Callable[[], bool],
                       position: Callable[[], int] | None = None) -> None:
    """The clock loop of every kernel animation (Play, lesson 1's Lock it): frame ``index``
    (from ``start`` to ``last()``, read each turn: a control changed meanwhile may move the
    frame's end) is due ``interval`` seconds after the one before, and each
    turn ``show`` draws the frame the clock has reached, so the animation keeps real time
    whatever a frame costs (a slow frame is followed by a later one, not waited for); then
    it sleeps (:func:`frame_pause`). The first step is drawn at once, as the answer to the
    click (the clock starts one interval back). It ends after the last, or when ``running()``
    turns false. With ``position`` (the frame shown now, which others may move), a frame
    that did not show ends it (its message is on the page), and a frame moved meanwhile (a
    scrub) restarts the clock from there. ``interval`` is from :data:`MIN_CLOCK_INTERVAL` to
    :data:`MAX_CLOCK_INTERVAL` seconds; ``start`` a whole number; a ValueError otherwise."""
    interval = check.real(interval, "interval", lo=MIN_CLOCK_INTERVAL, hi=MAX_CLOCK_INTERVAL,
                          unit="s")
    start = check.integer(start, "start")
    for name, fn in (("show", show), ("last", last), ("running", running)):
        if not callable(fn):
            raise ValueError(f"run_on_clock: {name} must be a function, got {short(fn)}")
    clock = time.perf_counter
    origin, base, shown = clock() - interval, start, start
    while running():
        end = last()
        index = min(end, base + int((clock() - origin) / interval))
        drawn = clock()
        if index != (shown if position is None else position()):
            show(index)
            shown = index
        if index >= end or not running() or (position is not None and position() != index):
            break                        # the end, stopped meanwhile, or a frame that failed
        await asyncio.sleep(frame_pause(drawn, origin + (index - base + 1) * interval, clock()))
        if position is not None and position() != index:   # moved meanwhile: go on from there
            origin, base = clock(), position()


#: Frames of Play in the page recorded and sent at a time: the first ones before the page
#: starts, the rest while it plays.
MOTION_CHUNK = 12

#: Seconds the kernel waits for the page's player to say where it stopped (then it draws
#: the frame the slider shows).
STOP_WAIT = 1.5

#: Seconds between two steps of :meth:`LessonApp.when_idle`'s work.
IDLE_PAUSE = 0.1

#: Where a page shows the figure, the panels are filled this many seconds after its picture
#: was sent (one display frame or so): the browser paints the figure a change made without
#: laying out the panels' text first, and a run of changes within that time fills them once.
PANELS_AFTER = 0.02


@dataclass(frozen=True, eq=False)
class _Motion:
    """An animation the page plays (:meth:`LessonApp.play_path`, Play in the page): the
    animated value at each of its frames, ``substeps`` frames a step, one every
    ``interval_ms``. Play's frames are ``state`` at frame values; an animation of slider
    ``control`` along ``steps`` has the states computed from ``base`` (the other controls)
    with the control at each value, drawn at ``frame``. ``key``: what its frames were
    made of."""

    key: tuple
    values: tuple
    substeps: int
    interval_ms: float
    control: str | None = None
    state: object = None
    steps: tuple = ()
    base: Params | None = None
    frame: object = None

    def step_at(self, frame: int) -> float:
        """The value of the step nearest frame ``frame`` (what the slider shows there)."""
        return self.steps[min(len(self.steps) - 1, round(frame / self.substeps))]


def _frame_list(values, where: str) -> list:
    """``values`` as a list: a non-empty list or tuple, at most an animation's frames."""
    from ..fastdraw import record

    if not isinstance(values, list | tuple) or not values:
        raise ValueError(f"{where} takes a list of values, got {short(values)}")
    if len(values) > record.LIMITS.frames:
        raise ValueError(f"an animation in the page has at most {record.LIMITS.frames} "
                         "frames")
    return list(values)


def side_by_side(left: widgets.Widget, right: widgets.Widget) -> widgets.HBox:
    """Two columns side by side where the page is wide enough, the second under the first
    where it is not: neither is squeezed, so nothing is clipped. (A lesson app's own layout
    is :meth:`LessonApp.arrange`, which also sizes the figure to the page.)"""
    for column in (left, right):
        if not isinstance(column, widgets.Widget) or not hasattr(column, "layout"):
            raise ValueError(f"side_by_side() takes two widgets, got {short(column)}")
    for column in (left, right):
        column.layout.flex = "0 0 auto"
    return widgets.HBox([left, right], layout=widgets.Layout(align_items="flex-start",
                                                             flex_flow="row wrap"))


def _same(spec, value, wanted) -> bool:
    """Does a control holding ``value`` hold a preset's ``wanted``? A slider to within half
    its step, anything else exactly."""
    if isinstance(spec, Slider) and isinstance(value, int | float) \
            and isinstance(wanted, int | float) and not isinstance(wanted, bool):
        return abs(float(value) - float(wanted)) <= 0.5 * spec.step
    return value == wanted


def _checked_drawing(fn: Callable) -> Callable:
    """``fn`` (a lesson's draw or panel), called only once :meth:`LessonApp.check_drawn`
    has passed its state and frame."""
    @functools.wraps(fn)
    def checked(self, state, frame=None, *args, **kwargs):
        self.check_drawn(state, frame, fn.__name__)
        return fn(self, state, frame, *args, **kwargs)
    checked.checked_by_loop = True
    return checked


class LessonApp(GifExport, FitLayout):
    """Base class of every lesson app. See the module docstring for the loop.

    Made as ``App(preset=None, **controls)``: a preset's name, then any control (or the
    frame) by name, set over the preset; an app's own options (a size, a target) are
    keyword-only arguments of its ``__init__``, before ``**controls``. ``compact=True``
    (keyword-only, passed on to this class): a small copy, as :meth:`copy` makes.

    Subclass attributes: ``controls`` (specs, in display order; ``redraw=True`` on one that
    only changes the picture), ``frame`` (a :class:`Frame` or None), ``presets``
    (:class:`Preset` s, or override :meth:`preset_list`), ``compute_cache`` (how many
    states to keep). Subclass methods: :meth:`build`, :meth:`compute`, :meth:`draw`,
    :meth:`panel`, optionally :meth:`layout` (with :meth:`arrange`: the figure, the
    primary controls beside or under it, the rest behind "More controls"),
    :meth:`refresh_controls`, :meth:`control_bounds` and :meth:`frame_end`. Controls
    declared ``primary=True`` are the primary ones (none marked: all of them).

    After construction: each control is an attribute named as its spec (``app.yaw``), the
    frame slider too (``app.t``), with ``app.play`` (hidden ``widgets.Play``),
    ``app.play_button`` and ``app.rewind_button``; ``app.preset`` when there are presets.
    """

    controls: tuple[Spec, ...] = ()
    frame: Frame | None = None
    #: the class of what :meth:`compute` returns: :meth:`draw` and :meth:`panel` then refuse
    #: any other state with a ValueError, as they refuse a frame outside the frame's range,
    #: so that a lesson writes no checks of its own for them. None: the state is not checked.
    state_type: type | None = None
    presets: tuple[Preset, ...] = ()
    custom_label = N_("(custom)")   # translated where shown
    #: how many computed states to keep, keyed by the params :meth:`compute` gets (0: none).
    #: Worth it where a learner goes back and forth between a few slow settings.
    compute_cache = 0
    #: The figure's natural (width, height) in a copy (:meth:`copy`), in make_figure's
    #: units (hundreds of CSS px); None: the app's own size. Each app with a copy sets it.
    compact_size: tuple[float, float] | None = None

    def __init_subclass__(cls, **kwargs) -> None:
        """A subclass's own :meth:`draw` and :meth:`panel` are wrapped in
        :meth:`check_drawn`: a page or a caller cannot hand them a foreign state or frame."""
        super().__init_subclass__(**kwargs)
        for name in ("draw", "panel"):
            fn = cls.__dict__.get(name)
            if callable(fn) and not getattr(fn, "checked_by_loop", False):
                setattr(cls, name, _checked_drawing(fn))

    def check_drawn(self, state, frame, what: str = "draw") -> None:
        """A ValueError unless ``state`` is a :attr:`state_type` (when set) and ``frame`` a
        value of the app's frame (finite, within its range; anything without a frame)."""
        where = f"{type(self).__name__}.{what}()"
        if self.state_type is not None:
            check.instance(state, f"{where}: state", self.state_type,
                           "what the app's compute() returns, as app.state")
        spec = type(self).frame
        if spec is not None:
            check.real(frame, f"{where}: frame {spec.name}", lo=spec.min, hi=spec.max)

    # -- the four methods a lesson writes -------------------------------------------------
    def build(self) -> None:
        """Create ``self.fig`` (with :func:`make_figure`) and every artist, once."""
        raise NotImplementedError

    def compute(self, params: Params):
        """Pure maths: control values -> a small frozen state. Never touches artists.

        ``params`` holds every control but the ``redraw=True`` ones (those :meth:`draw`
        reads from ``self.params``), so a change of one of them never re-computes."""
        raise NotImplementedError

    def draw(self, state, frame) -> None:
        """Move the artists to show ``state`` at ``frame`` (None without a frame control)."""
        raise NotImplementedError

    def panel(self, state, frame) -> str | Mapping[str, str] | None:
        """HTML beside the figure: one string (``panels['info']``) or a dict of them."""
        return None

    @takes_params
    def refresh_controls(self, params: Params) -> None:
        """Hook: enable/disable controls (:meth:`set_enabled`) when the params change,
        before the compute."""

    @takes_params
    def control_bounds(self, params: Params) -> Mapping[str, tuple[float, float]]:
        """Hook: sliders whose range depends on the other controls, as ``{name: (min,
        max)}`` within the spec's own range (e.g. a start distance up to the track's
        length). Applied before each compute; a value outside is clamped, in that same
        update. Default: none."""
        return {}

    def frame_end(self, state) -> float | None:
        """Hook: the last frame value worth showing for ``state`` (e.g. where a run ends, a
        trace's last step), or None for the frame spec's own end. The frame slider and Play
        stop there (rounded up to a whole step); a frame that was at the end stays at it."""
        return None

    def pointer_cost(self) -> float:
        """Hook: CPU seconds of model work a pointer move on the figure costs (the page's
        pointer moves are paced by it and a full draw). Default: the first compute's."""
        return self.compute_seconds

    def dynamic_artists(self):
        """Optional: the artists :meth:`draw` moves, for fast redraws (:mod:`.painter`).

        Everything else is rendered once into a cached background; a redraw restores it and
        draws only these, on top. Anything else that changes (any setter, new limits)
        rebuilds the background by itself, so a missing artist costs speed, never a stale
        picture. Name only artists that nothing static covers. Default: None (full draws).
        """
        return None

    def motion_artists(self):
        """Optional: every artist the frame control (or a slider animated by
        :meth:`play_path`) moves, for animations drawn by the page (:mod:`..fastdraw.player`):
        the kernel records them for each frame and the page draws them over a picture of
        everything else, which must not change as they play. Give them all (a superset of
        :meth:`dynamic_artists`: also what changes only now and then, such as lesson 2's
        ghosts). Default: None (animations run in the kernel)."""
        return None

    def motion_still(self):
        """Optional: of :meth:`motion_artists`, those the animation leaves as they are
        (drawn over what moves, such as a key over a cursor): recorded once for a run of
        frames instead of once a frame. Default: none."""
        return None

    def drag_artists(self, item):
        """Optional: what a drag of ``item`` (what the press handler of a
        :meth:`drag_handler` returned; None: any drag, to time one) moves, for drags drawn
        by the page (:mod:`.livedrag`): artists, or whole axes whose content the drag
        changes; the page draws them over a picture of everything else, which must not
        change during the drag. Default: None (the kernel draws the drags)."""
        return None

    #: Frames the page draws per step of the frame control, or of a path of
    #: :meth:`play_path` (between two steps the values are off the slider's grid; Pause
    #: and the end always land on a step).
    motion_substeps = 1

    # -- construction ---------------------------------------------------------------------
    def __init__(self, preset: str | None = None, *, compact: bool = False,
                 **controls) -> None:
        if type(self).build is LessonApp.build:
            raise ValueError(f"{type(self).__name__} is the base of the lesson apps (it has no "
                             "figure): make one of its subclasses, e.g. GimbalApp()")
        #: a small copy beside a question (made by :meth:`copy`): the figure at
        #: ``compact_size``, only what ``arrange(copy_keeps=...)`` keeps, no Save GIF
        self.compact = check.flag(compact, "compact")
        self.status = widgets.HTML(value="", layout=widgets.Layout(min_height="1.6em"))
        self.last_error: str | None = None
        self.state = None
        self.compute_count = 0
        self.compute_seconds = 0.0       # the last compute's CPU time (this thread's)
        self.draw_count = 0
        self._computed_for: Params | None = None   # what compute got for self.state
        self._params_seen: Params | None = None    # every control, at the last update
        self._states: OrderedDict[Params, object] = OrderedDict()
        self._depth = 0
        self._pending = False
        self._linking = False
        self._kernel_play = in_kernel()  # Play ticks in the kernel, not in the page
        self._panels_timer: asyncio.TimerHandle | None = None  # a filling of the panels, due
        self._play_task: asyncio.Future | None = None
        self._play_runs = 0              # each Play in the kernel runs until this changes
        self._page_play: dict | None = None   # Play drawn by the page, while it runs
        self._motion_key = None          # what the animation the page holds was made of
        self._motion_task: asyncio.Future | None = None
        self.panels: dict[str, widgets.HTML] = {}
        self.preset_note = widgets.HTML()
        self._specs = {spec.name: spec for spec in self.controls}
        if preset is not None:
            self._preset_named(preset)         # a bad name is refused before any figure
        self._build_controls(controls)
        with matplotlib.rc_context(language_rc()):   # Hangul in a Korean notebook
            self.build()
        self.painter = Painter.attach(self.fig, self.dynamic_artists)
        self.motion_player = self._make_motion_player()
        self.live_drag = LiveDrag(self)
        self.widget = self.layout()
        self._finish(preset, controls)
        if in_kernel() and not self.painter.page_attached:
            # before the page makes its view: pointer moves no faster than the kernel draws
            # (or, where the page draws the drags, records) a frame
            pace_pointer(self.fig, self.pointer_cost(), self.live_drag.cost())

    def _build_controls(self, initial: dict) -> None:
        names = set(self._specs) | ({self.frame.name} if self.frame else set())
        unknown = sorted(set(initial) - names)
        if unknown:
            raise ValueError(f"{type(self).__name__} has no control {', '.join(unknown)}; "
                             f"its controls are {', '.join(sorted(names))}")
        for name, spec in self._specs.items():
            value = initial.get(name, spec.default)
            setattr(self, name, spec.make(value))
        if self.frame is not None:
            self._build_frame(initial.get(self.frame.name, self.frame.default))
        presets = self.preset_list()
        self.preset = None
        if presets:
            names = [p.name for p in presets]
            if len(set(names)) != len(names) or self.custom_label in names:
                raise ValueError("preset names must be distinct and not the custom label")
            # shown in the learner's language, valued by the code's (English) name
            self.preset = widgets.Dropdown(
                options=[(_(name), name) for name in (*names, self.custom_label)],
                value=self.custom_label,
                description=_("preset"), style={"description_width": "60px"},
                layout=widgets.Layout(width="auto", min_width="330px"))

    def _build_frame(self, value) -> None:
        spec = self.frame
        slider = spec.make(value)
        setattr(self, spec.name, slider)
        self.play = widgets.Play(value=spec.index_of(slider.value), min=0, max=spec.count,
                                 step=1, interval=spec.interval_ms, show_repeat=False,
                                 layout=widgets.Layout(display="none"))
        self.play_button = widgets.ToggleButton(
            value=False, description=_("Play"), icon="play", tooltip=_("play from here; pause"),
            layout=widgets.Layout(width="90px"))
        self.rewind_button = widgets.Button(
            description=_("Start"), icon="step-backward",
            tooltip=_("pause and go back to the start"),
            layout=widgets.Layout(width="90px"))

    def _finish(self, preset: str | None, controls: dict) -> None:
        for name in self._specs:
            getattr(self, name).observe(self.guard(self._on_control), names="value")
        if self.frame is not None:
            self.frame_slider.observe(self.guard(self._on_frame_slider), names="value")
            self.play.observe(self.guard(self._on_play_value), names="value")
            self.play.observe(self.guard(self._on_playing), names="playing")
            self.play_button.observe(self.guard(self._on_play_button), names="value")
            self.rewind_button.on_click(self.guard(lambda _b: self.rewind()))
            if not any(w is self.play for w in iter_widgets(self.widget)):
                self.widget = widgets.VBox([self.widget, self.play])  # its index, in the page
            if not self.compact:         # a copy beside a question makes no slides
                self.add_gif_button()
        if self.preset is not None:
            self.preset.observe(self.guard(self._on_preset), names="value")
        self.guard_controls()
        if preset is not None:
            self.guard(self._start_from)(preset, controls)
            if self.state is None:
                raise ValueError(self.last_error or f"preset {preset!r:.60} failed")
        else:
            self.update()

    def _start_from(self, preset: str, controls: dict) -> None:
        with self.batch():
            self.apply_preset(preset)
            self.set(**controls)

    def preset_list(self) -> tuple[Preset, ...]:
        return tuple(self.presets)

    # -- the small copy beside a question -----------------------------------------------------
    def figure_inches(self, size: tuple[float, float]) -> tuple[float, float]:
        """The figure size :meth:`build` makes: ``compact_size`` in a copy (when the app
        sets one), else ``size`` (the app's own)."""
        if self.compact and self.compact_size is not None:
            return tuple(self.compact_size)
        return size

    def copy_args(self, values: dict) -> dict:
        """Hook: the app's own keyword options (a target, ``fly=``) a copy of it is made
        with, for a copy starting from the control ``values``. Default: none."""
        return {}

    def copy(self, **controls) -> LessonApp:
        """A small copy of this app to lay out beside a question: a new app of the same
        class, ``compact=True`` (its figure at ``compact_size``, only what the layout keeps
        for a copy, no "More controls", no Save GIF), starting from this app's control
        values now (the frame's too), each overridden by ``controls``; its own options from
        :meth:`copy_args`. Afterwards the two are independent. An unknown control is
        refused (a ValueError naming it) before any figure is made."""
        names = [*self._specs, *([self.frame.name] if self.frame is not None else [])]
        unknown = sorted(set(controls) - set(names))
        if unknown:
            raise ValueError(f"{type(self).__name__}.copy() has no control "
                             f"{', '.join(short(n) for n in unknown)}; its controls are "
                             f"{', '.join(names)}")
        values = dict(self.params)
        if self.frame is not None:
            values[self.frame.name] = self.frame_value
        values.update(controls)
        options = self.copy_args(dict(values))
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise ValueError(f"{type(self).__name__}.copy_args() must give a dict of keyword "
                             f"options, not {short(options)}")
        clash = sorted(set(options) & (set(values) | {"compact", "preset"}))
        if clash:
            raise ValueError(f"{type(self).__name__}.copy_args() gives {', '.join(clash)}, "
                             "which the copy sets itself")
        return type(self)(compact=True, **options, **values)

    def guard_controls(self) -> None:
        """Guard the widget channel of every widget in the app (call again after adding)."""
        answer_states_once()
        found = list(iter_widgets(self.widget))
        found += [v for v in vars(self).values() if isinstance(v, widgets.Widget)]
        for w in found:
            guard_widget(w, self.show_message)

    def _ipython_display_(self) -> None:
        """A bare ``App()`` as the last line of a cell shows the app, not its repr."""
        from IPython.display import display

        display(self.widget)

    # -- layout -----------------------------------------------------------------------------
    @property
    def frame_slider(self) -> widgets.Widget | None:
        return getattr(self, self.frame.name) if self.frame is not None else None

    def control_widgets(self) -> list[widgets.Widget]:
        return [getattr(self, name) for name in self._specs]

    def play_row(self) -> widgets.Widget | None:
        """Play/Pause, back to start and the frame slider in one row (None without a frame)."""
        if self.frame is None:
            return None
        return widgets.HBox([self.play_button, self.rewind_button, self.frame_slider,
                             self.play], layout=widgets.Layout(align_items="center",
                                                               flex_flow="row wrap"))

    def preset_box(self) -> widgets.Widget | None:
        if self.preset is None:
            return None
        return widgets.VBox([self.preset, self.preset_note])

    def panel_widget(self, name: str = "info", **layout) -> widgets.HTML:
        """The HTML widget that shows ``panel()``'s entry ``name`` (made on first use)."""
        if not isinstance(name, str):
            raise ValueError(f"a panel's name is text, not {short(name)}")
        if name not in self.panels:
            try:
                box = widgets.Layout(**layout)
            except Exception as exc:  # traitlets' TraitError: a layout value it cannot take
                raise ValueError(f"panel {name!r:.60}: {str(exc).splitlines()[0][:120]}") from None
            self.panels[name] = widgets.HTML(layout=box)
        return self.panels[name]

    def primary_names(self) -> list[str]:
        """The controls declared ``primary=True`` (all of them when none is)."""
        marked = [name for name, spec in self._specs.items() if spec.primary]
        return marked or list(self._specs)

    def layout(self) -> widgets.Widget:
        """Default: the figure; beside it (or under it) the primary controls, Play, the
        presets and the panel; the other controls behind "More controls"."""
        primary = self.primary_names()
        play = self.play_row()
        return self.arrange(
            primary=[*(getattr(self, n) for n in primary), play, self.preset],
            copy_keeps=[*primary, play],
            readout=[self.panel_widget()], extra=[self.status], explain=[self.preset_note],
            secondary=[getattr(self, n) for n in self._specs if n not in primary])

    # -- messages ---------------------------------------------------------------------------
    def show_message(self, text: str, kind: str = "error") -> None:
        if not isinstance(text, str):
            raise ValueError(f"a message is text, not {short(text)}")
        if kind not in ("error", "info", "ok"):
            raise ValueError(f"a message's kind is 'error', 'info' or 'ok', not {short(kind)}")
        colour = {"error": PALETTE["vermillion"], "info": PALETTE["blue"],
                  "ok": PALETTE["green"]}.get(kind, PALETTE["black"])
        icon = {"error": "&#9888;", "info": "&#8505;", "ok": "&#10003;"}.get(kind, "")
        self.status.value = (
            f'<span class="lesson-status lesson-status-{kind}" style="color:{colour};'
            f'font-weight:600;{TEXT}">{icon} {html.escape(text)}</span>')
        self.last_error = text if kind == "error" else None

    def clear_message(self) -> None:
        self.status.value = ""
        self.last_error = None

    def guard(self, fn: Callable) -> Callable:
        """Wrap a callback: any exception becomes a one-line message, never a traceback."""

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except ValueError as exc:
                self.show_message(str(exc))
            except MemoryError as exc:  # in a room's capped kernel this ends the kernel
                out_of_memory(exc)
                self.show_message(_("Out of memory: that was more than this page may use."))
            except Exception as exc:  # a learner's page never shows a traceback
                log.exception("callback %s failed", getattr(fn, "__name__", fn))
                self.show_message(_("Something went wrong ({kind}): {error}").format(
                    kind=type(exc).__name__, error=exc))
            return None

        return wrapper

    def set_enabled(self, name: str, enabled: bool, reason: str = "") -> None:
        """Grey a control out (with ``reason`` as its tooltip) or bring it back."""
        w = self._control(name)
        enabled = check.flag(enabled, "enabled")
        if not isinstance(reason, str):
            raise ValueError(f"reason is text, not {short(reason)}")
        w.disabled = not enabled
        spec = self._specs.get(name)
        help_text = _(spec.help) if spec is not None and spec.help else ""
        w.tooltip = help_text if enabled else reason     # never None: ipywidgets shows "null"

    def when_idle(self, steps, pause: float = IDLE_PAUSE) -> None:
        """Call ``steps`` (functions of no argument) one at a time in the kernel's event
        loop, ``pause`` seconds apart: work the app will want later (a cache to fill) is
        done while the learner reads, before a pre-heated kernel's student arrives, and a
        message from the page waits at most one step. Outside a kernel nothing is run
        (the caches fill on first use), nor where no event loop runs (a test's); a step
        that fails ends the run, quietly."""
        if not self._kernel_play:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        async def run():
            for step in steps:
                await asyncio.sleep(pause)
                try:
                    step()
                except Exception:  # a cache filled later, on first use: nothing is lost
                    log.info("idle work %s failed", step, exc_info=True)
                    return

        self._idle_task = loop.create_task(run())

    # -- params, batching, update -------------------------------------------------------------
    @property
    def params(self) -> Params:
        """Every control's value (the frame's is :attr:`frame_value`)."""
        return Params({name: getattr(self, name).value for name in self._specs})

    @takes_params
    def compute_params(self, params: Params) -> Params:
        """What :meth:`compute` gets of ``params``: all but the ``redraw=True`` controls."""
        return Params({k: v for k, v in params.items()
                       if not getattr(self._specs[k], "redraw", False)})

    @property
    def frame_value(self):
        return self.frame_slider.value if self.frame is not None else None

    @contextmanager
    def batch(self):
        """Change several controls inside; the app updates once, at the end."""
        self._depth += 1
        try:
            yield self
        finally:
            self._depth -= 1
        if self._depth == 0 and self._pending:
            self.update()

    def set(self, **values) -> None:
        """Set several controls (and the frame) at once, checked, and update once."""
        specs = dict(self._specs)
        if self.frame is not None:
            specs[self.frame.name] = self.frame
        unknown = sorted(set(values) - set(specs))
        if unknown:
            raise ValueError(f"{type(self).__name__} has no control {', '.join(unknown)}")
        checked = {name: specs[name].check(v) for name, v in values.items()}
        with self.batch():
            for name, value in checked.items():
                getattr(self, name).value = value

    def on_grid(self, name: str, value: float) -> float:
        """``value`` moved to the nearest step of slider ``name`` (within its current
        range): what the page's slider shows. A value set off its steps comes back from
        the page snapped, as a move of its own: a second compute and picture."""
        w = self._control(name)
        if not isinstance(w, widgets.FloatSlider | widgets.IntSlider):
            raise ValueError(f"{name!r:.60} is not a slider")
        value = check.real(value, "value")
        k = round((value - w.min) / w.step)
        return float(min(w.max, max(w.min, round(w.min + k * w.step, 12))))

    def request_update(self) -> None:
        """Ask for an update: now, or at the end of the current batch."""
        self._pending = True
        if self._depth == 0:
            self.update()

    def update(self) -> None:
        """When the controls changed since the last update: fit the sliders' bounds
        (:meth:`control_bounds`), re-compute if what :meth:`compute` gets changed (or take
        the state from the cache), fit the frame to it (:meth:`frame_end`) and sync the
        preset menu. Then draw and fill the panels."""
        if self._depth:
            self._pending = True
            return
        self._pending = False
        params = self.params
        if params != self._params_seen:
            params = self._fit_bounds(params)
            self.refresh_controls(params)
            key = self.compute_params(params)
            if key != self._computed_for:
                self.state = self._state_for(key)
                self._computed_for = key
                self._fit_frame(self.state)
                if self.last_error is not None:
                    self.clear_message()
            self._params_seen = params
            self.clear_gif_link()
            if self._page_play is not None:     # what it plays is no longer the picture
                self._stop_page_play(ask=False, redraw=False)
            self._sync_preset(params)
        self.redraw()

    def _state_for(self, key: Params):
        if key in self._states:
            self._states.move_to_end(key)
            return self._states[key]
        start = time.thread_time()
        state = self.compute(key)
        self.compute_seconds = time.thread_time() - start
        self.compute_count += 1
        if self.compute_cache > 0:
            self._states[key] = state
            while len(self._states) > self.compute_cache:
                self._states.popitem(last=False)
        return state

    @contextmanager
    def _quietly(self):
        """Widget changes inside are part of the update under way, not a new one."""
        self._depth += 1
        linking, self._linking = self._linking, True
        try:
            yield
        finally:
            self._depth -= 1
            self._linking = linking
            self._pending = False

    def _fit_bounds(self, params: Params) -> Params:
        bounds = self.control_bounds(params)
        if not bounds:
            return params
        with self._quietly():
            for name, (lo, hi) in bounds.items():
                spec, w = self._specs[name], getattr(self, name)
                if not spec.min <= lo <= hi <= spec.max:
                    raise ValueError(f"bounds {lo}..{hi} for '{spec.label}' are outside its "
                                     f"range {spec.min}..{spec.max}")
                if lo > w.max:
                    w.max, w.min = hi, lo
                else:
                    w.min, w.max = lo, hi
        return self.params

    def _fit_frame(self, state) -> None:
        if self.frame is None:
            return
        spec, end = self.frame, self.frame_end(state)
        index = spec.count if end is None else int(
            min(spec.count, max(0, math.ceil((end - spec.min) / spec.step - 1e-9))))
        if index == self.play.max:
            return
        at_end = self.play.value >= self.play.max
        with self._quietly():
            self.play.max = index
            self.frame_slider.max = spec.at(index)
            if at_end:
                self.frame_slider.value, self.play.value = spec.at(index), index

    def recompute(self) -> None:
        """Forget every state computed so far (e.g. after editing something that is not a
        control: a wall on lesson 4's grid) and update."""
        self._computed_for = self._params_seen = None
        self._states.clear()
        self.request_update()

    def redraw(self) -> None:
        """Draw the current state at the current frame, fill the panels, push the picture."""
        if self.state is None:
            return
        run = self._page_play
        if run is not None:   # something else changed the picture (a resize)
            # an animated control followed the page: update() computes for it, then draws
            self._stop_page_play(ask=False, redraw=run["motion"].control is not None)
            if run["motion"].control is not None:
                return
        if self.live_drag.busy():       # the page has frames of a drag to draw: this state
            return                      # is drawn when it says it drew one
        frame = self.frame_value
        self.draw(self.state, frame)
        self.draw_count += 1
        panels = self.live_drag.panels_due()    # during a drag drawn by the page: 10 a second
        if not self.live_drag.show():   # a drag drawn by the page: what it moves, recorded
            self.painter.request()   # drawn and sent now when a page shows it (no round trip)
        # after the picture, which is what the eye follows, where a page shows it
        if panels and not (self.painter.page_attached and self.fill_panels_in(PANELS_AFTER)):
            self.fill_panels_now()

    def fill_panels_in(self, delay: float) -> bool:
        """Fill the panels ``delay`` seconds from now, on the kernel's loop; a filling due
        sooner stands for this one (so a run of calls fills them once). False, and nothing
        scheduled, where no loop runs (a test's: the caller fills them or leaves them)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        when = loop.time() + delay
        timer = self._panels_timer
        if timer is not None:
            if timer.when() <= when:
                return True
            timer.cancel()
        self._panels_timer = loop.call_at(when, self.guard(self._fill_panels_on_time))
        return True

    def _fill_panels_on_time(self) -> None:
        self._panels_timer = None
        self.fill_panels_now()

    def fill_panels_now(self) -> None:
        """Fill the panels from the current state, without drawing."""
        if self.state is not None:
            self.live_drag.panels_filled()
            self._fill_panels(self.panel(self.state, self.frame_value))

    def _fill_panels(self, content) -> None:
        if content is None:
            return
        if isinstance(content, str):
            content = {"info": content}
        for name, text in content.items():
            w = self.panel_widget(name)
            if w.value != text:
                w.value = text

    def _on_control(self, _change=None) -> None:
        self.request_update()

    # -- presets ------------------------------------------------------------------------------
    def _preset_named(self, name: str) -> Preset:
        for p in self.preset_list():
            if p.name == name:
                return p
        names = ", ".join(p.name for p in self.preset_list())
        if not names:
            raise ValueError(f"unknown preset {short(name)}: {type(self).__name__} has none")
        raise ValueError(f"unknown preset {short(name)}; choose one of {names}")

    def apply_preset(self, name: str) -> None:
        """Set every value of the preset in one batch and select it in the menu."""
        preset = self._preset_named(name)
        with self.batch():
            self.set(**preset.values)
            self._pending = True
        if self._depth == 0:     # (inside a batch, its update syncs the menu)
            self._sync_preset(self.params)

    @takes_params
    def matching_preset(self, params: Params) -> Preset | None:
        """The first preset whose every value the controls hold: a slider's to within half
        its step (the page sends 0.9500000000000001 for 0.95; the nearest step is the one
        meant), any other control's exactly."""
        values = dict(params)
        specs = dict(self._specs)
        if self.frame is not None:
            values[self.frame.name] = self.frame_value
            specs[self.frame.name] = self.frame
        for p in self.preset_list():
            if all(k in values and _same(specs[k], values[k], v) for k, v in p.values.items()):
                return p
        return None

    def _sync_preset(self, params: Params) -> None:
        if self.preset is None:
            return
        match = self.matching_preset(params)
        wanted = match.name if match is not None else self.custom_label
        if self.preset.value != wanted:
            self._linking = True
            try:
                self.preset.value = wanted
            finally:
                self._linking = False
        note = match.describe(self.state) if match is not None else ""
        self.preset_note.value = (f'<div class="lesson-preset-note" style="{TEXT};'
                                  f'line-height:1.4;max-width:420px">{note}</div>' if note else "")

    def _on_preset(self, change) -> None:
        if self._linking or change["new"] == self.custom_label:
            return
        self.apply_preset(change["new"])

    # -- the frame and Play -------------------------------------------------------------------
    def _on_frame_slider(self, change) -> None:
        run = self._page_play
        if not self._linking and run is not None and run["motion"].control is None:
            # a scrub while the page plays: it goes on from there, nothing is drawn here
            self._follow_page(self.frame.index_of(change["new"]))
            self.motion_player.seek(self.play.value * run["motion"].substeps)
            return
        if not self._linking:
            self._linking = True
            try:
                self.play.value = self.frame.index_of(change["new"])
            finally:
                self._linking = False
        self.request_update()

    def _on_play_value(self, change) -> None:
        if self._linking:
            return
        self._linking = True
        try:
            self.frame_slider.value = self.frame.at(change["new"])
        finally:
            self._linking = False
        self.request_update()

    def _on_play_button(self, change) -> None:
        if self._linking:
            return
        playing = bool(change["new"])
        if not playing and self._page_play is not None:
            self._stop_page_play(ask=True)
            if self._page_play is not None:    # Play: the page says where it stopped
                return
        if playing and self.play.value >= self.play.max:
            self.set(**{self.frame.name: self.frame.min})   # at the end: from the start
        if not self._kernel_play:
            self.play.playing = playing
            return
        self._show_playing(playing)
        self._play_runs += 1
        if playing and self._start_page_play():
            return
        if playing:
            # in the kernel, on the clock (run_on_clock): the page's Play would send its next
            # value only once the kernel is idle again, a round trip per frame, and fall
            # behind real time
            run = self._play_runs
            self._play_task = self.animate(
                lambda index: self.guard(self.show_frame)(self.frame.at(index)),
                start=self.play.value, last=lambda: self.play.max,
                interval_ms=self.frame.interval_ms,
                running=lambda: self.play_button.value and run == self._play_runs,
                position=lambda: self.play.value,
                done=lambda: self._play_ended(run))

    def _play_ended(self, run: int) -> None:
        if self._play_task is asyncio.current_task():
            self._play_task = None
        if run == self._play_runs:
            self._show_playing(False)

    def animate(self, show: Callable[[int], None], *, start: int, last: Callable[[], int],
                interval_ms: float, running: Callable[[], bool],
                position: Callable[[], int] | None = None,
                done: Callable[[], object] | None = None) -> asyncio.Future | None:
        """Run an animation in the kernel's event loop on the clock (:func:`run_on_clock`:
        ``show(index)`` for the frame due, from ``start`` + 1 to ``last()``, one every
        ``interval_ms``, while ``running()``), then call ``done()``. Returns its task, or
        None outside a kernel, where nothing runs: the app then lets a ``widgets.Play`` in
        the page tick instead."""
        if not self._kernel_play:
            return None

        async def run() -> None:
            try:
                await run_on_clock(show, start=start, last=last, interval=interval_ms / 1000.0,
                                   running=running, position=position)
            finally:
                if done is not None:
                    done()

        return asyncio.ensure_future(run())

    # -- Animations drawn by the page (fastdraw.player) -----------------------------------
    def _make_motion_player(self):
        """The page's player, when this app animates in the page: the fast path is on, it
        has :meth:`motion_artists` or :meth:`drag_artists`, it is not a copy, and it runs
        in a kernel."""
        if not (fastdraw.ENABLED and self._kernel_play and not self.compact
                and (self.motion_artists() is not None
                     or self.drag_artists(None) is not None)):
            return None
        from ..fastdraw import player

        return player.MotionPlayer(self.guard(self._on_player)) if player.PAGE_PLAY else None

    def motion_values(self) -> list[float]:
        """The frame values Play in the page draws, from the first step to the last
        (:meth:`frame_end`): :attr:`motion_substeps` a step (the last step alone); a
        ValueError when they are more than an animation may hold."""
        self._need_frame()
        spec = self.frame
        sub = check.integer(self.motion_substeps, "motion_substeps", lo=1, hi=8)
        from ..fastdraw import record

        last = self.play.max
        if last * sub + 1 > record.LIMITS.frames:
            raise ValueError(f"an animation in the page has at most {record.LIMITS.frames} "
                             "frames")
        return [min(spec.max, spec.at(index) + j * spec.step / sub)
                for index in range(last + 1) for j in range(sub if index < last else 1)]

    def record_motion(self, values) -> object:
        """The moving artists (:meth:`motion_artists`) recorded at each of the frame
        ``values`` (each within the frame's range), packed (:mod:`..fastdraw.record`, within
        its limits: a ValueError past them); the artists are left showing the slider's frame
        again. Draws nothing on the page."""
        self._need_frame()
        if self.state is None:
            raise ValueError("the app has nothing computed to animate")
        values = [check.real(v, f"frame {self.frame.name}", lo=self.frame.min,
                             hi=self.frame.max) for v in _frame_list(values, "record_motion")]
        return self._record([(self.state, v) for v in values])

    def record_path(self, name: str, values) -> object:
        """The moving artists (:meth:`motion_artists`) recorded with slider ``name`` at
        each of ``values`` (each within the slider's range now) and every other control as
        it is: the state :meth:`compute` gives for it, drawn at the frame shown. Packed and
        bounded as :meth:`record_motion`; the artists are left showing the app's state."""
        name, values = self._path_checked(name, values, "record_path")
        base = self.compute_params(self.params)
        return self._record([(self.compute(base.replace(**{name: v})), self.frame_value)
                             for v in values])

    def _record(self, poses: list) -> object:
        """The moving artists recorded at each ``(state, frame)`` of ``poses``, packed; the
        artists are drawn back to the app's own state and frame after."""
        from ..fastdraw import record

        if len(poses) > record.LIMITS.frames:
            raise ValueError(f"an animation in the page has at most {record.LIMITS.frames} "
                             "frames")
        renderer = self._laid_out()
        frames = []
        still = {a: None for a in self.motion_still() or ()}
        with self.painter.hold(send=False):
            try:
                for state, frame in poses:
                    self.draw(state, frame)
                    order = self.painter.drawing_order(list(self.motion_artists() or []))
                    frames.append(record.record_frame(order, renderer, still=still))
            finally:
                self.draw(self.state, self.frame_value)
        return record.pack(frames, renderer.width, renderer.height, self.fig.dpi)

    def _laid_out(self):
        """The canvas's renderer, each axes where a draw puts it (equal aspect, locators)."""
        renderer = self.fig.canvas.get_renderer()
        for ax in self.fig.axes:
            locator = ax.get_axes_locator()
            ax.apply_aspect(locator(ax, renderer) if locator else None)
        return renderer

    def record_drawn(self, artists: list) -> object:
        """``artists`` (a list of the figure's artists; whole axes allowed) recorded as
        they are drawn now: one frame, packed (:mod:`..fastdraw.record`, a ValueError past
        its limits). Draws nothing."""
        from ..fastdraw import record

        renderer = self._laid_out()
        frame = record.record_frame(self.painter.drawing_order(artists), renderer)
        return record.pack([frame], renderer.width, renderer.height, self.fig.dpi)

    def forget_motion(self) -> None:
        """The page's player no longer holds the frames of any Play or :meth:`play_path`
        (a drag drawn by the page took its place): the next one records its own."""
        self._motion_key = None

    def drag_handler(self, on_press: Callable, on_move: Callable,
                     on_release: Callable | None = None) -> DragHandler:
        """A :class:`.figure.DragHandler` on the app's figure, each callback guarded, whose
        drags the page draws where it can (:mod:`.livedrag`: what :meth:`drag_artists`
        names for the item ``on_press`` returned); the kernel's figure after the release."""
        if not (callable(on_press) and callable(on_move)
                and (on_release is None or callable(on_release))):
            raise ValueError("drag_handler takes functions: on_press, on_move and optionally "
                             "on_release")

        def press(event):
            item = on_press(event)
            if item is not None:
                self.live_drag.begin(item)
            return item

        def release(item, event):
            try:
                if on_release is not None:
                    on_release(item, event)
            finally:
                self.live_drag.end()

        return DragHandler(self.fig, self.guard(press), self.guard(on_move),
                           self.guard(release))

    def _path_checked(self, name, values, where: str) -> tuple[str, list[float]]:
        """``name`` a slider that re-computes, ``values`` a non-empty list of numbers within
        its range now; a ValueError otherwise (or with nothing computed yet)."""
        w = self._control(name)
        spec = self._specs.get(name)
        if not isinstance(spec, Slider) or spec.redraw:
            raise ValueError(f"{where}: {short(name)} is not a slider the state is computed "
                             "from")
        if self.state is None:
            raise ValueError("the app has nothing computed to animate")
        return name, [check.real(v, f"{where}: {name}", lo=w.min, hi=w.max)
                      for v in _frame_list(values, where)]

    def play_path(self, name: str, values, interval_ms: float) -> bool:
        """Animate slider ``name`` through ``values`` (a path of its values, one every
        ``interval_ms``; the first where it is now) in the page, at the display's rate:
        :attr:`motion_substeps` frames a step, those in between computed at the values in
        between, recorded here (:meth:`record_path`) and drawn by the page's player. The
        slider follows what the page shows; at the end it holds the last value and the
        kernel draws the app in full. Any change of a control, a redraw, :meth:`stop_motion`
        or another animation ends it where it is. False, with nothing done, when the page
        cannot play it (no page player or none ready, past :data:`.record.LIMITS`, something
        the page cannot draw): the app then animates in the kernel (:meth:`animate`)."""
        name, values = self._path_checked(name, values, "play_path")
        interval_ms = check.real(interval_ms, "interval_ms", lo=1000 * MIN_CLOCK_INTERVAL,
                                 hi=1000 * MAX_CLOCK_INTERVAL, unit="ms")
        from ..fastdraw import player as page_player
        from ..fastdraw import record

        sub = check.integer(self.motion_substeps, "motion_substeps", lo=1, hi=8)
        lo, hi = page_player.INTERVAL_RANGE_MS
        if not lo <= interval_ms / sub <= hi or (len(values) - 1) * sub + 1 > \
                record.LIMITS.frames or self.motion_player is None:
            return False
        frames = [a + j * (b - a) / sub for a, b in zip(values, values[1:], strict=False)
                  for j in range(sub)] + [values[-1]]
        base = self.compute_params(self.params)
        motion = _Motion(key=("path", name, tuple(values), sub, base, self.frame_value),
                         values=tuple(frames), substeps=sub, interval_ms=interval_ms / sub,
                         control=name, steps=tuple(values), base=base,
                         frame=self.frame_value)
        return self._start_motion(motion, 0)

    def stop_motion(self) -> None:
        """End the animation the page plays (Play or :meth:`play_path`), if any: the app
        is drawn in full as its controls are now."""
        if self._page_play is not None:
            self._stop_page_play(ask=False)

    def _start_page_play(self) -> bool:
        """Start Play in the page; False (the kernel then plays) when there is no page
        player ready or the frames cannot be played there."""
        if self.motion_player is None or self.state is None:
            return False
        try:
            values = self.motion_values()
        except ValueError as exc:
            log.info("Play stays in the kernel: %s", exc)
            return False
        sub = self.motion_substeps
        motion = _Motion(key=("frame", id(self.state), self.params, self.play.max, sub),
                         values=tuple(values), substeps=sub,
                         interval_ms=self.frame.interval_ms / sub, state=self.state)
        return self._start_motion(motion, self.play.value * sub)

    def _view_key(self) -> tuple:
        """What the page's frames and background depend on besides the motion: the
        canvas's size, the page that plays them, and each axes' limits and camera."""
        renderer = self.fig.canvas.get_renderer()
        return (renderer.width, renderer.height, self.fig.dpi, self.motion_player.views,
                *((ax.get_xlim(), ax.get_ylim(), getattr(ax, "elev", None),
                   getattr(ax, "azim", None), getattr(ax, "roll", None))
                  for ax in self.fig.axes))

    def _start_motion(self, motion: _Motion, start: int) -> bool:
        """Play ``motion`` in the page from its frame ``start``; False when there is no page
        player ready or its frames cannot be recorded. The first frames are recorded and
        sent before it starts, the rest in the kernel's loop meanwhile (from ``start`` on,
        then those before)."""
        player = self.motion_player
        if player is None or not player.ready or self.state is None \
                or self.motion_artists() is None:    # a player for its drags alone
            return False
        self.live_drag.end()
        if self._page_play is not None:        # one animation at a time
            self._stop_page_play(ask=False, redraw=self._page_play["motion"].control
                                 is not None)
        key = (motion.key, self._view_key())
        if key != self._motion_key:
            self._motion_key = None            # the page's frames are no longer any motion's
            order = [*range(start, len(motion.values)), *range(start)]
            try:
                moving = list(self.motion_artists() or [])
                background = self.painter.background_without(moving)
                player.begin(fastdraw.encode_png(background), len(motion.values))
                self._send_motion(motion, order[:MOTION_CHUNK])
            except ValueError as exc:      # past the bounds, or drawn with what the page
                log.info("the animation stays in the kernel: %s", exc)  # cannot draw
                return False
            self._motion_key = key
            rest = order[MOTION_CHUNK:]
            try:
                asyncio.get_running_loop()
            except RuntimeError:               # no event loop (a test): all of it now
                self._send_motion(motion, rest)
            else:
                self._motion_task = asyncio.ensure_future(
                    self._send_motion_later(key, player.token, motion, rest))
        self._page_play = {"token": player.token, "motion": motion}
        player.play(start, motion.interval_ms, motion.substeps)
        return True

    def _pose(self, motion: _Motion, index: int) -> tuple:
        """The state and frame of ``motion``'s frame ``index``."""
        if motion.control is None:
            return motion.state, motion.values[index]
        return (self.compute(motion.base.replace(**{motion.control: motion.values[index]})),
                motion.frame)

    def _send_motion(self, motion: _Motion, indices: list) -> None:
        """Record ``motion``'s frames ``indices`` and send them to the page (in runs of
        consecutive frames)."""
        player = self.motion_player
        runs: list[list[int]] = []
        for i in indices:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            animation = self._record([self._pose(motion, i) for i in run])
            if animation.unsupported:
                raise ValueError(f"{animation.unsupported} primitives the page cannot draw")
            player.send_frames(run[0], animation)

    async def _send_motion_later(self, key, token: int, motion: _Motion,
                                 indices: list) -> None:
        """:meth:`_send_motion` a chunk at a time, letting the page's messages in between;
        it ends when the page's animation is another (a control changed, a new page)."""
        player = self.motion_player
        for at in range(0, len(indices), MOTION_CHUNK):
            await asyncio.sleep(0.001)
            if self._motion_key != key or player.token != token:
                return
            try:
                self._send_motion(motion, indices[at:at + MOTION_CHUNK])
            except Exception:      # the page cannot finish: the kernel's figure instead
                log.info("recording an animation's frames failed", exc_info=True)
                self._motion_key = None
                if self._page_play is not None:
                    self.guard(self._stop_page_play)(ask=False)
                return

    def _on_player(self, kind: str, frame: int | None) -> None:
        """A message from the page's player (checked by it: a known kind, a frame within
        the animation it holds)."""
        if kind == "drawn":
            self.live_drag.drawn()
            return
        run = self._page_play
        if frame is None or run is None:
            return
        motion = run["motion"]
        if kind == "shown":
            if motion.control is not None:
                self._follow_motion(motion, frame)
                return
            index = min(self.play.max, round(frame / motion.substeps))
            if index != self.play.value and self.state is not None:
                self._follow_page(index)        # and what the panels say of that frame
                self.fill_panels_now()
            return
        if kind not in ("stopped", "ended"):
            return
        self._page_play = None
        self.motion_player.hide()       # the page takes its layer away at the next picture
        if motion.control is None:
            self._show_playing(False)
            self._follow_motion(motion, frame)
            self.redraw()               # the kernel's figure: the frame the page shows
        else:                           # the slider to the step shown, computed and drawn
            with self.batch():
                self.set(**{motion.control: motion.step_at(frame)})
                self._pending = True

    def _follow_motion(self, motion: _Motion, frame: int) -> None:
        """The control ``motion`` moves to the step of its page frame ``frame``, without
        drawing anything (an animation of a control: nor computing; any end of it
        computes, :meth:`_stop_page_play`)."""
        if motion.control is None:
            self._follow_page(min(self.play.max, round(frame / motion.substeps)))
            return
        with self._quietly():
            getattr(self, motion.control).value = motion.step_at(frame)

    def _follow_page(self, index: int) -> None:
        """The frame slider (and Play's index) to ``index``, without drawing anything."""
        with self._quietly():
            self.play.value = index
            self.frame_slider.value = self.frame.at(index)

    def _stop_page_play(self, ask: bool, redraw: bool = True) -> None:
        """End the animation in the page. ``ask`` (Play): the page stops where it is and
        says where (the kernel then draws that frame, :meth:`_on_player`); else it is taken
        away at once and the kernel draws the controls as they are (unless ``redraw`` is
        False: the caller draws, with the state computed for them)."""
        run, player = self._page_play, self.motion_player
        path = run is not None and run["motion"].control is not None
        if not path:
            self._show_playing(False)
        if ask and run is not None and not path:
            player.stop()
            try:                           # a page that never answers: the slider's frame
                asyncio.get_running_loop().call_later(
                    STOP_WAIT, self.guard(self._page_silent), run)
            except RuntimeError:           # no event loop (a test): nothing to wait for
                pass
            return
        self._page_play = None
        player.hide()                      # the page takes its layer away at the next picture
        if redraw and path:
            self.request_update()          # the slider followed the page: compute, draw
        elif redraw:
            self.redraw()

    def _page_silent(self, run: dict) -> None:
        if self._page_play is run:
            self._stop_page_play(ask=False)

    def _on_playing(self, change) -> None:
        self._show_playing(bool(change["new"]))

    def _show_playing(self, playing: bool) -> None:
        if self.frame is None:
            return
        self._linking = True
        try:
            self.play_button.value = playing
            self.play_button.description = _("Pause") if playing else _("Play")
            self.play_button.icon = "pause" if playing else "play"
        finally:
            self._linking = False

    def _control(self, name) -> widgets.Widget:
        """The control called ``name`` (a ValueError naming the controls otherwise)."""
        names = [*self._specs, *([self.frame.name] if self.frame is not None else [])]
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"{type(self).__name__} has no control {short(name)}; its "
                             f"controls are {', '.join(names)}")
        return getattr(self, name)

    def _need_frame(self) -> None:
        if self.frame is None:
            raise ValueError("this app has no frame control, so there is nothing to animate")

    def pause(self) -> None:
        self._need_frame()
        if self._page_play is not None:
            self._stop_page_play(ask=False)
        self.play.playing = False
        self._play_runs += 1               # a Play in the kernel stops before its next frame
        self._show_playing(False)

    def rewind(self) -> None:
        """Pause and go back to the first frame."""
        self._need_frame()
        self.pause()
        self.set(**{self.frame.name: self.frame.min})

    def frame_values(self, step: int = 1) -> list:
        """The frame values from start to end (:meth:`frame_end`), every ``step``-th, the
        last always included."""
        self._need_frame()
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise ValueError(f"step must be a positive whole number, not {short(step)}")
        last = self.play.max
        indices = list(range(0, last + 1, step))
        if indices[-1] != last:
            indices.append(last)
        return [self.frame.at(i) for i in indices]

    def show_frame(self, value) -> None:
        """Move the frame control to ``value`` (checked) and draw it."""
        self._need_frame()
        self.set(**{self.frame.name: value})

