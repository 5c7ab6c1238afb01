# The two commands of the README: `make build` and `make test`. Each sets up what it needs in .venv.
# `make lint` (ruff and mypy) runs in CI with the tests; `make test-fast` is the inner loop.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

# Python keeps the bytecode it compiles, whatever the shell says (PYTHONDONTWRITEBYTECODE set in the environment
# made every process of a clean clone's test run compile pnpgen again, 70 ms each, and every xdist worker rewrite
# the tests' asserts again); __pycache__ is ignored by git and by pnpgen's own code digest
unexport PYTHONDONTWRITEBYTECODE

# the suite on up to four cores, each test file in one worker (a file's tests keep their order and its fixtures)
PARALLEL := -n auto --maxprocesses 4 --dist loadfile

.PHONY: build test test-fast lint format bench ink clean portable

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Editable installs in setuptools' "compat" mode: a .pth line naming this folder, where the default mode imports a
# finder module at every start of Python (10-15 ms of the 80 ms `pnpgen build` takes when nothing changed).
COMPAT := --config-settings editable_mode=compat

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(COMPAT) -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(COMPAT) -e '.[test]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(COMPAT) -e '.[dev]'
	touch $@ $(VENV)/.installed

build: $(VENV)/.installed
	$(BIN)/pnpgen build

# The serve page test drives Debian's chromium, and the PDF/X and CMYK tests check with ghostscript (and its ICC
# profiles): installed here where apt-get can (each test skips, saying why, where its tool is missing).
test: $(VENV)/.installed-test
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || \
		echo "chromium is not installed: the serve page test will be skipped"
	@command -v gs >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q ghostscript >/dev/null 2>&1; } || \
		echo "ghostscript is not installed: the PDF/X and CMYK tests will be skipped"
	PNPGEN_TEST_ONE_CORE=1 $(BIN)/python -m pytest -q $(PARALLEL)

# everything but the tests marked slow (each of those builds or rasterises a lot): under a minute. Both runs build
# in the test's process unless a test asks for workers (tests/conftest.py: _one_core_when_asked)
test-fast: $(VENV)/.installed-test
	PNPGEN_TEST_ONE_CORE=1 $(BIN)/python -m pytest -q -m "not slow" $(PARALLEL)

# pnpgen as Windows runs it, proved here: every command on CRLF + BOM content, without os.fork, setitimer or SIGALRM,
# spawned workers, a cp1252 console; the PDFs and PNGs byte-identical to the ordinary run's (tests/portable/run.py)
portable: $(VENV)/.installed
	$(BIN)/python tests/portable/run.py

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(VENV)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf output/*/ $(VENV)

bench: $(VENV)/.installed
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/serve_latency.py
	$(BIN)/python bench/peers/squib.py

ink: $(VENV)/.installed
	$(BIN)/python bench/ink.py
