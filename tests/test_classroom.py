"""Serving a room: `make classroom`, the one config file every route reads, and the two routes
beyond one laptop (Binder, JupyterHub) running the same Voila settings."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest

import browser as harness
from lessons import FIRST, KOREAN, lesson

ROOT = harness.ROOT
from lessons_lib.i18n import KOREAN_FOLDER  # noqa: E402
from lessons_server import room as classroom  # noqa: E402  (make classroom)

CONFIG = json.loads((ROOT / "voila.json").read_text())
LESSON = FIRST.notebook


# -- the config file ----------------------------------------------------------------------
def test_voila_json_says_what_the_issue_asks():
    vc = CONFIG["VoilaConfiguration"]
    assert vc["preheat_kernel"] is True and vc["default_pool_size"] >= 1
    assert vc["show_tracebacks"] is False
    allow = [re.compile(p, re.I) for p in vc["file_allowlist"]]
    deny = [re.compile(p, re.I) for p in vc["file_denylist"]]

    def served(path):
        return any(p.fullmatch(path) for p in allow) and not any(p.fullmatch(path) for p in deny)

    for ok in (f"docs/img/{FIRST.slug}.png", "a.JPG", "b.jpeg", "slide.gif", "x.webp"):
        assert served(ok), ok
    for no in (FIRST.notebook, "lessons_lib/rotations.py", ".git/config",
               "environment.yml", "voila.json", "README.md", "x.svg", ".hidden/a.png",
               "notebooks/.ipynb_checkpoints/a.png", "a.png.py", "x.html", "x.js"):
        assert not served(no), no
    kernels = CONFIG["MappingKernelManager"]
    assert kernels["cull_idle_timeout"] > 0 and kernels["cull_interval"] > 0
    assert kernels["cull_connected"] is False  # a student reading a page keeps the kernel
    # under a classroom burst the kernels' output arrives seconds late: nbclient's default
    # of 4 s then drops the app's output and the student's page has no figure
    assert CONFIG["VoilaExecutor"]["iopub_timeout"] >= 30
    # Voila replaces a taken pre-heated kernel after fill_delay: at 1 s the new kernel ran
    # its lesson while the page that took the old one was still loading (first figure 2.0
    # to 2.2 s at 1 s, 1.8 to 1.85 s at 3 s; benchmarks/ab_first_figure.py, README Speed)
    assert CONFIG["VoilaKernelManager"]["fill_delay"] >= 3


def test_standalone_voila_reads_the_repository_config(monkeypatch):
    """`make voila`/`make classroom` start Voila in the repository root: voila.json applies."""
    from voila.app import Voila

    monkeypatch.chdir(ROOT)
    app = Voila()
    app.initialize([str(harness.NOTEBOOKS), "--no-browser"])
    vc = app.voila_configuration
    assert vc.preheat_kernel is True and vc.show_tracebacks is False
    assert vc.default_pool_size == CONFIG["VoilaConfiguration"]["default_pool_size"]
    assert vc.file_allowlist == CONFIG["VoilaConfiguration"]["file_allowlist"]
    assert vc.file_denylist == CONFIG["VoilaConfiguration"]["file_denylist"]
    assert app.kernel_websocket_connection_class.__name__ == "PageWebsocketConnection"
    assert app.config.MappingKernelManager.cull_idle_timeout == \
        CONFIG["MappingKernelManager"]["cull_idle_timeout"]
    # no page runs code: Jupyter Server's own list of what a page's websocket may pass
    assert sorted(app.config.MappingKernelManager.allowed_message_types) == sorted(
        ["kernel_info_request", "comm_info_request", "comm_open", "comm_msg", "comm_close"])
    from voila.execute import VoilaExecutor

    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=app.config)
    assert executor.iopub_timeout == CONFIG["VoilaExecutor"]["iopub_timeout"]


def test_voila_server_extension_is_enabled_and_reads_the_same_file(monkeypatch):
    """Binder and JupyterHub serve Voila as a Jupyter server extension, started in the
    repository (Binder) or a checkout of it (JupyterHub): voila.json applies there too."""
    jupyter = Path(sys.executable).parent / "jupyter"
    out = subprocess.run([str(jupyter), "server", "extension", "list"], capture_output=True,
                         text=True, timeout=120)
    listing = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    assert re.search(r"voila\.server_extension\s+enabled", listing), listing
    assert re.search(r"voila\.server_extension\s+OK", listing), listing

    from jupyter_server.serverapp import ServerApp
    from voila.configuration import VoilaConfiguration
    from voila.server_extension import load_config_file

    monkeypatch.chdir(ROOT)
    vc = VoilaConfiguration(parent=ServerApp())
    vc.update_config(load_config_file())  # what _load_jupyter_server_extension does
    assert vc.show_tracebacks is False
    assert vc.file_allowlist == CONFIG["VoilaConfiguration"]["file_allowlist"]
    assert vc.file_denylist == CONFIG["VoilaConfiguration"]["file_denylist"]


@pytest.mark.slow
def test_binder_image_starts_in_the_repository(tmp_path):
    """repo2docker copies the repository to ${REPO_DIR} and starts there, so the server
    extension finds voila.json in its working directory; postBuild installs lessons_lib
    (which holds the websocket class voila.json names)."""
    exe = shutil.which("repo2docker") or str(Path(sys.executable).parent / "repo2docker")
    out = subprocess.run([exe, "--no-build", "--debug", str(ROOT)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    dockerfile = out.stdout
    assert re.search(r"^WORKDIR \$\{REPO_DIR\}", dockerfile, re.M), dockerfile[-3000:]
    assert re.search(r"^COPY .*src/ \$\{REPO_DIR\}", dockerfile, re.M)
    assert "./binder/postBuild" in dockerfile
    ignored = (ROOT / ".dockerignore").read_text() if (ROOT / ".dockerignore").exists() else ""
    assert "voila.json" not in ignored


@pytest.mark.browser
def test_jupyter_server_route_applies_the_same_settings(tmp_path):
    """A single-user Jupyter server as JupyterHub (or Binder) runs it, in the repository:
    /voila/ renders a lesson, sources under /voila/files/ are refused by voila.json."""
    port = harness.free_port()
    token = classroom.make_token()
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - closed below
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={ROOT}", "--allow-root"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, \
                    (tmp_path / "server.log").read_text()[-3000:]
                time.sleep(0.3)

        def status(path):
            try:
                with urllib.request.urlopen(f"{base}/{path}?token={token}", timeout=120) as r:
                    return r.status, r.read().decode("utf-8", "replace")
            except urllib.error.HTTPError as e:
                return e.code, ""

        code, body = status("voila/tree/notebooks")
        assert code == 200
        code, body = status(f"voila/render/notebooks/{LESSON}")
        assert code == 200 and "kernelId" in body and "Traceback" not in body
        assert "from lessons_lib" not in body
        assert status(f"voila/files/docs/img/{FIRST.slug}.png")[0] == 200
        for path in ("voila/files/lessons_lib/rotations.py", "voila/files/voila.json",
                     f"voila/files/notebooks/{LESSON}", "voila/files/.git/config",
                     "voila/files/environment.yml"):
            assert status(path)[0] == 403, path
    finally:
        harness.stop_process(proc)
        log.close()


# -- make classroom -----------------------------------------------------------------------
def test_make_classroom_serves_all_interfaces_with_a_token():
    make = subprocess.run(["make", "-n", "classroom"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert "-m lessons_server.room" in make.stdout, make.stdout + make.stderr
    make = subprocess.run(["make", "-n", "classroom", f"LESSON={FIRST.slug}", "STUDENTS=3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert f"--lesson={FIRST.slug} --students=3" in make.stdout
    voila = subprocess.run(["make", "-n", "voila"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
    assert "--Voila.ip=127.0.0.1" in voila.stdout and "--token" not in voila.stdout

    out = subprocess.run([sys.executable, "-m", "lessons_server.room", "--print-only",
                          "--lesson", lesson(2).slug, "--students", "5"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # lesson 2's short address (lessons_server/landing.py), in full and in block letters
    url = re.search(r"http://(\S+):8866/2\?token=(\d{12})", out.stdout)
    assert url, out.stdout
    host, token = url.groups()
    assert "--Voila.ip=0.0.0.0" in out.stdout and f"--token={token}" in out.stdout
    assert classroom.big(f"{host}:8866/2") in out.stdout
    assert classroom.big(f"?token={token}") in out.stdout  # the block-letter line
    assert f"'{lesson(2).notebook}': {{'pool_size': 5}}" in out.stdout
    assert classroom.make_token() != classroom.make_token()


def test_a_korean_class_gets_the_korean_lessons_short_address():
    """`make classroom --lesson ko/<slug>`: the Korean page's pool and its short address,
    /ko/<number>, in block letters too."""
    item = KOREAN[0]
    out = subprocess.run([sys.executable, "-m", "lessons_server.room", "--print-only",
                          "--ip", "127.0.0.1", "--token", "123456789012",
                          "--lesson", f"{KOREAN_FOLDER}/{item.slug}", "--students", "4"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"http://127.0.0.1:8866/ko/{item.number}?token=123456789012" in out.stdout
    assert classroom.big(f"127.0.0.1:8866/ko/{item.number}") in out.stdout
    assert f"'{KOREAN_FOLDER}/{item.notebook}': {{'pool_size': 4}}" in out.stdout


def test_classroom_without_a_lesson_gives_the_index_address():
    out = subprocess.run([sys.executable, "-m", "lessons_server.room", "--print-only",
                          "--ip", "127.0.0.1", "--token", "123456789012"],
                         capture_output=True, text=True, timeout=60)
    assert "http://127.0.0.1:8866/?token=123456789012" in out.stdout, out.stdout
    assert classroom.big("127.0.0.1:8866") in out.stdout


def test_classroom_refuses_an_unknown_lesson():
    out = subprocess.run([sys.executable, "-m", "lessons_server.room", "--print-only",
                          "--lesson", "99_nothing"], capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "no notebooks/99_nothing.ipynb" in out.stderr


def test_block_letters_are_all_different_and_five_lines_tall():
    glyphs = {c: tuple(g) for c, g in classroom._FONT.items()}
    assert len(set(glyphs.values())) == len(glyphs), "two characters look the same"
    text = classroom.big("0123456789")
    assert len(text.splitlines()) == 5
    with pytest.raises(ValueError, match="no big glyph"):
        classroom.big("TOKEN")


@pytest.fixture(scope="module")
def classroom_server():
    """lessons_server/room.py as `make classroom` runs it, on loopback for the test."""
    port = harness.free_port()
    server = harness.VoilaServer(port=port, command=[
        sys.executable, "-m", "lessons_server.room", "--ip", "127.0.0.1",
        "--port", str(port), "--lesson", LESSON, "--students", "2"])
    try:
        deadline = time.monotonic() + 300  # the address is printed once the pool is pre-heated
        while not (found := re.search(r"token=(\d{12})", server.log_path.read_text())):
            assert server.proc.poll() is None and time.monotonic() < deadline, \
                server.log_path.read_text()
            time.sleep(0.2)
        server.token = found.group(1)
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.mark.browser
def test_teacher_tries_make_classroom_with_and_without_the_token(classroom_server, chromium):
    """Two browser contexts, as two students: the one with the token gets a working lesson,
    the one without gets the login page and no kernel."""
    with_token = chromium.new_context(viewport=harness.VIEWPORT)
    without = chromium.new_context(viewport=harness.VIEWPORT)
    try:
        page = with_token.new_page()
        harness.open_lesson(page, classroom_server, LESSON)
        harness.assert_no_error_text(page)
        before = harness.canvas_images(page)
        harness.move_slider(page, "pitch (X)", key="ArrowRight", times=3)
        harness.wait_for_pixels_change(page, before)
        harness.wait_idle(page)
        page.evaluate("""() => document.querySelector('.jupyter-matplotlib-figure')
                            .closest('.widget-hbox').scrollIntoView({block: 'start'})""")
        harness.screenshot(page, "classroom_with_token")

        stranger = without.new_page()
        response = stranger.goto(f"{classroom_server.url}/voila/render/{LESSON}",
                                 timeout=60_000)
        assert response is not None
        stranger.wait_for_load_state()
        assert "/login" in stranger.url, stranger.url
        assert stranger.locator(harness.FIGURE).count() == 0
        assert "kernelId" not in stranger.content()
        harness.screenshot(stranger, "classroom_without_token")
        # a wrong token is no better
        stranger.goto(f"{classroom_server.url}/voila/render/{LESSON}?token=000000000000",
                      timeout=60_000)
        assert "/login" in stranger.url and stranger.locator(harness.FIGURE).count() == 0
    finally:
        with_token.close()
        without.close()
    assert "Using pre-heated kernel" in classroom_server.log_path.read_text()


def test_jupyterhub_image_reads_voila_json_from_the_config_path(tmp_path, monkeypatch):
    """On JupyterHub the single-user server starts in the student's home, not in the
    checkout: the image (deploy/image/Dockerfile) copies voila.json into a Jupyter config
    directory, and the server extension reads it from there."""
    from jupyter_server.serverapp import ServerApp
    from voila.configuration import VoilaConfiguration
    from voila.server_extension import load_config_file

    etc = tmp_path / "etc" / "jupyter"
    etc.mkdir(parents=True)
    shutil.copy(ROOT / "voila.json", etc / "voila.json")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(home)
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(etc))
    vc = VoilaConfiguration(parent=ServerApp())
    vc.update_config(load_config_file())
    assert vc.show_tracebacks is False
    assert vc.file_denylist == CONFIG["VoilaConfiguration"]["file_denylist"]
    # and without it the defaults would apply: the copy is what makes the difference
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(home))
    monkeypatch.setenv("JUPYTER_NO_CONFIG", "1")
    bare = VoilaConfiguration(parent=ServerApp())
    config = load_config_file()
    if config is not None:
        bare.update_config(config)
    assert bare.file_denylist != CONFIG["VoilaConfiguration"]["file_denylist"]


@pytest.mark.browser
def test_room_lands_on_the_index_and_its_printed_address_opens_the_lesson(classroom_server):
    """Issue 42: the room landed on Voila's file tree, and the address it printed for
    --lesson did not open the lesson. / and the tree redirect to the index (the login
    first, without the token); the printed address, in block letters, opens the lesson."""
    base, token = classroom_server.url, classroom_server.token
    log = classroom_server.log_path.read_text()
    printed = re.search(rf"http://127\.0\.0\.1:{classroom_server.port}(/\S*)\?token={token}",
                        log)
    assert printed and printed.group(1) == "/1", log[-2000:]        # LESSON is lesson 1
    assert classroom.big(f"127.0.0.1:{classroom_server.port}/1") in log
    status, _, headers = harness.get_once(printed.group(0))
    assert (status, headers["Location"]) == (302, f"/voila/render/{LESSON}?token={token}")
    with urllib.request.urlopen(printed.group(0), timeout=120) as answer:
        body = answer.read().decode()
        assert answer.url.endswith(f"/voila/render/{LESSON}?token={token}")
    assert "kernelId" in body and "Gimbal lock" in body
    for path in ("", "voila/tree"):
        status, _, headers = harness.get_once(f"{base}/{path}?token={token}")
        assert (status, headers["Location"]) == (302,
                                                 f"/voila/render/index.ipynb?token={token}")
        status, _, headers = harness.get_once(f"{base}/{path}")
        assert status == 302 and "/login" in headers["Location"], headers["Location"]
    # the index answers at once, from the catalogue, without a kernel; and only with the login
    index = f"{base}/voila/render/index.ipynb"
    status, body, _ = harness.get_once(f"{index}?token={token}")
    assert status == 200 and "kernelId" not in body and f">{FIRST.title}</a>" in body
    status, _, headers = harness.get_once(index)
    assert status == 302 and "/login" in headers["Location"], headers["Location"]


@pytest.mark.browser
def test_classroom_server_gzips_what_it_sends(classroom_server):
    """One Wi-Fi for the room: scripts, styles and the page itself go out compressed."""
    import gzip

    page = urllib.request.Request(classroom_server.render_url(LESSON),
                                  headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(page, timeout=120) as r:
        assert r.headers.get("Content-Encoding") == "gzip"
        html = gzip.decompress(r.read()).decode()
    scripts = re.findall(r'src="([^"]+\.js)[^"]*"', html)
    assert scripts, "the page loads scripts"
    url = urllib.parse.urljoin(classroom_server.url + "/", scripts[0])
    with urllib.request.urlopen(urllib.request.Request(
            url, headers={"Accept-Encoding": "gzip"}), timeout=60) as r:
        packed = r.read()
        assert r.headers.get("Content-Encoding") == "gzip"
    assert len(gzip.decompress(packed)) > 2 * len(packed)


# -- what one student's kernel costs --------------------------------------------------------
def test_no_lesson_loads_scipy_interpolate():
    """scipy.interpolate costs every student's kernel ~45 MB and a quarter of a CPU-second:
    numpy-quaternion loads it for calculus helpers no lesson uses, and lesson 3's splines
    are built by lessons_lib.cubic instead of its CubicSpline. lessons_lib imports the
    quaternions without it, every app and a track's spline come without it, and scipy still
    imports normally afterwards."""
    code = """if True:
        import sys
        import matplotlib
        matplotlib.use("agg")
        from lessons_lib import rotations
        from lessons_lib.apps import FunnelApp, GimbalApp, SteeringApp  # noqa: F401
        from lessons_lib.apps.interpolation import view  # noqa: F401
        from lessons_lib.tracks import track
        assert track("oval").length > 0
        assert "scipy.interpolate" not in sys.modules, "scipy.interpolate was imported"
        q = rotations.euler_to_quaternion(30, 20, 10)
        assert abs(abs(q) - 1) < 1e-12
        from scipy.interpolate import CubicSpline
        assert CubicSpline([0, 1, 2], [0, 1, 0])(0.5) > 0
        print("ok")
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr



@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")),
                         ids=lambda p: p.stem)
def test_no_lesson_imports_quaternion_before_lessons_lib(path):
    """A notebook that imports numpy-quaternion itself before lessons_lib pays for the
    scipy.interpolate that lessons_lib avoids, in every student's kernel."""
    import ast

    nb = nbformat.read(path, as_version=4)
    order = []
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        code = "\n".join(ln for ln in cell.source.splitlines() if not ln.startswith("%"))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import):
                order += [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                order.append(node.module.split(".")[0])
    if "quaternion" in order:
        assert "lessons_lib" in order[:order.index("quaternion")], order

# -- the room's kernel pool, with protocol-level students -------------------------------------
def _protocol_students(server, count: int, moves: int = 1, gap_s: float = 0.0):
    """``count`` protocol-level students (benchmarks/protocol_student.py), ``gap_s`` apart."""
    import asyncio

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import protocol_student as ps

    async def room():
        start = time.monotonic()
        tasks = []
        for i in range(count):
            if i:
                await asyncio.sleep(gap_s)
            tasks.append(asyncio.ensure_future(ps.visit(
                ps.ProtocolStudent(i), server.url, f"/voila/render/{LESSON}", server.token,
                start, deadline_s=180.0, moves=moves)))
        return await asyncio.gather(*tasks)

    return harness.run_async(room(), timeout=600), ps


def _wait_for(predicate, what: str, timeout: float = 240.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.5)


@pytest.mark.slow
def test_pool_serves_the_room_first_and_refills_one_kernel_at_a_time():
    """Two students take the two pre-heated kernels four seconds apart: no kernel starts
    while they arrive (Voila alone would start one a second after the first); once nobody
    has arrived for --refill-after seconds the pool is topped up one kernel at a time. Each
    student gets a drawn first image and a new image for a slider step."""
    port = harness.free_port()
    server = harness.VoilaServer(port=port, command=[
        sys.executable, "-m", "lessons_server.room", "--ip", "127.0.0.1",
        "--port", str(port), "--lesson", LESSON, "--students", "2", "--default-pool", "0",
        "--refill-after", "15", "--token", "314159265358"])
    server.token = "314159265358"
    try:
        log = server.log_path.read_text
        _wait_for(lambda: "Students open" in log() or server.proc.poll() is not None,
                  "the address", timeout=300)
        text = log()
        assert "Students open" in text, text[-3000:]
        # what the teacher reads before the address: kernels, time, memory
        before_address = text[:text.index("Students open")]
        assert re.search(rf"Pre-heated 2 kernels in \d+ s \({FIRST.slug} 2", before_address)
        assert re.search(r"They take \d+\.\d GB of memory", before_address)
        started_before = text.count("Kernel started")

        students, ps = _protocol_students(server, 2, moves=1, gap_s=4.0)
        for s in students:
            assert s.error is None, s.error
            assert ps.image_ink(s.first_image) > 1000  # a drawn figure, not a blank canvas
            assert len(s.moves_ms) == 1
        text = log()
        assert text.count("Using pre-heated kernel") == 2
        taken = [m.start() for m in re.finditer("Using pre-heated kernel", text)]
        assert "Kernel started" not in text[taken[0]:taken[1]], "a refill ran during arrivals"
        assert text.count("Kernel started") == started_before

        _wait_for(lambda: log().count("Refilling the pool") == 2
                  and log().count("Kernel started") == started_before + 2, "two refills")
        text = log()
        refills = [m.start() for m in re.finditer("Refilling the pool", text)]
        # one at a time: the second refill is asked for only after the first kernel started
        assert text[refills[0]:refills[1]].count("Kernel started") == 1
    finally:
        server.stop()


def test_protocol_student_picks_the_app_canvas_and_its_first_slider():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import protocol_student as ps

    def model(name, **state):
        return {"model_name": name, "state": state}

    states = {
        "quiz": model("VBoxModel", children=["IPY_MODEL_qslider"]),
        "qslider": model("IntSliderModel", value=1, min=0, max=5, step=1),
        "app": model("HBoxModel", children=["IPY_MODEL_fig", "IPY_MODEL_controls"]),
        "fig": model(ps.CANVAS),
        "controls": model("VBoxModel", children=["IPY_MODEL_off", "IPY_MODEL_yaw"]),
        "off": model("FloatSliderModel", value=0.0, min=0.0, max=1.0, step=0.1, disabled=True),
        "yaw": model("FloatSliderModel", value=180.0, min=-180.0, max=180.0, step=1.0),
        "hidden": model("FloatSliderModel", value=0.0, min=0.0, max=1.0, step=0.1),
    }

    def output(model_id):
        data = {"data": {ps.VIEW: {"model_id": model_id}}, "output_type": "display_data"}
        return f'<script type="application/vnd.voila.cell-output+json">{json.dumps(data)}</script>'

    html = output("quiz") + "<p>prose</p>" + output("app")
    assert ps.pick_canvas_and_slider(html, states) == ("fig", "yaw")
    assert ps.next_value(states["yaw"]["state"]) == 179.0  # at its maximum: one step down
    assert ps.next_value(states["qslider"]["state"]) == 2
    with pytest.raises(ps.StudentError, match="no ipympl canvas"):
        ps.pick_canvas_and_slider(output("quiz"), states)
    with pytest.raises(ps.StudentError, match="no slider"):
        ps.pick_canvas_and_slider(output("app"), {**states, "yaw": model("LabelModel")})


@pytest.mark.parametrize("url", ["http://10.0.0.5:8866", "http://192.168.1.20:8866",
                                 "http://example.org", "http://[2001:db8::1]:80"])
def test_protocol_student_visits_only_loopback(url):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import protocol_student as ps

    with pytest.raises(ValueError, match="only visit loopback"):
        ps.check_loopback(url)
    for ok in ("http://127.0.0.1:8866", "http://127.5.0.1", "http://localhost:1",
               "http://[::1]:8866"):
        ps.check_loopback(ok)


def test_each_static_file_is_gzipped_once():
    """The cached transform sends the same bytes tornado's would, and compresses a version
    of a static file only once however many students ask for it: by its Etag, or, for the
    lab extensions' scripts that Jupyter serves without one, by path, Last-Modified and
    length. A response with neither (a lesson page) is compressed every time."""
    import gzip
    from types import SimpleNamespace
    from unittest import mock

    from tornado.httputil import HTTPHeaders

    from lessons_server.classroom import CachedGzipContentEncoding

    CachedGzipContentEncoding._cache.clear()
    CachedGzipContentEncoding._cached_bytes = 0
    body = ("console.log('a lesson');\n" * 20000).encode()
    chunks = [body[i:i + 65536] for i in range(0, len(body), 65536)]

    def serve(etag=None, path="/voila/static/a.js", modified=None):
        request = SimpleNamespace(headers=HTTPHeaders({"Accept-Encoding": "gzip"}), uri=path)
        t = CachedGzipContentEncoding(request)
        headers = HTTPHeaders({"Content-Type": "application/javascript",
                               "Content-Length": str(len(body))})
        if etag:
            headers["Etag"] = etag
        if modified:
            headers["Last-Modified"] = modified
        status, headers, out = t.transform_first_chunk(200, headers, chunks[0], False)
        parts = [out] + [t.transform_chunk(c, i == len(chunks) - 2)
                         for i, c in enumerate(chunks[1:])]
        return headers, b"".join(parts)

    with mock.patch("gzip.GzipFile", wraps=gzip.GzipFile) as compressor:
        first_headers, first = serve('"v1"')
        again_headers, again = serve('"v1"')
        _, other = serve('"v2"')
    assert compressor.call_count == 2  # "v1" once, "v2" once
    monday, tuesday = "Mon, 30 Nov 2026 10:00:00 GMT", "Tue, 01 Dec 2026 10:00:00 GMT"
    with mock.patch("gzip.GzipFile", wraps=gzip.GzipFile) as compressor:
        _, lab = serve(path="/voila/labextensions/x/remoteEntry.js", modified=monday)
        _, lab_again = serve(path="/voila/labextensions/x/remoteEntry.js", modified=monday)
        serve(path="/voila/labextensions/y/remoteEntry.js", modified=monday)
        serve(path="/voila/labextensions/x/remoteEntry.js", modified=tuesday)
        serve(path="/voila/render/lesson.ipynb")
        serve(path="/voila/render/lesson.ipynb")
    assert compressor.call_count == 5  # only the second request for x on Monday was cached
    assert lab_again == lab and gzip.decompress(lab) == body
    assert gzip.decompress(first) == gzip.decompress(again) == gzip.decompress(other) == body
    assert again_headers["Content-Encoding"] == "gzip"
    assert int(again_headers["Content-Length"]) == len(again)
    assert "Accept-Encoding" in again_headers["Vary"]
    assert "Content-Length" not in first_headers  # streamed: tornado's own behaviour


def _static_app(root: Path, memory):
    """A tornado app serving ``root`` through tornado's StaticFileHandler answering from
    ``memory``, with the gzip transform lessons_server/room.py installs."""
    import tornado.web

    from lessons_server.classroom import CachedGzipContentEncoding, serve_from_memory

    handler = serve_from_memory(tornado.web.StaticFileHandler, memory)
    return tornado.web.Application([(r"/s/(.*)", handler, {"path": str(root)})],
                                   compress_response=True,
                                   transforms=[CachedGzipContentEncoding])


def test_static_files_are_answered_from_memory_as_from_disk(tmp_path):
    """A second request for a static file gets the same status, headers (but its own Date)
    and bytes as the first, without the handler resolving the path or reading the file
    again; a changed file is read again; conditional and range requests, HEAD and errors
    are answered by tornado's handler as before, and never kept."""
    from unittest import mock

    import tornado.web
    from tornado.httpclient import AsyncHTTPClient
    from tornado.httpserver import HTTPServer

    from lessons_server.classroom import StaticMemory

    script = tmp_path / "a.js"
    script.write_text("console.log('a lesson');\n" * 4000)
    memory = StaticMemory()
    port = harness.free_port()

    async def scenario() -> None:
        server = HTTPServer(_static_app(tmp_path, memory))
        server.listen(port, "127.0.0.1")
        client = AsyncHTTPClient()

        async def fetch(path: str = "/s/a.js?v=1", **kw):
            return await client.fetch(f"http://127.0.0.1:{port}{path}", raise_error=False,
                                      decompress_response=False,
                                      headers={"Accept-Encoding": "gzip", **kw.pop("headers", {})},
                                      **kw)

        try:
            with mock.patch.object(tornado.web.StaticFileHandler, "validate_absolute_path",
                                   autospec=True,
                                   side_effect=tornado.web.StaticFileHandler
                                   .validate_absolute_path) as resolved:
                first = await fetch()
                again = await fetch()
                assert resolved.call_count == 1  # the second came from memory
                assert (first.code, first.body) == (again.code, again.body) == (200, first.body)
                # (the first is streamed while it is compressed, the next has a length)
                framing = ("Date", "Transfer-Encoding", "Content-Length")
                same = {k: v for k, v in first.headers.get_all() if k not in framing}
                assert same == {k: v for k, v in again.headers.get_all() if k not in framing}
                assert "Date" in again.headers and same["Content-Encoding"] == "gzip"
                assert int(again.headers["Content-Length"]) == len(again.body)
                assert list(memory.kept) == ["/s/a.js?v=1"]

                assert (await fetch(headers={"If-None-Match": first.headers["Etag"]})).code == 304
                ranged = await fetch(headers={"Range": "bytes=0-9", "Accept-Encoding": "identity"})
                assert (ranged.code, ranged.body) == (206, b"console.lo")
                head = await fetch(method="HEAD")
                assert head.code == 200 and head.headers["Etag"] == first.headers["Etag"]
                assert (await fetch("/s/missing.js")).code == 404
                assert (await fetch("/s/../test_x.py")).code in (403, 404)
                assert resolved.call_count == 5  # 304, range, HEAD, missing: the handler's
                assert list(memory.kept) == ["/s/a.js?v=1"]

                script.write_text("console.log('changed');\n")
                # (tornado keeps a file's Etag for the life of the process, so a changed
                # file is asked for uncompressed here: its gzip is kept by that Etag)
                changed = await fetch(headers={"Accept-Encoding": "identity"})
                assert resolved.call_count == 6
                assert changed.body == b"console.log('changed');\n"
                assert (await fetch(headers={"Accept-Encoding": "identity"})).body == changed.body
                assert resolved.call_count == 6
        finally:
            server.stop()
            client.close()

    harness.run_async(scenario(), timeout=120)


def test_classroom_serves_voilas_installed_files_from_memory():
    """Voila's handlers of installed files answer from memory in classroom mode, Jupyter's
    public lab-extension files stay public, and the lesson folder's own files (allow- and
    deny-listed by voila.json) keep Voila's handler."""
    from jupyter_server.base.handlers import FileFindHandler
    from voila.static_file_handler import (
        AllowListFileHandler,
        MultiStaticFileHandler,
        TemplateStaticFileHandler,
    )

    from lessons_server.classroom import static_from_memory

    routes = [("/t/(.*)", TemplateStaticFileHandler), ("/s/(.*)", MultiStaticFileHandler,
                                                       {"paths": ["/x"]}),
              ("/l/(.*)", FileFindHandler, {"path": ["/y"]}),
              ("/f/(.*)", AllowListFileHandler, {"path": "/z"})]
    served = static_from_memory(routes)
    assert [r[0] for r in served] == [r[0] for r in routes]
    assert [r[2:] for r in served] == [r[2:] for r in routes]
    for (_, before, *_), (_, after, *_) in zip(routes[:3], served[:3], strict=True):
        assert after is not before and issubclass(after, before)
    assert served[3][1] is AllowListFileHandler
    assert getattr(served[2][1].get, "__allow_unauthenticated", False)


@pytest.mark.parametrize("static_cache,gzip_cache", [(True, True), (False, True),
                                                     (True, False), (False, False)])
def test_room_flags_leave_each_server_cache_out(monkeypatch, static_cache, gzip_cache):
    """``--no-static-cache`` and ``--no-gzip-cache`` (benchmarks/ab_caches.py's variants)
    leave out exactly their cache: Voila's own file handlers, tornado's own gzip."""
    import asyncio

    from tornado.web import GZipContentEncoding
    from voila.app import Voila
    from voila.static_file_handler import TemplateStaticFileHandler

    from lessons_server.classroom import CachedGzipContentEncoding

    flags = ["--no-static-cache"] * (not static_cache) + ["--no-gzip-cache"] * (not gzip_cache)
    args = classroom.parse(flags)
    assert (args.no_static_cache, args.no_gzip_cache) == (not static_cache, not gzip_cache)
    routes = [("/t/(.*)", TemplateStaticFileHandler)]
    monkeypatch.setattr(Voila, "init_handlers", lambda self: list(routes))
    monkeypatch.setattr(Voila, "init_settings", lambda self: {})
    room = classroom.classroom_voila(static_cache=not args.no_static_cache,
                                     gzip_cache=not args.no_gzip_cache)
    app = room.__new__(room)
    handler = app.init_handlers()[0][1]
    assert (handler is TemplateStaticFileHandler) is not static_cache
    assert issubclass(handler, TemplateStaticFileHandler)

    async def settings() -> dict:
        monkeypatch.setattr(room, "_announce", lambda self: asyncio.sleep(0))
        return app.init_settings()

    made = harness.run_async(settings())
    assert made["compress_response"] is True
    assert made["transforms"] == [CachedGzipContentEncoding if gzip_cache
                                  else GZipContentEncoding]
