PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: demo test test-llm lint install lock clean

# Installs from requirements.lock (every dependency, transitive ones included, pinned with
# hashes); torch is pinned on its own first, so pip takes the CPU build our machines keep on disk.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet pip==26.3
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Refresh requirements.lock after changing pyproject.toml's dependencies (pip-tools, in a venv
# of its own; torch stays outside the lock, see above). `make test` fails while they disagree.
lock:
	test -x .venv-lock/bin/pip-compile || ($(PY) -m venv .venv-lock && .venv-lock/bin/pip install --quiet pip-tools==7.6.2)
	.venv-lock/bin/pip-compile --quiet --extra test --generate-hashes --strip-extras \
	  --unsafe-package torch --unsafe-package setuptools --unsafe-package pip \
	  --no-emit-find-links --no-emit-index-url -o requirements.lock pyproject.toml

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/finqa demo

test: $(STAMP)
	$(BIN)/python -m pytest

# The LLM path on a real model: starts ../shared/llm/serve-local.sh unless a server already
# listens (8011 is reused; otherwise one is started on TEST_LLM_OWN_PORT, default 8012, and
# stopped afterwards), then runs tests/llm. Prints one SKIPPED line if the server cannot be installed.
test-llm: $(STAMP)
	.ci/test-llm

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	mkdir -p $(VENV)/mypy-path && ln -sfn "$(CURDIR)" $(VENV)/mypy-path/finqa
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .venv-lock .finqa
