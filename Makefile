# Every target bootstraps .venv on a fresh machine (python3 -m venv, pip install -e .[dev]).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint bench bench-quick clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# On every core: each worker has its own tmp folders, ports, PostgreSQL cluster and Chromium;
# worksteal keeps both busy to the end (a few tests take far longer than the rest). Bytecode is
# cached even where the environment says not to (PYTHONDONTWRITEBYTECODE): every worker and
# every process a test starts (companion serve, demo, league) would compile the package again.
test: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n auto --dist worksteal

demo: $(STAMP)
	@echo "From a tablet on this network: make demo ARGS=--lan, then scan the QR code it prints."
	$(BIN)/companion demo $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check companion tests cards/tools bench firmware .ci/check-aarch64-deps
	$(BIN)/ruff format --check companion tests cards/tools bench firmware .ci/check-aarch64-deps
	$(BIN)/mypy
	$(BIN)/mypy .ci/check-aarch64-deps

bench: $(STAMP)
	$(BIN)/python bench/run.py --out bench/results.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# A subset of the benchmarks in under a minute, beside the targets and bench/baseline.json.
bench-quick: $(STAMP)
	$(BIN)/python bench/quick.py
