"""Lazy package exports (lessons_lib/apps/lazy.py): lazy_package reads a small lesson's
names from its app module's source, so its __init__.py lists nothing by hand."""

from __future__ import annotations

import sys
import textwrap

import pytest

from lessons_lib.apps.lazy import lazy_package, public_names

APP = '''
"""A small lesson's app."""
import math
from math import tau

LIMIT = 3
label: str = "x"
_hidden = 1


class EasyApp:
    pass


def helper(x):
    return math.sqrt(x) + tau


def _private():
    pass
'''


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package ``lazypkg`` with app.py (above) and other.py, on sys.path, forgotten after."""
    root = tmp_path / "lazypkg"
    root.mkdir()
    (root / "__init__.py").write_text(
        "from lessons_lib.apps.lazy import lazy_package\n"
        "__all__, __getattr__, __dir__ = lazy_package(__name__)\n")
    (root / "app.py").write_text(textwrap.dedent(APP))
    (root / "other.py").write_text("__all__ = ['Shown']\nShown = 1\nHidden = 2\n")
    (root / "again.py").write_text("LIMIT = 4\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "lazypkg"
    for name in [n for n in sys.modules if n == "lazypkg" or n.startswith("lazypkg.")]:
        del sys.modules[name]


def test_public_names_are_what_the_module_defines_not_what_it_imports(package):
    import lazypkg  # noqa: F401 - the package must exist for its modules to be found

    assert public_names(package, ".app") == ("LIMIT", "label", "EasyApp", "helper")
    assert public_names(package, ".other") == ("Shown",)          # its __all__


def test_the_package_exports_its_app_lazily(package):
    import lazypkg

    assert "lazypkg.app" not in sys.modules
    assert sorted(lazypkg.__all__) == ["EasyApp", "LIMIT", "helper", "label"]
    assert lazypkg.LIMIT == 3 and "lazypkg.app" in sys.modules
    with pytest.raises(AttributeError, match="_hidden"):
        lazypkg._hidden  # noqa: B018


def test_a_name_in_two_modules_or_a_missing_module_is_refused(package):
    import lazypkg  # noqa: F401

    with pytest.raises(ValueError, match="LIMIT is defined in both .app and .again"):
        lazy_package(package, ".app", ".again")
    with pytest.raises(ValueError, match="has no module '.nothing'"):
        lazy_package(package, ".nothing")
    with pytest.raises(ValueError, match="imported package"):
        public_names("lessons_lib.validate", ".app")        # a module, not a package
    with pytest.raises(ValueError, match="like '.app'"):
        public_names(package, "app")
