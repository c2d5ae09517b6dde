"""A small copy of lesson 2's three aeroplanes, for an exercise that needs them beside it.

One blend (start and end fixed when it is made), ``t`` with Play, and the three planes with
how far each is from the start and from the end: what exercise 3 ("which methods are exactly
halfway?") asks about, next to the question instead of 3,000 px up the page. The state is
the lesson app's own :func:`.model.compute`; the planes are drawn by the same
:class:`.view.Planes` as the big picture.
"""

from __future__ import annotations

from ... import validate as check
from ...rotations import check_order
from ..core import FONT_SIZE, Frame, LessonApp, Params, make_figure, rc_context
from ..core.app import takes_params
from .app import OPENING_PRESET, OPENING_T
from .model import METHODS, PRESETS, BlendState, compute
from .panel import readouts
from .view import Camera, Planes

#: Figure size in inches at 100 dpi: three planes side by side in 540 x 250 px.
SIZE = (5.4, 2.5)


class PlanesApp(LessonApp):
    """The three blends of one pair at ``t``, small. Made as
    ``PlanesApp(preset=None, *, start=..., end=..., order="YXZ", **controls)`` with start and
    end (yaw, pitch, roll) in degrees; by default lesson 2's opening pair. ``t`` (the frame)
    with ``play_button``; after each update ``current`` holds the three poses at t."""

    controls = ()
    frame = Frame("t", "t", 0.0, 1.0, step=0.01, value=OPENING_T, interval_ms=40,
                  width="250px", label_width="14px", readout=".2f")

    def __init__(self, preset: str | None = None, *, start=None, end=None, order: str = "YXZ",
                 **controls) -> None:
        pair = PRESETS[OPENING_PRESET]
        self.order = check_order(order)
        self.start = tuple(pair.start if start is None else check.items(start, "start", "angles"))
        self.end = tuple(pair.end if end is None else check.items(end, "end", "angles"))
        self._state = compute(self.start, self.end, order=self.order)   # refuses bad angles
        self.current: dict = {}
        self._shown: BlendState | None = None
        super().__init__(preset, **controls)

    @takes_params
    def compute(self, params: Params) -> BlendState:
        return self._state

    def build(self) -> None:
        self.fig = make_figure(*SIZE)
        rects = [(0.004 + 0.333 * i, 0.02, 0.325, 0.86) for i in range(len(METHODS))]
        with rc_context():
            self.planes = Planes(self.fig, Camera(), rects=rects, fontsize=FONT_SIZE)

    @check.first_is(BlendState, "the app's .state")
    def draw(self, state: BlendState, frame) -> None:
        if state is not self._shown:
            self.planes.show_state(state)
            self._shown = state
        t = float(frame)
        self.current = {m: state.pose(m, t) for m in METHODS}
        self.planes.show_frame(state, t, self.current, readouts(state, self.current))

    def resized(self, width: int, height: int) -> None:
        self.planes.fill()

    def dynamic_artists(self):
        p = self.planes
        return [*p.bodies.values(), *p.trails.values(), *p.readouts.values(),
                *p.ghosts.values()]
