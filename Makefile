# Every target sets itself up: it creates .venv when missing and reinstalls the project
# whenever pyproject.toml changes. Nothing else needs to be installed first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8866
PYTEST_ARGS ?=
# `make test` leaves out the tests marked slow; `make test-slow` runs only those, and
# `make test-all` both. PYTEST_ARGS adds to either (a `-m` in it replaces MARKERS).
MARKERS ?= not slow

.PHONY: lab afresh voila classroom hub hub-setup test test-slow test-all test-plain bench lint \
	clean setup locale

setup: $(STAMP) locale

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server,test]'
	touch $(STAMP)

# The Korean catalogue, compiled: lessons_lib/locale/ko/LC_MESSAGES/lessons.po -> .mo
# (git-ignored; lessons_lib/i18n.py compiles the .po in memory where the .mo is missing).
locale: $(STAMP)
	$(BIN)/pybabel compile --domain=lessons --directory=lessons_lib/locale

# Self-study: JupyterLab on a working copy of the lessons in $(WORK) (git-ignored), made on
# first use; outputs and edits are saved there and notebooks/ stays as shipped.
# `make afresh LESSON=03_spline_steering` starts one lesson again (tools/workcopy.py).
# LAB_ARGS adds to jupyter lab's own, e.g. LAB_ARGS="--no-browser --port=8899".
WORK     ?= my-lessons
LAB_ARGS ?=
lab: $(STAMP)
	$(BIN)/python tools/workcopy.py $(WORK)
	$(BIN)/jupyter lab --notebook-dir=$(WORK) $(LAB_ARGS)

afresh: $(STAMP)
	$(if $(LESSON),,$(error name the lesson: make afresh LESSON=03_spline_steering))
	$(BIN)/python tools/workcopy.py $(WORK) --afresh $(LESSON)

# Voila with its own arguments, landing on the lessons' index (lessons_server/landing.py).
voila: $(STAMP)
	@echo ""
	@echo "  Lessons at:  http://$(HOST):$(PORT)/   (Ctrl+C to stop)"
	@echo ""
	JUPYTER_PATH=$(CURDIR)/share/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH} \
		$(BIN)/python -m lessons_server.landing notebooks --no-browser --Voila.ip=$(HOST) --port=$(PORT) \
		--VoilaConfiguration.template=lessons

# For a room: all interfaces, a random token, the address printed in block letters.
# `make classroom LESSON=02_euler_vs_slerp STUDENTS=30` pre-heats one kernel per student for
# today's lesson (one for every other notebook) and refills only once the room has arrived.
# Each kernel runs under a memory cap (lessons_server/memcap.py); MEMORY_MB=1536 changes it.
LESSON   ?=
STUDENTS ?= 10
MEMORY_MB ?=
classroom: $(STAMP)
	$(BIN)/python -m lessons_server.room --port=$(PORT) $(if $(LESSON),--lesson=$(LESSON) --students=$(STUDENTS)) $(if $(MEMORY_MB),--memory-mb=$(MEMORY_MB))

# A trial JupyterHub of deploy/jupyterhub_config.py on loopback (docs/hub.md): a throwaway
# password, the address printed. hub-setup installs JupyterHub (the `hub` extra) and the
# proxy (npm, into deploy/node_modules); the slow tests need both.
HUB_PORT  ?= 8000
HUB_STAMP := $(VENV)/.hub-installed
hub-setup: $(HUB_STAMP)

$(HUB_STAMP): pyproject.toml deploy/package-lock.json $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[server,test,hub]'
	cd deploy && npm ci --no-audit --no-fund --loglevel=error
	touch $(HUB_STAMP)

hub: $(HUB_STAMP)
	$(BIN)/python deploy/trial.py --port=$(HUB_PORT)

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest -m "$(MARKERS)" $(PYTEST_ARGS)

# The app, notebook and browser tests again with the drawing fast path off (plain ipympl,
# LESSONS_FAST_DRAW=0): the lessons must work without it. CI runs it after `make test`.
PLAIN_TESTS = tests/test_app_*.py tests/test_apps_common.py tests/test_fuzz_controls.py \
	tests/test_gif.py tests/test_notebooks.py tests/test_browser_*.py
test-plain: $(STAMP)
	LESSONS_FAST_DRAW=0 $(BIN)/python -m pytest -m "$(MARKERS)" $(PYTEST_ARGS) $(PLAIN_TESTS)

test-slow: $(STAMP) $(HUB_STAMP)
	$(BIN)/python -m pytest -m slow $(PYTEST_ARGS)

test-all: lint $(HUB_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) tests/screenshots .pytest_cache deploy/node_modules .hub
