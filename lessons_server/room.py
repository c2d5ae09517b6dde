"""Serve the lessons to a room (``make classroom``): every interface, a random token, and
the address printed large enough to read off the projector from the back row.

    python -m lessons_server.room [--port 8866] [--lesson LESSON] [--students 30]

Settings come from the repository's ``voila.json`` (pre-heated kernels, culling, no
tracebacks, images only, v1 websockets only), exactly as for ``make voila``. With
``--lesson`` this script pre-heats one kernel per student for the lesson taught today (one
for every other notebook), so each student's page is already computed when they arrive;
it refills the pool only once the room has stopped arriving (``--refill-after`` seconds
with no new student), one kernel at a time, and prints how long pre-heating took and how
much memory the kernels take before it prints the address. ``--ip 127.0.0.1`` keeps it on
this computer (tests and benchmarks do that).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: The lessons' page template (share/jupyter/voila/templates/lessons: Voila's lab template
#: with Font Awesome asked for after the page has loaded), found through JUPYTER_PATH.
TEMPLATE_ROOT = ROOT / "share" / "jupyter"

# A 3x5 pixel font for what an address with a numeric token needs.
_FONT = {
    "0": ["###", "#.#", "#.#", "#.#", "###"], "1": [".#.", "##.", ".#.", ".#.", "###"],
    "2": ["###", "..#", "###", "#..", "###"], "3": ["###", "..#", ".##", "..#", "###"],
    "4": ["#.#", "#.#", "###", "..#", "..#"], "5": ["###", "#..", "###", "..#", "###"],
    "6": ["###", "#..", "###", "#.#", "###"], "7": ["###", "..#", "..#", ".#.", ".#."],
    "8": ["###", "#.#", "###", "#.#", "###"], "9": ["###", "#.#", "###", "..#", "###"],
    ".": ["...", "...", "...", "...", ".#."], ":": ["...", ".#.", "...", ".#.", "..."],
    "/": ["..#", "..#", ".#.", "#..", "#.."], "?": ["###", "..#", ".##", "...", ".#."],
    "=": ["...", "###", "...", "###", "..."], "-": ["...", "...", "###", "...", "..."],
    "h": ["#..", "#..", "###", "#.#", "#.#"], "t": [".#.", "###", ".#.", ".#.", ".##"],
    "p": ["...", "###", "#.#", "###", "#.."], "o": ["...", "###", "#.#", "#.#", "###"],
    "k": ["#..", "#.#", "##.", "#.#", "#.#"], "e": ["###", "#.#", "###", "#..", "###"],
    "n": ["...", "##.", "#.#", "#.#", "#.#"], "l": ["##.", ".#.", ".#.", ".#.", "###"],
    "a": ["...", "##.", "..#", "###", "###"], "c": ["...", "###", "#..", "#..", "###"],
    "s": [".##", "#..", ".#.", "..#", "##."], "i": [".#.", "...", "##.", ".#.", "###"],
    " ": ["...", "...", "...", "...", "..."],
}


def big(text: str, pixel: str = "█") -> str:
    """``text`` in 5-line block letters (characters outside the font raise ValueError)."""
    missing = sorted({c for c in text if c not in _FONT})
    if missing:
        raise ValueError(f"no big glyph for {missing!r}")
    rows = []
    for r in range(5):
        rows.append(" ".join(_FONT[c][r] for c in text).replace("#", pixel).replace(".", " "))
    return "\n".join(row.rstrip() for row in rows)


def make_token() -> str:
    """12 random digits (about 40 bits): unambiguous in block letters, quick on a phone."""
    return "".join(secrets.choice("0123456789") for _ in range(12))


def lan_address() -> str:
    """This computer's address on the room's network (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def banner(host: str, port: int, token: str, path: str = "/") -> str:
    """The address to project: ``path`` on this server (``/`` the index, ``/2`` lesson 2:
    :func:`lesson_path`), in full and in block letters."""
    url = f"http://{host}:{port}{path}?token={token}"
    try:
        letters = big(f"{host}:{port}{path.rstrip('/')}")
    except ValueError:         # a notebook outside the catalogue: its name is in the line
        letters = big(f"{host}:{port}")
    line = "=" * 72
    return "\n".join([
        "", line, "  Students open (phone or laptop, same Wi-Fi as this computer):", "",
        f"      {url}", "",
        letters, "", big(f"?token={token}"), "",
        "  Without the token every page and kernel connection is refused.",
        "  Ctrl+C stops the server and every student's kernel.", line, ""])


def lesson_path(args: argparse.Namespace) -> str:
    """The path the banner gives: with ``--lesson``, the lesson's short address (``/2``,
    :mod:`lessons_server.landing`; its rendered page for a notebook outside the catalogue),
    else ``/``, which lands on the index."""
    from lessons_server.landing import render_path, short_path

    if not args.lesson:
        return "/"
    name = notebook_name(args.lesson)
    return short_path(name) or "/" + render_path(name)


def notebook_name(lesson: str) -> str:
    return lesson if lesson.endswith(".ipynb") else lesson + ".ipynb"


def voila_argv(args: argparse.Namespace, token: str) -> list[str]:
    argv = [str(args.notebooks), "--no-browser", f"--port={args.port}", f"--Voila.ip={args.ip}",
            f"--token={token}", "--VoilaConfiguration.template=lessons"]
    if args.no_preheat:
        argv.append("--VoilaConfiguration.preheat_kernel=False")
    return argv


def pools(args: argparse.Namespace) -> dict | None:
    """kernel_pools_config for ``--lesson``: its own pool, the default for the others."""
    if not args.lesson or args.no_preheat:
        return None
    name = notebook_name(args.lesson)
    if not (args.notebooks / name).is_file():
        known = ", ".join(p.stem for p in sorted(args.notebooks.glob("*.ipynb")))
        where = args.notebooks.relative_to(ROOT) if args.notebooks.is_relative_to(ROOT) \
            else args.notebooks
        raise SystemExit(f"--lesson {args.lesson!r}: no {where}/{name}; one of: {known}")
    if args.students < 1:
        raise SystemExit(f"--students must be at least 1, got {args.students}")
    if args.default_pool < 0:
        raise SystemExit(f"--default-pool must be 0 or more, got {args.default_pool}")
    return {"default": {"pool_size": args.default_pool}, name: {"pool_size": args.students}}


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=8866)
    p.add_argument("--ip", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--lesson", help="the lesson taught today: its notebook's name in notebooks/, "
                                    "without .ipynb")
    p.add_argument("--students", type=int, default=10,
                   help="students expected for --lesson: one pre-heated kernel each "
                        "(default 10; about 0.13 GB of memory per kernel)")
    p.add_argument("--refill-after", type=float, default=20.0,
                   help="seconds with no new student before used kernels are replaced "
                        "(default 20)")
    p.add_argument("--default-pool", type=int, default=1,
                   help="pre-heated kernels for every other notebook (default 1)")
    p.add_argument("--no-preheat", action="store_true",
                   help="start each student's kernel on demand (least memory, slowest pages)")
    p.add_argument("--memory-mb", type=int, default=None,
                   help="cap on each kernel's memory (address space) in MB; a kernel that "
                        "reaches it stops alone and its page offers a reload (default "
                        "%(default)s: lessons_server.memcap.DEFAULT_MEMORY_MB; 0: no cap)")
    p.add_argument("--notebooks", type=Path, default=NOTEBOOKS,
                   help="serve the notebooks in this folder (default: the lessons)")
    p.add_argument("--token", help="use this token instead of a random one")
    p.add_argument("--print-only", action="store_true",
                   help="print the banner and the Voila arguments, do not serve")
    p.add_argument("--no-static-cache", action="store_true",
                   help="read Voila's installed files from disk for every request "
                        "(to measure what answering them from memory saves)")
    p.add_argument("--no-gzip-cache", action="store_true",
                   help="gzip every response anew (to measure what compressing each "
                        "static file once saves)")
    args = p.parse_args(argv)
    args.notebooks = args.notebooks.resolve()
    if not args.notebooks.is_dir():
        raise SystemExit(f"--notebooks {args.notebooks}: no such folder")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    token = args.token or make_token()
    host = lan_address() if args.ip in ("0.0.0.0", "") else args.ip
    pool_config = pools(args)
    path = lesson_path(args)
    if args.print_only:
        print(banner(host, args.port, token, path), flush=True)
        print("voila", " ".join(voila_argv(args, token)))
        print("kernel_pools_config", pool_config)
        return 0
    os.chdir(ROOT)  # voila.json is read from the working directory
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(TEMPLATE_ROOT), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))])
    from traitlets.config import Config

    config = Config()
    if pool_config:
        config.VoilaKernelManager.kernel_pools_config = pool_config
    config.VoilaKernelManager.refill_after = args.refill_after
    print(memory_cap(config, args.memory_mb), flush=True)
    if not args.no_preheat:
        print(f"\n  Pre-heating kernels ({describe(pool_config)}); the address follows "
              "when they are ready.\n", flush=True)
    voila_class = classroom_voila(host, token, static_cache=not args.no_static_cache,
                                  gzip_cache=not args.no_gzip_cache, path=path)
    voila_class.launch_instance(argv=voila_argv(args, token), config=config)
    return 0


def memory_cap(config, memory_mb: int | None) -> str:
    """Start every kernel under a memory cap (:mod:`lessons_server.memcap`), never restart
    one that died (its page offers a reload instead); what to tell the teacher."""
    from lessons_server import memcap

    mb = memcap.DEFAULT_MEMORY_MB if memory_mb is None else memory_mb
    if mb < 0 or 0 < mb < 256:
        raise SystemExit(f"--memory-mb must be 0 (no cap) or at least 256, got {mb}")
    config.KernelRestarter.restart_limit = 0
    if not mb:
        return "  Kernels start without a memory cap (--memory-mb 0)."
    if not memcap.can_cap():
        return (f"  This system cannot cap a kernel's memory ({sys.platform}): kernels start "
                "without one.")
    config.MultiKernelManager.kernel_manager_class = "lessons_server.memcap.CappedKernelManager"
    config.CappedKernelManager.memory_mb = mb
    return (f"  Each kernel may use up to {mb} MB of address space; one that reaches it "
            "stops alone and its page offers a reload.")


def describe(pool_config: dict | None) -> str:
    if not pool_config:
        return "one per notebook"
    lesson = next(k for k in pool_config if k != "default")
    others = pool_config["default"]["pool_size"]
    return (f"{pool_config[lesson]['pool_size']} for {Path(lesson).stem}, "
            f"{others} for every other notebook")


def report(stats: dict, server_rss: float) -> str:
    """What pre-heating cost, in the words a teacher needs before the class comes in."""
    gb = 2**30
    counts = ", ".join(f"{Path(nb).stem} {n}" for nb, n in sorted(stats["per_notebook"].items())
                       if n)
    lines = [f"  Pre-heated {stats['kernels']} kernels in {stats['seconds']:.0f} s ({counts})."]
    if stats["rss"] == stats["rss"]:  # not NaN: psutil was there to measure
        per_kernel = stats["rss"] / max(stats["kernels"], 1) / 2**20
        lines.append(f"  They take {stats['rss'] / gb:.1f} GB of memory "
                     f"({stats['uss'] / gb:.1f} GB their own, {per_kernel:.0f} MB a kernel); "
                     f"the server {server_rss / gb:.2f} GB.")
        try:
            import psutil

            lines.append(f"  Memory still free: {psutil.virtual_memory().available / gb:.1f} GB.")
        except ImportError:  # pragma: no cover - IPython depends on psutil
            pass
    return "\n".join(lines)


def classroom_voila(host: str = "127.0.0.1", token: str = "", static_cache: bool = True,
                    gzip_cache: bool = True, path: str = "/"):
    """Voila landing on the index (:func:`lessons_server.landing.lessons_voila`) with the
    room's kernel pool (:func:`lessons_server.classroom.classroom_kernel_manager`)
    that prints the address once the pool is ready, and gzips what it sends: a first page
    is 5.4 MB of scripts and styles, about a quarter of that compressed, and a room shares
    one Wi-Fi. Each static file is compressed once, not once per student, and answered
    from memory once it has been served (:func:`lessons_server.classroom.static_from_memory`).
    (Voila applies its ``tornado_settings`` after the tornado Application exists, too late
    for the gzip transform, hence the subclass.) ``static_cache=False`` and
    ``gzip_cache=False`` leave those two caches out (``benchmarks/ab_caches.py``); ``path``
    is the address the banner gives (:func:`lesson_path`)."""
    import voila.app
    from tornado.web import GZipContentEncoding

    from lessons_server.classroom import (
        CachedGzipContentEncoding,
        classroom_kernel_manager,
        kernels_owned_by_pages,
        process_memory,
        static_from_memory,
    )
    from lessons_server.landing import lessons_voila

    class ClassroomVoila(lessons_voila()):
        def init_settings(self) -> dict:
            factory = voila.app.voila_kernel_manager_factory
            voila.app.voila_kernel_manager_factory = \
                lambda *a, **k: classroom_kernel_manager(factory(*a, **k))
            try:
                settings = super().init_settings()
            finally:
                voila.app.voila_kernel_manager_factory = factory
            settings["compress_response"] = True
            # tornado takes it from here
            settings["transforms"] = [CachedGzipContentEncoding if gzip_cache
                                      else GZipContentEncoding]
            asyncio.get_event_loop().create_task(self._announce())
            return settings

        def init_handlers(self) -> list:
            handlers = kernels_owned_by_pages(super().init_handlers())
            return static_from_memory(handlers) if static_cache else handlers

        async def _announce(self) -> None:
            preheated = getattr(self.kernel_manager, "preheated", None)
            if preheated is not None:
                stats = await preheated()
                print("\n" + report(stats, process_memory([os.getpid()])["rss"]), flush=True)
            print(banner(host, self.port, token, path), flush=True)

    return ClassroomVoila


if __name__ == "__main__":
    raise SystemExit(main())
