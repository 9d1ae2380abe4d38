"""Contract fuzzing: schemathesis generates requests for every operation of the served OpenAPI
document, with all its checks: the app never answers 5xx, every answer matches the document, what
the document calls invalid is refused, and what it calls valid is never refused as malformed (400,
or 422 `invalid-request`). A valid-looking request the rules refuse (a move the game does not
allow) is answered 409/422 with its rule code: documented, and accepted here as such."""

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
from schemathesis.config._checks import PositiveDataAcceptanceConfig
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.specs.openapi.checks import ignored_auth, negative_data_rejection, positive_data_acceptance

from tests.conftest import make_test_app, migrated_sqlite
from tests.contract.regex_strategies import remembered_regex_strategies
from tests.openapi_document import openapi_document, openapi_document_copy

SERVED = "/api/openapi.json"


@cache
def contract_app() -> Flask:
    """The app under test on its own SQLite file, made on the first request (not at import: every
    collection of the suite paid for a migrated database and an app)."""
    folder = Path(tempfile.mkdtemp(prefix="kibitz-contract-"))
    return make_test_app(migrated_sqlite(folder / "contract.sqlite3"))


def uncompressed(environ: dict[str, Any], start_response: Any) -> Any:
    """The app as a client that takes no compression sees it: schemathesis' WSGI transport sends
    requests' default `Accept-Encoding` but never decodes the answer. (Compressed answers are
    checked through gunicorn: tests/api/test_compression.py.)"""
    environ["HTTP_ACCEPT_ENCODING"] = "identity"
    return contract_app()(environ, start_response)


def configure(config: schemathesis.config.SchemathesisConfig) -> None:
    """The same configuration on every schema this module fuzzes."""
    # Rule refusals of schema-valid requests are part of the contract (documented 409/422 with a code);
    # `valid_is_never_malformed` below keeps 400 and 422 `invalid-request` out of that allowance.
    config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=["2xx", "304", "401", "403", "404", "409", "422", "429"]
    )


# The committed document (already parsed for the other contract tests), which
# `test_the_fuzzed_document_is_the_served_one` proves is exactly what the app serves.
schema = schemathesis.openapi.from_dict(openapi_document_copy())
schema.app = uncompressed
schema.location = SERVED
configure(schema.config)


def test_the_fuzzed_document_is_the_served_one() -> None:
    """What is fuzzed is what an integrator downloads (tests/api/test_openapi.py ties the committed
    file to the schemas)."""
    served = contract_app().test_client().get(SERVED)
    assert served.status_code == 200 and served.get_json() == openapi_document()


def valid_is_never_malformed(ctx: Any, response: Any, case: schemathesis.Case) -> None:
    """A request the document calls valid is never refused as malformed."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code not in (400, 422):
        return
    code = response.json().get("code")
    if response.status_code == 400 or code == "invalid-request":
        raise AssertionError(f"{case.operation.label}: a valid request refused as malformed: {response.text}")


# As many examples per operation as the integrators' own trial used (80); CI pays ~20 s.
EXAMPLES_PER_OPERATION = 80


HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
OPERATIONS = [
    (method.upper(), path)
    for path, item in openapi_document()["paths"].items()
    for method in item
    if method in HTTP_METHODS
]


def big_valid_file_is_too_large_only(ctx: Any, response: Any, case: schemathesis.Case) -> None:
    """The BG Stats import takes a whole export's plays: a file the document calls valid may still
    be over the body limit (413, documented on every write), never refused otherwise."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    if response.status_code not in (200, 401, 403, 404, 409, 413, 422, 429):
        raise AssertionError(f"{case.operation.label}: a valid file answered {response.status_code}")


def honours_the_contract(case: schemathesis.Case) -> None:
    excluded = []
    extra = [valid_is_never_malformed]
    if case.operation.label == "POST /api/verify":
        # Verifying answers a record that breaks its format with 200 `valid: false` and the reason:
        # that is its job, not a refusal of the request.
        excluded.append(negative_data_rejection)
    if case.operation.label == "POST /api/groups/{group_id}/imports/bgstats":
        excluded.append(positive_data_acceptance)
        extra.append(big_valid_file_is_too_large_only)
    case.call_and_validate(excluded_checks=excluded, additional_checks=extra)


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
        excluded = [negative_data_rejection] if case.operation.label == "POST /api/verify" else []
        if "Authorization" in (case.headers or {}):
            # The token came from the creating answer through the document's links: a real one, so
            # a 200 is right (made-up tokens are checked by the phase above).
            excluded.append(ignored_auth)
        case.validate_response(
            response, excluded_checks=excluded, additional_checks=[valid_is_never_malformed]
        )


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
