# The two commands of the README: `make build` and `make test`. Each sets up what it needs in .venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: build test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@ $(VENV)/.installed

build: $(VENV)/.installed
	$(BIN)/pnpgen build

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

clean:
	rm -rf output/*/ $(VENV)

bench: $(VENV)/.installed
	$(BIN)/python bench/bench.py
