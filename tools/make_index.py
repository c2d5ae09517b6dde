"""Write what is derived from lessons_lib.catalogue: notebooks/index.ipynb and
notebooks/ko/index.ipynb (the lessons whose notebook exists in that folder, titles and
summaries in Korean from the catalogue's gettext entries), the hub's memory limit
(deploy/z2jh/values.yaml and docs/hub.md's sentence: a server and every lesson's kernel)
and, under each per-lesson table of measurements in docs/, the line naming the lessons
not measured yet.

Run after adding a lesson: `.venv/bin/python tools/make_index.py` (tests fail while any of
these is stale).
"""

import re
from pathlib import Path

import nbformat as nbf

from lessons_lib import i18n
from lessons_lib.catalogue import LESSONS, reading_order

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
KOREAN = NOTEBOOKS / i18n.KOREAN_FOLDER

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
        + ("<small>[한국어로 보기 (Korean)](ko/index.ipynb)</small>\n\n"
           if (KOREAN / "index.ipynb").exists() else "")
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


def build_korean() -> nbf.NotebookNode:
    """The Korean index: the lessons present in notebooks/ko/, a link back to English."""
    present = [lesson for lesson in LESSONS if (KOREAN / lesson.notebook).exists()]
    i18n.set_language("ko")
    try:
        order = reading_order(tuple(present)) if present else ""
        rows = ["| # | 강의 | 배우는 것 |", "|---|---|---|"]
        rows += [f"| {lesson.number} | [{i18n._(lesson.title)}]({lesson.notebook}) | "
                 f"{i18n._(lesson.summary)} |" for lesson in present]
    finally:
        i18n.set_language(None)
    cells = [nbf.v4.new_markdown_cell(
        "# 인터랙티브 게임 수학\n\n"
        "게임 엔진 속 수학을 손으로 만져 보며 배우는 짧은 강의입니다. 강의마다 직접 움직여 볼 "
        "슬라이더와 버튼, 답을 그 자리에서 확인해 주는 연습 문제가 있고, 맨 위에 좌표계 약속을 "
        "적어 두었습니다.\n\n"
        "<small>[영어로 보기 (English)](../index.ipynb)</small>\n\n"
        "**이렇게 쓰세요.** 혼자라면: 주피터랩에서 강의를 열고 위에서 아래로 읽으면서 코드를 "
        "바꿔 보세요. 수업에서라면: 선생님이 Voila로 이 페이지를 띄우고(`make voila`) 모두 "
        "조작 요소만 씁니다. 코드는 보이지 않습니다.\n\n" + order),
        nbf.v4.new_markdown_cell("## 강의\n\n" + "\n".join(rows)),
        nbf.v4.new_markdown_cell(
        "## 모든 강의의 약속\n\n"
        "- 회전: 오른손 좌표계, **Y축이 위**. 요는 Y축, 피치는 X축, 롤은 Z축 중심이고 각도는 "
        "도 단위, 벡터는 열벡터입니다. 순서 `\"YXZ\"`는 짐벌의 고리를 바깥에서 안쪽으로 "
        "나열한 것이고, 곱 `R = Ry(yaw) @ Rx(pitch) @ Rz(roll)`과 같습니다.\n"
        "- 조향: 화면에서 x는 오른쪽, y는 위쪽. 조향값 +1은 오른쪽 끝까지이고, 위치 편차와 "
        "방향 편차는 목표가 차의 오른쪽에 있을 때 양수입니다.\n"
        "- 길찾기: 포털은 지나가는 쪽에서 본 `(left, right)`이고, 다각형은 반시계 방향입니다.")]
    for cell, name in zip(cells, ("intro", "lessons", "conventions"), strict=True):
        cell["id"] = name
    nb = nbf.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


#: Measured on the trial hub (docs/hub.md#sizing): a student's server and one lesson's kernel,
#: in MB. The limit holds the server and every lesson's kernel, rounded up to 100 MB.
SERVER_MB, KERNEL_MB = 170, 146
VALUES = ROOT / "deploy" / "z2jh" / "values.yaml"
HUB_DOC = ROOT / "docs" / "hub.md"
_LIMIT = re.compile(r"(\n  memory:\n    guarantee: \S+\n    limit: )(\d+)M\n")
_SAID = re.compile(r"limits\s+a\s+student\s+to\s+(\d+)\s+MB")


def memory_limit_mb(lessons: int | None = None) -> int:
    """A student's memory limit on the hub: a server and ``lessons`` kernels (by default one
    per lesson of the catalogue), in MB."""
    lessons = len(LESSONS) if lessons is None else lessons
    return -(-(SERVER_MB + lessons * KERNEL_MB) // 100) * 100


def with_memory_limit(text: str, said: bool = False) -> str:
    """values.yaml's ``singleuser.memory.limit`` (``said``: docs/hub.md's sentence) set to
    :func:`memory_limit_mb`; a ValueError when the place to write it is not found."""
    pattern, new = ((_SAID, lambda m: m.group(0).replace(m.group(1), str(memory_limit_mb())))
                    if said else (_LIMIT, lambda m: f"{m.group(1)}{memory_limit_mb()}M\n"))
    out, count = pattern.subn(new, text, count=1)
    if count != 1:
        raise ValueError(f"no {pattern.pattern!r} to write the memory limit in")
    return out


#: The per-lesson tables of measurements in docs/: (file, heading, what measures a lesson).
MEASURED = (("docs/hub.md", "## Sizing", "python benchmarks/hub.py --sizes"),
            ("docs/classroom.md", "### What one student's kernel costs",
             "python benchmarks/kernel_costs.py --warm"))
NOT_MEASURED = "Not measured yet:"


def table_span(markdown: str, heading: str) -> tuple[int, int, list[str]]:
    """Where the first table after ``heading`` ends (its last line's end and, if the line
    after the table's blank line is the generated :data:`NOT_MEASURED` line, that line's
    end), and the first cells of its rows."""
    start = markdown.index(heading)
    lines = markdown[start:].split("\n")
    rows, offset, end, started = [], start, None, False
    for line in lines:
        if line.startswith("|"):
            started = True
            rows.append(line.strip("|").split("|")[0].strip())
        elif started:
            end = offset - 1
            break
        offset += len(line) + 1
    after = markdown[end:].split("\n", 3)
    tail = end
    if len(after) > 2 and after[2].startswith(NOT_MEASURED):
        tail = end + len("\n\n") + len(after[2])
    return end, tail, rows[2:]


def with_unmeasured(markdown: str, heading: str, how: str) -> str:
    """``markdown`` with the line under the table after ``heading`` that names each lesson
    of the catalogue the table has no row for (none: no line)."""
    end, tail, rows = table_span(markdown, heading)
    missing = [f"lesson {item.number} ({item.slug})" for item in LESSONS
               if item.slug not in rows]
    line = (f"\n\n{NOT_MEASURED} {', '.join(missing)}. `{how}` measures a lesson; its row "
            f"then goes in the table above." if missing else "")
    return markdown[:end] + line + markdown[tail:]


def derived_files() -> dict[Path, str]:
    """Each file derived from the catalogue besides the index, with what it should hold."""
    out = {VALUES: with_memory_limit(VALUES.read_text())}
    docs = {ROOT / name: (ROOT / name).read_text() for name, _, _ in MEASURED}
    docs[HUB_DOC] = with_memory_limit(docs[HUB_DOC], said=True)
    for name, heading, how in MEASURED:
        docs[ROOT / name] = with_unmeasured(docs[ROOT / name], heading, how)
    return out | docs


def main() -> None:
    nb = build()
    nbf.write(nb, NOTEBOOKS / "index.ipynb")
    print(f"index.ipynb lists {nb.cells[1].source.count('.ipynb)')} lesson(s)")
    if KOREAN.is_dir():
        nb = build_korean()
        nbf.write(nb, KOREAN / "index.ipynb")
        print(f"ko/index.ipynb lists {nb.cells[1].source.count('.ipynb)')} lesson(s)")
    for path, text in derived_files().items():
        if path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
