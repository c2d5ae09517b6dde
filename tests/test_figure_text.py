"""Issue 29: every figure's text is whole and apart on every screen it is shown on.

The page-level sweep (test_browser_layout) checks that nothing on the page is clipped and that
text is big enough; this checks inside the figures, where the browser sees only a bitmap:
:func:`text_collisions` lists each visible text cut by the figure's edge and each pair of texts
that overlap. Every app of every lesson (and the lesson 3 term figures and tuning exercise, and
lesson 4's exercise copies) is fitted to the rooms the lessons are shown in, in normal and
presenter mode.
"""

from __future__ import annotations

import numpy as np
import pytest
from rooms import ROOMS

from lessons_lib import apps, pathsmooth
from lessons_lib.apps.core.figure import fit_axes, text_collisions
from lessons_lib.apps.funnel import figures as funnel_figures
from lessons_lib.apps.funnel.app import CURVE_GOAL, CURVE_START
from lessons_lib.apps.funnel.model import CURVE_SAMPLES
from lessons_lib.apps.steering import TuningChallenge, run_figure, slope_figure, sweep_figure
from lessons_lib.apps.steering.terms import TERMS, TermApp
from lessons_lib.catalogue import LESSONS, app_registry
from lessons_lib.i18n import set_language
from lessons_lib.navmesh import lesson_navmesh
from lessons_lib.steering import SteeringParams
from lessons_lib.tracks import track
from lessons_lib.vehicle import simulate

from lessons import KOREAN

MAKERS = {name: (lambda name=name: getattr(apps, name)()) for name in sorted(app_registry())}
MAKERS |= {f"TermApp-{term}": (lambda term=term: TermApp(term=term)) for term in TERMS}
# each app's small copy beside a question (the loop's copy())
MAKERS |= {f"{name}-copy": (lambda name=name: getattr(apps, name)().copy())
           for name in sorted(app_registry()) if getattr(apps, name).compact_size is not None}


def _beside_copies() -> dict:
    """The small copy beside each question of a lesson that tests/lesson_questions.py's
    MADE_BY does not list, made as its notebook makes it: a new lesson's exercise copies
    are fitted here with nothing written in this file."""
    import matplotlib.pyplot as plt
    from lesson_questions import MADE_BY, made_by

    found = {}
    for item in LESSONS:
        if item.notebook in MADE_BY:
            continue
        for name, make in made_by(item.notebook).items():
            for k, q in enumerate(make()):
                if q.beside is not None:
                    key = f"{type(q.beside).__name__}-beside-{name}-{k}"
                    found[key] = lambda make=make, k=k: make()[k].beside
    plt.close("all")
    return found


MAKERS |= _beside_copies()


def _challenge(checked: bool) -> TuningChallenge:
    """Lesson 3's tuning exercise as the notebook makes it; checked: after one Check, with
    its verdict over the plot and the run's limits."""
    challenge = TuningChallenge(track_name="hairpin", speed=12.0, target=0.25,
                                start_offset=2.0)
    if checked:
        challenge.check()
    return challenge


MAKERS["TuningChallenge"] = lambda: _challenge(False)
MAKERS["TuningChallenge-checked"] = lambda: _challenge(True)


def _steering_run_figure():
    hairpin = track("hairpin")
    run = simulate(hairpin, SteeringParams(use_heading=False), 12.0, 30.0, start_offset=2.0)
    return run_figure(run, hairpin, title="the mystery run: default settings, one term off")


def _funnel_curve_figure():
    mesh = lesson_navmesh()
    across = mesh.route(CURVE_START, CURVE_GOAL)
    curve = pathsmooth.catmull_rom(across.path, samples=CURVE_SAMPLES)
    off = np.array([mesh.locate(q) is None for q in curve])
    return funnel_figures.curve_figure(mesh, across.path, curve, curve[off])


#: The notebooks' figures that keep one size (pictures beside the prose, an exercise's
#: plot), made as the notebooks make them.
FIXED = {
    "slope_figure": lambda: slope_figure(grade=0.5),
    "run_figure": _steering_run_figure,
    "sweep_figure": sweep_figure,
    "cost_figure": lambda: funnel_figures.cost_figure(
        [funnel_figures.string_pull_work(n) for n in (2, 4, 8, 12, 16)],
        [funnel_figures.funnel_work(n) for n in (10, 30, 100, 300, 1000)]),
    "curve_figure": _funnel_curve_figure,
}


def _collisions_at_every_size(app, where: str) -> list[str]:
    """Fit ``app`` to every room, normal and presenter, and list what collides where."""
    found = []
    for present in (False, True):
        app.present(present)
        for room, size in ROOMS.items():
            app.fit(*size)
            mode = "presenter" if present else "normal"
            found += [f"{where}, {room} {mode}: {c}" for c in text_collisions(app.fig)]
    app.present(False)
    return found


def _frames(app) -> list:
    """The first, middle and last frame of the app's Play control (none: just as it is)."""
    frame = app.frame
    if frame is None:
        return [None]
    return [frame.at(k) for k in sorted({0, frame.count // 2, frame.count})]


#: The apps of the lessons that have a Korean notebook, made and fitted again in Korean:
#: Hangul is wider and taller than Latin text, and the labels must still fit.
KOREAN_APPS = {name for item in KOREAN for name, _module in item.apps}
MAKERS |= {f"ko:{key}": MAKERS[key] for key in list(MAKERS)
           if key.split("-")[0] in KOREAN_APPS}


@pytest.fixture(params=sorted(MAKERS))
def app(request):
    korean = request.param.startswith("ko:")
    set_language("ko" if korean else "en")
    try:
        yield MAKERS[request.param]()
    finally:
        set_language(None)


def test_figure_text_is_whole_and_apart_at_every_size(app):
    """The app as a student first sees it, at every size, normal and presenter."""
    assert _collisions_at_every_size(app, "as opened") == []


@pytest.mark.slow
def test_figure_text_is_whole_and_apart_in_every_preset_and_frame(app):
    """Every preset at its first, middle and last frame (where a car, a plane or a funnel
    has moved its labels), at every size, normal and presenter."""
    found = []
    for preset in app.preset_list() or [None]:
        if preset is not None:
            app.preset.value = preset.name
        for value in _frames(app):
            if value is not None:
                app.frame_slider.value = value
            where = f"{getattr(preset, 'name', 'as opened')!r} at frame {value}"
            found += _collisions_at_every_size(app, where)
    assert found == [], f"{len(found)} collisions, first: {found[:12]}"


@pytest.mark.parametrize("name", sorted(FIXED))
def test_the_notebooks_fixed_size_figures_keep_their_text_whole_and_apart(name):
    assert text_collisions(FIXED[name]()) == []


def test_the_check_finds_a_cut_and_an_overlap():
    """The check itself: a text pushed over the figure's edge and two texts in one place."""
    app = apps.GimbalApp()
    app.fit(*ROOMS["1280x720"])
    assert text_collisions(app.fig) == []
    ax = app.fig.axes[0]
    cut = app.fig.text(0.99, 0.5, "over the edge")
    one, two = ax.text(0, 0, 0, "first"), ax.text(0, 0, 0, "second")
    try:
        found = text_collisions(app.fig)
        assert "'over the edge' is cut by the figure's edge" in found
        assert "'first' overlaps 'second'" in found
    finally:
        for text in (cut, one, two):
            text.remove()


@pytest.mark.parametrize("region", [(0.5, 0.0, 0.4, 1.0), (-0.1, 0.0, 1.0, 1.0),
                                    (0.0, 0.0, 1.0, 1.5), (0.0, 0.3, 1.0, 0.3)])
def test_fit_axes_refuses_a_region_outside_the_figure(region):
    app = _challenge(False)
    with pytest.raises(ValueError, match="fit_axes: region"):
        fit_axes(app.ax_ct, region)


def test_the_check_finds_a_text_crossing_its_panels_frame():
    """Lesson 2's readouts under the aeroplanes crossed their frames at 853x480 and in
    presenter mode (each frame shrank to the drawing's shape inside a wider slot): the
    check sees a text past a framed panel's edge, and the panels now fill their slots."""
    app = apps.InterpolationApp()
    app.present(True)
    app.fit(*ROOMS["1280x720"])
    assert text_collisions(app.fig) == []
    ax = app.view.planes.ax["slerp"]
    slot = ax.get_position(original=True)
    assert ax.get_position().width == pytest.approx(slot.width)     # the frame fills it
    wide = ax.text(0.5, 0.5, "a sentence much wider than the aeroplane's panel",
                   transform=ax.transAxes, ha="center")
    try:
        assert ("\"a sentence much wider than the aeroplane's panel\" crosses its "
                "panel's frame") in text_collisions(app.fig)
    finally:
        wide.remove()
