"""Kernel-side trace for ``bench_browser.py``: where a kernel spends an interaction.

``bench_browser`` starts Voila with ``IPYTHONDIR`` pointing at a temporary profile whose
startup file runs this module in every kernel. It wraps, at class level (so every app and
every figure is covered without changing them):

- ``comm.base_comm.BaseComm.handle_msg``: a message from the page to a widget (a control's
  new value, a mouse event or a "draw" request for a figure), from its arrival to the end of
  its callbacks, whatever handler the app put on the widget's channel;
- ``FigureCanvasAgg.draw``: the Agg render of a whole figure;
- ``FigureCanvasWebAggCore.get_diff_image``: the difference image and its PNG encoding;
- ipympl's ``Canvas.send_binary``: handing the PNG to the widget channel;
- ``lessons_lib.apps.fastdraw.painter.Painter.render`` and ``._diff_image`` where the lessons
  have them (their drawing path: a fast or full render, then the encoding).

Each call becomes one JSON line ``{"ev", "t0", "t1", ...}`` (wall clock, seconds since the
epoch, comparable with the browser's ``performance.timeOrigin + performance.now()``) in
``$BENCH_TRACE_DIR/<pid>.jsonl``. Nothing here changes what the kernel does, unless
``BENCH_SET`` asks for other values of some constants (:func:`set_constants`).
"""

from __future__ import annotations

import functools
import json
import os
import time


def install(trace_dir: str) -> None:
    path = os.path.join(trace_dir, f"{os.getpid()}.jsonl")
    out = open(path, "a", buffering=1)  # noqa: SIM115 - lives as long as the kernel

    def emit(record: dict) -> None:
        out.write(json.dumps(record) + "\n")

    def wrap(cls, name: str, ev: str, describe=None) -> None:
        original = getattr(cls, name)
        if getattr(original, "_bench_traced", False):
            return

        @functools.wraps(original)
        def traced(self, *args, **kwargs):
            t0, c0 = time.time(), time.thread_time()
            try:
                return original(self, *args, **kwargs)
            finally:
                record = {"ev": ev, "t0": t0, "t1": time.time(), "obj": id(self),
                          "cpu": time.thread_time() - c0}
                if describe is not None:
                    try:
                        record.update(describe(self, *args, **kwargs))
                    except Exception as exc:  # a trace never breaks the kernel
                        record["describe_error"] = repr(exc)
                emit(record)

        traced._bench_traced = True
        setattr(cls, name, traced)

    from ipywidgets.widgets import widget as widget_module

    def describe_msg(comm, msg, *args, **kwargs) -> dict:
        data = msg["content"]["data"]
        method = data.get("method")
        widget = widget_module._instances.get(comm.comm_id)
        record = {"cls": type(widget).__name__, "method": method}
        if method == "update":
            state = data.get("state", {})
            record["keys"] = sorted(state)
            value = state.get("value")
            if isinstance(value, int | float | str | bool):
                record["value"] = value
            if type(widget).__name__ == "Play":
                record["interval"] = getattr(widget, "interval", None)
        elif method == "custom":
            content = data.get("content", {})
            inner = content.get("data")
            if isinstance(inner, str):  # ipympl wraps its messages as JSON text
                try:
                    inner = json.loads(inner)
                except ValueError:
                    inner = {}
            kind = content.get("type") or (inner or {}).get("type")
            record["type"] = kind
        return record

    from comm.base_comm import BaseComm

    wrap(BaseComm, "handle_msg", "msg", describe_msg)

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.backends.backend_webagg_core import FigureCanvasWebAggCore

    wrap(FigureCanvasAgg, "draw", "agg_draw")
    wrap(FigureCanvasWebAggCore, "get_diff_image", "encode")
    try:
        from ipympl.backend_nbagg import Canvas
    except ImportError:
        return
    wrap(Canvas, "send_binary", "send",
         lambda canvas, data, *a, **k: {"bytes": len(data) if data is not None else 0})
    try:  # the lessons' own drawing path, where it exists (the Agg draw inside it nests)
        from lessons_lib.apps.fastdraw.painter import Painter
    except ImportError:
        return
    wrap(Painter, "render", "agg_draw", lambda painter, *a, **k: {"painter": True})
    wrap(Painter, "_diff_image", "encode")


def set_constants(spec: str) -> None:
    """``BENCH_SET="package.module.NAME=value;..."``: set module constants in this kernel
    before the notebook runs (an A/B of a tuning constant, ``ab_play.py``). Each value is a
    Python literal; a name the module lacks is an error, not a silent no-op."""
    import ast
    import importlib

    for item in filter(None, (part.strip() for part in spec.split(";"))):
        target, _, value = item.partition("=")
        module_name, _, name = target.strip().rpartition(".")
        module = importlib.import_module(module_name)
        if not hasattr(module, name):
            raise AttributeError(f"BENCH_SET: {module_name} has no {name}")
        setattr(module, name, ast.literal_eval(value.strip()))


if os.environ.get("BENCH_TRACE_DIR"):
    install(os.environ["BENCH_TRACE_DIR"])
if os.environ.get("BENCH_SET"):
    set_constants(os.environ["BENCH_SET"])
