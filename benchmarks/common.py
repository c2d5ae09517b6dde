"""Timing helpers shared by the benchmarks. Numbers are reported, never asserted."""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("MPLBACKEND", "module://ipympl.backend_nbagg")


def time_ms(fn: Callable[[], object], repeat: int = 30, warmup: int = 3,
            clock: Callable[[], float] = time.perf_counter) -> dict:
    """Median, 90th percentile and max of ``repeat`` calls of ``fn``, in milliseconds."""
    for _ in range(warmup):
        fn()
    samples = []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = clock()
            fn()
            samples.append((clock() - t0) * 1000)
    finally:
        if gc_was:
            gc.enable()
    samples.sort()
    return {"median": statistics.median(samples),
            "p90": samples[min(len(samples) - 1, int(0.9 * len(samples)))],
            "max": samples[-1], "n": repeat}


def cpu_ms(fn: Callable[[], object], repeat: int = 30, warmup: int = 3) -> dict:
    """Like :func:`time_ms` in this process's CPU time: on a machine shared with other busy
    processes the wall clock mostly measures the neighbours; this does not."""
    return time_ms(fn, repeat, warmup, clock=time.process_time)


def full_draw(fig) -> None:
    """What a slider move costs on the kernel side: a full Agg render of the figure."""
    fig.canvas.draw()


def row(name: str, stats: dict | float, unit: str = "ms", budget: str = "", note: str = "") -> dict:
    if isinstance(stats, dict):
        return {"name": name, "median": stats["median"], "p90": stats["p90"],
                "max": stats.get("max", float("nan")), "unit": unit, "budget": budget,
                "note": note}
    return {"name": name, "median": float(stats), "p90": float("nan"), "max": float("nan"),
            "unit": unit, "budget": budget, "note": note}
