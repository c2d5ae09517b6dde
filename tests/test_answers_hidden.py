"""No answer is readable in a notebook's code before it is earned (issue 41).

JupyterLab, the mode the README gives for self-study, shows every code cell. Lesson 3's
exercise 1 showed ``explain="... = 5.61 m"`` right above its answer box, exercise 2
``answer="Heading Delta"`` (and the run's ``SteeringParams(use_heading=False)`` above it),
and lessons 1, 2 and 4 had the same pattern. Each question is now made by one call of its
lesson's ``exercises`` module; these tests hold every notebook to that.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest
from lesson_questions import (
    MADE_BY,
    answer_texts,
    as_notebook,
    exercise_calls,
    made_by,
    python_of,
    questions,
    visible_words,
)

from lessons import KOREAN_NOTEBOOKS, NOTEBOOK_NAMES, lesson

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: The English lessons and the Korean ones (same code cells, questions made in Korean).
ALL_LESSONS = NOTEBOOK_NAMES + KOREAN_NOTEBOOKS
#: What makes a question, and the arguments that carry its answer.
MAKERS = {"NumberQuestion", "ChoiceQuestion", "CountQuestion", "check_function"}
ANSWER_ARGS = {"answer", "explain", "wrong", "hint"}


def code_cells(lesson: str) -> list[str]:
    nb = nbformat.read(NOTEBOOKS / lesson, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


@pytest.mark.parametrize("lesson", ALL_LESSONS)
def test_no_cell_makes_a_question_or_passes_an_answer(lesson):
    for i, source in enumerate(code_cells(lesson)):
        for node in ast.walk(ast.parse(python_of(source))):
            if isinstance(node, ast.Call):
                assert _called(node) not in MAKERS, f"code cell {i} makes a question"
                given = {k.arg for k in node.keywords} & ANSWER_ARGS
                assert not given, f"code cell {i} passes {given}"


@pytest.mark.parametrize("lesson", ALL_LESSONS)
def test_every_question_of_a_notebook_is_made_by_its_exercises_module(lesson):
    called = {name for source in code_cells(lesson) for name in exercise_calls(source)}
    made = set(made_by(lesson))
    assert called == made, (
        f"{lesson} calls exercises.{sorted(called - made)} that tests/lesson_questions.py's "
        f"MADE_BY does not list, or MADE_BY lists {sorted(made - called)} it no longer calls: "
        "add each call there, with how the notebook makes its questions")


@pytest.mark.parametrize("lesson", sorted(MADE_BY))
def test_a_notebooks_own_calls_make_the_questions_made_by_lists(lesson):
    """A lesson MADE_BY leaves out gets its questions from its notebook's own calls: here
    each call that needs no name made in a cell is held to MADE_BY's questions."""
    derived, listed = as_notebook(lesson), MADE_BY[lesson]
    assert set(derived) == set(listed)
    made = 0
    for name, make in derived.items():
        try:
            got = make()
        except AssertionError as exc:
            assert "MADE_BY" in str(exc)
            continue
        want = listed[name]()
        assert [q.prompt.value for q in got] == [q.prompt.value for q in want], name
        made += 1
    assert made, f"no call of {lesson} could be made from its imports alone"


@pytest.mark.parametrize("lesson", ALL_LESSONS)
def test_no_answer_is_in_any_code_cell(lesson):
    """What a question says once solved (its answer, its explanation, why each slip is
    wrong) is in no string or comment of the notebook's code cells."""
    seen = [(i, " ".join(w.split())) for i, s in enumerate(code_cells(lesson))
            for w in visible_words(s)]
    for name in made_by(lesson):
        for q in questions(lesson, name):
            for text in answer_texts(q):
                text = " ".join(text.split())
                leaked = [i for i, w in seen if text in w]
                assert not leaked, f"code cells {leaked} show {text!r} ({name})"


def test_lesson_3s_mystery_run_is_made_out_of_sight():
    """Which term the mystery run switches off was readable in the cell that made it."""
    from lessons_lib.apps.steering import exercises

    params = exercises.MYSTERY["params"]
    off = [name for name, flag in (("Position Delta", params.use_position),
                                   ("Heading Delta", params.use_heading),
                                   ("Crosstrack Error", params.use_crosstrack)) if not flag]
    assert off == [exercises.mystery_question().answer]
    cell = next(s for s in code_cells(lesson(3).notebook) if "mystery" in s)
    assert "use_" not in cell and "SteeringParams" not in cell


def test_the_checks_catch_an_answer_in_a_cell():
    assert "Heading Delta" in visible_words('ChoiceQuestion("Which?", answer="Heading Delta")')
    assert "= 5.61 m" in " ".join(visible_words('x = 1  # = 5.61 m'))
    tree = ast.parse('NumberQuestion("P", answer=1, hint="h")')
    assert _called(next(n for n in ast.walk(tree) if isinstance(n, ast.Call))) in MAKERS


def _my_nlerp(q0, q1, t):
    blended = (1 - t) * q0 + t * q1
    return blended / abs(blended)


def test_voila_shows_the_learners_function_and_the_widget_never_the_check(monkeypatch):
    """A check made in the library wraps the learner's function: Voila shows that function's
    code (``source``), not the library's wrapper around it."""
    from lessons_lib.apps.interpolation import exercises

    monkeypatch.setenv("LESSONS_VOILA", "1")
    out = exercises.check_nlerp(_my_nlerp)
    code = out.children[0].value
    assert "_my_nlerp" in code and "blended" in code and "as_float_array" not in code
    assert not out.ok                      # the first version misses the q / -q flip
