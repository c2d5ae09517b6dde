"""Each room kernel with a memory cap of its own, so that no page can take the room down.

``make classroom`` serves a whole room from one computer. Without a cap, one kernel asked to
draw a huge figure (issue 30) or to run a runaway computation can take every byte of the
computer's memory; the kernel the system's out-of-memory killer then picks may well be
another student's, or the server. Here every kernel of the room is started by
:class:`CappedKernelManager`, through this module:

    python -m lessons_server.memcap --memory-mb 1024 -f <connection file>

which caps the process's address space (``RLIMIT_AS``) and then runs the IPython kernel in
the same process. An allocation past the cap fails inside that kernel only; the kernel
then ends itself (exit code :data:`OUT_OF_MEMORY_EXIT`, one line on its stderr), because
after a failed allocation nothing it holds can be trusted. The room's kernels are not
restarted (``KernelRestarter.restart_limit = 0`` in ``lessons_server.room``): the server
tells the page the kernel is dead, and the lessons' page template says so in one line and
offers a reload, which starts a fresh kernel.

The cap is on address space, not on resident memory: it is reliable (the kernel cannot
exceed it, however fast it allocates), needs no privileges and no cgroup, and works on any
Linux. Address space depends on threads (each reserves a stack and, with glibc, a malloc
arena), so the kernel runs with one BLAS thread and two malloc arenas (:data:`KERNEL_ENV`):
that keeps its size the same on a 2-core and a 16-core computer, and a room's kernels gain
nothing from threads. Sizes measured (``benchmarks/kernel_memory.py``, this repository's
lessons, 2026-12): a started kernel 219 MB of address space, 51 MB resident; a lesson run
to its end 395-484 MB (126-140 MB resident); every figure of a lesson then drawn at the
canvas guard's pixel budget at once 588-745 MB (220-453 MB resident). :data:`DEFAULT_MEMORY_MB`
leaves about 280 MB above the largest of these. A kernel also stops once it holds
:data:`RESIDENT_SHARE` of its cap in resident memory (:func:`watch_resident`), so that none
sits just under its cap holding the computer's memory. Where ``RLIMIT_AS`` does not exist
(Windows) or is not enforced (macOS), the room starts without a cap and says so.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from traitlets import Int

#: The cap on each room kernel's address space, in MiB (see the module's note for the sizes
#: it was chosen from). ``make classroom MEMORY_MB=...`` changes it; 0 turns it off.
DEFAULT_MEMORY_MB = 1024
#: What a kernel that reached its cap exits with (EX_TEMPFAIL: try again, in a new kernel).
OUT_OF_MEMORY_EXIT = 75
#: The environment a capped kernel runs in: one BLAS thread, two malloc arenas.
KERNEL_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "MALLOC_ARENA_MAX": "2"}
#: Set in a capped kernel's environment to the cap in MiB (for the kernel's own code).
CAP_ENV = "LESSONS_MEMORY_CAP_MB"
#: A capped kernel whose resident memory passes this share of its cap stops too. The cap on
#: address space only stops a kernel whose next allocation fails: one that filled itself to
#: just under it (a page's crafted widgets, in issue 40: 1017 of 1024 MB, 780 MB resident)
#: would sit there, holding the memory, for as long as its page stays open. The most a
#: lesson holds is 453 MB resident (every figure at the pixel budget at once, see above).
RESIDENT_SHARE = 0.625
#: How often, in seconds, a capped kernel reads its own resident memory.
RESIDENT_EVERY_S = 0.5


def can_cap() -> bool:
    """Does this system enforce an address-space cap (Linux)?"""
    try:
        import resource
    except ImportError:  # Windows
        return False
    return sys.platform.startswith("linux") and hasattr(resource, "RLIMIT_AS")


def capped_command(cmd: list[str], memory_mb: int) -> list[str]:
    """The command that starts the kernel ``cmd`` (an IPython kernel's) under the cap."""
    if "ipykernel_launcher" not in cmd and "ipykernel" not in cmd:
        raise ValueError(f"the room's memory cap runs IPython kernels only, not {cmd[:3]}")
    module = "ipykernel_launcher" if "ipykernel_launcher" in cmd else "ipykernel"
    rest = cmd[cmd.index(module) + 1:]
    return [sys.executable, "-m", "lessons_server.memcap", "--memory-mb", str(memory_mb),
            *rest]


def _capped_kernel_manager() -> type:
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    class CappedKernelManager(ServerKernelManager):
        """A kernel manager whose kernels run under :func:`main`'s memory cap."""

        memory_mb = Int(DEFAULT_MEMORY_MB, config=True,
                        help="Cap on each kernel's address space in MiB (0: no cap).")

        def format_kernel_cmd(self, extra_arguments=None) -> list[str]:
            cmd = super().format_kernel_cmd(extra_arguments)
            if self.memory_mb <= 0 or not can_cap():
                return cmd
            return capped_command(cmd, self.memory_mb)

    CappedKernelManager.__qualname__ = "CappedKernelManager"
    return CappedKernelManager


def __getattr__(name: str):
    """``CappedKernelManager`` (the server's side), made on first use: a capped kernel runs
    this module too (:func:`main`), and importing Jupyter Server there, for a class the
    kernel never uses, cost every kernel start 1.3 to 2.8 CPU-seconds, twice (before and
    after :func:`main` starts itself again), mostly jsonschema's IRI grammar
    (lessons_server/singleuser.py)."""
    if name == "CappedKernelManager":
        globals()[name] = cls = _capped_kernel_manager()
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def set_cap(memory_mb: int) -> None:
    """Cap this process's address space at ``memory_mb`` MiB (soft and hard: for good)."""
    import resource

    limit = int(memory_mb) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def resident_limit_mb(memory_mb: int) -> int:
    """The resident memory past which a kernel capped at ``memory_mb`` stops."""
    return int(memory_mb * RESIDENT_SHARE)


def resident_mb() -> float:
    """This process's resident memory in MiB (Linux's /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def watch_resident(limit_mb: int, stop, every_s: float = RESIDENT_EVERY_S) -> threading.Thread:
    """A daemon thread that calls ``stop`` once this process holds more than ``limit_mb``
    MiB resident (checked every ``every_s`` seconds)."""
    def watch() -> None:
        while resident_mb() <= limit_mb:
            time.sleep(every_s)
        stop()

    thread = threading.Thread(target=watch, name="lessons-resident-watch", daemon=True)
    thread.start()
    return thread


def _out_of_memory(memory_mb: int, what: str = "memory cap"):
    def stop(*_args) -> None:
        # straight to the server's log: ipykernel sends file descriptor 2 to the page (and
        # its streams may wait for a thread); it keeps the log's descriptor apart
        fd = getattr(sys.stderr, "_original_stdstream_copy", None)
        line = (f"This kernel reached its {what} of {memory_mb} MB and stops; the server "
                "and the other kernels go on.\n")
        try:
            os.write(fd if isinstance(fd, int) else 2, line.encode())
        finally:
            os._exit(OUT_OF_MEMORY_EXIT)

    return stop


def _is_memory_error(exc_type) -> bool:
    return isinstance(exc_type, type) and issubclass(exc_type, MemoryError)


def install_stop_on_memory_error(shell, stop) -> None:
    """Every MemoryError the kernel would report ends the kernel instead: in a cell, in a
    widget or canvas callback (ipywidgets shows those through the shell), in a lesson's
    guarded callback (:func:`lessons_lib.apps.core.guard.out_of_memory` hands it to
    ``sys.excepthook`` when :data:`CAP_ENV` is set), or uncaught in any thread."""
    shell.set_custom_exc((MemoryError,), lambda *_a, **_k: stop())
    show = shell.showtraceback

    def showtraceback(exc_tuple=None, *args, **kwargs):
        etype = (exc_tuple or sys.exc_info())[0]
        if _is_memory_error(etype):
            stop()
        return show(exc_tuple, *args, **kwargs)

    shell.showtraceback = showtraceback
    excepthook = sys.excepthook

    def hook(etype, value, tb):
        if _is_memory_error(etype):
            stop()
        excepthook(etype, value, tb)

    sys.excepthook = hook
    thread_hook = threading.excepthook

    def thread_excepthook(args):
        if _is_memory_error(args.exc_type):
            stop()
        thread_hook(args)

    threading.excepthook = thread_excepthook


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="An IPython kernel under a memory cap.")
    parser.add_argument("--memory-mb", type=int, required=True)
    args, kernel_args = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if args.memory_mb < 64:
        raise SystemExit(f"--memory-mb must be at least 64, got {args.memory_mb}")
    if any(os.environ.get(k) != v for k, v in KERNEL_ENV.items()):
        # glibc reads MALLOC_ARENA_MAX when the process starts: start again with it set
        env = {**os.environ, **KERNEL_ENV, CAP_ENV: str(args.memory_mb)}
        os.execve(sys.executable, [sys.executable, "-m", "lessons_server.memcap",
                                   "--memory-mb", str(args.memory_mb), *kernel_args], env)
    os.environ[CAP_ENV] = str(args.memory_mb)
    if can_cap():
        set_cap(args.memory_mb)
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize(kernel_args)
    install_stop_on_memory_error(app.shell, _out_of_memory(args.memory_mb))
    if can_cap():
        limit = resident_limit_mb(args.memory_mb)
        watch_resident(limit, _out_of_memory(limit, "resident memory limit"))
    app.start()


if __name__ == "__main__":
    main()
