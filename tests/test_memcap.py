"""The room's memory cap, in-process: how a kernel is started under it, what a MemoryError
does in a capped kernel and elsewhere, and what ``make classroom`` configures. The cap
itself, on real kernels in a running room, is tests/test_room_memory.py (slow)."""

from __future__ import annotations

import subprocess
import sys

import matplotlib.pyplot as plt
import pytest
from traitlets.config import Config

from lessons_lib.apps import GimbalApp
from lessons_lib.apps.core import guard
from lessons_server import memcap, room


def test_a_kernel_command_is_run_under_the_cap():
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "/tmp/kernel-1.json"]
    assert memcap.capped_command(cmd, 900) == [
        sys.executable, "-m", "lessons_server.memcap", "--memory-mb", "900",
        "-f", "/tmp/kernel-1.json"]
    with pytest.raises(ValueError, match="IPython kernels only"):
        memcap.capped_command(["R", "--slave", "-f", "x.json"], 900)


def test_the_kernel_manager_wraps_the_python_kernel():
    km = memcap.CappedKernelManager(kernel_name="python3", memory_mb=900)
    km.connection_file = "/tmp/kernel-2.json"
    cmd = km.format_kernel_cmd()
    if memcap.can_cap():
        assert cmd[1:5] == ["-m", "lessons_server.memcap", "--memory-mb", "900"]
        assert cmd[-2:] == ["-f", "/tmp/kernel-2.json"]
    km.memory_mb = 0
    assert "lessons_server.memcap" not in km.format_kernel_cmd()


def test_the_room_configures_the_cap_and_no_restarts():
    config = Config()
    said = room.memory_cap(config, 1500)
    assert config.KernelRestarter.restart_limit == 0
    if memcap.can_cap():
        assert "1500 MB" in said
        assert config.MultiKernelManager.kernel_manager_class.endswith("CappedKernelManager")
        assert config.CappedKernelManager.memory_mb == 1500
    assert "without a memory cap" in room.memory_cap(Config(), 0)
    with pytest.raises(SystemExit, match="at least 256"):
        room.memory_cap(Config(), 100)


def _run_out_of_memory(app):
    def compute(params):
        raise MemoryError("test")

    app.compute = compute
    app.pitch.value = 12.0


def test_a_memory_error_is_a_message_outside_a_room(monkeypatch):
    monkeypatch.delenv(guard.MEMORY_CAP_ENV, raising=False)
    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda *a: seen.append(a))
    app = GimbalApp()
    try:
        _run_out_of_memory(app)
        assert not seen
        assert app.last_error and "Out of memory" in app.last_error
    finally:
        plt.close(app.fig)


def test_a_memory_error_ends_a_room_kernel(monkeypatch):
    """In a capped kernel a lesson's guarded callback hands the MemoryError on to the
    kernel's stop (``sys.excepthook``, which lessons_server.memcap replaces)."""
    monkeypatch.setenv(guard.MEMORY_CAP_ENV, "1024")
    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda etype, value, tb: seen.append(etype))
    app = GimbalApp()
    try:
        _run_out_of_memory(app)
        assert seen == [MemoryError]
    finally:
        plt.close(app.fig)


def test_the_stop_hooks_catch_every_way_a_memory_error_is_reported(monkeypatch):
    class Shell:
        custom = None

        def set_custom_exc(self, types, handler):
            self.custom = (types, handler)

        def showtraceback(self, exc_tuple=None, *args, **kwargs):
            return "shown"

    stops = []
    shell = Shell()
    monkeypatch.setattr(sys, "excepthook", lambda *a: None)
    import threading
    monkeypatch.setattr(threading, "excepthook", lambda args: None)
    memcap.install_stop_on_memory_error(shell, lambda: stops.append(1))
    assert shell.custom[0] == (MemoryError,)
    shell.custom[1](shell, MemoryError, MemoryError(), None)
    assert shell.showtraceback((ValueError, ValueError(), None)) == "shown"
    shell.showtraceback((MemoryError, MemoryError(), None))
    sys.excepthook(MemoryError, MemoryError(), None)
    sys.excepthook(KeyError, KeyError(), None)
    threading.excepthook(type("Args", (), {"exc_type": MemoryError})())
    assert len(stops) == 4


def test_the_resident_watch_stops_a_kernel_that_holds_too_much():
    """The watch a capped kernel runs (memcap.main): past its resident limit, stop."""
    import threading

    stopped = threading.Event()
    limit = memcap.resident_mb() + 60
    memcap.watch_resident(limit, stopped.set, every_s=0.05)
    assert not stopped.wait(0.4)
    # written, so resident; until the process is past the limit (a long test run's process
    # may have returned memory since the limit was set)
    held = []
    while memcap.resident_mb() <= limit + 20 and len(held) < 40:
        held.append(bytearray(b"x") * (50 * 2**20))
    assert memcap.resident_mb() > limit
    assert stopped.wait(10)
    del held
    # the room's default: above the most a lesson holds (453 MB), well below the cap
    assert 453 < memcap.resident_limit_mb(memcap.DEFAULT_MEMORY_MB) < memcap.DEFAULT_MEMORY_MB


def test_a_capped_kernel_does_not_import_the_server():
    """`python -m lessons_server.memcap` runs in every capped kernel (twice: it starts
    itself again with its environment); the kernel manager class it also holds is made on
    first use, so the kernel does not import Jupyter Server (and jsonschema's IRI grammar
    with it: 1.3 to 2.8 CPU-s a kernel start on this repository's machine)."""
    check = ("import sys, lessons_server.memcap as m; print('jupyter_server' in sys.modules, "
             "'jsonschema' in sys.modules, m.CappedKernelManager.__name__, "
             "'jupyter_server' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["False", "False", "CappedKernelManager", "True"]
