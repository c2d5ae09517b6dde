"""Bad and edge input over every public entry point of the apps, each call bounded in time
and memory: the app-side partner of ``tests/fuzz_maths.py``.

Entry points: every app's constructor (the lesson apps of the catalogue and the tuning
exercise) and its public methods, the lessons' figure helpers (``figures.py``), the
exercise helpers (``exercises.py``, ``core/exercise.py``). Each argument is drawn from its
parameter's name and default: mostly a sensible value (a control's name, a preset's, a
number in a plausible range, a point, the app itself), sometimes a nasty one (NaN, inf,
1e308, None, text, wrong shapes: ``fuzz_maths.nasty``). Each call is classified as in
``fuzz_maths`` (valid / refused with a ValueError from lessons_lib / other), and after each
app's calls the app must still answer a normal slider change with a drawing and no error.

    python tests/fuzz_apps.py --examples 20 --json out.json

It runs in the directory it is started from; ``save_gif`` writes its files there (the test
and the benchmark start it in a temporary one).
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import os
import signal
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "module://ipympl.backend_nbagg")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_maths as fm  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import lessons_lib  # noqa: E402
from lessons_lib import (
    apps,  # noqa: E402
    navmesh,  # noqa: E402
)
from lessons_lib.apps import fastdraw  # noqa: E402
from lessons_lib.apps.core import app as core_app  # noqa: E402
from lessons_lib.apps.core import controls as core_controls  # noqa: E402
from lessons_lib.apps.core import exercise as core_exercise  # noqa: E402
from lessons_lib.apps.core import figure as core_figure  # noqa: E402
from lessons_lib.apps.core import guard as core_guard  # noqa: E402
from lessons_lib.apps.core import layout as core_layout  # noqa: E402
from lessons_lib.apps.core import livedrag as core_livedrag  # noqa: E402
from lessons_lib.apps.core import text as core_text  # noqa: E402
from lessons_lib.apps.fastdraw import painter as fastdraw_painter  # noqa: E402
from lessons_lib.apps.fastdraw import player as fastdraw_player  # noqa: E402
from lessons_lib.apps.fastdraw import record as fastdraw_record  # noqa: E402
from lessons_lib.apps.fastdraw import textcache as fastdraw_textcache  # noqa: E402
from lessons_lib.apps.funnel import exercises as funnel_exercises  # noqa: E402
from lessons_lib.apps.funnel import figures as funnel_figures  # noqa: E402
from lessons_lib.apps.funnel import model as funnel_model  # noqa: E402
from lessons_lib.apps.funnel import panel as funnel_panel  # noqa: E402
from lessons_lib.apps.funnel import view as funnel_view  # noqa: E402
from lessons_lib.apps.gimbal import exercises as gimbal_exercises  # noqa: E402
from lessons_lib.apps.gimbal import model as gimbal_model  # noqa: E402
from lessons_lib.apps.gimbal import panel as gimbal_panel  # noqa: E402
from lessons_lib.apps.gimbal import view as gimbal_view  # noqa: E402
from lessons_lib.apps.interpolation import exercises as interpolation_exercises  # noqa: E402
from lessons_lib.apps.interpolation import figures as interpolation_figures  # noqa: E402
from lessons_lib.apps.interpolation import model as interpolation_model  # noqa: E402
from lessons_lib.apps.interpolation import panel as interpolation_panel  # noqa: E402
from lessons_lib.apps.interpolation import planes as interpolation_planes  # noqa: E402
from lessons_lib.apps.interpolation import view as interpolation_view  # noqa: E402
from lessons_lib.apps.steering import challenge as steering_challenge  # noqa: E402
from lessons_lib.apps.steering import exercises as steering_exercises  # noqa: E402
from lessons_lib.apps.steering import figures as steering_figures  # noqa: E402
from lessons_lib.apps.steering import model as steering_model  # noqa: E402
from lessons_lib.apps.steering import panel as steering_panel  # noqa: E402
from lessons_lib.apps.steering import terms as steering_terms  # noqa: E402
from lessons_lib.apps.steering import view as steering_view  # noqa: E402
from lessons_lib.apps.steering.challenge import TuningChallenge  # noqa: E402
from lessons_lib.apps.steering.terms import TermApp  # noqa: E402

APP_CLASSES = {name: getattr(apps, name) for name in sorted(apps.__all__)}
APP_CLASSES["TuningChallenge"] = TuningChallenge
APP_CLASSES["TermApp"] = TermApp      # lesson 3's small term figures (not in the catalogue)
#: The loop's plumbing (called by LessonApp, not by a learner or a notebook): hooks with no
#: input, and the ones that take the loop's own functions and widgets. The hooks that take
#: params, a state, a frame or a size (compute, draw, panel, frame_end, ...) are fuzzed.
LOOP = {"build", "layout", "dynamic_artists", "motion_artists", "motion_still", "pointer_cost",
        "preset_list", "batch",
        "update", "recompute", "redraw", "request_update", "control_widgets", "play_row",
        "preset_box", "add_gif_button", "guard_controls",
        "guard", "when_idle", "animate", "arrange"}   # given the loop's functions, widgets
#: Helpers that are not for learners: they rewrite files of the repository.
NOT_CALLED = {"write_stored_sweeps"}
#: matplotlib's drawing protocol: called by matplotlib with its own renderer, mid-draw.
PROTOCOL = {"StampedText.draw": "an Artist's draw(renderer)",
            "StaticLayer.draw": "an Artist's draw(renderer)",
            "WorldFaces.do_3d_projection": "mplot3d's depth sort, no argument",
            "TextCache.install": "hooks a renderer as matplotlib makes it",
            "TextCache.layout": "matplotlib's text layout, given its own font objects",
            "TextCache.glyph": "matplotlib's glyph raster, given its own font objects",
            # a matplotlib Text: its keyword arguments are matplotlib's, checked by matplotlib
            "StampedText": "a matplotlib Text, made with matplotlib's own keyword arguments",
            "WorldLine": "a matplotlib Line2D, made with matplotlib's own arguments",
            "WorldFaces": "a matplotlib PolyCollection, made with matplotlib's own arguments",
            "StaticLayer": "a matplotlib Artist of the figure it is made for",
            # the recorder of Play's frames: a matplotlib renderer, called by artists
            **{f"Recorder.{m}": "matplotlib's renderer protocol, called by an artist's draw"
               for m in ("draw_path", "draw_path_collection", "draw_markers", "draw_text",
                         "draw_image", "draw_gouraud_triangles", "get_canvas_width_height",
                         "points_to_pixels", "get_text_width_height_descent", "flipy",
                         "new_gc", "start_filter", "stop_filter")}}
MODULES = {"funnel.figures": funnel_figures, "funnel.exercises": funnel_exercises,
           "interpolation.figures": interpolation_figures,
           "steering.figures": steering_figures, "gimbal.exercises": gimbal_exercises,
           "core.exercise": core_exercise, "interpolation.exercises": interpolation_exercises,
           "steering.exercises": steering_exercises,
           # the models and the shared helpers a student may call from a notebook
           "funnel.model": funnel_model, "steering.model": steering_model,
           "gimbal.model": gimbal_model, "interpolation.model": interpolation_model,
           "core.layout": core_layout, "core.figure": core_figure, "core.app": core_app,
           "core.controls": core_controls, "core.text": core_text, "core.guard": core_guard,
           "core.livedrag": core_livedrag,
           "fastdraw": fastdraw, "fastdraw.painter": fastdraw_painter,
           "fastdraw.textcache": fastdraw_textcache,
           "fastdraw.record": fastdraw_record, "fastdraw.player": fastdraw_player,
           # each lesson's panel (the HTML beside its figure) and view (its drawing)
           "funnel.panel": funnel_panel, "gimbal.panel": gimbal_panel,
           "interpolation.panel": interpolation_panel, "steering.panel": steering_panel,
           "funnel.view": funnel_view, "gimbal.view": gimbal_view,
           "interpolation.view": interpolation_view, "steering.view": steering_view,
           "interpolation.planes": interpolation_planes,     # the small copy's figure
           "steering.terms": steering_terms, "steering.challenge": steering_challenge,
           "lessons_lib": lessons_lib}     # present()
#: Modules whose classes are results, mixins or plumbing (states, targets, the layout and
#: the guard's helpers): only their functions are entry points.
FUNCTIONS_ONLY = {"funnel.model", "gimbal.model", "interpolation.model", "steering.model",
                  "core.layout", "core.text", "core.guard", "fastdraw", "steering.terms",
                  "steering.challenge"}
#: Modules whose classes a lesson or a student makes (controls, the drag helper, the app's
#: helpers): their constructors are entry points, their methods the loop's plumbing.
CONSTRUCTORS_ONLY = {"core.figure", "core.app"}
#: How one of each exercise class is made, for its methods' calls.
EXAMPLES = {
    "NumberQuestion": lambda: core_exercise.NumberQuestion("How many?", 2.0, "Count them."),
    "ChoiceQuestion": lambda: core_exercise.ChoiceQuestion("Which?", ["a", "b"], "a",
                                                           hint="The first."),
    "CountQuestion": lambda: funnel_exercises.CountQuestion("How many bends?", 2.0,
                                                            "Count them.", "bends"),
    # the result classes whose methods a student may call, each from an app's own state
    "FunnelState": lambda: instance("FunnelApp").state,
    "BlendState": lambda: instance("InterpolationApp").state,
    "SteeringState": lambda: instance("SteeringApp").state,
    "Plane4D": lambda: interpolation_model.compute((0, 0, 0), (90, 30, 10)).plane,
    "SpeedProfile": lambda: next(iter(instance("InterpolationApp").state.profiles.values())),
    "Target": lambda: gimbal_model.reach_target(),
    "Scenario": lambda: steering_model.SCENARIOS[0],
    "EchoFilter": lambda: core_guard.EchoFilter(instance("GimbalApp").control_widgets()[0]),
    # the views and the drawing helpers: the apps' own
    "FunnelView": lambda: instance("FunnelApp").view,
    "GridView": lambda: instance("GridApp").view,
    "GimbalView": lambda: instance("GimbalApp").view,
    "BlendView": lambda: instance("InterpolationApp").view,
    "Planes": lambda: instance("InterpolationApp").view.planes,
    "SteeringView": lambda: instance("SteeringApp").scene,
    "StaticLayer": lambda: instance("InterpolationApp").view.static,
    "WorldLine": lambda: instance("GimbalApp").view.stand,
    "WorldFaces": lambda: instance("GimbalApp").view.aircraft,
    "Painter": lambda: fastdraw.attach(instance("GridApp").fig),
    # drags drawn by the page: an app's own (its page never said it is ready)
    "LiveDrag": lambda: instance("FunnelApp").live_drag,
    # Play drawn by the page: the recorder, a recorded animation, the player and its guard
    "Recorder": lambda: fastdraw_record.Recorder(
        instance("InterpolationApp").fig.canvas.get_renderer()),
    "FrameRecord": lambda: fastdraw_record.FrameRecord(),
    "Animation": lambda: _animation(),
    "RateGate": lambda: fastdraw_player.RateGate(),
    "MotionPlayer": lambda: fastdraw_player.MotionPlayer(),
    # the control specs, as a lesson makes them
    "Slider": lambda: core_controls.Slider("s", "S", 0.0, 1.0, value=0.5),
    "Choice": lambda: core_controls.Choice("c", "C", ["a", "b"]),
    "Toggle": lambda: core_controls.Toggle("t", "T"),
    "Frame": lambda: core_controls.Frame("f", "F", 0.0, 1.0),
    "Params": lambda: core_controls.Params({"s": 0.5}),
    "Preset": lambda: core_controls.Preset("p", {"s": 0.5}),
}
#: Result classes in FUNCTIONS_ONLY modules whose methods are entry points (made by EXAMPLES).
RESULT_METHODS = {"FunnelState", "BlendState", "SteeringState", "Plane4D", "SpeedProfile",
                  "Target", "Scenario", "EchoFilter"}
#: Classes of FUNCTIONS_ONLY modules that the apps make from what a page sends: their
#: constructors are entry points too.
HELPERS = {"EchoFilter"}
#: Documented infinite answers: a figure that shows no text has no smallest text.
fm.NAN_ALLOWED |= {("core.figure.smallest_text_px", "value"),
                   ("core.figure.smallest_font_pt", "value"),
                   # a query with no path has no clearance (FunnelState's default)
                   ("FunnelApp.compute", "clearance")}
#: A line's NaN gaps pass through the permutation to matplotlib's frame.
fm.PASS_THROUGH |= {"gimbal.view.to_plot"}
#: The wall time one call may take (a GIF of a whole animation is the slowest).
fm.CALL_SECONDS = 30.0


def _animation():
    """One frame of lesson 2's moving artists, recorded and packed."""
    app = instance("InterpolationApp")
    renderer = app.fig.canvas.get_renderer()
    frame = fastdraw_record.record_frame(app.painter.drawing_order(app.dynamic_artists()),
                                         renderer)
    return fastdraw_record.pack([frame], renderer.width, renderer.height, app.fig.dpi)


@functools.cache
def instance(name: str):
    """One app of each class, shared by its calls (as one page's app is)."""
    return APP_CLASSES[name]()


def controls_of(cls) -> dict:
    specs = {s.name: s for s in getattr(cls, "controls", ())}
    frame = getattr(cls, "frame", None)
    if frame is not None:
        specs[frame.name] = frame
    return specs


def good_value(spec):
    """A value a control can take, or close to its range."""
    if hasattr(spec, "options"):
        values = [v if not isinstance(v, tuple) else v[1] for v in spec.options]
        return st.sampled_from(values)
    lo, hi = getattr(spec, "min", 0.0), getattr(spec, "max", 1.0)
    if isinstance(getattr(spec, "value", None), bool) or type(spec).__name__ == "Toggle":
        return st.booleans()
    return st.floats(lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo))


NAMES = sorted({s for cls in APP_CLASSES.values() for s in controls_of(cls)} |
               {p.name for cls in APP_CLASSES.values() for p in getattr(cls, "presets", ())})
TEXT = st.one_of(st.sampled_from(NAMES + ["", "x", "hairpin", "YXZ", "position_delta", "ok",
                                          "error", "info", "side", "top"]),
                 st.text(max_size=12))
NUMBER = st.one_of(st.floats(-100, 100), st.integers(-3, 40), st.sampled_from([0, 1, 0.5]))
POINT = st.tuples(st.floats(-5, 25), st.floats(-5, 25))


#: Apps whose states the panels and views are given (each other's too, to be refused).
STATE_OWNERS = ["FunnelApp", "GridApp", "GimbalApp", "InterpolationApp", "SteeringApp",
                "TermApp"]


#: Each lesson's apps, whose states its panels and views take.
LESSON_APPS = {"funnel": ["FunnelApp", "GridApp"], "gimbal": ["GimbalApp"],
               "interpolation": ["InterpolationApp"],
               "steering": ["SteeringApp", "TermApp", "TuningChallenge"]}


def _add_new_lessons() -> None:
    """A lesson of the catalogue none of whose modules the lists above name (one added
    since): every module of its app package joins MODULES, its apps STATE_OWNERS and
    LESSON_APPS, and each object an app holds whose class the package defines (its state,
    its view) is the EXAMPLE those classes' methods are called on: the same rules as the
    four lessons', with nothing written here for a new one."""
    import importlib
    import pkgutil

    from lessons_lib.catalogue import app_registry

    listed = {m.__name__ for m in MODULES.values()}
    packages: dict[str, list[str]] = {}
    for name, package in app_registry().items():
        packages.setdefault(package, []).append(name)
    for package, names in sorted(packages.items()):
        if any(m == package or m.startswith(package + ".") for m in listed):
            continue
        key = package.rsplit(".", 1)[-1]
        LESSON_APPS[key] = names
        STATE_OWNERS.extend(names)
        for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
            MODULES[f"{key}.{info.name}"] = importlib.import_module(f"{package}.{info.name}")
        for name in names:
            app = instance(name)
            held = {"state": app.state} | {a: v for a, v in vars(app).items() if a != "state"}
            for attr, value in held.items():
                cls = type(value)
                if cls.__module__.startswith(package + ".") and cls.__name__ not in EXAMPLES:
                    EXAMPLES[cls.__name__] = functools.partial(_held, name, attr)


def _held(app: str, attr: str):
    """What app ``app`` holds as ``attr`` (its state, its view), for EXAMPLES."""
    return getattr(instance(app), attr)


_add_new_lessons()


def by_name(param: inspect.Parameter, owner: str | None, lesson: str = ""):
    """A sensible value for a parameter, from its name and its default (and for a state,
    mostly one of the lesson's own apps')."""
    n = param.name
    specs = controls_of(APP_CLASSES[owner]) if owner in APP_CLASSES else {}
    if n in specs:
        return good_value(specs[n])
    if n in ("app",):
        return st.sampled_from(sorted(APP_CLASSES)).map(instance)
    if n in ("fig", "figure"):
        return st.one_of(st.sampled_from(["GimbalApp", "GridApp"]).map(lambda a: instance(a).fig),
                         st.builds(plt.figure))
    if n in ("state",):
        own = st.sampled_from(LESSON_APPS.get(lesson, STATE_OWNERS))
        return st.one_of(own, own, own, st.sampled_from(STATE_OWNERS)).map(
            lambda a: instance(a).state)
    if n in ("w",):
        return st.sampled_from(sorted(APP_CLASSES)).flatmap(
            lambda a: st.sampled_from(instance(a).control_widgets()))
    if n in ("mesh",):
        return fm.once(navmesh.lesson_navmesh)
    if n in ("camera",):
        return st.builds(interpolation_view.Camera)
    if n in ("path",):
        return st.sampled_from(["out.gif", "sub/none.gif", "", "."])
    if n in ("start", "goal", "point"):
        return POINT
    if n in ("trajectory",):
        return st.just(None).map(lambda _: instance("SteeringApp").trajectory)
    if n in ("spline",):
        return st.just(None).map(lambda _: instance("SteeringApp").spline)
    if n in ("params",) and owner in APP_CLASSES:
        return st.just(owner).map(lambda a: instance(a).params)
    if n in ("state",) and owner in APP_CLASSES:
        return st.one_of(*[st.just(owner)] * 3, st.sampled_from(STATE_OWNERS)).map(
            lambda a: instance(a).state)
    if n in ("params",):
        return st.one_of(st.none(), st.just(None).map(
            lambda _: instance("SteeringApp").steering_params))
    if n in ("cases",):
        return st.lists(st.tuples(NUMBER), max_size=3)
    if n in ("values",):          # a path of values (record_motion, play_path) or not
        return st.one_of(st.lists(NUMBER, max_size=4), NUMBER)
    if n in ("fn", "reference"):
        return st.sampled_from([abs, math.sqrt, lambda x: x, lambda x: 1 / x])
    if n in ("options",):
        return st.one_of(st.lists(TEXT, max_size=4),
                         st.dictionaries(TEXT, st.none() | TEXT, max_size=3))
    if n in ("rows",):
        return st.lists(st.tuples(TEXT, TEXT), max_size=3)
    if n in ("columns", "tracks", "turns"):
        return st.lists(st.one_of(TEXT, NUMBER), max_size=4)
    if n in ("answer", "tol", "atol", "grade", "speed", "turn_deg", "width", "height",
             "target", "start_offset", "fps"):
        return NUMBER
    default = param.default
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int | float) and default is not inspect.Parameter.empty:
        return NUMBER
    if isinstance(default, str) or n in ("name", "order", "term", "kind", "text", "title",
                                         "caption", "label", "hint", "prompt", "explain",
                                         "track_name", "html_text", "preset"):
        return TEXT
    return st.one_of(NUMBER, TEXT, POINT)


def spec_of(fn, owner: str | None, skip_self: bool):
    """Strategies for (args, kwargs) of ``fn``: required ones always, optional ones
    sometimes, ``**kwargs`` as control names of the owner."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return st.just(((), {}))
    params = list(sig.parameters.values())[1 if skip_self else 0:]
    parts = getattr(fn, "__module__", "").split(".")
    lesson = parts[2] if len(parts) > 2 and parts[:2] == ["lessons_lib", "apps"] else ""
    args, optional, required = [], {}, {}
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            continue
        if p.kind is p.VAR_KEYWORD:
            names = sorted(controls_of(APP_CLASSES[owner])) if owner in APP_CLASSES else []
            if names:
                optional["__extra__"] = st.dictionaries(
                    st.sampled_from(names + ["nonsense"]), fm.either(NUMBER), max_size=2)
            continue
        s = fm.either(by_name(p, owner, lesson))
        if p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
            args.append(s)
        elif p.default is p.empty:      # a required keyword: always given
            required[p.name] = s
        else:
            optional[p.name] = s

    def assemble(drawn):
        a, kw = drawn
        extra = kw.pop("__extra__", {})
        return tuple(a), {**extra, **kw}

    return st.tuples(st.tuples(*args), st.fixed_dictionaries(required, optional=optional)).map(
        assemble)


def _methods(found: dict, prefix: str, cls, make) -> None:
    """The public methods ``cls`` defines itself, each called on one ``make()``."""
    maker = functools.cache(make)
    for meth, fn in vars(cls).items():
        fn = getattr(fn, "__func__", fn)
        if meth.startswith("_") or not inspect.isfunction(fn) or meth in NOT_CALLED \
                or fn.__module__ != cls.__module__ \
                or fn.__qualname__ in PROTOCOL:
            continue
        found[f"{prefix}.{meth}"] = (
            st.just(None).map(lambda _, m=meth, k=maker: getattr(k(), m)), None,
            fn if not isinstance(vars(cls)[meth], staticmethod) else ("static", fn))


def declared_states() -> dict[type, str]:
    """What an app declares as its ``state_type`` (a result its compute makes, never made by
    hand) -> the app's name."""
    return {c.state_type: n for n, c in APP_CLASSES.items() if c.state_type is not None}


def entry_points() -> dict[str, tuple]:
    """name -> (callable or strategy of callables, owner app or None, skip_self)."""
    found: dict[str, tuple] = {}
    states = declared_states()
    for name, cls in APP_CLASSES.items():
        found[f"{name}()"] = (cls, name, False)   # a class's signature has no self
        for meth, fn in inspect.getmembers(cls, inspect.isfunction):
            if meth.startswith("_") or meth in LOOP:
                continue
            bound = st.just(name).map(lambda n, m=meth: getattr(instance(n), m))
            found[f"{name}.{meth}"] = (bound, name, fn)
    for mod_name, mod in MODULES.items():
        for attr, obj in vars(mod).items():
            if attr.startswith("_") or attr in NOT_CALLED or getattr(obj, "__module__", "") \
                    != mod.__name__ or not callable(obj):
                continue
            if inspect.isclass(obj) and obj in APP_CLASSES.values():
                continue        # fuzzed as an app, with its owner's controls, above
            if inspect.isclass(obj) and obj in states:    # its methods, on the app's state
                _methods(found, f"{mod_name}.{attr}", obj,
                         lambda app=states[obj]: instance(app).state)
                continue
            if inspect.isclass(obj) and mod_name in FUNCTIONS_ONLY:
                if attr in RESULT_METHODS:
                    _methods(found, f"{mod_name}.{attr}", obj, EXAMPLES[attr])
                if attr in HELPERS:
                    found[f"{mod_name}.{attr}()"] = (obj, None, False)
                continue
            if inspect.isclass(obj) and obj.__qualname__ in PROTOCOL:
                _methods(found, f"{mod_name}.{attr}", obj, EXAMPLES.get(attr, obj))
                continue
            if inspect.isclass(obj):
                found[f"{mod_name}.{attr}()"] = (obj, None, False)
                if mod_name not in CONSTRUCTORS_ONLY:
                    _methods(found, f"{mod_name}.{attr}", obj, EXAMPLES.get(attr, obj))
            else:
                found[f"{mod_name}.{attr}"] = (obj, None, False)
    return found


def still_works(name: str) -> str | None:
    """What is wrong with the app after the calls (a normal change must redraw)."""
    app = instance(name)
    from test_fuzz_controls import redraws, sliders

    app.clear_message()
    moving = sliders(app)
    if moving and not any(redraws(app, w) for w in moving[:3]):
        return "a normal slider change no longer redraws the figure"
    if app.last_error is not None:
        return f"a normal change says: {app.last_error}"
    return None


def _barrage(name, group, fn_strategy, calls, examples, rng_seed, counts, others) -> None:
    @seed(rng_seed)
    @settings(max_examples=examples, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(fn_strategy, calls)
    def one(fn, call):
        args, kwargs = call
        kind, detail, _dt = fm.classify(name, fn, args, kwargs)
        counts[group]["calls"] += 1
        counts[group][kind] += 1
        if kind == "other" and len(others) < 1000:
            others.append({"function": name, "args": fm._short(args),
                           "kwargs": fm._short(kwargs), "problem": detail})

    one()


def run(examples: int, only: str | None = None, rng_seed: int = 13) -> dict:
    counts: dict[str, Counter] = defaultdict(Counter)
    others: list[dict] = []
    signal.signal(signal.SIGPROF, fm._alarm)
    for name, (target, owner, sig_fn) in entry_points().items():
        if only and only not in name:
            continue
        group = owner or name.split(".")[0] + "." + name.split(".")[1].rstrip("()")
        fn_strategy = target if isinstance(target, st.SearchStrategy) else st.just(target)
        static = isinstance(sig_fn, tuple)     # a staticmethod: called on an instance, no self
        sig_source = sig_fn[1] if static else sig_fn if callable(sig_fn) else target
        calls = spec_of(sig_source, owner, skip_self=sig_fn is not False and not static)

        _barrage(name, group, fn_strategy, calls, examples, rng_seed, counts, others)
        plt.close("all") if owner is None else None
    for name in APP_CLASSES:
        problem = still_works(name)
        counts[name]["calls"] += 1
        counts[name]["valid" if problem is None else "other"] += 1
        if problem:
            others.append({"function": f"{name} afterwards", "args": "", "kwargs": "",
                           "problem": problem})
    return {"counts": {m: dict(c) for m, c in counts.items()}, "others": others}


def main(argv=None) -> int:
    a = fm.command_line(argv, __doc__.splitlines()[0], "entry point")
    np.seterr(all="ignore")
    t0 = time.process_time()
    report = run(a.examples, a.only, a.seed)
    report["cpu_seconds"] = round(time.process_time() - t0, 1)
    print(fm.table(report))
    print(f"CPU {report['cpu_seconds']} s")
    for o in report["others"][:25]:
        print(f"OTHER {o['function']}{o['args']} {o['kwargs']}: {o['problem']}")
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1))
    return 0 if not report["others"] else 1


if __name__ == "__main__":
    sys.exit(main())
