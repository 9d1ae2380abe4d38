"""Checks on the phone app's files that need no browser: every translated string exists in English
and German, nothing breaks a strict CSP. (What the service worker precaches: tests/api/test_bundle.py.)"""

from __future__ import annotations

import json
import re
import struct

from .helpers import PWA, listed_decisions, rules_index


def _translation_keys_used() -> set[str]:
    keys: set[str] = set()
    for path in PWA.joinpath("js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"""\bt\(\s*["']([\w.-]+)["']""", text))
        keys |= set(re.findall(r"""(?:codeText|serverText)\(\s*["']([\w.-]+)["']""", text))
    return keys


def test_translations_are_complete() -> None:
    en = json.loads((PWA / "i18n/en.json").read_text(encoding="utf-8"))
    de = json.loads((PWA / "i18n/de.json").read_text(encoding="utf-8"))
    assert set(en) == set(de), set(en) ^ set(de)
    for key in _translation_keys_used():
        assert key in en or f"{key}.one" in en, f"missing translation: {key}"
    for key, text in en.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", de[key])), key
    for colour in ("red", "yellow", "green", "lightblue", "darkblue", "purple", "black"):
        assert f"colour.{colour}" in en


def test_nothing_needs_unsafe_inline() -> None:
    html = (PWA / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert not re.search(r"\sstyle=", html), "style attribute"
    assert not re.search(r"\son\w+=", html), "inline event handler"
    assert "<style" not in html
    assert not re.search(r"""(?:src|href)=["']https?://""", html), "external resource"
    for path in PWA.joinpath("js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, path
        assert not re.search(r"""setAttribute\(\s*["'](?:style|on\w+)["']""", text), path
        assert "eval(" not in text and "new Function" not in text, path
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), f"external URL in {path}"


def test_manifest_and_icons() -> None:
    manifest = json.loads((PWA / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "Kibitz"
    assert manifest["start_url"] == "./"
    assert manifest["display"] == "standalone"
    purposes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    for icon in manifest["icons"]:
        data = (PWA / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", icon["src"]
        width, height = struct.unpack(">II", data[16:24])
        assert f"{width}x{height}" == icon["sizes"], icon["src"]


def test_rule_decisions_match_the_rules_pages() -> None:
    decisions = listed_decisions("js/games/mahe/status.js", "MA")
    assert decisions == set(rules_index()["mahe"]["decisions"])


def test_rules_pages_link_the_app_icon() -> None:
    """A rules page names the app's icon, so the browser asks for no missing /favicon.ico."""
    for page in sorted((PWA / "rules").glob("*.html")):
        found = re.search(r'<link rel="icon"[^>]*href="([^"]+)"', page.read_text(encoding="utf-8"))
        assert found, page.name
        assert (page.parent / found.group(1)).resolve().is_file(), (page.name, found.group(1))
