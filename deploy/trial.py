"""``make hub``: deploy/jupyterhub_config.py as a trial on this computer, on loopback.

    python deploy/trial.py [--port 8000] [--state .hub] [--cull-timeout S]

Makes a throwaway password for the students and a longer one for the teacher, prints the
address and both passwords, and runs JupyterHub in the foreground (Ctrl+C stops it and every
student's server). Any name logs in with the students' password; ``teacher`` with the
teacher's gets JupyterLab and the admin page. The lessons each student gets are this
checkout's last commit (nbgitpuller clones it), not uncommitted edits.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def trial_env(port: int, state: Path, cull_timeout: int | None = None,
              cull_every: int | None = None, api_token: str | None = None) -> dict:
    """The environment deploy/jupyterhub_config.py reads for a loopback trial."""
    env = dict(os.environ)
    env.update(LESSONS_HUB_TRIAL="1", LESSONS_HUB_URL=f"http://127.0.0.1:{port}",
               LESSONS_HUB_STATE=str(state),
               LESSONS_HUB_PASSWORD=env.get("LESSONS_HUB_PASSWORD") or secrets.token_urlsafe(9),
               LESSONS_HUB_ADMIN_PASSWORD=(env.get("LESSONS_HUB_ADMIN_PASSWORD")
                                           or secrets.token_urlsafe(27)))
    if cull_timeout is not None:
        env["LESSONS_HUB_CULL_TIMEOUT"] = str(cull_timeout)
    if cull_every is not None:
        env["LESSONS_HUB_CULL_EVERY"] = str(cull_every)
    if api_token:
        env["LESSONS_HUB_API_TOKEN"] = api_token
    return env


def command() -> list[str]:
    return [str(Path(sys.executable).parent / "jupyterhub"), "-f",
            str(HERE / "jupyterhub_config.py")]


def public_url(env: dict) -> str:
    """Where a browser opens the trial: ``localhost``, whose subdomains (``<name>.localhost``,
    each student's server) browsers send to this computer too."""
    return f"http://localhost:{urllib.parse.urlsplit(env['LESSONS_HUB_URL']).port}"


def banner(env: dict) -> str:
    port = urllib.parse.urlsplit(env["LESSONS_HUB_URL"]).port
    line = "=" * 72
    return "\n".join([
        "", line,
        f"  Trial hub at:  {public_url(env)}/   (this computer only; Ctrl+C stops)",
        f"  Ports {port} (the hub), {port + 1} (its API) and {port + 2} (its proxy's API); "
        "each student's server at http://<name>.localhost:" + f"{port}/", "",
        f"  Students: any name, password  {env['LESSONS_HUB_PASSWORD']}",
        f"  Teacher:  teacher, password   {env['LESSONS_HUB_ADMIN_PASSWORD']}",
        "", "  Passwords are new each time; servers and homes are kept in "
        f"{env['LESSONS_HUB_STATE']}.", line, ""])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--state", type=Path, default=ROOT / ".hub",
                    help="database, cookie secret and the students' homes (default .hub/)")
    ap.add_argument("--cull-timeout", type=int,
                    help="seconds before an idle server is stopped (default: values.yaml's)")
    args = ap.parse_args(argv)
    if not 1 <= args.port <= 65533:
        raise SystemExit(f"--port must be 1 to 65533 (the next two are used too), not {args.port}")
    env = trial_env(args.port, args.state.resolve(), args.cull_timeout)
    print(banner(env), flush=True)
    os.chdir(args.state.resolve() if args.state.exists() else ROOT)
    os.execve(command()[0], command(), env)


if __name__ == "__main__":
    raise SystemExit(main())
