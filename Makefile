# Two entry points: `make demo` (grade the bundled examples) and `make test`.
# Both set up everything they need on a fresh Debian machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test test-fast test-unit lint docs bench system-deps bubblewrap chromium clean

# The grader and what it runs on: all `make demo` needs.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

# The test tools on top (pytest, jsonschema, playwright, Dask, MkDocs): only for the tests and docs.
$(DEV_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

# bubblewrap isolates student kernels (the demo and the tests); chromium renders the
# reports in the browser test only. Each is installed when missing and we are allowed to.
bubblewrap:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap) >/dev/null \
	      || echo "warning: could not install bubblewrap; grading will refuse until it is installed or --sandbox limits is chosen"; \
	  else echo "note: bubblewrap not installed (sudo apt-get install bubblewrap); grading will refuse until it is installed or --sandbox limits is chosen"; fi; }

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
	      || echo "warning: could not install chromium; the browser test of the reports will be skipped"; \
	  else echo "note: chromium not installed (sudo apt-get install chromium); the browser test of the reports will be skipped"; fi; }

system-deps: bubblewrap chromium

demo: $(STAMP) bubblewrap
	$(PY) -m grader demo

# Style and types first (seconds), then the manual, then the suite on every core: most of its
# time is spent waiting on student kernels. Each module runs whole on one worker, the slow ones
# first (tests/conftest.py).
# Where bubblewrap cannot run (no root to install it, no user namespaces) the suite chooses
# resource limits for its kernels by name, and says so: grading never falls back by itself.
test: lint docs system-deps
	@if $(PY) -c 'import sys; from grader.execution.bwrap import bwrap_problem; sys.exit(bwrap_problem() is not None)'; then \
	  $(PY) -m pytest -n auto --dist loadscope --no-loadscope-reorder; \
	else \
	  echo "note: bubblewrap cannot run here; the tests run kernels with resource limits (GRADER_SANDBOX=limits)"; \
	  GRADER_SANDBOX=limits $(PY) -m pytest -n auto --dist loadscope --no-loadscope-reorder; \
	fi

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m mypy

# The manual (docs/) as a static site in site/. Strict mode (also set in mkdocs.yml): a broken
# link or anchor, or a page left out of the nav, fails the build. Not --quiet: it hides the
# warnings from strict mode's count, and the build then passes whatever they say.
docs: $(DEV_STAMP)
	$(VENV)/bin/mkdocs build --strict

test-fast: $(DEV_STAMP)
	$(PY) -m pytest -n auto --dist loadscope --no-loadscope-reorder -m 'not slow'

# The pure unit layer: no kernels, no worker processes.
test-unit: $(DEV_STAMP)
	$(PY) -m pytest -m 'not kernel'

clean:
	rm -rf $(VENV) build *.egg-info demo-out site
