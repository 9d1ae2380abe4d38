"""A small driver for tests: a table played through the real HTTP API (Flask test client)."""

from __future__ import annotations

import uuid
from typing import Any

from flask.testing import FlaskClient


class TableDriver:
    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.id: str = created["id"]
        self.token: str = created["write_token"]
        self.table: dict[str, Any] = created["table"]
        self.seats: list[dict[str, Any]] = created.get("seats", [])

    @classmethod
    def create(cls, client: FlaskClient, **body: Any) -> TableDriver:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.get_json()
        return cls(client, response.get_json())

    @property
    def state(self) -> dict[str, Any]:
        return self.table["state"]

    @property
    def legal(self) -> dict[str, Any]:
        return self.table["legal_actions"]

    def post(
        self,
        event: dict[str, Any],
        *,
        key: str | None = None,
        version: int | None = None,
        seat: int | None = None,
    ) -> Any:
        """Append with the write token, or as `seat` with that seat's own token."""
        token = self.token if seat is None else self.seats[seat]["token"]
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key or str(uuid.uuid4())}
        body = {"expected_version": self.table["version"] if version is None else version, "event": event}
        return self.client.post(f"/api/tables/{self.id}/events", json=body, headers=headers)

    def play(self, *events: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """Append events one after another; each must be accepted."""
        for event in events:
            response = self.post(event, seat=seat)
            assert response.status_code == 201, (event, response.get_json())
            self.table = response.get_json()["table"]
        return self.table

    def undo(self) -> dict[str, Any]:
        """Undo the last entry in effect; a secret one (GEN-1) from the phone of the seat it names."""
        response = self.post({"type": "undo"})
        if response.status_code == 403 and response.get_json().get("seat") is not None:
            response = self.post({"type": "undo"}, seat=response.get_json()["seat"])
        assert response.status_code == 201, response.get_json()
        self.table = response.get_json()["table"]
        return self.table

    def own_view(self, seat: int) -> Any:
        """What only `seat` sees (GET …/seats/<seat> with that seat's token)."""
        response = self.client.get(
            f"/api/tables/{self.id}/seats/{seat}",
            headers={"Authorization": f"Bearer {self.seats[seat]['token']}"},
        )
        assert response.status_code == 200, response.get_json()
        return response.get_json()["view"]

    def refresh(self) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{self.id}")
        assert response.status_code == 200
        self.table = response.get_json()
        return self.table


def die(value: int) -> dict[str, Any]:
    return {"type": "die", "value": value}


def dice(*values: int) -> list[dict[str, Any]]:
    return [die(v) for v in values]


STOP: dict[str, Any] = {"type": "stop"}


def reveal(value: int) -> dict[str, Any]:
    return {"type": "reveal_card", "value": value}


def four_players(**options: Any) -> dict[str, Any]:
    return {
        "game": "mahe",
        "players": [
            {"name": "Martin", "colours": ["red"]},
            {"name": "Eva", "colours": ["yellow"]},
            {"name": "David", "colours": ["darkblue"]},
            {"name": "Andrea", "colours": ["green"]},
        ],
        "options": {"chance": "physical", **options},
    }


class HttpAnswer:
    """A `requests` answer as a Flask test client's looks to these drivers."""

    def __init__(self, response: Any) -> None:
        self.status_code = response.status_code
        self._response = response

    def get_json(self) -> Any:
        return self._response.json()


class HttpClient:
    """The drivers above against a real server (gunicorn) instead of the Flask test client."""

    def __init__(self, base: str) -> None:
        import requests

        self.base = base
        self.session = requests.Session()

    def post(self, path: str, **kwargs: Any) -> HttpAnswer:
        return HttpAnswer(self.session.post(self.base + path, timeout=10, **kwargs))

    def patch(self, path: str, **kwargs: Any) -> HttpAnswer:
        return HttpAnswer(self.session.patch(self.base + path, timeout=10, **kwargs))

    def get(self, path: str, **kwargs: Any) -> HttpAnswer:
        return HttpAnswer(self.session.get(self.base + path, timeout=10, **kwargs))
