# Tableside: one entry point for everything. `make serve` and `make test` set up what they need.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Bytecode caches (__pycache__/, ignored by git and left out of the runtime bundle) spare
# every later run the compiling, pytest's assertion rewriting included.
unexport PYTHONDONTWRITEBYTECODE
PORT ?= 8000
# The URL the site is served at (Material's instant navigation reads it from sitemap.xml).
SITE_URL ?= http://127.0.0.1:$(PORT)/
# `make test` builds site/ once for a port free now, and the tests serve that very site on
# it (instant navigation checks links against sitemap.xml, port included).
ifndef TEST_PORT
TEST_PORT := $(shell $(PYTHON) -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
endif

.PHONY: help setup lock data golden generate render finish site serve test test-fast test-js lint test-pyodide bench clean

help:
	@echo "make serve   set up, build and serve the site on http://127.0.0.1:$(PORT)/"
	@echo "make test    set up and run every test (browser and Pyodide tests included)"
	@echo "make test-fast  every test but the browser, Pyodide and extra-build ones"
	@echo "make test-js the browser's pure JavaScript under node --test"
	@echo "make lint    ruff, mypy, workflow lint and tsc (JavaScript types)"
	@echo "make site    build site/ only (GENERATOR=zensical: render with Zensical)"
	@echo "make generate | render | finish   one stage of make site"
	@echo "make data    extract sources/ into rules_pkg/data/ and print the lint report"
	@echo "make bench   print speed and size figures"

# --- set-up: Python venv, npm packages, Debian's Chromium --------------------------------
# Every package (and every dependency of one) is pinned with its files' SHA-256 in
# requirements/test.lock, made from pyproject.toml's `test` group by `make lock`.
$(VENV)/.stamp: requirements/test.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes --only-binary=:all: -r requirements/test.lock
	touch $@

# Re-make the lock after a change to pyproject.toml's dependency groups (pip-tools, in a
# venv of its own under build/: it is not a dependency of the site or the tests).
LOCK_VENV := build/lock-venv
lock:
	test -x $(LOCK_VENV)/bin/pip-compile || { $(PYTHON) -m venv $(LOCK_VENV) && \
	  $(LOCK_VENV)/bin/python -m pip install -q pip-tools==7.6.2; }
	$(PYTHON) scripts/lock.py test $(LOCK_VENV)/bin/pip-compile

node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }
	@command -v pdffonts >/dev/null || { \
	  echo "installing Debian's poppler-utils (the cheat sheets' PDF checks)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq poppler-utils; }

setup: $(VENV)/.stamp node_modules/.stamp chromium

# --- build ---------------------------------------------------------------------------
data: $(VENV)/.stamp
	$(PY) -m scripts.extract

golden: data
	@git --no-pager diff --stat -- rules_pkg/data tests/fixtures || true

# The site in four stages, each runnable alone (README: "The build in stages"):
# extract (data) -> generate -> render (the only stage that knows the site generator) -> finish.
GENERATOR ?= mkdocs
BUILD_DIR := build/stage
generate: $(VENV)/.stamp node_modules/.stamp
	$(PY) -m scripts.generate $(BUILD_DIR)

render: $(VENV)/.stamp
	TABLESIDE_SITE_URL=$(SITE_URL) $(PY) -m scripts.render $(GENERATOR) $(BUILD_DIR) site

finish: $(VENV)/.stamp node_modules/.stamp
	$(PY) -m scripts.finish site $(BUILD_DIR)

# Built again only when an input or site/ itself changed since the last build that passed
# (scripts/uptodate.py); FORCE=1 builds anyway.
site: $(VENV)/.stamp node_modules/.stamp data
	@if [ -z "$(FORCE)" ] && $(PY) -m scripts.uptodate check site $(GENERATOR) $(SITE_URL); then \
	  echo "site/ is up to date for $(SITE_URL) ($(GENERATOR)): nothing to build (FORCE=1 builds anyway)"; \
	else set -e; \
	  $(PY) -m scripts.generate $(BUILD_DIR); \
	  TABLESIDE_SITE_URL=$(SITE_URL) $(PY) -m scripts.render $(GENERATOR) $(BUILD_DIR) site; \
	  $(PY) -m scripts.finish site $(BUILD_DIR); \
	  $(PY) -m scripts.uptodate mark site $(GENERATOR) $(SITE_URL); fi

serve: setup site
	@echo "Serving http://127.0.0.1:$(PORT)/ (Ctrl-C to stop)"
	$(PY) -m http.server --bind 127.0.0.1 --directory site $(PORT)

# --- tests ---------------------------------------------------------------------------
# The JSON contracts (the registry's shapes, rules_pkg/shapes.py; runtime.json, runtime.py)
# as TypeScript declarations for the calculators' JSDoc types: generated, so kept under build/ (tsconfig.json includes it).
TYPES := build/types/contracts.d.ts
$(TYPES): rules_pkg/shapes.py scripts/site/runtime.py scripts/types_gen.py $(VENV)/.stamp
	$(PY) -m scripts.types_gen $@

lint: $(VENV)/.stamp node_modules/.stamp $(TYPES)
	$(PY) -m ruff check rules_pkg scripts tests calculators
	$(PY) -m mypy rules_pkg
	$(PY) -m scripts.lint_workflows
	node_modules/.bin/tsc -p tsconfig.json  # the browser's JavaScript, by its JSDoc types

# Pure-Python wheels (pytest, hypothesis) for the rules tests inside Pyodide under Node.
build/pyodide-wheels/.stamp: tests/pyodide/requirements.txt $(VENV)/.stamp
	$(PY) -m pip download -q --no-deps --only-binary=:all: --python-version 3.14 \
	  --platform any --implementation py --require-hashes -d build/pyodide-wheels \
	  -r tests/pyodide/requirements.txt
	touch $@

test-pyodide: build/pyodide-wheels/.stamp node_modules/.stamp
	node tests/pyodide/run.mjs

# One build per run: every test reads the site built here (tests that need a build of
# their own, e.g. from hostile sources, build into a temporary folder).
test: SITE_URL = http://127.0.0.1:$(TEST_PORT)/
test: setup site lint test-js
	TABLESIDE_SITE_DIR=$(CURDIR)/site $(PY) -m pytest
	$(MAKE) test-pyodide

# The quick lane for work in progress: no browser, no Pyodide, no extra builds, on every
# core (pytest-xdist). Nothing is served, so it reads the site `make serve` builds (same
# URL): built again only if stale.
test-fast: $(VENV)/.stamp node_modules/.stamp site $(TYPES)
	TABLESIDE_SITE_DIR=$(CURDIR)/site $(PY) -m pytest -q -n auto -m "not browser and not build and not hostile"

# The browser's pure JavaScript (formatting, link checks, the snapshot container) under Node.
test-js: node_modules/.stamp
	node --test tests/js/

# Lighthouse is the bench's own npm project (scripts/bench/lighthouse/), pinned in its lock
# and installed into build/lighthouse (git-ignored) for `make bench` only: never by setup.
LIGHTHOUSE_DIR := build/lighthouse
$(LIGHTHOUSE_DIR)/.stamp: scripts/bench/lighthouse/package.json scripts/bench/lighthouse/package-lock.json
	mkdir -p $(LIGHTHOUSE_DIR)
	cp $^ $(LIGHTHOUSE_DIR)/
	cd $(LIGHTHOUSE_DIR) && npm ci --no-audit --no-fund --ignore-scripts
	touch $@

bench: setup site $(LIGHTHOUSE_DIR)/.stamp
	$(PY) -m scripts.bench --lighthouse

clean:
	rm -rf site .pytest_cache .mypy_cache .ruff_cache
