"""What Voila shows of lessons 1 and 2 never talks about code the page hides.

Voila shows a notebook's markdown, the outputs of its code cells and its widgets, never the
code cells' sources. So the text it shows must not point at a cell ("run the cell", "edit
it and run it again"), name a function or an attribute of the library (`gimbal_axes`,
`lerp_angles(..., wrap=True)`, `app.save_gif`), or print a bare numpy matrix whose rows a
reader cannot name. Text about code belongs in the code cells' comments (JupyterLab shows
them); Voila shows a sentence or a labelled table instead. A function the reader writes is
shown read-only by ``check_function`` in Voila (a code-only block): its hint is not checked.

Three kinds of shown text are walked: every markdown cell (its code spans, and its words),
every text the code cells print when the notebook runs in a fresh kernel as Voila runs it,
and every string an exercise widget shows (prompt, options, hints, explanations), read from
the questions the lessons' exercises modules make.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import nbformat
import pytest
from lesson_questions import made_by, questions, shown_texts
from nbclient import NotebookClient

import lessons_lib.interpolation as interpolation_api
import lessons_lib.rotations as rotations_api
from lessons_lib import apps

from lessons import KOREAN_INDEX, KOREAN_NOTEBOOKS, NOTEBOOK_NAMES

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: The English lessons and the Korean ones (notebooks/ko: same code, Korean prose).
LESSONS = NOTEBOOK_NAMES + KOREAN_NOTEBOOKS

#: Sentences that send the reader to a code cell.
#: (Words may wrap onto the next line of a markdown source: any white space between them.)
CELL_PHRASES = re.compile(r"\brun\s+(the|this|that)\s+cell|\brun\s+(it\s+)?again"
                          r"|\bedit\s+(the|this)\s+cell|\bthe\s+cell\s+(below|above)"
                          r"|\brun\s+the\s+code"
                          # the same in Korean: "셀을 (다시) 실행", "아래 셀", "코드를 실행"
                          r"|셀을\s*(다시\s*)?실행|(아래|위)의?\s*셀"
                          r"|코드를\s*(다시\s*)?실행",
                          re.IGNORECASE)
#: Names that are maths in any text (a formula), not code.
MATHS = {"R", "Rx", "Ry", "Rz", "R₁", "R₂", "R₃", "sin", "cos", "tan", "asin", "acos", "atan",
         "atan2", "sinc", "sqrt", "exp", "log", "lerp", "nlerp", "slerp", "yaw", "pitch",
         "roll", "cross"}
#: The library's own names: a reader of the Voila page never sees them defined (every app
#: class of the catalogue among them).
LIBRARY = {n for api in (rotations_api, interpolation_api) for n in api.__all__} | set(
    apps.__all__) | {
    "GimbalApp", "InterpolationApp", "ReachExercise", "check_function", "show_pace",
    "NumberQuestion", "ChoiceQuestion", "save_gif", "gif_max_frames", "apply_preset"}
CALL = re.compile(r"([A-Za-z_]\w*)\(")
DOTTED = re.compile(r"\b[A-Za-z_]\w+\.[A-Za-z_]\w*")
KEYWORD_ARG = re.compile(r"\b[a-z_]\w*=[\w\"'.-]")
SNAKE_OR_CAMEL = re.compile(r"\b(?:[a-z]\w*_\w+|[A-Z][a-z]+(?:[A-Z][a-z]+){2,})\b")
NAMES = re.compile(r"\b[A-Za-z_]\w*\b")
#: A row of a numpy array printout: "[[1. 0. 0.]" or " [0. 0.5 -0.866]]" with no label.
MATRIX_ROW = re.compile(r"^\s*\[+\s*[-+]?(\d|nan|inf)", re.MULTILINE)


def code_words(text: str, code_span: bool = False) -> list[str]:
    """What in ``text`` reads as code: calls of non-maths names, dotted names, keyword
    arguments, snake_case or CamelCase identifiers, the library's names (in a code span even
    nlerp and slerp, which elsewhere are the methods' names)."""
    found = [m.group(1) + "(" for m in CALL.finditer(text)
             if len(m.group(1)) > 1 and m.group(1).rstrip("²³") not in MATHS]
    found += DOTTED.findall(text) + KEYWORD_ARG.findall(text) + SNAKE_OR_CAMEL.findall(text)
    found += [n for n in NAMES.findall(text) if n in LIBRARY and (code_span or n not in MATHS)]
    return found


def markdown_problems(source: str) -> list[str]:
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", " ", source, flags=re.DOTALL)   # formulas
    text = re.sub(r"\]\([^)]*\)", "]", text)                                  # link targets
    problems = [f"code in backticks: `{span}` ({', '.join(words)})"
                for span in re.findall(r"`([^`\n]+)`", text)
                if (words := code_words(span, code_span=True))]
    problems += [f"points at a cell: {m.group(0)!r}" for m in CELL_PHRASES.finditer(text)]
    return problems


def printed_problems(text: str) -> list[str]:
    problems = [f"names code: {w!r}" for w in code_words(text)]
    problems += [f"a matrix row without a label: {m.group(0).strip()!r}"
                 for m in MATRIX_ROW.finditer(text)]
    problems += [f"points at a cell: {m.group(0)!r}" for m in CELL_PHRASES.finditer(text)]
    return problems


#: Printed text is monospaced and wraps anywhere, mid-word: at 853x480 (1280x720 at 150 %
#: zoom) lesson 2's 115-character line broke after 96 ("... 209 deg / rees per unit t").
#: Every lesson is checked (lesson 4's radius table was 145 characters wide).
PRINTED_WIDTH = 90


def columns(text: str) -> int:
    """How many columns ``text`` takes in a monospaced printout: a Hangul syllable (East
    Asian wide) takes two, so a Korean line is measured as the browser lays it out."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def crooked_rows(text: str) -> list[str]:
    """Rows of a printed table (a run of lines with '|' in them) whose bars are not where
    the first row has them (printed text is monospaced; a markdown table needs no lining up)."""
    crooked, bars = [], None
    for line in text.splitlines():
        # columns, not characters: a Korean header's Hangul takes two columns each
        here = [columns(line[:i]) for i, ch in enumerate(line) if ch == "|"]
        if not here:
            bars = None
        elif bars is None:
            bars = here
        elif here != bars:
            crooked.append(line)
    return crooked


def _shown_outputs(cell) -> list[str]:
    """Text outputs Voila shows as text: streams, and results with nothing richer."""
    texts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            texts.append(out["text"])
        elif out.get("output_type") in ("execute_result", "display_data"):
            data = out.get("data", {})
            if set(data) == {"text/plain"}:
                texts.append(data["text/plain"])
    return texts


@pytest.fixture(scope="module", params=LESSONS)
def executed(request):
    """The lesson run top to bottom in a fresh kernel, as Voila would (its variable set)."""
    import os

    nb = nbformat.read(NOTEBOOKS / request.param, as_version=4)
    # in the notebook's own folder, as Jupyter starts it: a Korean notebook's kernel is Korean
    folder = (NOTEBOOKS / request.param).parent
    client = NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    client.execute(env={**os.environ, "LESSONS_VOILA": "1"})
    return request.param, nb


# -- the rules catch what they are for (on the kinds of text the lessons had) -----------------
@pytest.mark.parametrize("text", [
    "`gimbal_axes` gives the three axes", "`quaternion_to_euler_naive` is that code",
    "`lerp_angles(..., wrap=True)` first moves", "Run the cell: the check compares it",
    "Fix it and run again.", "`app.save_gif(\"slerp.gif\")` writes", "the library's `nlerp`",
    "The cell\nbelow measures them", "Fix it in the cell and run the\ncell again",
    "`line_of_sight` is the whole algorithm", "A* does not (`corner_cutting=False`)",
    "the lesson's `shortest=False` keeps your sign",
    "Article 004 gives `QuaternionToYawPtichRoll`"])
def test_markdown_rules_catch(text):
    assert markdown_problems(text)


@pytest.mark.parametrize("text", [
    "order `\"YXZ\"` means", "$R = R_y(\\text{yaw})$", "`q` and `-q`", "`(1 − t) q₀ + t q₁`",
    "`cos Ω = q₀ · q₁`", "`t = 0.5`", f"[Lesson 2]({NOTEBOOK_NAMES[1]})",
    "`q = (cos(θ/2), sin(θ/2) n)`", "`yaw(t) = yaw₀ + t (yaw₁ − yaw₀)`", "`2·atan2(y, x)`"])
def test_markdown_rules_pass(text):
    assert markdown_problems(text) == []


def test_printed_rules_catch_a_bare_matrix_and_a_repr():
    assert printed_problems("pitch 30:\n [[0. 1. 0.]\n [0.5 0. 0.866]]\n")
    assert printed_problems("Rx(60) =\n [[ 1.     0.     0.   ]\n")
    assert printed_problems("q = quaternion(0.96, 0.13, 0.25, 0.03)")
    assert printed_problems("outer (yaw)   axis ( 0.00,  1.00,  0.00)") == []


def test_printed_rules_catch_a_table_whose_bars_do_not_line_up():
    """Lesson 1's read-back table had its header's bars 1, 6 and 4 characters right of the
    rows' bars."""
    assert crooked_rows(" true pitch | reads      | exact\n   85.0°  | (1, 2) |  85.00°\n")
    assert crooked_rows("true pitch | reads  | exact\n    85.0°  | (1, 2) | 85.00°\n"
                        "\nlater | text\n") == []


# -- the lessons --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["이 셀을 다시 실행하면", "아래 셀이 잰다",
                                  "코드를 실행해 보세요"])
def test_markdown_rules_catch_korean_pointers_at_cells(text):
    assert markdown_problems(text)


def test_printed_rules_count_hangul_as_two_columns():
    assert crooked_rows(" 실제 피치 | 값\n    85.0°  | 1\n") == []
    assert crooked_rows(" 실제 피치  | 값\n    85.0°  | 1\n")


@pytest.mark.parametrize("lesson", LESSONS + (KOREAN_INDEX,))
def test_markdown_never_talks_about_hidden_code(lesson):
    nb = nbformat.read(NOTEBOOKS / lesson, as_version=4)
    problems = [f"markdown cell {i}: {p}" for i, c in enumerate(nb.cells)
                if c.cell_type == "markdown" for p in markdown_problems(c.source)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lesson", LESSONS)
def test_exercise_widgets_never_talk_about_code(lesson):
    """Every question is made by the lesson's exercises module (test_answers_hidden): the
    strings each shows (prompt, options and why each is wrong, hint, explanation, known
    slips) are walked here."""
    problems = [f"{name}: {t[:60]!r}: {p}" for name in made_by(lesson)
                for q in questions(lesson, name) for t in shown_texts(q)
                for p in printed_problems(t)]
    assert not problems, "\n".join(problems)


@pytest.mark.notebook
def test_printed_outputs_are_sentences_or_labelled_tables(executed):
    lesson, nb = executed
    problems = [f"{lesson} code cell {i}: {p}" for i, c in enumerate(nb.cells)
                if c.cell_type == "code" for text in _shown_outputs(c)
                for p in printed_problems(text)]
    problems += [f"{lesson} code cell {i}: a table's columns do not line up: {row!r}"
                 for i, c in enumerate(nb.cells) if c.cell_type == "code"
                 for text in _shown_outputs(c) for row in crooked_rows(text)]
    problems += [f"{lesson} code cell {i}: a printed line wraps at 853x480: {line!r}"
                 for i, c in enumerate(nb.cells) if c.cell_type == "code"
                 for text in _shown_outputs(c) for line in text.splitlines()
                 if columns(line) > PRINTED_WIDTH]
    assert not problems, "\n".join(problems)
