# The two commands: `make serve` and `make test`. Both set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: serve test install migrate lint typecheck openapi bench load clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python -m api.db.migrate

serve: migrate
	$(BIN)/gunicorn -c gunicorn.conf.py wsgi:app

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy --strict api/rules

test: lint typecheck
	$(BIN)/pytest

openapi: install
	$(BIN)/python -m api.http.openapi_doc > openapi.yaml

bench: install
	$(BIN)/python -m benchmarks.run

load: install
	$(BIN)/python -m benchmarks.load

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .hypothesis
