"""Lesson 2's static figure: how far nlerp is from slerp, against the size of the turn.

Measured from the library's own nlerp and slerp (not from the formula it is compared with),
drawn once and shown as a picture; nothing here is interactive.
"""

from __future__ import annotations

import io

import numpy as np
import quaternion
from matplotlib.figure import Figure

from ... import validate as check
from ...i18n import _
from ...interpolation import angular_speed, nlerp, slerp
from ...rotations import angle_between
from ..core import LINE, MARKER, MIN_FONT_SIZE, PALETTE, TITLE_SIZE, rc_context
from ..core.figure import FIGURE_DPI

#: Turns measured for the figure, degrees. It stops at 150°, like the table beside it:
#: exercise 5 asks for the half turn's ratio, and the figure sits right under the question.
TURNS = np.arange(5, 151, 5)


#: The turns :func:`nlerp_pace` measures (degrees): a smaller one has speeds that round to
#: zero, and past 180 the shortest way is the other way round.
TURN_RANGE = (1e-3, 180.0)
#: The most samples of one nlerp (and turns of one figure).
MAX_SAMPLES = 100_001
MAX_TURNS = 1000


def nlerp_pace(turn_deg: float, samples: int = 401) -> tuple[float, float]:
    """For one nlerp of ``turn_deg`` about a fixed axis: (fastest / slowest speed, largest
    angle in degrees between nlerp's and slerp's pose at the same t)."""
    turn_deg = check.real(turn_deg, "turn_deg", lo=TURN_RANGE[0], hi=TURN_RANGE[1],
                          unit="degrees")
    samples = check.integer(samples, "samples", lo=3, hi=MAX_SAMPLES)
    t = np.linspace(0.0, 1.0, samples)
    a = quaternion.one
    b = quaternion.from_rotation_vector([0.0, np.radians(turn_deg), 0.0])
    n, s = nlerp(a, b, t), slerp(a, b, t)
    speed = angular_speed(n, t)
    gap = np.max(angle_between(quaternion.as_float_array(n), quaternion.as_float_array(s)))
    return float(speed.max() / speed.min()), float(gap)


def pace_figure(turns=TURNS) -> Figure:
    """Two panels: nlerp's speed ratio with the exact curve 1/cos²(θ/4) (not named: it is
    exercise 5's answer, which the feedback gives), and its lag behind slerp."""
    turns = check.array(turns, "turns", (None,), min_rows=1, what="turns in degrees")
    if len(turns) > MAX_TURNS:
        raise ValueError(f"turns has {len(turns)} entries; at most {MAX_TURNS} fit a figure")
    measured = np.array([nlerp_pace(a) for a in turns])
    with rc_context():
        # 820 x 290 px like the other figures, at their dpi: 9 pt text is 14.5 px
        fig = Figure(figsize=(8.2 * 100 / FIGURE_DPI, 2.9 * 100 / FIGURE_DPI), dpi=FIGURE_DPI,
                     layout="constrained")
        left, right = fig.subplots(1, 2)
        fine = np.linspace(0, float(np.max(turns)), 181)
        left.plot(fine, 1 / np.cos(np.radians(fine / 4)) ** 2, color=PALETTE["black"],
                  lw=LINE["cursor"], ls=(0, (4, 2)), label=_("exact (exercise 5)"))
        left.plot(turns, measured[:, 0], "s", color=PALETTE["purple"], ms=MARKER["seed"],
                  label=_("measured"))
        left.set_xlabel(_("turn θ (degrees)"))
        left.set_title(_("nlerp: fastest ÷ slowest speed"), loc="left", fontsize=TITLE_SIZE)
        left.legend(frameon=False, fontsize=MIN_FONT_SIZE)
        right.plot(turns, measured[:, 1], "s-", color=PALETTE["purple"], ms=MARKER["seed"],
                   lw=LINE["cursor"])
        right.set_yscale("log")
        right.set_xlabel(_("turn θ (degrees)"))
        right.set_title(_("largest gap to slerp (degrees)"), loc="left", fontsize=TITLE_SIZE)
        for ax in (left, right):
            ax.set_xticks([0, 30, 60, 90, 120, 150])
            ax.grid(alpha=0.3)
            ax.tick_params(labelsize=MIN_FONT_SIZE)
    return fig


def png(fig: Figure, scale: float = 1.0) -> bytes:
    """A static figure as PNG bytes, at ``scale`` times its pixels (what the notebook shows)."""
    if not isinstance(fig, Figure):
        raise ValueError(f"png takes a matplotlib Figure, got {type(fig).__name__}")
    scale = check.real(scale, "scale", lo=0.5, hi=4.0)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi * scale)
    return buf.getvalue()


#: The pace figure is drawn at this many times its pixels and shown at its natural width.
PACE_SCALE = 2.0


def show_pace():
    """The pace figure as a picture widget, 820 CSS px wide at most: in Voila's presenter
    mode the page zooms widgets outside the apps to its 20 px text, and a plain image stayed
    at 14 px. It is drawn at twice its pixels, so that the zoom (and a HiDPI screen) keeps it
    sharp."""
    import ipywidgets as widgets

    fig = pace_figure()
    width = round(fig.get_size_inches()[0] * fig.dpi)
    image = widgets.Image(value=png(fig, PACE_SCALE), format="png",
                          layout=widgets.Layout(width=f"{width}px", max_width="100%",
                                                height="auto"))
    image.add_class("lesson-pace-figure")
    return image
