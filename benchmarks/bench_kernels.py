"""What one student's kernel costs the teacher's laptop, per lesson.

For every notebook: start a fresh python3 kernel (as Voila does for each page), run the
notebook's code cells in it (what Voila runs before the page is complete), then read the
kernel process's CPU time and memory. Reported: CPU seconds to start the kernel, CPU seconds
to run the lesson (imports, building the apps, the lesson's own computations; the first
draw waits for a browser and is not included), wall time of both, and the kernel's
resident memory (RSS) and unique memory (USS, what a second kernel adds).
"""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import psutil
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from common import row

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _cpu(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def kernel_cost(path: Path) -> dict:
    nb = nbformat.read(path, as_version=4)
    km = KernelManager(kernel_name="python3")
    t0 = time.perf_counter()
    km.start_kernel(cwd=str(path.parent))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        start_wall = time.perf_counter() - t0
        proc = psutil.Process(km.provisioner.process.pid)
        start_cpu = _cpu(proc)
        t1 = time.perf_counter()
        client = NotebookClient(nb, km=km, kc=kc, timeout=120, allow_errors=False,
                                resources={"metadata": {"path": str(path.parent)}})
        with client.setup_kernel(cleanup_kc=False):
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
        run_wall = time.perf_counter() - t1
        run_cpu = _cpu(proc) - start_cpu
        mem = proc.memory_full_info()
        return {"start_cpu": start_cpu, "start_wall": start_wall, "run_cpu": run_cpu,
                "run_wall": run_wall, "rss_mb": mem.rss / 2**20, "uss_mb": mem.uss / 2**20}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def run() -> list[dict]:
    rows = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        c = kernel_cost(path)
        name = path.stem
        rows.append(row(f"{name}: kernel start CPU", c["start_cpu"], unit="s",
                        note=f"wall {c['start_wall']:.2f} s"))
        rows.append(row(f"{name}: run the lesson CPU", c["run_cpu"], unit="s",
                        note=f"wall {c['run_wall']:.2f} s; imports, apps, lesson code"))
        rows.append(row(f"{name}: kernel memory RSS", c["rss_mb"], unit="MB",
                        note=f"USS {c['uss_mb']:.0f} MB (what one more student adds)"))
    return rows


if __name__ == "__main__":
    for r in run():
        print(f"{r['name']:45s} {r['median']:8.2f} {r['unit']:3s}  {r['note']}")
