"""How much address space and resident memory a room kernel takes, per lesson: the numbers
the room's memory cap (lessons_server/memcap.py, ``DEFAULT_MEMORY_MB``) is sized from.

    python benchmarks/kernel_memory.py [notebook ...]

Each kernel runs in the room's kernel environment (one BLAS thread, two malloc arenas:
``memcap.KERNEL_ENV``), without a cap, and is read from /proc (Linux) three times: started;
after the notebook's code cells ran (what Voila runs before the page is complete); and after
every figure of the lesson was asked, through its canvas channel, for the largest picture
the canvas guard allows (pixel ratio 3 at 2560x2560 px, drawn at the pixel budget) and
drawn: the most a page can make a lesson's kernel hold.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lessons_server.memcap import DEFAULT_MEMORY_MB, KERNEL_ENV  # noqa: E402

LARGEST = """
import matplotlib.pyplot as plt
def _ask(canvas, content):
    canvas.comm.handle_msg({"content": {"data": {"method": "custom", "content": content}},
                            "buffers": []})
for _n in plt.get_fignums():
    _c = plt.figure(_n).canvas
    _ask(_c, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 3})
    _ask(_c, {"type": "resize", "width": 2560, "height": 2560})
    _c.draw()
"""


def memory(pid: int) -> dict[str, int]:
    """VmPeak/VmSize (address space) and VmHWM/VmRSS (resident) in MiB."""
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmPeak", "VmSize", "VmHWM", "VmRSS"):
                found[key] = int(value.split()[0]) // 1024
    return found


def measure(path: Path) -> list[tuple[str, dict]]:
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(path.parent), env={**os.environ, **KERNEL_ENV})
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        pid = km.provisioner.process.pid
        rows = [("started", memory(pid))]
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                kc.execute_interactive(cell.source, timeout=300, output_hook=lambda _m: None)
        rows.append(("notebook run", memory(pid)))
        kc.execute_interactive(LARGEST, timeout=300, output_hook=lambda _m: None)
        rows.append(("largest figures", memory(pid)))
        return rows
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main(argv: list[str]) -> int:
    names = argv or sorted(p.name for p in (ROOT / "notebooks").glob("0*.ipynb"))
    print(f"{'notebook':26} {'when':16} {'VmPeak':>7} {'VmSize':>7} {'VmHWM':>6} "
          f"{'VmRSS':>6}  (MiB)")
    peak = 0
    for name in names:
        for when, m in measure(ROOT / "notebooks" / name):
            peak = max(peak, m["VmPeak"])
            print(f"{name:26} {when:16} {m['VmPeak']:7} {m['VmSize']:7} {m['VmHWM']:6} "
                  f"{m['VmRSS']:6}")
    print(f"\nlargest address space: {peak} MiB; the room's cap: {DEFAULT_MEMORY_MB} MiB "
          f"({DEFAULT_MEMORY_MB - peak} MiB of head-room)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
