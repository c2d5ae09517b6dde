"""One interactive app per lesson, plus the shared style and exercise widgets.

Apps are imported lazily so that a lesson only pays for what it shows.
"""

from importlib import import_module

_APPS = {
    "GimbalApp": "lessons_lib.apps.gimbal",
    "InterpolationApp": "lessons_lib.apps.interpolation",
    "SteeringApp": "lessons_lib.apps.steering",
    "FunnelApp": "lessons_lib.apps.funnel",
    "GridApp": "lessons_lib.apps.funnel",
}

__all__ = sorted(_APPS)


def __getattr__(name):
    if name in _APPS:
        return getattr(import_module(_APPS[name]), name)
    raise AttributeError(f"module 'lessons_lib.apps' has no attribute {name!r}")
