"""Rate limits documented and sent (issue 35): every operation whose view can answer 429 documents
it (with `Retry-After`, and the IETF `RateLimit` / `RateLimit-Policy` fields where a quota counted),
its quotas are in its description, and a real gunicorn sends the fields on every answer of a
counting operation — ticking down to the 429 — and on wrong-token refusals."""

from __future__ import annotations

import inspect
import re
import uuid
from collections.abc import Iterator

import pytest
import requests

from api.app import create_app
from api.http.limits import COUNTED, LIMITED_OPERATIONS
from devtools.gunicorn import GunicornProcess
from tests.conftest import TEST_LIMITS, migrated_sqlite
from tests.openapi_document import openapi_document

DOC = openapi_document()
# What in a view (or the decorators around it) can refuse with 429.
CAN_REFUSE = re.compile(
    r"guard_creation|guard_verification|guard_token|@bounded|spend_publish_budget|open_stream|ApiProblem\(\s*429"
)
POLICY = re.compile(r'^"([a-z0-9-]+)";q=(\d+);w=(\d+)$')
STATE = re.compile(r'^"([a-z0-9-]+)";r=(\d+);t=(\d+)$')


def refusing_operations() -> set[tuple[str, str]]:
    """(document path, method) of every view whose source can answer 429, read from the app."""
    app = create_app("sqlite://")
    found = set()
    for rule in app.url_map.iter_rules():
        view_class = getattr(app.view_functions[rule.endpoint], "view_class", None)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            handler = getattr(view_class, method.lower(), None)
            if handler is None:
                continue
            source = inspect.getsource(handler) + inspect.getsource(inspect.unwrap(handler))
            if CAN_REFUSE.search(source):
                path = re.sub(r"<(?:[a-z_]+:)?([a-z_]+)>", r"{\1}", rule.rule)
                found.add((path, method.lower()))
    return found


def test_every_operation_that_can_answer_429_documents_it() -> None:
    refusing = refusing_operations()
    assert ("/api/groups", "post") in refusing  # the createGroup
    assert refusing == set(LIMITED_OPERATIONS), refusing ^ set(LIMITED_OPERATIONS)
    documented = {
        (path, method)
        for path, item in DOC["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "429" in operation.get("responses", {})
    }
    assert refusing <= documented, refusing - documented
    for (path, method), kinds in LIMITED_OPERATIONS.items():
        operation = DOC["paths"][path][method]
        refused = operation["responses"]["429"]
        assert "Retry-After" in refused["headers"], (path, method)
        assert "Rate limits (defaults" in operation["description"], (path, method)
        if set(kinds) & {*COUNTED, "token"}:
            assert {"RateLimit", "RateLimit-Policy"} <= set(refused["headers"]), (path, method)
        for status, response in operation["responses"].items():
            if status.startswith("2") and set(kinds) & set(COUNTED):
                assert {"RateLimit", "RateLimit-Policy"} <= set(response["headers"]), (path, method, status)
    assert "30 per minute, 300 per hour" in DOC["paths"]["/api/groups"]["post"]["description"]
    assert "20 per minute, 200 per hour" in DOC["paths"]["/api/verify"]["post"]["description"]


LIMITS = {
    **TEST_LIMITS,
    "KIBITZ_CREATE_LIMIT": "3 per minute;50 per hour",
    "KIBITZ_TOKEN_FAILURE_LIMIT": "2 per minute",
    "KIBITZ_TOKEN_GUESS_LIMIT": "4 per minute",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("limits")
    url = migrated_sqlite(folder / "kibitz.sqlite3")
    with GunicornProcess(url, folder / "gunicorn.log", env=LIMITS) as process:
        yield process.base


def fields(response: requests.Response) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """RateLimit-Policy as {name: (q, w)} and RateLimit as {name: (r, t)}."""
    policies = [POLICY.match(p.strip()) for p in response.headers["RateLimit-Policy"].split(",")]
    states = [STATE.match(p.strip()) for p in response.headers["RateLimit"].split(",")]
    assert all(policies) and all(states), response.headers
    return (
        {m.group(1): (int(m.group(2)), int(m.group(3))) for m in policies if m},
        {m.group(1): (int(m.group(2)), int(m.group(3))) for m in states if m},
    )


MHING = {"game": "mhing", "players": [{"name": "A"}, {"name": "B"}], "options": {}}


def group(base: str) -> requests.Response:
    body = {"name": "Club", "players": [{"name": "Ada"}, {"name": "Bo"}]}
    return requests.post(
        f"{base}/api/groups", json=body, headers={"Idempotency-Key": str(uuid.uuid4())}, timeout=10
    )


def test_wrong_tokens_carry_the_fields_and_end_in_429(server: str) -> None:
    created = requests.post(f"{server}/api/tables", json=MHING, timeout=10)
    assert created.status_code == 201, created.text
    table = created.json()
    url = f"{server}/api/tables/{table['id']}/events"
    body = {"expected_version": 0, "event": {"type": "round_drawn"}}
    wrong = {"Authorization": "Bearer " + "x" * 32}
    first = requests.post(url, json=body, headers=wrong, timeout=10)
    assert first.status_code == 403
    policies, states = fields(first)
    assert policies == {"token-minute": (2, 60), "guess-minute": (4, 60)}
    assert states["token-minute"][0] == 1 and states["guess-minute"][0] == 3
    assert requests.post(url, json=body, headers=wrong, timeout=10).status_code == 403
    third = requests.post(url, json=body, headers=wrong, timeout=10)
    assert third.status_code == 429 and "Retry-After" in third.headers
    assert fields(third)[1]["token-minute"][0] == 0
    right = {"Authorization": f"Bearer {table['write_token']}", "Idempotency-Key": str(uuid.uuid4())}
    accepted = requests.post(url, json=body, headers=right, timeout=10)
    assert accepted.status_code == 201 and "RateLimit" not in accepted.headers  # counts nothing


def test_creations_tick_down_to_429_with_the_fields(server: str) -> None:
    """createGroup and createTable share the creation quota: each answer says what remains, one
    less each time; past the minute's 3 the answer is 429 with Retry-After and `r=0`."""
    remaining = []
    for number in range(4):
        answer = (
            group(server)
            if number % 2 == 0
            else requests.post(f"{server}/api/tables", json=MHING, timeout=10)
        )
        if answer.status_code == 429:
            break
        assert answer.status_code == 201, answer.text
        policies, states = fields(answer)
        assert policies == {"create-minute": (3, 60), "create-hour": (50, 3600)}
        assert 0 < states["create-minute"][1] <= 60 and 0 < states["create-hour"][1] <= 3600
        remaining.append(states["create-minute"][0])
    assert remaining and remaining == list(range(remaining[0], -1, -1)), remaining
    refused = group(server)
    assert refused.status_code == 429 and refused.json()["code"] == "too-many-requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert fields(refused)[1]["create-minute"][0] == 0


def test_browsers_may_read_the_fields(server: str) -> None:
    answer = requests.get(f"{server}/api/games", headers={"Origin": "https://example.org"}, timeout=10)
    exposed = {h.strip().lower() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ratelimit", "ratelimit-policy", "retry-after", "link", "etag"} <= exposed
