"""Exercises: kept at this path for notebooks; the code lives in :mod:`.core.exercise`."""

from .core.exercise import (  # noqa: F401
    ChoiceQuestion,
    NumberQuestion,
    check_function,
    fmt_number,
    in_voila,
    parse_number,
)
