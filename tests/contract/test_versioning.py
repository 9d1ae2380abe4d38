"""The versioning and deprecation policy is stated where a client reads it (issue 35): the document's
info (its version, and the policy in its description) and docs/versioning.md, whose change list
names the document's version."""

from __future__ import annotations

import re
from pathlib import Path

from tests.openapi_document import openapi_document

POLICY = Path(__file__).resolve().parents[2] / "docs" / "versioning.md"


def test_the_policy_is_in_the_document_and_the_docs() -> None:
    info = openapi_document()["info"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", info["version"])
    for words in ("**Versions**", "Breaking", "Deprecation", "Sunset", "6 months", "docs/versioning.md"):
        assert words in info["description"], words
    text = POLICY.read_text(encoding="utf-8")
    assert f"**{info['version']}**" in text  # the change list names the current version
    for words in ("What counts as breaking", "Not breaking", "Deprecation: @", "Sunset:", "6 months"):
        assert words in text, words
