"""Write notebooks/index.ipynb from lessons_lib.catalogue: the lessons whose notebook exists.

Run after adding a lesson: `.venv/bin/python tools/make_index.py`.
"""

from pathlib import Path

import nbformat as nbf

from lessons_lib.catalogue import LESSONS, reading_order

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

def build() -> nbf.NotebookNode:
    """The index notebook for the lessons present in notebooks/."""
    present = [lesson for lesson in LESSONS if (NOTEBOOKS / lesson.notebook).exists()]
    cells = [nbf.v4.new_markdown_cell(
        "# Game maths, interactively\n\n"
        "Short, hands-on lessons on the maths behind game engines. Every lesson has sliders "
        "and buttons to play with, a few exercises that check your answer on the spot, and "
        "the conventions written at the top.\n\n"
        "**How to use them.** Alone: open a lesson in JupyterLab and read it top to bottom, "
        "changing code as you go. In class: the teacher serves these pages with Voila "
        "(`make voila`) and everyone uses the controls; no code is shown.\n\n"
        + reading_order(tuple(present)))]
    rows = ["| # | lesson | what you will learn |", "|---|---|---|"]
    for lesson in present:
        rows.append(f"| {lesson.number} | [{lesson.title}]({lesson.notebook}) | "
                    f"{lesson.summary} |")
    cells.append(nbf.v4.new_markdown_cell("## Lessons\n\n" + "\n".join(rows)))
    cells.append(nbf.v4.new_markdown_cell(
        "## Conventions used everywhere\n\n"
        "- Rotations: right-handed, **Y up**; yaw about Y, pitch about X, roll about Z; "
        "angles in degrees; column vectors; the order `\"YXZ\"` names the gimbal rings from "
        "outer to inner, which is the product `R = Ry(yaw) @ Rx(pitch) @ Rz(roll)`.\n"
        "- Steering: x right, y up on the screen; steering +1 is full right; Position and "
        "Heading Delta are positive when the target is to the car's right.\n"
        "- Navigation: a portal is `(left, right)` as seen by whoever walks through it; "
        "polygons are counter-clockwise."))
    for cell, name in zip(cells, ("intro", "lessons", "conventions"), strict=True):
        cell["id"] = name                      # stable ids: re-running changes nothing
    nb = nbf.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def main() -> None:
    nb = build()
    nbf.write(nb, NOTEBOOKS / "index.ipynb")
    print(f"index.ipynb lists {nb.cells[1].source.count('.ipynb)')} lesson(s)")


if __name__ == "__main__":
    main()
