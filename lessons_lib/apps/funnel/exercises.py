"""Lesson 4's exercises, made here so that no answer is in the notebook's visible code.
Each asks before the page tells: its answer is computed from the model here, it is placed
above any readout that gives it away, and its "Show this case" button puts the app in the
state it asks about.

Each question acts on the :class:`FunnelApp` it is given. The lesson gives each one a small
copy of its app (``funnel_app.copy()``, the loop's copy), laid out beside the question: the
button then changes the map next to it, not the lesson's app some 700 px up the page."""

from __future__ import annotations

import numpy as np

from ... import funnel as fn
from ... import validate as check
from ...i18n import N_, _
from ..core import ChoiceQuestion, NumberQuestion, check_function
from ..core.controls import short
from ..core.exercise import parse_number
from .app import PRESETS, FunnelApp

ARTICLE = PRESETS[0].name
ROOMS = "Two rooms, corner to corner"
_MOVES = {"narrow_left": N_("the left edge moves in"),
          "narrow_right": N_("the right edge moves in"),
          "narrow_both": N_("both edges move in"), "keep": N_("nothing changes"),
          "corner_left": N_("a corner is fixed"), "corner_right": N_("a corner is fixed")}
#: The options of :func:`step_question`, in the order shown.
_OPTIONS = (N_("the left edge moves in"), N_("the right edge moves in"),
            N_("both edges move in"), N_("nothing changes"), N_("a corner is fixed"))


def _show(app: FunnelApp, preset: str, step: int):
    def show() -> None:
        app.apply_preset(preset)
        app.show_frame(step)
    return show


def _check_app(app) -> FunnelApp:
    if not isinstance(app, FunnelApp):
        raise ValueError(f"app must be the lesson's FunnelApp, got {short(app)}")
    return app


def _beside(app: FunnelApp) -> FunnelApp | None:
    """The app to lay out beside the question: a small copy is, the lesson's own app (far
    up the page, already shown) is not."""
    return app if _check_app(app).compact else None


def _state_of(app: FunnelApp, preset: str):
    """The funnel the app computes for ``preset`` (its other controls as they are)."""
    from . import model

    values = next(p for p in PRESETS if p.name == preset).values
    return model.compute_funnel(_check_app(app).params.replace(**values))


def _step_of(app: FunnelApp, preset: str, portal: int):
    """The step of the preset's trace that first tests ``portal``."""
    state = _state_of(app, preset)
    tested = sorted({s.portal for s in state.steps if s.portal >= 0})
    portal = check.integer(portal, "portal", lo=tested[0], hi=tested[-1])
    k = next((i for i, s in enumerate(state.steps) if s.portal == portal), None)
    if k is None:
        raise ValueError(f"portal {portal} is not tested in {preset!r:.60}: choose one of "
                         f"{', '.join(map(str, tested))}")
    return state, k


def step_question(app: FunnelApp, portal: int) -> ChoiceQuestion:
    """What happens when ``portal`` of the article's corridor is tested?"""
    state, step = _step_of(app, ARTICLE, portal)
    s = state.steps[step]
    k = state.beat_of(step, "test")   # the step slider counts beats: a corner takes two
    answer = _MOVES[s.event]
    options = {}
    for text in _OPTIONS:
        options[_(text)] = None if text == answer else _why_not(text, s)
    return ChoiceQuestion(
        _("In the article's corridor, step {k} tests portal {portal}. Press the button to "
          "see the funnel just before (step {before}). What happens at step {k}?").format(
            k=k, portal=portal, before=k - 1),
        options, _(answer),
        hint=_("Test the right end first: is it between the two edges (it narrows the "
               "right), beyond the right edge (it would widen: ignored), or over the left edge "
               "(a corner)? Then the left end, the same way mirrored."),
        explain=s.text, show=_show(app, ARTICLE, k - 1), beside=_beside(app))


#: What a wrong pick is told of an end that does not do what it claimed. Never how the
#: step ends: a learner who picked wrong must still find the answer (issue 41: "something
#: does change: the right end lies inside the funnel, so it narrows its side, and ..."
#: stated it).
_REFUTES = {"outside": N_("lies outside the funnel and would widen it, so it is ignored"),
            "same": N_("is where that edge already ends"),
            "on_line": N_("lies on its edge's own line"),
            "at_apex": N_("is the apex itself"), "opens": N_("does not narrow its side"),
            "across": N_("does not stay inside the funnel"),
            "not_tested": N_("is not the end that decides this step")}


def _why_not(option: str, s) -> str:
    """Why ``option`` is wrong for step ``s``, without saying what the step does: about the
    end the option names, or what to test again."""
    ends = {"the left edge moves in": ("left", s.left_end),
            "the right edge moves in": ("right", s.right_end)}
    if option in ends:
        side, kind = ends[option]
        if kind == "inside":        # it does narrow, and that is not all
            return (_("the left end does narrow its side, but more happens at this step: "
                      "test the other end as well.") if side == "left" else
                    _("the right end does narrow its side, but more happens at this step: "
                      "test the other end as well."))
        return (_("the left end {refutes}.") if side == "left" else
                _("the right end {refutes}.")).format(refutes=_(_REFUTES[kind]))
    if option == "a corner is fixed":
        return _("a corner needs an end that crosses over the other edge: test each end "
                 "against the opposite edge again.")
    if option == "nothing changes":
        return _("something does change here: test each end against the funnel's edges "
                 "again.")
    return _("not both edges: test each end against its own edge again.")


def first_corner_question(app: FunnelApp) -> NumberQuestion:
    """At which step of the article's corridor is the first corner fixed? The app's
    readouts say it only when a learner steps there (the bends list below the map names
    where the path bends, never when the funnel knew)."""
    state, _k = _step_of(app, ARTICLE, 0)
    steps = state.steps
    first = next(i for i, s in enumerate(steps) if s.event.startswith("corner"))
    # on the step slider (which counts beats): the crossing, then the apex's move
    seen, k = state.beat_of(first, "test"), state.beat_of(first, "move")
    corner = tuple(float(v) for v in state.path[1])
    # the step whose edge first reached that point: where the path passes it, not yet a corner
    reached = state.beat_of(next(
        i for i, s in enumerate(steps)
        if tuple(map(float, s.right)) == corner or tuple(map(float, s.left)) == corner))
    wrong = {float(reached): _("At step {k} an edge of the funnel moves in to {p}, the point "
                               "the path will bend at, but nothing is fixed yet: the funnel "
                               "cannot know it is a corner until a later portal's end crosses "
                               "over that edge.").format(k=reached, p=_point(corner)),
             float(seen): _("Close: at step {k} the funnel sees the crossing (the dark red "
                            "ray), and the apex moves to the corner at the next step.").format(
                 k=seen),
             float(steps[first].portal): _("That is the number of the portal being tested "
                                           "then, not of the step: count the steps (step 0 is "
                                           "the opening).")}
    wrong = {v: why for v, why in wrong.items() if v != k}
    return NumberQuestion(
        _("Walking the article's corridor from the green start: at which step does the apex "
          "first move to a corner? (Step 0 is the opening; each later step tests one portal, "
          "and a portal that fixes a corner takes two steps: the crossing, then the move.)"),
        answer=float(k), tol=0.1,
        hint=_("A corner is fixed only when an end of the portal being tested crosses over "
               "the other edge. Watch the right edge once it reaches the right pillar's "
               "corner: which later portal's left end finally swings across it?"),
        explain=steps[first].text + _(" The corner {p} was reached at step {reached}, the "
                                      "crossing seen at step {seen}, and at step {k} the apex "
                                      "moves there.").format(
            p=_point(corner), reached=reached, seen=seen, k=k),
        wrong=wrong, show=_show(app, ARTICLE, 0), beside=_beside(app))


def _point(p) -> str:
    return f"({p[0]:g}, {p[1]:g})"


class CountQuestion(NumberQuestion):
    """A question whose answer counts things: a negative or fractional answer is told that
    a count is a whole number >= 0, not that it is "too low"."""

    def __init__(self, prompt: str, answer: float, hint: str, what: str, **kwargs) -> None:
        self.what = what
        super().__init__(prompt, answer, hint, **kwargs)

    def judge(self, value) -> tuple[bool, str]:
        number = parse_number(str(value))
        if number < 0 or number != int(number):
            return False, _("Not quite: {number}. A count of {what} is a whole number 0, 1, "
                            "2, ...").format(number=f"{number:g}", what=_(self.what))
        return super().judge(value)


def rooms_corners_question(app: FunnelApp) -> NumberQuestion:
    state = _state_of(app, ROOMS)
    return CountQuestion(
        _("Predict before you look: going from the lower left corner of the map (1.2, 1.0) "
          "to the upper right (14.8, 9.0), how many times does the funnel path bend? (Start "
          "and goal do not count.)"),
        answer=float(state.n_corners), tol=0.1, what=N_("bends"),
        hint=_("Pull a string tight from start to goal through the lower door: it bends only "
               "where a corner of the wall or of a pillar pokes into the straight line. Find "
               "those corners on the map and count them."),
        explain=_("It bends at the wall's corner above the lower door and at the top left "
                  "corner of the right pillar."),
        show=_show(app, ROOMS, 0), beside=_beside(app))


def cross_sign_question() -> ChoiceQuestion:
    """Exercise 1 as a widget (Voila hides the code cell): the sign of cross(a, b, c) for a
    point left of a -> b."""
    a, b, c = (0, 0), (1, 0), (0, 1)
    sign = fn.cross(a, b, c)
    answer = _("positive") if sign > 0 else _("negative") if sign < 0 else _("zero")
    return ChoiceQuestion(
        _("a = {a}, b = {b}, c = {c}. What sign does cross(a, b, c) have?").format(
            a=_point(a), b=_point(b), c=_point(c)),
        {_("positive"): None,
         _("negative"): _("that is (c - a) x (b - a), the mirror image: every left would "
                          "become a right"),
         _("zero"): _("zero means c is on the line through a and b; (0, 1) is not")},
        answer=answer,
        hint=_("Walk from a to b (east): is c on your left or your right?"),
        explain=_("c is left of a -> b, and left is positive."))


def cross_cases(n: int = 20, seed: int = 4) -> list[tuple]:
    """Exercise 1's cases: ``n`` random triangles (a, b, c) in [-5, 5]²."""
    n = check.integer(n, "n", lo=1, hi=1000)
    rng = np.random.default_rng(check.integer(seed, "seed", lo=0))
    return [tuple(rng.uniform(-5, 5, (3, 2))) for _ in range(n)]


def check_cross(my_cross):
    """Exercise 1: compare the learner's ``my_cross(a, b, c)`` with the library's cross on
    :func:`cross_cases`."""
    return check_function(
        my_cross, fn.cross, cross_cases(), name="my_cross",
        hint=_("Try it by hand on a=(0,0), b=(1,0), c=(0,1): c is left of a->b, so the answer "
               "must be +1. What does my_cross give, and which two factors would have to "
               "trade places?"),
        widget=cross_sign_question())
