"""Contract fuzzing: schemathesis generates requests for every operation of the served OpenAPI
document, with all its checks and its default configuration, against the app as `make serve`
configures it (its rate limits included; only its streams end after their first event, as a fuzzer
needs): the app never answers 5xx, every answer matches the document, what the document calls
invalid is refused, and what it calls valid is accepted. One allowance, narrower than schemathesis'
own switch for it: a well-formed request refused for what JSON Schema cannot say (a move the
position does not allow, two players with one turtle colour, head to head of a player with
themself, a fourth combining mark that only Unicode normalisation brings) is answered 422 with its
documented code; never 400 and never 422 `invalid-request`."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import load_all_checks
from schemathesis.config._checks import POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
)

from api.app import create_app
from api.contract.problem_codes import catalog
from tests.conftest import TEST_LIMITS, migrated_sqlite
from tests.contract.regex_strategies import remembered_regex_strategies
from tests.openapi_document import openapi_document, openapi_document_copy

SERVED = "/api/openapi.json"


@cache
def contract_app() -> Flask:
    """The app under test on its own SQLite file, as `make serve` runs it (made on the first
    request, not at import: every collection of the suite paid for a migrated database and an app)."""
    folder = Path(tempfile.mkdtemp(prefix="kibitz-contract-"))
    return create_app(migrated_sqlite(folder / "contract.sqlite3"), KIBITZ_STREAM_LIFETIME=0.0)


def uncompressed(environ: dict[str, Any], start_response: Any) -> Any:
    """The app as a client that takes no compression sees it: schemathesis' WSGI transport sends
    requests' default `Accept-Encoding` but never decodes the answer. (Compressed answers are
    checked through gunicorn: tests/api/test_compression.py.)"""
    environ["HTTP_ACCEPT_ENCODING"] = "identity"
    return (stateful_app() if STATEFUL else contract_app())(environ, start_response)


STATEFUL: list[bool] = []


@cache
def stateful_app() -> Flask:
    """The same app for the stateful phase, but with the rate limits out of the way: its sequences
    are replayed by hypothesis, and an answer that depends on the clock (429 now, 201 a minute
    later) makes a replay go another way than the run it repeats."""
    folder = Path(tempfile.mkdtemp(prefix="kibitz-contract-"))
    return create_app(
        migrated_sqlite(folder / "stateful.sqlite3"), KIBITZ_STREAM_LIFETIME=0.0, **TEST_LIMITS
    )


# The committed document (already parsed for the other contract tests), which
# `test_the_fuzzed_document_is_the_served_one` proves is exactly what the app serves.
schema = schemathesis.openapi.from_dict(openapi_document_copy())
schema.app = uncompressed
schema.location = SERVED


def test_the_fuzzed_document_is_the_served_one() -> None:
    """What is fuzzed is what an integrator downloads (tests/api/test_openapi.py ties the committed
    file to the schemas)."""
    served = contract_app().test_client().get(SERVED)
    assert served.status_code == 200 and served.get_json() == openapi_document()


@cache
def refusal_codes() -> frozenset[str]:
    """Every code the service refuses a well-formed request with (api/contract/problem_codes.json): the
    rules' refusals and the few checks JSON Schema cannot say — never `invalid-request`."""
    return frozenset(catalog()["codes"]) - {"invalid-request"}


def valid_is_accepted(ctx: Any, response: Any, case: schemathesis.Case) -> None:
    """schemathesis' positive_data_acceptance with its default statuses; a 422 only as a documented
    refusal (the rules', or a check the schema cannot say), never as a malformed request."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    status = response.status_code
    if status == 413 and case.operation.label == "POST /api/groups/{group_id}/imports/bgstats":
        return  # a whole BG Stats export the document calls valid may be over the body limit (413)
    allowed = any(
        str(status) == code or (code.endswith("xx") and str(status)[0] == code[0])
        for code in POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES
    )
    if allowed:
        return
    code = response.json().get("code") if status == 422 else None
    if code not in refusal_codes():
        raise AssertionError(f"{case.operation.label}: a valid request refused ({status}): {response.text}")


# As many examples per operation as the integrators' own trial used (80); CI pays ~20 s.
EXAMPLES_PER_OPERATION = 80


HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
OPERATIONS = [
    (method.upper(), path)
    for path, item in openapi_document()["paths"].items()
    for method in item
    if method in HTTP_METHODS
]


def honours_the_contract(case: schemathesis.Case) -> None:
    excluded = []
    if case.operation.label == "POST /api/verify":
        # Verifying answers a record that breaks its format with 200 `valid: false` and the reason:
        # that is its job, not a refusal of the request.
        excluded.append(negative_data_rejection)
    case.call_and_validate(
        excluded_checks=[*excluded, positive_data_acceptance, *stream_exclusions(case)],
        additional_checks=[valid_is_accepted],
    )


@cache
def feedback() -> FeedbackSources:
    """What schemathesis' own pytest collection gives every operation of a schema."""
    return FeedbackSources(constants_value_source=make_constants_value_source(schema))


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_every_operation_honours_the_contract(method: str, path: str) -> None:
    """One test per operation, with every phase schemathesis' `schema.parametrize()` runs (explicit
    examples, coverage cases, fuzzing). Built here, not by `schema.parametrize()`: that builds every
    operation's examples and coverage cases while *collecting* (~1 s of CPU each), which was most of
    the suite's collection time and which every parallel worker paid again. (Its lazy loader,
    `schemathesis.pytest.from_fixture`, fails under pytest 9.)"""
    load_all_checks()
    test = build_operation_test(
        config=schema.config,
        operation=schema[path][method],
        test_func=honours_the_contract,
        given_kwargs={},
        feedback=feedback(),
        explicit_settings=settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    test()


@pytest.fixture(autouse=True)
def _one_strategy_per_pattern() -> Iterator[None]:
    with remembered_regex_strategies():
        yield


CALLS: list[tuple[str, int]] = []


class KibitzWorkflow(schema.as_state_machine()):  # type: ignore[misc]
    """The stateful phase: sequences of calls that follow the document's links (a new table's id,
    tokens and seats into the operations that use them), checked the same way."""

    def after_call(self, response: Any, case: schemathesis.Case) -> None:
        CALLS.append((case.operation.label, response.status_code))

    def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
        excluded = [positive_data_acceptance]
        if case.operation.label == "POST /api/verify":
            excluded.append(negative_data_rejection)
        if "Authorization" in (case.headers or {}):
            # The token came from the creating answer through the document's links: a real one, so
            # a 200 is right (made-up tokens are checked by the phase above).
            excluded.append(ignored_auth)
        excluded += stream_exclusions(case)
        case.validate_response(response, excluded_checks=excluded, additional_checks=[valid_is_accepted])


def stream_exclusions(case: schemathesis.Case) -> list[Any]:
    """A live stream's events are typed with their `data:` line parsed (`TableStreamEvent`,
    `GroupStreamEvent`: what the examples' SSE helpers and generated models read), while
    schemathesis checks that line as the raw string it is; every event, parsed, is checked against
    the document by tests/contract/test_generated_stream.py and test_stream_client.py instead."""
    return [response_schema_conformance] if case.operation.path.endswith("/stream") else []


def run_workflow() -> None:
    KibitzWorkflow.run(
        settings=settings(
            max_examples=60,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )


def test_stateful_sequences_follow_the_links() -> None:
    CALLS.clear()
    STATEFUL.append(True)
    try:
        run_workflow()
    finally:
        STATEFUL.clear()
    # Operations on a real table, its id learnt from the links: a made-up id would get 404.
    reached = {label for label, status in CALLS if "{table_id}" in label and status != 404}
    assert reached, sorted(set(CALLS))
