"""Board sheets under concurrent writers (MG-2 sheets): of N phones that send the same
expected_version at once, exactly one wins; the others get 409 and nothing of theirs is stored."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from tests.api.test_sheets_http import blank, filled
from tests.conftest import make_test_app

WRITERS = 6
ROUNDS = 20


def test_exactly_one_of_n_writers_with_the_same_version_wins(db_url: str) -> None:
    app: Flask = make_test_app(db_url)
    client = app.test_client()
    data = blank(client)
    created = client.post("/api/sheets", json={"game": "magellan", "name": "Board", "data": data}).get_json()
    url, token = f"/api/sheets/{created['id']}", created["edit_token"]
    for round_number in range(ROUNDS):
        version = client.get(url).get_json()["version"]
        barrier = threading.Barrier(WRITERS)
        answers: dict[int, int] = {}
        bodies: dict[int, dict[str, Any]] = {}

        def write(
            writer: int,
            version: int,
            barrier: threading.Barrier,
            answers: dict[int, int],
            bodies: dict[int, dict[str, Any]],
        ) -> None:
            body = {"name": f"Board {writer}", "data": filled(data, 1 + writer), "expected_version": version}
            phone = app.test_client()
            barrier.wait()
            sent = phone.put(url, json=body, headers={"Authorization": f"Bearer {token}"})
            answers[writer] = sent.status_code
            bodies[writer] = sent.get_json()

        threads = [
            threading.Thread(target=write, args=(n, version, barrier, answers, bodies))
            for n in range(WRITERS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        winners = [writer for writer, status in answers.items() if status == 200]
        assert len(winners) == 1, (round_number, answers)
        assert sorted(answers.values()) == [200] + [409] * (WRITERS - 1)
        losers = [bodies[n] for n in answers if n != winners[0]]
        assert all(body["code"] == "stale-version" for body in losers)
        stored = client.get(url).get_json()
        assert stored["version"] == version + 1
        assert stored["name"] == f"Board {winners[0]}" and stored["data"] == filled(data, 1 + winners[0])
        assert bodies[winners[0]] == stored  # the winner was told what it wrote, and that is what stayed
