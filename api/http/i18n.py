"""Which language a request asks for: `Accept-Language` negotiated against the catalogs (api.i18n)."""

from __future__ import annotations

from flask import has_request_context, request

from api.i18n import DEFAULT, available


def asked_language() -> str:
    """The best of our languages for this request's Accept-Language (English when none fits)."""
    if not has_request_context():
        return DEFAULT
    offered = available()
    for value, quality in request.accept_languages:  # best first
        if quality <= 0:  # "q=0": explicitly not wanted
            continue
        tag = value.lower().replace("_", "-")
        for candidate in (tag, tag.split("-")[0]):  # "de-CH" is served German before a weaker "en"
            if candidate in offered:
                return candidate
    return DEFAULT
