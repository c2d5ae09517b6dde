"""Numbers as the page prints them, for panels, readouts and models alike (no widgets here:
a lesson's ``model.py`` imports it and stays importable without ipywidgets)."""

from __future__ import annotations

from ... import validate as check


def fmt_number(x: float, digits: int = 2, sign: bool = False) -> str:
    """``x`` rounded to ``digits`` decimals with a typographic minus, never '-0.00'; with
    ``sign`` a '+' for >= 0. A NaN or an infinity is a ValueError, never printed."""
    if not check.is_finite(x):
        raise ValueError(f"cannot print {x!r:.40} as a readout: give a finite number")
    x = float(x)
    digits = check.integer(digits, "digits", lo=0, hi=12)
    sign = check.flag(sign, "sign")
    text = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    if float(text) == 0:
        text = ("+" if sign else "") + f"{0:.{digits}f}"
    return text.replace("-", "\u2212")


def when_more(shown: str, hidden: str) -> str:
    """Page text that says ``shown`` where the app's "More controls" can be opened and
    ``hidden`` in presenter mode, which hides them: a note never points a projected room at a
    control it cannot see (issue 42). Both are HTML, shown as given (the CSS is
    ``core/layout.py``'s)."""
    check.instance(shown, "shown", str)
    check.instance(hidden, "hidden", str)
    if not (shown or hidden):
        return ""
    return (f"<span class='lesson-when-more'>{shown}</span>"
            f"<span class='lesson-when-presenting'>{hidden}</span>")
