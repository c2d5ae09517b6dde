"""The small copy's figure of lesson 2's app: the three aeroplanes only.

``InterpolationApp(...).copy()`` (the loop's copy) draws one blend's three planes with how
far each is from the start and from the end: what exercise 3 ("which methods are exactly
halfway?") asks about, next to the question instead of 3,000 px up the page. The planes are
drawn by the same :class:`.view.Planes` as the big picture; the sphere, the 4D plane and the
speed plot (the big panels) are left out.
"""

from __future__ import annotations

from ... import validate as check
from ..core import FONT_SIZE, make_figure, rc_context
from .model import METHODS, BlendState
from .view import Camera, Planes

#: Figure size in make_figure's units: three planes side by side in 540 x 250 px.
SIZE = (5.4, 2.5)


class PlanesView:
    """The three planes on a figure of their own (``fig``, ``planes``), with the methods of
    :class:`.view.BlendView` the app calls: ``show_state``, ``show_frame`` and ``fit``."""

    def __init__(self, camera: Camera | None = None, size: tuple[float, float] = SIZE) -> None:
        camera = Camera() if camera is None else check.instance(camera, "camera", Camera)
        width, height = check.array(size, "size", (2,), what="a figure's (width, height)")
        self.fig = make_figure(float(width), float(height))
        rects = [(0.004 + 0.333 * i, 0.02, 0.325, 0.86) for i in range(len(METHODS))]
        with rc_context():
            self.planes = Planes(self.fig, camera, rects=rects, fontsize=FONT_SIZE)

    @check.first_is(BlendState, "the InterpolationApp's .state")
    def show_state(self, state: BlendState, show_up: bool = False) -> None:
        """The dotted end outlines (``show_up``: no up-vector paths are drawn here)."""
        self.planes.show_state(state)

    def show_frame(self, state: BlendState, t: float, poses: dict, readouts: dict) -> dict:
        """The planes at ``t`` (see :meth:`.view.Planes.show_frame`)."""
        return self.planes.show_frame(state, t, poses, readouts)

    def fit(self) -> str:
        """After a resize: each plane's frame fills its slot again."""
        self.planes.fill()
        return "planes"

    def dynamic_artists(self) -> list:
        """What t moves, drawn over the cached background."""
        p = self.planes
        return [*p.bodies.values(), *p.trails.values(), *p.readouts.values(),
                *p.ghosts.values()]
