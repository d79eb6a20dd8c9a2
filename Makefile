# graphmem: the two README commands are `make run` and `make test`.
#
#   make setup   venv in .venv (Python 3.11), `pip install -e ".[dev]"`, the managed Neo4j
#                fetched from Maven Central and started, both schemas migrated
#   make run     setup, then `graphmem serve` (Ctrl-C stops the service; Neo4j keeps running)
#   make test    setup, a test Postgres (scripts/test-postgres.sh), then pytest
#                (PYTEST_ARGS='-m "not postgres"' etc. pass through)
#   make test-docker  the same tests against the official neo4j:5.26 and postgres:16 images
#                (testcontainers; needs a running Docker engine and stops at once without one)
#   make lint    ruff, mypy --strict and the import-linter contracts (scripts/lint.sh)
#   make stop    stop the managed Neo4j
#
# With GRAPHMEM_NEO4J_URI set (environment or .env) the managed Neo4j is neither fetched nor
# started: graphmem uses that server.

PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
GRAPHMEM := $(BIN)/graphmem
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

export PIP_DISABLE_PIP_VERSION_CHECK := 1

EXTERNAL_NEO4J := $(strip $(GRAPHMEM_NEO4J_URI)$(shell grep -s '^GRAPHMEM_NEO4J_URI=.' .env))

.PHONY: setup run test test-docker test-postgres lint stop help

help:
	@sed -n 's/^#   //p' Makefile

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
		|| { echo "graphmem needs Python 3.11: set PYTHON=/path/to/python3.11" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e ".[dev]"
	touch $@

setup: $(STAMP)
ifeq ($(EXTERNAL_NEO4J),)
	$(GRAPHMEM) neo4j install
	$(GRAPHMEM) neo4j start
else
	@echo "GRAPHMEM_NEO4J_URI is set: using that Neo4j, not the managed one"
endif
	$(GRAPHMEM) migrate up

run: setup
	$(GRAPHMEM) serve

test: setup test-postgres
	$(BIN)/pytest $(PYTEST_ARGS)

# Neither the managed Neo4j nor the local Postgres: tests/support/containers.py starts both
# images when a test first needs them and removes them at the end.
test-docker: $(STAMP)
	GRAPHMEM_TEST_DOCKER=1 $(BIN)/pytest $(PYTEST_ARGS)

# The Postgres the store tests use (skipped when GRAPHMEM_TEST_POSTGRES_URL is set).
test-postgres:
ifeq ($(strip $(GRAPHMEM_TEST_POSTGRES_URL)),)
	bash scripts/test-postgres.sh
endif

lint: $(STAMP)
	BIN=$(BIN) bash scripts/lint.sh

stop:
	@if [ -x $(GRAPHMEM) ] && [ -z "$(EXTERNAL_NEO4J)" ]; then $(GRAPHMEM) neo4j stop; fi
