"""A small app on the shared loop, for the core's own tests (headless and in Voila).

y = amplitude * wave(x), with a dot that moves along it as t goes from 0 to 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lessons_lib.apps.core import (
    Choice,
    DragHandler,
    Frame,
    LessonApp,
    Preset,
    Slider,
    Toggle,
    make_figure,
)


@dataclass(frozen=True)
class WaveState:
    x: np.ndarray
    y: np.ndarray
    peak: float


class WaveApp(LessonApp):
    """y = amplitude * wave(x - t): the smallest real app the loop can run."""

    controls = (
        Slider("amplitude", "amplitude", 0.0, 3.0, step=0.1, value=1.0, readout=".1f"),
        Choice("shape", "shape", [("sine", "sin"), ("cosine", "cos")], value="sin"),
        Toggle("squared", "squared", value=False),
        Slider("points", "points", 10, 200, step=10, value=50, integer=True),
    )
    frame = Frame("t", "t", 0.0, 1.0, step=0.05, value=0.0, interval_ms=40,
                  seconds_per_unit=2.0, readout=".2f")
    presets = (
        Preset("tall sine", {"amplitude": 2.5, "shape": "sin"},
               description=lambda s: f"peaks at {s.peak:.1f}"),
        Preset("flat cosine", {"amplitude": 0.5, "shape": "cos", "squared": True},
               description="a gentle wave"),
    )

    def build(self) -> None:
        self.fig = make_figure(4.0, 2.5)
        self.ax = self.fig.add_subplot()
        (self.line,) = self.ax.plot([], [])
        (self.dot,) = self.ax.plot([], [], "o")
        self.ax.set_xlim(0, 2 * math.pi)
        self.ax.set_ylim(-3.2, 9.2)
        # drag up or down anywhere on the axes to set the amplitude
        self.drag = DragHandler(self.fig, on_press=self._press, on_move=self._move)

    def _press(self, event):
        return "amplitude" if event.inaxes is self.ax else None

    def _move(self, _item, event) -> None:
        self.set(amplitude=round(min(3.0, max(0.0, abs(event.ydata))), 1))

    def compute(self, p) -> WaveState:
        x = np.linspace(0, 2 * math.pi, p.points)
        y = p.amplitude * getattr(np, p.shape)(x)
        if p.squared:
            y = y**2
        return WaveState(x, y, float(np.max(y)))

    def draw(self, state, frame) -> None:
        self.line.set_data(state.x, state.y)
        i = min(len(state.x) - 1, int(frame * (len(state.x) - 1)))
        self.dot.set_data([state.x[i]], [state.y[i]])

    def panel(self, state, frame) -> str:
        return f"peak {state.peak:.2f} at t = {frame:.2f}"


