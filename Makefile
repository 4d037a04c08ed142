# Every target sets up its own virtual environment, so a fresh clone needs only Python 3.11+.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

comma  := ,

.PHONY: test lint bench demo clean tox tox-min test-slow

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The editable install builds the compiled walk (.pyx) and the mypyc core (the extraction
# modules) in place: rebuilt when any of them changes, so the tests run what would ship.
# Which of them are compiled: newsspider/extraction/common/compiled_parts.py (read by setup.py).
CORE_SOURCES := setup.py $(shell find newsspider/extraction -name '*.py' -o -name '*.pyx' -o -name '*.pxd')

# INSTALL: a line before the build (the compile is silent and takes minutes the first time),
# its duration after, and whether the compiled core is in use (one notice when it is not).
# setuptools' "Editable installation" BuildBackendWarning (a UserWarning) is not for users.
define INSTALL
	@echo "newsspider: installing into $(VENV) and compiling the extraction core (Cython, mypyc: a few minutes the first time)..."
	@start=$$(date +%s); PYTHONWARNINGS=ignore::UserWarning $(PY) -m pip install --quiet -e '$(1)' \
	  && echo "newsspider: installed in $$(( $$(date +%s) - start )) s"
	@$(PY) -c "from newsspider.core_loader import COMPILED_CORE, PURE_REASON; print('newsspider: the compiled extraction core is in use' if COMPILED_CORE else 'NOTICE: newsspider runs its Python code (same output, slower): ' + PURE_REASON + '. To compile it, install a C compiler and the Python headers (e.g. apt-get install gcc python3-dev), then: make clean; make')"
endef

$(VENV)/.stamp-test: pyproject.toml $(CORE_SOURCES) | $(PY)
	$(call INSTALL,.[test])
	touch $@

$(VENV)/.stamp-bench: pyproject.toml $(CORE_SOURCES) | $(PY)
	$(call INSTALL,.[test$(comma)bench])
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

# The spark extra's requirements (pyspark: a few hundred MB) only where the Spark test runs,
# read from the installed metadata: `pip install -e .[spark]` would rebuild the compiled core.
$(VENV)/.stamp-spark: $(VENV)/.stamp-test
	$(PY) -c 'import importlib.metadata as m; print("\n".join(r.split(";")[0] for r in m.requires("newsspider") if "extra == \"spark\"" in r))' | xargs $(PY) -m pip install --quiet
	touch $@

# Slow end-to-end tests: a real Scrapyd, a shared crawl's faults (SIGKILL, Redis restart), the
# Spark job in local mode (needs Java 17+). CI runs them once (.ci/run).
test-slow: $(VENV)/.stamp-spark
	NEWSSPIDER_SLOW_TESTS=1 $(PY) -m pytest tests/test_scrapyd.py tests/test_shared_crawl_faults.py tests/test_spark.py

bench: $(VENV)/.stamp-bench
	$(PY) -m bench $(BENCH_ARGS)

demo: $(VENV)/.stamp-test
	$(PY) -m newsspider demo

clean:
	rm -rf $(VENV) .tox .pytest_cache .mypy_cache .ruff_cache build dist *.egg-info
	find newsspider/extraction \( -name '*.so' -o -name '_*_c.c' \) -delete
	rm -f newsspider/_compiled_sources.py *__mypyc*.so
