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

Each figure's canvas talks to the page over a comm of its own (ipympl's protocol: pointer
events, the view's handshake, its size and pixel ratio), which :func:`guard_canvas` puts
behind the same kind of guard: only the messages a lesson needs get through
(:data:`POINTER_EVENTS` the figure has handlers for, :data:`CANVAS_HANDSHAKE`), the size is
kept within :data:`FIGURE_MIN_PX`..:data:`FIGURE_MAX_PX` and the pixel ratio within
:data:`MIN_PIXEL_RATIO`..:data:`MAX_PIXEL_RATIO`, and no figure is ever drawn with more than
:data:`PIXEL_BUDGET` pixels. Toolbar buttons (pan, zoom) and key presses are dropped.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import sys
from collections import deque
from collections.abc import Callable

import ipywidgets as widgets
import traitlets

from ... import validate as check
from ...validate import is_finite, is_number
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
#: The lowest device-pixel ratio a figure is rendered for: browsers report below 1 when
#: zoomed out (0.5 at 50%); 0 made every draw fail.
MIN_PIXEL_RATIO = 0.25
#: The most pixels one draw of one figure may have (width x height x ratio squared): 2048 x
#: 2048, a 16 MB frame. Lesson 1 drawn at this size took about 70 MB more and 0.25 s a draw;
#: a larger request is drawn smaller (same shape) so that the kernel never pays more.
PIXEL_BUDGET = 2048 * 2048


def _label(w: widgets.Widget) -> str:
    return getattr(w, "description", "") or type(w).__name__


def _check_number(w, key: str, value) -> None:
    if not is_number(value):
        raise ValueError(f"takes a number, not {short(value)}")
    if not is_finite(value):
        raise ValueError(f"takes a finite number within float range, not {short(value)}")
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
    if not isinstance(state, dict):
        raise ValueError("was sent a malformed update")
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
        elif isinstance(w.traits().get(key), traitlets.Unicode):   # a text box, the probe
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


def _check_state_dict(state) -> None:
    if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
        raise ValueError(f"a widget update must be a dict of named values, got "
                         f"{check.describe(state)}")


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
        if not self.applies(w):
            raise ValueError(f"an EchoFilter is for a FloatSlider, got {check.describe(w)}")
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
        _check_state_dict(state)
        value = state.get("value") if set(state) == {"value"} else None
        if not is_finite(value):
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
        _check_state_dict(state)
        self._from_page = True
        try:
            self.widget.set_state(state)
        finally:
            self._from_page = False


Refused = Callable[[str], None] | None


def _teller(on_refused: Refused) -> Callable[[str], None]:
    """``on_refused`` checked: a callable, or None for a refusal that is only logged."""
    if on_refused is None:
        return lambda text: None
    if not callable(on_refused):
        raise ValueError(f"on_refused must be a function of one sentence or None, not "
                         f"{short(on_refused)}")
    return on_refused


def handle_message(w: widgets.Widget, on_refused: Refused, msg: dict) -> None:
    """Apply one front-end message to ``w`` if it is something a person could do;
    ``on_refused`` (None: only the log) hears why a message was refused."""
    tell = _teller(on_refused)
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
        tell(f"'{_label(w)}' {reason}; it keeps its value.")
        sent = [k for k in (state if isinstance(state, dict) else {}) if k in w.keys]
        keys = sorted({*sent, *(k for k in ("value", "index", "playing") if k in w.keys)})
        if keys:  # the page goes back to what the kernel kept
            w.send_state(keys)


def refuse_non_finite(w: widgets.Widget, on_refused: Refused) -> None:
    """A number control refuses NaN, infinity or a non-number set from Python, as it does
    from the page: it keeps its value and ``on_refused`` says why (ipywidgets would store a
    NaN, and every later update of the app would fail on it). Values out of range are left
    to ipywidgets, which clamps them as before."""
    tell = _teller(on_refused)
    previous = w._trait_validators.get("value")

    def validate(obj, proposal):
        value = proposal["value"]
        if not is_finite(value):
            reason = f"takes a finite number, not {short(value)}"
            log.info("control %s refused %s from Python: %s", _label(w), short(value), reason)
            tell(f"'{_label(w)}' {reason}; it keeps its value.")
            return obj.value
        return previous(obj, proposal) if previous is not None else value

    w._register_validator(validate, ["value"])


def _answer_states(cls, msg) -> None:
    """ipywidgets' answer to the page's ``request_states``, with each state built once."""
    from ipywidgets.widgets.widget import _instances, _remove_buffers

    if cls._control_comm is None:
        return _IPYWIDGETS_ANSWER(cls, msg)     # ipywidgets' own error
    data = msg["content"]["data"]
    if not isinstance(data, dict) or data.get("method") != "request_states":
        # only a crafted page sends anything else: refused in the log, no traceback on it
        log.info("a widget control message other than request_states was dropped: %s",
                 short(data))
        return None
    states = {w.model_id: {"model_name": w._model_name, "model_module": w._model_module,
                           "model_module_version": w._model_module_version,
                           "state": w.get_state(drop_defaults=False)}
              for w in list(_instances.values())}
    states, buffer_paths, buffers = _remove_buffers(states)
    cls._control_comm.send({"method": "update_states", "states": states,
                            "buffer_paths": buffer_paths}, buffers=buffers)


_IPYWIDGETS_ANSWER = widgets.Widget._handle_control_comm_msg.__func__


def answer_states_once() -> None:
    """Answer the page's request for every widget's state building each state once.

    A page (Voila's, or JupyterLab's on reload) asks for all widget states at once over
    ipywidgets' control comm when it opens. ipywidgets 8.1 answers by calling
    ``Widget.get_manager_state()``, dropping its result, and then building every state again
    for the answer: with a lesson's 300 to 730 widget models the dropped pass is 10 to 27 ms
    of the kernel's CPU at each page's arrival (lesson 4: 27 of 70 ms), in a room of 30 at
    the moment every kernel is busiest. The answer sent is the same message. Any other
    message on that comm (only a crafted page sends one) is dropped with a line in the log,
    where ipywidgets raised and the kernel printed a traceback to the page. Idempotent."""
    widgets.Widget._handle_control_comm_msg = classmethod(_answer_states)


def guard_widget(w: widgets.Widget, on_refused: Refused = None) -> bool:
    """Route ``w``'s widget messages through :func:`handle_message` (once). True if guarded.
    ``on_refused`` (a function of one sentence; None: the log only) hears each refusal.

    The ipympl canvas and its toolbar keep their own protocol: :func:`guard_canvas` guards
    those (:func:`~.figure.make_figure` calls it for every figure).
    """
    on_refused = _teller(on_refused)
    comm = getattr(w, "comm", None)
    if comm is None or getattr(comm, "_lesson_guarded", False):
        return False
    if type(w).__module__.startswith("ipympl"):
        return False
    if EchoFilter.applies(w):
        w._lesson_echoes = EchoFilter(w)
    if hasattr(w, "min") and hasattr(w, "max") and "value" in w.traits():
        refuse_non_finite(w, on_refused)
    comm.on_msg(functools.partial(handle_message, w, on_refused))
    comm._lesson_guarded = True
    return True


#: Set (to the cap in MiB) in a room kernel's environment: the kernel runs under a memory
#: cap (lessons_server.memcap) and a MemoryError ends it.
MEMORY_CAP_ENV = "LESSONS_MEMORY_CAP_MB"


def out_of_memory(exc: MemoryError) -> None:
    """A callback ran out of memory. In a room's kernel under a memory cap that ends the
    kernel (nothing it holds can be trusted after a failed allocation; its page says so and
    offers a reload): the cap's stop is reached through ``sys.excepthook``. Anywhere else
    this returns, and the caller shows a one-line message as for any other error."""
    if os.environ.get(MEMORY_CAP_ENV):
        sys.excepthook(type(exc), exc, exc.__traceback__)


# -- the canvas channel -------------------------------------------------------------------

#: The page's pointer messages and the matplotlib event each becomes. One goes through only
#: when something besides matplotlib's own bookkeeping listens to that event on the figure
#: (a lesson's drag, click or hover); the rest would only cost a message's work.
POINTER_EVENTS = {
    "button_press": "button_press_event",
    "button_release": "button_release_event",
    "dblclick": "button_press_event",
    "motion_notify": "motion_notify_event",
    "figure_enter": "figure_enter_event",
    "figure_leave": "figure_leave_event",
    "scroll": "scroll_event",
}
#: The view's handshake with the kernel (ipympl): it is shown, asks for the picture, says it
#: received a frame, goes away.
CANVAS_HANDSHAKE = frozenset({"initialized", "refresh", "draw", "send_image_mode", "ack",
                              "closing"})
#: The pixel ratio messages (ipympl sends both), by the key that carries the ratio.
RATIO_MESSAGES = {"set_device_pixel_ratio": "device_pixel_ratio", "set_dpi_ratio": "dpi_ratio"}
#: Canvas state the page syncs back: the zoom rectangle it drew and its copy of the image.
CANVAS_STATE = frozenset({"_rubberband_x", "_rubberband_y", "_rubberband_width",
                          "_rubberband_height", "_data_url"})
#: Keys a page's pointer event may hold down.
MODIFIERS = frozenset({"ctrl", "alt", "shift", "meta", "super"})
#: A pointer farther than this (pixels) from the figure's corner is not a pointer.
POINTER_REACH = 100_000
#: The highest pointer button a page may press (0 main, 1 middle, 2 right).
MAX_BUTTON = 2
#: The most a wheel event may scroll (ipympl sends one step, +1 or -1).
MAX_SCROLL_STEP = 100


def _finite(content: dict, key: str, what: str) -> float:
    value = content.get(key)
    if not is_finite(value):
        raise ValueError(f"{what} must be a finite number within float range, not "
                         f"{short(value)}")
    return float(value)


def _whole(content: dict, key: str, lo: int, hi: int) -> int:
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{key} must be a whole number from {lo} to {hi}, not {short(value)}")
    return value


def _listens(canvas, event: str) -> bool:
    """Does anything but matplotlib's (and ipympl's) own bookkeeping handle ``event``?"""
    for ref in list(canvas.callbacks.callbacks.get(event, {}).values()):
        func = ref()
        func = getattr(func, "__func__", func)
        module = getattr(func, "__module__", "") or ""
        if func is not None and not module.startswith(("matplotlib.", "ipympl.")):
            return True
    return False


def check_pointer(content: dict) -> dict:
    """A page's pointer or wheel event with every field checked (ValueError otherwise), in
    the form matplotlib reads: coordinates, button, buttons held, modifiers, wheel step."""
    kind = content.get("type") if isinstance(content, dict) else None
    if kind not in POINTER_EVENTS:
        raise ValueError(f"a pointer event has a type among {', '.join(POINTER_EVENTS)}")
    clean = {"type": kind}
    for key in ("x", "y"):
        clean[key] = _finite(content, key, f"the pointer's {key}")
        if abs(clean[key]) > POINTER_REACH:
            raise ValueError(f"the pointer's {key} = {short(clean[key])} is off the figure")
    # the main, middle and right buttons: matplotlib knows back and forward (3 and 4 on
    # the page) as 8 and 9, and its own mouse handler raised for the 4 and 5 ipympl made
    clean["button"] = _whole(content, "button", 0, MAX_BUTTON)
    clean["buttons"] = _whole(content, "buttons", 0, 31)
    modifiers = content.get("modifiers", [])
    if not isinstance(modifiers, list) or len(modifiers) > len(MODIFIERS) or \
            not all(isinstance(m, str) and m in MODIFIERS for m in modifiers):
        raise ValueError(f"modifiers must be a list of {', '.join(sorted(MODIFIERS))}")
    clean["modifiers"] = list(modifiers)
    if content["type"] == "scroll":
        clean["step"] = _finite(content, "step", "the wheel step")
        if abs(clean["step"]) > MAX_SCROLL_STEP:
            raise ValueError(f"the wheel step {short(clean['step'])} is too large")
    return clean


def clamp_ratio(value) -> float:
    """A page's device pixel ratio within :data:`MIN_PIXEL_RATIO`..:data:`MAX_PIXEL_RATIO`
    (ValueError for anything that is not a finite number)."""
    if not is_finite(value):
        raise ValueError(f"the pixel ratio must be a finite number within float range, not "
                         f"{short(value)}")
    return min(max(float(value), MIN_PIXEL_RATIO), MAX_PIXEL_RATIO)


def fit_size(width: float, height: float, ratio: float) -> tuple[int, int]:
    """The figure size (CSS px) to draw for a page that asks for ``width`` x ``height`` at
    ``ratio``: each side within :data:`FIGURE_MIN_PX`..:data:`FIGURE_MAX_PX`, then made
    smaller, same shape, until it fits :data:`PIXEL_BUDGET` at that ratio. ``width`` and
    ``height`` are finite numbers (clamped as said), ``ratio`` within
    :data:`MIN_PIXEL_RATIO`..:data:`MAX_PIXEL_RATIO`; a ValueError otherwise."""
    w = min(max(check.real(width, "width", unit="px"), FIGURE_MIN_PX), FIGURE_MAX_PX)
    h = min(max(check.real(height, "height", unit="px"), FIGURE_MIN_PX), FIGURE_MAX_PX)
    ratio = check.real(ratio, "the pixel ratio", lo=MIN_PIXEL_RATIO, hi=MAX_PIXEL_RATIO)
    area = PIXEL_BUDGET / (ratio * ratio)           # CSS px the budget allows
    if w * h > area:
        shrink = math.sqrt(area / (w * h))
        w, h = max(w * shrink, FIGURE_MIN_PX), max(h * shrink, FIGURE_MIN_PX)
        # a side held at the minimum: the other takes what the budget leaves
        if w * h > area:
            if w <= FIGURE_MIN_PX:
                h = area / w
            else:
                w = area / h
    return int(w), int(h)   # floored: within the budget


def _css_size(canvas) -> tuple[float, float]:
    return tuple(canvas.get_width_height(physical=False))


def _custom(content: dict) -> dict:
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def check_canvas_message(canvas, content) -> list[dict]:
    """The messages to apply for one custom message from a canvas's page: none (dropped),
    the message (checked, maybe clamped), or a resize to keep within the budget and then
    the message. Raises ValueError, one sentence, for a message a lesson does not take."""
    kind = content.get("type") if isinstance(content, dict) else None
    if not isinstance(kind, str):
        raise ValueError("was sent a message without a type")
    if kind in CANVAS_HANDSHAKE:
        return [{"type": kind}]
    if kind in POINTER_EVENTS:
        if not _listens(canvas, POINTER_EVENTS[kind]):
            return []
        return [check_pointer(content)]
    if kind in RATIO_MESSAGES:
        asked = content.get(RATIO_MESSAGES[kind])
        ratio = clamp_ratio(asked)
        if ratio != asked:
            log.info("figure %s: pixel ratio %s taken as %s", _figure(canvas), short(asked),
                     short(ratio))
        out = []
        w, h = _css_size(canvas)
        if w * h * ratio * ratio > PIXEL_BUDGET:
            fitted = fit_size(w, h, ratio)
            log.info("figure %s: %gx%g px at ratio %s is over the pixel budget; drawn at "
                     "%dx%d", _figure(canvas), w, h, short(ratio), *fitted)
            out.append({"type": "resize", "width": fitted[0], "height": fitted[1]})
        return [*out, {"type": kind, RATIO_MESSAGES[kind]: ratio}]
    if kind == "resize":
        asked = (_finite(content, "width", "the width"), _finite(content, "height",
                                                                    "the height"))
        fitted = fit_size(*asked, canvas.device_pixel_ratio)
        if fitted != (int(asked[0]), int(asked[1])):
            log.info("figure %s: resize to %sx%s px taken as %dx%d", _figure(canvas),
                     short(asked[0]), short(asked[1]), *fitted)
        return [{"type": "resize", "width": fitted[0], "height": fitted[1]}]
    if kind in ("toolbar_button", "key_press", "key_release"):
        raise ValueError(f"takes no {kind.replace('_', ' ')}s (no pan, zoom or shortcuts "
                         "in a lesson)")
    raise ValueError(f"takes no {short(kind)} messages")


def _figure(canvas) -> str:
    number = getattr(canvas.figure, "number", None)
    label = canvas.figure.get_label() or (f"#{number}" if number is not None else "")
    return label or f"at {id(canvas.figure):#x}"


def _check_canvas_state(state) -> None:
    if not isinstance(state, dict):
        raise ValueError("was sent a malformed update")
    extra = sorted(set(state) - CANVAS_STATE)
    if extra:
        raise ValueError(f"cannot be given {', '.join(extra)} from the page")
    for key, value in state.items():
        if key == "_data_url":
            if not isinstance(value, str):
                raise ValueError(f"takes the image as text, not {short(value)}")
        elif not is_finite(value):
            raise ValueError(f"takes a finite {key}, not {short(value)}")


def handle_canvas_message(canvas, msg: dict) -> None:
    """Apply one message from a canvas's page if a lesson takes it (see
    :func:`check_canvas_message`); anything else is dropped with one line in the log."""
    content = msg.get("content") if isinstance(msg, dict) else None
    data = content.get("data") if isinstance(content, dict) else None
    if not isinstance(data, dict):
        return
    method = data.get("method")
    try:
        if method == "request_state":
            todo = [msg]
        elif method == "update":
            _check_canvas_state(data.get("state"))
            if data.get("buffer_paths"):
                raise ValueError("cannot be given binary data from the page")
            todo = [msg]
        elif method == "custom":
            todo = [_custom(c) for c in check_canvas_message(canvas, data.get("content"))]
        else:
            raise ValueError(f"takes no {short(method)} method")
    except ValueError as exc:
        log.info("figure %s dropped a page message: %s", _figure(canvas), exc)
        return
    for one in todo:
        try:
            canvas._handle_msg(one)
        except MemoryError as exc:
            out_of_memory(exc)
            log.info("figure %s: out of memory for a page message", _figure(canvas))
        except Exception as exc:  # a malformed message must not reach the page
            log.info("figure %s: a page message failed: %s", _figure(canvas), exc)


def _drop_toolbar_message(toolbar, msg: dict) -> None:
    data = (msg.get("content") or {}).get("data") if isinstance(msg, dict) else None
    method = data.get("method") if isinstance(data, dict) else None
    if method == "request_state":
        toolbar._handle_msg(msg)
        return
    log.info("the hidden toolbar dropped a page message (%s): no pan or zoom in a lesson",
             short(method))


def guard_canvas(canvas) -> bool:
    """Route an ipympl canvas's page messages (and its hidden toolbar's) through
    :func:`handle_canvas_message` (once). True if guarded; False for a canvas without a comm
    (no ipympl) or one already guarded."""
    comm = getattr(canvas, "comm", None)
    if comm is None or getattr(comm, "_lesson_guarded", False) or \
            not hasattr(canvas, "_handle_msg"):
        return False
    comm.on_msg(functools.partial(handle_canvas_message, canvas))
    comm._lesson_guarded = True
    toolbar = getattr(canvas, "toolbar", None)
    tcomm = getattr(toolbar, "comm", None)
    if tcomm is not None and not getattr(tcomm, "_lesson_guarded", False):
        tcomm.on_msg(functools.partial(_drop_toolbar_message, toolbar))
        tcomm._lesson_guarded = True
    return True


__all__ = ["CANVAS_HANDSHAKE", "FIGURE_MAX_PX", "FIGURE_MIN_PX", "MAX_BUTTON", "MAX_PIXEL_RATIO",
           "MIN_PIXEL_RATIO", "PIXEL_BUDGET", "POINTER_EVENTS", "EchoFilter", "allowed_keys",
           "check_canvas_message", "check_pointer", "check_update", "clamp_ratio", "fit_size",
           "guard_canvas", "guard_widget", "handle_canvas_message", "handle_message",
           "out_of_memory", "refuse_non_finite"]
