# Every target bootstraps .venv on a fresh machine (python3 -m venv, pip install -e .[dev]).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

demo: $(STAMP)
	$(BIN)/companion demo

lint: $(STAMP)
	$(BIN)/ruff check companion tests cards/tools bench firmware .ci/check-aarch64-deps
	$(BIN)/ruff format --check companion tests cards/tools bench firmware .ci/check-aarch64-deps
	$(BIN)/mypy
	$(BIN)/mypy .ci/check-aarch64-deps

bench: $(STAMP)
	$(BIN)/python bench/run.py --out bench/results.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
