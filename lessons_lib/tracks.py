"""Built-in tracks for the steering lesson (2D splines), and a small sloped road in 3D.

* ``oval``      closed, gentle: an ellipse 120 m x 70 m (tightest radius about 20 m);
* ``s_bend``    open: straight, a left and a right 90-degree bend of radius 25 m, straight;
* ``hairpin``   closed: two 70 m straights 20 m apart joined by 10 m-radius hairpins;
* ``open_road`` open road with an end: gentle curves over 200 m, then it stops.
"""

from __future__ import annotations

import math

import numpy as np

from . import validate as check
from .spline import Spline

__all__ = ["TRACKS", "track", "turtle_points", "sloped_road", "MAX_TURTLE_POINTS",
           "ROAD_HALF_WIDTH"]

#: Metres from the centre line to either edge of every lesson road: a car further off the
#: line than this has left the road.
ROAD_HALF_WIDTH = 3.5

#: name -> one-line description, in the order the app offers them.
TRACKS = {
    "oval": "Gentle oval (closed, radius 20 m and more)",
    "s_bend": "S-bend (open, two 25 m-radius bends)",
    "hairpin": "Hairpins (closed, 10 m radius, straights 20 m apart)",
    "open_road": "Open road with an end (200 m)",
}


#: The most points :func:`turtle_points` makes (the pieces' length over ``step``): a 400 km
#: road at the default 4 m step. More is refused before any point is made.
MAX_TURTLE_POINTS = 100_000


def _pieces(pieces, step: float) -> list[tuple[str, float, float, int]]:
    """Check every piece and count its points first, so that the work is known up front."""
    pieces = check.items(pieces, "pieces", "('line', m) and ('arc', r, deg) tuples")
    out, total = [], 0
    for k, piece in enumerate(pieces):
        if not isinstance(piece, tuple | list) or not piece or piece[0] not in ("line", "arc"):
            raise ValueError(f"unknown piece {k} {check.describe(piece)}: use ('line', m) or "
                             "('arc', r, deg)")
        if piece[0] == "line":
            if len(piece) != 2:
                raise ValueError(f"piece {k} {check.describe(piece)}: a line is ('line', "
                                 "length in m)")
            size = check.length(piece[1], f"the length of piece {k}")
            turn = 0.0
            n = max(1, round(min(size / step, MAX_TURTLE_POINTS + 1.0)))
        else:
            if len(piece) != 3:
                raise ValueError(f"piece {k} {check.describe(piece)}: an arc is ('arc', "
                                 "radius in m, degrees)")
            size = check.length(piece[1], f"the radius of piece {k}")
            turn = math.radians(check.real(piece[2], f"the turn of piece {k}", unit="degrees"))
            if turn == 0.0:
                raise ValueError(f"piece {k} turns by 0 degrees: leave it out or use a line")
            n = max(2, round(min(size * abs(turn) / step, MAX_TURTLE_POINTS + 1.0)))
        total += n
        if total > MAX_TURTLE_POINTS:
            raise ValueError(f"these pieces make more than {MAX_TURTLE_POINTS} points at step "
                             f"{step:g} m: use a larger step or shorter pieces")
        out.append((piece[0], size, turn, n))
    return out


def turtle_points(pieces, start=(0.0, 0.0), heading_deg=0.0, step=4.0) -> np.ndarray:
    """Points along straights and arcs: ``("line", length)`` or ``("arc", radius, degrees)``
    (positive degrees turn left). Points are about ``step`` metres apart, at most
    :data:`MAX_TURTLE_POINTS` of them."""
    x, y = check.point(start, "start")
    x, y = float(x), float(y)
    h = math.radians(float(check.reduce_degrees(check.real(heading_deg, "heading_deg"))))
    step = check.length(step, "step")
    pts = [(x, y)]
    for kind, size, turn, n in _pieces(pieces, step):
        if kind == "line":
            for _ in range(n):
                x += size / n * math.cos(h)
                y += size / n * math.sin(h)
                pts.append((x, y))
        else:
            radius = size
            for _ in range(n):
                dh = turn / n
                chord = 2 * radius * math.sin(abs(dh) / 2)
                x += chord * math.cos(h + dh / 2)
                y += chord * math.sin(h + dh / 2)
                h += dh
                pts.append((x, y))
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
    raise ValueError(f"unknown track {check.describe(name)}: choose one of {list(TRACKS)}")


def track(name: str) -> Spline:
    """The built-in track ``name`` as a :class:`Spline` (see :data:`TRACKS`)."""
    if not isinstance(name, str):
        raise ValueError(f"unknown track {check.describe(name)}: give its name, one of "
                         f"{list(TRACKS)}")
    pts, closed = _points(name)
    return Spline(pts, closed=closed)


def sloped_road(grade: float = 0.3, bank_turn: float = 40.0) -> Spline:
    """A 3D road that climbs with slope ``grade`` (rise/run): 20 m straight, then 40 m that
    turn ``bank_turn`` degrees to the left (negative: to the right, the mirror image; 0: a
    straight sloped road). For the lesson's section on world up vs projected up."""
    grade = check.real(grade, "grade", lo=-3.0, hi=3.0, unit="(rise/run)")
    bank_turn = check.real(bank_turn, "bank_turn", lo=-360.0, hi=360.0, unit="degrees")
    if abs(bank_turn) < 1e-6:  # an arc of 40 m with a radius beyond 2e9 m: a straight
        pieces = [("line", 20), ("line", 40)]
    else:
        pieces = [("line", 20), ("arc", 40 / math.radians(abs(bank_turn)), bank_turn)]
    xy = turtle_points(pieces, step=4.0)
    run = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(xy, axis=0), axis=1))]
    return Spline(np.c_[xy, grade * run], closed=False)
