"""One hypothesis strategy per (pattern, alphabet) for the whole fuzzing run.

The document's free-text fields carry the text rule as a ~7,000-character pattern (api/rules/common/
text.py). Hypothesis caches `from_regex` in an LRU of 1,024 strategies, which the fuzzer's many
strategies evict, so the pattern's character classes were rebuilt dozens of times per operation
(≈ 2.5 s of CPU each: most of the contract fuzzing's time, issue 34). A strategy is an immutable
description, so handing back the first one built for the same arguments changes nothing drawn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import hypothesis.strategies as st
from hypothesis.strategies._internal.lazy import unwrap_strategies
from schemathesis.generation.jsonschema import strategy as jsonschema_strategy


def _key(regex: Any, fullmatch: bool, alphabet: Any) -> tuple[Any, ...]:
    pattern = (regex.pattern, regex.flags) if isinstance(regex, re.Pattern) else (regex, 0)
    return (*pattern, fullmatch, id(alphabet))


class _CachedStrategies:
    """`hypothesis.strategies` as the fuzzer sees it, with `from_regex` remembered."""

    def __init__(self, original: Callable[..., Any]) -> None:
        self._original = original
        self._built: dict[tuple[Any, ...], tuple[Any, Any]] = {}

    def from_regex(self, regex: Any, *, fullmatch: bool = False, alphabet: Any = None) -> Any:
        key = _key(regex, fullmatch, alphabet)
        if key not in self._built:
            # Built now, not lazily: each `.filter()`/`.map()` the fuzzer puts on a lazy strategy is a
            # new lazy strategy that builds the pattern again (69 builds for one operation, 1.4 s
            # each); on a built one it only wraps it. The alphabet is kept alive with its strategy,
            # so its id is never reused meanwhile.
            built = unwrap_strategies(self._original(regex, fullmatch=fullmatch, alphabet=alphabet))
            self._built[key] = (built, alphabet)
        return self._built[key][0]

    def __getattr__(self, name: str) -> Any:
        return getattr(st, name)


@contextmanager
def remembered_regex_strategies() -> Iterator[None]:
    """While open, the fuzzer's JSON-schema strategies build each pattern's strategy once."""
    original_module = jsonschema_strategy.st
    jsonschema_strategy.st = _CachedStrategies(st.from_regex)  # type: ignore[assignment]
    try:
        yield
    finally:
        jsonschema_strategy.st = original_module
