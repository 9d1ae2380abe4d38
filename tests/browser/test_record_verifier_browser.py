"""examples/verify_record.mjs in Chromium: a page fetches an export and the record key, as a
browser client would, and checks them with the browser's own WebCrypto (Ed25519, SHA-256) — a
Mhing record with a seed past 2^53 is valid, the same record edited is not (issue 35)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from tests.api.test_record_js import mhing

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://localhost:8765"  # a secure context (localhost), served by the routes below


def test_the_javascript_verifier_in_chromium(client: FlaskClient, new_phone: Callable[..., Any]) -> None:
    t = mhing(client, 2**62 - 11, ['Zoë "Z"', "中文\\", "🏳️‍🌈"], reopen=True)
    exported = client.get(f"/api/tables/{t.id}/export").get_data(as_text=True)
    edited = json.dumps({**json.loads(exported), "finished_at": "2020-01-01T00:00:00+00:00"})
    files = {
        "/": ("text/html", "<!doctype html><title>verify</title>"),
        "/verify_record.mjs": ("text/javascript", (ROOT / "examples" / "verify_record.mjs").read_text()),
        "/record.json": ("application/json", exported),
        "/edited.json": ("application/json", edited),
        "/record-key": ("application/json", client.get("/api/record-key").get_data(as_text=True)),
    }
    page = new_phone()
    page.route(
        f"{ORIGIN}/**",
        lambda route: route.fulfill(
            status=200,
            content_type=files[route.request.url.removeprefix(ORIGIN)][0],
            body=files[route.request.url.removeprefix(ORIGIN)][1],
        ),
    )
    page.goto(f"{ORIGIN}/")
    verdicts = page.evaluate(
        """async () => {
            const { verifyRecord } = await import("/verify_record.mjs");
            const key = await (await fetch("/record-key")).json();
            const check = async (path) => (await verifyRecord(await (await fetch(path)).json(), key)).verdict;
            const [record, edited] = [await check("/record.json"), await check("/edited.json")];
            return { secure: isSecureContext, record, edited };
        }"""
    )
    assert verdicts == {"secure": True, "record": "valid", "edited": "invalid"}
