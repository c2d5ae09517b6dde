"""Argument checks shared by every maths module: one place that says what a bad value is.

Each helper takes the value and the argument's name, and either returns the value in a
clean form (a ``float``, an ``int``, a ``bool``, a float array of the right shape) or raises
a :class:`ValueError` whose message names the argument, says what it got and what to give
instead. None of them converts text: ``"5"`` is not a number here, and neither is ``True``
(a bool is refused wherever a number is expected, so a swapped argument is caught).

Tolerances for geometry are relative to the geometry's own size (:func:`extent`), never to
its distance from the origin: a unit square far from the origin is the same square.
:func:`tolerance` adds the floating-point resolution at the place the geometry sits, which
is the finest difference the coordinates can express.

Only numpy is imported here, so that the maths modules stay free of any widget library.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers as _numbers

import numpy as np

__all__ = [
    "is_number",
    "is_finite",
    "huge_integer",
    "describe",
    "real",
    "length",
    "probability",
    "flag",
    "integer",
    "MAX_INTEGER",
    "array",
    "point",
    "items",
    "option",
    "instance",
    "first_is",
    "fields",
    "numbers",
    "degrees",
    "reduce_degrees",
    "extent",
    "tolerance",
]


def huge_integer(value, digits: int = 30) -> str | None:
    """"a 401-digit integer" for a Python int of more than ``digits`` digits (its repr would
    flood a message, and past 4300 digits even raises), else None. ``digits``: 1 to 4300."""
    digits = integer(digits, "digits", lo=1, hi=4300)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**digits:
        return f"a {int(value.bit_length() * 0.30103) + 1}-digit integer"
    return None


def describe(value) -> str:
    """A short, safe description of a value for a message (never a huge repr): at most 60
    characters of it, and its type."""
    text = huge_integer(value) or repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def _label(name) -> str:
    """An argument's name as a message shows it (text; anything else described briefly)."""
    return name if isinstance(name, str) and len(name) <= 80 else describe(name)


def is_number(value) -> bool:
    """True for a real number (Python or numpy, or a 0-d array of one); False for bools."""
    if isinstance(value, bool | np.bool_):
        return False
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and value.dtype.kind in "iuf"
    return isinstance(value, _numbers.Real)


def is_finite(value) -> bool:
    """True for a real number (see :func:`is_number`) that is a finite float: not NaN, not
    infinity, and not an integer beyond float range (``10**400``), which ``math.isfinite``
    would turn into an OverflowError."""
    if not is_number(value):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def real(value, name: str, *, lo: float | None = None, hi: float | None = None,
         lo_open: bool = False, hi_open: bool = False, unit: str = "") -> float:
    """``value`` as a finite ``float``, optionally inside ``[lo, hi]`` (ends open on request).

    Accepts Python and numpy integers and floats (and 0-d arrays of them); refuses bools,
    text, ``None``, complex numbers, NaN and infinity.
    """
    name = _label(name)
    suffix = f" {unit}" if unit else ""
    if not is_number(value):
        raise ValueError(f"{name} must be a number{suffix}, got {describe(value)}")
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a number within float range (about "
                         f"\u00b11.8e308{suffix}), got {describe(value)}") from None
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number{suffix}, got {x}")
    if lo is not None and (x <= lo if lo_open else x < lo):
        raise ValueError(f"{name} must be {'>' if lo_open else '>='} {lo:g}{suffix}, got {x:g}")
    if hi is not None and (x >= hi if hi_open else x > hi):
        raise ValueError(f"{name} must be {'<' if hi_open else '<='} {hi:g}{suffix}, got {x:g}")
    return x


def length(value, name: str, *, allow_zero: bool = False, cap: float | None = None,
           unit: str = "m") -> float:
    """A finite length: ``> 0`` (or ``>= 0`` with ``allow_zero``), at most ``cap`` if given."""
    x = real(value, name, lo=0.0, lo_open=not allow_zero, unit=unit)
    if cap is not None and x > cap:
        raise ValueError(f"{name} = {x:g}{' ' + unit if unit else ''} is above the cap of "
                         f"{cap:g}{' ' + unit if unit else ''}: give a smaller value")
    return x


def probability(value, name: str) -> float:
    """A number in ``[0, 1]`` (a weight, a fraction, a blend parameter)."""
    return real(value, name, lo=0.0, hi=1.0)


def flag(value, name: str) -> bool:
    """A strict bool: ``True`` or ``False`` (numpy's too), never ``"False"``, ``0`` or ``None``."""
    name = _label(name)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {describe(value)}")


#: The default upper bound of :func:`integer`: a billion, more than any count, index, seed
#: or size a lesson uses, and small enough that no loop or array sized by it is the first
#: sign of a typo such as ``10**400``. A caller that needs more says its own ``hi``.
MAX_INTEGER = 10**9


def integer(value, name: str, *, lo: int | None = None, hi: int | None = MAX_INTEGER,
            whole_floats: bool = False) -> int:
    """An ``int`` in ``[lo, hi]``. ``whole_floats=True`` also takes ``3.0`` (not ``3.5``).

    ``hi`` defaults to :data:`MAX_INTEGER` (10**9); ``hi=None`` takes any size."""
    name = _label(name)
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be a whole number, got {describe(value)}")
    if isinstance(value, _numbers.Integral):
        n = int(value)
    elif whole_floats and is_finite(value) and float(value).is_integer():
        n = int(float(value))
    else:
        raise ValueError(f"{name} must be a whole number, got {describe(value)}")
    if lo is not None and n < lo:
        raise ValueError(f"{name} must be >= {lo}, got {huge_integer(n) or n}")
    if hi is not None and n > hi:
        raise ValueError(f"{name} must be <= {hi}, got {huge_integer(n) or n}")
    return n


def array(value, name: str, shape: tuple = (), *, min_rows: int = 0,
          finite: bool = True, what: str = "numbers", ravel: bool = False) -> np.ndarray:
    """``value`` as a float array of ``shape`` (``None`` = any size in that place).

    ``min_rows`` is the fewest entries along the first axis; ``ravel`` flattens first.
    Text, bools, ``None`` and objects inside the array are refused, as are ragged lists.
    """
    name = _label(name)
    if not isinstance(shape, tuple):
        raise ValueError(f"shape must be a tuple of sizes (None = any), got {describe(shape)}")
    if isinstance(value, str | bytes) or value is None:
        raise ValueError(f"{name} must be an array of {what}, got {describe(value)}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be an array of {what} (not a ragged list), got "
                         f"{describe(value)}") from None
    if raw.dtype.kind not in "iuf" and not (raw.size == 0 and raw.dtype.kind in "iufO"):
        raise ValueError(f"{name} must be an array of {what} (each a number within float "
                         f"range), got elements of type "
                         f"{raw.dtype} from {describe(value)}")
    arr = raw.astype(float).ravel() if ravel else raw.astype(float)
    want = "(" + ", ".join("N" if s is None else str(s) for s in shape) + \
        ("," if len(shape) == 1 else "") + ")"
    if arr.ndim != len(shape) or any(s is not None and s != a
                                     for s, a in zip(shape, arr.shape, strict=True)):
        raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
    if arr.ndim and len(arr) < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} entries, got {len(arr)}")
    if finite and not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity: give finite numbers")
    return arr


def items(value, name: str, what: str = "items") -> list:
    """``value`` (a list, tuple, array or other iterable) as a list; a ValueError for a
    number, text, a dict, ``None`` or a 0-d array."""
    name = _label(name)
    if isinstance(value, str | bytes | dict) or value is None:
        raise ValueError(f"{name} must be a list of {what}, got {describe(value)}")
    try:
        return list(value)
    except TypeError:
        raise ValueError(f"{name} must be a list of {what}, got {describe(value)}") from None


def option(value, name: str, options) -> str:
    """``value`` if it is one of the texts ``options`` (a ValueError naming them otherwise)."""
    name = _label(name)
    if not isinstance(options, list | tuple) or not all(isinstance(o, str) for o in options):
        raise ValueError(f"the options of {name} must be a list of texts, got "
                         f"{describe(options)}")
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}, got "
                         f"{describe(value)}")
    return value


def _kinds(kind, name: str) -> tuple:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not kinds or not all(isinstance(k, type) for k in kinds):
        raise ValueError(f"the kind of {name} must be a class, got {describe(kind)}")
    return kinds


def instance(value, name: str, kind, what: str = ""):
    """``value`` if it is a ``kind`` (a class or a tuple of classes); a ValueError naming the
    class (and ``what``, where to get one) otherwise."""
    name = _label(name)
    kinds = _kinds(kind, name)
    if not isinstance(value, kinds):
        want = " or ".join(k.__name__ for k in kinds) + (f" ({what})" if what else "")
        raise ValueError(f"{name} must be a {want}, got {describe(value)}")
    return value


def first_is(kind, what: str = ""):
    """A decorator: the function's first argument (a panel's ``state``, say) must be a
    ``kind`` (:func:`instance`), checked before the function reads it."""
    _kinds(kind, "the first argument")

    def wrap(fn):
        names = list(inspect.signature(fn).parameters)
        at = 1 if names[0] == "self" else 0      # a method's first argument after self
        name = names[at]

        @functools.wraps(fn)
        def checked(*args, **kwargs):
            instance(args[at] if len(args) > at else kwargs.get(name), name, kind, what)
            return fn(*args, **kwargs)
        return checked
    return wrap


def fields(value, name: str, checks) -> dict:
    """The attributes of ``value`` (an app's params, a dataclass) that ``checks`` names,
    each through its checker (called with the attribute and ``name.attribute``): a dict of
    the clean values. A missing attribute is a ValueError naming it."""
    name = _label(name)
    if not isinstance(checks, dict) or not all(isinstance(k, str) and callable(c)
                                               for k, c in checks.items()):
        raise ValueError(f"the checks of {name} must map attribute names to checkers, got "
                         f"{describe(checks)}")
    out = {}
    for key, checker in checks.items():
        try:
            raw = getattr(value, key)
        except AttributeError:
            raise ValueError(f"{name} must have a {key} (the app's params, or their "
                             f"replace()), got {describe(value)}") from None
        out[key] = checker(raw, f"{name}.{key}")
    return out


def point(value, name: str, dim: int = 2) -> np.ndarray:
    """A finite point with ``dim`` coordinates, as a float array of shape ``(dim,)``."""
    return array(value, name, (dim,), what=f"{dim} coordinates")


def _ndim(value) -> int:
    """np.ndim, or 1 for a ragged list (which :func:`array` then refuses by name)."""
    try:
        return np.ndim(value)
    except (TypeError, ValueError):
        return 1


def numbers(value, name: str, what: str = "numbers") -> np.ndarray:
    """A finite number or an array of finite numbers (any shape), as a float array."""
    name = _label(name)
    if is_number(value):
        if not is_finite(value):
            raise ValueError(f"{name} must be a finite number ({what}) within float range, "
                             f"got {describe(value)}")
        return np.asarray(float(value))
    if isinstance(value, np.ndarray | list | tuple):
        return array(value, name, (None,) * _ndim(value), what=what)
    raise ValueError(f"{name} must be a number or an array of {what}, got {describe(value)}")


def degrees(value, name: str) -> np.ndarray:
    """Finite degrees (a number or an array of numbers) as a float array, not reduced."""
    return numbers(value, name, "degrees")


def reduce_degrees(deg) -> np.ndarray:
    """Degrees reduced into ``(-360, 360)`` exactly (``fmod`` loses nothing), before any
    conversion to radians: ``1e300`` degrees then turns by what ``1e300 mod 360`` says."""
    if not (isinstance(deg, np.ndarray) and deg.dtype == float):
        deg = degrees(deg, "the angle")
    elif not np.isfinite(deg).all():
        raise ValueError("the angle must be finite degrees, got NaN or infinity")
    return np.fmod(deg, 360.0)


def extent(points) -> float:
    """The geometry's own size: the diagonal of the bounding box of ``points`` (..., d).

    ``math.hypot`` scales internally, so it never overflows for finite spans.
    """
    p = points if isinstance(points, np.ndarray) and points.dtype == float \
        else array(points, "points", (None,) * max(1, _ndim(points)), what="coordinates")
    if p.ndim == 0 or not p.size:
        return 0.0
    p = p.reshape(-1, p.shape[-1])
    if not np.isfinite(p).all():
        raise ValueError("points contains NaN or infinity: give finite numbers")
    with np.errstate(over="ignore"):
        span = p.max(axis=0) - p.min(axis=0)
    return math.hypot(*span.tolist())


def tolerance(points, rel: float = 1e-9, size: float | None = None) -> float:
    """A distance below which two points of this geometry count as the same:
    ``rel`` times its :func:`extent` (or ``size`` when the caller has it), and never finer
    than a few units in the last place of its coordinates (what the floats can tell apart
    where the geometry sits)."""
    p = points if isinstance(points, np.ndarray) and points.dtype == float \
        else array(points, "points", (None,) * max(1, _ndim(points)), what="coordinates")
    where = float(np.abs(p).max()) if p.size else 0.0
    return max(rel * (extent(p) if size is None else size), 8.0 * np.finfo(float).eps * where)
