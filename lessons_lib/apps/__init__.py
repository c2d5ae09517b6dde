"""One interactive app per lesson (the list is :mod:`lessons_lib.catalogue`), plus the shared
loop in :mod:`.core`. Apps are imported lazily, so a lesson only pays for what it shows.
"""

from ..catalogue import app_registry
from .lazy import lazy_exports

_where: dict[str, list[str]] = {}
for _name, _module in app_registry().items():
    _where.setdefault(_module, []).append(_name)

__all__, __getattr__, __dir__ = lazy_exports(__name__, _where)
