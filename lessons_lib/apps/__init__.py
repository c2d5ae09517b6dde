"""One interactive app per lesson (the list is :mod:`lessons_lib.catalogue`), plus the shared
loop in :mod:`.core`. Apps are imported lazily, so a lesson only pays for what it shows.
"""

from importlib import import_module

from ..catalogue import app_registry

_APPS = app_registry()

__all__ = sorted(_APPS)


def __getattr__(name):
    if name in _APPS:
        return getattr(import_module(_APPS[name]), name)
    raise AttributeError(f"module 'lessons_lib.apps' has no attribute {name!r}")
