"""ETags and If-None-Match (304) on the reads a client polls — a group, its statistics and history
pages, its exports, the sheet library, a finished game's record — so that asking again for what
has not changed costs a few bytes (issue 35).

The tag is weak and taken over the answer as it would be sent (body and `Content-Language`): one
rule for every such read, exact by construction (the same bytes, the same tag), whatever the data
behind it. Weak, because compression may send the same answer as other bytes (RFC 9110 §8.8.1).
A table's own view keeps its cheaper tag by version (api.http.tables): there the answer is not
even rendered for a 304.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request

from api.http.strict import etag_matches

# The operations whose answers carry an ETag over their bytes (the document says so on each).
ETAGGED: set[str] = set()
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag of the answer you have; answered with 304 (no body) while it is unchanged.",
}


def body_etag(response: Response) -> str:
    digest = hashlib.sha256(response.get_data())
    digest.update(b"\n" + response.headers.get("Content-Language", "").encode("ascii", "replace"))
    return f'W/"{digest.hexdigest()[:32]}"'


def etagged(operation_id: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The outermost decorator of a GET view: its 200 answers carry `ETag`; a matching
    `If-None-Match` answers 304 with the tag and no body."""
    ETAGGED.add(operation_id)

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def tagged(*args: Any, **kwargs: Any) -> Response:
            response = current_app.make_response(view(*args, **kwargs))
            if response.status_code != 200 or response.is_streamed or response.direct_passthrough:
                return response
            etag = body_etag(response)
            response.headers["ETag"] = etag
            if etag_matches(request.headers.get("If-None-Match"), etag):
                unchanged = Response(status=304)
                for name in ("ETag", "Vary", "Content-Language", "Cache-Control", "Link"):
                    if name in response.headers:
                        unchanged.headers[name] = response.headers[name]
                return unchanged
            return response

        return tagged

    return decorate
