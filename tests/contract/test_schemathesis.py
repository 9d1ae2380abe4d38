"""Contract fuzzing: schemathesis generates requests for every operation of the served OpenAPI
document; the app must never answer 5xx, and every answer must match the document."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from api.db.migrate import upgrade
from tests.conftest import make_test_app

_database = Path(tempfile.mkdtemp(prefix="kibitz-contract-")) / "contract.sqlite3"
upgrade(f"sqlite:///{_database}")
app = make_test_app(f"sqlite:///{_database}")
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)

# As many examples per operation as the integrators' own trial used (80); CI pays ~20 s.
EXAMPLES_PER_OPERATION = 80


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_honours_the_contract(case: schemathesis.Case) -> None:
    # Every check but "schema-valid data is accepted": the document types options and events as
    # objects, and the rules refuse most random ones with a 422 that is itself documented.
    excluded = [positive_data_acceptance]
    if case.operation.label == "POST /api/verify":
        # Verifying answers a record that breaks its format with 200 `valid: false` and the reason:
        # that is its job, not a refusal of the request.
        excluded.append(negative_data_rejection)
    case.call_and_validate(excluded_checks=excluded)


CALLS: list[tuple[str, int]] = []


class KibitzWorkflow(schema.as_state_machine()):  # type: ignore[misc]
    """The stateful phase: sequences of calls that follow the document's links (a new table's id,
    tokens and seats into the operations that use them), checked the same way."""

    def after_call(self, response: Any, case: schemathesis.Case) -> None:
        CALLS.append((case.operation.label, response.status_code))

    def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
        case.validate_response(response, excluded_checks=[positive_data_acceptance])


def test_stateful_sequences_follow_the_links() -> None:
    CALLS.clear()
    KibitzWorkflow.run(
        settings=settings(
            max_examples=60,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )
    # Operations on a real table, its id learnt from the links: a made-up id would get 404.
    reached = {label for label, status in CALLS if "{table_id}" in label and status != 404}
    assert reached, sorted(set(CALLS))
