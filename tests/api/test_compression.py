"""Large JSON answers leave compressed, through a real gunicorn (issue 23: the game list every phone
asks for on opening went uncompressed): brotli or gzip as the client accepts, decompressing to the
very bytes of the plain answer, `Vary: Accept-Encoding`; a live stream is never compressed (a
compressor would hold events back) however much the client accepts it."""

from __future__ import annotations

import gzip

import brotli
import pytest
import requests

pytestmark = pytest.mark.gunicorn

PLAYERS = [{"name": "Eva", "colours": ["red", "yellow"]}, {"name": "Tom", "colours": ["green", "black"]}]


def raw(url: str, encoding: str, **headers: str) -> requests.Response:
    """The answer's bytes as they came over the wire (requests would decode them)."""
    answer = requests.get(url, headers={"Accept-Encoding": encoding, **headers}, stream=True, timeout=10)
    answer.raw.decode_content = False
    answer._content = answer.raw.read()  # noqa: SLF001 - the undecoded body
    return answer


@pytest.mark.parametrize("path", ["/api/games", "/api/tables/{id}/events"])
def test_large_answers_leave_compressed_and_decompress_to_the_same_bytes(live_server: str, path: str) -> None:
    created = requests.post(
        f"{live_server}/api/tables",
        json={"game": "mahe", "players": PLAYERS, "options": {"chance": "digital"}},
        timeout=10,
    ).json()
    headers = {"Authorization": f"Bearer {created['write_token']}"}
    table = created["table"]
    for _ in range(12):  # a log long enough to be worth compressing
        action = table["legal_actions"]["actions"][0]
        event = {"type": action["type"]}
        if "turtles" in action:
            event["turtle"] = action["turtles"][0]
        answer = requests.post(
            f"{live_server}/api/tables/{created['id']}/events",
            json={"expected_version": table["version"], "event": event},
            headers=headers,
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        table = answer.json()["table"]
    url = live_server + path.format(id=created["id"])
    plain = raw(url, "identity")
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert len(plain.content) > 1024
    for encoding, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        packed = raw(url, f"{encoding}")
        assert packed.headers["Content-Encoding"] == encoding
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert len(packed.content) < len(plain.content) / 3
        assert decode(packed.content) == plain.content
    both = raw(url, "gzip, deflate, br, zstd")
    assert both.headers["Content-Encoding"] == "br"


def test_a_live_stream_is_never_compressed(live_server: str) -> None:
    created = requests.post(
        f"{live_server}/api/tables",
        json={"game": "mahe", "players": PLAYERS, "options": {"chance": "digital"}},
        timeout=10,
    ).json()
    stream = requests.get(
        f"{live_server}/api/tables/{created['id']}/stream",
        headers={"Accept-Encoding": "gzip, deflate, br, zstd"},
        stream=True,
        timeout=(5, 10),
    )
    try:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert "Content-Encoding" not in stream.headers
        stream.raw.decode_content = False
        first = stream.raw.read(64)
        assert b"event: table" in first or first.startswith((b"id:", b":", b"retry:"))
    finally:
        stream.close()
