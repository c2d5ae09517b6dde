"""The fuzz run of ``tests/fuzz_maths.py`` over every public maths function, short version.

It runs in a child process whose address space is capped (``resource.setrlimit``), and
each call there has a wall-clock alarm, so a call that eats memory or hangs shows up as an
"other" outcome instead of taking the machine down. ``FUZZ_EXAMPLES=300 pytest
tests/test_fuzz.py`` (or ``make bench``, benchmarks/bench_fuzz.py) runs the long version.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import fuzz_maths

HERE = Path(__file__).resolve().parent
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))


def test_every_public_maths_callable_has_a_fuzz_spec():
    assert fuzz_maths.uncovered() == []


def test_fuzz_outcomes_are_valid_answers_or_clear_value_errors(tmp_path):
    out = tmp_path / "fuzz.json"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    run = subprocess.run([sys.executable, str(HERE / "fuzz_maths.py"), "--examples",
                          str(EXAMPLES), "--memory-mb", "2500", "--json", str(out)],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.exists(), run.stdout + run.stderr
    report = json.loads(out.read_text())
    print(run.stdout)
    counts = report["counts"]
    assert set(counts) == set(fuzz_maths.MODULES), sorted(counts)
    assert all(c["calls"] >= EXAMPLES for c in counts.values())
    assert report["others"] == [], run.stdout
    # both kinds of outcome happen in every module: the strategies reach past the checks
    assert all(c.get("valid", 0) and c.get("refused", 0) for c in counts.values()), counts
