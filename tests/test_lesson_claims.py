"""Lessons 1 to 3: the summaries, exercises and sentences with numbers, against the models.

A summary bullet is a claim like any other: each number it gives is measured here from the
model of the app it sums up, and each general statement is checked on every preset.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from lessons_lib.apps.core.text import fmt_number
from lessons_lib.apps.interpolation.model import PRESETS, SAME_PATH_DEG, compute
from lessons_lib.catalogue import lesson

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: The source articles (as in test_attributions.py), for checks of what an article says.
SEEDS = Path(os.environ.get("LESSONS_SEEDS", NOTEBOOKS.parent.parent / "shared" / "seeds"))
WIDE = "Wide three-axis turn"
ARTICLE = "Article 001: yaw and roll 0° → 45°"
ONE_AXIS = "One axis only: yaw 0° → 120°"


def cells(lesson: str) -> list:
    return nbformat.read(NOTEBOOKS / lesson, as_version=4).cells


def lesson2_summary() -> str:
    return " ".join(next(c.source for c in cells(lesson(2).notebook)
                         if c.cell_type == "markdown" and c.source.startswith("## Summary"))
                    .split())


def preset_state(name: str):
    p = PRESETS[name]
    return compute(p.start, p.end)


def test_euler_lerp_is_right_only_when_one_angle_changes():
    for name, p in PRESETS.items():
        state = preset_state(name)
        changed = sum(a != b for a, b in zip(p.start, p.end, strict=True))
        right = (state.path_gap["euler"] < SAME_PATH_DEG
                 and state.profiles["euler"].kind == "steady")
        assert right == (changed == 1 and name != "Wrap-around: yaw −175° → 175°"), name
    assert "Euler lerp is right only when one angle changes" in lesson2_summary()


def test_summary_detour_and_speed_numbers_are_the_wide_turns():
    state, text = preset_state(WIDE), lesson2_summary()
    prof = state.profiles["euler"]
    assert prof.kind == "falls"
    assert (f"{fmt_number(state.totals['euler'], 0)}° for a "
            f"{fmt_number(state.true_angle, 0)}° change") in text
    assert f"only slows down, from {fmt_number(prof.start, 0)} to {fmt_number(prof.end, 0)}°/t" \
        in text


def test_summary_names_the_steady_exception_article_001():
    """The old bullet said Euler lerp "changes speed" whenever more than one angle changes;
    the Article 001 preset (yaw and roll together) keeps a steady pace: |ω| = 45√2 °/t."""
    state, text = preset_state(ARTICLE), lesson2_summary()
    prof = state.profiles["euler"]
    assert prof.kind == "steady" and prof.high == pytest.approx(45 * 2 ** 0.5, rel=1e-3)
    assert state.path_gap["euler"] > SAME_PATH_DEG                  # but it is a detour
    assert f"keep a steady {fmt_number(prof.high, 0)}°/t" in text
    assert (f"detour of {fmt_number(state.totals['euler'], 1)}° for a "
            f"{fmt_number(state.true_angle, 1)}° change") in text


def test_what_goes_wrong_keeps_composing_apart_from_blending():
    """Issue 41: "What goes wrong" went from "angles don't compose" (article 001) straight
    to "because of that, equal steps in the angles are not equal steps in orientation",
    which Article 001's own pair belies (a steady 64°/t). Two subsections now, and the
    claims of the second are the presets'."""
    text = "\n".join(c.source for c in cells(lesson(2).notebook)
                     if c.cell_type == "markdown")
    section = text[text.index("## What goes wrong"):text.index("### Exercise 1")]
    compose = section[section.index("### Angles do not compose"):
                      section.index("### Lerp's path and speed")]
    blend = " ".join(section[section.index("### Lerp's path and speed"):].split())
    assert not re.search(r"speed|steady|pace|equal steps", compose, re.I), compose
    assert "Because the angles do not add" not in section
    assert "the speed is uneven too" in blend and "keep a steady pace" in blend
    assert preset_state(WIDE).profiles["euler"].kind != "steady"
    article = preset_state(ARTICLE)
    assert article.profiles["euler"].kind == "steady"
    assert article.path_gap["euler"] > SAME_PATH_DEG           # "still not the shortest"
    one = preset_state(ONE_AXIS)                              # one angle, 120° < 180°
    assert one.profiles["euler"].kind == "steady" and one.path_gap["euler"] < SAME_PATH_DEG


# -- first views ----------------------------------------------------------------------------------
def test_lesson_2_corrects_article_004_on_what_w_holds():
    """Issue 41: article 004 says w holds the rotation value in radians, and nothing in the
    lessons said otherwise. Lesson 2 now says w = cos(θ/2), with a worked example."""
    import math

    from lessons_lib.rotations import euler_to_quaternion

    text = " ".join(" ".join(c.source.split()) for c in cells(lesson(2).notebook)
                    if c.cell_type == "markdown")
    assert "Article 004 reads `x, y, z` as the axis and `w` as the turn in radians" in text
    assert "`w` is not the angle: it is `cos(θ/2)`" in text
    m = re.search(r"A yaw of (\d+)° is `\(w, x, y, z\) = \(([^)]*)\)`: `w` is cos (\d+)°, "
                  r"not π/2 = (\d+\.\d+)", text)
    assert m, "the worked example is gone"
    yaw, said, half, angle = float(m[1]), m[2], float(m[3]), float(m[4])
    q = euler_to_quaternion(yaw, 0, 0)
    assert [float(v) for v in said.split(",")] == pytest.approx([q.w, q.x, q.y, q.z], abs=5e-4)
    assert half == yaw / 2 and q.w == pytest.approx(math.cos(math.radians(half)))
    assert angle == pytest.approx(math.radians(yaw), abs=5e-4)
    assert "The angle comes back as θ = 2 arccos w." in text
    assert math.degrees(2 * math.acos(q.w)) == pytest.approx(yaw)
    seeds = list(SEEDS.glob("004_*.txt")) if SEEDS.is_dir() else []
    if seeds:                        # the article does say radians for w
        assert "w의 회전값(radian)" in seeds[0].read_text()


def test_lesson_2_opens_where_the_three_planes_differ():
    """At t = 1 the three blends all sit on the end orientation: a first view there shows
    three identical planes. It opens at a t where each pair differs, visibly in the drawn
    bodies and in the numbers under them."""
    from lessons_lib.apps import InterpolationApp
    from lessons_lib.rotations import angle_between

    app = InterpolationApp()
    assert 0 < app.t.value < 1
    methods = ("euler", "nlerp", "slerp")
    for i, a in enumerate(methods):
        for b in methods[i + 1:]:
            assert angle_between(app.current[a], app.current[b]) > 1.0, (a, b)
            va, vb = ([p.vertices for p in app.view.bodies[m].get_paths()] for m in (a, b))
            assert any(not np.allclose(pa, pb, atol=1e-3)
                       for pa, pb in zip(va, vb, strict=True)), (a, b)
    texts = {m: app.view.readouts[m].get_text() for m in methods}
    assert len(set(texts.values())) == 3, texts


# -- lesson 1's panel, in plain words --------------------------------------------------------------
def gimbal_state(yaw, pitch, roll, order="YXZ"):
    from lessons_lib.apps.gimbal import model

    return model.compute_state(yaw, pitch, roll, order)


def test_lock_measure_is_said_as_what_the_hardest_turn_costs():
    from lessons_lib.apps.gimbal import panel

    for angles, order in (((35, -20, 15), "YXZ"), ((0, 0, 0), "YXZ"), ((10, 20, 85), "XYZ")):
        state = gimbal_state(*angles, order)
        text = panel.gauge(state)
        assert "singular" not in text and "1 free" not in text
        cost = fmt_number(1 / state.lock_measure, 1)
        assert f"The hardest 1° turn takes <b>{cost}°</b> of ring motion" in text
    assert "The hardest 1° turn takes <b>1.0°</b>" in panel.gauge(gimbal_state(0, 0, 0))
    assert "cannot turn the aircraft at all" in panel.gauge(gimbal_state(0, 90, 0))


def test_the_gauges_near_lock_rule_is_the_badges_on_the_whole_slider():
    """Issue 41: "pitch past ±80°" read "free, 80.0° apart" at 170 on the ±180 slider."""
    from lessons_lib.apps.gimbal import panel

    for order in ("YXZ", "ZXY"):
        for middle in range(-178, 180, 4):   # through ±90 and 88, 92, 82, 78, 98, 102
            angles = dict(zip(("yaw", "pitch", "roll"), (20, 30, 40), strict=True))
            name = gimbal_state(0, 0, 0, order).names[1]
            angles[name] = middle
            state = gimbal_state(angles["yaw"], angles["pitch"], angles["roll"], order)
            text = panel.gauge(state)
            rule = re.search(rf"{name} within (\d+)° of ±90°", text)
            assert rule, text
            said_near = abs(abs(middle) - 90) < float(rule.group(1))
            assert said_near == (state.badge != "free"), (order, middle, state.badge)


def test_pitch_88_read_back_says_the_articles_row_is_off():
    """"Read back: the same numbers as the sliders (its pole branch ...)" read as if every
    row matched; the article's row is off, and the sentence says so with the number."""
    from lessons_lib.apps.gimbal import panel

    state = gimbal_state(30, 88, 20)
    text = panel.numbers(state)
    assert "Read back from R: the same numbers as the sliders." in text
    assert (f"Article 004's code snapped to its pole branch (pitch ±90, roll 0, yaw = "
            f"±2·atan2(y, x)): <b>{fmt_number(state.article_error, 2)}° off</b>.") in text
    assert "Article 004's code agrees." in panel.numbers(gimbal_state(30, 20, 10))


def test_other_orders_run_the_articles_recipe_adapted_not_its_code():
    from lessons_lib.apps.gimbal import panel

    for order in ("XYZ", "XZY", "YZX", "ZXY", "ZYX"):
        text = panel.numbers(gimbal_state(30, 88, 20, order))
        assert f"article 004's recipe, adapted to {order}" in text
        assert "article 004's code" not in text
    assert "article 004's code" in panel.numbers(gimbal_state(30, 88, 20))


# -- lesson 1's exercises -----------------------------------------------------------------------
@pytest.mark.parametrize("order", ["YXZ", "ZXY", "XYZ", "ZYX"])
def test_reach_hint_says_which_way_to_turn_each_ring_and_both_ways_reach(order):
    from lessons_lib import rotations as rot
    from lessons_lib.apps.gimbal import ReachExercise

    ex = ReachExercise(order)
    target, text = ex.target, ex.hint_text()
    names = rot.ring_angle_names(order)
    start = dict(zip(("yaw", "pitch", "roll"), target.start, strict=True))
    goal = dict(zip(("yaw", "pitch", "roll"), target.angles, strict=True))
    # the other branch: the middle ring past ±90°, the outer and inner rings half a turn on
    wrap = lambda a: (a + 180) % 360 - 180                     # noqa: E731
    mid = 180 - goal[names[1]] if start[names[1]] > 0 else -180 - goal[names[1]]
    other = {names[0]: wrap(goal[names[0]] + 180), names[1]: mid,
             names[2]: wrap(goal[names[2]] + 180)}
    assert target.reached(*(other[n] for n in ("yaw", "pitch", "roll")))
    assert target.reached(*target.angles)
    for name in names:
        said = "down (drag it left)" if goal[name] < start[name] else "up (drag it right)"
        assert f"{name} {said}" in text
        assert (other[name] - start[name]) * (goal[name] - start[name]) < 0   # "the other way"
    assert f"Turning {names[1]} the other way works too" in text


def test_lesson_2_exercise_1_names_the_sign_slip():
    from lessons_lib.apps.interpolation import exercises

    question = exercises.lerp_turn_question()
    ok, message = question.judge("−270")
    assert not ok and "sign" in message and "too low" not in message
    assert question.judge("270")[0]


def test_exercise_2_shows_the_zxy_lock_from_above_where_the_shared_axis_is_long():
    """In the 3/4 view the ZXY lock's outer arrow points nearly at the reader; "Show this
    case" turns the small copy to the top view, where the two arrows that line up (outer
    and inner) are both long on screen (and the rings are circles, not edge-on)."""
    from lessons_lib.apps import GimbalApp
    from lessons_lib.apps.gimbal.view import VIEWS

    def arrow_pixels(app):
        app.fig.canvas.draw()
        out = []
        for line in app.view.arrow_lines:
            xy = app.view.ax.transData.transform(np.column_stack(line.get_data()))
            out.append(float(np.linalg.norm(xy[-1] - xy[0])))
        return out

    mini = GimbalApp().copy()
    mini.show_case(order="ZXY", locked=True)
    three_quarter = arrow_pixels(mini)
    mini.show_case(order="ZXY", locked=True, view="top")
    assert mini.view.camera() == VIEWS["top"]
    top = arrow_pixels(mini)
    assert min(top[0], top[2]) > 1.5 * three_quarter[0]
    with pytest.raises(ValueError, match="unknown view"):
        mini.show_case(view="under")
    from lessons_lib.apps.gimbal import exercises

    question = exercises.zxy_lock_question(mini)
    question.show_button.click()
    assert mini.view.camera() == VIEWS["top"] and mini.order.value == "ZXY"
    assert mini.state.badge == "locked"
    assert "coloured dashed lines" in question.reasons["roll's and pitch's"]


# -- lesson 2's exercise 3: its own small copy -----------------------------------------------------
def test_exercise_3_show_this_case_moves_a_small_copy_beside_the_question():
    """'Show this case' used to change the big app about 3,000 px up the page, and then a copy
    in the cell above the question (off screen once the question was read); the question now
    lays out a small copy of the lesson's app (``app.copy()``: the three planes) beside it
    (above it on a narrow page)."""
    from lessons_lib.apps import InterpolationApp
    from lessons_lib.apps.interpolation import exercises

    sources = [c.source for c in cells(lesson(2).notebook) if c.cell_type == "code"]
    q = next(i for i, s in enumerate(sources) if "exercises.halfway_question" in s)
    assert sources[q].startswith("exercises.halfway_question(app.copy())")
    assert any(s.startswith("app = InterpolationApp()") for s in sources[:q])
    halfway = InterpolationApp().copy()
    question = exercises.halfway_question(halfway)
    assert question.beside is halfway and halfway.t.value != 0.5
    question.show_button.click()
    assert halfway.t.value == 0.5
    with pytest.raises(ValueError, match="lesson 2's app"):
        exercises.halfway_question("halfway")


def test_the_small_copy_shows_what_exercise_3_asks_about():
    """The copy beside exercise 3 starts on the pair the app holds (the opening turn when the
    page is run from the top, as the prose says) and shows the same three planes, small."""
    from lessons_lib.apps import InterpolationApp

    text = " ".join(c.source for c in cells(lesson(2).notebook) if c.cell_type == "markdown")
    said = "a copy of the app above, made on the pair the app held at that moment"
    assert said in " ".join(text.split())
    big = InterpolationApp()
    small = big.copy()
    assert small.t.value == big.t.value
    assert (small.yaw0.value, small.pitch0.value, small.roll0.value) == (30, -20, 10)
    texts = {m: small.view.planes.readouts[m].get_text() for m in small.current}
    assert texts == {m: big.view.readouts[m].get_text() for m in big.current}
    assert len(set(texts.values())) == 3                        # three different planes
    small.set(t=0.5)
    half = {m: small.view.planes.readouts[m].get_text().split("\n") for m in small.current}
    for m in ("nlerp", "slerp"):                                # "60° from start, 60° to end"
        assert half[m][0].split("°")[0] == half[m][1].split("°")[0]
    assert half["euler"][0].split("°")[0] != half["euler"][1].split("°")[0]
    assert small.fig.get_size_inches()[0] < 0.7 * big.fig.get_size_inches()[0]


def test_the_small_copy_refuses_bad_angles_before_any_figure():
    import matplotlib.pyplot as plt

    from lessons_lib.apps import InterpolationApp

    app = InterpolationApp()
    before = plt.get_fignums()
    with pytest.raises(ValueError):
        app.copy(yaw0=float("nan"))
    with pytest.raises(ValueError, match="'pitch' goes from -90 to 90"):
        app.copy(pitch0=120)
    assert plt.get_fignums() == before


# -- lesson 1's picture: labels clear of what they are about ------------------------------------
def _segments_under(app, lines, boxes):
    app.fig.canvas.draw()
    hits = []
    for n, line in enumerate(lines):
        xy = app.view.ax.transData.transform(np.column_stack(line.get_data()))
        pts = xy[0] + np.linspace(0, 1, 40)[:, None] * (xy[-1] - xy[0])
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            if np.any((pts[:, 0] > x0) & (pts[:, 0] < x1) & (pts[:, 1] > y0) & (pts[:, 1] < y1)):
                hits.append((k, n))
    return hits


def test_at_the_lock_no_ring_label_covers_the_arrows_or_the_shared_axis():
    """The "pitch −90°" label sat on the dashed line the outer and inner axes share, in the
    lesson's app (Lock it from the opening pose) and in exercise 3's small copy."""
    from lessons_lib.apps import GimbalApp

    big = GimbalApp()
    big.lock_it()
    small = big.copy()
    small.show_case(order="YXZ", yaw=0.0, pitch=90.0, roll=0.0)
    for app in (big, small):
        boxes = app.view.label_boxes()
        assert _segments_under(app, app.view.arrow_lines, boxes) == []
        assert _segments_under(app, app.view.axis_lines, boxes) == []


def test_world_axes_labels_never_overlap_from_any_camera():
    """'X' and 'Y up' overlapped in the top view and after some orbits."""
    import itertools

    from matplotlib.transforms import Bbox

    from lessons_lib.apps import GimbalApp

    app = GimbalApp().copy()
    for elev, azim in itertools.product(range(-90, 91, 30), range(-180, 180, 40)):
        app.view.ax.view_init(elev, azim)
        app.view.follow_camera()
        app.fig.canvas.draw()
        boxes = [Bbox.from_extents(*b) for b in app.view.gizmo_boxes()]
        assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2)), (elev, azim)


def test_lesson_1_arrows_between_angles_always_mean_outer_to_inner():
    """Issue 41: the prose's "Roll → Pitch → Yaw" (the order applied) beside the menu's
    "YXZ: yaw → pitch → roll" (the rings, outer to inner) used one arrow in two senses."""
    from lessons_lib.apps.gimbal import panel
    from lessons_lib.rotations import ORDERS, ring_angle_names

    chain = re.compile(r"(?:`?\"?([XYZ]{3})\"?`?:?\s*)?\**(yaw|pitch|roll) → (yaw|pitch|roll) → "
                       r"(yaw|pitch|roll)", re.I)
    text = " ".join(c.source for c in cells(lesson(1).notebook) if c.cell_type == "markdown")
    menu = " ".join(panel.order_label(o, ring_angle_names(o)) for o in ORDERS)
    assert len(chain.findall(menu)) == len(ORDERS)
    for where in (text, menu):
        for match in chain.finditer(where):
            order, names = match.group(1), tuple(n.lower() for n in match.groups()[1:])
            assert order and names == ring_angle_names(order), match.group(0)


def test_lesson_1_says_what_a_ring_colour_means_and_the_app_shows_it():
    """Issue 41: the colours follow the ring's place, so yaw is blue in YXZ and green in ZXY;
    the page and the app now say so."""
    from lessons_lib.apps import GimbalApp
    from lessons_lib.apps.core import PALETTE
    from lessons_lib.apps.gimbal.view import RING_COLOURS, RING_NAMES

    text = " ".join(c.source for c in cells(lesson(1).notebook) if c.cell_type == "markdown")
    text = " ".join(text.split())
    key = re.search(r"\((\w+) outer, (\w+) middle, (\w+) inner\)", text)
    assert key and [PALETTE[c] for c in key.groups()] == list(RING_COLOURS)
    app = GimbalApp().copy()
    for place, colour in zip(RING_NAMES, RING_COLOURS, strict=True):
        assert f'<b style="color:{colour}">{place}</b>' in app.order_note.value
    said = re.findall(r"(yaw|pitch|roll) is (\w+) in ([XYZ]{3}) and (\w+) in ([XYZ]{3})", text)
    assert said
    for name, *pairs in said:
        for colour, order in zip(pairs[::2], pairs[1::2], strict=True):
            app.order.value = order
            assert app.sliders[name].style.handle_color == PALETTE[colour], (name, order)


def test_fly_it_into_the_lock_has_its_own_copy_right_under_its_steps():
    """Issue 41: section 5's "Fly it into the lock" steps used the copy beside exercise 2,
    three screens up."""
    notebook = cells(lesson(1).notebook)
    k = next(i for i, c in enumerate(notebook) if "**Fly it into the lock.**" in c.source)
    steps, below = notebook[k].source, notebook[k + 1]
    assert "just below" in steps and "Exercise 2" not in steps
    assert below.cell_type == "code" and below.source.startswith("app.copy()")
    from lessons_lib.apps import GimbalApp

    app = GimbalApp().copy()
    assert app.compact and app.can_fly and app.order.value == "YXZ"
    assert ("fin", "top") in app.turn_about.options         # the steps' "pick fin"


def test_lesson_1_sentences_about_the_lock_animation_and_the_costly_turn():
    """"The middle ring swings to ±90° in about a second"; "far from the lock the angles move by
    a few degrees; one degree from it, yaw and roll have to swing by tens of degrees"."""
    from lessons_lib.apps.gimbal import model
    from lessons_lib.flight import body_turn

    text = " ".join(c.source for c in cells(lesson(1).notebook) if c.cell_type == "markdown")
    text = " ".join(text.split())
    assert "The middle ring swings to ±90° in about a second" in text
    assert 0.6 <= model.LOCK_FRAMES * model.LOCK_INTERVAL_MS / 1000 <= 1.4
    assert ("Far from the lock the angles move by a few degrees; one degree from it, yaw and "
            "roll have to swing by tens of degrees") in text
    far = body_turn(30, 30, 20, "top", 2.0)
    near = body_turn(30, 89, 20, "top", 2.0)
    assert all(abs(a - b) < 5 for a, b in zip(far.angles, (30, 30, 20), strict=True))
    assert abs(near.angles[0] - 30) >= 20 and abs(near.angles[2] - 20) >= 20


# -- lesson 1's exercises 2 and 3: each has its own small copy beside it ----------------------
def _run_cell(source: str, namespace: dict):
    """Run a code cell's statements in ``namespace``; the value of its last expression."""
    import ast

    tree = ast.parse(source)
    last = tree.body.pop() if isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    return None if last is None else eval(compile(ast.Expression(last.value), "<cell>", "eval"),
                                          namespace)


@pytest.mark.parametrize("prompt", ["exercises.zxy_lock_question(",
                                    "exercises.lost_turn_question("])
def test_lesson_1_show_this_case_changes_the_copy_beside_its_question(prompt):
    """Both questions changed one small copy in a cell above exercise 2: at 1280x720 it was
    out of the window (its bottom about 90 px above the top for exercise 2, 300 px for
    exercise 3), so the button seemed to do nothing. Each now lays its own copy beside it."""
    import matplotlib.pyplot as plt

    code = [c.source for c in cells(lesson(1).notebook) if c.cell_type == "code"]
    namespace: dict = {}
    exec(code[0].replace("%matplotlib widget", ""), namespace)       # the imports
    _run_cell(next(s for s in code if s.startswith("app = GimbalApp()")), namespace)
    question = _run_cell(next(s for s in code if prompt in s), namespace)
    try:
        app = question.beside
        assert app is not None and question.show_button is not None
        assert app.compact and app.state.lock_angle > 10          # a small copy, not locked
        question.show_button.click()
        assert app.state.lock_angle < 1e-6                         # this copy is now locked
    finally:
        plt.close("all")


def test_lesson_1_exercise_1_names_the_sign_slip_and_the_cosine():
    """Typing 0.5 (the minus sign left out) was answered "0.5 is too high", which sends a
    learner after the size, not the sign; 0.866 (the cosine beside it) likewise."""
    from lessons_lib.apps.gimbal import exercises

    question = exercises.rx_entry_question()
    ok, message = question.judge("0.5")
    assert not ok and "sign" in message and "too high" not in message
    for cosine in ("0.866", "−0.866", "0.87"):
        ok, message = question.judge(cosine)
        assert not ok and "cos 30°" in message and "too" not in message, cosine
    assert question.judge("−0.5")[0] and question.judge("-1/2")[0]


def test_lesson_1_exercise_1_asks_what_the_formula_does_not_show_outright():
    """Issue 41: exercise 1 asked for "row 2, column 3 of Rx(30°)" right under the formula
    that shows it. It now asks where the pitch takes the nose: the entry, found by knowing
    that R (0, 0, 1) is R's third column and which row is y."""
    from lessons_lib.apps.gimbal import exercises
    from lessons_lib.rotations import axis_rotation

    question = exercises.rx_entry_question()
    asked = question.prompt.value + "".join(c.source for c in cells(lesson(1).notebook)
                                      if c.cell_type == "markdown" and "Exercise 1" in c.source)
    assert not re.search(r"row \d|column \d", asked, re.I), asked
    assert "nose" in asked and "(0, 0, 1)" in asked and "y coordinate" in asked
    assert question.answer == pytest.approx((axis_rotation("x", 30) @ [0, 0, 1])[1])
    assert question.answer == pytest.approx(-0.5)


def test_lesson_2_exercise_5_names_the_ratio_turned_upside_down():
    """0.5 (slowest ÷ fastest, for 2) was answered "0.5 is too low", which sends a learner
    after the size, not the way the ratio is turned."""
    from lessons_lib.apps.interpolation import exercises

    question = exercises.nlerp_pace_question()
    for upside_down in ("0.5", "1/2"):
        ok, message = question.judge(upside_down)
        assert not ok and "the other way up" in message and "too low" not in message
    ok, message = question.judge("1.41")
    assert not ok and message.split(". ", 1)[1][0].isupper()     # "That is 1 / cos(45°)"
    assert question.judge("2")[0]


def test_lesson_3_exercise_1_names_each_slip_in_the_curvature_scale():
    """The look-ahead at 12 m/s in a 10 m bend: 4.62 (0.3 taken off the scale itself) and
    6.27 (the curvature not tripled) were answered "too low" / "too high", which names no
    step; each now names its step, and the task asks for the formula, not "(not the
    code!)" that Voila hides."""
    from lessons_lib.apps.steering import exercises
    from lessons_lib.steering import SteeringParams

    question = exercises.look_ahead_question()
    base = SteeringParams().look_ahead_base + 12 * SteeringParams().look_ahead_speed_factor
    for slip, words in (((base * (1 - 0.3)), "0.5 gap"), (base * (1 - 0.5 * 0.1), "triples")):
        ok, message = question.judge(f"{slip:.2f}")
        assert not ok and words in message and "too" not in message, slip
    assert question.judge("5.61")[0]
    task = next(c.source for c in cells(lesson(3).notebook)
                if c.cell_type == "markdown" and "Exercise 1" in c.source)
    assert "code" not in task


def test_lesson_3_says_the_grey_line_is_the_clamped_sum():
    """Section 1 called the thick grey line 'the sum before it is clamped to ±1'; the app
    draws the steering, which is that sum clamped: with a strong crosstrack push the terms
    add up to 2 while the grey line stays at 1."""
    from lessons_lib.apps import SteeringApp

    app = SteeringApp(speed=15.0, start_offset=3.5, start_heading=20.0, start_distance=160.5,
                      heading_weight=0.95)
    c = app.state.run.contributions
    total = c["position"] + c["heading"] + c["crosstrack"]
    drawn = app.scene.term_lines["steering"].get_ydata()
    assert np.abs(total).max() > 1.5
    np.testing.assert_allclose(drawn, np.clip(total, -1.0, 1.0), atol=1e-9)
    text = " ".join(next(c.source for c in cells(lesson(3).notebook)
                         if c.cell_type == "markdown" and "## 1 · Drive it first" in c.source)
                    .split())
    assert "the thick grey line is the steering itself: their sum, clamped to ±1" in text
