"""The one list of lessons. The index notebook, the app registry and the README check are
all derived from it, so adding a lesson starts here (see docs/adding-a-lesson.md).

Plain data: importing it costs nothing and pulls in no maths or widgets.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_, _


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str                       #: the notebook's name without .ipynb
    title: str                      #: in English; ``_(lesson.title)`` in the learner's language
    summary: str                    #: what the index page says the lesson teaches (idem)
    apps: tuple[tuple[str, str], ...]   #: (class name, module) of each app it shows
    seeds: tuple[str, ...] = ()     #: source articles in shared/seeds (by number)
    picture: str = ""               #: the README's picture, a file in docs/img/
    builds_on: tuple[int, ...] = () #: lessons to take first (by number)

    @property
    def notebook(self) -> str:
        return f"{self.slug}.ipynb"


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        1, "01_gimbal_lock", N_("Gimbal lock"),
        N_("Yaw, pitch and roll as three nested rings. Turn them with sliders in any of the six "
        "orders, watch the outer and inner axes line up when the middle ring reaches ±90°, and "
        "read the rotation matrix and the quaternion beside them. Ends with the safe way back "
        "from a quaternion to yaw/pitch/roll."),
        apps=(("GimbalApp", "lessons_lib.apps.gimbal"),), seeds=("001", "004"),
        picture="01_gimbal_lock_locked.png"),
    Lesson(
        2, "02_euler_vs_slerp", N_("Euler interpolation vs slerp"),
        N_("Blend the same two orientations three ways (Euler-angle lerp, nlerp, slerp) and "
        "compare the paths on the sphere, the angular speed, and the q / −q trap that sends an "
        "animation the long way round."),
        apps=(("InterpolationApp", "lessons_lib.apps.interpolation"),), seeds=("001", "004"),
        picture="02_euler_vs_slerp.png", builds_on=(1,)),
    Lesson(
        3, "03_spline_steering", N_("Spline steering"),
        N_("Put a car beside a spline and watch the three steering terms (Position Delta, Heading "
        "Delta, Crosstrack Error) and an adaptive look-ahead drive it back to the centre line. "
        "Compared with pure pursuit and Stanley."),
        apps=(("SteeringApp", "lessons_lib.apps.steering"),), seeds=("000",),
        picture="03_spline_steering.png"),
    Lesson(
        4, "04_funnel_algorithm", N_("The funnel algorithm"),
        N_("Turn a staircase grid path into a taut string, then step through the funnel algorithm "
        "over navmesh portals one portal at a time, with an agent radius."),
        apps=(("FunnelApp", "lessons_lib.apps.funnel"), ("GridApp", "lessons_lib.apps.funnel")),
        seeds=("002",), picture="04_funnel_algorithm.png"),
)


def app_registry() -> dict[str, str]:
    """App class name -> the module that defines it, for every lesson."""
    return {name: module for lesson in LESSONS for name, module in lesson.apps}


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + _(" and ") + words[-1]


def reading_order(lessons: tuple[Lesson, ...] = LESSONS) -> str:
    """One sentence on the order to take ``lessons`` in, from their ``builds_on``
    (a non-empty list or tuple of :class:`Lesson`; a ValueError for anything else)."""
    if not isinstance(lessons, list | tuple) or not lessons or \
            not all(isinstance(item, Lesson) for item in lessons):
        raise ValueError("reading_order() takes a non-empty list of Lesson (such as "
                         "catalogue.LESSONS)")
    numbers = {item.number for item in lessons}
    needs = [(item.number, [str(n) for n in item.builds_on if n in numbers])
             for item in lessons]
    needs = [(n, before) for n, before in needs if before]
    if not needs:
        return _("Take the lessons in any order: each stands on its own.")
    linked = {n for n, _ in needs} | {int(b) for _, before in needs for b in before}
    parts = [_("{n} builds on {before}").format(n=n, before=_and(before)) for n, before in needs]
    alone = [str(item.number) for item in lessons if item.number not in linked]
    if alone:
        parts.append((_("{alone} stands on its own") if len(alone) == 1
                      else _("{alone} stand on their own")).format(alone=_and(alone)))
    return _("Take the lessons in order: {parts}.").format(parts="; ".join(parts))


def lesson(slug_or_number: str | int) -> Lesson:
    """The lesson with this slug, number or notebook name (a ValueError for any other)."""
    if isinstance(slug_or_number, bool) or not isinstance(slug_or_number, str | int):
        raise ValueError(f"lesson() takes a lesson's slug, number or notebook name, not a "
                         f"{type(slug_or_number).__name__}")
    for item in LESSONS:
        if slug_or_number in (item.slug, item.number, item.notebook):
            return item
    raise ValueError(f"no lesson {slug_or_number!r:.60}; the lessons are "
                     + ", ".join(item.slug for item in LESSONS))
