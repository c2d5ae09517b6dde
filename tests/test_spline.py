"""The arc-length spline: parameterisation, tangents, curvature, wrap/clamp, closest point."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.interpolate import CubicSpline

from lessons_lib.spline import Spline
from lessons_lib.tracks import TRACKS, sloped_road, track


def circle(radius=47.75, n=24, closed=True):
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.c_[radius * np.cos(th), radius * np.sin(th)]


def dense_arc_length(sp, s):
    """Sum of tiny chords between consecutive samples: an independent arc length."""
    p = sp.location_at(s)
    return np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))]


@pytest.mark.parametrize("name", list(TRACKS))
def test_distance_along_is_arc_length_on_every_track(name):
    sp = track(name)
    s = np.linspace(0.0, sp.length, 200_001)
    err = np.abs(dense_arc_length(sp, s) - s)
    assert err.max() < 1e-3  # far under the 1 cm the lesson promises


def test_length_of_a_300_m_track_matches_scipy_quadrature_within_1_cm():
    pts = np.vstack([circle(), circle()[:1]])
    u = np.r_[0, np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))]
    ref = CubicSpline(u, pts, bc_type="periodic")
    d = ref.derivative()
    length = sum(quad(lambda t: np.linalg.norm(d(t)), a, b, epsabs=1e-11)[0]
                 for a, b in zip(u[:-1], u[1:], strict=True))
    sp = Spline(circle(), closed=True)
    assert 299 < sp.length < 301
    assert abs(sp.length - length) < 1e-2
    assert abs(sp.length - length) < 1e-5  # and in fact to a few micrometres


def test_straight_line_is_exact():
    sp = Spline([[0.0, 0.0], [30.0, 40.0]])
    assert sp.length == pytest.approx(50.0, abs=1e-9)
    np.testing.assert_allclose(sp.location_at(25.0), [15.0, 20.0], atol=1e-9)
    np.testing.assert_allclose(sp.direction_at([0.0, 50.0]), [[0.6, 0.8], [0.6, 0.8]], atol=1e-9)
    assert sp.curvature_at(10.0) == pytest.approx(0.0, abs=1e-9)


def test_direction_is_unit_and_matches_finite_differences():
    sp = track("s_bend")
    s = np.linspace(1.0, sp.length - 1.0, 300)
    d = sp.direction_at(s)
    np.testing.assert_allclose(np.linalg.norm(d, axis=1), 1.0, atol=1e-12)
    h = 1e-4
    fd = (sp.location_at(s + h) - sp.location_at(s - h)) / (2 * h)
    np.testing.assert_allclose(d, fd, atol=1e-5)


def test_curvature_of_a_circle_and_of_a_helix():
    sp = Spline(circle(radius=20.0, n=72), closed=True)
    k = sp.curvature_at(np.linspace(0, sp.length, 50))
    np.testing.assert_allclose(k, 1 / 20.0, rtol=2e-3)
    assert sp.signed_curvature_at(3.0) == pytest.approx(1 / 20.0, rel=2e-3)  # CCW: left
    # helix x = r cos t, y = r sin t, z = c t: curvature r / (r^2 + c^2)
    r, c = 10.0, 3.0
    t = np.linspace(0, 4 * np.pi, 120)
    helix = Spline(np.c_[r * np.cos(t), r * np.sin(t), c * t])
    s = np.linspace(5, helix.length - 5, 40)
    np.testing.assert_allclose(helix.curvature_at(s), r / (r * r + c * c), rtol=2e-3)
    assert helix.length == pytest.approx(4 * np.pi * math.hypot(r, c), rel=1e-5)


def test_curvature_matches_finite_difference_of_the_tangent():
    sp = track("hairpin")
    s = np.linspace(0, sp.length, 97)[:-1]
    h = 1e-3
    dt = (sp.direction_at(s + h) - sp.direction_at(s - h)) / (2 * h)
    np.testing.assert_allclose(sp.curvature_at(s), np.linalg.norm(dt, axis=1), atol=1e-4)


def test_closed_spline_wraps_distances():
    sp = Spline(circle(), closed=True)
    L = sp.length
    for s in (0.0, 12.3, L - 0.5):
        np.testing.assert_allclose(sp.location_at(s + L), sp.location_at(s), atol=1e-9)
        np.testing.assert_allclose(sp.location_at(s - 3 * L), sp.location_at(s), atol=1e-9)
    np.testing.assert_allclose(sp.location_at(-1.0), sp.location_at(L - 1.0), atol=1e-9)
    assert sp.wrap(L + 2.0) == pytest.approx(2.0)
    # smooth across the seam: tangent and curvature agree either side of s = 0
    np.testing.assert_allclose(sp.direction_at(-1e-6), sp.direction_at(1e-6), atol=1e-6)


def test_open_spline_clamps_distances():
    pts = [[0.0, 0.0], [10.0, 5.0], [20.0, 0.0], [30.0, 4.0]]
    sp = Spline(pts)
    np.testing.assert_allclose(sp.location_at(sp.length + 7.0), pts[-1], atol=1e-9)
    np.testing.assert_allclose(sp.location_at(-3.0), pts[0], atol=1e-9)
    assert sp.wrap(sp.length + 7.0) == sp.length
    assert sp.wrap(-3.0) == 0.0
    # the spline passes through its points
    for p in pts:
        assert np.linalg.norm(sp.location_at(sp.closest_distance(p)) - p) < 1e-6


def brute_closest(sp, p, n=200_001):
    s = np.linspace(0, sp.length, n)
    return s[np.argmin(np.sum((sp.location_at(s) - p) ** 2, axis=1))]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(list(TRACKS)), frac=st.floats(0, 1), off=st.floats(-4, 4))
def test_closest_distance_matches_brute_force(name, frac, off):
    sp = track(name)
    s0 = frac * sp.length
    t = sp.direction_at(s0)
    p = sp.location_at(s0) + off * np.array([t[1], -t[0]])
    got = sp.closest_distance(p)
    want = brute_closest(sp, p)
    d_got = np.linalg.norm(sp.location_at(got) - p)
    d_want = np.linalg.norm(sp.location_at(want) - p)
    assert d_got <= d_want + 1e-6


def test_hint_keeps_a_car_on_its_own_side_of_the_hairpin():
    sp = track("hairpin")  # straights at y = -10 (eastbound) and y = +10 (westbound)
    p = np.array([20.0, 0.6])  # nearer the top straight
    s_free = sp.closest_distance(p)
    assert sp.location_at(s_free)[1] > 9.0
    s_bottom = sp.closest_distance([20.0, -10.0])
    s_hint = sp.closest_distance(p, hint=s_bottom)
    assert sp.location_at(s_hint)[1] < -9.0
    assert abs(sp.location_at(s_hint)[0] - 20.0) < 0.1
    # and across the seam of a closed spline
    s_seam = sp.closest_distance(sp.location_at(0.5), hint=sp.length - 1.0)
    assert s_seam == pytest.approx(0.5, abs=1e-6)


def test_hint_on_an_open_spline_reaches_the_end():
    sp = track("open_road")
    past = sp.location_at(sp.length) + 3 * sp.direction_at(sp.length)
    assert sp.closest_distance(past, hint=sp.length - 2) == pytest.approx(sp.length)
    assert sp.closest_distance(past) == pytest.approx(sp.length)


def test_three_dimensional_spline():
    sp = sloped_road(grade=0.5)
    assert sp.dim == 3
    p = sp.location_at([0.0, 10.0])
    assert p.shape == (2, 3)
    assert p[1, 2] == pytest.approx(0.5 * 10 / math.hypot(1, 0.5), rel=1e-3)
    d = sp.direction_at(5.0)
    assert np.linalg.norm(d) == pytest.approx(1.0)
    q = sp.location_at(30.0) + np.array([0.0, 0.0, 0.2])
    assert sp.closest_distance(q) == pytest.approx(30.0, abs=0.3)


@pytest.mark.parametrize("points, closed, message", [
    ([[0, 0]], False, "at least 2"),
    ([[0, 0], [1, 1]], True, "at least 3"),
    ([[0, 0], [1, 1], [1, 1], [2, 0]], False, "same"),
    ([[0, 0], [1, float("nan")], [2, 0]], False, "not finite"),
    ([[0, 0], [1, 1], [2, 0], [0, 0]], True, "repeats the first"),
    ([0, 1, 2], False, "shape"),
    ([[0, 0, 0, 0], [1, 1, 1, 1]], False, "shape"),
    ([["a", "b"], ["c", "d"]], False, "numbers"),
])
def test_bad_points_raise_a_clear_value_error(points, closed, message):
    with pytest.raises(ValueError, match=message):
        Spline(points, closed=closed)


def test_bad_queries_raise_value_errors():
    sp = track("oval")
    with pytest.raises(ValueError, match="finite"):
        sp.location_at(float("nan"))
    with pytest.raises(ValueError, match="finite"):
        sp.location_at([0.0, float("inf")])
    with pytest.raises(ValueError, match="2 coordinates"):
        sp.closest_distance([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="finite"):
        sp.closest_distance([1.0, float("nan")])
    with pytest.raises(ValueError, match="hint"):
        sp.closest_distance([1.0, 2.0], hint=float("nan"))
    with pytest.raises(ValueError, match="unknown track"):
        track("monaco")


# -- the public fast path ------------------------------------------------------------------
@pytest.mark.parametrize("name", list(TRACKS))
def test_frame_at_matches_the_numpy_api(name):
    sp = track(name)
    for s in np.linspace(-5.0, sp.length + 5.0, 23):
        f = sp.frame_at(float(s))
        np.testing.assert_allclose(f.point[:2], sp.location_at(s), atol=1e-12)
        np.testing.assert_allclose(f.tangent[:2], sp.direction_at(s), atol=1e-12)
        assert f.curvature == pytest.approx(sp.curvature_at(s), rel=1e-9, abs=1e-12)
        assert f.z == f.dz == f.ddz == 0.0


def test_frame_at_in_3d_and_closest_near_agrees_with_closest_distance():
    sp = sloped_road(grade=0.3, bank_turn=40.0)
    f = sp.frame_at(30.0)
    np.testing.assert_allclose(f.point, sp.location_at(30.0), atol=1e-12)
    np.testing.assert_allclose(f.tangent, sp.direction_at(30.0), atol=1e-12)
    oval = track("oval")
    for s in (3.0, 90.0, oval.length - 1.0):
        d = oval.direction_at(s)
        p = oval.location_at(s) + 1.2 * np.array([d[1], -d[0]])
        near = oval.closest_near(p[0], p[1], hint=float(oval.wrap(s + 2.0)))
        assert near == pytest.approx(oval.closest_distance(p, hint=s + 2.0), abs=1e-9)
        assert near == pytest.approx(s, abs=1e-4)


def test_wrap_is_the_one_rule_for_floats_and_arrays():
    closed, open_ = track("oval"), track("s_bend")
    for s in (-3.5, 0.0, 12.25, closed.length + 7.0):
        assert closed.wrap(s) == pytest.approx(float(np.mod(s, closed.length)))
        assert open_.wrap(s) == pytest.approx(float(np.clip(s, 0.0, open_.length)))
    np.testing.assert_allclose(closed.wrap(np.array([-3.5, closed.length + 7.0])),
                               [closed.length - 3.5, 7.0])
    with pytest.raises(ValueError, match="finite"):
        closed.wrap(float("inf"))


@pytest.mark.parametrize("far", [1e7, 1e200, 1e308])
def test_closest_distance_of_a_far_point_is_the_nearest_along_its_direction(far):
    """Issue 30: (1e308, 1e308) raised OverflowError (a squared distance). A far point's
    nearest point is the one the spline reaches furthest towards it, whatever the scale."""
    s = Spline([(0, 0), (1, 0), (2, 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert s.closest_distance((far, far)) == pytest.approx(s.length)
        assert s.closest_distance((-far, -far)) == 0.0
        assert s.closest_distance((far, far), hint=1.0) == pytest.approx(1.0 + 0.25 * s.length)
        assert s.closest_near_many([(far, far)], [1.0])[0] == pytest.approx(
            1.0 + 0.25 * s.length)
    # a moderately far point in the same direction has the same nearest point
    assert s.closest_distance((1e4, 1e4)) == pytest.approx(s.closest_distance((far, far)))
