"""Errors the rules raise; the HTTP layer turns them into problem+json 4xx answers.

A refusal's sentence is English and a `Message`: it remembers its template and the values put in,
so a client or the HTTP layer can say it in another language from a message catalog (the templates
are the catalog's message ids) without re-deriving anything from the English words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class Message(str):
    """An English sentence that keeps the template it was made from and the values put in."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any]) -> Message:
        text = super().__new__(cls, template.format(**params))
        text.template = template
        text.params = params
        return text


def say(template: str, **params: Any) -> Message:
    """say("{name} has no turtle left (MA-9).", name=...) → the English sentence, template kept."""
    return Message(template, params)


def counted(count: int, one: str, other: str, **params: Any) -> Message:
    """say() with the template for a count of one or for any other count, so "1 money card" and
    "3 money cards" are two catalog entries each language words its own way. The counts put in are
    at least 1 (French says 0 like 1: a 0 would read as plural there)."""
    return Message(one if count == 1 else other, params)


def term(phrase: str) -> Message:
    """A phrase that goes into a sentence as a value ("money card slid under Magellan"): extracted
    into the catalogs, so a translated sentence gets a translated phrase too."""
    return Message(phrase, {})


def either(values: Sequence[str]) -> str:
    """ "red or yellow" as a sentence part whose "or" is translated with it (one value: itself)."""
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return say("{first} or {second}", first=values[0], second=values[1])
    return say("{first}, {rest}", first=values[0], rest=either(values[1:]))


def json_params(text: str) -> dict[str, Any]:
    """The values put into a sentence, as JSON can carry them ({} for a plain sentence)."""
    params = text.params if isinstance(text, Message) else {}
    return {
        k: v if isinstance(v, (str, int, float, bool)) or v is None else str(v) for k, v in params.items()
    }


def json_parts(text: str) -> dict[str, Any]:
    """The values that are sentences or phrases of their own (say/term), each as {template, params,
    parts}: a client translating by template translates what is put in as well."""
    params = text.params if isinstance(text, Message) else {}
    parts: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Message):
            parts[key] = {"template": value.template, "params": json_params(value)}
            if inner := json_parts(value):
                parts[key]["parts"] = inner
    return parts


def note(code: str, rule: str | None, text: str) -> dict[str, Any]:
    """A referee note beside the legal actions, as data: {code, rule, params}, the English text and
    its template (the catalogs' message id), so clients translate by code and params instead of
    reading the English words, and the server says it in the language asked for."""
    template = text.template if isinstance(text, Message) else str(text)
    return {"code": code, "rule": rule, "text": str(text), "template": template, "params": json_params(text)}


class RuleError(Exception):
    """A request the rules refuse, with a stable machine code and a sentence a player understands."""

    status = 422

    def __init__(self, code: str, detail: str, rule: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.rule = rule
        # The catalog id and the values: a plain sentence is its own template.
        self.template: str = detail.template if isinstance(detail, Message) else detail
        self.params: dict[str, Any] = dict(detail.params) if isinstance(detail, Message) else {}


class IllegalMove(RuleError):
    """The event is well-formed but the rules do not allow it now."""


class InvalidSetup(RuleError):
    """Players or options cannot start this game."""


class MalformedEvent(RuleError):
    """The event is not one this game understands (unknown type, missing or wrong field)."""
