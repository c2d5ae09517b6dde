"""Exercises with instant checks that teach, for JupyterLab and Voila alike.

* :class:`NumberQuestion`: a typed number, read the way people write it ("−0.5" with the
  minus sign the readouts use, "4/3", "5.61 m", "30°"); known wrong answers can carry their
  own explanation (the mistake they stand for).
* :class:`ChoiceQuestion`: each option may carry the misconception it stands for.
* :func:`check_function`: checks a function a learner wrote in a code cell. Voila hides code
  cells, so there it shows the code read-only, highlighted, and the widget version of the
  exercise instead of a verdict the reader cannot act on.

Any question can take ``show=callable``: a "Show this case" button that puts an app into the
state the question asks about; and ``beside=app``: a small copy of the lesson's app laid out
beside the question (lesson 1's exercise and lesson 2's planes are such copies), so that the
button changes a figure next to the question, not one far up the page.
"""

from __future__ import annotations

import html
import inspect
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets
import numpy as np

from ... import validate as check
from ...i18n import _
from .controls import short
from .figure import PALETTE
from .guard import MAX_TEXT, guard_widget
from .layout import quiet_tooltips
from .theme import TEXT

#: Text in a widgets.HTML gets the widgets' line height (28 px, one control's height), so a
#: prompt or a verdict that wraps is spaced like a list of buttons; these set a text's own.
LINE_HEIGHT = "line-height:1.45"


def text_block(html_text: str) -> str:
    """``html_text`` as a block with its own line height (for a widgets.HTML's value)."""
    return f'<div style="{LINE_HEIGHT}">{html_text}</div>'


def hint_html(text: str, label: str | None = None) -> str:
    """A hint as every exercise shows one: blue, after a bold ``label``."""
    label = _("Hint:") if label is None else label
    return text_block(f'<span style="color:{PALETTE["blue"]}"><b>{label}</b> {text}</span>')


_OK = text_block(f'<span style="color:{PALETTE["green"]};font-weight:600">&#10003; {{}}</span>')
_NO = text_block(f'<span style="color:{PALETTE["vermillion"]};font-weight:600">&#10007; {{}}'
                 "</span>")

_MINUS = dict.fromkeys(map(ord, "\u2212\u2013\u2014\ufe63\uff0d"), "-")
_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(rf"^\s*({_NUM})\s*(?:/\s*({_NUM}))?\s*([^\d\s.+\-/][^\d]*)?$")


def in_voila() -> bool:
    """True in a kernel that Voila started (Voila sets these in the kernel's environment)."""
    if os.environ.get("LESSONS_VOILA") in ("0", "1"):
        return os.environ["LESSONS_VOILA"] == "1"
    return any(k in os.environ for k in ("VOILA_PREHEAT", "VOILA_BASE_URL", "VOILA_KERNEL_ID"))


def parse_number(text: str) -> float:
    """A number as typed: '−0.5', '4/3', '5.61 m', '30°', '1,5' -> float, else ValueError
    (also for more than :data:`~.guard.MAX_TEXT` characters)."""
    if not isinstance(text, str):
        raise ValueError(_("type a number"))
    if len(text) > MAX_TEXT:
        raise ValueError(_("an answer is at most {n} characters: type a number").format(n=MAX_TEXT))
    cleaned = text.translate(_MINUS).strip()
    if cleaned.count(",") == 1 and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")
    if not cleaned:
        raise ValueError(_("Type a number first."))
    match = _NUMBER_RE.match(cleaned)
    if match is None:
        raise ValueError(_("'{text}' is not a number: type digits such as 12.5, -0.5 or "
                           "4/3").format(text=f"{text:.40}"))
    top, bottom = float(match.group(1)), match.group(2)
    if bottom is not None:
        if float(bottom) == 0:
            raise ValueError(_("a fraction cannot have 0 below the line"))
        top /= float(bottom)
    if not math.isfinite(top):
        raise ValueError(_("Type a finite number."))
    return top


#: The column a copy beside a question gets: its figure's natural width and this margin,
#: shrinking with the page (its figure is then drawn again at the width it has).
BESIDE_MARGIN_PX = 24


def beside_question(app, question_box: widgets.Widget) -> widgets.Box:
    """``app`` (a lesson app, small) on the left and ``question_box`` on the right, the
    question above the app where the page is too narrow for both. The app's column is as
    wide as its figure's natural width and may shrink: the app is told the room it has
    (:mod:`.layout`) and draws its figure to fit, so it never spills under the question."""
    fig, box = getattr(app, "fig", None), getattr(app, "widget", None)
    if fig is None or not isinstance(box, widgets.Widget):
        raise ValueError(f"beside takes a lesson app (with .fig and .widget), not {short(app)}")
    if not isinstance(question_box, widgets.Box):
        raise ValueError(f"the question's box is a widgets box, not {short(question_box)}")
    ratio = getattr(fig.canvas, "device_pixel_ratio", 1) or 1
    width = round(fig.get_figwidth() * fig.dpi / ratio) + BESIDE_MARGIN_PX   # in CSS px
    column = widgets.VBox([box], layout=widgets.Layout(flex=f"0 1 {width}px", min_width="0",
                                                       margin="0 12px 0 0"))
    question_box.layout.flex = "1 1 360px"
    # wrap-reverse: where the page is too narrow for both, the question goes on top and the
    # copy right under its "Show this case" button (under the copy, the copy's own controls
    # pushed the question a screen below its figure); flex-end is the top edge then
    row = widgets.HBox([column, question_box],
                       layout=widgets.Layout(flex_flow="row wrap-reverse", align_items="flex-end"))
    row.add_class("lesson-question-beside")
    return row


class _Question:
    def __init__(self, prompt: str, hint: str, control: widgets.Widget,
                 show: Callable[[], None] | None = None, show_label: str | None = None,
                 beside=None):
        show_label = _("Show this case") if show_label is None else show_label
        for value, what in ((prompt, "prompt"), (hint, "hint"), (show_label, "show_label")):
            if not isinstance(value, str):
                raise ValueError(f"{what} is text, not {short(value)}")
        if show is not None and not callable(show):
            raise ValueError(f"show must be a function of no argument (or None), not "
                             f"{short(show)}")
        self.hint = hint
        self.control = control
        self.solved = False
        self.attempts = 0
        self._submitting = False
        self.check_button = widgets.Button(description=_("Check"), button_style="primary",
                                           layout=widgets.Layout(width="90px"))
        self.hint_button = widgets.Button(description=_("Hint"),
                                          layout=widgets.Layout(width="90px"))
        self.feedback = widgets.HTML()
        self.check_button.on_click(lambda _b: self.submit())
        self.hint_button.on_click(lambda _b: self.show_hint())
        buttons = [control, self.check_button, self.hint_button]
        self.show_button = None
        if show is not None:
            self.show_button = widgets.Button(description=show_label, icon="eye",
                                              layout=widgets.Layout(width="auto"))
            self.show_button.on_click(lambda _b: show())
            self.show_button.add_class("lesson-show-case")   # the page brings its copy in view
            buttons.append(self.show_button)
        self.prompt = widgets.HTML(
            f'<div style="{TEXT};{LINE_HEIGHT}"><b>{prompt}</b></div>')
        self.box = widgets.VBox(
            [self.prompt, widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap")),
             self.feedback],
            layout=widgets.Layout(border=f"1px solid {PALETTE['light']}", padding="6px",
                                  margin="6px 0"))
        self.box.add_class("lesson-question")
        quiet_tooltips(self.box)
        #: the app beside the question (None: the question alone)
        self.beside = beside
        self.widget = self.box if beside is None else beside_question(beside, self.box)
        guard_widget(control, lambda text: setattr(self.feedback, "value", _NO.format(
            html.escape(text))))

    def _ipython_display_(self):  # a bare `question` at the end of a cell shows it
        from IPython.display import display

        display(self.widget)

    def show_hint(self) -> None:
        self.feedback.value = hint_html(self.hint)

    def judge(self, value) -> tuple[bool, str]:
        raise NotImplementedError

    def _check_answer(self, value):
        """``value`` as the control holds it (a number as text in a text box), or a
        ValueError saying what the control takes."""
        options = getattr(self.control, "options", None)
        if options is not None:
            if not isinstance(value, str) or value not in options:
                raise ValueError(f"the answer must be one of {list(options)}, "
                                 f"not {short(value)}")
            return value
        if isinstance(value, str):
            return value
        if not check.is_number(value):
            raise ValueError(f"the answer must be a number or text, not {short(value)}")
        return str(value)

    def submit(self, value=None) -> bool:
        """Check ``value`` (or the control's current value) and show the verdict."""
        if value is not None:
            value = self._check_answer(value)
            self._submitting = True
            try:
                self.control.value = value
            finally:
                self._submitting = False
        try:
            ok, message = self.judge(self.control.value)
        except ValueError as exc:
            ok, message = False, str(exc)
        self.attempts += 1
        self.solved = ok
        self.feedback.value = (_OK if ok else _NO).format(html.escape(message))
        return ok


class NumberQuestion(_Question):
    """A numeric answer, accepted within ``tol`` (absolute).

    ``wrong`` maps known wrong answers to what they mean ("6.6: you left out the curvature
    scale"); each is recognised within the same ``tol``.
    """

    def __init__(self, prompt: str, answer: float, hint: str, tol: float = 0.5,
                 unit: str = "", explain: str = "", wrong: Mapping[float, str] | None = None,
                 show: Callable[[], None] | None = None, beside=None) -> None:
        answer = check.real(answer, "answer")
        tol = check.real(tol, "tol", lo=0.0)
        if not isinstance(unit, str) or not isinstance(explain, str):
            raise ValueError("unit and explain are text")
        if wrong is not None and not (isinstance(wrong, Mapping) and all(
                check.is_finite(k) and isinstance(v, str) for k, v in wrong.items())):
            raise ValueError("wrong maps wrong answers (finite numbers) to what they mean "
                             "(text)")
        self.answer, self.tol, self.unit, self.explain = float(answer), float(tol), unit, explain
        self.wrong = {float(k): v for k, v in (wrong or {}).items()}
        for k in self.wrong:
            if not math.isfinite(k) or abs(k - self.answer) <= self.tol:
                raise ValueError(f"the wrong answer {k:g} must be finite and outside the "
                                 f"tolerance of the right one")
        control = widgets.Text(placeholder=_("your answer") + (f" ({unit})" if unit else ""),
                               continuous_update=False, layout=widgets.Layout(width="170px"))
        super().__init__(prompt, hint, control, show, beside=beside)
        # Enter (or leaving the box) checks the answer; Check does too
        control.observe(lambda _c: None if self._submitting else self.submit(), names="value")

    def judge(self, value) -> tuple[bool, str]:
        number = parse_number(str(value))
        if abs(number - self.answer) <= self.tol:
            return True, (_("Right!") + " " + self.explain).strip()
        for known, why in self.wrong.items():
            if abs(number - known) <= self.tol:
                return False, _("Not quite: {number}. {why}").format(number=f"{number:g}", why=why)
        verdict = (_("Not quite: {number} is too high. Try again, or ask for a hint.")
                   if number > self.answer else
                   _("Not quite: {number} is too low. Try again, or ask for a hint."))
        return False, verdict.format(number=f"{number:g}")


class ChoiceQuestion(_Question):
    """Pick one option. ``options`` is a list, or a mapping option -> why it is wrong."""

    def __init__(self, prompt: str, options: Sequence[str] | Mapping[str, str | None],
                 answer: str, hint: str, explain: str = "",
                 show: Callable[[], None] | None = None, beside=None) -> None:
        if isinstance(options, Mapping):
            reasons = dict(options)
        else:
            reasons = dict.fromkeys(check.items(options, "options", "texts")) \
                if all(isinstance(o, str) for o in check.items(options, "options", "texts")) \
                else None
        if reasons is None or len(reasons) < 2 or not all(
                isinstance(k, str) and (v is None or isinstance(v, str))
                for k, v in reasons.items()):
            raise ValueError("options must be two or more texts (or text -> why it is wrong)")
        if not isinstance(explain, str):
            raise ValueError(f"explain is text, not {short(explain)}")
        if not isinstance(answer, str) or answer not in reasons:
            raise ValueError(f"the answer {answer!r:.60} is not one of the options {list(reasons)}")
        self.answer, self.explain, self.reasons = answer, explain, reasons
        # (a margin: the longest option's label ran up to the Check button, 5 px apart)
        control = widgets.RadioButtons(options=list(reasons), value=None,
                                       layout=widgets.Layout(width="auto",
                                                             margin="0 18px 0 0"))
        super().__init__(prompt, hint, control, show, beside=beside)

    def judge(self, value) -> tuple[bool, str]:
        if value is None:
            return False, _("Pick an option first.")
        if not isinstance(value, str):
            raise ValueError(f"an answer is one of the options, not {short(value)}")
        if value == self.answer:
            return True, (_("Right!") + " " + self.explain).strip()
        why = self.reasons.get(value)
        return False, (_("Not '{value}': {why}").format(value=value, why=why) if why else
                       _("Not '{value}'. Think again, or ask for a hint.").format(value=value))


def _source_of(fn: Callable, name: str | None = None) -> str:
    """The code of ``fn``; for a lambda wrapping the learner's function (``lambda q0, q1, t:
    as_float_array(my_nlerp(q0, q1, t))``) the code of that function, found by ``name``.
    (The source of a lambda is the whole statement around it: the check_function call,
    with the widget question's answer in it.)"""
    if getattr(fn, "__name__", "") == "<lambda>" and name:
        named = getattr(fn, "__globals__", {}).get(name)
        if callable(named):
            fn = named
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return f"# the code of {getattr(fn, '__name__', 'this function')} is not available"


def _highlighted(code: str) -> str:
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer
    except ImportError:  # pragma: no cover - pygments comes with Jupyter
        return f"<pre>{html.escape(code)}</pre>"
    formatter = HtmlFormatter(noclasses=True, style="friendly")
    return highlight(code, PythonLexer(), formatter)


def _value_text(value) -> str:
    """A case's argument as a learner would write it: numbers rounded to 3 decimals, arrays
    as tuples ("(4.431, 0.113)", not "array([4.43056106, 0.11327553])")."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return repr(value)
    if arr.ndim == 0:
        return f"{round(float(arr), 3):g}"
    return "(" + ", ".join(_value_text(v) for v in arr) + ")"


def _run_cases(fn, reference, cases, atol, name) -> list[str]:
    failures = []
    for args in cases:
        call = f"{name}({', '.join(_value_text(a) for a in args)})"
        want = np.asarray(reference(*args), dtype=float)
        try:
            got = np.asarray(fn(*args), dtype=float)
        except Exception as exc:  # the learner's code: report, never raise
            failures.append(f"{call} raised {type(exc).__name__}: {exc}")
            continue
        if got.shape != want.shape:
            failures.append(f"{call} has shape {got.shape}, expected {want.shape}")
        elif not np.allclose(got, want, atol=atol):
            failures.append(f"{call} gave {_value_text(got)}, expected {_value_text(want)}")
    return failures


def check_function(fn: Callable, reference: Callable, cases: Iterable[tuple],
                   hint: str = "", atol: float = 1e-6, name: str | None = None,
                   widget: _Question | None = None,
                   source: Callable | None = None) -> widgets.Widget:
    """Compare a learner's function with the reference on ``cases`` and say how it went.

    In JupyterLab: a verdict (the returned widget's ``.ok`` tells whether every case passed),
    with ``hint``, if one is given, behind a disclosure when a case fails.
    In Voila, where the code cell is hidden and cannot be edited: the code of ``source``
    (default ``fn``: give the learner's function when ``fn`` wraps it), read-only, and
    ``widget`` (the same exercise as a question), never a verdict on code the reader did not
    write. ``.ok`` is still set, for tests.
    """
    if not callable(fn) or not callable(reference):
        raise ValueError("fn and reference must be functions")
    if not isinstance(hint, str):
        raise ValueError(f"hint is text, not {short(hint)}")
    if source is not None and not callable(source):
        raise ValueError(f"source must be the function whose code to show, not {short(source)}")
    atol = check.length(atol, "atol", allow_zero=True)
    cases = [tuple(c) if isinstance(c, list | tuple) else (c,)
             for c in check.items(cases, "cases", "tuples of arguments")]
    if name is not None and not isinstance(name, str):
        raise ValueError(f"name is text, not {short(name)}")
    name = name or getattr(fn, "__name__", "your function")
    failures = _run_cases(fn, reference, cases, atol, name)
    if in_voila():
        intro = widgets.HTML(
            f'<div style="{TEXT}">' + _(
                "In JupyterLab this is a code cell you can edit and run; here is the code "
                "{name} starts from:").format(name=f"<code>{html.escape(name)}</code>")
            + "</div>"
            + _highlighted(_source_of(source or fn, name)))
        parts = [intro]
        if widget is not None:
            parts += [widgets.HTML(f'<div style="{TEXT}">' + _("Try the same idea here:")
                                   + "</div>"),
                      widget.widget]
        out = widgets.VBox(parts)
    elif failures:
        # the hint on request (a disclosure): on Run All it must not come before the try
        out = widgets.HTML(_NO.format(_("{failed} of {total} checks failed. First one: ")
                                      .format(failed=len(failures), total=len(cases))
                                      + html.escape(failures[0]))
                           + (f"<details><summary>{_('Hint')}</summary>{hint_html(hint)}"
                              "</details>"
                              if hint else ""))
    else:
        out = widgets.HTML(_OK.format(_("All {total} checks pass. Well done!").format(
            total=len(cases))))
    out.ok = not failures
    return out
