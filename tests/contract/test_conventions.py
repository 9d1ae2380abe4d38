"""The document's conventions hold on every operation: an `operationId`, no catch-all `default`
but the real error statuses as problem+json (429 with `Retry-After`, `Content-Language` on every
answer, `Accept-Language` on every request), and a request example and an answer example that is
valid against the answer's own schema (the examples are computed by the rules themselves)."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import jsonschema

from tests.contract.test_vocabulary import json_schema
from tests.openapi_document import openapi_document

DOC = openapi_document()
COMPONENTS = json_schema(DOC["components"])
OPERATIONS = [
    (path, method, operation)
    for path, item in DOC["paths"].items()
    for method, operation in item.items()
    if method in ("get", "post", "put", "delete", "patch")
]


def test_every_operation_has_an_id_and_the_real_statuses() -> None:
    ids = [operation.get("operationId") for _, _, operation in OPERATIONS]
    assert None not in ids and len(set(ids)) == len(ids) == len(OPERATIONS) >= 26
    for path, method, operation in OPERATIONS:
        responses = operation["responses"]
        assert "default" not in responses, (path, method)
        assert {"$ref": "#/components/parameters/AcceptLanguage"} in operation["parameters"]
        for status, response in responses.items():
            if int(status) >= 400:
                assert list(response["content"]) == ["application/problem+json"], (path, status)
                assert "Content-Language" in response["headers"]
                assert ("Retry-After" in response["headers"]) == (status == "429")
        if "requestBody" in operation:
            assert {"400", "413", "422"} <= set(responses), (path, method)
    limited = {(p, m) for p, m, o in OPERATIONS if "429" in o["responses"]}
    assert {
        ("/api/tables", "post"),
        ("/api/sheets", "post"),
        ("/api/tables/{table_id}/events", "post"),
    } <= limited


def example_of(content: dict[str, Any]) -> list[Any]:
    if "example" in content:
        return [content["example"]]
    return [e["value"] for e in content.get("examples", {}).values()]


def test_every_operation_has_examples_valid_against_its_schemas() -> None:
    for path, method, operation in OPERATIONS:
        body = operation.get("requestBody", {}).get("content", {})
        for content in body.values():
            examples = example_of(content)
            assert examples, (path, method, "request")
            validator = jsonschema.Draft7Validator({**content["schema"], "components": COMPONENTS})
            for example in examples:
                assert not [e.message for e in validator.iter_errors(example)], (path, method)
        if not body:  # a request without a body: its path parameters show an example
            declared = [*DOC["paths"][path].get("parameters", []), *operation["parameters"]]
            assert all("example" in p for p in declared if "in" in p and p["in"] == "path"), path
        answered = False
        for status, response in operation["responses"].items():
            for media, content in response.get("content", {}).items():
                for example in example_of(content):
                    answered |= status.startswith("2")
                    if "json" in media:
                        validator = jsonschema.Draft7Validator(
                            {**content["schema"], "components": COMPONENTS}
                        )
                        errors = [
                            f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(example)
                        ]
                        assert not errors, (path, method, status, errors[:3])
        assert answered, (path, method)


def _patterns(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            found.add(node["pattern"])
        for value in node.values():
            _patterns(value, found)
    elif isinstance(node, list):
        for value in node:
            _patterns(value, found)
    return found


def test_every_pattern_is_a_regex_as_ecma_262_reads_it() -> None:
    """OpenAPI patterns are ECMA-262 regexes without the `u` flag (a character beyond the BMP is two
    surrogates there): a pattern only Python reads made schemathesis refuse to test an operation
    now and then ("unsupported regular expression"), and a JavaScript client cannot check it."""
    patterns = sorted(_patterns(DOC, set()))
    assert len(patterns) >= 5
    check = (
        f"const bad = {json.dumps(patterns)}.filter((p) => {{ try {{ new RegExp(p); return false; }}"
        " catch (e) { return true; } }); console.log(JSON.stringify(bad));"
    )
    answer = subprocess.run(["node", "-e", check], capture_output=True, text=True, check=True)
    assert json.loads(answer.stdout) == []
    assert all(ord(c) <= 0xFFFF for p in patterns for c in p)
