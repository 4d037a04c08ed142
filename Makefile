# Every target sets up its own virtual environment, so a fresh clone needs only Python 3.11+.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: test lint bench demo clean tox tox-min

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# setup.py and the .pyx: the editable install builds the compiled walk in place (rebuild on change).
$(VENV)/.stamp-test: pyproject.toml setup.py newsspider/extraction/_segments_c.pyx newsspider/extraction/_markup_c.pyx newsspider/extraction/_class_words_c.pyx | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.stamp-bench: pyproject.toml setup.py newsspider/extraction/_segments_c.pyx newsspider/extraction/_markup_c.pyx newsspider/extraction/_class_words_c.pyx | $(PY)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

test: $(VENV)/.stamp-test
	$(PY) -m pytest

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
