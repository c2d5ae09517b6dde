"""Serve the lessons to a room (``make classroom``): every interface, a random token, and
the address printed large enough to read off the projector from the back row.

    python tools/classroom.py [--port 8866] [--lesson 02_euler_vs_slerp] [--pool 6]

Settings come from the repository's ``voila.json`` (pre-heated kernels, culling, no
tracebacks, images only, v1 websockets only), exactly as for ``make voila``; this script
only adds the address, the token and, with ``--lesson``, a bigger pool of pre-heated
kernels for the lesson being taught today (so the first ``--pool`` students get a page
that is already computed). ``--ip 127.0.0.1`` keeps it on this computer (tests do that).
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

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


def banner(host: str, port: int, token: str) -> str:
    url = f"http://{host}:{port}/?token={token}"
    line = "=" * 72
    return "\n".join([
        "", line, "  Students open (phone or laptop, same Wi-Fi as this computer):", "",
        f"      {url}", "",
        big(f"{host}:{port}"), "", big(f"?token={token}"), "",
        "  Without the token every page and kernel connection is refused.",
        "  Ctrl+C stops the server and every student's kernel.", line, ""])


def voila_argv(args: argparse.Namespace, token: str) -> list[str]:
    argv = [str(NOTEBOOKS), "--no-browser", f"--port={args.port}", f"--Voila.ip={args.ip}",
            f"--token={token}"]
    if args.no_preheat:
        argv.append("--VoilaConfiguration.preheat_kernel=False")
    return argv


def pools(args: argparse.Namespace) -> dict | None:
    """kernel_pools_config for ``--lesson``: its own pool, the default for the others."""
    if not args.lesson or args.no_preheat:
        return None
    name = args.lesson if args.lesson.endswith(".ipynb") else args.lesson + ".ipynb"
    if not (NOTEBOOKS / name).is_file():
        known = ", ".join(p.stem for p in sorted(NOTEBOOKS.glob("*.ipynb")))
        raise SystemExit(f"--lesson {args.lesson!r}: no notebooks/{name}; one of: {known}")
    if args.pool < 1:
        raise SystemExit(f"--pool must be at least 1, got {args.pool}")
    return {"default": {"pool_size": args.default_pool}, name: {"pool_size": args.pool}}


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=8866)
    p.add_argument("--ip", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--lesson", help="notebook taught today, e.g. 02_euler_vs_slerp")
    p.add_argument("--pool", type=int, default=4,
                   help="pre-heated kernels kept ready for --lesson (default 4)")
    p.add_argument("--default-pool", type=int, default=1,
                   help="pre-heated kernels for every other notebook (default 1)")
    p.add_argument("--no-preheat", action="store_true",
                   help="start each student's kernel on demand (least memory, slowest pages)")
    p.add_argument("--token", help="use this token instead of a random one")
    p.add_argument("--print-only", action="store_true",
                   help="print the banner and the Voila arguments, do not serve")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    token = args.token or make_token()
    host = lan_address() if args.ip in ("0.0.0.0", "") else args.ip
    pool_config = pools(args)
    print(banner(host, args.port, token), flush=True)
    argv_voila = voila_argv(args, token)
    if args.print_only:
        print("voila", " ".join(argv_voila))
        print("kernel_pools_config", pool_config)
        return 0
    os.chdir(ROOT)  # voila.json is read from the working directory
    from traitlets.config import Config

    config = Config()
    if pool_config:
        config.VoilaKernelManager.kernel_pools_config = pool_config
    classroom_voila().launch_instance(argv=argv_voila, config=config)
    return 0


def classroom_voila():
    """Voila that gzips what it sends: a first page is 5.4 MB of scripts and styles, about
    a quarter of that compressed, and a room shares one Wi-Fi. (Voila applies its
    ``tornado_settings`` after the tornado Application exists, too late for the gzip
    transform, hence the subclass.)"""
    from voila.app import Voila

    class ClassroomVoila(Voila):
        def init_settings(self) -> dict:
            settings = super().init_settings()
            settings["compress_response"] = True
            return settings

    return ClassroomVoila


if __name__ == "__main__":
    raise SystemExit(main())
