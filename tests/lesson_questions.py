"""Every question the lessons show, made as each notebook makes it: by one call of its
lesson's ``exercises`` module (``exercises.<name>(...)`` in a code cell), never in the cell.

:data:`MADE_BY` maps each lesson (by number: a name written here would leave a renamed lesson
unchecked) to the ``exercises`` functions its notebook calls, and each to the questions that
call shows (a check of the learner's code shows its widget version in
Voila). Tests use it to read every string a question shows, and to hold the notebooks to it.

A lesson MADE_BY does not list needs no entry: :func:`made_by` reads its notebook and makes
each question by running the very call the notebook makes (after the notebook's imports,
assignments and definitions before it), so a new lesson's questions are checked with
nothing written here.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

import matplotlib.pyplot as plt

from lessons_lib.apps import GimbalApp, InterpolationApp
from lessons_lib.apps.funnel import FunnelApp
from lessons_lib.apps.funnel import exercises as funnel
from lessons_lib.apps.gimbal import exercises as gimbal
from lessons_lib.apps.interpolation import exercises as interpolation
from lessons_lib.apps.steering import exercises as steering
from lessons_lib.catalogue import lesson
from lessons_lib.i18n import set_language

from lessons import english_of, language_of


def _copy():
    return FunnelApp().copy()


MADE_BY = {
    lesson(1).notebook: {
        "rx_entry_question": lambda: [gimbal.rx_entry_question()],
        "check_rx": lambda: [],
        "zxy_lock_question": lambda: [gimbal.zxy_lock_question(GimbalApp().copy())],
        "lost_turn_question": lambda: [gimbal.lost_turn_question(GimbalApp().copy())],
        "ReachExercise": lambda: [],
        "snap_pitch_question": lambda: [gimbal.snap_pitch_question()],
    },
    lesson(2).notebook: {
        "lerp_turn_question": lambda: [interpolation.lerp_turn_question()],
        "check_nlerp": lambda: [interpolation.nlerp_sign_question()],
        "halfway_question": lambda: [interpolation.halfway_question(
            InterpolationApp().copy())],
        "short_way_question": lambda: [interpolation.short_way_question()],
        "nlerp_pace_question": lambda: [interpolation.nlerp_pace_question()],
    },
    lesson(3).notebook: {
        "look_ahead_question": lambda: [steering.look_ahead_question()],
        "mystery_figure": lambda: [],
        "mystery_question": lambda: [steering.mystery_question()],
    },
    lesson(4).notebook: {
        "check_cross": lambda: [funnel.cross_sign_question()],
        "step_question": lambda: [funnel.step_question(_copy(), 4),
                                  funnel.step_question(_copy(), 6)],
        "first_corner_question": lambda: [funnel.first_corner_question(_copy())],
        "rooms_corners_question": lambda: [funnel.rooms_corners_question(_copy())],
    },
}


def made_by(notebook: str) -> dict:
    """The ``exercises`` calls of ``notebook`` and how to make what each shows: MADE_BY's
    entry, or for a lesson it does not list, the notebook's own calls (:func:`as_notebook`)."""
    english = english_of(notebook)     # a Korean notebook makes its English one's calls
    return MADE_BY[english] if english in MADE_BY else as_notebook(notebook)


def _questions_in(value) -> list:
    """The questions a call returned: one, a list of them, or none (a widget, an app)."""
    from lessons_lib.apps.core.exercise import _Question

    items = value if isinstance(value, list | tuple) else [value]
    return [q for q in items if isinstance(q, _Question)]


def _holds_a_question(widget) -> bool:
    """Whether ``widget`` (a box) holds a question's box somewhere inside."""
    seen, todo = set(), [widget]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        if "lesson-question" in getattr(w, "_dom_classes", ()):
            return True
        todo += list(getattr(w, "children", ()) or ())
    return False


def as_notebook(notebook: str) -> dict:
    """Each ``exercises.<name>(...)`` call of ``notebook``, made as the notebook makes it:
    the notebook's imports, assignments and definitions up to the call's cell run first
    (``app = EasingApp()``, a learner's ``def``), then the call's own source (the questions
    it returns)."""
    import nbformat

    from lessons import NOTEBOOKS

    cells = [python_of(c.source) for c in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells
             if c.cell_type == "code"]
    kept = (ast.Import, ast.ImportFrom, ast.Assign, ast.FunctionDef)
    preludes, calls, lines = [], {}, []
    for source in cells:
        tree = ast.parse(source)
        lines += [ast.unparse(node) for node in tree.body if isinstance(node, kept)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == "exercises":
                calls.setdefault(node.func.attr, []).append(
                    (len(preludes), ast.get_source_segment(source, node)))
        preludes.append("\n".join(lines))

    def make(made: list[tuple[int, str]]) -> list:
        return [q for cell, call in made for q in make_one(preludes[cell], call)]

    def make_one(prelude: str, call: str) -> list:
        import os

        scope: dict = {}
        was = os.environ.get("LESSONS_VOILA")
        os.environ["LESSONS_VOILA"] = "1"      # as Voila shows it: a check's widget version
        try:
            exec(prelude, scope)  # noqa: S102 (the lesson's own notebook)
            made = eval(call, scope)  # noqa: S307
        except NameError as exc:
            raise AssertionError(
                f"{notebook}: `{call}` uses {exc.name!r}, which the notebook makes in a "
                f"way this cannot follow: list the call in tests/lesson_questions.py's "
                f"MADE_BY with how to make its questions") from None
        finally:
            if was is None:
                os.environ.pop("LESSONS_VOILA", None)
            else:
                os.environ["LESSONS_VOILA"] = was
        questions = _questions_in(made)
        if not questions and _holds_a_question(made):
            raise AssertionError(
                f"{notebook}: `{call}` shows a question inside another widget (a check of the "
                f"learner's code): list the call in tests/lesson_questions.py's MADE_BY with "
                f"the question it shows")
        return questions

    return {name: (lambda made=made: make(made)) for name, made in calls.items()}


def questions(lesson: str, name: str) -> list:
    """The questions the notebook's call ``exercises.<name>(...)`` shows (figures closed),
    in the notebook's language."""
    before = set(plt.get_fignums())
    set_language(language_of(lesson))
    try:
        return made_by(lesson)[name]()
    finally:
        set_language(None)
        for num in set(plt.get_fignums()) - before:
            plt.close(num)


def shown_texts(q) -> list[str]:
    """Every text a question shows: prompt (tags stripped), options and why each is wrong,
    known slips, hint and explanation."""
    import html

    prompt = html.unescape(re.sub(r"<[^>]+>", " ", q.prompt.value))
    reasons = getattr(q, "reasons", {})
    return [prompt, q.hint, q.explain, *reasons, *filter(None, reasons.values()),
            *getattr(q, "wrong", {}).values()]


def answer_texts(q) -> list[str]:
    """What gives a question away: its answer (a choice's text), what it explains once
    solved, and why each wrong option or known slip is wrong."""
    answer = [q.answer] if isinstance(q.answer, str) else []
    return [*answer, q.explain, *filter(None, getattr(q, "reasons", {}).values()),
            *getattr(q, "wrong", {}).values()]


def python_of(source: str) -> str:
    """A code cell's source without its IPython magics."""
    return re.sub(r"^\s*[%!].*$", "", source, flags=re.MULTILINE)


def exercise_calls(source: str) -> list[str]:
    """The names of the ``exercises.<name>(...)`` calls in a code cell."""
    return [node.func.attr for node in ast.walk(ast.parse(python_of(source)))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "exercises"]


def visible_words(source: str) -> list[str]:
    """What a reader of a code cell reads as text: its strings (adjacent pieces joined) and
    its comments."""
    python = python_of(source)
    texts = [n.value for n in ast.walk(ast.parse(python))
             if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    texts += [t.string.lstrip("#").strip()
              for t in tokenize.generate_tokens(io.StringIO(python).readline)
              if t.type == tokenize.COMMENT]
    return texts
