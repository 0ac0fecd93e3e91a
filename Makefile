# make run   — measure slopmark's own source (the embedded default) and print the report
# make test  — the whole test suite
# make check — lint, types and the dogfood gate
# make bench — the speed and fidelity benchmarks (needs network for peers)
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test check bench clean

$(PY):
	python3 -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/slopmark code measure src/

test: $(STAMP)
	$(PY) -m pytest -q

check: $(STAMP)
	$(VENV)/bin/ruff check src tests $(wildcard benchmarks)
	$(VENV)/bin/mypy
	$(VENV)/bin/slopmark code measure src/ --top 0 --fail-over erosion=0.21 --fail-over verbosity=0.11

bench: $(STAMP)
	$(PY) benchmarks/code_measure.py

clean:
	rm -rf $(VENV) build *.egg-info
