"""Built-in tracks for the steering lesson (2D splines), and a small sloped road in 3D.

* ``oval``      closed, gentle: an ellipse 120 m x 70 m (tightest radius about 20 m);
* ``s_bend``    open: straight, a left and a right 90-degree bend of radius 25 m, straight;
* ``hairpin``   closed: two 70 m straights 20 m apart joined by 10 m-radius hairpins;
* ``open_road`` open road with an end: gentle curves over 200 m, then it stops.
"""

from __future__ import annotations

import math

import numpy as np

from .spline import Spline

__all__ = ["TRACKS", "track", "turtle_points", "sloped_road"]

#: name -> one-line description, in the order the app offers them.
TRACKS = {
    "oval": "Gentle oval (closed, radius 20 m and more)",
    "s_bend": "S-bend (open, two 25 m-radius bends)",
    "hairpin": "Hairpins (closed, 10 m radius, straights 20 m apart)",
    "open_road": "Open road with an end (200 m)",
}


def turtle_points(pieces, start=(0.0, 0.0), heading_deg=0.0, step=4.0) -> np.ndarray:
    """Points along straights and arcs: ``("line", length)`` or ``("arc", radius, degrees)``
    (positive degrees turn left). Points are about ``step`` metres apart."""
    x, y = start
    h = math.radians(heading_deg)
    pts = [(x, y)]
    for piece in pieces:
        if piece[0] == "line":
            n = max(1, round(piece[1] / step))
            for _ in range(n):
                x += piece[1] / n * math.cos(h)
                y += piece[1] / n * math.sin(h)
                pts.append((x, y))
        elif piece[0] == "arc":
            radius, turn = piece[1], math.radians(piece[2])
            n = max(2, round(radius * abs(turn) / step))
            for _ in range(n):
                dh = turn / n
                chord = 2 * radius * math.sin(abs(dh) / 2)
                x += chord * math.cos(h + dh / 2)
                y += chord * math.sin(h + dh / 2)
                h += dh
                pts.append((x, y))
        else:
            raise ValueError(f"unknown piece {piece!r}: use ('line', m) or ('arc', r, deg)")
    return np.array(pts)


def _points(name: str) -> tuple[np.ndarray, bool]:
    if name == "oval":
        th = np.linspace(0, 2 * np.pi, 28, endpoint=False) - np.pi / 2
        return np.c_[60 * np.cos(th), 35 * np.sin(th)], True
    if name == "s_bend":
        pts = turtle_points([("line", 40), ("arc", 25, 90), ("arc", 25, -90), ("line", 50)])
        return pts, False
    if name == "hairpin":
        pts = turtle_points([("line", 70), ("arc", 10, 180), ("line", 70), ("arc", 10, 180)],
                            start=(-35.0, -10.0), step=5.0)
        return pts[:-1], True  # the last point is the first again
    if name == "open_road":
        x = np.linspace(0, 200, 41)
        return np.c_[x, 10 * np.sin(x / 22.0) * np.minimum(1.0, x / 40.0)], False
    raise ValueError(f"unknown track {name!r}: choose one of {list(TRACKS)}")


def track(name: str) -> Spline:
    """The built-in track ``name`` as a :class:`Spline` (see :data:`TRACKS`)."""
    pts, closed = _points(name)
    return Spline(pts, closed=closed)


def sloped_road(grade: float = 0.3, bank_turn: float = 40.0) -> Spline:
    """A 3D road that climbs with slope ``grade`` (rise/run) while turning ``bank_turn``
    degrees to the left over 60 m: for the lesson's section on world up vs projected up."""
    if not math.isfinite(grade) or abs(grade) > 3:
        raise ValueError(f"grade must be a finite rise/run between -3 and 3, got {grade}")
    xy = turtle_points([("line", 20), ("arc", 40 / math.radians(max(bank_turn, 1e-3)),
                                       bank_turn)], step=4.0)
    run = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(xy, axis=0), axis=1))]
    return Spline(np.c_[xy, grade * run], closed=False)
