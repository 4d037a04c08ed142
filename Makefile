# Every target sets up its own virtual environment, so a fresh clone needs only Python 3.11+.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: test lint bench demo clean tox tox-min

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The editable install builds the compiled walk (.pyx) and the mypyc core (the extraction
# modules) in place: rebuilt when any of them changes, so the tests run what would ship.
# Which of them are compiled: newsspider/extraction/common/compiled_parts.py (read by setup.py).
CORE_SOURCES := setup.py $(shell find newsspider/extraction -name '*.py' -o -name '*.pyx')

$(VENV)/.stamp-test: pyproject.toml $(CORE_SOURCES) | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.stamp-bench: pyproject.toml $(CORE_SOURCES) | $(PY)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

# Then the tests that spy on the core's internals, on its Python sources (compiled modules
# call each other directly, past a replaced attribute).
test: $(VENV)/.stamp-test
	$(PY) -m pytest
	NEWSSPIDER_PURE_PYTHON=1 $(PY) -m pytest -m spies_on_core

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check newsspider tests bench
	$(BIN)/ruff format --check newsspider tests bench
	$(BIN)/mypy

# The suite against the dependency floors and the newest releases (tox.ini); what CI runs.
tox: $(VENV)/.stamp-test
	$(BIN)/tox -e min,latest

# The floors only: CI runs `make test` (the newest releases) and this.
tox-min: $(VENV)/.stamp-test
	$(BIN)/tox -e min

bench: $(VENV)/.stamp-bench
	$(PY) -m bench $(BENCH_ARGS)

demo: $(VENV)/.stamp-test
	$(PY) -m newsspider demo

clean:
	rm -rf $(VENV) .tox .pytest_cache .mypy_cache .ruff_cache build dist *.egg-info
	find newsspider/extraction \( -name '*.so' -o -name '_*_c.c' \) -delete
	rm -f newsspider/_compiled_sources.py *__mypyc*.so
