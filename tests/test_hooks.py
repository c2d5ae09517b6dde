"""The list of private hooks into other libraries (lessons_lib/hooks.py) is true: each still
exists in the installed versions, each is still used where it says, the installed versions are
the tested ones, and pyproject.toml and environment.yml bound and pin those libraries."""

from __future__ import annotations

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
