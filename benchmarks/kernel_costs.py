"""What each part of a lesson costs its kernel: every import, every cell, every first draw.

For each notebook, in a fresh python3 kernel (as Voila starts one per page): the CPU seconds
and resident memory the kernel adds for each import statement of the first code cell, for
each later code cell, and then, as the page would ask, for the first and the second full
draw of every ipympl figure (Agg render plus the PNG the page receives); with ``--warm``
after the warm-up render that ``make classroom`` gives every pooled kernel. CPU time of the
kernel process is read from the operating system, so the numbers hold on a busy machine.

    python benchmarks/kernel_costs.py                    # every lesson
    python benchmarks/kernel_costs.py 01_gimbal_lock --top 8
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

import nbformat
import psutil
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

DRAWS = """
import json as _json, time as _time
from ipympl.backend_nbagg import Canvas as _Canvas
from ipywidgets.widgets.widget import _instances as _widgets
_out = []
for _c in [w for w in list(_widgets.values()) if isinstance(w, _Canvas)]:
    _row = {}
    for _k in ("first", "second"):
        _t = _time.process_time()
        _c._force_full = True
        _c._png_is_old = True
        _c.draw()            # the Agg render the page asks for
        _c.get_diff_image()  # and the PNG it receives
        _row[_k] = _time.process_time() - _t
    _row["size"] = [int(v) for v in _c.figure.bbox.size]
    _out.append(_row)
print("DRAWS" + _json.dumps(_out))
"""


def _cpu(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def _label(source: str) -> str:
    line = next((ln for ln in source.splitlines() if ln.strip() and not ln.startswith("#")), "")
    return line.strip()[:70]


def _pieces(nb) -> list[tuple[str, str]]:
    """(label, code): the first code cell one statement at a time, then each code cell."""
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    pieces = []
    if cells:
        first = cells[0]
        magics = [ln for ln in first.splitlines() if ln.startswith("%")]
        body = "\n".join(ln for ln in first.splitlines() if not ln.startswith("%"))
        for m in magics:
            pieces.append((m, m))
        for node in ast.parse(body).body:
            code = ast.get_source_segment(body, node)
            pieces.append((_label(code), code))
    pieces += [(_label(src), src) for src in cells[1:]]
    return pieces


def costs(path: Path, warm: bool = False) -> dict:
    nb = nbformat.read(path, as_version=4)
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(path.parent))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        proc = psutil.Process(km.provisioner.process.pid)
        rows = [{"what": "start the kernel", "cpu_s": _cpu(proc),
                 "rss_mb": proc.memory_info().rss / 2**20}]
        for label, code in _pieces(nb):
            before_cpu, before_rss = _cpu(proc), proc.memory_info().rss
            reply = kc.execute_interactive(code, timeout=180, store_history=False,
                                           output_hook=lambda msg: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"{path.name}: {label!r} failed: {reply['content']}")
            rows.append({"what": label, "cpu_s": _cpu(proc) - before_cpu,
                         "rss_mb": (proc.memory_info().rss - before_rss) / 2**20})
        if warm:  # what `make classroom` does to a pooled kernel before the room comes in
            from lessons_server.classroom import WARM_UP

            before = _cpu(proc)
            kc.execute_interactive(WARM_UP, timeout=180, store_history=False,
                                   output_hook=lambda msg: None)
            rows.append({"what": "warm-up render of every figure", "cpu_s": _cpu(proc) - before,
                         "rss_mb": 0.0})
        printed = []

        def keep(msg) -> None:
            if msg["msg_type"] == "stream":
                printed.append(msg["content"]["text"])

        kc.execute_interactive(DRAWS, timeout=180, store_history=False, output_hook=keep)
        draws = json.loads("".join(printed).split("DRAWS", 1)[1])
        mem = proc.memory_full_info()
        return {"notebook": path.stem, "rows": rows, "draws": draws,
                "rss_mb": mem.rss / 2**20, "uss_mb": mem.uss / 2**20,
                "total_cpu_s": _cpu(proc)}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def report(c: dict, top: int) -> str:
    lines = [f"## {c['notebook']}: {c['total_cpu_s']:.2f} CPU-s, RSS {c['rss_mb']:.0f} MB "
             f"(USS {c['uss_mb']:.0f} MB)", "", "| step | CPU | memory added |", "|---|---:|---:|"]
    rows = sorted(c["rows"], key=lambda r: -r["cpu_s"])[:top]
    for r in rows:
        lines.append(f"| `{r['what']}` | {r['cpu_s']:.2f} s | {r['rss_mb']:+.0f} MB |")
    for i, d in enumerate(c["draws"]):
        lines.append(f"| figure {i} ({d['size'][0]}x{d['size'][1]}): first draw + PNG "
                     f"| {d['first']:.3f} s | |")
        lines.append(f"| figure {i}: second draw + PNG | {d['second']:.3f} s | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", help="notebook stems (default: every lesson)")
    ap.add_argument("--top", type=int, default=10, help="steps shown per notebook")
    ap.add_argument("--warm", action="store_true",
                    help="render every figure once first, as `make classroom` does")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)
    paths = ([NOTEBOOKS / f"{n}.ipynb" for n in args.notebooks] if args.notebooks
             else sorted(p for p in NOTEBOOKS.glob("[0-9]*.ipynb")))
    results = [costs(p, args.warm) for p in paths]
    print("\n\n".join(report(c, args.top) for c in results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
