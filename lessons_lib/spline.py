"""An arc-length parameterised cubic spline through 2D or 3D points, open or closed.

Built in two passes with :class:`lessons_lib.cubic.Cubic` (the curves of scipy's
``CubicSpline``, not-a-knot or periodic, without loading ``scipy.interpolate``):

1. a spline ``P(u)`` through the given points, with ``u`` the cumulative chord length;
2. its true arc length ``s(u)`` by Gauss-Legendre quadrature, inverted, and the curve
   re-sampled at equal arc-length steps ``h``; a second cubic through those samples,
   with the arc length itself as the parameter, is the spline used from then on.

The distance along the spline is then the parameter: ``location_at(s)`` is the point ``s``
metres along the curve (the error is micrometres on a 300 m track, see the tests), and the
knots are equally spaced, so finding the piece that holds ``s`` is one division.

Distances wrap on a closed spline and clamp to ``[0, length]`` on an open one, which is the
rule the article uses for its look-ahead point.

Besides the numpy API, the class has a documented pure-Python fast path for loops that ask
one distance at a time (the steering, the simulation and the comparison controllers use it):

* :meth:`Spline.frame_at` gives a :class:`SplineFrame` (point, first and second derivative,
  with ``tangent`` and ``curvature``) from one Horner evaluation of the spline's polynomial
  coefficients, with no array allocation;
* :meth:`Spline.closest_near` finds the nearest point within a window around a hint
  (Newton's method from the hint, a scan of the window only when Newton hits its edge).

Both take and return Python floats, so a whole 40 s run can be re-simulated on a slider move.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import validate as check
from .cubic import Cubic

__all__ = ["Spline", "SplineFrame", "MAX_LENGTH", "MIN_LENGTH", "MAX_SAMPLES"]

#: Target spacing (metres) of the equal-arc-length knots of the final spline.
KNOT_SPACING = 0.5
#: Fewest pieces of the final spline, so that short curves are still resolved.
MIN_PIECES = 32
#: The longest spline built (metres). Its work and memory grow with its length (one piece
#: per KNOT_SPACING metres): 50 km is 100,000 pieces, about 50 MB kept (80 MB while it is
#: built) and about 0.7 s of CPU.
#: Anything longer is refused before any work is done (the chord length is a lower bound).
MAX_LENGTH = 50_000.0
#: The shortest spline built (metres): below a micrometre the derivatives overflow.
MIN_LENGTH = 1e-6
#: The most points :meth:`Spline.sample` returns.
MAX_SAMPLES = 1_000_000
#: Consecutive chords whose directions differ from straight back by less than this (1 +
#: cosine of the turn) retrace: a zero-radius U-turn that no smooth curve passes through.
RETRACE = 1e-12
_GAUSS_X, _GAUSS_W = np.polynomial.legendre.leggauss(8)


def _as_points(points) -> np.ndarray:
    if isinstance(points, str | bytes) or points is None:
        raise ValueError(f"spline points must be numbers in an (N, 2) or (N, 3) array, got "
                         f"{type(points).__name__}")
    try:
        raw = np.asarray(points)
    except (TypeError, ValueError):
        raise ValueError("spline points must be numbers in an (N, 2) or (N, 3) array, not a "
                         "ragged list") from None
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"spline points must be numbers in an (N, 2) or (N, 3) array, got "
                         f"elements of type {raw.dtype}")
    pts = raw.astype(float)
    if pts.ndim != 2 or pts.shape[1] not in (2, 3):
        raise ValueError(f"spline points must have shape (N, 2) or (N, 3), got {pts.shape}")
    if not np.all(np.isfinite(pts)):
        bad = int(np.argwhere(~np.isfinite(pts))[0, 0])
        raise ValueError(f"spline point {bad} is not finite (NaN or inf): {pts[bad].tolist()}")
    return pts


#: A point farther than this many spline sizes from a spline is searched for along its
#: direction (:meth:`Spline._near`).
FAR_SIZES = 1e6


def _distances(points: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Distance from each row of ``points`` to ``q``, without squaring the differences (a
    far point, 1e308 away, overflows a squared distance but not ``hypot``)."""
    diff = points - q
    out = np.abs(diff[:, 0])
    for k in range(1, diff.shape[1]):
        out = np.hypot(out, diff[:, k])
    return out


def _check_turns(steps_vec: np.ndarray, closed: bool) -> None:
    """Refuse points that walk straight back along the chord they came by (no curve does)."""
    n = np.linalg.norm(steps_vec, axis=1)
    u = steps_vec / n[:, None]
    nxt = np.roll(u, -1, axis=0) if closed else u[1:]
    cos = np.sum(u[: len(nxt)] * nxt, axis=1)
    back = np.flatnonzero(1.0 + cos <= RETRACE)
    if len(back):
        i = int(back[0])
        m = len(steps_vec) if closed else len(steps_vec) + 1  # number of points
        raise ValueError(f"points {i}, {(i + 1) % m} and {(i + 2) % m} turn straight back along "
                         "the same line: a spline cannot make a U-turn in no distance; add "
                         "points around the turn (or remove the point that retraces)")


class SplineFrame(NamedTuple):
    """The spline at one distance ``s``, as Python floats (``z`` parts are 0 on a 2D spline).

    ``x, y, z``: the point; ``dx, dy, dz``: the first derivative in ``s`` (unit length up to
    the arc-length fit's error); ``ddx, ddy, ddz``: the second derivative.
    """

    x: float
    y: float
    z: float
    dx: float
    dy: float
    dz: float
    ddx: float
    ddy: float
    ddz: float

    @property
    def point(self) -> tuple[float, float, float]:
        return (self.x, self.y, self.z)

    @property
    def tangent(self) -> tuple[float, float, float]:
        """Unit direction of travel."""
        n = math.sqrt(self.dx * self.dx + self.dy * self.dy + self.dz * self.dz)
        return (self.dx / n, self.dy / n, self.dz / n)

    @property
    def curvature(self) -> float:
        """Unsigned curvature |r' x r''| / |r'|^3 (1/m)."""
        dx, dy, dz, ddx, ddy, ddz = self.dx, self.dy, self.dz, self.ddx, self.ddy, self.ddz
        cx, cy, cz = dy * ddz - dz * ddy, dz * ddx - dx * ddz, dx * ddy - dy * ddx
        sp2 = dx * dx + dy * dy + dz * dz
        return math.sqrt(cx * cx + cy * cy + cz * cz) / (sp2 * math.sqrt(sp2))


_make_frame = SplineFrame._make


class Spline:
    """Cubic spline through ``points`` parameterised by arc length ``s`` (metres).

    ``points``: (N, 2) or (N, 3). ``closed=True`` joins the last point back to the first with
    a smooth (periodic) piece; do not repeat the first point at the end.
    """

    def __init__(self, points, closed: bool = False) -> None:
        pts = _as_points(points)
        closed = check.flag(closed, "closed")
        need = 3 if closed else 2
        if len(pts) < need:
            kind = "a closed" if closed else "an open"
            raise ValueError(f"{kind} spline needs at least {need} points, got {len(pts)}")
        # "the same point": relative to the curve's own size, never finer than the floats
        same = check.tolerance(pts, 1e-9)
        with np.errstate(over="ignore", invalid="ignore"):
            steps_vec = np.diff(pts, axis=0)
            steps = np.linalg.norm(steps_vec, axis=1)
            chord = float(np.sum(steps))
        if not chord <= MAX_LENGTH:  # also catches an overflow to inf
            far = f"{chord:.3g} m" if math.isfinite(chord) else "too far"
            raise ValueError(f"the points are {far} apart in all, more than the "
                             f"{MAX_LENGTH:g} m a spline may be (its cost grows with its "
                             "length): split the road or scale the points down")
        if chord < MIN_LENGTH:
            raise ValueError(f"the points span only {chord:.3g} m, less than the "
                             f"{MIN_LENGTH:g} m a spline needs: scale them up")
        if np.any(steps <= same):
            i = int(np.argmax(steps <= same))
            raise ValueError(f"points {i} and {i + 1} are the same ({pts[i].tolist()}): "
                             "remove repeated consecutive points")
        if closed:
            gap = float(np.linalg.norm(pts[-1] - pts[0]))
            if gap <= same:
                raise ValueError("the last point repeats the first: for closed=True give each "
                                 "point once, the spline joins the ends itself")
            steps_vec = np.vstack([steps_vec, pts[:1] - pts[-1:]])
            pts = np.vstack([pts, pts[:1]])
            steps = np.append(steps, gap)
        _check_turns(steps_vec, closed)
        self.points = pts[:-1].copy() if closed else pts.copy()
        self.closed = closed
        self.dim = pts.shape[1]

        # pass 1: chord-length spline and its arc length by quadrature
        u = np.concatenate([[0.0], np.cumsum(steps)])
        first = Cubic(u, pts, periodic=closed)
        sub = 16  # quadrature sub-intervals per input piece
        grid = np.concatenate([np.linspace(u[i], u[i + 1], sub, endpoint=False)
                               for i in range(len(u) - 1)] + [[u[-1]]])
        a, b = grid[:-1], grid[1:]
        half = 0.5 * (b - a)
        nodes = (a + b)[:, None] * 0.5 + half[:, None] * _GAUSS_X[None, :]
        speed = np.linalg.norm(first(nodes, 1), axis=-1)
        pieces = half * (speed @ _GAUSS_W)
        s_grid = np.concatenate([[0.0], np.cumsum(pieces)])
        length = float(s_grid[-1])
        if not (np.isfinite(s_grid).all() and np.all(np.diff(s_grid) > 0)):
            raise ValueError("the curve through these points stops dead somewhere (its speed "
                             "drops to zero): move the points so that it does not fold back")
        if length > MAX_LENGTH:
            raise ValueError(f"the spline would be {length:.3g} m long, more than the "
                             f"{MAX_LENGTH:g} m a spline may be: split the road")
        self.length = length

        # pass 2: equal arc-length knots and the final spline in s
        n = max(MIN_PIECES, math.ceil(length / KNOT_SPACING))
        h = length / n
        s_knots = np.linspace(0.0, length, n + 1)
        u_of_s = Cubic(s_grid, grid)
        u_knots = u_of_s(s_knots)
        # one Newton polish per knot: s(u) - s_target = 0 with ds/du = |P'(u)|
        idx = np.clip(np.searchsorted(grid, u_knots, side="right") - 1, 0, len(a) - 1)
        lo = grid[idx]
        half_k = 0.5 * (u_knots - lo)
        nodes_k = (u_knots + lo)[:, None] * 0.5 + half_k[:, None] * _GAUSS_X[None, :]
        s_now = s_grid[idx] + half_k * (np.linalg.norm(first(nodes_k, 1), axis=-1) @ _GAUSS_W)
        u_knots = u_knots - (s_now - s_knots) / np.linalg.norm(first(u_knots, 1), axis=-1)
        u_knots[0], u_knots[-1] = u[0], u[-1]
        if not np.isfinite(u_knots).all():
            raise ValueError("the curve through these points stops dead somewhere (its speed "
                             "drops to zero): move the points so that it does not fold back")
        samples = first(u_knots)
        if closed:
            samples[-1] = samples[0]
        self._cs = Cubic(s_knots, samples, periodic=closed)
        self._h = h
        self._inv_h = 1.0 / h
        self._n = n
        self._knot_points = samples
        # a point farther than this from the centre is brought in along its direction before
        # a closest-point search (see _near): at 1e308 every point of the spline is equally
        # far in floating point, and the squares of the distances overflow
        lo, hi = samples.min(axis=0), samples.max(axis=0)
        self._centre = tuple(float(v) for v in (lo + hi) / 2) + (0.0,) * (3 - self.dim)
        self._far = FAR_SIZES * max(float(np.max(hi - lo)), h)
        # the coefficients as Python tuples, for the scalar path: c[k][i] per axis
        c = self._cs.c  # (4, n, dim), highest power first, local variable t = s - s_i
        zeros = (0.0, 0.0, 0.0, 0.0)
        axes = [c[:, :, d].T.tolist() for d in range(self.dim)]
        self._cx = [tuple(v) for v in axes[0]]
        self._cy = [tuple(v) for v in axes[1]]
        self._cz = [tuple(v) for v in axes[2]] if self.dim == 3 else [zeros] * n
        self._coef = np.ascontiguousarray(np.moveaxis(c, 0, 1))  # (n, 4, dim), for frames_at

    # -- distances ----------------------------------------------------------------------
    def wrap(self, s):
        """Wrap ``s`` into ``[0, length)`` on a closed spline; clamp to ``[0, length]`` if open.

        The one place where distances are wrapped or clamped: every other method (and the
        steering's look-ahead point) goes through it.
        """
        if type(s) is float and s - s == 0.0:  # the fast path's case: a finite Python float
            if self.closed:
                return s % self.length
            return 0.0 if s < 0.0 else self.length if s > self.length else s
        if check.is_number(s):
            s = check.real(s, "the distance along the spline", unit="m")
            if self.closed:
                return s % self.length
            return min(max(s, 0.0), self.length)
        s = check.numbers(s, "the distance along the spline", "metres (finite)")
        return np.mod(s, self.length) if self.closed else np.clip(s, 0.0, self.length)

    # -- numpy API ----------------------------------------------------------------------
    def location_at(self, s) -> np.ndarray:
        """Point ``s`` metres along the spline: shape (dim,) for a scalar, (n, dim) for n values."""
        return self._cs(self.wrap(s))

    def direction_at(self, s) -> np.ndarray:
        """Unit tangent (direction of travel) at distance ``s``."""
        d = self._cs(self.wrap(s), 1)
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    def curvature_at(self, s):
        """Unsigned curvature (1/m) at distance ``s``: 1/R on a circle of radius R."""
        s = self.wrap(s)
        d1, d2 = self._cs(s, 1), self._cs(s, 2)
        if self.dim == 2:
            cross = np.abs(d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0])
        else:
            cross = np.linalg.norm(np.cross(d1, d2), axis=-1)
        k = cross / np.linalg.norm(d1, axis=-1) ** 3
        return float(k) if np.ndim(k) == 0 else k

    def signed_curvature_at(self, s):
        """2D only: curvature, positive where the spline turns left (counter-clockwise)."""
        if self.dim != 2:
            raise ValueError("signed curvature needs a 2D spline (in 3D, left depends on up)")
        s = self.wrap(s)
        d1, d2 = self._cs(s, 1), self._cs(s, 2)
        k = (d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]) / np.linalg.norm(d1, axis=-1) ** 3
        return float(k) if np.ndim(k) == 0 else k

    def sample(self, n: int = 400) -> np.ndarray:
        """``n`` points equally spaced along the spline (the end repeats the start if closed)."""
        n = check.integer(n, "n", lo=1, hi=MAX_SAMPLES, whole_floats=True)
        return self.location_at(np.linspace(0.0, self.length, n))

    def closest_distance(self, p, hint: float | None = None, window: float | None = None) -> float:
        """Distance along the spline of the point nearest to ``p``.

        Without ``hint`` the whole spline is searched. With ``hint`` (e.g. last step's
        progress) only ``hint +- window`` metres are searched (default: a quarter of the
        length, at most 10 m), so a car on one side of a hairpin is never snapped to the other.
        A window longer than the spline searches all of it (it is cut to the length).
        """
        p = check.array(p, "point", (None,), finite=False, what="coordinates", ravel=True)
        if p.shape != (self.dim,):
            raise ValueError(f"point must have {self.dim} coordinates, got {p.shape[0]}")
        if not np.all(np.isfinite(p)):
            raise ValueError(f"point must be finite, got {p.tolist()}")
        px, py, pz = self._near(float(p[0]), float(p[1]), float(p[2]) if self.dim == 3 else 0.0)
        if hint is None:
            p = np.array([px, py, pz][: self.dim])
            i = int(np.argmin(_distances(self._knot_points, p)))
            best_s, best_d = None, math.inf
            for s0 in (i * self._h - 0.5 * self._h, i * self._h + 0.5 * self._h):
                s = self._refine(px, py, pz, s0, s0 - 1.5 * self._h, s0 + 1.5 * self._h)
                d = self._dist2(px, py, pz, s)
                if d < best_d:
                    best_s, best_d = s, d
            return float(self.wrap(best_s))
        hint = check.real(hint, "hint", unit="m (a finite distance)")
        return self.closest_near(px, py, pz, hint, window)

    # -- fast path (pure Python floats) --------------------------------------------------
    def frame_at(self, s: float) -> SplineFrame:
        """Point, first and second derivative at ``s`` (wrapped or clamped like everywhere).

        The fast path for loops: ``s`` a Python float, the answer Python floats, about a
        microsecond. ``frame_at(s).tangent`` and ``.curvature`` equal :meth:`direction_at`
        and :meth:`curvature_at`.
        """
        if type(s) is not float and not check.is_finite(s):
            s = check.real(s, "the distance along the spline", unit="m")
        return _make_frame(self._eval(self.wrap(float(s))))

    def _eval(self, s: float) -> tuple:
        """frame_at's nine numbers as a plain tuple, for ``s`` already in range: the Newton
        loop of :meth:`_refine` calls this directly, as the SplineFrame wrapper and the wrap
        were a large share of a simulation step (see docs/performance.md)."""
        i = int(s * self._inv_h)
        if i >= self._n:
            i = self._n - 1
        t = s - i * self._h
        a3, a2, a1, a0 = self._cx[i]
        b3, b2, b1, b0 = self._cy[i]
        c3, c2, c1, c0 = self._cz[i]
        return (((a3 * t + a2) * t + a1) * t + a0,
                ((b3 * t + b2) * t + b1) * t + b0,
                ((c3 * t + c2) * t + c1) * t + c0,
                (3.0 * a3 * t + 2.0 * a2) * t + a1,
                (3.0 * b3 * t + 2.0 * b2) * t + b1,
                (3.0 * c3 * t + 2.0 * c2) * t + c1,
                6.0 * a3 * t + 2.0 * a2,
                6.0 * b3 * t + 2.0 * b2,
                6.0 * c3 * t + 2.0 * c2)

    def closest_near(self, x: float, y: float, z: float = 0.0, hint: float = 0.0,
                     window: float | None = None) -> float:
        """Distance along the spline of the point nearest to ``(x, y, z)`` within
        ``hint +- window`` metres (default: a quarter of the length, at most 10 m).

        The fast path of :meth:`closest_distance` for a moving car: Python floats in and out,
        Newton's method started at ``hint`` (the last progress plus one step), and a scan of
        the window only when Newton runs into its edge. ``z`` is ignored on a 2D spline.
        """
        if window is None:
            window = min(10.0, 0.25 * self.length)
        elif not (type(window) is float and 0.0 < window <= self.length):
            window = min(check.length(window, "window"), self.length)
        if not all(type(v) is float and v - v == 0.0 for v in (x, y, z, hint)):
            x, y, z = (check.real(v, n) for v, n in ((x, "x"), (y, "y"), (z, "z")))
            hint = check.real(hint, "hint", unit="m (a finite distance)")
        if self.dim == 2:
            z = 0.0
        cx, cy, cz = self._centre
        if abs(x - cx) > self._far or abs(y - cy) > self._far or abs(z - cz) > self._far:
            x, y, z = self._near(x, y, z)
        hint = self.wrap(hint)  # a hint beyond an open end starts from that end
        lo, hi = hint - window, hint + window
        s = self._refine(x, y, z, hint, lo, hi)
        at_edge = (s - lo < 1e-6 or hi - s < 1e-6)
        if at_edge and not (not self.closed and (s <= 1e-9 or s >= self.length - 1e-9)):
            # Newton ran into the window's edge: scan the window and refine the best sample
            grid = np.linspace(lo, hi, max(3, int(2 * window * self._inv_h) + 1))
            pts = self._cs(self.wrap(grid))
            q = np.array([x, y, z][: self.dim])
            k = int(np.argmin(_distances(pts, q)))
            s = self._refine(x, y, z, float(grid[k]), lo, hi)
        return self.wrap(s)

    def _near(self, x: float, y: float, z: float) -> tuple[float, float, float]:
        """``(x, y, z)``, or, when it is more than ``FAR_SIZES`` spline sizes from the
        spline's centre, the point in the same direction at that distance: its nearest point
        on the spline is the far point's to within what the floats can tell."""
        cx, cy, cz = self._centre
        dx, dy, dz = x - cx, y - cy, z - cz
        if max(abs(dx), abs(dy), abs(dz)) <= self._far:
            return x, y, z
        k = self._far / math.hypot(dx, dy, dz)
        return cx + dx * k, cy + dy * k, cz + dz * k

    def _dist2(self, px, py, pz, s):
        """The distance from ``(px, py, pz)`` to the spline at ``s`` (``hypot``: a point
        1e308 away is far, not an overflow)."""
        f = self.frame_at(s)
        return math.hypot(f.x - px, f.y - py, f.z - pz)

    def _refine(self, px, py, pz, s, lo, hi):
        """Newton on g(s) = (S(s) - p) . S'(s) = 0, kept inside [lo, hi] (and the open ends)."""
        if not self.closed:
            lo, hi = max(lo, 0.0), min(hi, self.length)
            s = min(max(s, lo), hi)
        max_step = self._h
        length, closed = self.length, self.closed
        for _ in range(12):
            x, y, z, dx, dy, dz, ddx, ddy, ddz = self._eval(s % length if closed else s)
            ex, ey, ez = x - px, y - py, z - pz
            g = ex * dx + ey * dy + ez * dz
            gp = dx * dx + dy * dy + dz * dz + ex * ddx + ey * ddy + ez * ddz
            if gp > 1e-12:
                step = -g / gp
            else:  # not locally convex: walk downhill
                step = -math.copysign(max_step, g)
            step = max(-max_step, min(max_step, step))
            new = min(max(s + step, lo), hi)
            if abs(new - s) < 1e-7:
                s = new
                break
            s = new
        return s

    # -- vectorised fast path (many cars at once) -----------------------------------------
    def frames_at(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Points, first and second derivatives at the distances ``s`` (wrapped or clamped),
        each (n, dim): :meth:`frame_at` for an array, for simulations that step many cars
        together (:mod:`lessons_lib.sweep`)."""
        f = self._frames(np.atleast_1d(self.wrap(check.numbers(s, "s", "distances (m)"))).ravel())
        return f[:, 0], f[:, 1], f[:, 2]

    def _frames(self, s: np.ndarray) -> np.ndarray:
        """(n, 3, dim): point, first and second derivative for ``s`` already in range, as
        one matrix product of the powers of the local parameter with the coefficients."""
        i = np.minimum((s * self._inv_h).astype(np.intp), self._n - 1)
        t = s - i * self._h
        powers = np.empty((len(s), 3, 4))
        t2 = t * t
        powers[:, 0, 0], powers[:, 0, 1], powers[:, 0, 2], powers[:, 0, 3] = t2 * t, t2, t, 1.0
        powers[:, 1, 0], powers[:, 1, 1], powers[:, 1, 2], powers[:, 1, 3] = 3.0 * t2, 2.0 * t,\
            1.0, 0.0
        powers[:, 2, 0], powers[:, 2, 1], powers[:, 2, 2:] = 6.0 * t, 2.0, 0.0
        return powers @ self._coef[i]

    def closest_near_many(self, points, hints, window: float | None = None) -> np.ndarray:
        """:meth:`closest_near` for n points (n, dim) and n hints at once: the same Newton
        steps on arrays; a point whose Newton runs into the window's edge is handed to
        :meth:`closest_near` (the scan), so every answer equals the one-at-a-time answer."""
        if window is None:
            window = min(10.0, 0.25 * self.length)
        else:
            window = min(check.length(window, "window"), self.length)
        p = check.array(points, "points", (None, self.dim))
        hints = self.wrap(check.array(hints, "hints", (len(p),), what="distances (m)"))
        centre = np.array(self._centre[: self.dim])
        offset = np.abs(p - centre).max(axis=1)
        for k in np.flatnonzero(offset > self._far):   # far points: as closest_near does
            p[k] = self._near(*p[k].tolist(), *((0.0,) if self.dim == 2 else ()))[: self.dim]
        lo, hi = hints - window, hints + window
        if not self.closed:
            lo, hi = np.maximum(lo, 0.0), np.minimum(hi, self.length)
        s = np.minimum(np.maximum(hints, lo), hi)
        h, length, closed = self._h, self.length, self.closed
        active = None  # all points, until the first that has converged stops
        for _ in range(12):
            f = self._frames(s % length if closed else s)
            e = f[:, 0] - p
            d1, d2 = f[:, 1], f[:, 2]
            g = np.einsum("ij,ij->i", e, d1)
            gp = np.einsum("ij,ij->i", d1, d1) + np.einsum("ij,ij->i", e, d2)
            convex = gp > 1e-12
            step = np.where(convex, -g / np.where(convex, gp, 1.0), -np.copysign(h, g))
            new = np.minimum(np.maximum(s + np.minimum(np.maximum(step, -h), h), lo), hi)
            done = np.abs(new - s) < 1e-7
            if active is None:
                s = new
                if done.all():
                    break
                active = ~done
            else:  # a point stops at the first step below 1e-7, as in closest_near
                s = np.where(active, new, s)
                active &= ~done
                if not active.any():
                    break
        edge = (s - lo < 1e-6) | (hi - s < 1e-6)
        if not self.closed:
            edge &= (s > 1e-9) & (s < self.length - 1e-9)
        for k in np.flatnonzero(edge):
            z = float(p[k, 2]) if self.dim == 3 else 0.0
            s[k] = self.closest_near(float(p[k, 0]), float(p[k, 1]), z, float(hints[k]), window)
        return self.wrap(s)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return (f"Spline({len(self.points)} points, {self.dim}D, {kind}, "
                f"length={self.length:.2f} m)")
