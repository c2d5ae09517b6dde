"""Lesson 2's app: one pair of orientations blended three ways (Euler lerp, nlerp, slerp).

The loop is :class:`~lessons_lib.apps.core.LessonApp`'s: the start and end angles and the
toggles go through :func:`.model.compute` into a frozen :class:`.model.BlendState`; the
``t`` frame control only moves the picture (:mod:`.view`) and never re-computes a path;
:mod:`.panel` writes the words. Preset descriptions are computed from the state.
"""

from __future__ import annotations

import ipywidgets as widgets

from ... import flight
from ... import validate as check
from ...i18n import N_, _
from ...rotations import check_order
from ..core import GREYS, DragHandler, Frame, LessonApp, Params, Preset, Slider, Toggle
from ..core.app import takes_params
from ..core.theme import TEXT
from .model import (
    ANGLE_NAMES,
    METHODS,
    BlendState,
    compute,
    describe,
)
from .model import (
    PRESETS as BLEND_PRESETS,
)
from .panel import STAGE_PX, info, readouts, stage, turned
from .planes import SIZE as PLANES_SIZE
from .planes import PlanesView
from .view import BEHIND_ZORDER, BlendView, Camera

#: The preset the app opens on: its angles are the sliders' defaults.
OPENING_PRESET = "Wide three-axis turn"
#: The line beside the angle sliders that says the sphere's keyframe markers can be dragged.
DRAG_HINT = N_("Drag ○ (start) or ✖ (end) on the sphere to aim that nose<span "
             "class='lesson-when-shown'>: yaw and pitch follow; roll stays on its slider</span>."
             "<span class='lesson-when-tucked'> (Presenter mode hides the angle sliders "
             "here.)</span>")

#: The t it opens at: a quarter of the way, where nlerp lags slerp most (2.2° on the opening
#: preset) and Euler lerp is 33° off slerp; at t = 1 the three planes are one.
OPENING_T = 0.25


def _preset_values(p) -> dict[str, int]:
    return {f"{k}{i}": v for i, angles in enumerate((p.start, p.end))
            for k, v in zip(ANGLE_NAMES, angles, strict=True)}


_OPENING = _preset_values(BLEND_PRESETS[OPENING_PRESET])


#: A keyframe's three angle sliders take a column this wide at least (CSS px): two such
#: columns sit side by side where the controls have the room (presenter mode's full-width
#: row, a wide screen), else one under the other. Its 360° slider tracks are then about
#: 300-380 px, about one degree a pixel (issue 41: at 62 px a 1-px drag moved 6° and exercise 1's
#: −150 could not be reached by dragging).
ANGLE_COLUMN_PX = 320
#: The controls column beside the figure: one angle column wide.
SIDE_PX = 420
#: Presenter mode hides the angle sliders (the keyframes are dragged on the sphere) only in
#: a window lower than this (853x480, a projector at 150 % zoom, where eight 20-px controls
#: under the figure left 4-43 % of it in view); at 1280x720 they stay.
TUCK_BELOW_PX = 600


def _angle(name: str, label: str, lo: int, hi: int) -> Slider:
    return Slider(name, label, lo, hi, step=1, value=_OPENING[name], integer=True, primary=True,
                  width="100%", label_width="38px")


def _describer(extra: str):
    return lambda state: describe(state, extra)


class InterpolationApp(LessonApp):
    """Start and end orientations, ``t`` with Play, and the three blends side by side.

    Made as ``InterpolationApp(preset=None, *, order="YXZ", **controls)``; with neither a
    preset nor angles it opens on :data:`OPENING_PRESET`.

    Controls (attributes): ``yaw0, pitch0, roll0`` (start), ``yaw1, pitch1, roll1`` (end),
    ``long_way`` (nlerp and slerp head
    for the far copy of q1: 360° minus the shortest turn), ``wrap_euler`` (Euler lerp turns
    each angle the short way), ``show_up`` (draw the path of the up vector too); ``t`` (the
    frame: 0 = start, 1 = end) with ``play_button`` and ``rewind_button``; ``preset``.
    After each update ``state`` is the :class:`BlendState`; ``current`` the three poses at t.
    :meth:`copy` (the loop's) makes a small copy beside an exercise: the three aeroplanes
    (:class:`.planes.PlanesView`) with Play and t, no sphere, 4D plane or speed plot.
    """

    controls = (
        _angle("yaw0", N_("yaw"), -180, 180), _angle("pitch0", N_("pitch"), -90, 90),
        _angle("roll0", N_("roll"), -180, 180),
        _angle("yaw1", N_("yaw"), -180, 180), _angle("pitch1", N_("pitch"), -90, 90),
        _angle("roll1", N_("roll"), -180, 180),
        Toggle("long_way", N_("take the long way"), primary=True,
               help=N_("nlerp and slerp head for the far copy of q₁: 360° minus the short "
                       "turn")),
        Toggle("wrap_euler", N_("wrap Euler angles"), primary=True,
               help=N_("Euler lerp moves each angle the short way round (at most 180°)")),
        Toggle("show_up", N_("up-vector paths"), help=N_("also draw where the fin points"),
               redraw=True),
    )
    # opens at OPENING_T, where the three planes differ (at t = 1 they coincide, at the end).
    # 25 frames a second asked (a 4 s blend): a frame skipped on a busy machine still
    # leaves 20 new pictures a second
    frame = Frame("t", "t", 0.0, 1.0, step=0.01, value=OPENING_T, interval_ms=40,
                  width="250px", label_width="14px", readout=".2f")
    presets = tuple(Preset(name, _preset_values(p), description=_describer(p.extra))
                    for name, p in BLEND_PRESETS.items())
    custom_label = N_("(your own angles)")
    compact_size = PLANES_SIZE

    def __init__(self, preset: str | None = None, *, order: str = "YXZ", **controls) -> None:
        self.order = check_order(order)
        self.camera = Camera()
        self.current: dict = {}
        self._shown: tuple | None = None
        super().__init__(preset, **controls)

    # -- the loop -----------------------------------------------------------------------------
    @takes_params
    def compute(self, params: Params) -> BlendState:
        return compute((params.yaw0, params.pitch0, params.roll0),
                       (params.yaw1, params.pitch1, params.roll1), order=self.order,
                       long_way=params.long_way, wrap_euler=params.wrap_euler)

    def build(self) -> None:
        self.view = (PlanesView(self.camera, self.compact_size) if self.compact
                     else BlendView(self.camera))
        self.fig = self.view.fig
        self.drag_hint = widgets.HTML(
            f"<div style='{TEXT};line-height:1.4;color:{GREYS['note']};max-width:400px'>"
            f"{_(DRAG_HINT)}</div>")
        self.drag_hint.add_class("lesson-drag-hint")
        # a copy has no sphere to aim a keyframe on
        self.drag = None if self.compact else DragHandler(
            self.fig, self.guard(self._on_press), self.guard(self._on_drag))

    @check.first_is(BlendState, "the app's .state")
    def draw(self, state: BlendState, frame) -> None:
        key = (id(state), self.show_up.value)
        if key != self._shown:                      # a new state: paths, speeds, 4D plane
            self.view.show_state(state, self.show_up.value)
            self._shown = key
        t = float(frame)
        self.current = {m: state.pose(m, t) for m in METHODS}
        self.view.show_frame(state, t, self.current, readouts(state, self.current))

    def dynamic_artists(self):
        """What t moves, drawn over a cached background (fastdraw.painter); not the ghosts,
        which change only as t passes one (their panels are then re-rendered). The start/end
        marks, which lie over the moving markers at t = 0 and 1, are redrawn with them so
        that they stay on top. A nose marker behind the sphere (zorder 1.5) lies under the
        paths: then every path of the sphere is redrawn over it too, and only the grid and
        the rotation axis stay in the background (a marker left there instead made every
        frame re-render the sphere's axes). Some are named twice: the painter draws each once."""
        v = self.view
        if isinstance(v, PlanesView):
            return v.dynamic_artists()
        moving = [*v.bodies.values(), *v.trails.values(),
                  *v.readouts.values(), *v.up_now.values(), v.cursor, v.ray_now,
                  v.chord_now, v.nlerp_now, v.slerp_now, v.nose_start, v.nose_end,
                  *v.nose_now.values()]
        behind = min(dot.get_zorder() for dot in v.nose_now.values())
        if behind < 5:
            moving += [a for a in v.ax_sphere.lines if a.get_zorder() > behind]
        return moving

    #: Play in the page draws three frames a step of t: 75 a second at Play's 40 ms a step,
    #: so that a 60 Hz display gets a new one at every refresh.
    motion_substeps = 3

    def motion_artists(self):
        """Everything t moves, for Play drawn by the page: :meth:`dynamic_artists` with
        every path of the sphere that a nose marker behind it may lie under, and the ghosts
        (which change as t passes one). Not in a copy (it plays in the kernel)."""
        v = self.view
        if isinstance(v, PlanesView):
            return None
        moving = [*v.bodies.values(), *v.trails.values(), *v.ghosts.values(),
                  *v.readouts.values(), *v.up_now.values(), v.cursor, v.ray_now,
                  v.chord_now, v.nlerp_now, v.slerp_now, v.nose_start, v.nose_end,
                  *v.nose_now.values()]
        behind = min(BEHIND_ZORDER, *(dot.get_zorder() for dot in v.nose_now.values()))
        return moving + [a for a in v.ax_sphere.lines if a.get_zorder() > behind]

    # -- aiming a keyframe by dragging its nose on the sphere -------------------------------------
    def aim(self, which: str, direction) -> None:
        """Point keyframe ``which`` ("start" or "end")'s nose along ``direction`` (a world
        3-vector): yaw and pitch are solved and set on their sliders, on whole degrees, in
        one update; roll is kept (:func:`lessons_lib.flight.aim_nose`; with the roll ring in the
        middle of ``order`` it moves too). An angle the slider cannot hold is clamped."""
        if which not in ("start", "end"):
            raise ValueError(f"aim which keyframe? 'start' or 'end', not {which!r:.60}")
        i = 0 if which == "start" else 1
        names = [f"{k}{i}" for k in ANGLE_NAMES]
        angles = flight.aim_nose([getattr(self, n).value for n in names], direction,
                              order=self.order)
        self.set(**{n: int(self.on_grid(n, a)) for n, a in zip(names, angles, strict=True)})

    def _on_press(self, event):
        """A press on a keyframe's marker grabs it (with the side of the sphere it is on);
        anywhere else it is not a drag."""
        if event.inaxes is not self.view.ax_sphere or event.x is None or self.state is None:
            return None
        which = self.view.keyframe_at(event.x, event.y)
        if which is None:
            return None
        return which, self.view.keyframe_in_front(self.state, which)

    def _on_drag(self, item, event) -> None:
        if event.inaxes is not self.view.ax_sphere or event.xdata is None:
            return                          # over another panel: the keyframe stays
        which, front = item
        self.aim(which, self.view.sphere_direction(event.xdata, event.ydata, front))

    @check.first_is(BlendState, "the app's .state")
    def panel(self, state: BlendState, frame) -> dict[str, str]:
        t = float(frame)
        return {"turned": turned(state), "info": info(state),
                "stage": stage(state, t, self.current or None)}

    def resized(self, width: int, height: int) -> None:
        """The view takes the arrangement its new width calls for (wide, or narrow: the
        aeroplanes above the sphere, the 4D plane and the speed plot)."""
        self.view.fit()

    def layout(self) -> widgets.Widget:
        """Beside the figure (under it on a narrow page): Play and t, the two toggles the
        lesson's things to try tick, the start and end angles, the preset with its note
        right under it, then the readout; the up-vector paths behind "More controls".

        Under the figure, in its pinned column, the one line that says what a change did
        (:func:`.panel.stage`, issue 42's stage): the full note, up to 491 characters, out of
        view there after moving t, a toggle or an angle at 853x480, stays by its preset.

        The note follows the preset it describes (after the readout it was below the fold).
        The toggles come before the angles, so that in presenter mode at 1280x720, the
        controls under the figure, ticking one still leaves half of the figure in view."""
        def column(title, names):
            return widgets.VBox([widgets.HTML(f"<b>{title}</b>"),
                                 *(getattr(self, n) for n in names)],
                                layout=widgets.Layout(flex=f"1 1 {ANGLE_COLUMN_PX}px",
                                                      margin="0 4px 0 0"))

        angles = widgets.HBox([column(_("start (t = 0)"), ("yaw0", "pitch0", "roll0")),
                               column(_("end (t = 1)"), ("yaw1", "pitch1", "roll1"))],
                              layout=widgets.Layout(flex_flow="row wrap"))
        angles.add_class("lesson-short-readout")
        self.long_way.layout.margin = "0 20px 0 0"        # apart from the next label
        toggles = widgets.HBox([self.long_way, self.wrap_euler],
                               layout=widgets.Layout(flex_flow="row wrap"))
        play = self.play_row()
        return self.arrange(
            primary=[play, self.panel_widget("turned"), toggles, angles,
                     self.drag_hint, self.preset, self.preset_note],
            readout=[self.panel_widget("info")], extra=[self.status],
            explain=[self.panel_widget("stage")], explain_px=STAGE_PX,
            secondary=[self.show_up], tuck=[angles], tuck_below=TUCK_BELOW_PX, side=SIDE_PX,
            name="interpolation-app-copy" if self.compact else "interpolation-app",
            copy_keeps=[play])                  # a copy: the planes, t and Play
