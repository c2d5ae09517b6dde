"""Lesson 3's model: control values in, a frozen run of the car out (no widgets, no artists).

Everything the app draws or writes is computed here and tested here:

* the run of the chosen controller (the article's three terms, pure pursuit or Stanley) on
  the chosen track from the chosen start, with each term's share of the steering;
* the comparison of the three controllers on the same track and start, and the phase
  portrait (crosstrack error against heading error) of each;
* the speed sweep (fixed long, fixed short and adaptive look-ahead at 4-25 m/s);
* the slope case: on the 3D ramp, the right vector from world up (not normalised) against
  the one from up projected off the tangent, and the crosstrack error each gives;
* where a click on the map puts the car, and why.

Runs are cached by their inputs, so switching controller or view, or scrubbing time, never
simulates again.
"""

from __future__ import annotations

import math
from dataclasses import astuple, dataclass, field
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from ... import validate as check
from ...controllers import PurePursuit, Stanley
from ...i18n import N_, _
from ...spline import Spline
from ...steering import SteeringParams
from ...sweep import FIXED_LONG, FIXED_SHORT, SWEEP_MODES, SpeedSweep, speed_sweep
from ...tracks import ROAD_HALF_WIDTH, TRACKS, sloped_road, track
from ...vehicle import SETTLE_TOLERANCE, Trajectory, Vehicle, simulate, simulate_controller

#: Seconds of every run (an open road may end sooner).
DURATION = 30.0
DT = 1 / 60
#: The app's tracks: the built-in ones and the 3D ramp of the slope section.
SLOPE_TRACK = "ramp"
SLOPE_GRADE, SLOPE_TURN = 0.5, 40.0
TRACK_LABELS = {"oval": N_("Oval (closed, r ≥ 20 m)"), "s_bend": N_("S-bend (open, r 25 m)"),
                "hairpin": N_("Hairpins (closed, r 10 m)"),
                "open_road": N_("Open road (200 m, ends)"),
                SLOPE_TRACK: N_("Ramp (3D, grade 50 %)")}   # "% g" would read as a %-format
CONTROLLERS = (N_("Article"), N_("Pure pursuit"), N_("Stanley"))
VIEWS = (N_("Terms"), N_("Speed sweep"), N_("Phase portrait"))
#: The look-ahead modes as the panels and figures write them (``mode.lower()``).
MODE_WORDS = (N_("fixed long"), N_("fixed short"), N_("adaptive"), N_("all off the road"))
#: The start offset slider's range (m): a click farther from the road is clamped to it.
MAX_OFFSET = 5.0
#: Gaps kept from an open road's ends when a click places the car (m).
OPEN_END_GAP = 5.0
#: The speed (m/s) the app opens at. Above it, :func:`off_road_note` tries the crosstrack
#: gain faded with speed the way Stanley's term fades: gain x FADE_FROM / speed.
FADE_FROM = 10.0


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


def _option(options):
    return lambda value, name: check.option(value, name, list(options))


#: What the model reads of the app's params, each checked (a ValueError otherwise).
FIELDS = {
    "track": _option([*TRACKS, SLOPE_TRACK]), "controller": _option(CONTROLLERS),
    "mode": _option(("Adaptive", "Fixed")), "view": _option(VIEWS),
    **dict.fromkeys(("use_position", "use_heading", "use_crosstrack"), check.flag),
    **dict.fromkeys(("look_ahead_base", "look_ahead_speed_factor", "fixed_look_ahead",
                     "heading_weight", "max_yaw_delta", "crosstrack_gain", "speed",
                     "start_distance", "start_offset", "start_heading"), check.real),
}


def app_params(p) -> SimpleNamespace:
    """The app's params ``p`` with every field the model reads checked (:data:`FIELDS`)."""
    return SimpleNamespace(**check.fields(p, "params", FIELDS))


def checked_spline(spline) -> Spline:
    """``spline`` if it is a lessons_lib Spline (a ValueError otherwise)."""
    if not isinstance(spline, Spline):
        raise ValueError(f"spline must be a lessons_lib Spline (see road()), got "
                         f"{check.describe(spline)}")
    return spline


@lru_cache(maxsize=8)
def _road(name: str) -> Spline:
    return sloped_road(SLOPE_GRADE, SLOPE_TURN) if name == SLOPE_TRACK else track(name)


def road(name: str) -> Spline:
    """The app's track ``name`` (the built-in tracks and the 3D ramp)."""
    return _road(check.option(name, "the track", [*TRACKS, SLOPE_TRACK]))


def max_start_distance(spline: Spline) -> float:
    """The farthest start along the track the app allows (m)."""
    spline = checked_spline(spline)
    return round(spline.length - (0.5 if spline.closed else OPEN_END_GAP), 1)


def steering_params(p) -> SteeringParams:
    """The SteeringParams the controls describe (``p``: the app's params)."""
    p = app_params(p)
    return SteeringParams(look_ahead_base=p.look_ahead_base,
                          look_ahead_speed_factor=p.look_ahead_speed_factor,
                          adaptive_look_ahead=p.mode == "Adaptive",
                          fixed_look_ahead=p.fixed_look_ahead, heading_weight=p.heading_weight,
                          max_yaw_delta=p.max_yaw_delta, crosstrack_gain=p.crosstrack_gain,
                          use_position=p.use_position, use_heading=p.use_heading,
                          use_crosstrack=p.use_crosstrack)


# -- one run ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """One controller's run, with what the app draws of it. Arrays per step."""

    controller: str
    params: SteeringParams | None    # the article's settings (None for the other two)
    trajectory: Trajectory
    metrics: dict
    progress_point: np.ndarray      # (n, 2) blue point
    target: np.ndarray              # (n, 2) red point (pure pursuit: its look-ahead point)
    heading_error: np.ndarray       # deg, + = the car points right of the road (at progress)
    contributions: dict             # term -> share of the steering (article only)
    world_up_crosstrack: np.ndarray | None = None  # ramp: with cross(T, world up), unnormalised

    def __len__(self) -> int:
        return len(self.trajectory)

    @property
    def label(self) -> str:
        """What ran: the controller, and the article's settings, in the learner's language
        (made when shown: a cached run serves both languages)."""
        if self.controller == "Article" and self.params is not None:
            return article_label(self.params)
        return _(self.controller)


#: How :func:`article_label` names each tunable that differs from our default.
_SHORT = (("look_ahead_base", N_("base {value:g} m")),
          ("look_ahead_speed_factor", N_("factor {value:g} s")),
          ("heading_weight", N_("weight {value:g}")), ("max_yaw_delta", N_("max yaw {value:g}°")),
          ("crosstrack_gain", N_("gain {value:g}")))


def _steering(params, none_ok: bool = False) -> SteeringParams | None:
    if not (isinstance(params, SteeringParams) or (none_ok and params is None)):
        raise ValueError(f"params must be SteeringParams{' or None' if none_ok else ''}, got "
                         f"{check.describe(params)}")
    return params


def _start(start) -> tuple[float, float, float]:
    return tuple(check.array(start, "start", (3,), what="numbers (distance, offset, "
                                                         "heading)").tolist())


def article_label(params: SteeringParams) -> str:
    """What an article run ran, for a table column or a legend: "Article (3 terms, our
    defaults)", or the terms on and every setting that differs from our defaults (the
    article gives no values for them), e.g. "Article (Position only, fixed 25 m)"."""
    _steering(params)
    d = SteeringParams()
    if params == d:
        return _("Article (3 terms, our defaults)")
    on = [n for n, use in ((N_("Position"), params.use_position),
                           (N_("Heading"), params.use_heading),
                           (N_("Crosstrack"), params.use_crosstrack)) if use]
    parts = [_("3 terms") if len(on) == 3 else _("no terms") if not on
             else _("{term} only").format(term=_(on[0])) if len(on) == 1
             else " + ".join(_(n) for n in on)]
    if not params.adaptive_look_ahead:
        parts.append(_("fixed {value:g} m").format(value=params.fixed_look_ahead))
    for name, fmt in _SHORT:
        if name in ("look_ahead_base", "look_ahead_speed_factor") and \
                not params.adaptive_look_ahead:
            continue
        value = getattr(params, name)
        if value != getattr(d, name):
            parts.append(_(fmt).format(value=value))
    return _("Article ({settings})").format(settings=", ".join(parts))


def _heading_error(spline: Spline, traj: Trajectory) -> np.ndarray:
    """How far (deg) the car points right of the road at its progress point: the sign of
    the start heading control and of the crosstrack error, so that the phase portrait
    starts where those two controls say (and the sign of Stanley's heading error)."""
    d = spline.direction_at(traj.progress)
    path_yaw = np.degrees(np.arctan2(d[:, 1], d[:, 0]))
    return (path_yaw - traj.yaw + 180.0) % 360.0 - 180.0


def _contributions(traj: Trajectory, params: SteeringParams) -> dict:
    n = len(traj)
    m = params.max_yaw_delta
    w = traj.heading_weight
    zero = np.zeros(n)
    return {"position": _frozen((1.0 - w) * traj.position_delta / m
                                if params.use_position else zero),
            "heading": _frozen(w * traj.heading_delta / m if params.use_heading else zero),
            "crosstrack": _frozen(-traj.crosstrack_error * params.crosstrack_gain
                                  if params.use_crosstrack else zero),
            "steering": _frozen(traj.steering)}


def run(track_name: str, controller: str, params: SteeringParams | None, speed: float,
        start: tuple[float, float, float]) -> Run:
    """``controller`` on ``track_name`` at ``speed`` from ``start`` = (distance, offset right,
    heading right in degrees). ``params`` is the article's (ignored by the other two).
    Cached: the same inputs give the same :class:`Run` object."""
    check.option(track_name, "track_name", [*TRACKS, SLOPE_TRACK])
    check.option(controller, "controller", CONTROLLERS)
    key = astuple(params) if _steering(params, True) is not None and controller == "Article" \
        else None
    return _run(track_name, controller, key, check.real(speed, "speed", unit="m/s"),
                _start(start))


@lru_cache(maxsize=64)
def _run(track_name: str, controller: str, key: tuple | None, speed: float,
         start: tuple[float, float, float]) -> Run:
    params = SteeringParams(*key) if key is not None else None
    sp = road(track_name)
    distance, offset, heading_right = start
    kw = dict(start_distance=distance, start_offset=offset,
              start_heading_error=-heading_right, vehicle=Vehicle())
    if controller == "Article":
        traj = simulate(sp, params, speed, DURATION, DT, **kw)
        target = traj.target
        contributions = _contributions(traj, params)
    elif controller in ("Pure pursuit", "Stanley"):
        law = PurePursuit() if controller == "Pure pursuit" else Stanley()
        traj = simulate_controller(sp, law, speed, DURATION, DT, **kw)
        if controller == "Pure pursuit":
            ld = law.look_ahead_base + law.look_ahead_gain * speed
            target = sp.location_at(sp.wrap(traj.progress + ld))[:, :2]
        else:  # Stanley aims from the front axle at the nearest point: no look-ahead target
            target = np.full((len(traj), 2), np.nan)
        contributions = {"steering": _frozen(traj.steering)}
    else:
        raise ValueError(f"unknown controller {controller!r:.60}: choose one of "
                         f"{', '.join(CONTROLLERS)}")
    world_up = None
    if sp.dim == 3 and controller == "Article":
        t, off = traj.progress_tangent, traj.perpendicular_offset
        world_up = _frozen(off[:, 0] * t[:, 1] - off[:, 1] * t[:, 0])  # . cross(T, z)
    return Run(controller=controller, params=params, trajectory=traj, metrics=traj.metrics(),
               progress_point=_frozen(sp.location_at(traj.progress)[:, :2]),
               target=_frozen(target), heading_error=_frozen(_heading_error(sp, traj)),
               contributions=contributions, world_up_crosstrack=world_up)


def _sweep_key(params: SteeringParams) -> SteeringParams:
    """The sweep runs every mode itself: the mode and fixed distance do not change it."""
    return params.replace(adaptive_look_ahead=True, fixed_look_ahead=10.0)


def sweep(track_name: str, params: SteeringParams,
          start: tuple[float, float, float]) -> SpeedSweep:
    """Fixed long, fixed short and adaptive look-ahead at 4-25 m/s (cached: the look-ahead
    mode and the fixed distance of ``params`` do not matter, the sweep runs every mode)."""
    check.option(track_name, "track_name", [*TRACKS, SLOPE_TRACK])
    return _sweep(track_name, astuple(_sweep_key(_steering(params))), _start(start))


@lru_cache(maxsize=16)
def _sweep(track_name: str, key: tuple, start: tuple[float, float, float]) -> SpeedSweep:
    distance, offset, heading_right = start
    return speed_sweep(road(track_name), SteeringParams(*key), duration=DURATION, dt=DT,
                       start_distance=distance, start_offset=offset,
                       start_heading_error=-heading_right)


# -- the state the app shows ---------------------------------------------------------------
@dataclass(frozen=True)
class SteeringState:
    """What the app shows for one set of control values."""

    track: str
    spline: Spline
    params: SteeringParams
    speed: float
    start: tuple[float, float, float]
    controller: str
    view: str
    run: Run                                  # the chosen controller's run
    others: dict = field(default_factory=dict)  # controller -> Run (phase portrait view)
    sweep: SpeedSweep | None = None           # speed sweep view
    disabled: dict = field(default_factory=dict)  # control -> why it has no effect now
    note: str = ""                            # why the view shown is not the one chosen
    off_road: str = ""                        # when the run leaves the road: where, and why

    @property
    def trajectory(self) -> Trajectory:
        return self.run.trajectory

    @property
    def metrics(self) -> dict:
        return self.run.metrics

    def step(self, time: float | None) -> int:
        """The step shown at ``time`` seconds (the last one after an early end)."""
        if time is None:
            return 0
        last = len(self.run) - 1
        return max(0, min(last, round(min(check.real(time, "time", unit="s") / DT, last))))

    def runs(self) -> dict[str, Run]:
        """controller -> its run, for the controllers computed, in :data:`CONTROLLERS`
        order (each run's ``label`` says what ran)."""
        runs = {self.controller: self.run, **self.others}
        return {c: runs[c] for c in CONTROLLERS if c in runs}


def driving_controller(p) -> str:
    """The controller that drives with params ``p``: pure pursuit and Stanley are laws for a
    flat (2D) road, so on a 3D track (the Ramp) the article's steering drives whichever is
    chosen (asking them for a run there is a ValueError from lessons_lib.controllers)."""
    p = app_params(p)
    return p.controller if road(p.track).dim == 2 else "Article"


def disabled_controls(p) -> dict[str, str]:
    """Control name -> the one-line reason it has no effect with these values."""
    p = app_params(p)
    out = {}
    controller = driving_controller(p)
    if road(p.track).dim != 2:
        out["controller"] = _("pure pursuit and Stanley steer on a flat road; on this 3D "
                              "track the article's steering drives")
    if controller != "Article":
        why = _("{controller} steers by its own law, the article's settings do not "
                "apply").format(controller=_(controller))
        for name in ("mode", "use_position", "use_heading", "use_crosstrack",
                     "look_ahead_base", "look_ahead_speed_factor", "fixed_look_ahead",
                     "heading_weight", "max_yaw_delta", "crosstrack_gain"):
            out[name] = why
        return out
    if p.mode == "Adaptive":
        out["fixed_look_ahead"] = _("in Adaptive mode the look-ahead is (base + speed × "
                                    "factor) × curvature scale")
    else:
        why = _("in Fixed mode the look-ahead is the fixed distance")
        out["look_ahead_base"] = out["look_ahead_speed_factor"] = why
    if not (p.use_position and p.use_heading):
        out["heading_weight"] = _("it blends Position and Heading, so it needs both on")
    if not (p.use_position or p.use_heading):
        out["max_yaw_delta"] = _("it scales the angle terms, and both are off")
        out.setdefault("mode", _("the look-ahead only feeds the angle terms, and both are off"))
    if not p.use_crosstrack:
        out["crosstrack_gain"] = _("the Crosstrack term is off")
    return out


def compute(p) -> SteeringState:
    """The whole model for the app's params ``p`` (pure; runs are cached)."""
    p = app_params(p)
    sp = road(p.track)
    params = steering_params(p)
    limit = max_start_distance(sp)
    start = (min(float(p.start_distance), limit), float(p.start_offset),
             float(p.start_heading))
    speed = float(p.speed)
    controller = driving_controller(p)
    chosen = run(p.track, controller, params if controller == "Article" else None, speed,
                 start)
    others = {}
    if p.view == "Phase portrait" and sp.dim == 2:
        for c in CONTROLLERS:
            if c != controller:  # the article's controller, when not chosen, with its own
                # defaults: the settings greyed out for another controller do not leak in
                others[c] = run(p.track, c, SteeringParams() if c == "Article" else None,
                                speed, start)
    view, note = p.view, ""
    if view == "Speed sweep" and sp.dim != 2:
        # the sweep drives its cars together on a flat road (lessons_lib.sweep is 2D)
        view, note = "Terms", _("The speed sweep runs on the flat tracks; on this 3D track "
                                "the lower plot shows the terms.")
    swept = sweep(p.track, params, start) if view == "Speed sweep" else None
    return SteeringState(track=p.track, spline=sp, params=params, speed=speed, start=start,
                         controller=controller, view=view, run=chosen, others=others,
                         sweep=swept, disabled=disabled_controls(p), note=note,
                         off_road=off_road_note(p.track, chosen, params, speed, start))


def _a_run(r) -> Run:
    if not isinstance(r, Run):
        raise ValueError(f"the run must be a Run (from run()), got {check.describe(r)}")
    return r


def left_road(r: Run) -> bool:
    """Did the run's car get further than :data:`ROAD_HALF_WIDTH` from the centre line?"""
    return _a_run(r).metrics["max_crosstrack"] > ROAD_HALF_WIDTH


def swings(cte: np.ndarray) -> list[float]:
    """The largest distance (m) off the line in each stretch between two crossings of it, up
    to the first stretch that leaves the road."""
    cte = check.array(cte, "cte", (None,), min_rows=1, what="crosstrack errors (m)")
    a = np.abs(cte)
    crossings = np.flatnonzero(np.diff(np.sign(cte)) != 0) + 1
    out = []
    for stretch in np.split(a, crossings):
        out.append(float(stretch.max()))
        if out[-1] > ROAD_HALF_WIDTH:
            break
    return out


def off_road_note(track_name: str, chosen: Run, params: SteeringParams, speed: float,
                  start: tuple[float, float, float]) -> str:
    """When the run leaves the road: when and how far, and the cause when it is the gain
    (:func:`gain_cause`). "" while the car stays on."""
    if not left_road(chosen):
        return ""
    tr = chosen.trajectory
    first = int(np.argmax(np.abs(tr.crosstrack_error) > ROAD_HALF_WIDTH))
    return (_("The car leaves the road after {t:.1f} s and gets {off:.1f} m off the line "
              "(the road is {half:g} m each side).").format(
                t=tr.t[first], off=chosen.metrics['max_crosstrack'], half=ROAD_HALF_WIDTH)
            + gain_cause(track_name, chosen, params, speed, start))


def gain_cause(track_name: str, chosen: Run, params: SteeringParams, speed: float,
               start: tuple[float, float, float]) -> str:
    """For the article's steering above :data:`FADE_FROM` that leaves the road: if the same
    car with the crosstrack gain faded with speed stays on it, the sentences that name the
    fixed gain as the cause (with the swings that grow, and the faded run's RMS); else ""."""
    _steering(_a_run(chosen) and params)
    if chosen.controller != "Article" or not params.use_crosstrack or speed <= FADE_FROM:
        return ""
    gain = params.crosstrack_gain
    faded = run(track_name, "Article", params.replace(crosstrack_gain=gain * FADE_FROM / speed),
                speed, start)
    if left_road(faded):
        return ""
    peaks = swings(chosen.trajectory.crosstrack_error)
    grow = (" " + _("Its swings across the line grow: {peaks} m.").format(
                peaks=", ".join(f"{p:.1f}" for p in peaks))
            if len(peaks) > 1 and np.all(np.diff(peaks) > 0) else "")
    return grow + " " + _(
        "The cause is the crosstrack gain: {gain:g} steering per metre off at every speed, "
        "while the same steering turns a car {times:.1f} times as fast at {speed:g} m/s as at "
        "{slow:g} m/s, so the push back overshoots the line. Faded with speed as Stanley's "
        "crosstrack term is (section 8), {gain:g} × {slow:g} / {speed:g} = {faded:.3f} per m "
        "here, the same car stays on the road (RMS {rms:.2f} m).").format(
            gain=gain, times=speed / FADE_FROM, speed=speed, slow=FADE_FROM,
            faded=gain * FADE_FROM / speed, rms=faded.metrics['rms_crosstrack'])


# -- placing the car by a click ----------------------------------------------------------------
@dataclass(frozen=True)
class Placement:
    """Where a click puts the car: start distance and offset (m), and what was adjusted."""

    start_distance: float
    start_offset: float
    note: str = ""


def place(spline: Spline, x: float, y: float) -> Placement:
    """The start for a click at (x, y): beside the nearest point of the road, the offset
    clamped to :data:`MAX_OFFSET`; on an open road, a click before its start or past its end
    starts the car at the nearest allowed distance. ``note`` says what was changed and why."""
    spline = checked_spline(spline)
    q = np.array([check.real(x, "to place the car, x", unit="m"),
                  check.real(y, "to place the car, y", unit="m")])
    if spline.dim == 3:  # the ramp: nearest in plan
        s = _closest_in_plan(spline, q)
    else:
        s = spline.closest_distance(q)
    p = spline.location_at(s)[:2]
    t = spline.direction_at(s)[:2]
    t = t / np.linalg.norm(t)
    d = q - p
    along = float(d @ t)
    offset = float(d @ np.array([t[1], -t[0]]))
    notes = []
    limit = max_start_distance(spline)
    distance = s
    if not spline.closed and s <= 1e-6 and along < -0.5:
        notes.append(_("That point is {d:.1f} m before the road starts, so the car starts "
                       "at its start.").format(d=-along))
    elif not spline.closed and s >= spline.length - 1e-6 and along > 0.5:
        notes.append(_("That point is {d:.1f} m past the road's end.").format(d=along))
    if distance > limit:
        notes.append(_("The car starts {limit:.0f} m along, the last start that leaves it "
                       "{gap:.0f} m of road.").format(limit=limit, gap=OPEN_END_GAP)
                     if not spline.closed else "")
        distance = limit
    if abs(offset) > MAX_OFFSET:
        notes.append((_("It is {d:.1f} m right of the centre line; the car starts {most:.0f} m "
                        "right of it, the farthest the start allows.") if offset > 0 else
                      _("It is {d:.1f} m left of the centre line; the car starts {most:.0f} m "
                        "left of it, the farthest the start allows.")).format(
                            d=abs(offset), most=MAX_OFFSET))
        offset = math.copysign(MAX_OFFSET, offset)
    return Placement(min(distance, limit), offset, " ".join(n for n in notes if n))


def _closest_in_plan(spline: Spline, q: np.ndarray) -> float:
    s = np.linspace(0.0, spline.length, max(200, int(spline.length * 4)))
    pts = spline.location_at(s)[:, :2]
    return float(s[int(np.argmin(np.sum((pts - q) ** 2, axis=1)))])


# -- what the presets claim -------------------------------------------------------------------
def centre_line_crossings(cte: np.ndarray, tolerance: float = 0.05) -> int:
    """How many times the car crosses the centre line (sign changes beyond ``tolerance``)."""
    cte = check.array(cte, "cte", (None,), what="crosstrack errors (m)")
    tolerance = check.length(tolerance, "tolerance", allow_zero=True)
    side = np.sign(np.where(np.abs(cte) > tolerance, cte, 0.0))
    side = side[side != 0]
    return int(np.sum(side[1:] != side[:-1]))


__all__ = ["DURATION", "DT", "TRACK_LABELS", "CONTROLLERS", "VIEWS", "SLOPE_TRACK",
           "FIXED_LONG", "FIXED_SHORT", "SWEEP_MODES", "SETTLE_TOLERANCE", "MAX_OFFSET",
           "Run", "SteeringState", "Placement", "compute", "run", "sweep", "road", "place",
           "steering_params", "article_label", "disabled_controls", "max_start_distance",
           "centre_line_crossings", "off_road_note", "gain_cause", "left_road", "swings"]


# -- the article's scenarios ---------------------------------------------------------------------
_D = SteeringParams()
#: Every control's value at start-up (the app's declaration uses these).
DEFAULTS = {"track": "oval", "controller": "Article", "speed": 10.0, "mode": "Adaptive",
            "use_position": True, "use_heading": True, "use_crosstrack": True,
            "start_distance": 0.0, "start_offset": 0.0, "start_heading": 0.0, "view": "Terms",
            "look_ahead_base": _D.look_ahead_base,
            "look_ahead_speed_factor": _D.look_ahead_speed_factor,
            "fixed_look_ahead": _D.fixed_look_ahead, "heading_weight": _D.heading_weight,
            "max_yaw_delta": _D.max_yaw_delta, "crosstrack_gain": _D.crosstrack_gain}
_POSITION_ONLY = {"use_heading": False, "use_crosstrack": False}


@dataclass(frozen=True)
class Scenario:
    """One of the article's situations: every control's value, the moment (s) that shows it
    best, and what it shows, computed from the state."""

    name: str
    changes: dict
    moment: float
    claim: object  # SteeringState -> str

    @property
    def values(self) -> dict:
        return {**DEFAULTS, **self.changes}

    def changed(self, hidden: bool = False) -> str:
        """Which of the six tunables this preset changes, and our defaults ("" if
        none): a readout it moves (the heading weight) must not look like the formula's.
        ``hidden``: said for a page whose tunables' sliders are hidden (presenter mode hides
        "More controls"), in words that name what the car does, not a slider it cannot see."""
        check.flag(hidden, "hidden")
        changes = [(k, v) for k, v in self.changes.items()
                   if k in _NUMBER_NAMES and v != DEFAULTS[k]]
        if not changes:
            return ""
        if hidden:
            said = _(" and ").join(_HIDDEN_WORDS[k](v, DEFAULTS[k]) for k, v in changes)
            return " " + _("With this preset the car {said}.").format(said=said)
        parts = [_(_NUMBER_NAMES[k]).format(v=v, d=DEFAULTS[k]) for k, v in changes]
        return " " + _("This preset sets {parts}.").format(parts=_(" and ").join(parts))

    def describe(self, state, hidden: bool = False) -> str:
        """What the preset shows (computed from ``state``), and what it changed (``hidden``:
        see :meth:`changed`)."""
        check.instance(state, "state", SteeringState, "the SteeringApp's .state")
        return self.claim(state) + self.changed(hidden)


#: The six tunables (the article names them, our defaults give their values), as a
#: preset's description names them.
_NUMBER_NAMES = {"look_ahead_base": N_("look-ahead base {v:g} m (our default {d:g} m)"),
                 "look_ahead_speed_factor": N_("speed factor {v:g} s (our default {d:g} s)"),
                 "fixed_look_ahead": N_("fixed look-ahead {v:g} m (our default {d:g} m)"),
                 "heading_weight": N_("heading weight {v:g} (our default {d:g})"),
                 "max_yaw_delta": N_("max yaw delta {v:g}° (our default {d:g}°)"),
                 "crosstrack_gain": N_("crosstrack gain {v:g} per m (our default {d:g} per m)")}

#: The same changes said without the sliders' names, for a page that hides the sliders.
_HIDDEN_WORDS = {
    "look_ahead_base": lambda v, d: _("looks {v:g} m ahead when standing still (ours: "
                                      "{d:g} m)").format(v=v, d=d),
    "look_ahead_speed_factor": lambda v, d: _("adds {v:g} s of travel to that distance "
                                              "(ours: {d:g} s)").format(v=v, d=d),
    "fixed_look_ahead": lambda v, d: _("aims {v:g} m ahead at every speed (ours: "
                                       "{d:g} m)").format(v=v, d=d),
    "heading_weight": lambda v, d: _("aims {v:.0%} by the Heading Delta and {rest:.0%} by the "
                                     "Position Delta (ours: {d:.0%} and {ours_rest:.0%})").format(
                                         v=v, rest=1 - v, d=d, ours_rest=1 - d),
    "max_yaw_delta": lambda v, d: _("turns the wheel fully at a {v:g}° yaw command (ours: "
                                    "{d:g}°)").format(v=v, d=d),
    "crosstrack_gain": lambda v, d: _("steers back {v:g} per metre off the line (ours: "
                                      "{d:g})").format(v=v, d=d)}


def _long_claim(s: SteeringState) -> str:
    cte = s.trajectory.crosstrack_error
    from_start = run(s.track, "Article", s.params, s.speed, (0.0, *s.start[1:]))
    return _("The red point is already round the bend, so the yellow line cuts across the "
             "inside and the car follows it: up to {inside:.1f} m inside the hairpins (RMS "
             "{rms:.2f} m over 30 s starting {along:g} m along the track; from its start, as in "
             "section 3's table, {rms_start:.2f} m).").format(
                 inside=-cte.min(), rms=s.metrics['rms_crosstrack'], along=s.start[0],
                 rms_start=from_start.metrics['rms_crosstrack'])


def where_short_target() -> str:
    """Where the fixed short look-ahead point lies on the car: the look-ahead is measured
    from the rear axle, so 1.5 m ahead is under the body, not "in front of the bumper"."""
    car = Vehicle()
    return (_("{d:g} m ahead of the rear axle, under the car itself (its nose is {nose:g} m "
              "ahead)") if FIXED_SHORT < car.nose else
            _("{d:g} m ahead of the rear axle, in front of the car (its nose is {nose:g} m "
              "ahead)")).format(d=FIXED_SHORT, nose=car.nose)


def _short_claim(s: SteeringState) -> str:
    sw = s.sweep
    here = sw.at(s.speed)
    good = [r for r in sw.regions("rms") if r[0] == "Fixed short"]
    upto = (" " + _("Below {speed:.0f} m/s it is the best of the three.").format(
        speed=good[0][2] + 1) if good else "")
    return _("At {speed:.0f} m/s the target sits {where}: the slow steering rack cannot "
             "follow its swings and the car weaves: RMS {short:.2f} m against {adaptive:.2f} m "
             "adaptive, steering movement {movement:.0f}.").format(
                 speed=s.speed, where=where_short_target(), short=here['Fixed short'][0],
                 adaptive=here['Adaptive'][0],
                 movement=s.metrics['steering_movement']) + upto


#: A track as a sentence names it.
_TRACK_WORDS = {"oval": N_("oval"), "s_bend": N_("S-bend"), "hairpin": N_("hairpins"),
                "open_road": N_("open road"), SLOPE_TRACK: N_("ramp")}


def _adaptive_claim(s: SteeringState) -> str:
    sw = s.sweep
    worst = {m: float(sw.rms[i].max()) for i, m in enumerate(SWEEP_MODES)}
    lo, hi = sw.speeds[0], sw.speeds[-1]
    return _("No fixed distance suits every speed; the adaptive one never falls apart: worst "
             "RMS on the {track} over {lo:.0f}-{hi:.0f} m/s, starting {along:g} m along, "
             "{adaptive:.2f} m, against {short:.2f} m (fixed short) and {long:.2f} m (fixed "
             "long). The shading shows which one wins at each speed.").format(
                 track=_(_TRACK_WORDS.get(s.track, s.track)), lo=lo, hi=hi, along=s.start[0],
                 adaptive=worst['Adaptive'], short=worst['Fixed short'],
                 long=worst['Fixed long'])


def _sliding_claim(s: SteeringState) -> str:
    with_heading = run(s.track, "Article", s.params.replace(use_heading=True), s.speed, s.start)
    gap = np.abs(s.trajectory.position_delta).max()
    gap_h = np.abs(with_heading.trajectory.position_delta).max()
    cross = centre_line_crossings(s.trajectory.crosstrack_error)
    cross_h = centre_line_crossings(with_heading.trajectory.crosstrack_error)
    return _("Aiming at one point, the car turns in late: in the bends the yellow line opens "
             "up to {gap:.0f}° from its nose ({gap_h:.0f}° with Heading on), and it slides "
             "across the centre line {cross} times in {t:.0f} s ({cross_h} with Heading "
             "on).").format(gap=gap, gap_h=gap_h, cross=cross, t=s.trajectory.t[-1],
                            cross_h=cross_h)


def _signed(x: float) -> str:
    """As the readout writes an angle: +1.5, −6.8 (a real minus)."""
    return f"{x:+.1f}".replace("-", "\u2212")


def _parallel_claim(s: SteeringState) -> str:
    """Where the run is at 10 s, and how it got there: a car that crossed the line on the
    way is said to (issue 41: "never back on it" while it crossed at 7 s); its heading
    error is the one beside the car, told apart from the Heading Delta readout (at the
    look-ahead target, where the oval already bends)."""
    tr = s.trajectory
    k = int(np.searchsorted(tr.t, 10.0))
    cte = tr.crosstrack_error
    crossed = np.flatnonzero(np.sign(cte[1:k + 1]) != np.sign(cte[:k]))
    how = (_("it crosses the line at {t:.1f} s, overshoots, and ").format(
        t=tr.t[crossed[0] + 1]) if len(crossed) else "")
    return (_("Heading lines the car up with the road, and nothing pulls it the rest of the "
              "way: {how}after {t:.0f} s it runs {off:.2f} m right of the line, its nose only "
              "{nose:.1f}° off the road beside it (the Heading Delta readout, {delta}°, is the "
              "road's direction at the look-ahead target). It never settles within {tol} m.")
            if cte[k] > 0 else
            _("Heading lines the car up with the road, and nothing pulls it the rest of the "
              "way: {how}after {t:.0f} s it runs {off:.2f} m left of the line, its nose only "
              "{nose:.1f}° off the road beside it (the Heading Delta readout, {delta}°, is the "
              "road's direction at the look-ahead target). It never settles within {tol} m.")
            ).format(how=how, t=tr.t[k], off=abs(cte[k]), nose=abs(s.run.heading_error[k]),
                     delta=_signed(tr.heading_delta[k]), tol=SETTLE_TOLERANCE)


def _back_claim(s: SteeringState) -> str:
    return (_("The crosstrack term pushes the car back: it starts {off:.1f} m right of the "
              "line and stays within {tol} m of the line after {t:.1f} s.") if s.start[1] > 0
            else _("The crosstrack term pushes the car back: it starts {off:.1f} m left of the "
                   "line and stays within {tol} m of the line after {t:.1f} s.")).format(
                       off=abs(s.start[1]), tol=SETTLE_TOLERANCE, t=s.metrics['settle_time'])


def _ramp_claim(s: SteeringState) -> str:
    r = s.run
    k = 0
    ratio = r.world_up_crosstrack[k] / r.trajectory.crosstrack_error[k]
    slope = math.degrees(math.acos(min(1.0, ratio)))
    return _("On this {slope:.1f}° ramp cross(tangent, world up) is only cos {slope:.1f}° = "
             "{ratio:.2f} long: it reads the {off:.1f} m offset as {world:.2f} m. Up projected "
             "off the tangent gives a unit right vector and the true {true:.2f} m.").format(
                 slope=slope, ratio=ratio, off=s.start[1], world=r.world_up_crosstrack[k],
                 true=r.trajectory.crosstrack_error[k])


SCENARIOS = (
    Scenario(N_("Fixed long look-ahead cuts the corner"),
             {"track": "hairpin", "mode": "Fixed", "fixed_look_ahead": FIXED_LONG,
              "start_distance": 30.0, **_POSITION_ONLY}, 4.6, _long_claim),
    Scenario(N_("Fixed short look-ahead weaves at 16 m/s"),
             {"track": "hairpin", "speed": 16.0, "mode": "Fixed", "fixed_look_ahead": FIXED_SHORT,
              "view": "Speed sweep", **_POSITION_ONLY}, 9.0,
             _short_claim),
    Scenario(N_("Adaptive look-ahead at every speed"),
             {"track": "hairpin", "speed": 16.0, "view": "Speed sweep", **_POSITION_ONLY}, 9.0,
             _adaptive_claim),
    Scenario(N_("Position only slides across the line"),
             {"track": "hairpin", "start_distance": 30.0, **_POSITION_ONLY}, 4.6,
             _sliding_claim),
    Scenario(N_("Position + Heading: parallel but offset"),
             {"start_offset": 2.5, "heading_weight": 0.95, "use_crosstrack": False}, 10.0,
             _parallel_claim),
    Scenario(N_("All three: back to the centre line"),   # the lesson opens on its start
             {"start_offset": 2.5, "heading_weight": 0.95}, 0.0, _back_claim),
    Scenario(N_("Slope: world up vs projected up"),
             {"track": SLOPE_TRACK, "start_offset": 1.5}, 0.0, _ramp_claim),
)
