# Tableside: one entry point for everything. `make serve` and `make test` set up what they need.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The URL the site is served at (Material's instant navigation reads it from sitemap.xml).
SITE_URL ?= http://127.0.0.1:$(PORT)/

.PHONY: help setup data golden site serve test lint test-py test-browser test-pyodide bench clean

help:
	@echo "make serve   set up, build and serve the site on http://127.0.0.1:$(PORT)/"
	@echo "make test    set up and run every test (browser and Pyodide tests included)"
	@echo "make site    build site/ only"
	@echo "make data    extract sources/ into rules_pkg/data/ and print the lint report"
	@echo "make bench   print speed and size figures"

# --- set-up: Python venv, npm packages, Debian's Chromium --------------------------------
$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade 'pip>=25.1'
	$(PY) -m pip install -q --group test
	touch $@

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

site: $(VENV)/.stamp node_modules/.stamp data
	TABLESIDE_SITE_URL=$(SITE_URL) $(PY) -m mkdocs build --strict

serve: setup site
	@echo "Serving http://127.0.0.1:$(PORT)/ (Ctrl-C to stop)"
	$(PY) -m http.server --bind 127.0.0.1 --directory site $(PORT)

# --- tests ---------------------------------------------------------------------------
lint: $(VENV)/.stamp node_modules/.stamp
	$(PY) -m ruff check rules_pkg scripts tests calculators
	$(PY) -m mypy rules_pkg
	$(PY) -m scripts.lint_workflows

# Pure-Python wheels (pytest, hypothesis) for the rules tests inside Pyodide under Node.
build/pyodide-wheels/.stamp: tests/pyodide/requirements.txt $(VENV)/.stamp
	$(PY) -m pip download -q --no-deps --only-binary=:all: --python-version 3.14 \
	  --platform any --implementation py -d build/pyodide-wheels -r tests/pyodide/requirements.txt
	touch $@

test-pyodide: build/pyodide-wheels/.stamp node_modules/.stamp
	node tests/pyodide/run.mjs

test: setup site lint
	$(PY) -m pytest
	$(MAKE) test-pyodide

bench: setup site
	$(PY) -m scripts.bench

clean:
	rm -rf site .pytest_cache .mypy_cache .ruff_cache
