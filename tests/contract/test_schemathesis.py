"""Contract fuzzing: schemathesis generates requests for every operation of the served OpenAPI
document; the app must never answer 5xx, and every answer must match the document."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.db.migrate import upgrade
from tests.conftest import make_test_app

_database = Path(tempfile.mkdtemp(prefix="kibitz-contract-")) / "contract.sqlite3"
upgrade(f"sqlite:///{_database}")
app = make_test_app(f"sqlite:///{_database}")
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)

# Bounded so CI stays quick; every operation still gets its share of examples.
EXAMPLES_PER_OPERATION = 25


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_honours_the_contract(case: schemathesis.Case) -> None:
    # Every check but "schema-valid data is accepted": the document types options and events as
    # objects, and the rules refuse most random ones with a 422 that is itself documented.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
