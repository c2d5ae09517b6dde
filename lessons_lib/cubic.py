"""Interpolating cubic splines in one variable: the piecewise cubic :mod:`lessons_lib.spline`
builds its curves from, written here so that a lesson's kernel does not load
``scipy.interpolate`` (about 45 MB and a quarter of a CPU-second in every student's kernel).

The same curves as :class:`scipy.interpolate.CubicSpline` with ``bc_type="not-a-knot"`` or
``"periodic"`` (the tests compare them over many random cases):

- on each interval ``[x_i, x_i+1]`` the curve is ``c0 t^3 + c1 t^2 + c2 t + c3`` with
  ``t = x - x_i``, from the values ``y_i`` and the slopes ``m_i`` at both ends;
- the slopes make the second derivative continuous at every inner knot:
  ``h_i m_i-1 + 2 (h_i-1 + h_i) m_i + h_i-1 m_i+1 = 3 (h_i d_i-1 + h_i-1 d_i)``
  (``h`` the interval widths, ``d`` the chords' slopes), a tridiagonal system;
- *not-a-knot*: the third derivative is continuous at the second and the second-to-last knot
  too (the first two pieces are one cubic, as are the last two); two points give a line and
  three a parabola;
- *periodic*: the first and last value are equal and the slope and second derivative match
  across the seam; the system wraps around (cyclic), solved with Sherman-Morrison.

The systems are solved by the Thomas algorithm over Python floats, one column at a time, so
the work is linear in the number of knots (100,000 knots, two coordinates, periodic: about
a quarter of a second here, ten times scipy's compiled solver; a lesson's track has a few
hundred).
"""

from __future__ import annotations

import numpy as np

from . import validate as check

__all__ = ["Cubic", "MAX_CUBIC_VALUES"]

#: The most values (knots x curves) a :class:`Cubic` is built from: about 4 s of the Python
#: solver. A lesson's track has a few hundred knots; the longest spline (spline.MAX_LENGTH)
#: 100,000 knots of 3 coordinates.
MAX_CUBIC_VALUES = 3_000_000


def _thomas(sub: list[float], diag: list[float], sup: list[float],
            rhs: list[float]) -> list[float]:
    """Solve a tridiagonal system: ``sub[i] x[i-1] + diag[i] x[i] + sup[i] x[i+1] = rhs[i]``
    (``sub[0]`` and ``sup[-1]`` unused). The matrices here are diagonally dominant, so no
    pivoting is needed."""
    n = len(diag)
    c = [0.0] * n
    d = [0.0] * n
    c[0] = sup[0] / diag[0] if n > 1 else 0.0
    d[0] = rhs[0] / diag[0]
    for i in range(1, n):
        w = diag[i] - sub[i] * c[i - 1]
        if i < n - 1:
            c[i] = sup[i] / w
        d[i] = (rhs[i] - sub[i] * d[i - 1]) / w
    for i in range(n - 2, -1, -1):
        d[i] -= c[i] * d[i + 1]
    return d


def _cyclic(sub: list[float], diag: list[float], sup: list[float],
            rhs: list[float]) -> list[float]:
    """Solve a cyclic tridiagonal system: as :func:`_thomas`, with ``sub[0]`` the entry of
    row 0 in the last column and ``sup[-1]`` that of the last row in column 0."""
    n = len(diag)
    alpha, beta = sup[-1], sub[0]          # bottom-left, top-right corners
    gamma = -diag[0]
    d = list(diag)
    d[0] -= gamma
    d[-1] -= alpha * beta / gamma
    x = _thomas(sub, d, sup, rhs)
    u = [0.0] * n
    u[0], u[-1] = gamma, alpha
    z = _thomas(sub, d, sup, u)
    factor = (x[0] + beta * x[-1] / gamma) / (1.0 + z[0] + beta * z[-1] / gamma)
    return [xi - factor * zi for xi, zi in zip(x, z, strict=True)]


class Cubic:
    """A cubic spline through ``(x[i], y[i])``: ``x`` strictly increasing (n + 1 knots),
    ``y`` of shape ``(n + 1,)`` or ``(n + 1, k)`` (k curves at once, e.g. the coordinates).

    ``periodic=True`` needs ``y[0] == y[-1]`` and at least three knots. ``c`` holds the
    coefficients as scipy does, shape ``(4, n, ...)``, highest power first. Calling it gives
    the value (or the ``nu``-th derivative, 0 to 3) at points inside or beyond the knots (a
    point beyond continues the end piece); the answer's shape is that of the points followed
    by ``y``'s trailing shape.

    Limits (a ValueError beyond them): finite numbers, ``y`` of one or two dimensions, at
    most :data:`MAX_CUBIC_VALUES` values, coefficients and answers within float range."""

    def __init__(self, x, y, periodic: bool = False) -> None:
        x = check.array(x, "the knots x", (None,), what="numbers (the knots)", finite=False)
        y = check.numbers(y, "the values y", "numbers (one per knot)")
        periodic = check.flag(periodic, "periodic")
        if y.size > MAX_CUBIC_VALUES:
            raise ValueError(f"a cubic takes at most {MAX_CUBIC_VALUES:,} values, got "
                             f"{y.size:,}: use fewer knots")
        if y.ndim not in (1, 2) or len(x) < 2 or y.shape[:1] != x.shape:
            raise ValueError(f"a cubic needs at least 2 knots and one value per knot, got "
                             f"knots of shape {x.shape} and values of shape {y.shape}")
        with np.errstate(over="ignore", invalid="ignore"):
            h = np.diff(x)
        if not (np.all(np.isfinite(h)) and np.all(h > 0)):
            raise ValueError("the knots of a cubic must be finite and strictly increasing, "
                             "each gap within float range")
        if periodic and (len(x) < 3 or not np.allclose(y[0], y[-1], rtol=0, atol=0)):
            raise ValueError("a periodic cubic needs at least 3 knots and y[0] == y[-1]")
        self.x = x
        self.trailing = y.shape[1:]
        with np.errstate(over="ignore", invalid="ignore"):   # an overflow is refused below
            c = self._coefficients(h, y.reshape(len(x), -1), periodic)
        if not np.isfinite(c).all():
            raise ValueError("the cubic's coefficients overflow: the values change too fast "
                             "for knots this close (scale the values down or the knots up)")
        self.c = c.reshape((4, len(h), *self.trailing))
        self._flat = c

    @classmethod
    def _coefficients(cls, h: np.ndarray, flat: np.ndarray, periodic: bool) -> np.ndarray:
        """The (4, n, k) coefficients, highest power first, from the knot gaps ``h`` and the
        values ``flat`` (n + 1, k)."""
        delta = np.diff(flat, axis=0) / h[:, None]
        slopes = cls._slopes(h, delta, periodic)
        m0, m1 = slopes[:-1], slopes[1:]
        hh = h[:, None]
        c = np.empty((4, len(h), flat.shape[1]))
        c[0] = (m0 + m1 - 2.0 * delta) / hh ** 2
        c[1] = (3.0 * delta - 2.0 * m0 - m1) / hh
        c[2] = m0
        c[3] = flat[:-1]
        return c

    @staticmethod
    def _slopes(h: np.ndarray, delta: np.ndarray, periodic: bool) -> np.ndarray:
        """The slope at every knot, ``(n + 1, k)``."""
        n = len(h)
        if n == 1:                                      # two knots: the straight line
            return np.vstack([delta, delta])
        if n == 2 and not periodic:                     # three knots: the parabola
            # the parabola's slope at the middle knot is the h-weighted mean of the chords
            mid = (h[1] * delta[0] + h[0] * delta[1]) / (h[0] + h[1])
            return np.vstack([2.0 * delta[0] - mid, mid, 2.0 * delta[1] - mid])
        hl, hr = h[:-1], h[1:]                           # either side of an inner knot
        inner = 3.0 * (hr[:, None] * delta[:-1] + hl[:, None] * delta[1:])
        if periodic:
            # unknowns m_0 .. m_n-1 (m_n = m_0); the equation at knot 0 reaches back to n-1
            sub = [h[0], *hr.tolist()]                   # row i's entry in column i-1
            sup = [h[-1], *hl.tolist()]                  # row i's entry in column i+1
            diag = [2.0 * (h[-1] + h[0]), *(2.0 * (hl + hr)).tolist()]
            first = 3.0 * (h[0] * delta[-1] + h[-1] * delta[0])
            rhs = np.vstack([first, inner])
            cols = [_cyclic(sub, diag, sup, rhs[:, j].tolist()) for j in range(rhs.shape[1])]
            m = np.array(cols).T
            return np.vstack([m, m[:1]])
        # not-a-knot: the first and last rows join the first two and the last two pieces
        d0, dn = h[0] + h[1], h[-1] + h[-2]
        first = ((h[0] + 2.0 * d0) * h[1] * delta[0] + h[0] ** 2 * delta[1]) / d0
        last = (h[-1] ** 2 * delta[-2] + (2.0 * dn + h[-1]) * h[-2] * delta[-1]) / dn
        sub = [0.0, *hr.tolist(), dn]
        diag = [h[1], *(2.0 * (hl + hr)).tolist(), h[-2]]
        sup = [d0, *hl.tolist(), 0.0]
        rhs = np.vstack([first, inner, last])
        cols = [_thomas(sub, diag, sup, rhs[:, j].tolist()) for j in range(rhs.shape[1])]
        return np.array(cols).T

    def __call__(self, at, nu: int = 0) -> np.ndarray:
        """The value (or ``nu``-th derivative, 0 to 3) at finite points ``at``; a ValueError
        where the answer would leave float range."""
        nu = check.integer(nu, "nu (the derivative's order)", lo=0, hi=3)
        at = check.numbers(at, "at", "points (finite)")
        flat_at = at.ravel()
        i = np.clip(np.searchsorted(self.x, flat_at, side="right") - 1, 0, len(self.x) - 2)
        t = (flat_at - self.x[i])[:, None]
        c0, c1, c2, c3 = self._flat[:, i]
        with np.errstate(over="ignore", invalid="ignore"):   # an overflow is refused below
            if nu == 0:
                out = ((c0 * t + c1) * t + c2) * t + c3
            elif nu == 1:
                out = (3.0 * c0 * t + 2.0 * c1) * t + c2
            elif nu == 2:
                out = 6.0 * c0 * t + 2.0 * c1
            else:
                out = 6.0 * c0 + 0.0 * t
        if not np.isfinite(out).all():
            raise ValueError("the cubic overflows at points this far from its knots")
        return out.reshape(at.shape + self.trailing)
