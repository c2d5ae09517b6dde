"""Lesson 1's model: slider values in, a frozen picture of the gimbal out (no widgets, no
artists). Everything the app draws or prints is computed here and tested here.

* the three ring frames, axes and the aircraft's orientation for any of the six orders;
* the lock-proximity gauge: the angle between the outer and inner axes and the smallest
  singular value of the ring-rates -> angular-velocity map, with a badge that reads
  ``"free"``, ``"near"`` (axes closer than :data:`NEAR_LOCK_DEG`) or ``"locked"`` (at the
  lock itself, the middle ring at +-90);
* each ring's instantaneous motion, drawn at the nose: the angular velocity one degree per
  second of that ring gives the aircraft (its axis, right-hand rule), and the weakest
  direction, the turn the rings can make only at the highest cost (at the lock: not at all);
* article 004's read-back (``QuaternionToYawPtichRoll``) and how far off it is;
* the "Lock it" animation path and the "reach this orientation" exercise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ... import flight
from ... import rotations as rot
from ... import validate as check
from ...i18n import N_, _

#: The badge says "near lock" while the outer and inner axes are closer than this (the
#: middle ring within 10 degrees of +-90). There a turn about the weakest direction already costs
#: the rings 1 / lock_measure = 1 / (sqrt(2) sin 5 deg) = 8.1 times its size.
NEAR_LOCK_DEG = 10.0
#: ... and "locked" at the lock itself: axes parallel to rounding (the middle ring at +-90).
LOCK_TOL_DEG = 1e-6

#: The "Lock it" animation: frames and milliseconds per frame (25 x 40 ms = one second).
#: 25 a second, not 20: asking exactly 20, a frame skipped on a busy machine left fewer than
#: 20 shown (see docs/performance.md).
LOCK_FRAMES = 25
LOCK_INTERVAL_MS = 40
#: The most frames :func:`lock_path` makes (the app's "Lock it" has :data:`LOCK_FRAMES`).
MAX_LOCK_FRAMES = 1000
#: The finest search steps of :func:`best_single_ring` (0.25 in the exercise; 36,000 angles
#: a ring) and :func:`best_two_rings` (2 in the exercise; at 0.5, 518,400 pairs a ring:
#: 1.5 s and 0.25 GB).
MIN_SINGLE_STEP_DEG = 0.01
MIN_PAIR_STEP_DEG = 0.5

#: "Reach this orientation" counts as reached when the aircraft is within this many degrees
#: of the ghost (one rotation angle, :func:`lessons_lib.rotations.angle_between`).
REACH_TOL_DEG = 3.0

_BASIS = np.eye(3)
_INDEX = {"X": 0, "Y": 1, "Z": 2}

#: Body-frame points the app marks: the nose tip (where the motion arrows start).
NOSE = np.array([0.0, 0.0, 0.58])


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


def badge_state(lock_angle: float) -> str:
    """``"locked"`` at the lock, ``"near"`` within :data:`NEAR_LOCK_DEG`, else ``"free"``."""
    lock_angle = check.real(lock_angle, "lock_angle", lo=0.0, unit="degrees")
    if lock_angle <= LOCK_TOL_DEG:
        return "locked"
    if lock_angle < NEAR_LOCK_DEG:
        return "near"
    return "free"


def weakest_direction(axes: np.ndarray) -> tuple[np.ndarray, float]:
    """The unit angular velocity that the rings produce least easily, and that cost.

    ``axes`` are the rows outer, middle, inner (:func:`rotations.gimbal_axes`); the map from
    ring rates to angular velocity has these as columns. Its left singular vector of the
    smallest singular value ``sigma`` is the direction; producing a unit turn rate about it
    takes ring rates of size ``1 / sigma`` (infinite at the lock). The sign is chosen along
    ``outer x middle``, the direction at the lock itself, so it does not flip from frame to
    frame.
    """
    axes = check.array(axes, "axes", (3, 3), what="numbers (three ring axes, one a row)")
    J = axes.T
    u, sv, _ = np.linalg.svd(J)
    d = u[:, -1]
    ref = np.cross(axes[0], axes[1])
    if d @ ref < 0:
        d = -d
    return d, float(sv[-1])


@dataclass(frozen=True)
class Target:
    """A ghost orientation for "reach this orientation": where the exercise starts (angles
    in the app's order), and the orientation to reach."""

    order: str
    start: tuple[float, float, float]
    angles: tuple[float, float, float]
    matrix: np.ndarray = field(repr=False)

    def error(self, yaw: float, pitch: float, roll: float, order: str | None = None) -> float:
        """Degrees between the aircraft at these angles, read in ``order`` (the order the
        app draws; the target's own by default), and the ghost."""
        order = self.order if order is None else order
        return rot.angle_between(rot.euler_to_matrix(yaw, pitch, roll, order), self.matrix)

    def reached(self, yaw: float, pitch: float, roll: float, order: str | None = None) -> bool:
        return self.error(yaw, pitch, roll, order) <= REACH_TOL_DEG


def reach_target(order: str = "YXZ", turn_deg: float = 40.0) -> Target:
    """The exercise's target: start locked (the middle ring at 90, the others at 0), then
    turn the aircraft by ``turn_deg`` about the direction the lock has lost. No single ring
    can do that from the start (:func:`best_single_ring`); the angles of the target, read
    back exactly, say how the three rings together can."""
    rot.check_order(order)
    turn_deg = check.real(turn_deg, "turn_deg", lo=-180.0, hi=180.0, unit="degrees")
    start = {"yaw": 0.0, "pitch": 0.0, "roll": 0.0, rot.middle_angle_name(order): 90.0}
    start = (start["yaw"], start["pitch"], start["roll"])
    R0 = rot.euler_to_matrix(*start, order)
    missing, _ = weakest_direction(rot.gimbal_axes(*start, order))
    R = rot.axis_angle_matrix(missing, turn_deg) @ R0
    angles = rot.matrix_to_euler(R, order)
    return Target(order, start, tuple(round(a, 9) + 0.0 for a in angles), _frozen(R))


def _search_order(target) -> tuple[str, str, str]:
    """The ring angle names of a :class:`Target` (a ValueError for anything else)."""
    if not isinstance(target, Target):
        raise ValueError(f"target must be a Target (see reach_target()), got "
                         f"{type(target).__name__}")
    return rot.ring_angle_names(target.order)


def best_single_ring(target: Target, step_deg: float = 0.25) -> tuple[float, float, float]:
    """For each ring (outer, middle, inner): the smallest distance in degrees to the target
    that turning that ring alone from ``target.start`` can reach (searched every
    ``step_deg``, from :data:`MIN_SINGLE_STEP_DEG` (0.01) to 90 degrees)."""
    names = _search_order(target)
    step_deg = check.real(step_deg, "step_deg", lo=MIN_SINGLE_STEP_DEG, hi=90.0,
                          unit="degrees")
    sweep = np.arange(-180.0, 180.0, step_deg)
    out = []
    for name in names:
        angles = dict(zip(("yaw", "pitch", "roll"), target.start, strict=True))
        angles[name] = sweep
        R = rot.euler_to_matrix(angles["yaw"], angles["pitch"], angles["roll"], target.order)
        out.append(float(np.min(rot.angle_between(R, target.matrix))))
    return tuple(out)


def best_two_rings(target: Target, step_deg: float = 2.0) -> tuple[float, float, float]:
    """For each ring (outer, middle, inner) kept where ``target.start`` has it: the smallest
    distance in degrees to the target that the other two rings together can reach (searched
    on a grid every ``step_deg``, from :data:`MIN_PAIR_STEP_DEG` (0.5) to 90 degrees). For
    :func:`reach_target` all three are the full turn: every ring has to move."""
    names = _search_order(target)
    step_deg = check.real(step_deg, "step_deg", lo=MIN_PAIR_STEP_DEG, hi=90.0,
                          unit="degrees")
    grid = np.arange(-180.0, 180.0, step_deg)
    a, b = (g.ravel() for g in np.meshgrid(grid, grid))
    out = []
    for kept in names:
        angles = dict(zip(("yaw", "pitch", "roll"), target.start, strict=True))
        free = [n for n in names if n != kept]
        angles[free[0]], angles[free[1]] = a, b
        R = rot.euler_to_matrix(angles["yaw"], angles["pitch"], angles["roll"], target.order)
        out.append(float(np.min(rot.angle_between(R, target.matrix))))
    return tuple(out)


def lock_path(middle_start: float, frames: int = LOCK_FRAMES) -> np.ndarray:
    """The middle ring's angle in each frame of "Lock it": from ``middle_start`` to the
    nearer of +-90 (+90 from 0), in whole degrees (the slider's step), ending exactly on
    the lock. ``frames + 1`` values, the first the start. Eased out only: it leaves at
    full speed, so the first frame after the click already moves (an ease in as well left
    the first two frames on the start, 80 ms with nothing to see), and slows to a third of
    that speed into the lock (not to a stop: the last frames would repeat a whole
    degree). ``middle_start`` within +-360 degrees, ``frames`` 1 to :data:`MAX_LOCK_FRAMES`
    (1000)."""
    middle_start = check.real(middle_start, "middle_start", lo=-360.0, hi=360.0,
                              unit="degrees")
    frames = check.integer(frames, "frames", lo=1, hi=MAX_LOCK_FRAMES, whole_floats=True)
    end = -90.0 if middle_start < 0 else 90.0
    t = np.linspace(0.0, 1.0, int(frames) + 1)
    ease = t * (3 - t) / 2
    path = np.round(middle_start + (end - middle_start) * ease)
    path[0], path[-1] = middle_start, end
    return path + 0.0


@dataclass(frozen=True, eq=False)
class GimbalState:
    """What the app shows for one set of angles (all vectors in world coordinates, Y up)."""

    order: str
    angles: tuple[float, float, float]  # yaw, pitch, roll (the sliders)
    names: tuple[str, str, str]         # the angle on each ring, outer to inner
    values: tuple[float, float, float]  # those angles, outer to inner
    frames: np.ndarray                  # (3, 3, 3): each ring's turn, outer to inner
    planes: np.ndarray                  # (3, 2, 3): two unit vectors spanning each ring
    matrix: np.ndarray                  # R, the aircraft's orientation
    quaternion: object                  # the same as a unit quaternion
    axes: np.ndarray                    # rows: outer, middle, inner ring axis
    nose: np.ndarray                    # where the nose tip is
    lock_angle: float                   # degrees between the outer and inner axes
    lock_measure: float                 # smallest singular value: 1 free .. 0 locked
    badge: str                          # "free", "near", "locked"
    weakest: np.ndarray                 # unit: the turn the rings make least easily
    readback: tuple[float, float, float]  # exact, from R
    article: tuple[float, float, float]   # article 004's QuaternionToYawPtichRoll
    article_snapped: bool               # its |test| > 0.4995 branch was taken
    article_error: float                # degrees between its orientation and R
    target_error: float | None = None   # degrees to the ghost, when there is one

    @property
    def gauge(self) -> float:
        """How far the lock has come, 0 (middle ring at 0) to 1 (at the lock)."""
        return 1.0 - self.lock_angle / 90.0

    @property
    def motion_gap(self) -> float:
        """Degrees between the lines of the outer and inner rings' motion (their axes)."""
        return self.lock_angle


def compute_state(yaw: float, pitch: float, roll: float, order: str = "YXZ",
                  target: Target | None = None) -> GimbalState:
    """The gimbal at these slider values (degrees): pure maths, see :class:`GimbalState`."""
    rot.check_order(order)
    if target is not None and not isinstance(target, Target):
        raise ValueError(f"target must be a Target or None, got {check.describe(target)}")
    names = rot.ring_angle_names(order)
    yaw, pitch, roll = (check.real(v, n, unit="degrees")
                        for v, n in ((yaw, "yaw"), (pitch, "pitch"), (roll, "roll")))
    by_name = {"yaw": yaw, "pitch": pitch, "roll": roll}
    values = tuple(by_name[n] for n in names)
    R_outer = rot.axis_rotation(order[0], values[0])
    R_middle = R_outer @ rot.axis_rotation(order[1], values[1])
    R = R_middle @ rot.axis_rotation(order[2], values[2])
    frames = np.stack([R_outer, R_middle, R])
    i, j, k = (_INDEX[a] for a in order)
    # each ring lies in the plane of its own axis and the next ring's axis (the inner ring:
    # its axis and the one it would carry next, the outer letter)
    pairs = ((i, j), (j, k), (k, i))
    planes = np.stack([np.stack([frames[n] @ _BASIS[a], frames[n] @ _BASIS[b]])
                       for n, (a, b) in enumerate(pairs)])
    axes = rot.gimbal_axes(yaw, pitch, roll, order)
    q = rot.euler_to_quaternion(yaw, pitch, roll, order)
    lock_angle = rot.lock_angle(yaw, pitch, roll, order)
    weakest, sigma = weakest_direction(axes)
    article = rot.quaternion_to_euler_naive(q, order)
    mid = {"yaw": article[0], "pitch": article[1], "roll": article[2]}[names[1]]
    return GimbalState(
        order=order, angles=(by_name["yaw"], by_name["pitch"], by_name["roll"]),
        names=names, values=values, frames=_frozen(frames), planes=_frozen(planes),
        matrix=_frozen(R), quaternion=q, axes=_frozen(axes), nose=_frozen(R @ NOSE),
        lock_angle=lock_angle, lock_measure=sigma, badge=badge_state(lock_angle),
        weakest=_frozen(weakest), readback=rot.matrix_to_euler(R, order), article=article,
        article_snapped=abs(mid) == 90.0,  # asin alone reaches 90 only past the threshold
        article_error=rot.angle_between(rot.euler_to_matrix(*article, order), R),
        target_error=None if target is None else target.error(yaw, pitch, roll, order))


# -- Fly it: turn the aircraft itself (issue 31) -----------------------------------------------

#: Degrees the aircraft turns per pixel of drag on it (a drag across the figure, about
#: 400 px, turns it about 200°).
TURN_DEG_PER_PX = 0.5
#: Degrees per press of the "turn" buttons (the keyboard's way to fly).
TURN_STEP_DEG = 5.0
#: Pixels of drag before the drag chooses its body axis (a shorter jitter chooses nothing).
CHOOSE_AFTER_PX = 4.0
#: An axis pointing at the reader has little length across the screen: the drag's part
#: about it is divided by at least this much (see :func:`drag_turn`).
MIN_ACROSS = 0.35
#: The body axes a drag may turn about (:data:`lessons_lib.flight.BODY_AXES`) ...
FLY_AXES = tuple(flight.BODY_AXES)
#: ... and what the page calls them: the parts of the aircraft they run along ("fin", not
#: "top", which is also a camera view's button).
FLY_LABELS = {"nose": N_("nose"), "wing": N_("wing"), "top": N_("fin")}


def angle_word(name: str) -> str:
    """An angle's name ("yaw", "pitch", "roll") or a ring's place ("outer"...) as the page
    writes it, in the learner's language."""
    return _(name)


#: the names translated by :func:`angle_word` (marked for the catalogue)
ANGLE_WORDS = (N_("yaw"), N_("pitch"), N_("roll"), N_("outer"), N_("middle"), N_("inner"))


@dataclass(frozen=True)
class Flight:
    """One body turn made by the student (a whole drag, or one press of a turn button), and
    the rings that followed.

    ``before``/``after``: (yaw, pitch, roll) at its start and now, solved exactly
    (:func:`lessons_lib.flight.body_turn`, step by step on the branch nearest the last);
    ``angle``: degrees turned about the body ``axis`` so far; ``shown``: ``after`` as the
    sliders hold it (each angle within ±180 and on the sliders' 1° steps). ``rates``: degrees
    of each ring (outer, middle, inner) per degree more of this turn at ``after``
    (:func:`lessons_lib.flight.ring_rates`; ``inf`` at the lock for a turn with a part along
    the lost direction); ``locked``: ``after`` is at the lock, where the split between the
    outer and inner rings was a choice.
    """

    order: str
    axis: str
    angle: float
    before: tuple[float, float, float]
    after: tuple[float, float, float]
    shown: tuple[float, float, float]
    rates: tuple[float, float, float]
    locked: bool

    @property
    def ring_changes(self) -> tuple[float, float, float]:
        """How far each ring turned (outer, middle, inner), exactly."""
        names = rot.ring_angle_names(self.order)
        b = dict(zip(("yaw", "pitch", "roll"), self.before, strict=True))
        a = dict(zip(("yaw", "pitch", "roll"), self.after, strict=True))
        return tuple(a[n] - b[n] for n in names)


def slider_angle(angle: float, step: float = 1.0) -> float:
    """An angle as a ±180° slider in steps of ``step`` holds it: wrapped, then on a step.
    ``step``: more than 0, at most 360 degrees."""
    angle = check.real(angle, "angle", unit="degrees")
    step = check.real(step, "step", lo=0.0, lo_open=True, hi=360.0, unit="degrees")
    a = (angle + 180.0) % 360.0 - 180.0
    a = round(a / step) * step
    return -180.0 if a >= 180.0 else a + 0.0


def _fly_axis(axis) -> str:
    if not isinstance(axis, str) or axis not in FLY_AXES:
        raise ValueError(f"unknown body axis {check.describe(axis)}: choose one of "
                         f"{', '.join(FLY_AXES)}")
    return axis


def fly(before, axis: str, angle: float, order: str = "YXZ",
        since: Flight | None = None) -> Flight:
    """Turn the aircraft at ``before`` (yaw, pitch, roll) by ``angle`` degrees about its own
    ``axis`` (one of :data:`FLY_AXES`); the rings on the branch nearest ``before``.
    ``since``: the turn so far (same axis and order, ending at ``before``), which this step
    continues: the result counts from its start."""
    axis = _fly_axis(axis)
    before = tuple(check.array(before, "before", (3,), what="angles (yaw, pitch, roll)"))
    if since is not None and not isinstance(since, Flight):
        raise ValueError(f"since must be a Flight or None, got {check.describe(since)}")
    if since is not None and (since.axis, since.order, since.after) != (axis, order,
                                                                         tuple(before)):
        raise ValueError("a turn continues only the one it follows: same axis, same order, "
                         "from where that one ended")
    turn = flight.body_turn(*before, axis, angle, order)
    return Flight(order=order, axis=axis,
                  angle=float(angle) + (since.angle if since is not None else 0.0),
                  before=since.before if since is not None else tuple(float(v) for v in before),
                  after=turn.angles, shown=tuple(slider_angle(v) for v in turn.angles),
                  rates=flight.ring_rates(*turn.angles, axis, order), locked=turn.locked)


def drag_turn(matrix, camera, dx: float, dy: float, twist: float = 0.0,
              axis: str | None = None) -> tuple[str, float]:
    """The body turn a drag on the aircraft asks for: ``(axis, degrees)``.

    ``camera``: rows are the screen's right, up and towards-the-reader directions in the
    world (unit vectors); ``dx``, ``dy``: the drag in pixels (y up); ``twist``: pixels of
    drag around the aircraft's centre on the screen (counter-clockwise positive). As on a
    trackball, the drag asks for a turn about the screen axis square to it:
    ``w = -dy * right + dx * up + twist * towards`` (a drag to the right swings the
    near side of the aircraft to the right). ``axis`` None: the body axis (nose, wing, top)
    that ``w`` turns about most; the angle is ``w``'s part about that axis, at
    :data:`TURN_DEG_PER_PX`, divided by how much of the axis lies across the screen (at
    least :data:`MIN_ACROSS`): a drag square to the axis on the screen turns at the full
    rate however the axis leans, a drag along it not at all, and an axis at the reader
    turns with the drag around the centre (``twist``)."""
    R = check.array(matrix, "matrix", (3, 3))
    cam = check.array(camera, "camera", (3, 3))
    dx, dy, twist = (check.real(v, name) for v, name in ((dx, "dx"), (dy, "dy"),
                                                          (twist, "twist")))
    w = -dy * cam[0] + dx * cam[1] + twist * cam[2]
    parts = {name: float(w @ (R @ flight.BODY_AXES[name])) for name in FLY_AXES}
    if axis is None:
        axis = max(FLY_AXES, key=lambda n: abs(parts[n]))
    else:
        axis = _fly_axis(axis)
    b = R @ flight.BODY_AXES[axis]
    across = max(math.hypot(float(cam[0] @ b), float(cam[1] @ b)), MIN_ACROSS)
    return axis, TURN_DEG_PER_PX * parts[axis] / across
