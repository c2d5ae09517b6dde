"""Lesson 1's app: three nested gimbal rings on sliders, in any of the six orders.

The loop is :class:`~lessons_lib.apps.core.LessonApp`'s: the sliders and the order menu are
declared controls; :func:`.model.compute_state` turns them into a frozen state;
:class:`.view.GimbalView` and :mod:`.panel` show it. "Lock it" animates the middle ring to
+-90 over a second, a step of the path every 40 ms: drawn by the page where it can
(:meth:`LessonApp.play_path`, three frames a step, each computed at its angle); else in a
kernel on the clock of the core's Play (:meth:`LessonApp.animate`); elsewhere a hidden
``widgets.Play`` ticks in the page.

Fly it (issue 31): a press on the aircraft and a drag turns it about its own nose, wing or
top axis (:func:`.model.drag_turn`: the axis the drag turns about most, or the one picked in
"turn about"), and the sliders follow (:func:`.model.fly`, through :meth:`LessonApp.set`); a
press anywhere else orbits the camera, as mplot3d does. The "−5°"/"+5°" buttons turn about
the picked axis from the keyboard. The panel says how fast each ring turned.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass

import ipywidgets as widgets

from ... import rotations as rot
from ... import validate as check
from ...i18n import N_, _
from ..core import Choice, LessonApp, Slider, figure_size, make_figure
from ..core.app import takes_params
from ..core.controls import short
from ..core.theme import TEXT
from . import model, panel
from .model import angle_word
from .view import RING_COLOURS, RING_NAMES, VIEWS, GimbalView

_ORDER_OPTIONS = [(panel.order_label(o, rot.ring_angle_names(o)), o) for o in rot.ORDERS]
_TURN_OPTIONS = [(N_("drag picks"), "drag"),
                 *((model.FLY_LABELS[n], n) for n in model.FLY_AXES)]


#: What a press off the aircraft drags: the camera (mplot3d's orbit).
ORBIT = "orbit"


@dataclass
class _Grab:
    """A drag on the aircraft under way: where the pointer was, the exact angles reached so
    far (the sliders hold them rounded), the body axis once chosen, the drag not yet used."""

    x: float
    y: float
    axis: str | None
    waiting: tuple[float, float] = (0.0, 0.0)


def _angle(name: str, label: str, value: float, turns: str) -> Slider:
    return Slider(name, label, -180, 180, step=1, value=value, primary=True, help=turns,
                  label_width="70px", width="330px")


class GimbalApp(LessonApp):
    """Gimbal rings on sliders with the lock gauge, motion arrows and read-backs beside.

    Controls (attributes): ``yaw``, ``pitch``, ``roll`` (sliders, degrees), ``order``
    (dropdown, outer ring first), ``turn_about`` ("drag" or the body axis a drag on the
    aircraft turns about); ``lock_button``, ``reset_button``, ``view_buttons`` (dict),
    ``turn_buttons`` (−5°/+5° about the picked axis). :meth:`turn` flies the aircraft;
    ``flight`` is the last turn (a :class:`.model.Flight`) while the sliders show it.
    ``fly=False``: the sliders only (no drag on the aircraft, no turn buttons).
    ``target`` (a :class:`.model.Target`) adds a see-through purple aircraft to
    reach. :meth:`copy` (the loop's) makes a small copy beside an exercise: the matrix,
    the quaternion and the camera buttons left out. ``view`` holds the artists
    (``ring_lines``, ``axis_lines``, ``arrow_lines``, ``ring_labels``, ``missing_line``,
    ``aircraft``, ``ghost``), all of them drawn over a cached background (the empty 3D
    axes and the world axes).
    """

    controls = (
        _angle("yaw", N_("yaw (Y)"), 35.0, N_("yaw: turns about the vertical Y axis")),
        _angle("pitch", N_("pitch (X)"), -20.0, N_("pitch: turns about the wing axis X")),
        _angle("roll", N_("roll (Z)"), 15.0, N_("roll: turns about the nose axis Z")),
        Choice("order", N_("order"), _ORDER_OPTIONS, value="YXZ", label_width="70px",
               primary=True, width="330px", help=N_("the rings from outer to inner")),
        Choice("turn_about", N_("turn about"), _TURN_OPTIONS, value="drag", style="toggle",
               label_width="70px", width="auto", redraw=True, primary=True,
               help=N_("the aircraft's own axis a drag on it (or the ±5° buttons) turns "
                       "about")),
    )
    #: a copy beside a question (:meth:`copy`): 460 x 400 px
    compact_size = (4.6, 4.0)

    def __init__(self, preset: str | None = None, *, width: float = 4.8, height: float = 4.6,
                 target: model.Target | None = None, fly: bool = True, **controls) -> None:
        order = controls.get("order", "YXZ")
        if target is not None and not isinstance(target, model.Target):
            raise ValueError(f"target must be a model.Target (or None), got {short(target)}")
        if target is not None and target.order != order:
            raise ValueError(f"the target is for order {target.order}, the app starts in "
                             f"{order}: give both the same order")
        self.target = target
        self.can_fly = check.flag(fly, "fly")
        self._size = figure_size(width, height)
        self._lock_run: tuple[str, str, list[float]] | None = None
        self._lock_task: asyncio.Future | None = None
        #: the last body turn (a :class:`.model.Flight`), while the sliders still show it
        self.flight: model.Flight | None = None
        self._turn_tips: str | None = None      # the pick the turn buttons' tooltips are for
        super().__init__(preset, **controls)
        self._initial = dict(self.params)        # what Reset goes back to

    # -- the four methods of the loop ---------------------------------------------------------
    def build(self) -> None:
        self.fig = make_figure(*self.figure_inches(self._size))
        self.view = GimbalView(self.fig, ghost=self.target is not None)
        self.ax = self.view.ax
        self.sliders = {"yaw": self.yaw, "pitch": self.pitch, "roll": self.roll}
        self.slider_box = widgets.VBox()
        places = " → ".join(f'<b style="color:{colour}">{angle_word(place)}</b>'
                            for place, colour in zip(RING_NAMES, RING_COLOURS, strict=True))
        self.order_note = widgets.HTML(   # a colour is a ring's place, whatever angle is on it
            f'<div class="gimbal-order-note" style="{TEXT};margin:0 0 2px 74px">'
            + _("rings {places} (applied last → first)").format(places=places) + "</div>")
        self.lock_button = widgets.Button(
            description=_("Lock it"), icon="lock", tooltip=_("turn the middle ring to ±90°"),
            layout=widgets.Layout(width="105px"))
        self.reset_button = widgets.Button(
            description=_("Reset"), icon="undo",
            tooltip=_("back to the starting angles and order"),
            layout=widgets.Layout(width="105px"))
        self.view_buttons = {name: widgets.Button(description=_(name),
                                                  tooltip=_("{name} view").format(name=_(name)),
                                                  layout=widgets.Layout(width="58px"))
                             for name in VIEWS}
        self.lock_play = widgets.Play(value=0, min=0, max=model.LOCK_FRAMES, step=1,
                                      interval=model.LOCK_INTERVAL_MS, show_repeat=False,
                                      layout=widgets.Layout(display="none"))
        self.lock_button.on_click(self.guard(lambda _b: self.lock_it(animate=True)))
        self.reset_button.on_click(self.guard(lambda _b: self.reset()))
        for name, button in self.view_buttons.items():
            button.on_click(self.guard(lambda _b, n=name: self.set_view(n)))
        self.lock_play.observe(self.guard(self._on_lock_frame), names="value")
        self.turn_buttons = {
            sign: widgets.Button(description=f"{'−' if sign < 0 else '+'}"
                                 f"{model.TURN_STEP_DEG:.0f}°",
                                 layout=widgets.Layout(width="62px"))
            for sign in (-1, 1)}
        for sign, button in self.turn_buttons.items():
            button.on_click(self.guard(
                lambda _b, s=sign: self.turn(self.turn_about.value, s * model.TURN_STEP_DEG)))
        # the menu's name beside its buttons (a ToggleButtons' own description sits above them)
        self.turn_about.description = ""
        self.turn_row = widgets.HBox([widgets.Label(_("turn about"),
                                                    layout=widgets.Layout(width="74px")),
                                      self.turn_about])
        self.fly_note = widgets.HTML(
            f'<div style="{TEXT};line-height:1.3">'
            + _("Drag the aircraft to turn it about its own axis; drag elsewhere to orbit.")
            + "</div>")
        # a press on the aircraft turns it; anywhere else mplot3d orbits the camera
        # (an orbit is a drag too: the page draws it where it can, see drag_artists)
        self.drag = self.drag_handler(self._on_press, self._on_drag, self._on_release)
        # an orbit with the mouse moves the camera: keep the labels and world axes in view
        for event in ("motion_notify_event", "button_release_event"):
            self.fig.canvas.mpl_connect(event, self.guard(self._on_mouse))

    @takes_params
    def compute(self, params) -> model.GimbalState:
        return model.compute_state(params.yaw, params.pitch, params.roll, params.order,
                                   self.target)

    @takes_params
    def refresh_controls(self, params) -> None:
        """The sliders in ring order (outer first), each with its ring's colour."""
        names = rot.ring_angle_names(params.order)
        for n, name in enumerate(names):
            self.sliders[name].style.handle_color = RING_COLOURS[n]
        wanted = [self.sliders[name] for name in names]
        if list(self.slider_box.children) != wanted:
            self.slider_box.children = wanted
        if self.turn_buttons[1].disabled != (params.turn_about == "drag") or \
                self._turn_tips != params.turn_about:     # only when the pick changed
            picked = params.turn_about != "drag"
            for button in self.turn_buttons.values():
                button.disabled = not picked
                button.tooltip = (_("turn the aircraft {angle} about its {axis}").format(
                    angle=button.description, axis=_(model.FLY_LABELS.get(params.turn_about)))
                    if picked else _("pick nose, wing or fin first"))
            self._turn_tips = params.turn_about
        if self.flight is not None and (self.flight.order != params.order
                                        or self.flight.shown != self.angles()):
            self.flight = None              # the sliders moved on: that turn is history

    @check.first_is(model.GimbalState, "the app's .state")
    def draw(self, state, frame) -> None:
        self.view.draw(state, None if self.target is None else self.target.matrix)

    def dynamic_artists(self):
        return self.view.moving_artists()

    def motion_artists(self):
        """Everything an angle moves, for Lock it drawn by the page: all but the 3D axes
        and the world axes in the corner, which only the camera moves."""
        return self.view.moving_artists()

    def drag_artists(self, item):
        """A drag of the aircraft turns the rings: it moves what an angle moves. An orbit
        (and any drag, for its cost) moves the camera: both axes, whole (the rings and the
        world axes in the corner; 3.6 ms to record against 7.5 for a full draw)."""
        return self.view.moving_artists() if isinstance(item, _Grab) else list(self.fig.axes)

    #: Lock it in the page draws three frames a step of its path: 75 a second at 40 ms a
    #: step, so that a 60 Hz display gets a new one at every refresh.
    motion_substeps = 3

    @check.first_is(model.GimbalState, "the app's .state")
    def panel(self, state, frame) -> dict[str, str]:
        out = {"title": panel.title(state), "gauge": panel.gauge(state),
               "motion": panel.motion(state), "fly": panel.flight(state, self.flight),
               "info": panel.numbers(state)}
        if self.target is not None:
            out["target"] = panel.target(state, self.reached)
        return out

    def copy_args(self, values: dict) -> dict:
        """A copy reaches the same target (if any) and flies as this app does."""
        return {"target": self.target, "fly": self.can_fly}

    def layout(self) -> widgets.Widget:
        """The rings' sliders, the order, Lock it and the gauge beside the figure (under it
        on a narrow page); the camera buttons behind "More controls"."""
        views = widgets.HBox([widgets.Label(_("view"), layout=widgets.Layout(width="44px"))]
                             + list(self.view_buttons.values()))
        readout = [self.panel_widget("gauge"), self.panel_widget("fly"),
                   self.panel_widget("motion")]
        if self.target is not None:
            readout.append(self.panel_widget("target"))
        # a class per kind, for the page's tests: the lesson's app, a small copy, an exercise
        kind = ("gimbal-app-reach" if self.target is not None else
                "gimbal-app-copy" if self.compact else "gimbal-app-main")
        # no explanation line (explain=): the rings show what a slider did, the title over
        # them names the order, and the gauge beside the sliders is the readout
        numbers = [self.panel_widget("info")] if self.target is None else []
        primary = [self.slider_box, self.order, self.order_note,
                   widgets.HBox([self.lock_button, self.reset_button,
                                 *(self.turn_buttons.values() if self.can_fly else ())]),
                   *((self.turn_row, self.fly_note) if self.can_fly else ())]
        box = self.arrange(
            above=[self.panel_widget("title")], primary=primary,
            # the reach exercise's app has no room for the numbers either
            readout=readout, extra=[*numbers, self.status, self.lock_play],
            secondary=[views], side=360, name=kind,
            # the figure shows what a change did: each ring's angle on the ring, the order
            # in the title over it; the reach exercise's question says what to reach
            unexplained="the figure shows what a change did",
            # a copy: all but the matrix and quaternion (and the camera buttons)
            copy_keeps=[self.panel_widget("title"), *primary, *readout, self.lock_play])
        box.add_class("gimbal-app")
        return box

    # -- actions ------------------------------------------------------------------------------
    def angles(self) -> tuple[float, float, float]:
        return float(self.yaw.value), float(self.pitch.value), float(self.roll.value)

    def set_angles(self, yaw: float | None = None, pitch: float | None = None,
                   roll: float | None = None) -> None:
        """Move several sliders at once and draw once."""
        self.set(**{k: v for k, v in (("yaw", yaw), ("pitch", pitch), ("roll", roll))
                    if v is not None})

    @property
    def reached(self) -> bool:
        """With a target: is the aircraft on the ghost (within :data:`model.REACH_TOL_DEG`)?"""
        return (self.target is not None and self.state is not None
                and self.state.target_error <= model.REACH_TOL_DEG)

    def lock_it(self, animate: bool = False) -> None:
        """Turn the middle ring to the nearer of +-90: at once, or (``animate``, the button)
        along :func:`model.lock_path`, a step every :data:`model.LOCK_INTERVAL_MS`: drawn
        by the page where it can (:meth:`play_path`), else in the kernel's event loop (the
        hidden Play in the page without a kernel)."""
        self._stop_lock()
        order = self.order.value
        name = rot.middle_angle_name(order)
        path = [float(v) for v in model.lock_path(getattr(self, name).value)]
        if not animate:
            self.set(**{name: path[-1]})
            return
        if self.play_path(name, path, model.LOCK_INTERVAL_MS):
            return
        run = self._lock_run = (name, order, path)
        # in a kernel, on the clock: the page's Play waited for each value's round trip
        self._lock_task = self.animate(
            lambda index: self.guard(self._on_lock_frame)({"new": index}),
            start=0, last=lambda: len(path) - 1, interval_ms=model.LOCK_INTERVAL_MS,
            running=lambda: self._lock_run is run, done=self._lock_ended)
        if self._lock_task is None:
            self.lock_play.value = 0
            self.lock_play.playing = True

    def _lock_ended(self) -> None:
        if self._lock_task is asyncio.current_task():
            self._lock_task = None

    def _on_lock_frame(self, change) -> None:
        run = self._lock_run
        if run is None:
            return
        name, order, path = run
        if self.order.value != order:      # the order changed meanwhile: stop there
            self._stop_lock()
            return
        index = min(int(change["new"]), len(path) - 1)
        # the picture goes to the page before the slider's new value, so that the slider
        # never runs a frame ahead of the ring it moves (it showed -84 beside a -82° ring)
        with getattr(self, name).hold_sync():
            self.set(**{name: path[index]})
        if index == len(path) - 1:
            self._stop_lock()

    def _stop_lock(self) -> None:
        self._lock_run = None
        self.lock_play.playing = False
        self.stop_motion()              # Lock it drawn by the page ends where it is

    def reset(self) -> None:
        """Back to the starting angles, order and camera."""
        self._stop_lock()
        self.set(**self._initial)
        self.set_view("3/4")

    def show_case(self, order: str | None = None, locked: bool = False, view: str | None = None,
                  **angles) -> None:
        """Put the app in a state an exercise asks about (a "Show this case" button), seen
        from ``view`` (one of :data:`.view.VIEWS`) if given: one where the axes the question
        is about do not point at the reader."""
        if view is not None and (not isinstance(view, str) or view not in VIEWS):
            raise ValueError(f"unknown view {view!r:.60}: choose one of {', '.join(VIEWS)}")
        self._stop_lock()
        with self.batch():
            if order is not None:
                self.set(order=order)
            if angles:
                self.set(**angles)
            if locked:
                self.lock_it()
        if view is not None:
            self.set_view(view)

    def start_target(self) -> None:
        """Back to the target exercise's starting pose (locked)."""
        if self.target is None:
            raise ValueError("this app has no target orientation")
        self._stop_lock()
        yaw, pitch, roll = self.target.start
        self.set(yaw=yaw, pitch=pitch, roll=roll, order=self.target.order)

    def set_view(self, name: str) -> None:
        self.stop_motion()                  # Lock it in the page drew over the old camera
        self.view.set_view(name)
        self.fig.canvas.draw_idle()

    def turn(self, axis: str, angle: float, more: bool = False) -> model.Flight:
        """Turn the aircraft by ``angle`` degrees about its own ``axis`` ('nose', 'wing' or
        'top'); the sliders follow, on the branch nearest where the rings were. The turn
        starts from the last turn's exact angles while the sliders still show them (so
        rounding to the sliders' steps never piles up over a drag); ``more``: it continues
        that turn (the next step of a drag), and the panel counts from its start."""
        if not self.can_fly:
            raise ValueError("this app is turned by its sliders only (made with fly=False)")
        if axis not in model.FLY_AXES:
            raise ValueError(f"turn about nose, wing or top, not {short(axis)} (with "
                             "'drag picks' the drag itself chooses)")
        last, order = self.flight, self.order.value
        current = last is not None and last.order == order and last.shown == self.angles()
        start = last.after if current else self.angles()
        since = last if current and more and last.axis == axis else None
        done = model.fly(start, axis, angle, order, since=since)
        self._stop_lock()
        self.flight = done
        with self.batch():
            self.set(**dict(zip(("yaw", "pitch", "roll"), done.shown, strict=True)))
            self.request_update()           # the panel reads the turn even if nothing moved
        return done

    def _on_press(self, event):
        if getattr(event, "button", None) != 1 or getattr(event, "x", None) is None:
            return None
        if not (self.can_fly and self.view.hits_aircraft(event.x, event.y)):
            # mplot3d orbits the camera (its own handlers): a drag whose frames the page
            # may draw, each after mplot3d has turned the camera
            return ORBIT if event.inaxes is self.ax else None
        self.ax.disable_mouse_rotation()    # this press is ours: no orbit while it lasts
        picked = self.turn_about.value
        return _Grab(x=float(event.x), y=float(event.y),
                     axis=None if picked == "drag" else picked)

    def _on_drag(self, grab: _Grab | str, event) -> None:
        if grab is ORBIT:
            if self.view.follow_camera():   # the labels kept in view, then the page's frame
                self.live_drag.show()
            return
        x, y = float(event.x), float(event.y)
        dx, dy = x - grab.x + grab.waiting[0], y - grab.y + grab.waiting[1]
        cx, cy = self.view.centre_px()
        px, py = grab.x - cx, grab.y - cy
        twist = (px * (y - grab.y) - py * (x - grab.x)) / max(math.hypot(px, py), 30.0)
        grab.x, grab.y = x, y
        if grab.axis is None and math.hypot(dx, dy) < model.CHOOSE_AFTER_PX:
            grab.waiting = (dx, dy)         # too short to choose an axis yet
            return
        grab.waiting = (0.0, 0.0)
        axis, angle = model.drag_turn(self.state.matrix, self.view.camera_frame(), dx, dy,
                                      twist, grab.axis)
        if angle != 0:
            self.turn(axis, angle, more=grab.axis is not None)
        grab.axis = axis

    def _on_release(self, _grab, _event) -> None:
        self.ax.mouse_init()                # the camera orbits again

    def _on_mouse(self, event) -> None:
        if self.view.follow_camera():
            self.stop_motion()              # an orbit under Lock it in the page ends it
            self.fig.canvas.draw_idle()
