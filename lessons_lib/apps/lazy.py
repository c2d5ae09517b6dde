"""Lazy package exports: a package says which of its modules defines each name it offers,
and a module is imported only when one of its names is first used.

So ``import lessons_lib.apps.gimbal.model`` runs the package's ``__init__`` without loading
the app, ipywidgets, matplotlib or IPython (``tests/test_layering.py`` checks it), while
``from lessons_lib.apps.gimbal import GimbalApp`` works as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module


def lazy_exports(package: str, where: Mapping[str, Iterable[str]]
                 ) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """``(__all__, __getattr__, __dir__)`` for ``package``, given ``where``: module name
    (relative to the package, like ``".app"``, or absolute) -> the names it defines."""
    home = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str):
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home[name], package), name)
        setattr(sys.modules[package], name, value)   # found once, then a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *home})

    return sorted(home), __getattr__, __dir__
