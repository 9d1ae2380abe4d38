"""Request fields that take JSON types at their word (0 is not false, 2.5 is not a seed)."""

from __future__ import annotations

import json
import math
import re
import string
import unicodedata
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from api.contract.text_pattern import TEXT_PATTERN, TEXT_RULE
from api.errors import ApiProblem
from api.rules.common import text
from api.rules.common.seeds import MAX_SAFE_INTEGER


class StrictBoolean(fields.Boolean):
    """Only JSON true/false; marshmallow's Boolean would also take 0, 1, "yes"…"""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


TEXT_REGEX = re.compile(TEXT_PATTERN)


def refusal(error: text.TextRefused, raw: str) -> ApiProblem:
    """The rule's refusal as an answer: 400 with its code (each spelt out for the code catalog); 422
    where the document's pattern allows the text, which it cannot refuse as malformed — its NFC form
    breaks the marks bound, or a mark or format character beyond the Basic Multilingual Plane (which
    the pattern reads as a symbol) is refused."""
    if error.stored or TEXT_REGEX.match(raw):
        if error.code == "format-character":
            return ApiProblem(422, "format-character", error.detail)
        return ApiProblem(422, "combining-marks", error.detail)
    if error.code == "combining-marks":
        return ApiProblem(400, "combining-marks", error.detail)
    if error.code == "format-character":
        return ApiProblem(400, "format-character", error.detail)
    return ApiProblem(400, "control-character", error.detail)


class FreeText(fields.String):
    """Text a person types and people read (a player's or group's name, an emoji, a colour, a sheet's
    name or edition): one rule for all (api.rules.common.text), the same words and pattern in the
    document for each, and `min_length` to `max_length` characters as sent and as stored."""

    def __init__(self, *, max_length: int, min_length: int = 1, **kwargs: Any) -> None:
        metadata = dict(kwargs.pop("metadata", {}))
        what = metadata.pop("description", "")
        metadata["description"] = f"{what} {TEXT_RULE}".strip() if what else TEXT_RULE
        metadata.setdefault("pattern", TEXT_PATTERN)
        self.max_length = max_length
        validators = [validate.Length(min=min_length, max=max_length), *_listed(kwargs.pop("validate", None))]
        super().__init__(metadata=metadata, validate=validators, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        raw = super()._deserialize(value, attr, data, **kwargs)
        try:
            stored = text.free_text(raw)
        except text.TextRefused as error:
            raise refusal(error, raw) from None
        if len(raw) > self.max_length:  # as sent: the document's maxLength counts what is sent
            raise ValidationError(f"Longer than maximum length {self.max_length}.")
        return stored


def _listed(validators: Any) -> list[Any]:
    if validators is None:
        return []
    return list(validators) if isinstance(validators, (list, tuple)) else [validators]


# -- JSON bodies: limits checked before any schema or rule sees the data --------------------------

_WHOLE = re.compile(r"[+-]?[0-9]{1,40}")
MAX_DEPTH = 32  # the deepest real body (a Magellan board sheet in an event) nests 6 levels
MAX_INT_DIGITS = 20  # parsed at all; then within ±(2^53 − 1) (exact()), seeds included
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ApiProblem(400, "number-too-long", f"Numbers have at most {MAX_INT_DIGITS} digits.")
    return exact(int(text))


def _float(text: str) -> float | int:
    """A number with a fraction part or an exponent. One whose value is whole (`44.0`, `4.4e1`) is
    that integer: JSON Schema (the document's dialect, OpenAPI 3.1) counts it as an integer too."""
    number = float(text)
    if math.isfinite(number) and number.is_integer():
        return exact(int(number))
    return number


def exact(number: int) -> int:
    """A whole number every client reads exactly (JavaScript: within ±(2^53 − 1)), or 400."""
    if abs(number) > MAX_SAFE_INTEGER:
        raise ApiProblem(
            400,
            "number-too-large",
            "Whole numbers must lie between -9007199254740991 and 9007199254740991.",
        )
    return number


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice is refused (a parser keeping the last one silently would
    read another request than a client, a proxy or a log that keeps the first)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        raise ApiProblem(400, "duplicate-key", "A JSON object must not name the same key twice.")
    return value


def _constant(name: str) -> Any:
    raise ApiProblem(400, "invalid-json", f"{name} is not a JSON number.")


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiProblem(
            400, "invalid-text", "Text must be valid Unicode (a lone surrogate such as \\ud800 is not)."
        ) from None
    if not text.isprintable() and any(
        unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS for c in text
    ):
        raise ApiProblem(400, "control-character", "Text must not contain control characters such as NUL.")


def check_text(text: str) -> None:
    """A text from outside a JSON body (a query parameter): the same refusals (400) as in bodies."""
    _check_text(text)


def strict_json(data: bytes | str) -> Any:
    """Parse a request body as JSON, refusing what would hurt later: nesting deeper than MAX_DEPTH,
    integers longer than MAX_INT_DIGITS, NaN/Infinity, a key given twice in one object, text that is
    not valid Unicode or holds control characters. Every refusal is a 400 problem, never a 500."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise ApiProblem(400, "invalid-text", "The body must be UTF-8.") from None
    if _nesting(text) > MAX_DEPTH:
        raise ApiProblem(400, "too-deeply-nested", f"JSON may nest at most {MAX_DEPTH} levels deep.")
    try:
        value = json.loads(
            text, parse_int=_int, parse_float=_float, parse_constant=_constant, object_pairs_hook=_object
        )
    except json.JSONDecodeError as error:
        raise ApiProblem(400, "invalid-json", f"The body is not valid JSON: {error.msg}.") from None
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                _check_text(key)
                stack.append(inner)
        elif isinstance(item, float) and not math.isfinite(item):
            raise ApiProblem(400, "number-too-large", "Numbers must be finite.")
    return value


def _nesting(text: str) -> int:
    """The deepest bracket nesting outside strings — checked before parsing, so a 2 KB body of 1,000
    open brackets is refused instead of exhausting the parser's recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class StrictParser(FlaskParser):
    """flask-smorest's argument parser with JSON bodies read by `strict_json`, and one instance of
    each argument schema for every request (webargs makes a new one per request from a class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._schemas: dict[type[Schema], Schema] = {}

    def _get_schema(self, argmap: Any, req: Any) -> Schema:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas[argmap] = argmap()
            return schema
        return super()._get_schema(argmap, req)

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return missing
        return strict_json(req.get_data(cache=True))

    def load_querystring(self, req: Any, schema: Schema) -> Any:
        """Query parameters get the refusals text in a body gets (400 `control-character`, …),
        every operation alike: the document's patterns say so for each of them."""
        for key, values in req.args.lists():
            for value in values:
                _check_text(value)
                if isinstance(schema.fields.get(key), fields.Integer) and _WHOLE.fullmatch(value):
                    exact(int(value))
        return super().load_querystring(req, schema)


# -- headers and ids ---------------------------------------------------------------------------------

MAX_IDEMPOTENCY_KEY = 128
_KEY_CHARS = frozenset(string.ascii_letters + string.digits + string.punctuation)


def idempotency_key(raw: str | None) -> str | None:
    """The Idempotency-Key header: 1 to 128 visible ASCII characters (the column holds 128); an
    empty one is refused like any other malformed key, not taken as "no key"."""
    if raw is None:
        return None
    if not raw or len(raw) > MAX_IDEMPOTENCY_KEY or not set(raw) <= _KEY_CHARS:
        raise ApiProblem(
            400,
            "bad-idempotency-key",
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters (a UUID is ideal).",
        )
    return raw


# A creation's key answers the new table's or group's tokens again (a retry whose answer was lost
# must get them), so whoever holds the key and the body holds the tokens: the key is a secret, and it
# must be too long to guess. 32 characters is what 128 random bits take in hex; a random UUID (36
# characters, 122 random bits, what the phone sends) qualifies. The server cannot see randomness,
# only length: a key must come from a cryptographic random source.
MIN_CREATION_KEY = 32
CREATION_KEY_RULES = (
    "A secret, like the tokens it answers again: the same key and body from anyone answer the same "
    f"tokens. {MIN_CREATION_KEY} to {MAX_IDEMPOTENCY_KEY} visible ASCII characters from a cryptographic "
    "random source (a random UUID, or 16+ random bytes in hex or base64url); a shorter key is refused "
    "(400 `idempotency-key-too-short`) before anything is created, so it never de-duplicates without "
    "being able to answer the tokens. Never log it or send it elsewhere."
)


def creation_key(raw: str | None) -> str | None:
    """The Idempotency-Key of a creation (a table, a group): as `idempotency_key`, and at least
    MIN_CREATION_KEY characters, because a replay answers the tokens. A short key is refused up
    front rather than answered without tokens: a client replays only when it lost the first answer,
    so a token-less replay would leave it a table it can never write to — the twin the key exists to
    prevent, plus a surprise at the worst moment."""
    key = idempotency_key(raw)
    if key is not None and len(key) < MIN_CREATION_KEY:
        raise ApiProblem(
            400,
            "idempotency-key-too-short",
            f"A creation's Idempotency-Key answers the new tokens again, so it is a secret: use at least {MIN_CREATION_KEY} characters from a random source (a random UUID is fine).",  # noqa: E501 - one f-string: the catalog extractor leaves it whole
        )
    return key


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly (W/ prefixes ignored)."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == opaque for tag in if_none_match.split(","))


# -- every query string -------------------------------------------------------------------------------


def check_query_string(raw: bytes) -> None:
    """Any operation's query string, read or not, gets the refusals a body's text gets (400
    `invalid-text`, `control-character`): what a client sends is either clean or refused, never
    silently passed on to a log or a proxy."""
    from urllib.parse import parse_qsl

    try:
        pairs = parse_qsl(raw.decode("utf-8"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeError:
        raise ApiProblem(
            400, "invalid-text", "Text must be valid Unicode (a lone surrogate such as \\ud800 is not)."
        ) from None
    for key, value in pairs:
        _check_text(key)
        _check_text(value)


def install_query_check(app: Any) -> None:
    """Run check_query_string before every API request."""
    from flask import request

    @app.before_request
    def _query() -> None:
        if request.path.startswith("/api/") and request.query_string:
            check_query_string(request.query_string)
