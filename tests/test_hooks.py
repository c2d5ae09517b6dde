"""The list of private hooks into other libraries (lessons_lib/hooks.py) is true: each still
exists in the installed versions, each is still used where it says, the installed versions are
the tested ones, and pyproject.toml and environment.yml bound and pin those libraries."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import inspect
import re
import tomllib
from pathlib import Path

import pytest

from lessons_lib.hooks import HOOKS, TESTED

ROOT = Path(__file__).resolve().parent.parent


def _pool_class():
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    return voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)


def _owner(module_name: str, path: list[str]):
    """The object the last name of ``path`` is looked up on."""
    obj = importlib.import_module(module_name)
    for name in path:
        obj = _pool_class() if name == "<pool>" else getattr(obj, name)
    return obj


def _has_instance_attribute(cls: type, name: str) -> bool:
    """``name`` is a class attribute, or some class in the MRO assigns ``self.name``."""
    if hasattr(cls, name):
        return True
    for klass in cls.__mro__:
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if re.search(rf"self\.{re.escape(name)}\b", source):
            return True
    return False


@pytest.mark.parametrize("hook", HOOKS, ids=lambda h: h.target.split(":")[-1])
def test_hook_exists_in_the_installed_library(hook):
    module_name, _, dotted = hook.target.partition(":")
    *owner_path, attr = dotted.split(".")
    if owner_path and owner_path[-1].endswith("()"):     # an attribute of instances
        owner_path[-1] = owner_path[-1][:-2]
        cls = _owner(module_name, owner_path)
        assert _has_instance_attribute(cls, attr), f"{hook.target} is gone"
    else:
        owner = _owner(module_name, owner_path)
        assert hasattr(owner, attr), f"{hook.target} is gone"


@pytest.mark.parametrize("hook", HOOKS, ids=lambda h: h.target.split(":")[-1])
def test_hook_is_still_used_where_it_says(hook):
    source = (ROOT / (hook.user.replace(".", "/") + ".py")).read_text()
    attr = hook.target.split(":")[-1].split(".")[-1]
    assert attr in source, f"{hook.user} no longer uses {attr}: take it off the list"
    assert hook.library in TESTED


def _minor(version: str) -> tuple[int, int]:
    major, minor = re.match(r"(\d+)(?:\.(\d+))?", version).groups()
    return int(major), int(minor or 0)


@pytest.mark.parametrize("library", sorted(TESTED))
def test_installed_version_is_the_tested_one(library):
    installed = importlib.metadata.version(library)
    assert _minor(installed) == _minor(TESTED[library]), (
        f"{library} {installed} is installed but the hooks were tested on {TESTED[library]}: "
        "check lessons_lib/hooks.py against it, then update TESTED and the bounds")


@pytest.mark.parametrize("library", sorted(TESTED))
def test_pyproject_bounds_the_library_to_the_tested_range(library):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = [*project["dependencies"], *project["optional-dependencies"]["server"]]
    found = [s for s in specs if re.match(rf"{re.escape(library)}\s*[<>=!~]", s, re.I)]
    assert found, f"{library} is not bounded in pyproject.toml"
    spec = found[0]
    lower = re.search(r">=\s*([\d.]+)", spec)
    upper = re.search(r"<\s*([\d.]+)", spec)
    assert lower and upper, f"{spec!r}: both a lower and an upper bound"
    assert _minor(lower.group(1)) <= _minor(TESTED[library]) < _minor(upper.group(1))


@pytest.mark.parametrize("library", ["matplotlib", "ipympl", "ipywidgets", "voila"])
def test_conda_environment_pins_the_tested_version(library):
    text = (ROOT / "environment.yml").read_text()
    pin = re.search(rf"^\s+- {library}\s*=\s*([\d.]+)", text, re.M)
    assert pin, f"environment.yml does not pin {library}"
    assert _minor(pin.group(1)) == _minor(TESTED[library])


# -- no hook hides: every private name of another library the code uses is on the list --------
SCANNED = ("lessons_lib", "lessons_server", "deploy", "tools")
#: Documented, public names that start with an underscore (namedtuple's API, ``os._exit``).
PUBLIC = {"_asdict", "_fields", "_make", "_replace", "_field_defaults", "_exit"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def private_uses(tree: ast.AST) -> set[str]:
    """Private names ``tree`` reaches into: ``x._name``, ``getattr(x, "_name")`` and private
    parts of imported module paths (``matplotlib._pylab_helpers``)."""
    found = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and _private(n.attr)}
    found |= {n.args[1].value for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in {"getattr", "setattr", "hasattr", "delattr"} and len(n.args) > 1
              and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)
              and _private(n.args[1].value)}
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
               and n.level == 0]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    found |= {part for m in modules if not m.startswith(("lessons_lib", "lessons_server"))
              for part in m.split(".") if _private(part)}
    return found


def own_names(tree: ast.AST) -> set[str]:
    """Names ``tree`` defines itself: functions, classes, arguments, anything assigned
    (``self._x = ...``, ``_x = ...``) or imported under its own name."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(n.name)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store | ast.Del):
            names.add(n.attr)
        elif isinstance(n, ast.alias) and n.asname:
            names.add(n.asname)
        elif isinstance(n, ast.Call) and _sets_attribute(n):
            names.add(n.args[1].value)
        elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                               for t in n.targets):
            names |= {c.value for c in ast.walk(n.value) if isinstance(c, ast.Constant)}
    return names


def _sets_attribute(call: ast.Call) -> bool:
    """``setattr(x, "_y", v)`` or ``object.__setattr__(x, "_y", v)``."""
    f = call.func
    named = (isinstance(f, ast.Name) and f.id == "setattr") or \
        (isinstance(f, ast.Attribute) and f.attr == "__setattr__")
    return named and len(call.args) > 1 and isinstance(call.args[1], ast.Constant) \
        and isinstance(call.args[1].value, str)


def hooked_names() -> set[str]:
    """What the list covers: each target's private parts, and the names its reason adds
    ("also _y")."""
    names = set()
    for hook in HOOKS:
        names |= {part for part in re.split(r"[.:]", hook.target.replace("()", ""))
                  if _private(part)}
        names |= set(re.findall(r"\b_[a-z]\w*", hook.why))
    return names


def unlisted_hooks(sources: dict[str, str]) -> dict[str, set[str]]:
    """File -> private names of other libraries it uses that lessons_lib/hooks.py lacks."""
    trees = {path: ast.parse(text) for path, text in sources.items()}
    ours = set().union(*(own_names(t) for t in trees.values()))
    listed = hooked_names()
    found = {path: private_uses(tree) - ours - listed - PUBLIC for path, tree in trees.items()}
    return {path: names for path, names in found.items() if names}


def _sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text() for folder in SCANNED
            for p in sorted((ROOT / folder).rglob("*.py")) if "__pycache__" not in p.parts}


def test_every_private_name_of_another_library_is_on_the_list():
    unlisted = unlisted_hooks(_sources())
    assert not unlisted, (
        "private names of other libraries used without an entry in lessons_lib/hooks.py "
        "(add a Hook: library, target, user, why):\n  "
        + "\n  ".join(f"{path}: {', '.join(sorted(names))}" for path, names in unlisted.items()))


def test_the_scan_finds_a_planted_private_attribute():
    planted = dict(_sources())
    planted["lessons_lib/planted.py"] = (
        "import ipywidgets\n"
        "def peek(w):\n"
        "    return w._trait_notifiers, getattr(w, '_cross_validation_lock')\n")
    found = unlisted_hooks(planted)
    assert found["lessons_lib/planted.py"] == {"_trait_notifiers", "_cross_validation_lock"}
