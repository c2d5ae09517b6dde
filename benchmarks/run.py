"""Run every ``benchmarks/bench_*.py``, print one table and write it to
``benchmarks/results/latest.json`` and ``latest.md`` (``make bench``).

Each module has ``run() -> list[dict]`` (rows made with ``common.row``). Pass names to run a
subset: ``python benchmarks/run.py gimbal funnel`` (the results files then hold that subset).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
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
    load = [round(x, 2) for x in os.getloadavg()]
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
    write_results(rows, table, failed, load)
    return 1 if failed else 0


def _versions() -> dict[str, str]:
    found = {}
    for name in ("matplotlib", "ipympl", "ipywidgets", "voila", "numpy", "tornado"):
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return found


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, text=True,
                              capture_output=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _clean(x):
    return None if isinstance(x, float) and not math.isfinite(x) else x


def write_results(rows, table, failed, load) -> None:
    """The run as data (``latest.json``) and as the table printed (``latest.md``), with what
    it ran on: the commit, the load average at the start, the library versions."""
    RESULTS.mkdir(exist_ok=True)
    meta = {"commit": _commit(), "load_average_at_start": load, "cores": os.cpu_count(),
            "python": platform.python_version(), "versions": _versions(), "failed": failed}
    data = {"meta": meta, "rows": [{"suite": s, **{k: _clean(v) for k, v in r.items()}}
                                   for s, r in rows]}
    (RESULTS / "latest.json").write_text(json.dumps(data, indent=1) + "\n")
    lines = ["# `make bench`: the latest run", "",
             f"Commit {meta['commit'] or '?'}; load average at the start {load}; "
             f"{meta['cores']} cores; " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items())
             + ". Written by `benchmarks/run.py`; what the rows mean: docs/performance.md.", ""]
    lines.append("| " + " | ".join(table[0]) + " |")
    lines.append("|" + "---|" * len(table[0]))
    lines += ["| " + " | ".join(str(c).replace("|", "/") for c in line) + " |"
              for line in table[1:]]
    lines += [f"\nFAILED: {f}" for f in failed]
    (RESULTS / "latest.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
