"""Request fields that take JSON types at their word (0 is not false, 2.5 is not a seed)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields


class StrictBoolean(fields.Boolean):
    """Only JSON true/false; marshmallow's Boolean would also take 0, 1, "yes"…"""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value
