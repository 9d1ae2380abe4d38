"""Security: rate limits on creation and token guessing, CORS only for the API, headers."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.table_client import four_players, reveal
from tests.conftest import make_test_app


def test_table_creation_is_rate_limited_per_client(sqlite_url: str) -> None:
    client = make_test_app(sqlite_url, KIBITZ_CREATE_LIMIT="3 per minute").test_client()
    statuses = [client.post("/api/tables", json=four_players()).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    refused = client.post("/api/tables", json=four_players())
    assert refused.mimetype == "application/problem+json"
    assert refused.get_json()["code"] == "too-many-requests"


def test_token_guessing_is_cut_off_per_table_and_the_right_token_always_works(sqlite_url: str) -> None:
    client = make_test_app(sqlite_url, KIBITZ_TOKEN_GUESS_LIMIT="3 per minute").test_client()
    target = client.post("/api/tables", json=four_players()).get_json()
    other = client.post("/api/tables", json=four_players()).get_json()
    body = {"expected_version": 0, "event": reveal(3)}

    def append(table: dict, token: str) -> int:
        return client.post(
            f"/api/tables/{table['id']}/events", json=body, headers={"Authorization": f"Bearer {token}"}
        ).status_code

    assert [append(target, f"guess-{i}") for i in range(5)] == [403, 403, 403, 429, 429]
    # The right token is checked first and accepted, whoever guessed from this address (issue 22) …
    assert append(target, target["write_token"]) == 201
    # … while the guesser's wrong tokens stay refused, and its other table is unaffected.
    assert append(target, "guess-5") == 429
    assert append(other, "typo") == 403 and append(other, other["write_token"]) == 201


def test_cors_is_open_on_the_api_only(client: FlaskClient) -> None:
    origin = {"Origin": "https://thirdparty.example"}
    api = client.get("/api/games", headers=origin)
    assert api.headers["Access-Control-Allow-Origin"] in ("*", origin["Origin"])
    preflight = client.options(
        "/api/tables/x/events",
        headers={
            **origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Idempotency-Key, Content-Type",
        },
    )
    assert preflight.status_code == 200
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "idempotency-key" in allowed
    assert "etag" in api.headers["Access-Control-Expose-Headers"].lower()
    app_shell = client.get("/", headers=origin)
    assert "Access-Control-Allow-Origin" not in app_shell.headers


def test_security_headers_everywhere(client: FlaskClient) -> None:
    for path in ("/", "/api/games", "/api/tables/nope", "/manifest.webmanifest"):
        headers = client.get(path).headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["Referrer-Policy"] == "no-referrer"


def test_tokens_are_compared_in_constant_time(client: FlaskClient, monkeypatch) -> None:
    """The write token check goes through hmac.compare_digest (no early exit on the first
    differing character), and only a hash of the token is stored."""
    import hmac

    from api.tables import tokens

    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    created = client.post("/api/tables", json=four_players()).get_json()
    body = {"expected_version": 0, "event": reveal(3)}
    headers = {"Authorization": f"Bearer {created['write_token']}"}
    assert client.post(f"/api/tables/{created['id']}/events", json=body, headers=headers).status_code == 201
    assert calls and all(created["write_token"] not in pair for pair in calls)
    assert calls[-1][0] == tokens.hash_token(created["write_token"])


def test_tables_cannot_be_listed_or_guessed(client: FlaskClient) -> None:
    """No endpoint lists tables; ids carry 96 random bits and tokens 192."""
    assert client.get("/api/tables").status_code == 405
    ids = {client.post("/api/tables", json=four_players()).get_json()["id"] for _ in range(20)}
    assert len(ids) == 20 and all(len(i) == 16 for i in ids)
    token = client.post("/api/tables", json=four_players()).get_json()["write_token"]
    assert len(token) == 32
