"""The widget-channel guard: the page can set only what a person can set.

A browser (or anything that speaks the widget protocol, e.g. a student's crafted message to
the classroom server) sends ``{"method": "update", "state": {...}}`` to a widget. ipywidgets
would apply any synced trait: a slider's ``max``, a Play's ``interval``, a dropdown's
``index`` of None, NaN for a value. :func:`guard_widget` routes each message through
:func:`check_update` first, which lets through only the keys a person changes by using the
control (``value``; ``index`` for a choice; ``playing`` for Play), each checked for type,
finiteness and range. Anything else is refused: the widget keeps its value, the page is sent
the value actually kept, and ``on_refused`` gets one sentence saying why.

A float slider's page also sends back values the kernel set: ipywidgets' slider view hands
the kernel's value to noUiSlider, which snaps it to the step through a percentage and
reports, say, -88.99999999999999 for -89; the view sends that back as the person's move.
Each such echo cost a second update and picture, and one that arrived after a newer value
(Play, "Lock it", a drag) put the control back to the older one: "Lock it" ended at -89 with
no lock, and a drag of lesson 3's car drew every position twice. :class:`EchoFilter` drops
them (see there).
"""

from __future__ import annotations

import functools
import logging
import math
from collections import deque
from collections.abc import Callable

import ipywidgets as widgets

from ...validate import is_number
from .controls import short

log = logging.getLogger("lessons_lib.apps")

#: The longest text a Text box accepts from the page (an answer, not a novel).
MAX_TEXT = 200

#: A figure's size on the page, in CSS px, per side: the layout (:mod:`.layout`) never
#: makes a figure smaller or larger, and a size the page asks for must lie within.
FIGURE_MIN_PX = 240
FIGURE_MAX_PX = 2400
#: The largest device-pixel ratio a figure is rendered for (a 4K screen at 150% is 3):
#: beyond it the kernel would render and send many times the pixels for no visible gain.
MAX_PIXEL_RATIO = 3.0


def _label(w: widgets.Widget) -> str:
    return getattr(w, "description", "") or type(w).__name__


def _check_number(w, key: str, value) -> None:
    if not is_number(value):
        raise ValueError(f"takes a number, not {short(value)}")
    if not math.isfinite(value):
        raise ValueError(f"takes a finite number, not {short(value)}")
    lo, hi = getattr(w, "min", None), getattr(w, "max", None)
    if is_number(lo) and is_number(hi) and not lo <= value <= hi:
        raise ValueError(f"goes from {short(lo)} to {short(hi)}; {short(value)} is outside")
    if isinstance(w, widgets.IntSlider | widgets.Play | widgets.IntText) and value != int(value):
        raise ValueError(f"takes whole numbers, not {short(value)}")


def _check_index(w, value) -> None:
    n = len(getattr(w, "options", ()) or ())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise ValueError(f"is one of {n} options; index {short(value)} is not one of them")


#: Widgets that show things: nothing about them is the page's to set.
_READ_ONLY = (widgets.HTML, widgets.HTMLMath, widgets.Label, widgets.Valid, widgets.Output,
              widgets.FloatProgress, widgets.IntProgress)


def allowed_keys(w: widgets.Widget) -> frozenset[str]:
    """The synced keys a person changes by using ``w``."""
    if isinstance(w, _READ_ONLY):
        return frozenset()
    if isinstance(w, widgets.Play):
        return frozenset({"value", "playing"})
    if isinstance(w, widgets.widget_selection._Selection):
        return frozenset({"index"})
    if isinstance(w, widgets.ValueWidget):
        return frozenset({"value"})
    return frozenset()


def check_update(w: widgets.Widget, state: dict) -> None:
    """Raise ValueError (one sentence) unless ``state`` is something a person could set."""
    allowed = allowed_keys(w)
    extra = sorted(set(state) - allowed)
    if extra:
        raise ValueError(f"cannot be given {', '.join(extra)} from the page")
    for key, value in state.items():
        if key == "index":
            _check_index(w, value)
        elif key == "playing" or isinstance(w, widgets.Checkbox | widgets.ToggleButton):
            if not isinstance(value, bool):
                raise ValueError(f"is on or off, not {short(value)}")
        elif isinstance(w, widgets.Text | widgets.Textarea):
            if not isinstance(value, str) or len(value) > MAX_TEXT:
                raise ValueError(f"takes text of at most {MAX_TEXT} characters")
        elif hasattr(w, "min") and hasattr(w, "max"):
            _check_number(w, key, value)
        else:
            raise ValueError(f"cannot be given {short(value)} from the page")


#: A value within this share of a step of one the kernel set is that value come back.
ECHO_SHARE = 1e-9
#: How many values the kernel set that may still come back (Play sets 25 a second).
ECHO_PENDING = 256


class EchoFilter:
    """Tells a float slider's echo of a value the kernel set from a person's move.

    The page's messages arrive in the order it sent them, and it echoes a value as soon as
    it receives it: so the kernel's values come back in the order they were set, each within
    rounding (:data:`ECHO_SHARE` of a step) of the value set, never equal to it (an exact
    value is not sent back). A page value that matches one still pending is its echo: it and
    every older pending value are dropped. A value within rounding of the slider's current
    one (an echo of the value it was made with) is dropped too. A person's move is either a
    whole step away, or equal to a value, never a rounding apart: it goes through.
    """

    def __init__(self, w: widgets.Widget) -> None:
        self.widget = w
        self.pending: deque = deque(maxlen=ECHO_PENDING)
        self.dropped = 0
        self._from_page = False
        w.observe(self._note, names="value")

    @staticmethod
    def applies(w: widgets.Widget) -> bool:
        return isinstance(w, widgets.FloatSlider)

    def _note(self, change) -> None:
        if not self._from_page:
            self.pending.append(change["new"])

    def _near(self, a, b) -> bool:
        return a != b and abs(a - b) <= ECHO_SHARE * abs(float(self.widget.step))

    def is_echo(self, state: dict) -> bool:
        """True (and the pending values up to it forgotten) when ``state`` is an echo."""
        value = state.get("value") if set(state) == {"value"} else None
        if not is_number(value) or not math.isfinite(value):
            return False
        for i, kept in enumerate(self.pending):
            if self._near(kept, value):
                for _ in range(i + 1):
                    self.pending.popleft()
                self.dropped += 1
                return True
        if self._near(self.widget.value, value):
            self.dropped += 1
            return True
        return False

    def apply(self, state: dict) -> None:
        """Set ``state`` from the page (not noted as the kernel's)."""
        self._from_page = True
        try:
            self.widget.set_state(state)
        finally:
            self._from_page = False


def handle_message(w: widgets.Widget, on_refused: Callable[[str], None], msg: dict) -> None:
    """Apply one front-end message to ``w`` if it is something a person could do."""
    content = msg.get("content") if isinstance(msg, dict) else None
    data = content.get("data") if isinstance(content, dict) else None
    if not isinstance(data, dict):
        return
    if data.get("method") != "update":      # clicks, request_state, ...: ipywidgets' own
        try:
            w._handle_msg(msg)
        except Exception as exc:  # a malformed custom message must not reach the page
            log.info("widget %s ignored a message: %s", _label(w), exc)
        return
    state = data.get("state")
    try:
        if not isinstance(state, dict):
            raise ValueError("was sent a malformed update")
        buffer_paths = data.get("buffer_paths") or []
        if buffer_paths:
            raise ValueError("cannot be given binary data from the page")
        check_update(w, state)
        echoes = getattr(w, "_lesson_echoes", None)
        if echoes is None:
            w.set_state(state)
        elif not echoes.is_echo(state):
            echoes.apply(state)
    except Exception as exc:
        reason = str(exc) if isinstance(exc, ValueError) else "cannot take that value"
        log.info("control %s refused %s: %s", _label(w), short(state), reason)
        on_refused(f"'{_label(w)}' {reason}; it keeps its value.")
        sent = [k for k in (state if isinstance(state, dict) else {}) if k in w.keys]
        keys = sorted({*sent, *(k for k in ("value", "index", "playing") if k in w.keys)})
        if keys:  # the page goes back to what the kernel kept
            w.send_state(keys)


def guard_widget(w: widgets.Widget, on_refused: Callable[[str], None]) -> bool:
    """Route ``w``'s widget messages through :func:`handle_message` (once). True if guarded.

    The ipympl canvas and its toolbar keep their own protocol and are left alone.
    """
    comm = getattr(w, "comm", None)
    if comm is None or getattr(comm, "_lesson_guarded", False):
        return False
    if type(w).__module__.startswith("ipympl"):
        return False
    if EchoFilter.applies(w):
        w._lesson_echoes = EchoFilter(w)
    comm.on_msg(functools.partial(handle_message, w, on_refused))
    comm._lesson_guarded = True
    return True


__all__ = ["FIGURE_MAX_PX", "FIGURE_MIN_PX", "MAX_PIXEL_RATIO", "EchoFilter", "allowed_keys",
           "check_update", "guard_widget", "handle_message"]
