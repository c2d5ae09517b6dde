"""The lessons through JupyterHub: deploy/ configured, and served by a real hub.

The fast tests load deploy/jupyterhub_config.py and deploy/singleuser/jupyter_server_config.py
as JupyterHub and Jupyter Server load them, and check them against deploy/z2jh/values.yaml and
voila.json. The slow ones start the trial hub of ``make hub`` on loopback (JupyterHub from the
``hub`` extra, configurable-http-proxy from deploy/package.json, both installed by
``make hub-setup``, which ``make test-slow`` runs first), create a class through the REST API,
and send protocol students (benchmarks/protocol_student.py) through the hub's proxy.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tomllib
import urllib.parse
import uuid
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config

import attacks
import browser as harness
from lessons import FIRST

ROOT = harness.ROOT
DEPLOY = ROOT / "deploy"
VALUES = yaml.safe_load((DEPLOY / "z2jh" / "values.yaml").read_text())
VOILA = json.loads((ROOT / "voila.json").read_text())
sys.path.insert(0, str(ROOT / "benchmarks"))
LESSON = FIRST.slug
#: Where a student lands after logging in: the lessons' index page.
LANDING = "voila/render/game-maths-lessons/notebooks/index.ipynb"
STUDENTS = 5


def load_config(path: Path, env: dict[str, str], monkeypatch) -> Config:
    """``path`` executed as JupyterHub and Jupyter Server execute a config file."""
    for key in [k for k in os.environ if k.startswith("LESSONS_")]:
        monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    c = Config()
    exec(compile(path.read_text(), str(path), "exec"),  # noqa: S102 - our own config file
         {"get_config": lambda: c, "__file__": str(path), "__name__": "config"})
    return c


def hub_config(monkeypatch, tmp_path, **env) -> Config:
    return load_config(DEPLOY / "jupyterhub_config.py",
                       {"LESSONS_HUB_STATE": str(tmp_path), **env}, monkeypatch)


TRIAL = {"LESSONS_HUB_TRIAL": "1", "LESSONS_HUB_PASSWORD": "a-student-password",
         "LESSONS_HUB_ADMIN_PASSWORD": "t" * 32}
SERVER = {"LESSONS_HUB_PUBLIC_URL": "https://lessons.example.org"}


# -- the configuration, loaded ---------------------------------------------------------
@pytest.mark.parametrize("mode", ["server", "trial"])
def test_single_host_hub_takes_its_values_from_the_kubernetes_file(mode, monkeypatch, tmp_path):
    """Default URL, limits and culling are written once, in values.yaml; both hubs use them."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)   # as a normal user (root: below)
    c = hub_config(monkeypatch, tmp_path, **(TRIAL if mode == "trial" else SERVER))
    single = VALUES["singleuser"]
    path, _, query = c.Spawner.default_url.partition("?")
    want_path, _, want_query = single["defaultUrl"].partition("?")
    assert path == want_path == "/git-pull"
    got, want = dict(urllib.parse.parse_qsl(query)), dict(urllib.parse.parse_qsl(want_query))
    # the landing is the lessons' index page, rendered (issue 42: not the file tree)
    assert got["urlpath"] == want["urlpath"] == LANDING
    assert (ROOT / LANDING.removeprefix("voila/render/game-maths-lessons/")).is_file()
    assert got["targetpath"] == want["targetpath"] == "game-maths-lessons"
    if mode == "trial":  # the students pull this checkout, which is there without a network
        assert got["repo"] == str(ROOT)
    else:
        assert got["repo"] == want["repo"] and got["branch"] == want["branch"] == "main"
    assert c.Spawner.mem_limit == single["memory"]["limit"]
    assert c.Spawner.mem_guarantee == single["memory"]["guarantee"]
    assert c.Spawner.cpu_limit == single["cpu"]["limit"]
    assert c.Spawner.cpu_guarantee == single["cpu"]["guarantee"]
    culler = next(s for s in c.JupyterHub.services if s["name"] == "idle-culler")
    assert culler["command"][1:3] == ["-m", "jupyterhub_idle_culler"]
    assert f"--timeout={VALUES['cull']['timeout']}" in culler["command"]
    assert f"--cull-every={VALUES['cull']['every']}" in culler["command"]
    role = next(r for r in c.JupyterHub.load_roles if r["name"] == "idle-culler")
    assert {"list:users", "read:users:activity", "read:servers", "delete:servers"} <= \
        set(role["scopes"])
    assert c.Authenticator.admin_users == set(
        VALUES["hub"]["config"]["Authenticator"]["admin_users"]) == {"teacher"}
    env = c.Spawner.environment
    assert env["JUPYTER_CONFIG_PATH"] == str(DEPLOY / "singleuser")
    assert env["LESSONS_VOILA_JSON"] == str(ROOT / "voila.json")
    assert env["JUPYTER_PATH"] == str(ROOT / "share" / "jupyter")

    class User:
        admin = False

    class Spawner:
        user = User()

    assert env["LESSONS_ROLE"](Spawner) == "student"
    User.admin = True
    assert env["LESSONS_ROLE"](Spawner) == "teacher"
    # the kernels' Unix sockets (transport "ipc") fit a socket path's 107 bytes, even for a
    # long user name: "<runtime>/kernel-<uuid>-ipc-<n>"
    User.name = "firstname.middlename.lastname"
    socket = f"{env['JUPYTER_RUNTIME_DIR'](Spawner)}/kernel-{'0' * 36}-ipc-99"
    assert User.name in socket and len(socket.encode()) <= 107
    assert c.JupyterHub.bind_url == "http://127.0.0.1:8000"
    # each student's server on an origin of its own, and pulling the lessons only
    assert c.JupyterHub.subdomain_host == ("http://localhost:8000" if mode == "trial"
                                           else SERVER["LESSONS_HUB_PUBLIC_URL"])
    assert (env["LESSONS_REPO"], env["LESSONS_BRANCH"], env["LESSONS_TARGETPATH"]) == (
        got["repo"], got["branch"], got["targetpath"])
    assert c.Spawner.disable_user_config is True
    if mode == "trial":
        # JupyterHub's "simple" spawner, ready as soon as the server answers
        assert c.JupyterHub.spawner_class == "ready_spawner.ReadySpawner"   # a normal user
        assert c.JupyterHub.authenticator_class == "shared-password"
    else:  # limits enforced by systemd; system accounts' passwords
        assert c.JupyterHub.spawner_class == "systemdspawner.SystemdSpawner"
        assert "authenticator_class" not in c.JupyterHub
        assert c.PAMAuthenticator.allowed_groups == {"students"}


SKIP_CHECK = """
import sys
if sys.argv[1] == "skip":
    from lessons_server.singleuser import skip_unused_format_checkers
    skip_unused_format_checkers()
import jupyter_server.serverapp, nbformat.validator, jsonschema
print(sys.modules.get("rfc3987_syntax") is not None,
      "iri" in jsonschema.Draft7Validator.FORMAT_CHECKER.checkers)
"""


@pytest.mark.slow   # the trial's spawner imports jupyterhub (the hub extra)
def test_the_trial_hub_starts_servers_with_the_lessons_command(monkeypatch, tmp_path):
    """The trial hub (a process per student) starts each with the command values.yaml
    names for Kubernetes, installed beside this Python."""
    pytest.importorskip("jupyterhub")
    c = hub_config(monkeypatch, tmp_path, **TRIAL)
    command = VALUES["singleuser"]["cmd"]
    assert c.Spawner.cmd == [str(Path(sys.executable).parent / command)]
    assert Path(c.Spawner.cmd[0]).is_file(), "the command is installed by `make setup`"


def test_student_servers_start_without_the_iri_grammar():
    """Both hubs start each server with lessons-jupyterhub-singleuser, which leaves out the
    import of rfc3987_syntax (about 1.1 CPU-s of every server start): jsonschema then checks
    no "iri" format, which no schema a student's server validates uses."""
    command = VALUES["singleuser"]["cmd"]
    assert command == "lessons-jupyterhub-singleuser"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[command] == "lessons_server.singleuser:main"
    pytest.importorskip("rfc3987_syntax")   # installed with jupyter-events: what it skips
    runs = {how: subprocess.run([sys.executable, "-c", SKIP_CHECK, how], capture_output=True,
                                text=True, timeout=120, check=True).stdout.split()
            for how in ("skip", "plain")}
    assert runs == {"skip": ["False", "False"], "plain": ["True", "True"]}


def test_no_schema_of_a_students_server_uses_the_iri_formats():
    """What makes leaving rfc3987_syntax out safe: the schemas the server's packages ship
    (event schemas, nbformat's) never ask for the "iri" or "iri-reference" format."""
    import importlib

    found, asked = 0, []
    for package in ("jupyter_events", "jupyter_server", "nbformat", "voila", "nbgitpuller",
                    "jupyterhub", "jupyter_server_terminals", "jupyter_lsp"):
        try:
            folder = Path(importlib.import_module(package).__file__).parent
        except ImportError:
            continue
        for path in folder.rglob("*"):
            if path.suffix in (".json", ".yaml", ".yml"):
                found += 1
                if re.search(r"format[\"']?\s*:\s*[\"']?iri", path.read_text(errors="replace")):
                    asked.append(str(path))
    assert found > 10 and not asked, asked


def test_the_kubernetes_hub_gives_teachers_the_same_role(monkeypatch, tmp_path):
    """values.yaml's extraConfig sets LESSONS_ROLE as the single-host config does."""
    snippet = VALUES["hub"]["extraConfig"]["lessons-role"]
    c = Config()
    exec(snippet, {"c": c})  # noqa: S102 - our own config
    role = c.KubeSpawner.environment.get_value({})["LESSONS_ROLE"]  # lazy: merged later
    c.KubeSpawner.environment = {"LESSONS_VOILA_JSON": "x"}  # as the chart sets it first
    exec(snippet, {"c": c})  # noqa: S102
    assert set(c.KubeSpawner.environment) == {"LESSONS_VOILA_JSON", "LESSONS_ROLE"}

    class Spawner:
        class user:  # noqa: N801 - stands for spawner.user
            admin = True

    assert role(Spawner) == "teacher"
    Spawner.user.admin = False
    assert role(Spawner) == "student"
    assert VALUES["cull"]["enabled"] is True and VALUES["cull"]["users"] is False


def test_a_hub_for_a_class_needs_its_public_https_address(monkeypatch, tmp_path):
    """Without one, students' servers would share the hub's origin: refused, saying why."""
    with pytest.raises(SystemExit, match="LESSONS_HUB_PUBLIC_URL"):
        hub_config(monkeypatch, tmp_path)
    with pytest.raises(SystemExit, match="https"):
        hub_config(monkeypatch, tmp_path, LESSONS_HUB_PUBLIC_URL="http://lessons.example.org")
    c = hub_config(monkeypatch, tmp_path, **SERVER)
    assert c.JupyterHub.cookie_host_prefix_enabled is True


def test_kubernetes_hub_gives_each_student_an_origin_and_the_lessons_only():
    """values.yaml: per-user subdomains with a wildcard host, host-locked cookies, and the
    repository a student's server may pull equal to the default URL's."""
    hub = VALUES["hub"]["config"]
    host = urllib.parse.urlsplit(hub["JupyterHub"]["subdomain_host"])
    assert host.scheme == "https" and hub["JupyterHub"]["cookie_host_prefix_enabled"] is True
    assert hub["Spawner"]["disable_user_config"] is True
    assert {host.hostname, f"*.{host.hostname}"} <= set(VALUES["ingress"]["hosts"])
    assert {host.hostname, f"*.{host.hostname}"} <= set(VALUES["ingress"]["tls"][0]["hosts"])
    query = dict(urllib.parse.parse_qsl(VALUES["singleuser"]["defaultUrl"].partition("?")[2]))
    extra = VALUES["singleuser"]["extraEnv"]
    assert (extra["LESSONS_REPO"], extra["LESSONS_BRANCH"], extra["LESSONS_TARGETPATH"]) == (
        query["repo"], query["branch"], query["targetpath"])


@pytest.mark.slow   # jupyterhub comes with the hub extra, which make test-slow installs
def test_a_trial_started_as_root_runs_students_unprivileged(monkeypatch, tmp_path):
    pytest.importorskip("jupyterhub")
    sys.path.insert(0, str(DEPLOY))
    import trial_spawner

    with monkeypatch.context() as m:
        m.setattr(os, "geteuid", lambda: 0)
        m.setattr(trial_spawner, "check_reachable", lambda checkout: None)
        c = hub_config(monkeypatch, tmp_path, **TRIAL)
    assert c.JupyterHub.spawner_class is trial_spawner.UnprivilegedSpawner
    assert "args" not in c.Spawner   # no --allow-root
    assert oct(tmp_path.stat().st_mode & 0o777) == "0o711"
    assert oct((tmp_path / "jupyterhub.sqlite").stat().st_mode & 0o777) == "0o600"
    closed = tmp_path / "closed"
    (closed / "python").mkdir(parents=True)
    closed.chmod(0o700)
    assert str(closed) in trial_spawner.closed_folders([str(closed / "python")])
    monkeypatch.setattr(trial_spawner, "closed_folders", lambda paths: ["/root"])
    with pytest.raises(SystemExit, match="chmod o\\+x"):
        trial_spawner.check_reachable(str(ROOT))


@pytest.mark.slow   # jupyterhub comes with the hub extra, which make test-slow installs
def test_the_trial_spawner_hands_a_server_over_once_it_answers(monkeypatch, tmp_path):
    """JupyterHub's own wait for a new server backs off to seconds between checks; the
    trial's spawner asks every 0.1 s until the server answers (here: a server that says
    503 three times first), and stops asking when the process has ended."""
    pytest.importorskip("jupyterhub")
    sys.path.insert(0, str(DEPLOY))
    import ready_spawner
    import trial_spawner
    from tornado import web as tweb

    assert issubclass(trial_spawner.UnprivilegedSpawner, ready_spawner.ReadySpawner)
    assert ready_spawner.ReadySpawner.ready_poll_s.default_value <= 0.1
    asked = []

    class Api(tweb.RequestHandler):
        def get(self):
            asked.append(self.request.path)
            self.set_status(503 if len(asked) <= 3 else 200)

    class Process:
        code = None

        def poll(self):
            return self.code

    async def scenario():
        from types import SimpleNamespace

        from tornado.httpserver import HTTPServer
        from tornado.testing import bind_unused_port

        sock, port = bind_unused_port()
        server = HTTPServer(tweb.Application([(r"/user/ada/api", Api)]))
        server.add_sockets([sock])
        spawner = SimpleNamespace(http_timeout=30, ready_poll_s=0.01, proc=Process())
        url = f"http://127.0.0.1:{port}/user/ada/api"
        try:
            until_up = await ready_spawner.ReadySpawner.wait_answering(spawner, url)
            spawner.proc.code = 1
            after_exit = await ready_spawner.ReadySpawner.wait_answering(spawner, url)
        finally:
            server.stop()
        return until_up, after_exit

    assert harness.run_async(scenario(), timeout=60) == (4, 0)
    assert len(asked) == 4


@pytest.mark.slow   # trial_spawner imports jupyterhub (the hub extra)
def test_the_unprivileged_trial_user_may_clone_a_git_worktree(tmp_path):
    """A checkout made with `git worktree` keeps its git folder elsewhere; git checks
    that folder's owner too, so the trial user's config names it safe as well."""
    pytest.importorskip("jupyterhub")
    sys.path.insert(0, str(DEPLOY))
    import trial_spawner

    main, tree = tmp_path / "main", tmp_path / "tree"
    git = ["git", "-c", "user.name=a", "-c", "user.email=a@b"]
    subprocess.run([*git, "init", "-q", "-b", "main", str(main)], check=True, timeout=60)
    subprocess.run([*git, "-C", str(main), "commit", "-q", "--allow-empty", "-m", "x"],
                   check=True, timeout=60)
    subprocess.run([*git, "-C", str(main), "worktree", "add", "-q", str(tree), "-b", "t"],
                   check=True, timeout=60)
    safe = trial_spawner.safe_directories(str(tree))
    assert str(tree) in safe and str(main / ".git") in safe
    assert str((main / ".git" / "worktrees" / "tree").resolve()) in safe
    assert trial_spawner.gitconfig(str(tree)).count("\tdirectory = ") == len(safe)


def test_trial_needs_its_passwords(monkeypatch, tmp_path):
    with pytest.raises(KeyError, match="LESSONS_HUB_PASSWORD"):
        hub_config(monkeypatch, tmp_path, LESSONS_HUB_TRIAL="1")


def mb(text: str) -> float:
    number, unit = re.fullmatch(r"(\d+(?:\.\d+)?)([MG])", text).groups()
    return float(number) * (1024 if unit == "G" else 1)


def test_limits_fit_the_measured_kernels():
    """The guarantee holds a server and one lesson's kernel, the limit a server and every
    lesson's (the sizes measured in docs/hub.md#sizing: 0.17 GB a server, 0.15 GB a kernel)."""
    from lessons_lib.catalogue import LESSONS

    memory = VALUES["singleuser"]["memory"]
    server, kernel, lessons = 170, 146, len(LESSONS)
    where = "deploy/z2jh/values.yaml singleuser.memory"
    low, high = server + kernel, server + 2 * kernel
    assert low <= mb(memory["guarantee"]) < high, (
        f"{where}.guarantee is {memory['guarantee']}: a server and one lesson's kernel need "
        f"{low} MB to {high - 1} MB (docs/hub.md#sizing)")
    low, high = server + lessons * kernel, server + (lessons + 1) * kernel
    assert low <= mb(memory["limit"]) < high, (
        f"{where}.limit is {memory['limit']}: with {lessons} lessons in the catalogue, a "
        f"server and every lesson's kernel need {low} MB to {high - 1} MB; "
        f"`.venv/bin/python tools/make_index.py` writes it here and in docs/hub.md#sizing")
    cpu = VALUES["singleuser"]["cpu"]
    assert 0 < cpu["guarantee"] < cpu["limit"] <= 1
    sizing = (ROOT / "docs" / "hub.md").read_text()
    assert "0.17 GB" in sizing and "0.15 GB" in sizing
    for said in (f"guarantees {mb(memory['guarantee']):.0f} MB",
                 f"limits a student to {mb(memory['limit']):.0f} MB"):
        assert said in " ".join(sizing.split()), (
            f"docs/hub.md#sizing should say {said!r}: run .venv/bin/python "
            f"tools/make_index.py")


@pytest.mark.parametrize("role", ["student", "teacher"])
def test_student_servers_apply_voila_json(role, monkeypatch):
    c = load_config(DEPLOY / "singleuser" / "jupyter_server_config.py",
                     {"LESSONS_ROLE": role}, monkeypatch)
    for key, value in VOILA["VoilaConfiguration"].items():
        assert c.VoilaConfiguration[key] == value, key
    assert c.VoilaConfiguration.template == "lessons"
    assert c.VoilaConfiguration.classic_tree is True  # the only tree that opens a subfolder
    assert c.VoilaExecutor.iopub_timeout == VOILA["VoilaExecutor"]["iopub_timeout"]
    for key, value in VOILA["MappingKernelManager"].items():
        if key != "allowed_message_types":
            assert c.MappingKernelManager[key] == value, key
    assert c.KernelManager.transport == "ipc"   # no TCP port two students' kernels can race for
    # every route behind the login; Voila and nbgitpuller loaded by the lessons' extension
    assert c.ServerApp.allow_unauthenticated_access is False
    extensions = c.ServerApp.jpserver_extensions
    assert extensions["lessons_server.student_server"] is True
    assert extensions["voila"] is False and extensions["nbgitpuller"] is False
    assert c.MultiKernelManager.kernel_manager_class == "lessons_server.memcap.CappedKernelManager"
    assert c.KernelRestarter.restart_limit == 0
    if role == "student":
        assert extensions["jupyterlab"] is False
        assert c.ServerApp.terminals_enabled is False
        assert c.ServerApp.authorizer_class.endswith("StudentAuthorizer")
        # lesson 1's kernel pre-heated (lessons_server.preheat), under the same cap
        assert c.ServerApp.kernel_manager_class == \
            "lessons_server.preheat.PreheatingKernelManager"
        assert c.ServerApp.kernel_websocket_connection_class == \
            VOILA["Voila"]["kernel_websocket_connection_class"]
        assert c.MappingKernelManager.allowed_message_types == \
            VOILA["MappingKernelManager"]["allowed_message_types"]
    else:   # JupyterLab runs code
        assert "jupyterlab" not in extensions
        assert c.MappingKernelManager.allowed_message_types == []
        assert c.ServerApp.kernel_websocket_connection_class.endswith("V1OnlyWebsocketConnection")


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of deploy/image/Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "image" / "Dockerfile").read_text())
    return [tuple(line.split(None, 1)) for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_single_user_image_is_built_from_the_repository(tmp_path, monkeypatch):
    """The Dockerfile of values.yaml's image: the conda environment of environment.yml,
    the lessons' packages installed (not editable: the home volume hides /home/jovyan),
    and, laid out as the COPY lines lay them out, a server config that finds voila.json."""
    steps = dockerfile()
    base = next(args for op, args in steps if op == "FROM")
    image, _, tag = base.partition(":")
    assert image == "quay.io/jupyter/minimal-notebook" and tag and tag != "latest"
    runs = " ".join(args for op, args in steps if op == "RUN")
    assert "mamba env update --name base --file /tmp/lessons/environment.yml" in runs
    assert re.search(r'"jupyterhub-singleuser=\$\{JUPYTERHUB_VERSION\}" "nbgitpuller', runs)
    assert "pip install --no-deps --no-cache-dir /tmp/lessons" in runs and " -e " not in runs
    image_root = tmp_path / "image"
    for op, args in steps:
        if op != "COPY":
            continue
        parts = [a for a in args.split() if not a.startswith("--")]
        sources, dest = parts[:-1], parts[-1]
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
            target = image_root / dest.lstrip("/")
            if dest.endswith("/"):
                target = target / Path(source).name
            target.parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, target)
            else:
                shutil.copy(ROOT / source, target)
    for package in ("lessons_lib", "lessons_server"):
        assert (image_root / "tmp" / "lessons" / package / "__init__.py").exists(), package
    template = image_root / "opt" / "conda" / "share" / "jupyter" / "voila" / "templates"
    assert (template / "lessons").is_dir()
    env = dict(args.split("=", 1) for op, args in steps if op == "ENV")
    voila_json = image_root / env["LESSONS_VOILA_JSON"].lstrip("/")
    assert json.loads(voila_json.read_text()) == VOILA
    config = image_root / "usr" / "local" / "etc" / "jupyter" / "jupyter_server_config.py"
    assert voila_json.parent == config.parent  # a Jupyter config folder: Voila reads it too
    # the image's server config finds the image's voila.json by itself, too
    c = load_config(config, {"LESSONS_ROLE": "student"}, monkeypatch)
    assert c.ServerApp.kernel_websocket_connection_class == \
        VOILA["Voila"]["kernel_websocket_connection_class"]
    assert c.VoilaConfiguration.file_denylist == VOILA["VoilaConfiguration"]["file_denylist"]
    # the image installs the conda environment, so the packages' imports must be in it
    conda = (ROOT / "environment.yml").read_text()
    for name in ("voila", "jupyterlab", "ipympl", "shapely", "babel"):
        assert re.search(rf"^\s+- {name}\b", conda, re.M), name
    # Korean: JupyterLab's menus (pip section) and the catalogue compiled before pip installs
    assert re.search(r"^\s+- jupyterlab-language-pack-ko-kr\b", conda, re.M)
    assert re.search(r"pybabel compile --domain=lessons --directory=/tmp/lessons/lessons_lib/"
                     r"locale &&\s+pip install", runs)


def test_make_hub_starts_the_trial_and_the_slow_tests_install_it():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}

    def dry(*targets):
        out = subprocess.run(["make", "-n", "-W", "pyproject.toml", *targets], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, env=env)
        assert out.returncode == 0, out.stderr
        return out.stdout

    hub = dry("hub")
    assert "deploy/trial.py --port=8000" in hub
    for step in ("'.[server,test,hub]'", "npm ci"):
        assert step in hub and step in dry("test-slow"), step
    assert "npm ci" not in dry("test")
    lock = json.loads((DEPLOY / "package-lock.json").read_text())
    chp = lock["packages"]["node_modules/configurable-http-proxy"]["version"]
    assert chp.startswith("5."), chp


def test_trial_banner_prints_the_address_and_passwords(tmp_path):
    sys.path.insert(0, str(DEPLOY))
    import trial

    env = trial.trial_env(8123, tmp_path)
    assert env["LESSONS_HUB_TRIAL"] == "1" and env["LESSONS_HUB_URL"] == "http://127.0.0.1:8123"
    assert len(env["LESSONS_HUB_ADMIN_PASSWORD"]) >= 32 and len(env["LESSONS_HUB_PASSWORD"]) >= 8
    assert trial.trial_env(8123, tmp_path)["LESSONS_HUB_PASSWORD"] != env["LESSONS_HUB_PASSWORD"]
    text = trial.banner(env)
    assert "http://localhost:8123/" in text and env["LESSONS_HUB_PASSWORD"] in text
    assert "8124" in text and "8125" in text and "<name>.localhost" in text
    with pytest.raises(SystemExit, match="--port"):
        trial.main(["--port", "0"])


# -- a real hub -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def class_hub():
    """The trial hub with a class of five who have each opened lesson 1 through it. Idle
    servers are culled after 90 s here (values.yaml: 30 min), so the last test can watch
    one go and come back."""
    import hub as bench

    hub = bench.Hub(cull_timeout=90, cull_every=10)
    try:
        hub.wait_ready()
        names = bench.class_of(STUDENTS)
        hub.create_students(names)
        users = {u["name"] for u in hub.rest("GET", "/users")}
        assert set(names) <= users and "teacher" in users
        tokens = {name: hub.token_for(name) for name in names}
        hub.spawn_all(names)
        for name in names:
            hub.pull_lessons(name, tokens[name])
        students = harness.run_async(
            bench.visit_all(hub, names, tokens, LESSON, moves=2, deadline_s=240))
        yield {"hub": hub, "names": names, "tokens": tokens, "students": students,
               "bench": bench}
    finally:
        hub.stop()


@pytest.mark.slow
def test_every_student_gets_a_working_lesson_through_the_proxy(class_hub):
    import protocol_student as ps

    hub, students = class_hub["hub"], class_hub["students"]
    assert len(students) == STUDENTS >= 5
    for s in students:
        assert s.error is None, (f"student {s.index}: {s.error}\n"
                                 + hub.log_about(class_hub["names"][s.index]))
        assert s.first_image is not None and ps.image_ink(s.first_image) > 1000
        assert len(s.moves_ms) == 2 and s.slider
    # the pages came from each student's own server, behind the hub's proxy
    for name in class_hub["names"]:   # each on its own origin: <name>.localhost
        assert f"Adding user {name} to proxy {name}.localhost/user/{name}/" in hub.log()


@pytest.mark.slow
def test_a_student_cannot_open_another_students_server_or_kernel(class_hub):
    import requests

    hub, (ada, bob) = class_hub["hub"], class_hub["names"][:2]
    tokens = class_hub["tokens"]
    own = requests.get(f"{hub.user_url(bob)}/api/kernels", timeout=30,
                       headers={"Authorization": f"token {tokens[bob]}"})
    assert own.status_code == 200 and own.json(), own.text[:300]
    kernel = own.json()[0]["id"]
    as_ada = {"Authorization": f"token {tokens[ada]}"}
    bobs = hub.user_url(bob)
    for url in (f"{bobs}/voila/tree/game-maths-lessons/notebooks",
                f"{bobs}/voila/render/game-maths-lessons/notebooks/{LESSON}.ipynb",
                f"{bobs}/api/kernels", f"{bobs}/api/kernels/{kernel}",
                f"{bobs}/api/contents/game-maths-lessons", f"{hub.url}/hub/api/users/{bob}"):
        r = requests.get(url, headers=as_ada, timeout=30, allow_redirects=False)
        assert r.status_code in (403, 404), (url, r.status_code, r.text[:200])
        assert "kernelId" not in r.text
    # nor over the kernel's websocket, with the protocol's own subprotocol
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    async def connect():
        url = f"{bobs.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels"
        request = HTTPRequest(url, headers=as_ada)
        return await websocket_connect(request, subprotocols=["v1.kernel.websocket.jupyter.org"])

    with pytest.raises(HTTPClientError) as refused:
        harness.run_async(connect(), timeout=60)
    assert refused.value.code in (403, 404)


@pytest.mark.slow
def test_a_logged_out_browser_gets_the_login_page(class_hub):
    import requests

    hub, name = class_hub["hub"], class_hub["names"][0]
    r = requests.get(f"{hub.user_url(name)}/voila/render/game-maths-lessons/notebooks/"
                     f"{LESSON}.ipynb", timeout=30)
    assert r.status_code == 200 and urllib.parse.urlsplit(r.url).path == "/hub/login", r.url
    assert 'name="password"' in r.text and "kernelId" not in r.text
    browser = requests.Session()
    browser.get(f"{hub.url}/hub/login", timeout=30)
    wrong = browser.post(f"{hub.url}/hub/login", timeout=30, allow_redirects=False,
                         data={"username": name, "password": "not-the-password",
                               "_xsrf": browser.cookies.get("_xsrf", "")})
    assert wrong.status_code == 403 and "Invalid username or password" in wrong.text
    assert "kernelId" not in wrong.text


@pytest.mark.slow
def test_the_teacher_opens_jupyterlab_and_students_do_not(class_hub):
    import requests

    hub, student = class_hub["hub"], class_hub["names"][0]
    token = hub.token_for("teacher")
    hub.spawn_all(["teacher"])
    lab = requests.get(f"{hub.user_url('teacher')}/lab", timeout=60,
                       headers={"Authorization": f"token {token}"})
    assert lab.status_code == 200 and "jupyter-config-data" in lab.text
    tree = requests.get(f"{hub.user_url('teacher')}/voila/tree", timeout=60,
                        headers={"Authorization": f"token {token}"})
    assert tree.status_code == 200
    headers = {"Authorization": f"token {class_hub['tokens'][student]}"}
    students = hub.user_url(student)
    assert requests.get(f"{students}/lab", headers=headers, timeout=60).status_code == 404
    assert requests.get(f"{students}/api/terminals", headers=headers,
                        timeout=60).status_code in (403, 404)
    assert requests.get(f"{students}/voila/tree/game-maths-lessons/notebooks",
                        headers=headers, timeout=60).status_code == 200
    # each server is told its limits (enforced by systemd or Kubernetes; the trial's plain
    # processes only carry them, for jupyter-resource-usage and the like to show)
    single = VALUES["singleuser"]
    envs = [p.environ() for p in hub.processes() if "jupyterhub-singleuser" in p.cmdline()[1]]
    roles = {e["JUPYTERHUB_USER"]: e["LESSONS_ROLE"] for e in envs}
    assert roles[student] == "student" and roles["teacher"] == "teacher"
    for e in envs:
        assert int(e["MEM_LIMIT"]) == mb(single["memory"]["limit"]) * 2**20
        assert float(e["CPU_LIMIT"]) == single["cpu"]["limit"]


def log_in(page, hub, name: str, screenshot: str | None = None) -> None:
    """The hub's address, its login form, and the landing: the lessons' index page."""
    page.goto(f"{hub.url}/", timeout=60_000)
    assert "/hub/login" in page.url
    if screenshot:
        harness.screenshot(page, screenshot)
    page.fill("#username_input", name)
    page.fill("#password_input", hub.password)
    page.click("#login_submit")
    page.wait_for_url(re.compile(rf"/user/{name}/{re.escape(LANDING)}$"), timeout=180_000)


@pytest.mark.slow
@pytest.mark.browser
def test_a_student_logs_in_with_a_browser_and_lands_on_the_lessons(class_hub, chromium):
    """Chromium through the login form: the default URL pulls the lessons (nbgitpuller's
    page) and lands on their index page (no ".." link into the home); the lesson's link
    opens a working lesson in the same tab."""
    hub, name = class_hub["hub"], class_hub["names"][1]
    context = chromium.new_context(viewport=harness.VIEWPORT)
    try:
        page = context.new_page()
        log_in(page, hub, name, screenshot="hub_login")
        link = page.locator(f"a[href='{LESSON}.ipynb']")
        link.first.wait_for(timeout=60_000)
        harness.screenshot(page, "hub_student_lessons")
        assert page.locator("a[href^='..'], a[target='_blank']").count() == 0
        link.first.click()
        page.wait_for_url(re.compile(rf"/voila/render/game-maths-lessons/notebooks/{LESSON}"
                                     r"\.ipynb$"), timeout=120_000)
        page.wait_for_selector(harness.FIGURE, timeout=180_000, state="visible")
        page.wait_for_selector(harness.SLIDER, timeout=60_000, state="visible")
        harness.wait_idle(page)
        harness.assert_no_error_text(page)
        before = harness.canvas_images(page)
        harness.move_slider(page, "pitch (X)", key="ArrowRight", times=3)
        harness.wait_for_pixels_change(page, before)
        harness.wait_idle(page)
        harness.screenshot(page, "hub_student_lesson")
        # a shared lab computer: every student page has a way out, and out means out
        page.locator("#lessons-logout").click()
        page.wait_for_url(re.compile(r"/hub/(login|logout)"), timeout=60_000)
        page.goto(f"{hub.user_url(name)}/voila/tree", timeout=60_000)
        page.wait_for_url(re.compile(r"/hub/login"), timeout=60_000)
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.browser
def test_a_first_sign_in_skips_the_pull_page_and_gets_lesson_one_made_ahead(
        class_hub, chromium):
    """A student's first sign-in: the server pulled the lessons as it started, so the
    default URL goes straight on to the index (nbgitpuller's page and its scripts never
    load), and lesson 1's page comes made ahead, in the kernel warmed for it, with its
    fonts."""
    hub, bench = class_hub["hub"], class_hub["bench"]
    name = bench.class_of(STUDENTS + 1)[-1]
    hub.create_students([name])
    made_ahead = hub.log().count("made ahead (kernel")
    context = chromium.new_context(viewport=harness.VIEWPORT)
    asked: list[str] = []
    fonts: dict[str, int] = {}
    try:
        page = context.new_page()
        page.on("request", lambda r: asked.append(r.url))
        page.on("response", lambda r: fonts.setdefault(r.url, r.status)
                if r.request.resource_type == "font" else None)
        log_in(page, hub, name)
        page.locator(f"a[href='{LESSON}.ipynb']").first.click()
        page.wait_for_selector(harness.FIGURE, timeout=180_000, state="visible")
        harness.wait_idle(page)
        harness.assert_no_error_text(page)
    finally:
        context.close()
    assert any("/git-pull?" in url for url in asked)            # the default URL, still
    assert not [url for url in asked if "/git-pull/static/" in url]   # ... but not its page
    assert hub.log().count("made ahead (kernel") == made_ahead + 1, hub.log_about(name)
    # the page's fonts came (behind the login they were sent to the hub's OAuth, and every
    # icon of the lesson was an empty box)
    assert fonts and set(fonts.values()) == {200}, fonts


@pytest.mark.slow
@pytest.mark.browser
def test_a_culled_server_comes_back_on_the_next_visit(class_hub, chromium):
    """The idle culler (the hub's own service) stops idle students' servers. One student
    reopens a bookmarked lesson in the browser they logged in with: the hub starts their
    server again by itself and the lesson draws. Another logs in again through the form."""
    import requests

    hub, bench = class_hub["hub"], class_hub["bench"]
    by_bookmark, by_login = class_hub["names"][-1], class_hub["names"][-2]
    bookmark = (f"{hub.user_url(by_bookmark)}/voila/render/game-maths-lessons/notebooks/"
                f"{LESSON}.ipynb")
    context = chromium.new_context(viewport=harness.VIEWPORT)
    try:
        page = context.new_page()
        log_in(page, hub, by_bookmark)
        page.goto("about:blank")  # the student leaves; the hub's cookie stays
        waited = {name: hub.wait_stopped(name, timeout=300) for name in (by_login, by_bookmark)}
        for name in waited:
            assert re.search(rf"Culling server {name}\b", hub.log()), hub.log()[-3000:]

        page.goto(bookmark, timeout=60_000)
        page.wait_for_selector(harness.FIGURE, timeout=240_000, state="visible")
        assert page.url.startswith(bookmark), page.url
        page.wait_for_selector(harness.SLIDER, timeout=60_000, state="visible")
        harness.wait_idle(page)
        harness.assert_no_error_text(page)
        harness.screenshot(page, "hub_culled_server_back")
    finally:
        context.close()

    browser = requests.Session()
    browser.get(f"{hub.url}/hub/login", timeout=30)
    r = browser.post(f"{hub.url}/hub/login?next=",
                     data={"username": by_login, "password": hub.password,
                           "_xsrf": browser.cookies.get("_xsrf", "")}, timeout=120)
    assert r.status_code == 200, r.status_code
    path = urllib.parse.urlsplit(r.url).path
    assert path.startswith((f"/hub/spawn-pending/{by_login}", f"/user/{by_login}/")), r.url
    hub.wait_running(by_login)
    student = harness.run_async(bench.visit_all(hub, [by_login], class_hub["tokens"], LESSON,
                                                moves=1, deadline_s=240))[0]
    assert student.error is None, student.error
    assert len(student.moves_ms) == 1
    print(f"culled {', '.join(f'{n} {t:.0f} s' for n, t in waited.items())} into the wait")


# -- what a student could try (issue 40) -------------------------------------------------
def _auth(token: str) -> dict:
    return {"Authorization": f"token {token}"}


def _evil_repository(folder: Path) -> str:
    """Another student's repository: a notebook whose output is a script."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from IPython.display import HTML\nHTML('<script>document.title = \"pwned\"</script>')")]
    folder.mkdir()
    nbformat.write(nb, str(folder / "evil.ipynb"))
    for cmd in (["init", "-q", "-b", "main"], ["add", "."],
                ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "x"]):
        subprocess.run(["git", *cmd], cwd=folder, check=True, timeout=60)
    folder.chmod(0o755)
    return str(folder)


STEAL_TOKEN_JS = """async ([hub, name]) => {
  const out = {};
  try {
    const home = await (await fetch(hub + '/hub/home', {credentials: 'include'})).text();
    const xsrf = (home.match(/xsrf_token: "([^"]+)"/) || [])[1] || '';
    out.home = 'read';
    const r = await fetch(hub + '/hub/api/users/' + name + '/tokens', {
      method: 'POST', credentials: 'include',
      headers: {'Content-Type': 'application/json', 'X-XSRFToken': xsrf},
      body: JSON.stringify({note: 'stolen', expires_in: 86400})});
    out.token = r.status;
  } catch (e) { out.error = String(e); }
  return out;
}"""


@pytest.mark.slow
@pytest.mark.browser
def test_a_link_cannot_pull_another_repository_nor_a_page_act_on_the_hub(
        class_hub, chromium, tmp_path):
    """Attack 1: B clicks A's nbgitpuller link to A's own repository; and a script on B's
    server (what that notebook would have run) tries to make a hub token for B."""
    hub, name = class_hub["hub"], class_hub["names"][0]
    _back(class_hub, name)
    evil = _evil_repository(tmp_path / "evil")
    link = (f"{hub.url}/hub/user-redirect/git-pull?"
            + urllib.parse.urlencode({"repo": evil, "branch": "main", "targetpath": "evil",
                                      "urlpath": "voila/render/evil/evil.ipynb"}))
    context = chromium.new_context(viewport=harness.VIEWPORT)
    try:
        page = context.new_page()
        log_in(page, hub, name)
        answer = page.goto(link, timeout=120_000)
        assert answer.status == 403 and "This link is refused" in page.content()
        harness.screenshot(page, "hub_link_refused")
        assert page.url.startswith(hub.user_url(name))
        page.goto(f"{hub.user_url(name)}/voila/tree/game-maths-lessons/notebooks")
        stolen = page.evaluate(STEAL_TOKEN_JS, [hub.url, name])
    finally:
        context.close()
    assert "error" in stolen and "token" not in stolen, stolen   # cross-origin: refused
    assert not (Path(hub.state) / "home" / name / "evil").exists()
    tokens = hub.rest("GET", f"/users/{name}/tokens")["api_tokens"]
    assert not [t for t in tokens if t.get("note") == "stolen"], tokens


@pytest.mark.slow
def test_nothing_under_a_students_address_answers_without_their_login(class_hub):
    """Attack 2: a picture in B's home, Voila's and the server's static files: anonymous,
    with A's token (header and ?token=) and with A's own server cookie: the login page or
    403. B's own token gets the picture (the test can tell)."""
    import requests

    # two students no other test logs in or out
    hub, (ada, bob) = class_hub["hub"], class_hub["names"][2:4]
    tokens = class_hub["tokens"]
    _back(class_hub, ada, bob)
    bobs = hub.user_url(bob)
    picture = f"{bobs}/voila/files/game-maths-lessons/docs/img/{FIRST.slug}.png"
    own = requests.get(picture, headers=_auth(tokens[bob]), timeout=60)
    assert own.status_code == 200 and own.content[:4] == b"\x89PNG", (own.url, own.text[:300])
    ada_browser = requests.Session()      # Ada logged in, with her own server's cookie
    ada_browser.get(f"{hub.url}/hub/login", timeout=30)
    ada_browser.post(f"{hub.url}/hub/login", timeout=120, data={
        "username": ada, "password": hub.password, "_xsrf": ada_browser.cookies.get("_xsrf", "")})
    assert ada_browser.get(f"{hub.user_url(ada)}/voila/tree", timeout=120).status_code == 200
    ada_cookies = "; ".join(f"{c.name}={c.value}" for c in ada_browser.cookies)
    for url in (picture, f"{bobs}/voila/static/voila.js", f"{bobs}/static/favicon.ico",
                f"{bobs}/files/game-maths-lessons/docs/img/{FIRST.slug}.png",
                f"{bobs}/voila/templates/lessons/static/favicon.ico"):
        for how, kwargs in (("anonymous", {}), ("Ada's token", {"headers": _auth(tokens[ada])}),
                            ("Ada's ?token=", {"params": {"token": tokens[ada]}}),
                            ("Ada's cookies", {"headers": {"Cookie": ada_cookies}})):
            r = requests.get(url, timeout=60, **kwargs)
            login = r.status_code == 200 and urllib.parse.urlsplit(r.url).path == "/hub/login"
            assert login or r.status_code == 403, (url, how, r.status_code, r.url)
            assert not r.content.startswith(b"\x89PNG")
    # a font of an installed package comes to anyone (a stylesheet's font request cannot
    # carry the hub's XSRF token); Voila's own script, beside it, still needs the login
    font = next(Path(sys.prefix, "share/jupyter/voila/templates/base/static").glob("*.woff2"))
    r = requests.get(f"{bobs}/voila/templates/lessons/static/{font.name}", timeout=60)
    assert r.status_code == 200 and r.content[:4] == b"wOF2", (r.status_code, r.url)


def _back(class_hub, *names: str) -> None:
    """These students' servers running with the lessons pulled: the idle culler (90 s here)
    may have stopped them while other tests ran."""
    hub = class_hub["hub"]
    stopped = [n for n in names if not (hub.server(n) or {}).get("ready")]
    if stopped:
        hub.spawn_all(stopped)
    for name in names:
        hub.pull_lessons(name, class_hub["tokens"][name])


def _kernel_of(hub, name: str, token: str) -> str:
    import requests

    kernels = requests.get(f"{hub.user_url(name)}/api/kernels", headers=_auth(token),
                           timeout=60).json()
    assert kernels, f"{name} has no lesson open"
    return kernels[0]["id"]


def _rss_mb(hub, kernel_id: str) -> float:
    for p in hub.processes():
        if any(kernel_id in part for part in p.cmdline()):
            return p.memory_info().rss / 2**20
    raise AssertionError(f"no process for kernel {kernel_id}")


@pytest.mark.slow
def test_a_students_token_and_page_cannot_run_code_nor_fill_a_kernel(class_hub, tmp_path):
    """Attacks 3 and 4: with B's own token, through the REST API (a kernel, a session, a
    notebook uploaded for Voila to run) and through B's lesson page's kernel websocket
    (code, a flood of the page's own Image widgets, a widget of its own)."""
    import protocol_student as ps
    import requests

    hub, name, other = class_hub["hub"], class_hub["names"][2], class_hub["names"][3]
    token = class_hub["tokens"][name]
    base = hub.user_url(name)
    _back(class_hub, name, other)
    opened = harness.run_async(class_hub["bench"].visit_all(   # B's lesson, and its kernel
        hub, [name], class_hub["tokens"], LESSON, moves=1, deadline_s=240))[0]
    assert opened.error is None, opened.error
    notebook = {"type": "notebook", "content": {
        "cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}}
    for method, path, body in (("POST", "/api/kernels", {}),
                               ("POST", "/api/sessions", {"path": "x.ipynb", "type": "notebook",
                                                          "kernel": {"name": "python3"}}),
                               ("PUT", "/api/contents/mine.ipynb", notebook),
                               ("POST", "/api/contents", {"type": "file"})):
        r = requests.request(method, base + path, json=body, headers=_auth(token), timeout=60)
        assert r.status_code == 403, (method, path, r.status_code, r.text[:200])
    kernel_id = _kernel_of(hub, name, token)
    marker = f"/tmp/lessons-attack-{secrets.token_hex(8)}"

    async def scenario():
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        session = uuid.uuid4().hex
        ws = await websocket_connect(HTTPRequest(
            f"{base.replace('http', 'ws', 1)}/api/kernels/{kernel_id}/channels"
            f"?session_id={session}", headers=_auth(token)), subprotocols=[ps.V1])
        page = ps._Kernel(ws, session)
        try:
            ran = attacks.execute(page, f"open({marker!r}, 'w').close()")
            opened = [attacks.open_image_widget(page) for _ in range(40)]
            opened.append(attacks.open_image_widget(page, 0))
            replied = await attacks.replies_after(
                page, {ran}, attacks.send(page, "kernel_info_request", {}))
            return replied, opened, await attacks.comm_ids(page)
        finally:
            page.close()

    replied, opened, comms = harness.run_async(scenario(), timeout=300)
    assert not replied and not os.path.exists(marker)
    assert comms and not comms & set(opened)
    assert _rss_mb(hub, kernel_id) < 300
    # every other student's page still answers
    student = harness.run_async(class_hub["bench"].visit_all(
        hub, [other], class_hub["tokens"], LESSON, moves=1, deadline_s=240))[0]
    assert student.error is None and len(student.moves_ms) == 1, student.error


@pytest.mark.slow
def test_no_students_code_runs_as_root(class_hub):
    """A trial started as root (CI) runs the students' servers and kernels unprivileged."""
    servers = [p for p in class_hub["hub"].processes()
               if "jupyterhub-singleuser" in " ".join(p.cmdline())]
    assert servers
    for server in servers:
        for p in [server, *server.children(recursive=True)]:
            assert p.uids().real != 0 and p.uids().effective != 0, p.cmdline()
