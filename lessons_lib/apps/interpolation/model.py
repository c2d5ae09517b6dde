"""Lesson 2's model: two orientations and the toggles in, every path and measurement out.

Pure: no widgets, no artists. :func:`compute` turns the start and end (yaw, pitch, roll), the
gimbal order and the two toggles into a frozen :class:`BlendState` that holds the sampled
paths of the three blends, their angles and speeds, the slerp axis, the plane in 4D that
holds nlerp's chord and slerp's arc, and a plain sentence for each toggle saying what it
does for this pair. :func:`describe` writes a preset's description from those numbers, so
that what the page says is what the plots show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import quaternion

from ... import validate as check
from ...i18n import N_, _
from ...interpolation import (
    angle_between,
    angular_speed,
    euler_lerp,
    lerp_angles,
    nlerp,
    slerp,
    total_angle,
)
from ...rotations import (
    as_unit_quaternion,
    check_order,
    euler_to_quaternion,
    quaternion_to_euler,
)
from ..core.text import fmt_number

METHODS = ("euler", "nlerp", "slerp")
#: Each method's name as the page shows it (translated where shown: ``_(LABELS[m])``).
LABELS = {"euler": N_("Euler lerp"), "nlerp": N_("nlerp"), "slerp": N_("slerp")}
ANGLE_NAMES = ("yaw", "pitch", "roll")

#: Samples of t for paths, the speed plot and the 4D picture (every 1/120 of t).
SAMPLES = 121
#: Ghost copies at these t (shown once the blend has passed them): 0, 1/6, ..., 1.
GHOSTS = np.linspace(0.0, 1.0, 7)
#: Beads on the paths every 0.1 of t (evenly spaced beads = a steady turn).
BEAD_STEP = (SAMPLES - 1) // 10

#: A speed that varies by less than this fraction of its largest value is called steady.
STEADY = 0.005
#: Two paths closer than this (degrees, at every sample) are called the same path.
SAME_PATH_DEG = 0.05

# The aeroplane in its own frame: nose along +Z, up along +Y (the fin).
NOSE = np.array([0.0, 0.0, 1.0])
UP = np.array([0.0, 1.0, 0.0])


def checked_poses(poses) -> dict:
    """``poses`` if it maps each of :data:`METHODS` to a unit quaternion (each blend's
    orientation at one t); a ValueError otherwise."""
    if not isinstance(poses, dict) or set(poses) != set(METHODS) or not all(
            isinstance(q, quaternion.quaternion) for q in poses.values()):
        raise ValueError(f"poses must map each of {', '.join(METHODS)} to a quaternion, got "
                         f"{check.describe(poses)}")
    for m in METHODS:
        as_unit_quaternion(poses[m], f"poses[{m!r}]", single=True)
    return poses


def _frozen(a) -> np.ndarray:
    a = np.array(a)
    a.setflags(write=False)
    return a


def _floats(q) -> np.ndarray:
    return quaternion.as_float_array(q).astype(float)


# -- speed profiles ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SpeedProfile:
    """The shape of one speed curve, measured: what the description says about it.

    ``kind`` is ``"steady"``, ``"falls"`` (only slows down), ``"rises"`` (only speeds up),
    ``"bulges"`` (speeds up, then slows down), ``"dips"`` (slows down, then speeds up) or
    ``"varies"``. Speeds are in degrees per unit of t.
    """

    kind: str
    start: float
    end: float
    low: float
    high: float
    t_high: float
    t_low: float

    @classmethod
    def measure(cls, speed: np.ndarray, ts: np.ndarray) -> SpeedProfile:
        """The profile of ``speed`` sampled at ``ts`` (two arrays of one length, 2 or more)."""
        s = check.array(speed, "speed", (None,), min_rows=2)
        ts = check.array(ts, "ts", (len(s),))
        hi, lo = int(np.argmax(s)), int(np.argmin(s))
        high, low = float(s[hi]), float(s[lo])
        spread = high - low
        args = (float(s[0]), float(s[-1]), low, high, float(ts[hi]), float(ts[lo]))
        if spread <= STEADY * max(high, 1e-12):
            return cls("steady", *args)
        tol = 0.01 * spread                  # rounding wobble of the central differences
        d = np.diff(s)

        def falling(x):
            return bool(np.all(x <= tol))

        def rising(x):
            return bool(np.all(x >= -tol))

        if falling(d):
            kind = "falls"
        elif rising(d):
            kind = "rises"
        elif 0 < hi < len(s) - 1 and rising(d[:hi]) and falling(d[hi:]):
            kind = "bulges"
        elif 0 < lo < len(s) - 1 and falling(d[:lo]) and rising(d[lo:]):
            kind = "dips"
        else:
            kind = "varies"
        return cls(kind, *args)

    def sentence(self) -> str:
        """What the speed does, as a verb phrase: "only slows down, from 209 to 99°/t"."""
        start, end = fmt_number(self.start, 0), fmt_number(self.end, 0)
        low, high = fmt_number(self.low, 0), fmt_number(self.high, 0)
        if self.kind == "steady":
            return _("keeps a steady {high}°/t").format(high=high)
        if self.kind == "falls":
            return _("only slows down, from {start} to {end}°/t").format(start=start, end=end)
        if self.kind == "rises":
            return _("only speeds up, from {start} to {end}°/t").format(start=start, end=end)
        if self.kind == "bulges":
            return _("speeds up from {start} to {high}°/t at t = {t}, then slows to "
                     "{end}").format(start=start, high=high, t=f"{self.t_high:.2f}", end=end)
        if self.kind == "dips":
            return _("slows down from {start} to {low}°/t at t = {t}, then speeds up to "
                     "{end}").format(start=start, low=low, t=f"{self.t_low:.2f}", end=end)
        return _("varies between {low} and {high}°/t").format(low=low, high=high)


# -- the plane in 4D ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Plane4D:
    """The plane through the origin of 4D that holds q0 and the copy of q1 being blended to.

    Coordinates are ``(p . q0, p . u)`` with ``u`` the unit vector square to q0 in that
    plane, so q0 is at (1, 0) and the target at (cos Omega, sin Omega). slerp's arc and
    nlerp's points lie exactly on the unit circle of this plane; the straight lerp chord
    lies inside it. ``other`` is the other copy of q1 (the antipode of the target).
    """

    basis: np.ndarray = field(repr=False)  # (2, 4): q0 and u
    omega: float              # 4D angle from q0 to the target, degrees (half the turn)
    target: np.ndarray = field(repr=False)  # (2,)
    other: np.ndarray = field(repr=False)  # (2,)
    chord: np.ndarray = field(repr=False)  # (N, 2): (1 - t) q0 + t target, not normalised
    nlerp: np.ndarray = field(repr=False)  # (N, 2)
    slerp: np.ndarray = field(repr=False)  # (N, 2)
    shortest_chord: float     # the chord's smallest distance from the origin

    def coords(self, q) -> np.ndarray:
        """(..., 4) quaternion floats -> (..., 2) coordinates in the plane."""
        q = check.numbers(q, "q", "quaternion floats")
        if q.ndim == 0 or q.shape[-1] != 4:
            raise ValueError(f"q must have 4 floats (w, x, y, z) along its last axis, got "
                             f"shape {q.shape}")
        return q @ self.basis.T


def _plane(a: np.ndarray, b: np.ndarray, paths: dict, ts: np.ndarray) -> Plane4D | None:
    """The 4D plane of q0 = ``a`` and the target ``b``; None when they are the same point."""
    if np.linalg.norm(a - b) < 1e-12:
        return None
    if np.linalg.norm(a + b) < 1e-12:
        # q1 = -q0, the long way: the library turns a full circle towards a * j
        u = _floats(quaternion.as_quat_array(a) * quaternion.y)
    else:
        u = b - (a @ b) * a
        u /= np.linalg.norm(u)
    basis = np.stack([a, u])
    chord = (1.0 - ts)[:, None] * a + ts[:, None] * b
    coords = basis @ b
    omega = float(np.degrees(np.arctan2(coords[1], coords[0])))
    return Plane4D(
        basis=_frozen(basis), omega=omega, target=_frozen(coords), other=_frozen(-coords),
        chord=_frozen(chord @ basis.T),
        nlerp=_frozen(_floats(paths["nlerp"]) @ basis.T),
        slerp=_frozen(_floats(paths["slerp"]) @ basis.T),
        shortest_chord=float(np.min(np.linalg.norm(chord, axis=1))))


# -- the state ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BlendState:
    """Everything lesson 2 draws and says for one pair of orientations and toggles.

    Angles are degrees; ``q1`` is the end as computed from its angles, ``target`` the copy
    of it (``q1`` or ``-q1``) that nlerp and slerp blend towards. Per-method mappings are
    keyed by :data:`METHODS`. Arrays are read-only.
    """

    e0: tuple[float, float, float]
    e1: tuple[float, float, float]
    order: str
    long_way: bool
    wrap_euler: bool
    q0: quaternion.quaternion
    q1: quaternion.quaternion
    target: quaternion.quaternion
    dot: float                         # q0 . q1 as computed (before any sign choice)
    true_angle: float                  # the shortest turn from start to end, 0..180
    slerp_angle: float                 # the turn nlerp and slerp make (360 - true if long)
    euler_angles: np.ndarray           # (N, 3) the blended yaw, pitch, roll
    ts: np.ndarray
    paths: dict = field(repr=False)    # method -> (N,) quaternions
    frames: dict = field(repr=False)   # method -> (N, 3, 3) rotation matrices
    noses: dict = field(repr=False)    # method -> (N, 3) nose directions
    ups: dict = field(repr=False)      # method -> (N, 3) up directions
    ghosts: dict = field(repr=False)   # method -> (7, 3, 3) frames at GHOSTS
    totals: dict = field(repr=False)   # method -> degrees turned along the path
    speeds: dict = field(repr=False)   # method -> (N,) degrees per unit t
    profiles: dict = field(repr=False)  # method -> SpeedProfile
    path_gap: dict = field(repr=False)  # method -> largest angle from slerp's pose, same t
    axis: np.ndarray | None            # slerp's fixed axis (world), None for no turn
    nose_tilt: float | None            # degrees the nose sits off a great circle
    plane: Plane4D | None
    wrap_changes: tuple                # (angle name, raw difference, wrapped difference)

    def pose(self, method: str, t: float) -> quaternion.quaternion:
        """The orientation of one blend at ``t`` (0..1), from the same maths as the paths."""
        return _blend(method, t, self.e0, self.e1, self.order, self.wrap_euler, self.q0,
                      self.target)

    @property
    def nlerp_undefined(self) -> bool:
        """True when nlerp heads for the far copy of the start itself (the long way between
        equal orientations): its chord runs through the centre at t = 0.5, where there is
        no direction to push it out along. The library then falls back to slerp's full turn."""
        return bool(np.linalg.norm(_floats(self.q0) + _floats(self.target)) < 1e-9)

    # -- sentences the panel shows -------------------------------------------------------------
    @property
    def target_sign(self) -> str:
        same = np.allclose(_floats(self.target), _floats(self.q1))
        return "+q₁" if same else "−q₁"

    @property
    def other_sign(self) -> str:
        return "−q₁" if self.target_sign == "+q₁" else "+q₁"

    def long_way_note(self) -> str:
        """What *take the long way* does for this pair, in one or two plain sentences."""
        short, long_ = self.true_angle, 360.0 - self.true_angle
        if short < 1e-9:
            if self.long_way:
                return _("Start and end are the same orientation, so the long way is a full "
                         "360° turn (about the aeroplane's own up axis: every full turn is "
                         "equally long, this one is chosen). Euler lerp does not use "
                         "quaternions, so the toggle leaves it as it is.")
            return _("Start and end are the same orientation: the short way is no turn at "
                     "all; the long way would be a full 360° turn.")
        if abs(self.dot) < 1e-12:
            return _("q₀·q₁ = 0: both copies of the end are 180° away, so the long way is as "
                     "long as the short way and only turns the other way round.")
        sign = "≥" if self.dot >= 0 else "<"
        why = _("q₀·q₁ = {dot} {sign} 0, so the nearer copy of the end is {near} "
                "({short}°)").format(dot=fmt_number(self.dot, 3, sign=True), sign=sign,
                                     near="+q₁" if self.dot >= 0 else "−q₁",
                                     short=fmt_number(short, 0))
        if self.long_way:
            return _("{why}; the long way heads for the far copy {target}: nlerp and slerp "
                     "turn {long}° instead. Euler lerp blends angles, not quaternions, so the "
                     "toggle does not change it.").format(why=why, target=self.target_sign,
                                                          long=fmt_number(long_, 0))
        return _("{why}. Ticking <i>take the long way</i> heads for {other} instead: {long}° "
                 "the other way round (nlerp and slerp only).").format(
                     why=why, other=self.other_sign, long=fmt_number(long_, 0))

    def wrap_note(self) -> str:
        """What *wrap Euler angles* does for this pair."""
        if not self.wrap_changes:
            return _("Wrapping changes nothing here: no angle changes by more than 180°, so "
                     "each already goes the short way round.")
        parts = ", ".join(_("{name}'s {raw}° into {wrapped}°").format(
                              name=_(name), raw=fmt_number(raw, 0, sign=True),
                              wrapped=fmt_number(wrapped, 0, sign=True))
                          for name, raw, wrapped in self.wrap_changes)
        if self.wrap_euler:
            return _("Wrapping turns {parts}, the short way round.").format(parts=parts)
        return _("Wrapping would turn {parts}, the short way round.").format(parts=parts)

    def axis_note(self) -> str:
        if self.axis is None:
            return _("Start and end are the same orientation: nothing to turn.")
        tilt = self.nose_tilt or 0.0
        if tilt < 0.5:
            return _("slerp turns about one fixed axis (-·-), so its nose moves on a great "
                     "circle.")
        return _("slerp turns about one fixed axis (-·-), so its nose moves on a circle "
                 "{tilt}° away from a great circle.").format(tilt=fmt_number(tilt, 0))


def _blend(method: str, t, e0, e1, order: str, wrap: bool, q0, target):
    """One blend at ``t`` (a number or an array): the one place the three are called."""
    if method == "euler":
        return euler_lerp(e0, e1, t, order=order, wrap=wrap)
    blend = nlerp if method == "nlerp" else slerp
    return blend(q0, target, t, shortest=False)


def _slerp_axis(q0, middle, nose0: np.ndarray) -> tuple[np.ndarray | None, float | None]:
    """slerp's fixed axis (the vector part of ``middle`` * conj(q0), ``middle`` slerp at
    t = 0.5: unlike the end's, it names the axis of a full turn too) and how far the nose at
    the start sits off the great circle square to it; (None, None) for no turn."""
    rel = _floats(middle * q0.conjugate())
    norm = float(np.linalg.norm(rel[1:]))
    if norm <= 1e-9:
        return None, None
    axis = _frozen(rel[1:] / norm)
    return axis, float(np.degrees(np.arcsin(np.clip(abs(nose0 @ axis), 0.0, 1.0))))


def _wrap_changes(e0, e1) -> tuple:
    """(angle name, raw difference, wrapped difference) for each angle wrapping changes."""
    raw = np.subtract(e1, e0)
    wrapped = lerp_angles(e0, e1, 1.0, wrap=True) - np.asarray(e0)   # the library's wrap
    return tuple((ANGLE_NAMES[i], float(raw[i]), float(wrapped[i]))
                 for i in range(3) if abs(raw[i] - wrapped[i]) > 1e-9)


def compute(e0, e1, order: str = "YXZ", long_way: bool = False,
            wrap_euler: bool = False) -> BlendState:
    """The three blends from ``e0`` to ``e1`` (each (yaw, pitch, roll) in degrees).

    ``long_way`` makes nlerp and slerp head for the copy of the end quaternion on the far
    side (``q0 . target < 0``): the turn of 360° minus the true angle. It never leaves them
    unchanged: for equal orientations it is a full turn, at exactly 180° the other sense.
    ``wrap_euler`` makes Euler lerp take each angle the short way round.
    """
    order = check_order(order)
    long_way, wrap_euler = check.flag(long_way, "long_way"), check.flag(wrap_euler, "wrap_euler")
    e0, e1 = (tuple(check.array(e, name, (3,), what="angles (yaw, pitch, roll)").tolist())
              for e, name in ((e0, "e0"), (e1, "e1")))
    q0 = euler_to_quaternion(*e0, order=order)
    q1 = euler_to_quaternion(*e1, order=order)
    a, b = _floats(q0), _floats(q1)
    dot = float(a @ b)
    near = b if dot >= 0 else -b
    tb = -near if long_way else near
    target = quaternion.quaternion(*tb)
    true_angle = angle_between(q0, q1)
    ts = np.linspace(0.0, 1.0, SAMPLES)

    args = (e0, e1, order, wrap_euler, q0, target)
    paths = {m: _blend(m, ts, *args) for m in METHODS}
    frames = {m: quaternion.as_rotation_matrix(p) for m, p in paths.items()}
    ghosts = {m: _frozen(quaternion.as_rotation_matrix(_blend(m, GHOSTS, *args)))
              for m in METHODS}
    speeds = {m: _frozen(angular_speed(p, ts)) for m, p in paths.items()}
    slerp_path = _floats(paths["slerp"])
    gaps = {m: float(np.max(angle_between(_floats(paths[m]), slerp_path))) for m in METHODS}
    axis, tilt = _slerp_axis(q0, _blend("slerp", 0.5, *args), frames["slerp"][0] @ NOSE)

    return BlendState(
        e0=e0, e1=e1, order=order, long_way=long_way, wrap_euler=wrap_euler,
        q0=q0, q1=q1, target=target, dot=dot, true_angle=true_angle,
        slerp_angle=(360.0 - true_angle) if long_way else true_angle,
        euler_angles=_frozen(lerp_angles(e0, e1, ts, wrap=wrap_euler)), ts=_frozen(ts),
        paths={m: _frozen(p) for m, p in paths.items()},
        frames={m: _frozen(f) for m, f in frames.items()},
        noses={m: _frozen(f @ NOSE) for m, f in frames.items()},
        ups={m: _frozen(f @ UP) for m, f in frames.items()},
        ghosts=ghosts,
        totals={m: total_angle(p) for m, p in paths.items()},
        speeds=speeds,
        profiles={m: SpeedProfile.measure(speeds[m], ts) for m in METHODS},
        path_gap=gaps, axis=axis, nose_tilt=tilt,
        plane=_plane(a, tb, paths, ts), wrap_changes=_wrap_changes(e0, e1))


# -- the line under the figure: what the blend shows at one t ----------------------------------
def moment(state: BlendState, t: float, poses: dict | None = None) -> dict[str, float]:
    """What the three aeroplanes show at ``t`` (0..1), in degrees: how far Euler lerp's and
    nlerp's poses are from slerp's (``euler``, ``nlerp``), how far slerp has turned from the
    start (``turned``: ``t`` times its whole turn, its pace being steady) and that whole turn
    (``whole``). ``poses``: the three poses at ``t`` when already made (the app's
    ``current``), keyed by :data:`METHODS`; else they are made here from ``state``."""
    if not isinstance(state, BlendState):
        raise ValueError(f"state must be a BlendState (see compute()), got "
                         f"{check.describe(state)}")
    t = check.real(t, "t", lo=0.0, hi=1.0)
    poses = checked_poses(poses) if poses is not None else {m: state.pose(m, t)
                                                            for m in METHODS}
    return {"euler": angle_between(poses["euler"], poses["slerp"]),
            "nlerp": angle_between(poses["nlerp"], poses["slerp"]),
            "turned": t * state.slerp_angle, "whole": state.slerp_angle}


# -- presets and what they show ------------------------------------------------------------------
@dataclass(frozen=True)
class BlendPreset:
    """A start and end (yaw, pitch, roll) in degrees (order YXZ) and what to point out."""

    start: tuple[int, int, int]
    end: tuple[int, int, int]
    extra: str = ""        # a key of _EXTRAS: a preset's own computed remark


ARTICLE_TRIPLE = ((15, 0, 15), (30, 0, 30), (45, 0, 45))

#: The presets by name (the menu shows each name translated; the name stays the key).
PRESETS = {
    N_("Wrap-around: yaw −175° → 175°"): BlendPreset((-175, 0, 0), (175, 0, 0), "wrap"),
    N_("Wide three-axis turn"): BlendPreset((30, -20, 10), (150, 70, 120)),
    N_("End at gimbal lock (pitch 90°)"): BlendPreset((0, 0, 0), (150, 90, 120), "lock"),
    N_("Article 001: yaw and roll 0° → 45°"): BlendPreset((0, 0, 0), (45, 0, 45), "article"),
    N_("One axis only: yaw 0° → 120°"): BlendPreset((0, 0, 0), (120, 0, 0)),
}


def _euler_sentence(state: BlendState) -> str:
    tot, true = state.totals["euler"], state.true_angle
    prof = state.profiles["euler"].sentence()
    if tot < 1e-9:
        return _("Euler lerp stays put: start and end have the same angles.")
    if state.path_gap["euler"] < SAME_PATH_DEG:
        return _("Euler lerp makes the same {total}° turn as slerp and {speed}.").format(
            total=fmt_number(tot, 0), speed=prof)
    digits = 1 if abs(tot - true) < 2 else 0          # 63.6° for 62.8°, not 64° for 63°
    return _("Euler lerp turns {total}° for a {change}° change, up to {gap}° off slerp's "
             "pose, and {speed}.").format(total=fmt_number(tot, digits),
                                          change=fmt_number(true, digits),
                                          gap=fmt_number(state.path_gap["euler"], 0),
                                          speed=prof)


def _nlerp_sentence(state: BlendState) -> str:
    nl, sl = state.profiles["nlerp"], state.profiles["slerp"]
    if state.totals["slerp"] < 1e-9:
        return _("nlerp and slerp stay put: start and end are the same orientation.")
    if state.nlerp_undefined:
        return _("nlerp is undefined here: its chord from q₀ to the far copy −q₀ runs "
                 "through the centre at t = 0.5, where there is no direction to push it out "
                 "along. The library falls back to slerp's full turn, so the pink nlerp is "
                 "slerp's path and pace: it {slerp}.").format(slerp=sl.sentence())
    if nl.kind == "steady":
        return _("nlerp keeps slerp's path and, over so small a turn, its pace too: it "
                 "{nlerp}.").format(nlerp=nl.sentence())
    return _("nlerp keeps slerp's path but not its pace: it {nlerp}, while slerp "
             "{slerp}.").format(nlerp=nl.sentence(), slerp=sl.sentence())


def _extra_wrap(state: BlendState) -> str:
    changes = "; ".join(_("{name} {raw}° → {wrapped}°").format(
                            name=_(n), raw=fmt_number(r, 0, sign=True),
                            wrapped=fmt_number(w, 0, sign=True))
                        for n, r, w in state.wrap_changes)
    return _("Start and end are only {apart}° apart. Wrapping the angles changes "
             "{changes}.").format(apart=fmt_number(state.true_angle, 0), changes=changes)


def _triple(e) -> str:
    return "(" + ", ".join(f"{fmt_number(v, 0)}°" for v in e) + ")"


def _extra_lock(state: BlendState) -> str:
    name = quaternion_to_euler(state.q1, order=state.order)
    # the same end orientation under its other name: slerp's turn cannot change, Euler's does
    other = total_angle(euler_lerp(state.e0, name, state.ts, order=state.order,
                                   wrap=state.wrap_euler))
    return _("At pitch 90° only yaw − roll matters: the end {end} is the same orientation "
             "as {name}. Stored under that second name, Euler lerp turns {other}° instead of "
             "{euler}°; slerp turns {slerp}° either way.").format(
                 end=_triple(state.e1), name=_triple(name), other=fmt_number(other, 0),
                 euler=fmt_number(state.totals["euler"], 0),
                 slerp=fmt_number(state.totals["slerp"], 0))


def article_numbers(order: str = "YXZ") -> dict[str, float]:
    """Article 001's triples (15, 30, 45 degrees of yaw and roll), measured.

    ``composed_gap``: how far R2·R1 is from R3 (zero if the angles added like rotations);
    ``slerp_gap_1``/``_2``: how far slerp from (0,0,0) to R3 is from R1 and R2 at t = 1/3
    and 2/3, where Euler lerp passes exactly through them; ``step``: the angle of each
    third of the Euler lerp.
    """
    r1, r2, r3 = (euler_to_quaternion(*e, order=order) for e in ARTICLE_TRIPLE)
    one = quaternion.one
    return {
        "composed_gap": angle_between(r2 * r1, r3),
        "slerp_gap_1": angle_between(slerp(one, r3, 1 / 3), r1),
        "slerp_gap_2": angle_between(slerp(one, r3, 2 / 3), r2),
        "step": angle_between(r1, r2),
    }


def _extra_article(state: BlendState) -> str:
    n = article_numbers(state.order)
    return _("Euler lerp passes the article's R₁ = (15°, 0°, 15°) at t = 1/3 and "
             "R₂ = (30°, 0°, 30°) at t = 2/3 (the ghosts there). The angles do not add: "
             "R₂·R₁ is {composed}° away from R₃ = (45°, 0°, 45°), and slerp, the steady turn "
             "about one axis, is {gap}° from R₁ at t = 1/3.").format(
                 composed=fmt_number(n["composed_gap"], 2), gap=fmt_number(n["slerp_gap_1"], 1))


_EXTRAS = {"wrap": _extra_wrap, "lock": _extra_lock, "article": _extra_article}


def describe(state: BlendState, extra: str = "") -> str:
    """A description of this pair, every number measured from ``state``: plain text.
    ``extra``: "" or one of the presets' extras (wrap, lock, article)."""
    if not isinstance(state, BlendState):
        raise ValueError(f"state must be a BlendState (see compute()), got "
                         f"{check.describe(state)}")
    if extra:
        check.option(extra, "extra", list(_EXTRAS))
    parts = []
    if extra:
        parts.append(_EXTRAS[extra](state))
    parts.append(_euler_sentence(state))
    parts.append(_nlerp_sentence(state))
    return " ".join(parts)


def preset_description(name: str, order: str = "YXZ") -> str:
    """The description of a preset, computed with both toggles off."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"unknown preset {name!r:.60}; choose one of {list(PRESETS)}")
    p = PRESETS[name]
    return describe(compute(p.start, p.end, order=order), p.extra)
