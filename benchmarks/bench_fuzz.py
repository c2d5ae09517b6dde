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
    examples = os.environ.get("FUZZ_EXAMPLES", "200")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "fuzz.json"
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_maths.py"), "--examples",
                        examples, "--memory-mb", "3000", "--seed", "2026", "--json", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
        report = json.loads(out.read_text())
    rows = []
    for module, c in sorted(report["counts"].items()):
        rows.append(row(f"fuzz {module}", c.get("calls", 0), unit="calls",
                        budget="other = 0",
                        note=f"valid {c.get('valid', 0)}, refused {c.get('refused', 0)}, "
                             f"other {c.get('other', 0)}"))
    for o in report["others"][:5]:
        rows.append(row(f"fuzz other: {o['function']}", 1, unit="call",
                        note=o["problem"][:100]))
    return rows + _apps(examples, env)


def _apps(examples: str, env: dict) -> list[dict]:
    """The same long run over the apps' entry points (tests/fuzz_apps.py)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "fuzz_apps.json"
        subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_apps.py"), "--examples",
                        str(max(10, int(examples) // 4)), "--memory-mb", "3000", "--seed",
                        "2026", "--json", str(out)],
                       cwd=tmp, env=env, capture_output=True, text=True, timeout=3600)
        report = json.loads(out.read_text())
    rows = []
    for group, c in sorted(report["counts"].items()):
        rows.append(row(f"fuzz apps {group}", c.get("calls", 0), unit="calls",
                        budget="other = 0",
                        note=f"valid {c.get('valid', 0)}, refused {c.get('refused', 0)}, "
                             f"other {c.get('other', 0)}"))
    for o in report["others"][:5]:
        rows.append(row(f"fuzz apps other: {o['function']}", 1, unit="call",
                        note=o["problem"][:100]))
    return rows
