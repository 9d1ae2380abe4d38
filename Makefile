# The two commands: `make serve` and `make test`. Both set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: serve serve-home serve-cluster test install migrate static lint typecheck openapi bench bench-push bench-scale load first-visit clean lock

# Python packages come only from the lock (requirements/dev.txt: runtime + dev, every file's hash);
# the project itself is installed on top without resolving anything. `make lock` updates the lock.
LOCK := requirements/dev.txt
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# The locks, from pyproject.toml: runtime (what deploy/ installs) and runtime + dev (make, CI), with
# the same versions in both. Packages stay where they are unless asked: UPGRADE=1 moves every one to
# its newest allowed version, PACKAGE=name just that one. pip-tools runs in a venv of its own.
LOCK_VENV  := var/lock-venv
LOCK_FLAGS := --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
	$(if $(UPGRADE),--upgrade) $(if $(PACKAGE),--upgrade-package $(PACKAGE))
lock:
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/pip install --quiet pip-tools
	$(LOCK_VENV)/bin/pip-compile $(LOCK_FLAGS) --extra dev -o requirements/dev.txt pyproject.toml requirements/build.in
	$(LOCK_VENV)/bin/pip-compile $(LOCK_FLAGS) -c requirements/dev.txt -o requirements/runtime.txt pyproject.toml requirements/build.in

# Browser-side packages (Pyodide for the phone's referee), pinned in package-lock.json.
NPM_STAMP := node_modules/.installed-stamp
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NPM_STAMP)

install: $(STAMP) $(NPM_STAMP)

migrate: install
	$(BIN)/python -m api.db.migrate

# The phone app's files under content-hashed names with brotli/gzip siblings (api/phone/static_build.py).
# Incremental: only changed files are compressed again (the first build takes ~1 min for Pyodide).
static: install
	$(BIN)/python -m api.phone.static_build

serve: migrate static
	@$(BIN)/python -m devtools.phone_address
	$(BIN)/gunicorn -c gunicorn.conf.py wsgi:app

# Phones at home: deploy/ in supervisor mode under var/home — HTTPS (Caddy, its own certificate
# authority) on this laptop's network address, port 8443, two app servers, PostgreSQL and Redis of
# its own — and the address as a QR code. HOME_NAME overrides the address (a name the phones resolve).
HOME_NAME ?= $(shell $(PYTHON) -c "import sys; sys.path.insert(0, '.'); from devtools.phone_address import lan_address; print(lan_address())")
serve-home: install static
	$(PYTHON) deploy/kibitz_deploy.py --mode supervisor --name $(HOME_NAME) --tls internal --prefix var/home \
		--https-port 8443 --http-port 8080 --first-port 8101 --pg-port 5442 --redis-port 6389 \
		--venv $(VENV) --link-source --servers 2
	@$(BIN)/python -m devtools.phone_address
	$(BIN)/python deploy/supervise.py --prefix var/home

# Two app servers (:8001, :8002) on PostgreSQL (DATABASE_URL, default database `kibitz` on the
# local server) with rate limits shared in Redis; phones may stream from either.
serve-cluster: install static
	$(BIN)/python -m devtools.cluster

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy --strict api/rules

# The suite in two runs: everything but the deployment on parallel workers (pytest-xdist; whole files
# per worker so that a module's fixtures are made once, except schemathesis' operations, spread one
# by one: `xdist_group` marks from tests/conftest.py), the Chromium phones among the rest — both
# kinds keep the two cores busy, so one run costs what two did minus a collection, and the workers
# finish together (measured in docs/architecture.md); then the deployment alone: it brings up Caddy,
# two app servers, PostgreSQL and Redis and measures a hall of 300 phones, which a loaded machine
# skews (it failed once beside the browsers).
# TEST_WORKERS=1 for one process.
# Bytecode is cached even where the environment says PYTHONDONTWRITEBYTECODE (__pycache__ is
# ignored by git): without it every collection rewrote and compiled all ~500 test and project modules
# again, in each worker (collection 27 s of CPU, 12 s with the cache).
TEST_WORKERS ?= 2
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest
test: lint typecheck static
	$(PYTEST) -n $(TEST_WORKERS) --dist loadgroup -m "not deploy"
	$(PYTEST) -m deploy

openapi: install
	$(BIN)/python -m api.openapi_doc > openapi.yaml

bench: install
	$(BIN)/python -m benchmarks.run

# Kibitz beside boardgame.io 0.50.2 (socket.io): N phones on ONE table, a change every 200 ms,
# servers pinned to one core (benchmarks/push). QUICK=1 for 50 and 200 phones.
bench-push: install
	$(BIN)/python -m benchmarks.push $(if $(QUICK),--quick)

# Many tables on 1, 2 and 4 app servers on PostgreSQL (phones spread round-robin, one server killed
# mid-run; benchmarks/scale.py). Rounds go to docs/scale-runs-<date>.jsonl. QUICK=1 for a small shape.
bench-scale: install static
	$(BIN)/python -m benchmarks.scale $(if $(QUICK),--quick)

load: install
	$(BIN)/python -m benchmarks.load

# Bytes on the wire: first visit, repeat visit, a one-module release (Chromium's network events).
first-visit: static
	$(BIN)/python -m benchmarks.first_visit
	$(BIN)/python -m benchmarks.first_visit --proxy --no-bytes

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .mypy_cache .ruff_cache .hypothesis
