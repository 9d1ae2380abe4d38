"""Issue 22, item 5: a JSON key given twice is refused (400 `duplicate-key`) instead of silently
keeping the last one; names (players, sheets, Magellan's score sheet) are stored in Unicode NFC and
refused (400 `format-character`) with bidi overrides, zero-width and other format characters — on a
real gunicorn, and as a property over any text through the app."""

from __future__ import annotations

import copy
import unicodedata
from typing import Any

import pytest
import requests
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.games.magellan.endpoints import SCORE_EXAMPLE
from tests.api.table_client import four_players

FORMAT_CHARACTERS = ["\u202e", "\u200b", "\u200d", "\u2066", "\ufeff", "\u00ad", "\U000e0041"]


def _post_raw(base: str, path: str, text: str) -> requests.Response:
    return requests.post(
        f"{base}{path}", data=text.encode(), headers={"Content-Type": "application/json"}, timeout=10
    )


@pytest.mark.gunicorn
@pytest.mark.parametrize(
    "text",
    [
        '{"game": "mahe", "game": "magellan", "players": []}',
        '{"game": "mahe", "players": [{"name": "A", "name": "B", "colours": ["red"]}]}',
    ],
)
def test_a_key_given_twice_is_refused(live_server: str, text: str) -> None:
    answer = _post_raw(live_server, "/api/tables", text)
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "duplicate-key"


@pytest.mark.gunicorn
def test_a_key_given_twice_in_an_event_is_refused_and_nothing_is_stored(live_server: str) -> None:
    table = requests.post(f"{live_server}/api/tables", json=four_players(), timeout=10).json()
    text = '{"expected_version": 0, "event": {"type": "reveal_card", "value": 1, "value": 6}}'
    answer = requests.post(
        f"{live_server}/api/tables/{table['id']}/events",
        data=text,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {table['write_token']}"},
        timeout=10,
    )
    assert answer.status_code == 400 and answer.json()["code"] == "duplicate-key"
    assert requests.get(f"{live_server}/api/tables/{table['id']}", timeout=10).json()["version"] == 0


def _players_named(name: str) -> dict[str, Any]:
    body = four_players()
    body["players"][0]["name"] = name
    return body


@pytest.mark.gunicorn
@pytest.mark.parametrize("mark", FORMAT_CHARACTERS)
def test_names_with_format_characters_are_refused_everywhere(live_server: str, mark: str) -> None:
    # 400 where the document's pattern refuses the name; 422 (same code) for a format character
    # beyond the Basic Multilingual Plane, which the pattern reads as a symbol (api.http.strict).
    status = 422 if ord(mark) > 0xFFFF else 400
    table = requests.post(f"{live_server}/api/tables", json=_players_named(f"Ann{mark}a"), timeout=10)
    assert table.status_code == status and table.json()["code"] == "format-character", table.text
    template = requests.get(f"{live_server}/api/sheets/template", params={"game": "magellan"}, timeout=10)
    sheet = {"game": "magellan", "name": f"Our{mark} board", "data": template.json()["data"]}
    created = requests.post(f"{live_server}/api/sheets", json=sheet, timeout=10)
    assert created.status_code == status and created.json()["code"] == "format-character", created.text
    score = copy.deepcopy(SCORE_EXAMPLE)
    score["players"][0]["name"] = f"{mark}Martin"
    scored = requests.post(f"{live_server}/api/magellan/score", json=score, timeout=10)
    assert scored.status_code == status and scored.json()["code"] == "format-character", scored.text


@pytest.mark.gunicorn
def test_names_are_stored_in_nfc(live_server: str) -> None:
    decomposed = "Zoe\u0301"  # e + combining acute: looks like "Zoé", typed that way by some keyboards
    created = requests.post(f"{live_server}/api/tables", json=_players_named(decomposed), timeout=10)
    assert created.status_code == 201, created.text
    table = requests.get(f"{live_server}/api/tables/{created.json()['id']}", timeout=10).json()
    assert table["players"][0]["name"] == "Zo\u00e9"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=12))
def test_any_name_is_stored_in_nfc_without_format_characters_or_refused(
    client: FlaskClient, name: str
) -> None:
    answer = client.post("/api/tables", json=_players_named(name))
    normal = unicodedata.normalize("NFC", name).strip()  # trimmed too: the one text rule (test_text_rule.py)
    if any(unicodedata.category(c) == "Cf" and c != "\u200d" for c in normal):
        # (a control character or lone surrogate beside it is refused first, by the JSON reader)
        codes = {"format-character", "control-character", "invalid-text", "combining-marks"}
        assert answer.status_code == 400 and answer.get_json()["code"] in codes
    elif answer.status_code == 201:
        assert answer.get_json()["table"]["players"][0]["name"] == normal
    else:  # controls, lone surrogates, a name longer than 40 once normalised …: a 4xx, never stored
        assert 400 <= answer.status_code < 500, answer.get_json()
