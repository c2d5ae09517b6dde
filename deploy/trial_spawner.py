"""The trial hub's spawner when ``make hub`` is started as root (a container, CI).

deploy/jupyterhub_config.py uses it then: every student's server is a plain process, as
with JupyterHub's ``SimpleLocalProcessSpawner``, but it runs as :data:`TRIAL_USER`
(``nobody``), never as root. A student's server runs the lessons' kernels and, before issue
40, any code a student's page or API token sent; as root that code read other students'
homes and the hub's cookie secret. The students of a trial still share that one user (a
trial has no isolation between students: never use it for a class).
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from ready_spawner import ReadySpawner

#: The unprivileged user every student's server of a root-started trial runs as.
TRIAL_USER = "nobody"


def closed_folders(paths: list[str]) -> list[str]:
    """The folders on the way to ``paths`` that other users may not pass through (no
    ``o+x``): :data:`TRIAL_USER` could not run this Python or read the lessons there."""
    closed = []
    for path in paths:
        for folder in [*reversed(Path(path).resolve().parents), Path(path).resolve()]:
            if folder.is_dir() and not folder.stat().st_mode & stat.S_IXOTH \
                    and str(folder) not in closed:
                closed.append(str(folder))
    return closed


def check_reachable(checkout: str) -> None:
    """Stop the hub, saying why, when :data:`TRIAL_USER` cannot reach this Python (and the
    packages of its environment) or the checkout it pulls the lessons from."""
    closed = closed_folders([os.path.realpath(sys.executable), sys.prefix, sys.base_prefix,
                             checkout])
    if closed:
        raise SystemExit(
            f"The trial hub runs students' servers as {TRIAL_USER!r} when started as root, "
            f"and {TRIAL_USER!r} cannot pass through {', '.join(closed)} to this Python or "
            "the lessons. Run `make hub` as a normal user, or allow others to pass through "
            "those folders (chmod o+x).")


def safe_directories(checkout: str) -> list[str]:
    """What the trial user's git must be told is safe to clone ``checkout`` (root's): the
    checkout, its ``.git``, and, for a ``git worktree``, the worktree's own git folder and
    the repository's shared one, which git checks instead."""
    found = [checkout, os.path.join(checkout, ".git")]
    for flag in ("--absolute-git-dir", "--git-common-dir"):
        out = subprocess.run(["git", "-C", checkout, "rev-parse", flag], capture_output=True,
                             text=True)
        if out.returncode == 0 and out.stdout.strip():
            found.append(os.path.realpath(os.path.join(checkout, out.stdout.strip())))
    return list(dict.fromkeys(found))


def gitconfig(checkout: str) -> str:
    """The trial user's ``~/.gitconfig``: :func:`safe_directories` of ``checkout``."""
    return "[safe]\n" + "".join(f"\tdirectory = {d}\n" for d in safe_directories(checkout))


class UnprivilegedSpawner(ReadySpawner):
    """:class:`~ready_spawner.ReadySpawner` whose servers run as :data:`TRIAL_USER`."""

    def make_preexec_fn(self, name):
        account = pwd.getpwnam(TRIAL_USER)
        home = self.home_dir
        runtime = self.get_env().get("JUPYTER_RUNTIME_DIR", "")

        config = gitconfig(str(Path(__file__).resolve().parent.parent))

        def preexec():   # in the child, as root, before the server starts
            os.makedirs(home, 0o700, exist_ok=True)
            os.chown(home, account.pw_uid, account.pw_gid)
            # nbgitpuller clones the trial's checkout, which root owns: git refuses a
            # repository of another owner unless the user's own config names it safe
            path = os.path.join(home, ".gitconfig")
            with open(path, "w") as out:
                out.write(config)
            os.chown(path, account.pw_uid, account.pw_gid)
            if runtime and os.path.isdir(runtime) and os.stat(runtime).st_uid != account.pw_uid:
                shutil.rmtree(runtime, ignore_errors=True)   # left by an earlier root run
            os.setgroups([])
            os.setgid(account.pw_gid)
            os.setuid(account.pw_uid)
            os.chdir(home)

        return preexec

    def user_env(self, env):
        env = super().user_env(env)
        env["USER"] = TRIAL_USER
        return env
