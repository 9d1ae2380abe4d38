"""The committed openapi.yaml, parsed once per test process with libyaml's C loader.

Several test modules read the document at import; the pure-Python loader took ~3 s each time, which
every collection of the suite paid again (issue 34)."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import yaml

COMMITTED = Path(__file__).resolve().parent.parent / "openapi.yaml"
# libyaml ships with PyYAML's wheels; the pure-Python loader stays as a fallback, only slower.
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """Safe-load YAML text with the C loader (same result as yaml.safe_load, ~20× faster)."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader


@cache
def _parsed() -> dict[str, Any]:
    return dict(load_yaml(COMMITTED.read_text(encoding="utf-8")))


def openapi_document() -> dict[str, Any]:
    """The committed document. Shared by every caller in the process: read it, don't change it
    (`openapi_document_copy()` for a copy to change)."""
    return _parsed()


def openapi_document_copy() -> dict[str, Any]:
    """A deep copy for a test that edits the document."""
    return copy.deepcopy(_parsed())
