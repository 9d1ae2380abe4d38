"""Errors the rules raise; the HTTP layer turns them into problem+json 4xx answers."""

from __future__ import annotations


class RuleError(Exception):
    """A request the rules refuse, with a stable machine code and a sentence a player understands."""

    status = 422

    def __init__(self, code: str, detail: str, rule: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.rule = rule


class IllegalMove(RuleError):
    """The event is well-formed but the rules do not allow it now."""


class InvalidSetup(RuleError):
    """Players or options cannot start this game."""


class MalformedEvent(RuleError):
    """The event is not one this game understands (unknown type, missing or wrong field)."""
