"""Which language a request asks for: `Accept-Language` negotiated against the catalogs (api.i18n)."""

from __future__ import annotations

import re
from functools import lru_cache

from flask import Flask, Response, has_request_context, request
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


# The `lang` query parameter of the streams (a browser's EventSource cannot send headers).
LANGUAGE_TAG = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$")


def answer_language() -> str:
    """The language an answer's words are in: `?lang` where an operation takes it, else the
    negotiated Accept-Language."""
    raw = request.args.get("lang") if has_request_context() else None
    if raw is not None and LANGUAGE_TAG.fullmatch(raw):
        return best_language(raw)
    return asked_language()


def install_content_language(app: Flask) -> None:
    """Every API answer says its language (`Content-Language`), as the document declares for each:
    the notes and problem details in it are said in that language."""

    @app.after_request
    def _said_in(response: Response) -> Response:
        said = "Content-Language" in response.headers or response.status_code == 304
        if request.path.startswith("/api/") and not said:
            response.headers["Content-Language"] = answer_language()
        return response
