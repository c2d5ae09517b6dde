"""Run every ``benchmarks/bench_*.py`` and print one table (``make bench``).

Each module has ``run() -> list[dict]`` (rows made with ``common.row``). Pass names to run a
subset: ``python benchmarks/run.py gimbal funnel``.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs: dataclasses look their module up in sys.modules.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _fmt(x: float) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "-"
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def main(argv: list[str]) -> int:
    wanted = [a.lower() for a in argv]
    files = sorted(HERE.glob("bench_*.py"))
    if wanted:
        files = [f for f in files if any(w in f.stem for w in wanted)]
    rows, failed = [], []
    for path in files:
        t0 = time.perf_counter()
        print(f"running {path.name} ...", file=sys.stderr, flush=True)
        try:
            for r in _load(path).run():
                rows.append((path.stem.removeprefix("bench_"), r))
        except Exception as exc:  # report and go on: one broken benchmark hides no others
            failed.append(f"{path.name}: {type(exc).__name__}: {exc}")
        print(f"  done in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    header = ("suite", "measurement", "median", "p90", "max", "unit", "budget", "note")
    table = [header] + [(s, r["name"], _fmt(r["median"]), _fmt(r["p90"]),
                         _fmt(r.get("max", float("nan"))), r["unit"], r.get("budget", ""),
                         r.get("note", "")) for s, r in rows]
    widths = [max(len(str(line[i])) for line in table) for i in range(len(header))]
    for i, line in enumerate(table):
        print(" | ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
        if i == 0:
            print("-+-".join("-" * w for w in widths))
    for f in failed:
        print("FAILED:", f)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
