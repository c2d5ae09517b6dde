"""lessons_lib.cubic against scipy.interpolate.CubicSpline, the independent implementation:
the same curves (not-a-knot and periodic) over many random knots and values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.interpolate import CubicSpline

from lessons_lib.cubic import Cubic


def _case(rng, n: int, periodic: bool, spread: bool, dims: int | None = 2):
    widths = np.exp(rng.uniform(-6, 3, n - 1)) if spread else rng.uniform(0.05, 5, n - 1)
    x = np.concatenate([[rng.uniform(-50, 50)], np.cumsum(widths)])
    x[1:] += x[0]
    shape = (n,) if dims is None else (n, dims)
    y = rng.normal(size=shape) * rng.uniform(0.1, 100)
    if periodic:
        y[-1] = y[0]
    return x, y


def _scaled_gap(ours: Cubic, ref: CubicSpline, x, y) -> float:
    """Largest coefficient difference, each coefficient times h^(3-k) (what it adds to a
    value across its interval), over the values' scale."""
    h = np.diff(x).reshape((1, -1) + (1,) * (y.ndim - 1))
    powers = (3 - np.arange(4)).reshape((4, 1) + (1,) * (y.ndim - 1))
    return float((np.abs(ours.c - ref.c) * h ** powers).max() / np.abs(y).max())


@pytest.mark.parametrize("periodic", [False, True], ids=["not-a-knot", "periodic"])
def test_values_slopes_and_curvature_match_scipy_over_random_knots(periodic):
    rng = np.random.default_rng(11 + periodic)
    for trial in range(400):
        n = int(rng.integers(3 if periodic else 2, 60))
        x, y = _case(rng, n, periodic, spread=False, dims=[None, 1, 2, 3][trial % 4])
        ref = CubicSpline(x, y, bc_type="periodic" if periodic else "not-a-knot", axis=0)
        ours = Cubic(x, y, periodic=periodic)
        assert ours.c.shape == ref.c.shape
        assert _scaled_gap(ours, ref, x, y) < 1e-11, trial
        at = rng.uniform(x[0], x[-1], 50)
        for nu in range(3):
            want = ref(at, nu)
            scale = np.abs(ref(x, nu)).max() + np.abs(y).max()
            assert np.abs(ours(at, nu) - want).max() <= 1e-9 * scale, (trial, nu)
        assert ours(at).shape == ref(at).shape
        assert ours(float(at[0])).shape == ref(float(at[0])).shape


@pytest.mark.parametrize("periodic", [False, True], ids=["not-a-knot", "periodic"])
def test_knots_from_a_few_thousandths_to_twenty_units_apart_still_match(periodic):
    """Widths over four orders of magnitude (0.0025 to 20): the systems are ill-conditioned
    there for any solver (a 0.005-wide piece between two 18-wide ones), and the two still
    agree to a part in ten thousand of the values."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        x, y = _case(rng, int(rng.integers(3, 40)), periodic, spread=True)
        ref = CubicSpline(x, y, bc_type="periodic" if periodic else "not-a-knot", axis=0)
        assert _scaled_gap(Cubic(x, y, periodic=periodic), ref, x, y) < 1e-4


def test_the_conditions_hold_by_themselves():
    """Not by comparison: values at the knots, continuous slope and second derivative at
    inner knots, not-a-knot's continuous third derivative next to the ends, and a periodic
    curve's slope and second derivative equal across the seam."""
    rng = np.random.default_rng(3)
    x, y = _case(rng, 9, False, spread=False)
    c = Cubic(x, y)
    eps = 1e-9
    assert np.allclose(c(x), y, atol=1e-9)
    for nu in (1, 2):
        assert np.allclose(c(x[1:-1] - eps, nu), c(x[1:-1] + eps, nu), atol=1e-5)
    assert np.allclose(c.c[0][0], c.c[0][1]) and np.allclose(c.c[0][-1], c.c[0][-2])
    x, y = _case(rng, 9, True, spread=False)
    p = Cubic(x, y, periodic=True)
    for nu in (1, 2):
        assert np.allclose(p(x[0], nu), p(x[-1], nu), atol=1e-7)


def test_two_knots_are_a_line_and_three_a_parabola():
    line = Cubic([0.0, 2.0], [1.0, 5.0])
    assert line(1.0) == pytest.approx(3.0) and line(7.0) == pytest.approx(15.0)
    assert line(0.3, 2) == 0.0
    x = np.array([0.0, 1.0, 3.0])
    par = Cubic(x, x ** 2 - x)
    at = np.linspace(-1, 4, 11)
    assert np.allclose(par(at), at ** 2 - at) and np.allclose(par(at, 2), 2.0)


def test_beyond_the_knots_the_end_pieces_go_on():
    rng = np.random.default_rng(8)
    x, y = _case(rng, 12, False, spread=False)
    ref = CubicSpline(x, y, axis=0, extrapolate=True)
    at = np.array([x[0] - 2.0, x[-1] + 3.0])
    assert np.allclose(Cubic(x, y)(at), ref(at), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("args, message", [
    (([0.0], [1.0]), "at least 2 knots"),
    (([0.0, 1.0], [1.0, 2.0, 3.0]), "one value per knot"),
    (([0.0, 0.0, 1.0], [1.0, 2.0, 3.0]), "strictly increasing"),
    (([0.0, np.nan], [1.0, 2.0]), "finite and strictly increasing"),
    (([0.0, 1.0], [1.0, np.inf]), "values y contains NaN or infinity"),
])
def test_bad_knots_and_values_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        Cubic(*args)


def test_a_periodic_cubic_needs_matching_ends_and_three_knots():
    with pytest.raises(ValueError, match="y\\[0\\] == y\\[-1\\]"):
        Cubic([0.0, 1.0, 2.0], [0.0, 1.0, 0.5], periodic=True)
    with pytest.raises(ValueError, match="at least 3 knots"):
        Cubic([0.0, 1.0], [0.0, 0.0], periodic=True)
    with pytest.raises(ValueError, match="derivative's order"):
        Cubic([0.0, 1.0], [0.0, 1.0])(0.5, nu=4)


@settings(max_examples=150, deadline=None)
@given(widths=st.lists(st.floats(1e-3, 1e3), min_size=3, max_size=30),
       values=st.lists(st.floats(-1e6, 1e6), min_size=31, max_size=31),
       periodic=st.booleans())
@example(widths=[0.015625, 0.0078125, 829.0], values=[0.0, 0.0, 131.0] + [0.0] * 28,
         periodic=False)
def test_any_knots_give_finite_curves_through_the_values(widths, values, periodic):
    x = np.concatenate([[0.0], np.cumsum(widths)])
    y = np.array(values[:len(x)])
    if periodic:
        y[-1] = y[0]
    c = Cubic(x, y, periodic=periodic)
    assert np.all(np.isfinite(c.c))
    # at the right end of a piece its value is a sum of terms c_k h^k that cancel: their
    # size, not y's, bounds the rounding (knots 1/128 then 829 apart swing the last piece
    # to 5e11 and back to 0, 1.4e-4 off; scipy's CubicSpline has the same slopes)
    h = np.diff(x)
    terms = np.abs(c.c) * h[None, :] ** np.array([3, 2, 1, 0])[:, None]
    scale = np.concatenate([[0.0], terms.sum(axis=0)])
    assert np.allclose(c(x), y, rtol=0, atol=1e-6 * (1 + np.abs(y).max()) + 1e-12 * scale)
