PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: demo test test-llm lint install clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

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
	rm -rf $(VENV) .finqa
