"""Which public functions and methods the fuzzers call: the list the coverage test checks.

Every public function of every module of ``lessons_lib``, every public class (its
constructor) and every public method a class defines itself, found by walking the package;
and the input-facing functions of ``lessons_server`` (``SERVER``). A name counts as covered
when one of the fuzzers calls that very function object: ``tests/fuzz_maths.py`` (the maths
modules), ``tests/fuzz_apps.py`` (apps, figure and exercise helpers, models, panels, views, the
drawing fast path) or ``tests/test_fuzz_server.py`` (the server's checks). ``EXEMPT`` names
the few left out on purpose, each with the reason, and ``RULES`` the kinds left out (result
records and exceptions, the app loop's hooks, matplotlib's drawing protocol).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import fuzz_apps
import fuzz_maths

from lessons_lib.apps.core.app import LessonApp
from lessons_lib.apps.core.gif import GifExport
from lessons_lib.apps.core.layout import FitLayout

#: The classes whose LOOP methods are the app loop's hooks.
LOOP_CLASSES = (LessonApp, GifExport, FitLayout)

#: The server functions that read what a page or a request sends.
SERVER = ("lessons_server.classroom.page_message_problem",
          "lessons_server.student_server.lessons_pull_problem",
          "lessons_server.student_server.page_after_pull",
          "lessons_server.student_authorizer.student_may")


def _name(obj) -> str:
    obj = getattr(obj, "__func__", obj)
    return f"{obj.__module__}.{obj.__qualname__}"


def public_callables(package: str = "lessons_lib") -> dict[str, object]:
    """Qualified name -> function or class, for every public one the package defines."""
    root = importlib.import_module(package)
    found = {}
    for info in [None, *pkgutil.walk_packages(root.__path__, package + ".")]:
        mod = root if info is None else importlib.import_module(info.name)
        for attr, obj in vars(mod).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            if inspect.isfunction(obj):
                found[_name(obj)] = obj
            elif inspect.isclass(obj):
                found[_name(obj)] = obj
                for meth, fn in vars(obj).items():
                    fn = getattr(fn, "__func__", fn)
                    if not meth.startswith("_") and inspect.isfunction(fn) \
                            and fn.__module__ == obj.__module__:
                        found[_name(fn)] = fn
    return found


def _resolve(name: str, scope: dict):
    """The object a dotted spec name means, looked up from ``scope``'s roots."""
    parts = name.replace("()", "").split(".")
    cut = max(i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in scope)
    obj, rest = scope[".".join(parts[:cut])], parts[cut:]
    for part in rest:
        obj = inspect.getattr_static(obj, part) if inspect.isclass(obj) else getattr(obj, part)
    return obj


def called() -> set[str]:
    """The qualified names of everything a fuzzer calls."""
    names = set()
    scope = {**fuzz_maths.MODULES, **{c: getattr(fuzz_maths.MODULES[m], c)
                                      for c, m in fuzz_maths.OWNER.items()}}
    for spec in fuzz_maths.S:
        names.add(_name(_resolve(spec, scope)))
    scope = {**fuzz_apps.MODULES, **fuzz_apps.APP_CLASSES}
    for entry, (_target, _owner, sig_fn) in fuzz_apps.entry_points().items():
        names.add(_name(sig_fn[1]) if isinstance(sig_fn, tuple)
                  else _name(_resolve(entry, scope)))
    import test_fuzz_server

    return names | set(test_fuzz_server.FUZZED)


#: Left out on purpose: name -> why.
EXEMPT: dict[str, str] = {
    "lessons_lib.apps.core.figure.DragHandler.disconnect": "takes no input",
    "lessons_lib.apps.lazy.lazy_exports": "import plumbing: each package calls it once, "
                                          "with its own literal table of names",
    "lessons_lib.apps.steering.figures.write_stored_sweeps": "a maintainer's tool that "
                                                             "rewrites the repository's data",
    "lessons_lib.apps.core.fitprobe.FitProbe": "a widget made with no arguments; its one "
                                               "input, the page's size report, is a text "
                                               "trait the widget guard checks "
                                               "(test_fuzz_controls) and parse_fit reads",
    "lessons_lib.apps.core.gif.GifExport": "a mixin of LessonApp, never made on its own",
    "lessons_lib.apps.core.layout.FitLayout": "a mixin of LessonApp, never made on its own",
    "lessons_lib.apps.core.app.LessonApp.compute": "the base's abstract hook: every app has "
                                                   "its own (fuzzed); LessonApp() is refused",
    "lessons_lib.apps.core.app.LessonApp.draw": "the base's abstract hook: every app has its "
                                                "own (fuzzed); LessonApp() is refused",
}
#: Why each rule below leaves a name out.
RULES = {
    "record": "a result record or an exception: made by the code from checked values, read "
              "by a student (its methods, if any, are fuzzed)",
    "loop": "the app loop's plumbing (tests/fuzz_apps.py LOOP): hooks with no input, or "
            "given the loop's own functions and widgets; reached from a page only through "
            "the controls, which tests/test_fuzz_controls.py and test_fuzz_canvas.py fuzz",
    "protocol": "matplotlib's drawing protocol or arguments (tests/fuzz_apps.py PROTOCOL)",
}


def rule(name: str, obj, found: dict) -> str | None:
    """The RULES key that leaves ``name`` out, or None."""
    if inspect.isclass(obj) and (dataclasses.is_dataclass(obj) or issubclass(obj, Exception)
                                 or (issubclass(obj, tuple) and hasattr(obj, "_fields"))):
        return "record"
    owner, _, meth = name.rpartition(".")
    cls = found.get(owner)
    if meth in fuzz_apps.LOOP and inspect.isclass(cls) and issubclass(cls, LOOP_CLASSES):
        return "loop"
    if getattr(obj, "__qualname__", "") in fuzz_apps.PROTOCOL:
        return "protocol"
    return None


def uncovered() -> list[str]:
    """Public callables no fuzzer calls and nothing exempts (the test requires none)."""
    found = public_callables()
    left = set(found) - called() - set(EXEMPT)
    missing = [name for name in left if rule(name, found[name], found) is None]
    return sorted(missing + [name for name in SERVER if name not in called()])


def exempted() -> dict[str, str]:
    """Every public name left out, with the reason (for the report and the test)."""
    found = public_callables()
    out = {name: EXEMPT[name] for name in EXEMPT if name in found}
    for name in set(found) - called() - set(EXEMPT):
        why = rule(name, found[name], found)
        if why:
            out[name] = RULES[why]
    return out
