"""Control specifications: an app declares its controls once; the base class builds them.

A spec with ``redraw=True`` only changes the picture (an overlay, a view): like the frame,
changing it re-draws and never re-computes (``LessonApp.compute`` does not get it).
``primary=True`` marks a control the lesson's "things to try" use: the layout keeps it
beside the figure or right under it; the others go behind "More controls" (:mod:`.layout`).

A spec knows how to make its widget and how to check a value for it, so the same rule
applies to a value set from code (``app.set(...)``, a preset) and to one that arrives from
the page (see :mod:`.guard`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from ... import validate as check
from ...i18n import _
from ...validate import huge_integer, is_finite, is_number


def short(value, limit: int = 30) -> str:
    """A value as a person would type it: 180 rather than 180.0, 1e+09 rather than ten digits."""
    if isinstance(value, float):
        return f"{value:g}"
    text = huge_integer(value, limit) or repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_spec(spec, texts: tuple[str, ...], flags: tuple[str, ...]) -> str:
    """A control spec's text and flag fields checked (a ValueError naming the field); its
    kind and name, for the spec's own messages."""
    kind = type(spec).__name__.lower()
    where = f"{kind} {short(getattr(spec, 'name', None))}"
    for key in texts:
        if not isinstance(getattr(spec, key), str):
            raise ValueError(f"{where}: {key} must be text, got {short(getattr(spec, key))}")
    for key in flags:
        check.flag(getattr(spec, key), f"{where}: {key}")
    return where


_TEXTS = ("name", "label", "help", "width")
_FLAGS = ("redraw", "primary")


@dataclass(frozen=True)
class Slider:
    """A number between ``min`` and ``max`` in steps of ``step`` (an IntSlider if ``integer``)."""

    name: str
    label: str
    min: float
    max: float
    step: float = 1.0
    value: float | None = None
    integer: bool = False
    readout: str = ".0f"
    help: str = ""
    width: str = "330px"
    label_width: str = "110px"
    redraw: bool = False
    primary: bool = False

    def __post_init__(self) -> None:
        where = _check_spec(self, (*_TEXTS, "readout", "label_width"), (*_FLAGS, "integer"))
        lo, hi = check.real(self.min, f"{where}: min"), check.real(self.max, f"{where}: max")
        if not lo < hi:
            raise ValueError(f"{where}: need finite min < max")
        if not (check.is_finite(self.step) and self.step > 0):
            raise ValueError(f"{where}: step must be a positive number")
        if self.value is not None:
            self.check(self.value)

    @property
    def default(self):
        return self.min if self.value is None else self.value

    def check(self, value):
        """``value`` as this slider holds it, or a ValueError saying what is wrong."""
        if not is_number(value):
            raise ValueError(f"'{self.label}' takes a number, not {short(value)}")
        if not is_finite(value):
            raise ValueError(f"'{self.label}' takes a finite number within float range, not "
                             f"{short(value)}")
        if not self.min <= value <= self.max:
            raise ValueError(f"'{self.label}' goes from {short(self.min)} to {short(self.max)}; "
                             f"{short(value)} is outside")
        if self.integer:
            if value != int(value):
                raise ValueError(f"'{self.label}' takes whole numbers, not {short(value)}")
            return int(value)
        return float(value)

    def make(self, value) -> widgets.Widget:
        cls = widgets.IntSlider if self.integer else widgets.FloatSlider
        kw = {} if self.integer else {"readout_format": self.readout}
        return cls(value=self.check(value), min=self.min, max=self.max, step=self.step,
                   description=_(self.label), description_allow_html=False,
                   continuous_update=True, tooltip=_(self.help) if self.help else None,
                   style={"description_width": self.label_width},
                   layout=widgets.Layout(width=self.width), **kw)


@dataclass(frozen=True)
class Frame(Slider):
    """The frame control (time, t, step): changing it re-draws, it never re-computes.

    The app gets the slider, a Play/Pause button that moves it one step every
    ``interval_ms`` (in the kernel, on the clock: see ``app.run_on_clock``), a hidden
    ``widgets.Play`` holding its index and a back-to-start button. ``seconds_per_unit``
    says how many real seconds one unit of the frame value stands for (e.g. 1.0 for a time
    slider in seconds), so that a GIF keeps real time; leave it None when the frame is not
    time.
    """

    interval_ms: int = 50
    seconds_per_unit: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        check.integer(self.interval_ms, f"frame {short(self.name)}: interval_ms", lo=1,
                      hi=60_000, whole_floats=True)
        if self.seconds_per_unit is not None:
            check.real(self.seconds_per_unit, f"frame {short(self.name)}: seconds_per_unit",
                       lo=0.0, lo_open=True)

    @property
    def count(self) -> int:
        """How many steps from min to max (the Play control's range)."""
        return max(1, round((self.max - self.min) / self.step))

    def at(self, index: int):
        """The frame value at step ``index`` (0 to :attr:`count`)."""
        index = check.integer(index, f"frame {short(self.name)}: index", lo=0, hi=self.count,
                              whole_floats=True)
        value = min(self.max, self.min + index * self.step)
        return int(round(value)) if self.integer else round(value, 12)

    def index_of(self, value) -> int:
        """The step nearest ``value`` (any finite number: outside the range, an end)."""
        value = check.real(value, f"frame {short(self.name)}: value")
        return max(0, min(self.count, round(min(max((value - self.min) / self.step, -1.0),
                                                self.count + 1.0))))


def _options(options) -> list[tuple[str, Any]]:
    out = []
    for option in options:
        if isinstance(option, tuple) and len(option) == 2:
            out.append((str(option[0]), option[1]))
        else:
            out.append((str(option), option))
    if not out:
        raise ValueError("a choice needs at least one option")
    return out


@dataclass(frozen=True)
class Choice:
    """One of several options: ``(label, value)`` pairs or plain values.

    ``style`` is "dropdown", "toggle" (ToggleButtons) or "radio".
    """

    name: str
    label: str
    options: Sequence
    value: Any = None
    style: str = "dropdown"
    help: str = ""
    width: str = "330px"
    label_width: str = "110px"
    redraw: bool = False
    primary: bool = False

    def __post_init__(self) -> None:
        where = _check_spec(self, (*_TEXTS, "label_width"), _FLAGS)
        check.option(self.style, f"{where}: style", ["dropdown", "toggle", "radio"])
        if self.value is not None:
            self.check(self.value)

    @property
    def pairs(self) -> list[tuple[str, Any]]:
        return _options(self.options)

    @property
    def values(self) -> list:
        return [v for _, v in self.pairs]

    @property
    def default(self):
        return self.values[0] if self.value is None else self.value

    def check(self, value):
        if value not in self.values:
            shown = ", ".join(short(v) for v in self.values)
            raise ValueError(f"'{self.label}' is one of {shown}; not {short(value)}")
        return value

    def make(self, value) -> widgets.Widget:
        cls = {"dropdown": widgets.Dropdown, "toggle": widgets.ToggleButtons,
               "radio": widgets.RadioButtons}.get(self.style)
        if cls is None:
            raise ValueError(f"choice {self.name!r:.60}: style must be dropdown, toggle or radio")
        kw = {"style": {"description_width": self.label_width}}
        if self.style == "toggle":
            kw["style"] = {"description_width": self.label_width, "button_width": "auto"}
        return cls(options=[(_(label), v) for label, v in self.pairs], value=self.check(value),
                   description=_(self.label), tooltip=_(self.help) if self.help else None,
                   layout=widgets.Layout(width=self.width), **kw)


@dataclass(frozen=True)
class Toggle:
    """On or off (a checkbox)."""

    name: str
    label: str
    value: bool = False
    help: str = ""
    width: str = "auto"
    redraw: bool = False
    primary: bool = False

    def __post_init__(self) -> None:
        _check_spec(self, _TEXTS, (*_FLAGS, "value"))

    @property
    def default(self) -> bool:
        return self.value

    def check(self, value) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"'{self.label}' is on or off (True or False), not {short(value)}")
        return value

    def make(self, value) -> widgets.Widget:
        return widgets.Checkbox(value=self.check(value), description=_(self.label),
                                indent=False, tooltip=_(self.help) if self.help else None,
                                layout=widgets.Layout(width=self.width))


@dataclass(frozen=True)
class Preset:
    """A named set of control values, with a description of what it shows.

    ``description`` may be a string or a function of the computed state, so that a claim
    such as "saves 21%" is computed from the same model the app draws.
    """

    name: str
    values: Mapping[str, Any] = field(default_factory=dict)
    description: str | Callable[[Any], str] = ""

    def __post_init__(self) -> None:
        where = _check_spec(self, ("name",), ())
        _names(self.values, f"{where}: values")
        if not (isinstance(self.description, str) or callable(self.description)):
            raise ValueError(f"{where}: description must be text or a function of the state, "
                             f"got {short(self.description)}")

    def describe(self, state) -> str:
        text = self.description
        return text(state) if callable(text) else text


def _names(values, what: str) -> Mapping:
    """``values`` if it maps control names (text) to values, else a ValueError."""
    if not isinstance(values, Mapping) or not all(isinstance(k, str) for k in values):
        raise ValueError(f"{what} must map control names (text) to values, got {short(values)}")
    return values


class Params(Mapping):
    """The control values an app computes from: frozen, hashable, read as attributes."""

    __slots__ = ("_values", "_hash")

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(_names(values, "Params")))
        object.__setattr__(self, "_hash", None)

    def __getattr__(self, name: str):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no control named {name!r}") from None

    def __setattr__(self, name, value):
        raise AttributeError("Params are frozen: use replace(name=value)")

    def __getitem__(self, name: str):
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other) -> bool:
        return isinstance(other, Params) and self._values == other._values

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(tuple(sorted(self._values.items()))))
        return self._hash

    def replace(self, **changes) -> Params:
        unknown = set(changes) - set(self._values)
        if unknown:
            raise ValueError(f"no control named {', '.join(sorted(unknown))}")
        return Params({**self._values, **changes})

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Params({inner})"
