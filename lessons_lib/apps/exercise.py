"""Exercises with instant, friendly checks and a hint, for JupyterLab and Voila alike.

Widget questions (:class:`NumberQuestion`, :class:`ChoiceQuestion`) work in Voila, where a
learner cannot edit code. :func:`check_function` checks a function the learner wrote in a
code cell (JupyterLab) against the reference on a set of cases.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Sequence

import ipywidgets as widgets
import numpy as np

from .style import PALETTE

_OK = f'<span style="color:{PALETTE["green"]};font-weight:600">&#10003; {{}}</span>'
_NO = f'<span style="color:{PALETTE["vermillion"]};font-weight:600">&#10007; {{}}</span>'
_HINT = f'<span style="color:{PALETTE["blue"]}"><b>Hint:</b> {{}}</span>'


class _Question:
    def __init__(self, prompt: str, hint: str, control: widgets.Widget) -> None:
        self.hint = hint
        self.control = control
        self.solved = False
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           layout=widgets.Layout(width="90px"))
        self.hint_button = widgets.Button(description="Hint", layout=widgets.Layout(width="90px"))
        self.feedback = widgets.HTML()
        self.check_button.on_click(lambda _b: self.submit())
        self.hint_button.on_click(lambda _b: self.show_hint())
        self.widget = widgets.VBox(
            [widgets.HTML(f"<b>{prompt}</b>"), widgets.HBox([control, self.check_button,
                                                             self.hint_button]), self.feedback],
            layout=widgets.Layout(border=f"1px solid {PALETTE['light']}", padding="6px",
                                  margin="6px 0"),
        )

    def _ipython_display_(self):  # so that a bare `question` at the end of a cell shows it
        from IPython.display import display

        display(self.widget)

    def show_hint(self) -> None:
        self.feedback.value = _HINT.format(self.hint)

    def judge(self, value) -> tuple[bool, str]:
        raise NotImplementedError

    def submit(self, value=None) -> bool:
        """Check ``value`` (or the control's current value) and show the verdict."""
        if value is not None:
            self.control.value = value
        try:
            ok, message = self.judge(self.control.value)
        except ValueError as exc:
            ok, message = False, str(exc)
        self.solved = ok
        self.feedback.value = (_OK if ok else _NO).format(html.escape(message))
        return ok


class NumberQuestion(_Question):
    """A numeric answer, accepted within ``tol`` (absolute)."""

    def __init__(self, prompt: str, answer: float, hint: str, tol: float = 0.5,
                 unit: str = "", explain: str = "") -> None:
        self.answer = float(answer)
        self.tol = float(tol)
        self.unit = unit
        self.explain = explain
        control = widgets.Text(placeholder="your answer" + (f" ({unit})" if unit else ""),
                               layout=widgets.Layout(width="160px"))
        control.on_submit(lambda _w: self.submit())
        super().__init__(prompt, hint, control)

    def judge(self, value) -> tuple[bool, str]:
        text = str(value).strip().replace(",", ".")
        if not text:
            return False, "Type a number first."
        try:
            number = float(text)
        except ValueError:
            return False, f"'{value}' is not a number: type digits, e.g. 12.5"
        if not math.isfinite(number):
            return False, "Type a finite number."
        if abs(number - self.answer) <= self.tol:
            return True, "Right! " + self.explain
        direction = "high" if number > self.answer else "low"
        return False, f"Not quite: {number:g} is too {direction}. Try again, or ask for a hint."


class ChoiceQuestion(_Question):
    """Pick one option."""

    def __init__(self, prompt: str, options: Sequence[str], answer: str, hint: str,
                 explain: str = "") -> None:
        if answer not in options:
            raise ValueError(f"the answer {answer!r} is not one of the options {list(options)}")
        self.answer = answer
        self.explain = explain
        control = widgets.RadioButtons(options=list(options), value=None,
                                       layout=widgets.Layout(width="auto"))
        super().__init__(prompt, hint, control)

    def judge(self, value) -> tuple[bool, str]:
        if value is None:
            return False, "Pick an option first."
        if value == self.answer:
            return True, "Right! " + self.explain
        return False, f"Not '{value}'. Think again, or ask for a hint."


def check_function(fn: Callable, reference: Callable, cases: Iterable[tuple], hint: str,
                   atol: float = 1e-6, name: str | None = None) -> widgets.HTML:
    """Compare a learner's function with the reference on ``cases`` and say how it went.

    Returns an HTML widget (shown when it is the last expression of a cell) whose ``.ok``
    attribute tells whether every case matched.
    """
    name = name or getattr(fn, "__name__", "your function")
    cases = list(cases)
    failures = []
    for args in cases:
        want = np.asarray(reference(*args), dtype=float)
        try:
            got = np.asarray(fn(*args), dtype=float)
        except Exception as exc:  # the learner's code: report, never raise
            failures.append(f"{name}{args} raised {type(exc).__name__}: {exc}")
            continue
        if got.shape != want.shape:
            failures.append(f"{name}{args} has shape {got.shape}, expected {want.shape}")
        elif not np.allclose(got, want, atol=atol):
            failures.append(f"{name}{args} gave {np.round(got, 3).tolist()}, "
                            f"expected {np.round(want, 3).tolist()}")
    if failures:
        body = _NO.format(f"{len(failures)} of {len(cases)} checks failed. First one: "
                          + html.escape(failures[0])) + "<br>" + _HINT.format(hint)
    else:
        body = _OK.format(f"All {len(cases)} checks pass. Well done!")
    out = widgets.HTML(body)
    out.ok = not failures
    return out
