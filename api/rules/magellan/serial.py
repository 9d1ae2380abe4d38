"""`dump`/`load`: the full state, secrets included, as plain JSON for the state cache.

The state is frozen dataclasses of tuples, ints, strings, bools and None, so one codec driven by the
type hints serves every class and cannot drift from them. The per-type converters are built once
(the platform loads the state on every read).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from api.rules.errors import MalformedEvent
from api.rules.magellan.state import MagellanState

FORMAT = 1
Convert = Callable[[Any], Any]
_PLAIN = (int, str, bool)


def _same(value: Any) -> Any:
    return value


def _is_plain(kind: Any) -> bool:
    if kind in _PLAIN or typing.get_origin(kind) is typing.Literal:
        return True
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return all(a is type(None) or _is_plain(a) for a in typing.get_args(kind))
    return False


@cache
def _converter(kind: Any, encode: bool) -> Convert:
    """A function turning a value of `kind` into JSON (encode) or back."""
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        hints = typing.get_type_hints(kind)
        parts = [(f.name, _converter(hints[f.name], encode)) for f in dataclasses.fields(kind)]
        if encode:
            return lambda v: {name: conv(getattr(v, name)) for name, conv in parts}
        cls = kind
        return lambda d: cls(**{name: conv(d[name]) for name, conv in parts})
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if _is_plain(args[0]):
                return list if encode else tuple
            item = _converter(args[0], encode)
            if encode:
                return lambda v: [item(x) for x in v]
            return lambda d: tuple(item(x) for x in d)
        items = [_converter(a, encode) for a in args]
        if encode:
            return lambda v: [c(x) for c, x in zip(items, v, strict=True)]
        return lambda d: tuple(c(x) for c, x in zip(items, d, strict=True))
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        conv = _converter(inner, encode)
        return lambda v: None if v is None else conv(v)
    if _is_plain(kind):
        return _same
    raise TypeError(f"cannot convert {kind!r}")


def dump(state: MagellanState) -> dict[str, Any]:
    return {"format": FORMAT, "state": _converter(MagellanState, True)(state)}


def load(data: Mapping[str, Any]) -> MagellanState:
    if data.get("format") != FORMAT:
        raise MalformedEvent("unknown-state-format", "This saved Magellan state has an unknown format.")
    state = _converter(MagellanState, False)(data["state"])
    assert isinstance(state, MagellanState)
    return state
