# The two commands: `make serve` and `make test`. Both set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: serve serve-cluster test install migrate static lint typecheck openapi bench bench-push load first-visit clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Browser-side packages (Pyodide for the phone's referee), pinned in package-lock.json.
NPM_STAMP := node_modules/.installed-stamp
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NPM_STAMP)

install: $(STAMP) $(NPM_STAMP)

migrate: install
	$(BIN)/python -m api.db.migrate

# The phone app's files under content-hashed names with brotli/gzip siblings (api/http/static_build.py).
# Incremental: only changed files are compressed again (the first build takes ~1 min for Pyodide).
static: install
	$(BIN)/python -m api.http.static_build

serve: migrate static
	$(BIN)/gunicorn -c gunicorn.conf.py wsgi:app

# Two app servers (:8001, :8002) on PostgreSQL (DATABASE_URL, default database `kibitz` on the
# local server) with rate limits shared in Redis; phones may stream from either.
serve-cluster: install static
	$(BIN)/python -m devtools.cluster

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy --strict api/rules

# The suite on parallel workers (pytest-xdist), whole files per worker so that a module's fixtures
# (gunicorns, apps) are made once; TEST_WORKERS=1 for one process. Measured in docs/architecture.md.
TEST_WORKERS ?= 3
test: lint typecheck static
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

openapi: install
	$(BIN)/python -m api.http.openapi_doc > openapi.yaml

bench: install
	$(BIN)/python -m benchmarks.run

# Kibitz beside boardgame.io 0.50.2 (socket.io): N phones on ONE table, a change every 200 ms,
# servers pinned to one core (benchmarks/push). QUICK=1 for 50 and 200 phones.
bench-push: install
	$(BIN)/python -m benchmarks.push $(if $(QUICK),--quick)

load: install
	$(BIN)/python -m benchmarks.load

# Bytes on the wire: first visit, repeat visit, a one-module release (Chromium's network events).
first-visit: static
	$(BIN)/python -m benchmarks.first_visit

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .mypy_cache .ruff_cache .hypothesis
