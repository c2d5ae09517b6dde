"""JupyterHub for the game-maths lessons on one server (a department's machine).

    jupyterhub -f deploy/jupyterhub_config.py            # as root, behind a TLS proxy
    make hub                                             # a trial on this computer

Students log in and land on the lessons' index page: the default URL pulls the lessons
into ``~/game-maths-lessons`` with nbgitpuller (a clone the first time, a merge that keeps
their edits afterwards) and opens ``voila/render/game-maths-lessons/notebooks/index.ipynb``. Every
student's server applies the lessons' voila.json (deploy/singleuser/jupyter_server_config.py).
Admins (``teacher`` by default) get JupyterLab instead. Idle servers are stopped by
jupyterhub-idle-culler and come back on the next visit.

The default URL, the memory and CPU limits and the culling times are read from
deploy/z2jh/values.yaml, the Kubernetes configuration, so the two hubs agree; the limits come
from measured kernel sizes (docs/hub.md#sizing).

Two modes:

- **server** (default): system accounts and their passwords (PAM, JupyterHub's default), and
  jupyterhub-systemdspawner, which runs each student's server as a systemd unit with the
  memory and CPU limits enforced by the kernel's cgroups. Needs root and systemd.
- **trial** (``LESSONS_HUB_TRIAL=1``, what ``make hub`` and tests/test_hub.py set): on
  loopback, one throwaway password for every student (SharedPasswordAuthenticator) and a
  longer one for the teacher, each student's server a process of the hub's own user with a
  home under the state folder (SimpleLocalProcessSpawner: no isolation between students,
  limits passed on but not enforced). Never for a class.

Environment (all optional): LESSONS_HUB_URL (where the hub listens, default
http://127.0.0.1:8000, behind the server's TLS reverse proxy; the next two ports are used too),
LESSONS_HUB_STATE (database, cookie secret; default /srv/lessons-hub, or .hub/ for a trial),
LESSONS_REPO and LESSONS_BRANCH (where nbgitpuller pulls the lessons from; a trial defaults to
this checkout), LESSONS_HUB_TEACHERS (comma-separated admin names), LESSONS_HUB_STUDENT_GROUP
(the Unix group whose members may log in, default ``students``), LESSONS_HUB_API_TOKEN (a
token for a script that creates the class list through the REST API), and for a trial
LESSONS_HUB_PASSWORD / LESSONS_HUB_ADMIN_PASSWORD, LESSONS_HUB_CULL_TIMEOUT /
LESSONS_HUB_CULL_EVERY.
"""

import os
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import yaml

c = get_config()  # noqa: F821 - provided by JupyterHub's config loader

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VALUES = yaml.safe_load((HERE / "z2jh" / "values.yaml").read_text())
SINGLEUSER = VALUES["singleuser"]
CULL = VALUES["cull"]
TRIAL = os.environ.get("LESSONS_HUB_TRIAL") == "1"
BIN = Path(sys.executable).parent  # the students' server command, in the hub's environment


def env(name: str, default: str) -> str:
    return os.environ.get(name) or default


# -- where ---------------------------------------------------------------------------------
url = urllib.parse.urlsplit(env("LESSONS_HUB_URL", "http://127.0.0.1:8000"))
c.JupyterHub.bind_url = url.geturl()
# Each student's server on an origin of its own (https://<name>.<public host>/user/<name>/),
# JupyterHub's one reliable way to keep one student's pages from acting as another on the
# hub (docs/hub.md, "What a student can reach"). A trial uses <name>.localhost, which every
# browser sends to this computer; a real hub needs a wildcard DNS name and certificate.
if TRIAL:
    public = f"http://localhost:{url.port or 80}"
else:
    public = os.environ.get("LESSONS_HUB_PUBLIC_URL", "")
    if not public.startswith("https://"):
        raise SystemExit(
            "Set LESSONS_HUB_PUBLIC_URL to the hub's public https:// address, whose "
            "subdomains (*.that-host, a wildcard DNS name and certificate) reach the same "
            "TLS proxy: each student's server gets one of its own (docs/hub.md).")
    c.JupyterHub.cookie_host_prefix_enabled = True   # cookies locked to their own host
c.JupyterHub.subdomain_host = public
# the hub's own API and the proxy's control API, on the ports after the public one
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{(url.port or 80) + 1}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{(url.port or 80) + 2}"
proxy = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if proxy.exists():  # installed by the Makefile (deploy/package.json); else from PATH
    c.ConfigurableHTTPProxy.command = [str(proxy)]

state = Path(env("LESSONS_HUB_STATE", str(ROOT / ".hub") if TRIAL else "/srv/lessons-hub"))
state.mkdir(parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")

# -- who -----------------------------------------------------------------------------------
teachers = {t.strip() for t in env("LESSONS_HUB_TEACHERS", ",".join(
    VALUES["hub"]["config"]["Authenticator"]["admin_users"])).split(",") if t.strip()}
c.Authenticator.admin_users = teachers
if TRIAL:
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = os.environ["LESSONS_HUB_PASSWORD"]
    c.SharedPasswordAuthenticator.admin_password = os.environ["LESSONS_HUB_ADMIN_PASSWORD"]
    c.Authenticator.allow_all = True  # any name with the shared password: a trial only
else:
    # the students' system accounts, in one Unix group; and any user the class-list script
    # added through the REST API
    c.PAMAuthenticator.allowed_groups = {env("LESSONS_HUB_STUDENT_GROUP", "students")}
    c.Authenticator.allow_existing_users = True
c.JupyterHub.services = []
c.JupyterHub.load_roles = []
if os.environ.get("LESSONS_HUB_API_TOKEN"):
    c.JupyterHub.services.append({"name": "class-list",
                                  "api_token": os.environ["LESSONS_HUB_API_TOKEN"]})
    c.JupyterHub.load_roles.append({
        "name": "class-list", "services": ["class-list"],
        "scopes": ["admin:users", "admin:servers", "tokens", "list:users", "read:users"]})

# -- each student's server -----------------------------------------------------------------
# No config of the student's own (~/.jupyter) is read by their server.
c.Spawner.disable_user_config = True
if TRIAL:
    homes = state / "home"
    homes.mkdir(exist_ok=True)
    # JupyterHub's "simple" spawner, answering the hub as soon as the server is up
    # (deploy/ready_spawner.py: the hub's own wait backs off to seconds between checks)
    sys.path.insert(0, str(HERE))
    c.JupyterHub.spawner_class = "ready_spawner.ReadySpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(homes / "{username}")
    if os.geteuid() == 0:
        # started as root (a container, CI): the students' servers, and the code of the
        # pages they open, run as the unprivileged TRIAL_USER, never as root
        from trial_spawner import TRIAL_USER, UnprivilegedSpawner, check_reachable

        check_reachable(str(ROOT))
        c.JupyterHub.spawner_class = UnprivilegedSpawner
        for folder in (state, homes):   # they may pass through, not list or read
            folder.chmod(0o711)
        database = state / "jupyterhub.sqlite"   # for root alone (its journal follows it)
        database.touch(mode=0o600)
        database.chmod(0o600)
        print(f"Trial hub started as root: students' servers run as {TRIAL_USER!r}.",
              flush=True)
else:
    c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    c.SystemdSpawner.unit_name_template = "lessons-{USERNAME}"
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
# jupyterhub-singleuser without the 1-3 s import of a JSON Schema format checker nothing
# uses (lessons_server/singleuser.py); values.yaml's singleuser.cmd is the same command
c.Spawner.cmd = [str(BIN / SINGLEUSER["cmd"])]


def lessons_url(repo: str, branch: str) -> str:
    """values.yaml's default URL with this hub's lessons repository and branch."""
    path, _, query = SINGLEUSER["defaultUrl"].partition("?")
    params = dict(urllib.parse.parse_qsl(query))
    params.update(repo=repo, branch=branch)
    return f"{path}?{urllib.parse.urlencode(params)}"


def checkout_branch() -> str:
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--abbrev-ref", "HEAD"],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() != "HEAD" \
        else "main"


default_query = dict(urllib.parse.parse_qsl(SINGLEUSER["defaultUrl"].partition("?")[2]))
if TRIAL and shutil.which("git"):
    repo = env("LESSONS_REPO", str(ROOT))  # nbgitpuller clones this checkout's last commit
    branch = env("LESSONS_BRANCH", checkout_branch())
else:
    repo = env("LESSONS_REPO", default_query["repo"])
    branch = env("LESSONS_BRANCH", default_query["branch"])
c.Spawner.default_url = lessons_url(repo, branch)
c.Spawner.environment = {
    # the one repository, branch and folder nbgitpuller may pull (lessons_server.student_server)
    "LESSONS_REPO": repo,
    "LESSONS_BRANCH": branch,
    "LESSONS_TARGETPATH": default_query["targetpath"],
    # deploy/singleuser/jupyter_server_config.py: voila.json mapped onto the server
    "JUPYTER_CONFIG_PATH": str(HERE / "singleuser"),
    "LESSONS_VOILA_JSON": str(ROOT / "voila.json"),
    "JUPYTER_PATH": str(ROOT / "share" / "jupyter"),  # the lessons' page template
    "LESSONS_ROLE": lambda spawner: "teacher" if spawner.user.admin else "student",
    # kernels talk to their server over Unix sockets there (singleuser config: transport
    # "ipc"); a socket's path must stay under 108 bytes, which a home's runtime folder
    # and a long user name can pass, so it is a short one (a private /tmp with systemd)
    "JUPYTER_RUNTIME_DIR": lambda spawner: f"/tmp/lessons-run-{spawner.user.name}",
}
c.Spawner.mem_guarantee = SINGLEUSER["memory"]["guarantee"]
c.Spawner.mem_limit = SINGLEUSER["memory"]["limit"]
c.Spawner.cpu_guarantee = float(SINGLEUSER["cpu"]["guarantee"])
c.Spawner.cpu_limit = float(SINGLEUSER["cpu"]["limit"])
c.JupyterHub.implicit_spawn_seconds = VALUES["hub"]["config"]["JupyterHub"][
    "implicit_spawn_seconds"]

# -- idle servers --------------------------------------------------------------------------
cull_timeout = int(env("LESSONS_HUB_CULL_TIMEOUT", str(CULL["timeout"])) if TRIAL
                   else CULL["timeout"])
cull_every = int(env("LESSONS_HUB_CULL_EVERY", str(CULL["every"])) if TRIAL else CULL["every"])
if CULL["enabled"]:
    c.JupyterHub.services.append({
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                    f"--timeout={cull_timeout}", f"--cull-every={cull_every}",
                    f"--max-age={CULL['maxAge']}", f"--cull-users={str(CULL['users']).lower()}"],
    })
    c.JupyterHub.load_roles.append({
        "name": "idle-culler", "services": ["idle-culler"],
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]})
if TRIAL:
    # activity reaches the hub every few seconds instead of every five minutes, so a
    # short LESSONS_HUB_CULL_TIMEOUT culls what is idle, not what is merely unreported
    c.JupyterHub.last_activity_interval = min(300, max(5, cull_timeout // 4))
    c.Spawner.environment["JUPYTERHUB_ACTIVITY_INTERVAL"] = str(c.JupyterHub.last_activity_interval)
