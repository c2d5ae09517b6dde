"""The long fuzz runs of tests/fuzz_maths.py and tests/fuzz_apps.py (the suite runs short
ones): bad and edge input over every public maths function and every app entry point, in a
memory-capped child, each call alarm-bounded.

One row per module: calls, and in the note valid answers, clear ValueErrors and anything
else (which must be 0). ``FUZZ_EXAMPLES`` sets the calls per function (default 200).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import row

ROOT = Path(__file__).resolve().parent.parent


def run() -> list[dict]:
    examples = int(os.environ.get("FUZZ_EXAMPLES", "200"))
    return (_fuzz("fuzz_maths.py", "fuzz", examples, ROOT)
            + _fuzz("fuzz_apps.py", "fuzz apps", max(10, examples // 4), None))


def _fuzz(script: str, label: str, examples: int, cwd) -> list[dict]:
    """One long run of ``tests/<script>`` in a memory-capped child (in a temporary folder
    when ``cwd`` is None: the apps' fuzz writes GIFs where it runs); one row per group."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "fuzz.json"
        subprocess.run([sys.executable, str(ROOT / "tests" / script), "--examples",
                        str(examples), "--memory-mb", "3000", "--seed", "2026", "--json",
                        str(out)], cwd=cwd or tmp, env=env, capture_output=True, text=True,
                       timeout=3600)
        report = json.loads(out.read_text())
    rows = []
    for group, c in sorted(report["counts"].items()):
        rows.append(row(f"{label} {group}", c.get("calls", 0), unit="calls",
                        budget="other = 0",
                        note=f"valid {c.get('valid', 0)}, refused {c.get('refused', 0)}, "
                             f"other {c.get('other', 0)}"))
    for o in report["others"][:5]:
        rows.append(row(f"{label} other: {o['function']}", 1, unit="call",
                        note=o["problem"][:100]))
    return rows
