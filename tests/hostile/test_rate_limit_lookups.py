"""Wrong-token budgets under any interleaving (hypothesis, real `limits` counters in memory, the real
app through the WSGI client with several client addresses): a right token is never refused and never
costs a look at the counters, whatever anyone guessed before; a wrong one is answered 403 until its
client's budget at that table is spent, then 429 — counted per table and client, never across them
(issue 22, item 3)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.http.limits import LIMITS_KEY
from tests.api.table_client import four_players
from tests.conftest import make_test_app

SAME_TOKEN, ALL_TOKENS = 3, 5  # failures per presented token, all failures of a client at a table
LIMITS = {
    "KIBITZ_TOKEN_FAILURE_LIMIT": f"{SAME_TOKEN} per minute",
    "KIBITZ_TOKEN_GUESS_LIMIT": f"{ALL_TOKENS} per minute",
}
CLIENTS = ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
# (client, table, token): token "right" is the seat's own, any other is a wrong one.
ATTEMPTS = st.tuples(
    st.sampled_from(CLIENTS), st.integers(0, 1), st.sampled_from(["right", "stale", "guess-1", "guess-2"])
)


class CountingStorage:
    """Passes every call through to the real storage and counts them."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if not callable(target):
            return target

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return target(*args, **kwargs)

        return counted


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(attempts=st.lists(ATTEMPTS, min_size=1, max_size=40))
def test_a_right_token_is_never_refused_for_anyones_guesses(
    sqlite_url: str, attempts: list[tuple[str, int, str]]
) -> None:
    app = _app(sqlite_url)
    client = app.test_client()
    # Fresh tables for every example: every budget starts empty.
    created = [client.post("/api/tables", json=four_players()).get_json() for _ in range(2)]
    storage = app.extensions[LIMITS_KEY].limiter.storage
    same_token: Counter[tuple[str, int, str]] = Counter()
    all_tokens: Counter[tuple[str, int]] = Counter()
    for who, table, token in attempts:
        seat = created[table]["seats"][0]
        presented = seat["token"] if token == "right" else token
        before = storage.calls
        answer = client.get(
            f"/api/tables/{created[table]['id']}/seats/0",
            headers={"Authorization": f"Bearer {presented}"},
            environ_base={"REMOTE_ADDR": who},
        )
        if token == "right":
            assert answer.status_code == 200, (who, table, answer.get_json())
            assert storage.calls == before  # no look at the counters for a right token
            continue
        # The model of the budgets: the per-token count first, then all of this client's at this table.
        if same_token[who, table, token] >= SAME_TOKEN:
            expected = 429
        else:
            same_token[who, table, token] += 1
            expected = 429 if all_tokens[who, table] >= ALL_TOKENS else 403
            all_tokens[who, table] += expected == 403
        assert answer.status_code == expected, (who, table, token, answer.get_json())
        if expected == 429:
            assert int(answer.headers["Retry-After"]) >= 1


_APPS: dict[str, Flask] = {}


def _app(url: str) -> Flask:
    """One app for all examples of a run, its counter storage wrapped to count the looks."""
    if url not in _APPS:
        app = _APPS[url] = make_test_app(url, **LIMITS)
        limiter = app.extensions[LIMITS_KEY].limiter
        limiter.storage = CountingStorage(limiter.storage)
    return _APPS[url]
