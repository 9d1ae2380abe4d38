"""Which language a request asks for: `Accept-Language` negotiated against the catalogs (api.i18n)."""

from __future__ import annotations

from functools import lru_cache

from flask import has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from api.i18n import DEFAULT, available


def asked_language() -> str:
    """The best of our languages for this request's Accept-Language (English when none fits)."""
    if not has_request_context():
        return DEFAULT
    return best_language(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=512)
def best_language(header: str) -> str:
    """Negotiated once per distinct header: a table's phones send the same one at every poll."""
    offered = available()
    for value, quality in parse_accept_header(header, LanguageAccept):  # best first
        if quality <= 0:  # "q=0": explicitly not wanted
            continue
        tag = value.lower().replace("_", "-")
        for candidate in (tag, tag.split("-")[0]):  # "de-CH" is served German before a weaker "en"
            if candidate in offered:
                return candidate
    return DEFAULT
