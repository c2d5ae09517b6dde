"""Lazy package exports: a package says which of its modules defines each name it offers,
and a module is imported only when one of its names is first used.

So ``import lessons_lib.apps.gimbal.model`` runs the package's ``__init__`` without loading
the app, ipywidgets, matplotlib or IPython (``tests/test_layering.py`` checks it), while
``from lessons_lib.apps.gimbal import GimbalApp`` works as before.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from importlib.util import find_spec


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


def public_names(package: str, module: str) -> tuple[str, ...]:
    """The public names ``module`` (relative to ``package``, like ``".app"``) defines at its
    top level (classes, functions, assigned names; its ``__all__`` if it has one), read from
    its source without running it."""
    home = sys.modules.get(package) if isinstance(package, str) else None
    if not hasattr(home, "__path__"):
        raise ValueError(f"package must be the name of an imported package, not {package!r:.60}")
    if not isinstance(module, str) or not re.fullmatch(r"\.[A-Za-z_]\w*", module):
        raise ValueError(f"module must be a name in the package, like '.app', not {module!r:.60}")
    spec = find_spec(module, package)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise ValueError(f"{package} has no module {module!r:.60}")
    with open(spec.origin, encoding="utf-8") as f:
        tree = ast.parse(f.read(), spec.origin)
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        for target in targets:
            if isinstance(target, ast.Name) and target.id == "__all__":
                return tuple(ast.literal_eval(node.value))
            names += [target.id] if isinstance(target, ast.Name) else []
    return tuple(dict.fromkeys(n for n in names if not n.startswith("_")))


def lazy_package(package: str, *modules: str
                 ) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """:func:`lazy_exports` with every public name of ``modules`` (default ``".app"``), as
    :func:`public_names` reads them: a small lesson's ``__init__.py`` lists nothing by hand.
    A name two modules define is a ValueError."""
    where: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for module in modules or (".app",):
        where[module] = public_names(package, module)
        for name in where[module]:
            if seen.setdefault(name, module) != module:
                raise ValueError(f"{package}: {name} is defined in both {seen[name]} and "
                                 f"{module}; export it from one (lazy_exports)")
    return lazy_exports(package, where)
