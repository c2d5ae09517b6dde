"""Write notebooks/index.ipynb: the table of contents, listing only the lessons that exist.

Run after adding a lesson: `.venv/bin/python tools/make_index.py`.
"""

from pathlib import Path

import nbformat as nbf

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

LESSONS = [
    ("01_gimbal_lock.ipynb", "Gimbal lock",
     "Yaw, pitch and roll as three nested rings. Turn them with sliders in any of the six "
     "orders, watch two rings line up when the middle one reaches ±90°, and read the rotation "
     "matrix and the quaternion beside them. Ends with the safe way back from a quaternion to "
     "yaw/pitch/roll."),
    ("02_euler_vs_slerp.ipynb", "Euler interpolation vs slerp",
     "Blend the same two orientations three ways (Euler-angle lerp, nlerp, slerp) and compare "
     "the paths on the sphere, the angular speed, and the q / −q trap that sends an animation "
     "the long way round."),
    ("03_spline_steering.ipynb", "Spline steering",
     "Put a car beside a spline and watch the three steering terms (Position Delta, Heading "
     "Delta, Crosstrack Error) and an adaptive look-ahead drive it back to the centre line. "
     "Compared with pure pursuit and Stanley."),
    ("04_funnel_algorithm.ipynb", "The funnel algorithm",
     "Turn a staircase grid path into a taut string, then step through the funnel algorithm "
     "over navmesh portals one portal at a time, with an agent radius."),
]


def main() -> None:
    present = [lesson for lesson in LESSONS if (NOTEBOOKS / lesson[0]).exists()]
    cells = [nbf.v4.new_markdown_cell(
        "# Game maths, interactively\n\n"
        "Short, hands-on lessons on the maths behind game engines. Every lesson has sliders "
        "and buttons to play with, a few exercises that check your answer on the spot, and "
        "the conventions written at the top.\n\n"
        "**How to use them.** Alone: open a lesson in JupyterLab and read it top to bottom, "
        "changing code as you go. In class: the teacher serves these pages with Voila "
        "(`make voila`) and everyone uses the controls; no code is shown.\n\n"
        "Take the lessons in order: 2 builds on 1; 3 and 4 stand on their own.")]
    rows = ["| # | lesson | what you will learn |", "|---|---|---|"]
    for i, (name, title, what) in enumerate(present, start=1):
        rows.append(f"| {i} | [{title}]({name}) | {what} |")
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
    nb = nbf.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbf.write(nb, NOTEBOOKS / "index.ipynb")
    print(f"index.ipynb lists {len(present)} lesson(s)")


if __name__ == "__main__":
    main()
